"""A small Python-RVO2 program run by this core (only its import differs from Python-RVO2's)
that records its run for the sandbox: eight agents on a ring swap places, steered by
preferred velocities set every step, recorded from the start for 50 steps.

    PYTHONPATH=<build>/python python3 record_crowd.py OUT.orcarec
"""
import math
import sys

import orca.rvo2 as rvo2


def main(path):
    # timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed
    sim = rvo2.PyRVOSimulator(0.25, 6.0, 6, 2.5, 2.0, 0.4, 1.5)
    goals = []
    for i in range(8):
        angle = 2.0 * math.pi * i / 8 + 0.05
        x, y = 6.0 * math.cos(angle), 6.0 * math.sin(angle)
        sim.addAgent((x, y))
        goals.append((-x, -y))
    sim.startRecording(path)
    for _ in range(50):
        for i, (gx, gy) in enumerate(goals):
            px, py = sim.getAgentPosition(i)
            dx, dy = gx - px, gy - py
            d = math.hypot(dx, dy)
            if d > 1.0:
                dx, dy = dx / d, dy / d
            sim.setAgentPrefVelocity(i, (1.2 * dx, 1.2 * dy))
        sim.doStep()
    sim.stopRecording()
    print("recorded %d agents, steps 0-50, to %s" % (sim.getNumAgents(), path))


if __name__ == "__main__":
    main(sys.argv[1])
