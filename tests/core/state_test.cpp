// Simulator::snapshot / restore: a restored simulator steps to the same bits as the original,
// whatever was done to it in between, for any thread count; configurations are shared only
// when bit-identical.
#include <random>

#include <gtest/gtest.h>

#include "orca/state.hpp"

namespace orca {
namespace {

/// A small crowd with every kind of per-agent state: goals, constant v_pref, a static agent,
/// an obstacle, detour on (so modes and still timers change).
Simulator makeCrowd(int threads) {
    SimulationParams sp;
    sp.timeStep = 0.25;
    sp.detour.enabled = true;
    Simulator sim(sp);
    sim.setThreadCount(threads);
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> u(-12.0, 12.0);
    for (int i = 0; i < 40; ++i) {
        AgentDef d;
        d.position = {u(rng), u(rng)};
        d.params.radius = 0.6;
        d.params.maxNeighbors = 6;
        d.params.neighborDist = 6.0;
        d.hasGoal = i % 3 != 0;
        d.goal = -d.position;
        d.prefVelocity = {0.5, 0.0};
        d.isStatic = i % 13 == 0;
        sim.addAgent(d);
    }
    const std::vector<Vec2> box{{-1.0, -1.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}};
    sim.addObstacle(box);
    return sim;
}

TEST(State, RestoreAndStepGivesTheSameBitsAsNeverLeaving) {
    for (int threads : {1, 2}) {
        Simulator a = makeCrowd(threads);
        for (int s = 0; s < 30; ++s)
            a.step();
        const SimulatorState snap = a.snapshot();
        EXPECT_EQ(snap.stepCount, 30u);
        for (int s = 0; s < 50; ++s)
            a.step();
        const std::uint64_t straight = a.stateHash();

        // Wander off (more steps, an edit, a removal), then come back.
        for (int s = 0; s < 7; ++s)
            a.step();
        a.setVelocity(a.agentIdAt(1), {3.0, 3.0});
        a.removeAgent(a.agentIdAt(5));
        a.restore(snap);
        EXPECT_EQ(a.stepCount(), 30u);
        EXPECT_EQ(a.time(), 30 * 0.25);
        EXPECT_EQ(a.agentCount(), 40u);
        for (int s = 0; s < 50; ++s)
            a.step();
        EXPECT_EQ(a.stateHash(), straight) << threads << " threads";

        // Into a fresh simulator with the other thread count.
        Simulator b;
        b.setThreadCount(3 - threads);
        b.restore(snap);
        for (int s = 0; s < 50; ++s)
            b.step();
        EXPECT_EQ(b.stateHash(), straight);
    }
}

TEST(State, IdsSurviveRestoreAndRemovedIdsStayInvalid) {
    Simulator sim = makeCrowd(1);
    const AgentId third = sim.agentIdAt(3);
    sim.removeAgent(sim.agentIdAt(2)); // third moves to index 2
    const SimulatorState snap = sim.snapshot();
    sim.removeAgent(third);
    EXPECT_FALSE(sim.contains(third));
    sim.restore(snap);
    ASSERT_TRUE(sim.contains(third));
    EXPECT_EQ(*sim.indexOf(third), 2u);
    // A new agent after restore takes the same id as it would have in the original.
    Simulator other;
    other.restore(snap);
    EXPECT_EQ(sim.addAgent(AgentDef{}), other.addAgent(AgentDef{}));
}

TEST(State, DetourModesTimersAndLp3FlagsAreRestored) {
    Simulator sim = makeCrowd(1);
    for (int s = 0; s < 60; ++s)
        sim.step();
    const SimulatorState snap = sim.snapshot();
    const std::vector<std::uint8_t> lp3(sim.lastStepLp3().begin(), sim.lastStepLp3().end());
    std::vector<double> still;
    std::vector<DetourMode> modes;
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        still.push_back(sim.stillSeconds(sim.agentIdAt(i)));
        modes.push_back(sim.detourModeAt(i));
    }
    for (int s = 0; s < 20; ++s)
        sim.step();
    sim.restore(snap);
    EXPECT_EQ(std::vector<std::uint8_t>(sim.lastStepLp3().begin(), sim.lastStepLp3().end()), lp3);
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        EXPECT_EQ(sim.stillSeconds(sim.agentIdAt(i)), still[i]);
        EXPECT_EQ(sim.detourModeAt(i), modes[i]);
    }
    EXPECT_EQ(sim.lastStepStats().movingAgents, snap.lastStats.movingAgents);
}

