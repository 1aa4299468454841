// detail::StateSpares (history.hpp): a recording's keyframe memory made ready ahead. Spares are
// handed out only when they fit the crowd, at most kKept are kept, copies start without any,
// a big crowd's spare is made ready by the preparing thread, and a recording that snapshots
// into spares (and into the memory of keyframes it dropped) seeks to the same bits.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <random>
#include <thread>

#include <gtest/gtest.h>

#include "orca/history.hpp"

namespace orca {
namespace {

using detail::StateSpares;

constexpr std::size_t kAnyRoom = std::size_t(1) << 40;

SimulatorState stateWithRoomFor(std::size_t agents) {
    SimulatorState s;
    s.position.reserve(agents);
    s.velocity.reserve(agents);
    return s;
}

/// Agents per crowd whose two arrays reach kThreadBytes (the preparing thread's threshold).
constexpr std::size_t kThreadCrowd = StateSpares::kThreadBytes / (2 * sizeof(Vec2));

TEST(StateSpares, SmallCrowdsGetNoSpareUntilOneIsGivenBack) {
    StateSpares spares;
    EXPECT_EQ(spares.take(100, kAnyRoom).position.capacity(), 0u);
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    EXPECT_EQ(spares.bytes(), 0u); // no thread below kThreadBytes
    spares.give(stateWithRoomFor(120), kAnyRoom);
    EXPECT_EQ(spares.bytes(), 2 * 120 * sizeof(Vec2));
    const SimulatorState s = spares.take(100, kAnyRoom);
    EXPECT_EQ(s.position.capacity(), 120u);
    EXPECT_EQ(spares.bytes(), 0u);
}

TEST(StateSpares, KeepsAtMostKeptAndHandsOutOnlyWhatFits) {
    StateSpares spares;
    for (int i = 0; i < 4; ++i)
        spares.give(stateWithRoomFor(50), kAnyRoom);
    EXPECT_EQ(spares.bytes(), StateSpares::kKept * 2 * 50 * sizeof(Vec2));
    // Too small for 80 agents: not handed out (and dropped).
    EXPECT_EQ(spares.take(80, kAnyRoom).position.capacity(), 0u);
    EXPECT_EQ(spares.bytes(), 0u);
    // Far too big for 10 agents (its keyframe would hold memory it does not count).
    spares.give(stateWithRoomFor(1000), kAnyRoom);
    EXPECT_EQ(spares.take(10, kAnyRoom).position.capacity(), 0u);
    spares.give(SimulatorState{}, kAnyRoom); // nothing to keep
    EXPECT_EQ(spares.bytes(), 0u);
}

TEST(StateSpares, StayWithinTheRoomGiven) {
    StateSpares spares;
    const std::size_t one = 2 * 50 * sizeof(Vec2);
    spares.give(stateWithRoomFor(50), one - 1); // no room: freed
    EXPECT_EQ(spares.bytes(), 0u);
    spares.give(stateWithRoomFor(50), one);
    spares.give(stateWithRoomFor(50), one + one / 2); // one fits, not two
    EXPECT_EQ(spares.bytes(), one);
    spares.clear();
    EXPECT_EQ(spares.bytes(), 0u);
    // A big crowd's spare is asked of the thread only with room for it, and counted at once.
    const std::size_t agents = kThreadCrowd + 10;
    EXPECT_EQ(spares.take(agents, 2 * agents * sizeof(Vec2) - 1).position.capacity(), 0u);
    EXPECT_EQ(spares.bytes(), 0u);
    EXPECT_EQ(spares.take(agents, kAnyRoom).position.capacity(), 0u);
    EXPECT_EQ(spares.bytes(), 2 * agents * sizeof(Vec2)); // asked, being prepared
    spares.clear();                                       // drops it, ready or not
    EXPECT_EQ(spares.bytes(), 0u);
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    EXPECT_EQ(spares.bytes(), 0u);
}

TEST(StateSpares, ACopyStartsWithoutSpares) {
    StateSpares spares;
    spares.give(stateWithRoomFor(64), kAnyRoom);
    const StateSpares copy = spares;
    EXPECT_EQ(copy.bytes(), 0u);
    StateSpares assigned;
    assigned = spares;
    EXPECT_EQ(assigned.bytes(), 0u);
    EXPECT_GT(spares.bytes(), 0u);
    const StateSpares moved = std::move(spares);
    EXPECT_EQ(moved.bytes(), 2 * 64 * sizeof(Vec2));
}

TEST(StateSpares, TheThreadMakesABigCrowdsSpareReadyAhead) {
    const std::size_t agents = kThreadCrowd + 10;
    StateSpares spares;
    EXPECT_EQ(spares.take(agents, kAnyRoom).position.capacity(), 0u); // the first: none ready yet
    EXPECT_EQ(spares.bytes(), 2 * agents * sizeof(Vec2));             // counted from the request on
    // Ready once the thread has run: poll with takes that ask for nothing (no room).
    SimulatorState s;
    const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (s.position.capacity() == 0 && std::chrono::steady_clock::now() < until) {
        std::this_thread::sleep_for(std::chrono::milliseconds(1));
        s = spares.take(agents, 0);
    }
    EXPECT_GE(s.position.capacity(), agents);
    EXPECT_GE(s.velocity.capacity(), agents);
    // (Written once by the thread: the keyframe's copy can run in chunks on several threads.)
    EXPECT_EQ(s.position.size(), agents);
    EXPECT_EQ(s.velocity.size(), agents);
}

/// A crowd big enough for the preparing thread: agents on a jittered grid heading across.
Simulator bigCrowd() {
    SimulationParams sp;
    sp.timeStep = 0.1;
    Simulator sim(sp);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> jitter(-0.3, 0.3);
    // (At least 2,000 agents: 40 keyframes of them outgrow the 2 MiB budget of the test below.)
    const double agents = static_cast<double>(std::max<std::size_t>(kThreadCrowd, 2000));
    const int side = static_cast<int>(std::sqrt(agents)) + 2;
    for (int x = 0; x < side; ++x)
        for (int y = 0; y < side; ++y) {
            AgentDef d;
            d.position = {2.0 * x + jitter(rng), 2.0 * y + jitter(rng)};
            d.params.radius = 0.5;
            d.params.neighborDist = 4.0;
            d.params.maxNeighbors = 6;
            d.hasGoal = true;
            d.goal = {2.0 * (side - 1 - x), 2.0 * y};
            sim.addAgent(d);
        }
    return sim;
}

TEST(History, KeyframesInSparesAndRecycledMemorySeekToTheStraightRunsBits) {
    Simulator sim = bigCrowd();
    ASSERT_GE(sim.agentCount(), kThreadCrowd);
    HistoryParams p;
    p.detectEvents = false;
    p.initialInterval = 1; // a keyframe per step, the budget thins them
    p.memoryBudget = std::size_t(2) << 20;
    History h(p);
    std::vector<std::uint64_t> hashes{sim.stateHash()};
    h.start(sim);
    for (int s = 0; s < 40; ++s) {
        sim.step();
        h.record(sim);
        hashes.push_back(sim.stateHash());
        // (Time for the preparing thread now and then, so that some keyframes use its spares.)
        if (s % 4 == 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
    }
    EXPECT_GT(h.keyframeInterval(), 1u); // thinned: dropped keyframes' memory went to spares
    Simulator other;
    for (std::uint64_t step : {40u, 0u, 13u, 31u, 7u, 40u, 22u}) {
        ASSERT_EQ(h.seek(other, step), step);
        EXPECT_EQ(other.stateHash(), hashes[step]) << "step " << step;
    }
    // Cutting the future and recording on reuses the cut keyframes' memory: the same bits.
    h.seek(sim, 20);
    h.cutAfter(20);
    for (int s = 21; s <= 30; ++s) {
        sim.step();
        h.record(sim);
        EXPECT_EQ(sim.stateHash(), hashes[static_cast<std::size_t>(s)]);
    }
    ASSERT_EQ(h.seek(other, 27), 27u);
    EXPECT_EQ(other.stateHash(), hashes[27]);
}

} // namespace
} // namespace orca
