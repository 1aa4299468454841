#!/usr/bin/env bash
# End-to-end test of a live what-if with real X input (run under xvfb-run by CTest): at step 20
# of a 40-step recording with agent 0 selected, drag the tip of a neighbour's velocity arrow
# (its screen position comes from the dump's whatIfHandles): the dump shows the preview; Esc
# reverts to the same stateHash; drag again and press Enter: kept, the recorded future is cut
# (last = 20) and the state differs; Ctrl+Z brings the recording back (last = 40, same hash).
#
#   e2e_what_if.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
launch --steps 40 --seek 20 --select 0

find_window 1000 100

dump_now
[[ "$(json step)" == 20 && "$(json 'timeline;last')" == 40 ]] ||
    fail "at step $(json step), recorded to $(json 'timeline;last'); want 20 of 40"
BEFORE=$(json stateHash)
NH=$(json_len whatIfHandles)
PICK=-1
for ((k = 0; k < NH; k++)); do
    if [[ "$(json "whatIfHandles;$k;target")" == velocity && "$(json "whatIfHandles;$k;agent")" != 0 ]]; then
        PICK=$k
        break
    fi
done
((PICK >= 0)) || fail "no neighbour velocity handle among $NH handles"
AGENT=$(json "whatIfHandles;$PICK;agent")
HX=$(printf '%.0f' "$(json "whatIfHandles;$PICK;screen;0")")
HY=$(printf '%.0f' "$(json "whatIfHandles;$PICK;screen;1")")
echo "dragging agent $AGENT's velocity tip at ($HX, $HY)"

drag() {
    xdotool mousemove --window "$WID" "$HX" "$HY"
    sleep 0.3
    xdotool mousedown 1
    sleep 0.2
    for d in 10 20 30 40; do
        xdotool mousemove --window "$WID" $((HX + d)) $((HY - d))
        sleep 0.1
    done
    sleep 0.2
    xdotool mouseup 1
    sleep 0.2
}
previewed() { dump_now; [[ "$(json 'whatIf;target')" == velocity && "$(json 'whatIf;agent')" == "$AGENT" ]]; }

drag
poll 60 "the what-if preview after the drag" previewed
[[ "$(json 'whatIf;value;0')" != "$(json 'whatIf;original;0')" ]] || fail "the drag changed nothing"
[[ "$(json stateHash)" != "$BEFORE" ]] || fail "the preview did not change the simulator"
echo "ok: preview of agent $AGENT's velocity"

xdotool key Escape
reverted() { dump_now; [[ "$(json whatIf)" == "" || "$(json whatIf)" == null ]] && [[ "$(json stateHash)" == "$BEFORE" ]]; }
poll 60 "Esc to revert the preview" reverted
echo "ok: Esc reverted to the same state"

drag
poll 60 "the second preview" previewed
xdotool key Return
kept() { dump_now; [[ "$(json 'timeline;last')" == 20 ]] && [[ "$(json stateHash)" != "$BEFORE" ]]; }
poll 60 "Enter to keep the what-if (the future cut at step 20)" kept
echo "ok: kept, recording cut at 20"

xdotool key ctrl+z
undone() { dump_now; [[ "$(json 'timeline;last')" == 40 && "$(json stateHash)" == "$BEFORE" ]]; }
poll 60 "Ctrl+Z to bring the recording back" undone
echo "ok: undo brought the recording back"

quit_app
echo "ok: drag, Esc, drag, Enter, Ctrl+Z; exit 0"