/// `count` agents in a row, 3 m apart, each walking 10 m straight ahead; the detour field off:
/// nobody's still timer runs.
Simulator walkersInARow(int count) {
    Simulator sim;
    for (int i = 0; i < count; ++i) {
        AgentDef d;
        d.position = {3.0 * i, 0.0};
        d.hasGoal = true;
        d.goal = {3.0 * i, 10.0};
        sim.addAgent(d);
    }
    return sim;
}

TEST(State, DetourStatesAndTimersAreKeptOnlyWhenSomeAgentHasOne) {
    Simulator sim = walkersInARow(5);
    sim.step();
    const SimulatorState plain = sim.snapshot();
    EXPECT_TRUE(plain.detourMode.empty());
    EXPECT_TRUE(plain.stillSeconds.empty());
    sim.setDetourState(sim.agentIdAt(3), DetourMode::Detouring, 1.5);
    const SimulatorState detour = sim.snapshot();
    ASSERT_EQ(detour.detourMode.size(), sim.agentCount());
    EXPECT_EQ(detour.stillSeconds[3], 1.5);
    // Restoring the plain one clears the agent's detour state; the other brings it back.
    sim.restore(plain);
    EXPECT_EQ(sim.detourModeAt(3), DetourMode::Normal);
    EXPECT_EQ(sim.stillSeconds(sim.agentIdAt(3)), 0.0);
    sim.restore(detour);
    EXPECT_EQ(sim.detourModeAt(3), DetourMode::Detouring);
    EXPECT_EQ(sim.stillSeconds(sim.agentIdAt(3)), 1.5);
}

TEST(State, ADetourStateFarIntoTheCrowdIsKept) {
    // The all-zero test reads the arrays in 256-byte blocks: an agent past the first blocks.
    Simulator sim;
    for (int i = 0; i < 600; ++i) {
        AgentDef d;
        d.position = {20.0 * (i % 30), 20.0 * (i / 30)};
        d.hasGoal = true; // (moving: the still timers stay 0)
        d.goal = d.position + Vec2{0.0, 10.0};
        sim.addAgent(d);
    }
    sim.step();
    EXPECT_TRUE(sim.snapshot().detourMode.empty());
    sim.setDetourState(sim.agentIdAt(550), DetourMode::Detouring, 0.0);
    const SimulatorState modeOnly = sim.snapshot();
    ASSERT_EQ(modeOnly.detourMode.size(), 600u);
    EXPECT_TRUE(modeOnly.stillSeconds.empty());
    sim.setDetourState(sim.agentIdAt(599), DetourMode::Normal, 0.25);
    const SimulatorState both = sim.snapshot();
    ASSERT_EQ(both.stillSeconds.size(), 600u);
    EXPECT_EQ(both.stillSeconds[599], 0.25);
}

TEST(State, SnapshotIntoOverwritesEveryField) {
    // Into a state taken from another crowd, with detour states and more agents: the result is
    // the snapshot's, field by field, and restores to the same bits.
    Simulator detour = makeCrowd(1);
    for (int s = 0; s < 30; ++s)
        detour.step();
    detour.setDetourState(detour.agentIdAt(5), DetourMode::Detouring, 2.0);
    SimulatorState into = detour.snapshot();
    ASSERT_FALSE(into.detourMode.empty());

    Simulator plain = walkersInARow(7);
    plain.step();
    plain.snapshotInto(into);
    const SimulatorState fresh = plain.snapshot();
    ASSERT_NE(into.config, nullptr);
    EXPECT_TRUE(into.config->sameBits(*fresh.config));
    EXPECT_EQ(into.time, fresh.time);
    EXPECT_EQ(into.stepCount, fresh.stepCount);
    EXPECT_EQ(into.position, fresh.position);
    EXPECT_EQ(into.velocity, fresh.velocity);
    EXPECT_EQ(into.detourMode, fresh.detourMode);
    EXPECT_EQ(into.detourReason, fresh.detourReason);
    EXPECT_EQ(into.stillSeconds, fresh.stillSeconds);
    EXPECT_EQ(into.routeProgress, fresh.routeProgress);
    EXPECT_EQ(into.stallSeconds, fresh.stallSeconds);
    EXPECT_EQ(into.lastLp3, fresh.lastLp3);
    EXPECT_EQ(into.lastStats.movingAgents, fresh.lastStats.movingAgents);
    Simulator a, b;
    a.restore(into);
    b.restore(fresh);
    for (int s = 0; s < 10; ++s) {
        a.step();
        b.step();
    }
    EXPECT_EQ(a.stateHash(), b.stateHash());
}

