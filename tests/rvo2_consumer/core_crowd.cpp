// A program on the installed orca::core: two agents with goals pass each other; the head-on
// pair's first step is checked by hand. Exits 0 when the numbers are right.
#include <cmath>
#include <cstdio>

#include <orca/simulator.hpp>

int main() {
    orca::SimulationParams params;
    params.timeStep = 0.25;
    orca::Simulator sim(params);
    orca::AgentDef left;
    left.position = {-5.0, 0.0};
    left.hasGoal = true;
    left.goal = {5.0, 0.1}; // slightly off the axis: they pass instead of stalling
    left.params.radius = 1.0;
    orca::AgentDef right = left;
    right.position = {5.0, 0.0};
    right.goal = {-5.0, -0.1};
    const orca::AgentId a = sim.addAgent(left);
    sim.addAgent(right);
    int failures = 0;
    sim.step();
    // First step: both at rest, 10 apart, radius 1 + 1, τ = 10: agent a may take x <= 0.4.
    if (std::fabs(sim.velocity(a).x - 0.4) > 1e-3) {
        std::printf("FAILED: first velocity %g, expected 0.4\n", sim.velocity(a).x);
        ++failures;
    }
    int steps = 1;
    while (!sim.allAtGoal() && steps < 1000) {
        sim.step();
        ++steps;
    }
    if (!sim.allAtGoal()) {
        std::printf("FAILED: not at the goals after %d steps\n", steps);
        ++failures;
    }
    std::printf("core_crowd: %d steps, %d failure(s)\n", steps, failures);
    return failures == 0 ? 0 : 1;
}
