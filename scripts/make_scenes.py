#!/usr/bin/env python3
"""Generates the bundled scenes in scenes/ (scene format v1, see docs/scene-format.md).

Usage: python3 scripts/make_scenes.py [--check] [OUTPUT_DIR]
       python3 scripts/make_scenes.py --check-params PARAMS.json


The files are written in exactly the layout orca::scene::serializeScene produces (fixed key
order, one agent or obstacle per line, numbers as the shortest text that reads back exactly,
integral values as integers), so loading and re-saving a bundled scene reproduces it byte for
byte (tests/scene/scene_files_test.cpp checks this). With --check nothing is written; the exit
status says whether the files on disk are up to date. With --check-params the built-in defaults
and key orders below are compared with the parameter table, as `orca params --json` prints it
(PARAMS.json, or - for standard input; tests/cli/params_cli_test.cpp runs this).

Standard library only.
"""

import json
import math
import os
import struct
import sys

# Built-in defaults of the format (orca::AgentParams / orca::SimulationParams), in the key order
# of the file; --check-params holds them to the parameter table (`orca params --json`).
DEFAULT_SIMULATION = {"timeStep": 0.25, "responsibility": 0.5, "staticResponsibility": 0.5,
                      "lp3BisectorWeight": 1.0, "routing": "straight", "deadlockBreaking": "off",
                      "time": 0.0, "step": 0}
DEFAULT_AGENT = {"radius": 1.5, "maxSpeed": 2.0, "prefSpeed": 1.0, "neighborDist": 15.0,
                 "maxNeighbors": 10, "timeHorizon": 10.0, "timeHorizonObst": 10.0,
                 "avoidanceWeight": 1.0}
PARAM_KEYS = ["radius", "maxSpeed", "prefSpeed", "neighborDist", "maxNeighbors", "timeHorizon",
              "timeHorizonObst", "goalRadius", "waypointRadius", "avoidanceWeight"]
# Written in agentDefaults only when not their default (RVO2's even split).
QUIET_KEYS = ["avoidanceWeight"]
# The sentinel keys (negative = tied to the radius), written only when set.
SENTINEL_KEYS = ["goalRadius", "waypointRadius"]
AGENT_KEYS = ["id", "position", "velocity", "goal", "prefVelocity", "static",
              "waypoints"] + PARAM_KEYS
# The "detour" block (orca::DetourParams), written whole when a scene has one.
DEFAULT_DETOUR = {"enabled": False, "cellSize": 0, "influenceRadius": 0, "enterSpeedRatio": 0.25,
                  "enterGoalDistance": 0, "sampleDistance": 0, "exitAlignedDegrees": 10,
                  "exitGoalDistance": 0, "neighborFallback": False, "stillSpeed": 0.05,
                  "stillSeconds": 1}


# ---- Writing (mirrors serializeScene) ------------------------------------------------------

def fmt_number(v):
    """Shortest round-trip text; integral values below 1e16 as integers; -0.0 keeps its sign."""
    if isinstance(v, bool):
        raise TypeError("boolean where a number was expected")
    if isinstance(v, int):
        return str(v)
    if not math.isfinite(v):
        raise ValueError("non-finite number %r" % v)
    if v == math.floor(v) and abs(v) < 1e16 and not (v == 0.0 and math.copysign(1.0, v) < 0):
        return str(int(v))
    return repr(v)  # Python's repr is the shortest string that round-trips


def fmt_string(s):
    return json.dumps(s, ensure_ascii=False)


def fmt_vec(p):
    return "[%s, %s]" % (fmt_number(p[0]), fmt_number(p[1]))


def fmt_value(key, value):
    if key in ("position", "velocity", "goal", "prefVelocity"):
        return fmt_vec(value)
    if key == "waypoints":
        return "[%s]" % ", ".join(fmt_vec(w) for w in value)
    if key == "static":
        return "true" if value else "false"
    if key == "id":
        return fmt_string(value) if isinstance(value, str) else str(int(value))
    return fmt_number(value)


def agent_line(agent):
    unknown = set(agent) - set(AGENT_KEYS)
    if unknown:
        raise KeyError("unknown agent keys %s" % sorted(unknown))
    fields = []
    for key in AGENT_KEYS:
        if key not in agent or (key == "static" and not agent[key]):
            continue
        fields.append('"%s": %s' % (key, fmt_value(key, agent[key])))
    return "{ " + ", ".join(fields) + " }"


