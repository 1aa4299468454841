#!/usr/bin/env bash
# End-to-end test of solve mode with real X input (run under xvfb-run by CTest): with agent 34
# of dense convergence selected at step 150 (LP2 fails there, LP3 runs), press V: solve mode at
# its first step; Right three times: step 3, with a narration; Left: step 2; V again: off.
#
#   e2e_solve.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

APP=$1
SCENE=$2
WORK=$3
CMAKE=$4
JSON_GET=$5

rm -rf "$WORK"
mkdir -p "$WORK"
DUMP=$WORK/state.json
SETTINGS=$WORK/settings.json
printf '{"format": "orca-sandbox-settings", "version": 1}\n' >"$SETTINGS"

export SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0
"$APP" "$SCENE" --steps 150 --paused --select 34 --dump-state "$DUMP" --size 1024x768 \
    --settings "$SETTINGS" >"$WORK/stdout.txt" 2>"$WORK/stderr.txt" &
PID=$!

source "$(dirname "$0")/e2e_lib.sh"
find_window 300 300

dump_now
[[ "$(json 'solve;active')" == OFF || "$(json 'solve;active')" == false ]] ||
    fail "solve mode is on at the start"

# Keys are held a moment: ImGui 1.86 reads key state once per frame.
press() { xdotool keydown "$1"; sleep 0.15; xdotool keyup "$1"; sleep 0.2; }
press v
solve_on() { dump_now; is_true "$(json 'solve;active')"; }
poll 60 "V to turn solve mode on" solve_on
STEPS=$(json 'solve;steps')
((STEPS > 4)) || fail "the trace has only $STEPS steps"
START=$(json 'solve;step')
for _ in 1 2 3; do press Right; done
at_step() { dump_now; (($(json 'solve;step') == START + 3)); }
poll 60 "Right x3 to step the trace to $((START + 3))" at_step
NARRATION=$(json 'solve;narration')
[[ -n "$NARRATION" ]] || fail "no narration at step $((START + 3))"
[[ "$(json step)" == 150 ]] || fail "Right stepped the simulation (step $(json step)) in solve mode"
echo "ok: solve step $((START + 3)) of $STEPS: $NARRATION"
press Left
back() { dump_now; (($(json 'solve;step') == START + 2)); }
poll 60 "Left to go back one trace step" back
press v
solve_off() { dump_now; ! is_true "$(json 'solve;active')"; }
poll 60 "V to turn solve mode off" solve_off
echo "ok: V, Right x3, Left, V"

xdotool key ctrl+q
end=$((SECONDS + 60))
while alive && ((SECONDS < end)); do sleep 0.1; done
alive && fail "orca-sandbox did not exit after Ctrl+Q"
rc=0
wait "$PID" || rc=$?
((rc == 0)) || fail "orca-sandbox exited with $rc"
echo "ok: exit 0"
