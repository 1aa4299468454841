#!/usr/bin/env bash
# The settings file across runs of the real app (under xvfb-run; --frames quits by itself):
#   1. no settings file (first launch): the Help window is open, and the file is written on
#      exit with the layers in effect (--layers);
#   2. the next launch reads it: no Help window, the same layers;
#   3. a corrupt file: ignored with a message on stderr, the app runs and exits 0, and the file
#      is replaced by a valid one.
#
#   e2e_settings.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
first_launch_settings prefs
mkdir -p "$WORK/prefs" # the folder exists, the file does not

run() { # run NAME ARGS...: SCENE, paused, 20 frames, 640x480 (DUMP: $WORK/NAME.json)
    local name=$1
    shift
    run_app "$name" "$SCENE" --paused --frames 20 --size 640x480 "$@"
}

# 1. First launch.
run first --layers halfPlanes,feasibleRegion,grid
is_true "$(json 'panels;help')" || fail "first launch: Help is not open"
[[ -f "$SETTINGS" ]] || fail "first launch: no settings file written"
is_true "$(get "$SETTINGS" 'layers;halfPlanes')" || fail "settings: halfPlanes not saved on"
is_true "$(get "$SETTINGS" 'layers;voCones')" && fail "settings: voCones saved on"
[[ -f "$WORK/prefs/imgui.ini" ]] || fail "no imgui.ini next to the settings"

# 2. Second launch: settings read back.
run second
is_true "$(json 'panels;help')" && fail "second launch: Help opened again"
is_true "$(json 'layers;feasibleRegion')" || fail "layers not restored"
is_true "$(json 'layers;voCones')" && fail "layers not restored (voCones)"

# 3. A corrupt settings file.
printf '{ "layers": { "grid": tru' >"$SETTINGS"
run corrupt
grep -q "ignoring the settings file" "$WORK/corrupt.stderr.txt" || fail "no message about the corrupt file"
is_true "$(json 'panels;help')" && fail "corrupt file treated as first launch"
is_true "$(json 'layers;voCones')" || fail "corrupt file: defaults not used"
get "$SETTINGS" format >/dev/null || fail "the corrupt file was not replaced on exit"
echo "ok: first launch shows Help, settings persist, a corrupt file is ignored and replaced"