def obstacle_line(obstacle):
    fields = []
    if "id" in obstacle:
        fields.append('"id": %s' % fmt_value("id", obstacle["id"]))
    fields.append('"vertices": [%s]' % ", ".join(fmt_vec(v) for v in obstacle["vertices"]))
    return "{ " + ", ".join(fields) + " }"


def block(key, entries):
    def value(v):
        if isinstance(v, bool):
            return "true" if v else "false"
        return fmt_string(v) if isinstance(v, str) else fmt_number(v)
    lines = ['    "%s": %s' % (k, value(v)) for k, v in entries]
    return '  "%s": {\n%s\n  }' % (key, ",\n".join(lines))


def view_block(view):
    """The app's "view" block: one key per line, strings, numbers or arrays of numbers."""
    def value(v):
        if isinstance(v, str):
            return fmt_string(v)
        if isinstance(v, (list, tuple)):
            return "[" + ", ".join(fmt_number(x) for x in v) + "]"
        return fmt_number(v)
    return "{\n%s\n  }" % ",\n".join('    "%s": %s' % (k, value(v)) for k, v in view.items())


def serialize(scene):
    parts = ['  "format": "orca-scene"', '  "version": 1']
    if scene.get("name"):
        parts.append('  "name": %s' % fmt_string(scene["name"]))
    if scene.get("description"):
        parts.append('  "description": %s' % fmt_string(scene["description"]))

    sim = dict(DEFAULT_SIMULATION, **scene.get("simulation", {}))
    entries = [("timeStep", sim["timeStep"])]
    for key in ("responsibility", "staticResponsibility", "lp3BisectorWeight", "routing",
                "deadlockBreaking", "time", "step"):
        if sim[key] != DEFAULT_SIMULATION[key]:
            entries.append((key, sim[key]))
    parts.append(block("simulation", entries))

    defaults = dict(DEFAULT_AGENT, **scene.get("agentDefaults", {}))
    entries = [(key, defaults[key]) for key in PARAM_KEYS
               if key not in SENTINEL_KEYS and key not in QUIET_KEYS]
    for key in SENTINEL_KEYS:
        if key in defaults:
            entries.append((key, defaults[key]))
    for key in QUIET_KEYS:
        if defaults[key] != DEFAULT_AGENT[key]:
            entries.append((key, defaults[key]))
    parts.append(block("agentDefaults", entries))

    if "detour" in scene:
        detour = dict(DEFAULT_DETOUR, **scene["detour"])
        parts.append(block("detour", [(key, detour[key]) for key in DEFAULT_DETOUR]))

    agents = scene["agents"]
    if agents:
        parts.append('  "agents": [\n%s\n  ]' % ",\n".join("    " + agent_line(a) for a in agents))
    else:
        parts.append('  "agents": []')
    obstacles = scene.get("obstacles", [])
    if obstacles:
        parts.append('  "obstacles": [\n%s\n  ]'
                     % ",\n".join("    " + obstacle_line(o) for o in obstacles))
    if "view" in scene:
        parts.append('  "view": %s' % view_block(scene["view"]))
    return "{\n" + ",\n".join(parts) + "\n}\n"


# ---- Geometry checks -----------------------------------------------------------------------

def signed_area(vertices):
    n = len(vertices)
    return 0.5 * sum(vertices[i][0] * vertices[(i + 1) % n][1] -
                     vertices[(i + 1) % n][0] * vertices[i][1] for i in range(n))


def concave_vertices(vertices):
    """Indices of reflex vertices of a counter-clockwise polygon."""
    n = len(vertices)
    out = []
    for i in range(n):
        (ax, ay), (bx, by), (cx, cy) = vertices[i - 1], vertices[i], vertices[(i + 1) % n]
        if (bx - ax) * (cy - by) - (by - ay) * (cx - bx) < 0:
            out.append(i)
    return out


def require_ccw(vertices):
    if signed_area(vertices) <= 0:
        raise ValueError("obstacle %r is not counter-clockwise" % (vertices,))


# ---- The scenes ----------------------------------------------------------------------------

