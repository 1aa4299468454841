#!/usr/bin/env bash
# End-to-end test of scene authoring with real X input (run under xvfb-run by CTest):
#   start on an empty scene with snapping on; draw an obstacle (obstacle tool, four clicks,
#   close on the first vertex); add two agents with goals (add-agent tool, drags) and one
#   without, give it a goal (goal tool, drag); move an agent and undo the move; undo and redo
#   the goal; Save As through the dialog; check the autosave wrote a recovery file and the save
#   removed it; quit; compare the saved file with the expected scene; reopen it and check the
#   app holds the same scene; then an unsaved edit, an autosave and a kill -9: the next start
#   offers the recovery; "Not now" keeps it and the session autosaves to a file of its own;
#   then an unsaved edit and SIGTERM before any autosave: the app ends at once (no prompt),
#   with the edit in the recovery file, which the next start offers.
#
#   e2e_authoring.sh APP EMPTY_SCENE WORKDIR CMAKE JSON_GET_SCRIPT EXPECTED COMPARE_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
# A copy in WORK: Save As lists the scene's folder, where a bare file name is saved.
EMPTY=$WORK/empty.json
cp "$SCENE" "$EMPTY"
EXPECTED=$6
COMPARE=$7
RECOVERY=$WORK/recovery.json
OUT=$WORK/authored.json

start() { # start SCENE [ARGS...]: launch it paused, find the window, dump, read the camera
    SCENE=$1
    shift
    # Save As is given a bare file name, saved in the scene's folder (xdotool types some
    # characters of a long path, such as '_', differently depending on the keymap).
    pushd "$WORK" >/dev/null
    launch --paused "$@"
    popd >/dev/null
    find_window 512 700
    dump_now
    read_camera
}

# Pointer, keys and editor checks: e2e_lib.sh. Keys of ImGui's own widgets (text fields,
# dialogs) are held: see hold there.

# --- Author a scene --------------------------------------------------------------------------
start "$EMPTY" --autosave-seconds 1
[[ "$(json 'editor;sceneAgents')" == 0 ]] || fail "the empty scene has agents"
key s # snap to the grid (step 1)
expect_editor snap ON
key 5 # obstacle tool
click -10 5
click -4 5
click -4 10
click -10 10
click -10 5 # the first vertex closes it
expect_editor sceneObstacles 1
key 3 # add-agent tool: a drag places the agent and its goal
drag -14 0 14 0
drag 14 2 -14 2
click 0 -8
expect_editor sceneAgents 3
key 4 # goal tool
drag 0 -8 0 12
expect_editor undo 5
key 2 # select tool: move agent 2, then undo the move
drag 0 -8 3 -9
expect_editor undoLabel "Move selection"
key ctrl+z
expect_editor undoLabel "Set goal of 1 agent"
key ctrl+z # the goal goes
expect_editor redo 2
key ctrl+shift+z # and comes back
expect_editor undoLabel "Set goal of 1 agent"
[[ "$(json 'editor;redo')" == 1 ]] || fail "redo stack should hold the undone move"
is_true "$(json unsaved)" || fail "an authored scene is not marked unsaved"
# Autosave (every second here) writes the recovery file.
recovery_written() { [[ -f "$RECOVERY" ]]; }
poll 30 "the autosave to write $RECOVERY" recovery_written

# Save As: the dialog's path field takes the keyboard; Enter saves.
key ctrl+shift+s
sleep 0.5
hold a ctrl
xdotool type --delay 40 "$(basename "$OUT")"
sleep 0.3
hold Return
saved() { dump_now; [[ -f "$OUT" ]] && ! is_true "$(json unsaved)"; }
poll 30 "the scene to be saved to $OUT" saved
[[ ! -f "$RECOVERY" ]] || fail "the recovery file survived a save"
quit_app

"$CMAKE" -DACTUAL="$OUT" -DEXPECTED="$EXPECTED" -P "$COMPARE" || fail "saved scene differs"

