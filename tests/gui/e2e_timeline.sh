#!/usr/bin/env bash
# End-to-end test of time travel with real X input (run under xvfb-run by CTest):
#   run a scene with overlap and LP3 events for 300 steps (paused), dump the state (F12), click
#   an event marker on the timeline bar where the dump says it is drawn; the app must go to
#   the marker's step and select exactly its agents. Then step back (,), go to the end of the
#   recording (Ctrl+.), whose state hash must equal the first dump's (seeking is bit-exact),
#   go to the previous event (Shift+,) and quit with Ctrl+Q.
#
#   e2e_timeline.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
launch --steps 300 --paused

find_window 512 300

dump_now
[[ "$(json step)" == 300 ]] || fail "step $(json step) after --steps 300"
[[ "$(json 'timeline;last')" == 300 && "$(json 'timeline;first')" == 0 ]] ||
    fail "recorded range $(json 'timeline;first')-$(json 'timeline;last'), want 0-300"
HEAD_HASH=$(json stateHash)
NM=$(json_len 'timeline;markers')
((NM > 2)) || fail "only $NM markers on the timeline"
# A marker of the overlap lane well before the head (the playhead is drawn at step 300).
PICK=-1
for ((k = 0; k < NM; k++)); do
    if [[ "$(json "timeline;markers;$k;lane")" == overlaps ]] &&
        (($(json "timeline;markers;$k;step") < 250)); then
        PICK=$k
        break
    fi
done
((PICK >= 0)) || fail "no overlap marker before step 250"
MSTEP=$(json "timeline;markers;$PICK;step")
MX=$(printf '%.0f' "$(json "timeline;markers;$PICK;screen;0")")
MY=$(printf '%.0f' "$(json "timeline;markers;$PICK;screen;1")")
NA=$(json_len "timeline;markers;$PICK;agents")
WANT=()
for ((a = 0; a < NA; a++)); do WANT+=("$(json "timeline;markers;$PICK;agents;$a")"); done
echo "marker $PICK: step $MSTEP at ($MX, $MY), agents ${WANT[*]}"

xdotool mousemove --window "$WID" "$MX" "$MY"
sleep 0.3
xdotool click 1
at_marker() { dump_now; [[ "$(json step)" == "$MSTEP" ]]; }
poll 60 "the click on the marker to go to step $MSTEP" at_marker
NS=$(json_len selected)
GOT=()
for ((a = 0; a < NS; a++)); do GOT+=("$(json "selected;$a")"); done
SORTED=$(printf '%s\n' "${GOT[@]}" | sort -n | tr '\n' ' ')
[[ "$SORTED" == "$(printf '%s\n' "${WANT[@]}" | sort -n | tr '\n' ' ')" ]] ||
    fail "selection is ${GOT[*]}, want the marker's agents ${WANT[*]}"
[[ "$(json 'timeline;last')" == 300 ]] || fail "the recording changed by seeking"
echo "ok: at step $MSTEP, selected ${GOT[*]}"
xdotool mousemove --window "$WID" 512 300

# Step back (comma), then the end of the recording (Ctrl+period), then the previous event (Shift+comma).
xdotool key comma
stepped_back() { dump_now; (($(json step) == MSTEP - 1)); }
poll 60 "step back to $((MSTEP - 1))" stepped_back
xdotool key ctrl+period
at_head() { dump_now; (($(json step) == 300)); }
poll 60 "the end of the recording" at_head
[[ "$(json stateHash)" == "$HEAD_HASH" ]] || fail "state hash at the head changed"
xdotool key shift+comma
before_head() { dump_now; (($(json step) < 300)); }
poll 60 "the previous event" before_head
echo "ok: previous event at step $(json step)"

quit_app
echo "ok: marker click, step back, end, previous event; exit 0"
