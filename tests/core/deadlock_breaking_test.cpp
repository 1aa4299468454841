// Deadlock breaking (SimulationParams::deadlockBreaking): off changes nothing (RVO2's
// behaviour), on lets an exactly head-on pair and a four-agent cross arrive; the stall timers
// are state (snapshot / restore) and the result is the same for every thread count.
#include <cmath>

#include <gtest/gtest.h>

#include "orca/state.hpp"

namespace orca {
namespace {

Simulator headOn(bool breaking, int threads = 1) {
    SimulationParams sp;
    sp.timeStep = 0.1;
    sp.deadlockBreaking = breaking;
    Simulator sim(sp);
    sim.setThreadCount(threads);
    for (double x : {-5.0, 5.0}) {
        AgentDef d;
        d.position = {x, 0.0};
        d.goal = {-x, 0.0};
        d.hasGoal = true;
        d.params.radius = 0.5;
        d.params.maxSpeed = 1.5;
        d.params.prefSpeed = 1.0;
        d.params.neighborDist = 10.0;
        d.params.timeHorizon = 3.0;
        sim.addAgent(d);
    }
    return sim;
}

TEST(DeadlockBreaking, AnExactlyHeadOnPairStaysStuckWithoutItAndArrivesWithIt) {
    Simulator off = headOn(false);
    Simulator on = headOn(true);
    std::uint64_t arrived = 0;
    for (int s = 0; s < 600; ++s) {
        off.step();
        on.step();
        if (arrived == 0 && on.allAtGoal()) arrived = on.stepCount();
    }
    EXPECT_EQ(off.atGoalCount(), 0u); // RVO2's behaviour: facing each other for ever
    EXPECT_EQ(off.stallSecondsAt(0), 0.0);
    EXPECT_EQ(on.atGoalCount(), 2u);
    EXPECT_GT(arrived, 100u); // they first stall (1 s), then step aside
    EXPECT_LT(arrived, 300u);
    // Both turned clockwise: agent 0 (walking +x) passed below, agent 1 above.
    EXPECT_GE(on.clearance().minAgentClearance, -1e-9);
}

TEST(DeadlockBreaking, TheTurnGrowsWithTheStallAndIsClockwise) {
    Simulator sim = headOn(true);
    const AgentId a = sim.agentIdAt(0);
    const Vec2 base = sim.basePrefVelocityAt(0);
    EXPECT_EQ(sim.prefVelocity(a), base); // not stalled: no turn
    sim.setStallSeconds(a, 1.0);          // 30 degrees clockwise
    const Vec2 turned = sim.prefVelocity(a);
    EXPECT_NEAR(turned.x, base.x * std::cos(M_PI / 6.0), 1e-12);
    EXPECT_NEAR(turned.y, -base.x * std::sin(M_PI / 6.0), 1e-12);
    sim.setStallSeconds(a, 1.5); // 45 degrees
    EXPECT_NEAR(std::atan2(sim.prefVelocity(a).y, sim.prefVelocity(a).x), -M_PI / 4.0, 1e-12);
    sim.setStallSeconds(a, 100.0); // capped at 90 degrees
    EXPECT_NEAR(std::atan2(sim.prefVelocity(a).y, sim.prefVelocity(a).x), -M_PI / 2.0, 1e-12);
    EXPECT_THROW(sim.setStallSeconds(a, -1.0), InvalidArgument);
}

TEST(DeadlockBreaking, StallTimersAreStateAndThreadCountDoesNotMatter) {
    std::uint64_t reference = 0;
    for (int threads : {1, 2, 3}) {
        Simulator sim = headOn(true, threads);
        for (int s = 0; s < 40; ++s)
            sim.step();
        const SimulatorState snap = sim.snapshot();
        for (int s = 0; s < 80; ++s)
            sim.step();
        const std::uint64_t straight = sim.stateHash();
        sim.restore(snap);
        for (int s = 0; s < 80; ++s)
            sim.step();
        EXPECT_EQ(sim.stateHash(), straight);
        if (threads == 1) reference = straight;
        EXPECT_EQ(straight, reference);
    }
}

} // namespace
} // namespace orca