TEST(State, SnapshotIntoAStateOfTheSameSizeCopiesInChunks) {
    // 20,000 agents: 320 KB per array, copied in 64 KB chunks on both threads.
    SimulationParams sp;
    sp.timeStep = 0.1;
    Simulator sim(sp);
    sim.setThreadCount(2);
    for (int i = 0; i < 20000; ++i) {
        AgentDef d;
        d.position = {2.0 * (i % 200), 2.0 * (i / 200)};
        d.params.maxNeighbors = 4;
        d.params.neighborDist = 3.0;
        d.hasGoal = true;
        d.goal = d.position + Vec2{1.0 + 0.001 * (i % 7), 0.5};
        sim.addAgent(d);
    }
    sim.step();
    SimulatorState into = sim.snapshot();
    sim.step();
    sim.snapshotInto(into);
    const SimulatorState fresh = sim.snapshot();
    EXPECT_EQ(into.position, fresh.position);
    EXPECT_EQ(into.velocity, fresh.velocity);
    EXPECT_EQ(into.stepCount, 2u);
    Simulator restored;
    restored.restore(into);
    EXPECT_EQ(restored.stateHash(), sim.stateHash());
}

TEST(State, DynamicBytesCountWhatTheArraysHold) {
    // A snapshot into memory reserved for twice the crowd (a recording's spare from a bigger
    // crowd) holds the whole reservation, and says so: a recording's budget counts it.
    Simulator sim = makeCrowd(1);
    const SimulatorState exact = sim.snapshot();
    ASSERT_EQ(exact.position.capacity(), exact.position.size());
    SimulatorState into;
    into.position.reserve(2 * exact.position.size());
    into.velocity.reserve(2 * exact.velocity.size());
    sim.snapshotInto(into, &exact);
    EXPECT_EQ(into.position, exact.position);
    const std::size_t extra = (into.position.capacity() - exact.position.size() +
                               into.velocity.capacity() - exact.velocity.size()) *
                              sizeof(Vec2);
    EXPECT_GE(extra, exact.position.size() * 2 * sizeof(Vec2));
    EXPECT_EQ(into.dynamicBytes(), exact.dynamicBytes() + extra);
}

TEST(State, ConfigurationIsSharedOnlyWhenBitIdentical) {
    Simulator sim = makeCrowd(1);
    const SimulatorState a = sim.snapshot();
    sim.step();
    const SimulatorState b = sim.snapshot(&a);
    EXPECT_EQ(a.config, b.config); // stepping changes only the dynamics
    EXPECT_LT(b.dynamicBytes(), b.bytes());

    AgentDef d = sim.agent(sim.agentIdAt(4));
    d.params.timeHorizon = 5.0;
    d.position = sim.position(sim.agentIdAt(4));
    sim.setAgent(sim.agentIdAt(4), d);
    const SimulatorState c = sim.snapshot(&b);
    EXPECT_NE(c.config, b.config);
    // An edit that keeps every bit still shares (found by comparing); a restored snapshot's
    // configuration is shared by its revision.
    sim.setParams(sim.params());
    EXPECT_EQ(sim.snapshot(&c).config, c.config);
    sim.restore(a);
    sim.step();
    EXPECT_EQ(sim.snapshot(&a).config, a.config);
    EXPECT_NE(sim.snapshot(&c).config, c.config);

    // 0.0 and -0.0 are different bits.
    Simulator z;
    AgentDef zd;
    zd.prefVelocity = {0.0, 0.0};
    const AgentId id = z.addAgent(zd);
    const SimulatorState z1 = z.snapshot();
    zd.prefVelocity = {-0.0, 0.0};
    z.setAgent(id, zd);
    EXPECT_NE(z.snapshot(&z1).config, z1.config);
}

TEST(State, RestoringObstaclesRebuildsTheirIndex) {
    Simulator sim = makeCrowd(1);
    const SimulatorState withBox = sim.snapshot();
    for (int s = 0; s < 10; ++s)
        sim.step();
    const std::uint64_t straight = sim.stateHash();
    sim.removeObstacle(sim.obstacleIdAt(0));
    sim.restore(withBox);
    ASSERT_EQ(sim.obstacleCount(), 1u);
    EXPECT_FALSE(sim.obstacleVertexData().empty());
    for (int s = 0; s < 10; ++s)
        sim.step();
    EXPECT_EQ(sim.stateHash(), straight);
}

TEST(State, RejectsInconsistentSnapshots) {
    Simulator sim = makeCrowd(1);
    SimulatorState bad = sim.snapshot();
    bad.velocity.pop_back();
    EXPECT_THROW(sim.restore(bad), InvalidArgument);
    SimulatorState none;
    EXPECT_THROW(sim.restore(none), InvalidArgument);
    EXPECT_EQ(sim.agentCount(), 40u); // unchanged
}

} // namespace
} // namespace orca
