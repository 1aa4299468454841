#!/usr/bin/env bash
# The first launch as a new user sees it (under xvfb-run; --frames quits by itself):
#   1. no scene argument and no settings file: the welcome scene opens and runs, one agent is
#      selected (so its overlays show), the scene's hint is up, it plays at the scene's speed,
#      and the Help window ("Start here") is open inside the band between the menu bar and the
#      timeline (the tool strip, timeline and status bar stay visible);
#   2. the next launch: no Help window;
#   3. a first launch at 200 % UI scale in a smaller window: Help still inside the band.
#
#   e2e_first_run.sh APP SCENE(unused) WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

APP=$1
WORK=$3
CMAKE=$4
JSON_GET=$5

rm -rf "$WORK"
mkdir -p "$WORK"
export SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0

source "$(dirname "$0")/e2e_lib.sh"

# le A B: A <= B for decimal numbers.
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b + 0.5) }'; }

run() { # run NAME SETTINGS ARGS... (no scene argument: the default scene)
    local name=$1 settings=$2
    shift 2
    local rc=0
    timeout 120 "$APP" --frames 90 --settings "$settings" --dump-state "$WORK/$name.json" "$@" \
        >"$WORK/$name.stdout.txt" 2>"$WORK/$name.stderr.txt" || rc=$?
    ((rc == 0)) || fail "$name: orca-sandbox exited with $rc"
}

# The Help window lies inside the world view's band (below the menu bar with the tool strip,
# above the timeline and the status bar).
help_in_band() { # help_in_band DUMP
    local d=$1
    local top bottom y0 y1 x1 width
    top=$(get "$d" 'camera;viewport;1')
    bottom=$(get "$d" 'camera;viewport;3')
    y0=$(get "$d" 'help;rect;1')
    y1=$(get "$d" 'help;rect;3')
    x1=$(get "$d" 'help;rect;2')
    width=$(get "$d" 'window;width')
    le "$top" "$y0" || fail "$d: Help (top $y0) covers the menu bar (ends at $top)"
    le "$y1" "$bottom" || fail "$d: Help (bottom $y1) covers the timeline (starts at $bottom)"
    le "$x1" "$width" || fail "$d: Help (right $x1) is cut off by the window edge ($width)"
}

# 1. First launch.
run first "$WORK/prefs/settings.json" --size 1280x800
D=$WORK/first.json
[[ "$(get "$D" sceneFile)" == */scenes/welcome.json ]] || fail "first launch: not the welcome scene"
is_true "$(get "$D" 'help;open')" || fail "first launch: Help is not open"
is_true "$(get "$D" 'help;firstLaunch')" || fail "first launch: Help not in its first-launch form"
help_in_band "$D"
[[ "$(get "$D" primary)" == 2 ]] || fail "first launch: agent 2 is not selected"
(($(get "$D" step) > 0)) || fail "first launch: the scene is not running"
[[ -n "$(get "$D" sceneHint)" ]] || fail "first launch: no hint"
awk -v s="$(get "$D" timeScale)" 'BEGIN { exit !(s == 2) }' ||
    fail "first launch: not at the welcome scene's speed"

# 2. Second launch: the settings exist now.
run second "$WORK/prefs/settings.json" --size 1280x800
is_true "$(get "$WORK/second.json" 'help;open')" && fail "second launch: Help opened again"
[[ "$(get "$WORK/second.json" sceneFile)" == */scenes/welcome.json ]] ||
    fail "second launch: not the welcome scene"

# 3. First launch, large UI in a small window.
run scaled "$WORK/prefs2/settings.json" --size 1024x700 --ui-scale 200
is_true "$(get "$WORK/scaled.json" 'help;open')" || fail "scaled: Help is not open"
help_in_band "$WORK/scaled.json"
echo "ok"
