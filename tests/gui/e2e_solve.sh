#!/usr/bin/env bash
# End-to-end test of solve mode with real X input (run under xvfb-run by CTest): with agent 34
# of dense convergence selected at step 150 (LP2 fails there, LP3 runs), press V: solve mode at
# its first step; Right three times: step 3, with a narration; Left: step 2; V again: off.
#
#   e2e_solve.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
launch --steps 150 --paused --select 34
find_window 300 300

dump_now
is_false "$(json 'solve;active')" || fail "solve mode is on at the start"

# Keys are held a moment (hold): ImGui 1.86 reads key state once per frame.
hold v
solve_on() { dump_now; is_true "$(json 'solve;active')"; }
poll 60 "V to turn solve mode on" solve_on
STEPS=$(json 'solve;steps')
((STEPS > 4)) || fail "the trace has only $STEPS steps"
START=$(json 'solve;step')
for _ in 1 2 3; do hold Right; done
at_step() { dump_now; (($(json 'solve;step') == START + 3)); }
poll 60 "Right x3 to step the trace to $((START + 3))" at_step
NARRATION=$(json 'solve;narration')
[[ -n "$NARRATION" ]] || fail "no narration at step $((START + 3))"
[[ "$(json step)" == 150 ]] || fail "Right stepped the simulation (step $(json step)) in solve mode"
echo "ok: solve step $((START + 3)) of $STEPS: $NARRATION"
hold Left
back() { dump_now; (($(json 'solve;step') == START + 2)); }
poll 60 "Left to go back one trace step" back
hold v
solve_off() { dump_now; ! is_true "$(json 'solve;active')"; }
poll 60 "V to turn solve mode off" solve_off
echo "ok: V, Right x3, Left, V"

quit_app
echo "ok: exit 0"
