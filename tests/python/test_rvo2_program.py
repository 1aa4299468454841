"""A Python-RVO2 program with only its import changed runs on orca.rvo2 (rvo2_program.py, our
own program in the shape of Python-RVO2's README example)."""

import math
import os
import pathlib
import re
import subprocess
import sys

from support import f32

PROGRAM = pathlib.Path(__file__).with_name("rvo2_program.py")


def run_program():
    out = subprocess.run([sys.executable, str(PROGRAM)], check=True, capture_output=True,
                         text=True, env=dict(os.environ))
    return out.stdout.splitlines()


def positions(line):
    return [(float(x), float(y)) for x, y in re.findall(r"\(\s*(-?[\d.]+),\s*(-?[\d.]+)\)", line)]


def corner(k):
    return 3 * math.cos(k * math.pi / 3), 3 * math.sin(k * math.pi / 3)


def test_the_program_runs_unchanged_but_for_its_import():
    lines = run_program()
    assert lines[0] == "agents 6, obstacle vertices 4, first vertex 0"
    assert len(lines) == 81
    # Step 0 by hand: the agents are 3 apart, beyond neighborDist 1.5, and each path (a chord
    # 1.5 from the centre) passes the square far enough that the preferred velocity, the unit
    # vector to the corner after next, satisfies the obstacle's half-planes: every agent moves
    # by 0.1 times it.
    assert lines[1].startswith("step= 0 t=0.10 ")
    for k, (x, y) in enumerate(positions(lines[1])):
        (cx, cy), (gx, gy) = corner(k), corner(k + 2)
        d = math.hypot(gx - cx, gy - cy)
        expected = (f32(cx + 0.1 * (gx - cx) / d), f32(cy + 0.1 * (gy - cy) / d))
        assert (x, y) == (float("%.3f" % expected[0]), float("%.3f" % expected[1]))
    # After 8 s every agent is at its goal, none inside the square or overlapping another.
    final = positions(lines[-1])
    for k, (x, y) in enumerate(final):
        assert math.dist((x, y), corner(k + 2)) < 0.05
    for line in lines[1:]:
        p = positions(line)
        assert all(max(abs(x), abs(y)) > 0.5 for x, y in p)
        assert all(math.dist(p[i], p[j]) > 0.8 - 2e-3 for i in range(6) for j in range(i))
