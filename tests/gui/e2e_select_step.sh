#!/usr/bin/env bash
# End-to-end test of orca-sandbox with real X input (run under xvfb-run by CTest):
#   start the window paused on a scene, dump the state (F12), click agent 2 at the screen
#   position the dump gives, run (p) until the simulation advances, pause (p), single-step
#   twice (o o), dump again, walk construction mode (C, Right, Down, C) and single-step with
#   Right, close with Ctrl+Q; then check the dumps: agent 2 selected and primary, paused,
#   exactly two single steps after the pause, the arrows stepping the construction only in
#   construction mode, exit code 0, a final dump.
#
#   e2e_select_step.sh APP SCENE WORKDIR CMAKE JSON_GET_SCRIPT
#
# Every wait polls with a generous deadline (slow CI machines), never a bare fixed sleep.
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
launch --paused # e2e_init's settings file: not a first launch, no Help covers the agents
find_window 512 384

dump_now
is_false "$(json running)" || fail "not paused at start"
STEP0=$(json step)
W=$(json "window;width")
H=$(json "window;height")
[[ "$W" == 1024 && "$H" == 768 ]] || fail "window is ${W}x${H}, want 1024x768"
X=$(printf '%.0f' "$(json 'agents;2;screen;0')")
Y=$(printf '%.0f' "$(json 'agents;2;screen;1')")
echo "agent 2 at ($X, $Y), step $STEP0"

xdotool mousemove --window "$WID" "$X" "$Y"
xdotool click 1
selected_two() { dump_now; [[ "$(json primary)" == 2 ]]; }
poll 60 "agent 2 to be selected" selected_two
count=$(json_len selected)
[[ "$count" == 1 && "$(json 'selected;0')" == 2 ]] || fail "selection is $(json selected), want [2]"
# Move the pointer off the agents (a hover tooltip is harmless, but keep the view clean).
xdotool mousemove --window "$WID" 1000 60

# Run until the simulation has advanced.
xdotool key p
advanced() { dump_now; is_true "$(json running)" && (($(json step) > STEP0)); }
poll 90 "the simulation to run" advanced
echo "running: step $(json step)"

# Pause; the step count must then stay put.
xdotool key p
paused() { dump_now; is_false "$(json running)"; }
poll 60 "the simulation to pause" paused
STEP_PAUSED=$(json step)
sleep 0.5
dump_now
[[ "$(json step)" == "$STEP_PAUSED" ]] || fail "the step advanced while paused"

# Two single steps.
xdotool key o
xdotool key o
two_steps() { dump_now; (($(json step) >= STEP_PAUSED + 2)); }
poll 60 "two single steps" two_steps
STEP_FINAL=$(json step)
echo "paused at $STEP_PAUSED, after o o: $STEP_FINAL"
((STEP_FINAL == STEP_PAUSED + 2)) || fail "step $STEP_FINAL after two single steps from $STEP_PAUSED"
is_false "$(json running)" || fail "running after single steps"
[[ "$(json primary)" == 2 ]] || fail "agent 2 no longer the primary selection"
is_false "$(json unsaved)" || fail "scene marked unsaved"

# Construction mode (C): the arrows walk the construction instead of stepping; off again,
# Right is a single step.
xdotool key c
construction_on() { dump_now; is_true "$(json 'construction;active')"; }
poll 60 "construction mode" construction_on
xdotool key Right
xdotool key Down
phase_moved() { dump_now; [[ "$(json 'construction;phase')" == 1 ]]; }
poll 60 "the construction phase to advance" phase_moved
[[ "$(json 'construction;neighbor')" == 1 ]] || fail "Down did not pick the next neighbour"
[[ "$(json step)" == "$STEP_FINAL" ]] || fail "Right stepped the simulation in construction mode"
xdotool key c
xdotool key Right
right_steps() { dump_now; (($(json step) == STEP_FINAL + 1)); }
poll 60 "Right to single-step outside construction mode" right_steps
STEP_FINAL=$(json step)
is_false "$(json 'construction;active')" || fail "construction mode still on"

# Close (Ctrl+Q: the same request as the window's close button) and expect a clean exit.
quit_app
[[ "$(json reason)" == exit ]] || fail "no dump on exit"
[[ "$(json step)" == "$STEP_FINAL" && "$(json primary)" == 2 ]] || fail "exit dump differs"
echo "ok: agent 2 selected, steps $STEP0 -> $STEP_PAUSED (run, pause) -> +2 (o o) -> $STEP_FINAL (Right after construction mode), exit 0"
