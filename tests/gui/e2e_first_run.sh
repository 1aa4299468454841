#!/usr/bin/env bash
# The first launch as a new user sees it (under xvfb-run; --frames quits by itself):
#   1. no scene argument and no settings file: the welcome scene opens and runs, one agent is
#      selected (so its overlays show), the scene's hint is up, it plays at the scene's speed,
#      and the Help window ("Start here") is open inside the band between the menu bar and the
#      timeline (the tool strip, timeline and status bar stay visible);
#   2. the next launch: no Help window;
#   3. a first launch at 200 % UI scale in a smaller window: Help still inside the band;
#   in 1 and 3 every agent is on screen and neither Help, the hint bar nor the velocity panel
#   covers any agent or the selected agent's disk (the first framing fits beside them).
#
#   e2e_first_run.sh APP SCENE(unused) WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"

# le A B: A <= B for decimal numbers.
le() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b + 0.5) }'; }

run() { # run NAME ARGS...: no scene argument (the default scene), 90 frames (DUMP: $WORK/NAME.json)
    local name=$1
    shift
    run_app "$name" --frames 90 "$@"
}

# The Help window lies inside the world view's band (below the menu bar with the tool strip,
# above the timeline and the status bar).
help_in_band() { # help_in_band: in the last dump
    local top bottom y0 y1 x1 width
    top=$(json 'camera;viewport;1')
    bottom=$(json 'camera;viewport;3')
    y0=$(json 'help;rect;1')
    y1=$(json 'help;rect;3')
    x1=$(json 'help;rect;2')
    width=$(json 'window;width')
    le "$top" "$y0" || fail "$DUMP: Help (top $y0) covers the menu bar (ends at $top)"
    le "$y1" "$bottom" || fail "$DUMP: Help (bottom $y1) covers the timeline (starts at $bottom)"
    le "$x1" "$width" || fail "$DUMP: Help (right $x1) is cut off by the window edge ($width)"
}

# in_rect X Y "x0 y0 x1 y1": the point lies inside the rectangle.
in_rect() {
    awk -v x="$1" -v y="$2" -v r="$3" 'BEGIN { split(r, a, " ");
        exit !(x >= a[1] && x <= a[3] && y >= a[2] && y <= a[4]) }'
}
rect() { # rect KEY: "x0 y0 x1 y1" of a dumped rectangle
    echo "$(json "$1;0") $(json "$1;1") $(json "$1;2") $(json "$1;3")"
}

# The whole scene and the selected agent (with its radius) are on screen, in the world view,
# and no window or bar covers them: Help, the hint bar, the velocity panel (issue 26).
scene_visible() {
    local n vp covers=() name x y r
    n=$(json_len agents)
    vp=$(rect 'camera;viewport')
    is_true "$(json 'help;open')" && covers+=("Help=$(rect 'help;rect')")
    for name in '##scene-hint' 'Velocity space'; do
        if get "$DUMP" "windows;$name;open" >/dev/null 2>&1 &&
            is_true "$(json "windows;$name;open")"; then
            covers+=("$name=$(rect "windows;$name;rect")")
        fi
    done
    for ((i = 0; i < n; ++i)); do
        x=$(json "agents;$i;screen;0")
        y=$(json "agents;$i;screen;1")
        in_rect "$x" "$y" "$vp" || fail "$DUMP: agent $i ($x, $y) is outside the world view"
        for c in "${covers[@]}"; do
            in_rect "$x" "$y" "${c#*=}" && fail "$DUMP: agent $i ($x, $y) is under ${c%%=*}"
        done
    done
    # The selected agent's disk, whole.
    i=$(json primary)
    x=$(json "agents;$i;screen;0")
    y=$(json "agents;$i;screen;1")
    r=$(json "agents;$i;radiusPx")
    for c in "${covers[@]}"; do
        for p in "$(awk -v a="$x" -v b="$r" 'BEGIN{print a - b}') $y" \
                 "$(awk -v a="$x" -v b="$r" 'BEGIN{print a + b}') $y" \
                 "$x $(awk -v a="$y" -v b="$r" 'BEGIN{print a - b}')" \
                 "$x $(awk -v a="$y" -v b="$r" 'BEGIN{print a + b}')"; do
            # shellcheck disable=SC2086
            in_rect $p "${c#*=}" && fail "$DUMP: the selected agent's disk is under ${c%%=*}"
        done
    done
    return 0
}

# 1. First launch.
first_launch_settings prefs
run first --size 1280x800
[[ "$(json sceneFile)" == */scenes/welcome.json ]] || fail "first launch: not the welcome scene"
is_true "$(json 'help;open')" || fail "first launch: Help is not open"
is_true "$(json 'help;firstLaunch')" || fail "first launch: Help not in its first-launch form"
help_in_band
[[ "$(json primary)" == 2 ]] || fail "first launch: agent 2 is not selected"
scene_visible
(($(json step) > 0)) || fail "first launch: the scene is not running"
[[ -n "$(json sceneHint)" ]] || fail "first launch: no hint"
awk -v s="$(json timeScale)" 'BEGIN { exit !(s == 2) }' ||
    fail "first launch: not at the welcome scene's speed"

# 2. Second launch: the settings exist now.
run second --size 1280x800
is_true "$(json 'help;open')" && fail "second launch: Help opened again"
[[ "$(json sceneFile)" == */scenes/welcome.json ]] ||
    fail "second launch: not the welcome scene"

# 3. First launch, large UI in a small window.
first_launch_settings prefs2
run scaled --size 1024x700 --ui-scale 200
is_true "$(json 'help;open')" || fail "scaled: Help is not open"
help_in_band
scene_visible
echo "ok"
