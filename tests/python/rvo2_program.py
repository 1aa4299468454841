#!/usr/bin/env python3
"""A program written against Python-RVO2's API, as its users write them: the same calls in
the same order. Its only change for ORCA Sandbox is the import line below (Python-RVO2:
`import rvo2`). Run by test_rvo2_program.py; prints one line per step.

Six agents on a hexagon of radius 3 each walk to the corner after next: their paths cross in
a star around a small square in the middle. One agent is added with every parameter spelled
out.
"""

import math

import orca.rvo2 as rvo2

sim = rvo2.PyRVOSimulator(0.1, 1.5, 5, 1.5, 2, 0.4, 1)

corners = [(3 * math.cos(k * math.pi / 3), 3 * math.sin(k * math.pi / 3)) for k in range(6)]
agents = [sim.addAgent(c) for c in corners[:5]]
agents.append(sim.addAgent(corners[5], 1.5, 5, 1.5, 2, 0.4, 1, (0, 0)))
goals = [corners[(k + 2) % 6] for k in range(6)]

first_vertex = sim.addObstacle([(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)])
sim.processObstacles()

print("agents %d, obstacle vertices %d, first vertex %d"
      % (sim.getNumAgents(), sim.getNumObstacleVertices(), first_vertex))

for step in range(80):
    for a in agents:
        x, y = sim.getAgentPosition(a)
        gx, gy = goals[a]
        dx, dy = gx - x, gy - y
        d = math.hypot(dx, dy)
        sim.setAgentPrefVelocity(a, (dx / d, dy / d) if d > 1 else (dx, dy))
    sim.doStep()
    print("step=%2d t=%.2f %s" % (step, sim.getGlobalTime(), " ".join(
        "(%6.3f,%6.3f)" % sim.getAgentPosition(a) for a in agents)))