# --- Reload it ---------------------------------------------------------------------------------
start "$OUT" --autosave-seconds 1
[[ "$(json 'editor;sceneAgents')" == 3 && "$(json 'editor;sceneObstacles')" == 1 ]] ||
    fail "reloaded scene has $(json 'editor;sceneAgents') agents, $(json 'editor;sceneObstacles') obstacles"
is_true "$(json unsaved)" && fail "a freshly opened scene is unsaved"
is_true "$(json 'editor;recoveryPending')" && fail "a recovery was offered after a clean exit"

# --- An unsaved edit, autosaved, then the app is killed ----------------------------------------
key 3
click 6 -6
expect_editor sceneAgents 4
poll 30 "the autosave after the new edit" recovery_written
kill -9 "$PID"
wait "$PID" 2>/dev/null || true
PID=
start "$OUT" --autosave-seconds 1
[[ "$(json dialog)" == recover ]] || fail "no recovery offered after a crash (dialog $(json dialog))"
is_true "$(json 'editor;recoveryPending')" || fail "recovery not pending"
hold Escape # not now: kept for the next start (a key of the dialog: held)
dialog_closed() { dump_now; [[ "$(json dialog)" == none ]]; }
poll 30 "the recovery dialog to close" dialog_closed
[[ -f "$RECOVERY" ]] || fail "'Not now' deleted the recovery file"
# The session autosaves to a file of its own; the put-off one is not touched.
OWN=$WORK/recovery-2.json
before=$(cksum <"$RECOVERY")
key 3
click 6 -2
expect_editor sceneAgents 4
own_written() { [[ -f "$OWN" ]]; }
poll 30 "the session's own autosave to $OWN" own_written
[[ "$(cksum <"$RECOVERY")" == "$before" ]] || fail "the session autosaved over the put-off file"
key ctrl+z # back to the file's scene: nothing unsaved, so Ctrl+Q quits without asking
expect_editor sceneAgents 3
quit_app
[[ -f "$RECOVERY" ]] || fail "quitting without answering deleted the recovery file"
[[ ! -f "$OWN" ]] || fail "a clean exit kept the session's own recovery file"

# --- An unsaved edit, then SIGTERM (a logout) long before the next autosave --------------------
# (An autosave once an hour from the start: none before the signal.)
rm -f "$RECOVERY"
start "$OUT" --autosave-seconds 3600
key 3
click -6 6
click 6 6
expect_editor sceneAgents 5
sleep 1
[[ ! -f "$RECOVERY" ]] || fail "an autosave ran before its period (from the start) was over"
kill -TERM "$PID"
end=$((SECONDS + 20))
while alive && ((SECONDS < end)); do sleep 0.1; done
alive && fail "orca-sandbox did not end within 20 s of SIGTERM"
rc=0
wait "$PID" || rc=$?
PID=
((rc == 0)) || fail "orca-sandbox exited with $rc after SIGTERM"
[[ -f "$RECOVERY" ]] || fail "SIGTERM lost the unsaved edits (no $RECOVERY)"
recovered_agents=$("$CMAKE" "-DFILE=$RECOVERY" -DKEY=agents -DLENGTH=1 -P "$JSON_GET")
[[ "$recovered_agents" == 5 ]] || fail "$RECOVERY holds $recovered_agents agents, not 5"
grep -q "ended by SIGTERM: the unsaved scene is kept in" "$WORK/stderr.txt" ||
    fail "no word on stderr of the kept scene: $(cat "$WORK/stderr.txt")"
start "$OUT"
[[ "$(json dialog)" == recover ]] || fail "no recovery offered after SIGTERM (dialog $(json dialog))"
hold Escape
poll 30 "the recovery dialog to close" dialog_closed
quit_app
echo "ok: authored, undone/redone, saved, compared, reloaded, recovery offered after kill -9 and kept at SIGTERM"