def f32(x):
    """Rounds a double to the nearest float32 (as RVO2's float arithmetic does)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def welcome():
    # The first scene a new user sees: four small flows in a pinwheel (each group keeps to its
    # right of the centre line) around a square pillar, so every agent meets agents from two
    # other flows and the pillar. Each flow starts at its own distance so no two groups reach
    # the middle in the same step (a symmetric start locks ORCA agents into a jam, see
    # head_on.json); everyone arrives in about 52 s (208 steps), with no overlap, and the inner
    # lanes graze the pillar without crossing it (the linter stays quiet).
    lanes = [1.75, 3.75, 5.75, 7.75, 9.75]
    flows = [("east", lambda o: (-30, -o), lambda o: (30, -o)),
             ("west", lambda o: (31, o), lambda o: (-30, o)),
             ("north", lambda o: (o, -32), lambda o: (o, 30)),
             ("south", lambda o: (-o, 33), lambda o: (-o, -30))]
    agents = []
    for name, start, goal in flows:
        for k, o in enumerate(lanes):
            agents.append({"id": "%s%d" % (name, k + 1), "position": start(o), "goal": goal(o)})
    pillar = [(-1, -1), (1, -1), (1, 1), (-1, 1)]
    require_ccw(pillar)
    return {
        "name": "Welcome: four flows around a pillar",
        "description": "Four groups of five cross around a square pillar; every agent reaches "
                       "its goal in about 52 s. The selected agent's velocity obstacles, ORCA "
                       "half-planes and feasible region are drawn in the velocity panel",
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 0.75, "maxSpeed": 2, "prefSpeed": 1.2, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 3},
        "agents": agents,
        "obstacles": [{"vertices": pillar}],
        "view": {"select": [2], "timeScale": 2,
                 "hint": "Click any agent to see why it moves as it does: its velocity "
                         "obstacles, ORCA half-planes and the velocity it picks (right). "
                         "Space pauses, R restarts, F1 help."},
    }


def circle():
    # RVO2 examples/Circle.cc: 200.0F * Vector2(std::cos(float(i) * RVO_TWO_PI / 250.0F),
    # std::sin(...)) with RVO_TWO_PI = 6.28318530717958647692F: float angle, float cos/sin
    # (glibc cosf/sinf), float product. Python has no cosf: the correctly rounded value of the
    # double cos is used, and the two angles where glibc's cosf/sinf round the other way are
    # patched with the values RVO2 itself computes (checked against the compiled example).
    two_pi = f32(6.28318530717958647692)
    glibc_differs = {14: (187.74678, 68.9285965), 167: (-98.5454483, -174.036758)}
    agents = []
    for i in range(250):
        angle = f32(f32(f32(float(i)) * two_pi) / f32(250.0))
        x = f32(200.0 * f32(math.cos(angle)))
        y = f32(200.0 * f32(math.sin(angle)))
        if i in glibc_differs:
            x, y = (f32(v) for v in glibc_differs[i])
        agents.append({"position": (x, y), "goal": (-x, -y)})
    return {
        "name": "Circle",
        "description": "RVO2's Circle benchmark: 250 agents on a circle of radius 200 cross to "
                       "the opposite side. They jam in the centre for a long while (about "
                       "3,700 steps, two minutes at 8x) before it dissolves: this is ORCA's own "
                       "behaviour, as in RVO2, not a fault. Without RVO2's small random "
                       "perturbation symmetric crowds lock up",
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 1.5, "maxSpeed": 2, "prefSpeed": 1, "neighborDist": 15,
                          "maxNeighbors": 10, "timeHorizon": 10, "timeHorizonObst": 10},
        "agents": agents,
    }


def blocks():
    # RVO2 examples/Blocks.cpp: four 5x5 groups in the corners, each heading to the opposite
    # corner around four square blocks.
    agents = []
    for i in range(5):
        for j in range(5):
            agents.append({"position": (55 + 10 * i, 55 + 10 * j), "goal": (-75, -75)})
            agents.append({"position": (-55 - 10 * i, 55 + 10 * j), "goal": (75, -75)})
            agents.append({"position": (55 + 10 * i, -55 - 10 * j), "goal": (-75, 75)})
            agents.append({"position": (-55 - 10 * i, -55 - 10 * j), "goal": (75, 75)})
    obstacles = [
        [(-10, 40), (-40, 40), (-40, 10), (-10, 10)],
        [(10, 40), (10, 10), (40, 10), (40, 40)],
        [(10, -40), (40, -40), (40, -10), (10, -10)],
        [(-10, -40), (-10, -10), (-40, -10), (-40, -40)],
    ]
    for o in obstacles:
        require_ccw(o)
    return {
        "name": "Blocks",
        "description": "RVO2's Blocks example: 100 agents in four corner groups pass between "
                       "four square obstacles to the opposite corners",
        "simulation": {"timeStep": 0.25},
        # goalRadius 20: 25 agents share each goal point, so "at goal" must be generous
        # (RVO2's Blocks uses the same test).
        "agentDefaults": {"radius": 2, "maxSpeed": 2, "prefSpeed": 1, "neighborDist": 15,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5,
                          "goalRadius": 20},
        "agents": agents,
        "obstacles": [{"vertices": o} for o in obstacles],
    }


def head_on():
    # timeHorizon 5: the pair's velocity obstacle is then resolved through its cut-off circle,
    # whose avoidance vector points along the line of centres, so neither agent is ever pushed
    # sideways and both slow to a halt face to face. (With the default 10 the leg case is hit
    # once on the way in and its tie rule sends both agents to the same side: they pass.)
    return {
        "name": "Head-on",
        "description": "Two agents exactly head-on: by symmetry neither steps aside, and both "
                       "slow to a halt face to face",
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 1, "maxSpeed": 1.5, "prefSpeed": 1, "timeHorizon": 5,
                          "timeHorizonObst": 5},
        "agents": [
            {"id": "left", "position": (-10, 0), "goal": (10, 0)},
            {"id": "right", "position": (10, 0), "goal": (-10, 0)},
        ],
    }


def dense_convergence():
    # 40 agents of radius 1 on a circle of radius 20 (perimeter ~126 for 80 units of bodies)
    # all head for the antipodal point: near the centre the half-planes leave no feasible
    # velocity, so the 2-D program fails and LP3 picks the least-violating velocity.
    # The angles are jittered by up to 0.01 rad (a fixed formula, not random): on a perfectly
    # symmetric circle every agent sees the same picture, they all slow down together and the
    # crowd stalls without ever making the program infeasible.
    agents = []
    n = 40
    for i in range(n):
        angle = 2.0 * math.pi * i / n + 0.01 * math.sin(12.9898 * i)
        x = 20.0 * math.cos(angle)
        y = 20.0 * math.sin(angle)
        agents.append({"position": (x, y), "goal": (-x, -y)})
    return {
        "name": "Dense convergence",
        "description": "40 agents on a tight circle of radius 20 swap to the antipodes: the "
                       "crowd in the centre makes the linear program infeasible and LP3 runs",
        "simulation": {"timeStep": 0.1},
        "agentDefaults": {"radius": 1, "maxSpeed": 2, "prefSpeed": 1.5, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5},
        "agents": agents,
    }


def concave_obstacle():
    # A cup open toward +x (a thick "C"): outer 12 x 16, walls 2 thick. Counter-clockwise;
    # the two inner corners (-4, -6) and (-4, 6) are concave.
    cup = [(6, 8), (-6, 8), (-6, -8), (6, -8), (6, -6), (-4, -6), (-4, 6), (6, 6)]
    require_ccw(cup)
    if concave_vertices(cup) != [5, 6]:
        raise ValueError("unexpected concave vertices %r" % concave_vertices(cup))
    agents = [
        # Outside, to the right: enter the cup through its mouth to goals near the back wall.
        {"id": "in1", "position": (16, -3), "goal": (-2.5, -3)},
        {"id": "in2", "position": (16, -1), "goal": (-2.5, -1)},
        {"id": "in3", "position": (16, 1), "goal": (-2.5, 1)},
        {"id": "in4", "position": (16, 3), "goal": (-2.5, 3)},
        # Inside, near the arms: leave through the mouth and turn around the arm ends.
        {"id": "out1", "position": (0, 4.5), "goal": (16, 10)},
        {"id": "out2", "position": (0, -4.5), "goal": (16, -10)},
    ]
    return {
        "name": "Concave obstacle",
        "description": "A cup-shaped (concave) obstacle: four agents enter through its mouth "
                       "while two inside leave it and round the arm ends",
        "simulation": {"timeStep": 0.1},
        "agentDefaults": {"radius": 0.5, "maxSpeed": 2, "prefSpeed": 1.2, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 4, "timeHorizonObst": 2},
        "agents": agents,
        "obstacles": [{"id": "cup", "vertices": cup}],
    }


def crossing():
    # The north-bound group starts one unit farther out: with both groups equally far from
    # the crossing the scene is mirror-symmetric about y = x, and the two groups lock into a
    # symmetric jam that drifts along the diagonal (like the head-on pair).
    offsets = [-5, -3, -1, 1, 3, 5]
    agents = []
    for k, y in enumerate(offsets):
        agents.append({"id": "east%d" % (k + 1), "position": (-15, y), "goal": (15, y)})
    for k, x in enumerate(offsets):
        agents.append({"id": "north%d" % (k + 1), "position": (x, -16), "goal": (x, 15)})
    return {
        "name": "Crossing",
        "description": "Two groups of six agents cross at right angles and weave through each "
                       "other",
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 0.5, "maxSpeed": 1.5, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5},
        "agents": agents,
    }


# ---- Detour scenes (issue 4): static agents that stall plain ORCA ------------------------------

def statics_line(x0, y0, x1, y1, spacing):
    """Static agents from (x0, y0) to (x1, y1), `spacing` apart (centre to centre)."""
    length = math.hypot(x1 - x0, y1 - y0)
    n = int(round(length / spacing))
    return [{"position": (round(x0 + (x1 - x0) * k / n, 6), round(y0 + (y1 - y0) * k / n, 6)),
             "static": True} for k in range(n + 1)]


def detour_wall():
    # A wall of static agents (radius 1, centres 2.5 apart: gaps of 0.5, narrower than the
    # moving agent) across the straight line to the goal. Plain ORCA stops in front of it.
    agents = [{"id": "mover", "position": (-12, 0.3), "goal": (12, 0.3)}]
    agents += statics_line(0, -10, 0, 10, 2.5)
    return {
        "name": "Detour: wall of static agents",
        "description": "One agent faces a wall of static agents with gaps narrower than itself: "
                       "plain ORCA stalls in front of it, the detour field leads it around",
        # Static agents never reciprocate: avoid them fully (RVO2's default is half).
        "simulation": {"timeStep": 0.25, "staticResponsibility": 1},
        "agentDefaults": {"radius": 1, "maxSpeed": 1.5, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5},
        "detour": {"enabled": True},
        "agents": agents,
    }


def detour_field():
    # Eight agents cross a field of static clusters: short walls of overlapping static agents
    # (centres 1.6 apart, radius 1) facing the flow, staggered so that every lane is blocked.
    agents = []
    for k, y in enumerate([-10.5, -7.5, -4.5, -1.5, 1.5, 4.5, 7.5, 10.5]):
        agents.append({"id": "crosser%d" % (k + 1), "position": (-30 - 10 * (k % 3), y),
                       "goal": (30, y)})
    for x, ya, yb in [(-12, -13, -5), (-12, 1, 9), (0, -7, 3), (0, 7, 14), (12, -14, -4),
                      (12, 2, 11)]:
        agents += statics_line(x, ya, x, yb, 1.6)
    return {
        "name": "Detour: field of static clusters",
        "description": "A crowd of eight crosses a field of static clusters whose circles "
                       "overlap; without the detour field they stall against the clusters",
        # Static agents never reciprocate: avoid them fully (RVO2's default is half).
        "simulation": {"timeStep": 0.25, "staticResponsibility": 1},
        "agentDefaults": {"radius": 1, "maxSpeed": 1.5, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5},
        "detour": {"enabled": True},
        "agents": agents,
    }


def detour_corridor():
    # A corridor 16 wide (two thin walls) with a static group across its middle, leaving a
    # passage of about 2.5 at each side; six agents walk down the corridor's centre to goals
    # spread across its far end (every straight line to a goal crosses the group).
    agents = []
    starts = [(-25, -1.2), (-37, 1.2), (-49, -1.2), (-61, 1.2), (-73, -1.2), (-85, 1.2)]
    goals = [-5, -1, 3, -3, 1, 5]
    for k, ((x, y), gy) in enumerate(zip(starts, goals)):
        agents.append({"id": "walker%d" % (k + 1), "position": (x, y), "goal": (30, gy)})
    agents += statics_line(0, -4.5, 0, 4.5, 1.5)
    agents += statics_line(1.3, -3.75, 1.3, 3.75, 1.5)
    obstacles = [{"vertices": [(-97, 8), (40, 8)]}, {"vertices": [(40, -8), (-97, -8)]}]
    return {
        "name": "Detour: corridor blocked by a static group",
        "description": "Six agents walk down a corridor whose middle is blocked by a static "
                       "group, with a narrow passage at each side",
        # Static agents never reciprocate: avoid them fully (RVO2's default is half).
        "simulation": {"timeStep": 0.25, "staticResponsibility": 1},
        "agentDefaults": {"radius": 1, "maxSpeed": 1.5, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5},
        "detour": {"enabled": True},
        "agents": agents,
        "obstacles": obstacles,
    }


SCENES = {
    "welcome.json": welcome,
    "circle.json": circle,
    "blocks.json": blocks,
    "head_on.json": head_on,
    "dense_convergence.json": dense_convergence,
    "concave_obstacle.json": concave_obstacle,
    "crossing.json": crossing,
    "detour_wall.json": detour_wall,
    "detour_field.json": detour_field,
    "detour_corridor.json": detour_corridor,
}


# ---- The parameter table ---------------------------------------------------------------------

def in_range(value, bounds):
    """Whether value lies within JSON Schema style bounds (minimum, exclusiveMinimum, ...)."""
    if "minimum" in bounds and not value >= bounds["minimum"]:
        return False
    if "exclusiveMinimum" in bounds and not value > bounds["exclusiveMinimum"]:
        return False
    if "maximum" in bounds and not value <= bounds["maximum"]:
        return False
    if "exclusiveMaximum" in bounds and not value < bounds["exclusiveMaximum"]:
        return False
    return True


def params_problems(table):
    """Differences between the defaults above and the table's rows (empty when they agree)."""
    rows = table["parameters"]
    problems = []

    def compare(scope, names, defaults):
        scoped = [r for r in rows if r["scope"] == scope]
        table_names = [r["name"] for r in scoped]
        if table_names != names:
            problems.append("%s keys: script %s, table %s" % (scope, names, table_names))
        for r in scoped:
            name, default = r["name"], r["default"]
            if "fileRange" in r and not in_range(default, r["fileRange"]):
                # A sentinel (goalRadius: negative = the radius): files leave the key out.
                if name in defaults:
                    problems.append("%s.%s: the table's default %r is written by leaving the "
                                    "key out, but the script has %r" % (scope, name, default,
                                                                        defaults[name]))
                continue
            if name not in defaults:
                problems.append("%s.%s: no default in the script (table: %r)"
                                % (scope, name, default))
            elif defaults[name] != default or isinstance(defaults[name], bool) != \
                    isinstance(default, bool):
                problems.append("%s.%s: script default %r, table %r"
                                % (scope, name, defaults[name], default))

    compare("simulation", [k for k in DEFAULT_SIMULATION if k not in ("routing", "deadlockBreaking", "time",
                                                                 "step")],
            DEFAULT_SIMULATION)
    compare("detour", list(DEFAULT_DETOUR), DEFAULT_DETOUR)
    compare("agent", PARAM_KEYS, DEFAULT_AGENT)
    return problems


