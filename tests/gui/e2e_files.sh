#!/usr/bin/env bash
# The file browser with real X input (run under xvfb-run by CTest):
#   Ctrl+O lists the scene's folder; Down selects the folder "zoo", Enter opens it; Down
#   selects its scene, Enter loads it (the dump's sceneFile); Ctrl+Shift+S lists zoo with the
#   scene's name; a click on New folder, "made", Enter makes and enters it; Enter saves there
#   (file on disk, "saved" note); a second Save as + Enter asks before replacing (the file
#   untouched), Enter replaces it. Then with "fileDialog": "desktop": a stand-in zenity on PATH
#   is run (the app keeps drawing while it waits) and its answer saved; without zenity on PATH
#   the built-in browser opens with a note.
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
xdotool key Return # a tap, pressed and released between two frames, counts too
poll 30 "the replaced scene" saved
expect dialog none
[[ "$(grep -c "^saved $WORK/zoo/made/cross.json\$" "$WORK/stdout.txt")" == 2 ]] ||
    fail "the second save has no note"
quit_app

# The desktop's dialog: a stand-in zenity that logs its arguments, waits, answers a file.
mkdir -p "$WORK/bin"
cat >"$WORK/bin/zenity" <<EOS
#!/bin/sh
printf '%s\n' "\$@" >"$WORK/zenity-args.txt"
sleep 3
echo "$WORK/zoo/desk.json"
EOS
chmod +x "$WORK/bin/zenity"
printf '{"format": "orca-sandbox-settings", "version": 1, "fileDialog": "desktop"}\n' >"$SETTINGS"
PATH="$WORK/bin:$PATH" launch --paused
find_window 512 700
dump_now
key ctrl+shift+s
expect 'fileDialog;desktopRunning' ON # while zenity runs, the app answers F12
desk_saved() { [[ -s "$WORK/zoo/desk.json" ]]; }
poll 30 "the scene saved where zenity answered" desk_saved
expect dialog none
grep -qx -- --save "$WORK/zenity-args.txt" || fail "zenity was not asked to save"
grep -qx -- --confirm-overwrite "$WORK/zenity-args.txt" || fail "no --confirm-overwrite"
grep -qx -- "--filename=$WORK/start.json" "$WORK/zenity-args.txt" || fail "no --filename"
quit_app

# No zenity on PATH: the built-in browser, with a note.
# (the app alone gets an empty PATH: through a wrapper that execs it, so PID is the app's)
printf '#!/bin/sh\nPATH=/nonexistent exec "%s" "$@"\n' "$APP" >"$WORK/no-path-app.sh"
chmod +x "$WORK/no-path-app.sh"
APP=$WORK/no-path-app.sh
launch --paused
find_window 512 700
dump_now
key ctrl+shift+s
expect dialog saveAs
is_true "$(json 'fileDialog;desktopRunning')" && fail "a desktop dialog runs without zenity"
grep -q "No desktop file dialog (zenity is not on PATH)" "$WORK/stdout.txt" || fail "no fallback note"
xdotool key Escape # a tap
expect dialog none
quit_app
echo "ok: browsed into a folder, opened a scene, saved into a new folder, overwrite asked" \
    "first; the desktop's dialog answered, and its absence fell back with a note"
