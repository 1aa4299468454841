#!/usr/bin/env bash
# The file browser with real X input (run under xvfb-run by CTest):
#   Ctrl+O lists the scene's folder; Down selects the folder "zoo", Enter opens it; Down
#   selects its scene, Enter loads it (the dump's sceneFile); Ctrl+Shift+S lists zoo with the
#   scene's name; a click on New folder, "made", Enter makes and enters it; Enter saves there
#   (file on disk, "saved" note); a second Save as + Enter asks before replacing (the file
#   untouched), Enter replaces it.
#
#   e2e_files.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
mkdir -p "$WORK/zoo"
cp "$SCENE" "$WORK/start.json"
cp "$SCENE" "$WORK/zoo/cross.json"
SCENE=$WORK/start.json
launch --paused
find_window 512 700
dump_now

is() { dump_now; [[ "$(json "$1")" == "$2" ]]; } # is KEY VALUE
expect() { poll 30 "$1 = $2 (now $(json "$1"))" is "$1" "$2"; }

# Open: the scene's folder, folders first.
key ctrl+o
expect dialog open
expect 'fileDialog;folder' "$WORK"
[[ "$(json 'fileDialog;entries;0')" == zoo ]] || fail "the first row is $(json 'fileDialog;entries;0'), not zoo"
hold Down
expect 'fileDialog;selected' 0
hold Return
expect 'fileDialog;folder' "$WORK/zoo"
hold Down
expect 'fileDialog;name' cross.json
hold Return
expect dialog none
expect sceneFile "$WORK/zoo/cross.json"

# Save as into a new folder made with the New folder button.
key ctrl+shift+s
expect dialog saveAs
expect 'fileDialog;folder' "$WORK/zoo"
[[ "$(json 'fileDialog;name')" == cross.json ]] || fail "Save as proposes $(json 'fileDialog;name')"
bx=$(awk -v a="$(json 'fileDialog;newFolderButton;0')" -v b="$(json 'fileDialog;newFolderButton;2')" 'BEGIN{printf "%d", (a+b)/2}')
by=$(awk -v a="$(json 'fileDialog;newFolderButton;1')" -v b="$(json 'fileDialog;newFolderButton;3')" 'BEGIN{printf "%d", (a+b)/2}')
xdotool mousemove --window "$WID" "$bx" "$by"
sleep 0.2
xdotool click 1
expect 'fileDialog;step' newFolder
sleep 0.3
xdotool type --delay 60 made
sleep 0.3
hold Return
expect 'fileDialog;folder' "$WORK/zoo/made"
expect 'fileDialog;step' browse
hold Return
saved() { [[ -s "$WORK/zoo/made/cross.json" ]]; }
poll 30 "the scene to be saved in the new folder" saved
expect dialog none
expect sceneFile "$WORK/zoo/made/cross.json"
grep -q "^saved $WORK/zoo/made/cross.json\$" "$WORK/stdout.txt" || fail "no 'saved' note"

# Again: the overwrite prompt is a real step.
: >"$WORK/zoo/made/cross.json"
key ctrl+shift+s
expect dialog saveAs
expect 'fileDialog;folder' "$WORK/zoo/made"
hold Return
expect 'fileDialog;step' overwrite
[[ ! -s "$WORK/zoo/made/cross.json" ]] || fail "written before the overwrite prompt was answered"
hold Return
poll 30 "the replaced scene" saved
expect dialog none
[[ "$(grep -c "^saved $WORK/zoo/made/cross.json\$" "$WORK/stdout.txt")" == 2 ]] ||
    fail "the second save has no note"
quit_app
echo "ok: browsed into a folder, opened a scene, saved into a new folder, overwrite asked first"