def check_params(path):
    if path == "-":
        table = json.load(sys.stdin)
    else:
        with open(path, encoding="utf-8") as f:
            table = json.load(f)
    problems = params_problems(table)
    for p in problems:
        print("make_scenes.py: %s" % p, file=sys.stderr)
    return 1 if problems else 0


def main(argv):
    if argv[:1] == ["--check-params"]:
        if len(argv) != 2:
            print("usage: make_scenes.py --check-params PARAMS.json|-", file=sys.stderr)
            return 2
        return check_params(argv[1])
    check = "--check" in argv
    args = [a for a in argv if a != "--check"]
    out_dir = args[0] if args else os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                 os.pardir, "scenes")
    out_dir = os.path.normpath(out_dir)
    stale = []
    for file_name, make in SCENES.items():
        text = serialize(make())
        path = os.path.join(out_dir, file_name)
        if check:
            try:
                with open(path, encoding="utf-8") as f:
                    if f.read() != text:
                        stale.append(path)
            except OSError:
                stale.append(path)
            continue
        os.makedirs(out_dir, exist_ok=True)
        tmp = path + ".tmp"
        with open(tmp, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
        os.replace(tmp, path)
        print("wrote %s" % path)
    if stale:
        print("out of date (run scripts/make_scenes.py): %s" % ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
