#!/usr/bin/env bash
# End-to-end test of waypoint editing with real X input (run under xvfb-run by CTest): one agent
# with a goal, the goal tool, snapping on; Shift+click adds a waypoint, a click on a leg of the
# route inserts one, a drag moves one, a click on the first leg inserts another, a right-click
# removes one; undo and redo; Ctrl+S saves; the saved file's "waypoints" are checked.
#
#   e2e_waypoints.sh APP UNUSED WORKDIR CMAKE JSON_GET_SCRIPT
set -euo pipefail

source "$(dirname "$0")/e2e_lib.sh"
e2e_init "$@"
SCENE=$WORK/route.json
cat >"$SCENE" <<'JSON'
{
  "format": "orca-scene",
  "version": 1,
  "name": "Route",
  "agents": [
    { "position": [0, 0], "goal": [10, 0] }
  ]
}
JSON

launch --paused --tool goal --select 0
find_window 512 700
dump_now
read_camera

[[ "$(json 'editor;tool')" == Goal ]] || fail "not the goal tool: $(json 'editor;tool')"
key s # snap to the grid (step 1): every point below is exact
expect_editor snap ON

# Shift+click: waypoint 1 at (4, 2).
move 4 2
xdotool keydown shift
sleep 0.15
xdotool click 1
sleep 0.2
xdotool keyup shift
sleep 0.2
expect_editor undoLabel "Insert waypoint 1 of agent #0"
# A click on the leg (4, 2) -> (10, 0) at its middle (7, 1): waypoint 2 there.
click 7 1
expect_editor undoLabel "Insert waypoint 2 of agent #0"
# Drag waypoint 1 to (4, 4).
drag 4 2 4 4
expect_editor undoLabel "Move waypoint 1 of agent #0"
# A click on the first leg (0, 0) -> (4, 4) at (2, 2): a new waypoint 1.
click 2 2
expect_editor undoLabel "Insert waypoint 1 of agent #0"
# Right-click waypoint 3, (7, 1): removed.
click 7 1 3
expect_editor undoLabel "Delete waypoint 3 of agent #0"
is_true "$(json unsaved)" || fail "waypoint edits did not mark the scene unsaved"
key ctrl+z
expect_editor undoLabel "Insert waypoint 1 of agent #0"
key ctrl+shift+z
expect_editor undoLabel "Delete waypoint 3 of agent #0"

key ctrl+s
saved() { dump_now; ! is_true "$(json unsaved)"; }
poll 30 "the scene to be saved" saved
quit_app

want=(2 2 4 4)
got=("$(get "$SCENE" 'agents;0;waypoints;0;0')" "$(get "$SCENE" 'agents;0;waypoints;0;1')"
     "$(get "$SCENE" 'agents;0;waypoints;1;0')" "$(get "$SCENE" 'agents;0;waypoints;1;1')")
[[ "${got[*]}" == "${want[*]}" ]] || fail "saved waypoints ${got[*]}, expected ${want[*]} ($(cat "$SCENE"))"
count=$("$CMAKE" "-DFILE=$SCENE" "-DKEY=agents;0;waypoints" -DLENGTH=1 -P "$JSON_GET")
[[ "$count" == 2 ]] || fail "saved $count waypoints, expected 2"
echo "ok: waypoints added, inserted, moved, removed, undone/redone and saved"
