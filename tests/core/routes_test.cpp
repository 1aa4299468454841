// Routes: waypoints visited in order before the goal (hand-checked numbers), the route progress
// as state (snapshot / restore, bit-identical for every thread count), the waypoint-reached
// event, and the checks on bad routes.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "orca/events.hpp"
#include "orca/state.hpp"

namespace orca {
namespace {

/// One agent of radius 0.5, prefSpeed 1, maxSpeed 2 at `p`, goal (10, 0), the given waypoints.
AgentDef walker(Vec2 p, std::vector<Vec2> waypoints) {
    AgentDef d;
    d.position = p;
    d.params.radius = 0.5;
    d.params.prefSpeed = 1.0;
    d.params.maxSpeed = 2.0;
    d.hasGoal = true;
    d.goal = {10.0, 0.0};
    d.waypoints = std::move(waypoints);
    return d;
}

TEST(Routes, PreferredVelocityHeadsForTheNextWaypointAtFullSpeed) {
    Simulator sim;
    const AgentId a = sim.addAgent(walker({0.0, 0.0}, {{0.0, 3.0}, {0.5, 3.0}}));
    // Toward (0, 3): straight up at prefSpeed 1.
    EXPECT_EQ(sim.prefVelocity(a), Vec2(0.0, 1.0));
    EXPECT_EQ(sim.targetAt(0), Vec2(0.0, 3.0));
    // Within prefSpeed of a waypoint the agent does not slow down (it passes it): from
    // (0, 2.6) the next waypoint (0, 3) is 0.4 away, v_pref still has length 1.
    AgentDef near = sim.agent(a);
    near.position = {0.0, 2.6};
    near.params.waypointRadius = 0.1;
    sim.setAgent(a, near);
    EXPECT_DOUBLE_EQ(length(sim.prefVelocity(a)), 1.0);
    // The goal itself is approached as before: clamped, slowing within prefSpeed of it.
    near.routeProgress = 2;
    near.position = {9.6, 0.0};
    sim.setAgent(a, near);
    EXPECT_DOUBLE_EQ(sim.prefVelocity(a).x, 10.0 - 9.6);
}

// The step skips the route bookkeeping while no agent has waypoints: adding, editing away,
// removing and restoring routes must switch it on and off at the right moments.
TEST(Routes, RoutesFollowEditsRemovalsAndRestores) {
    Simulator sim;
    const AgentId plain = sim.addAgent(walker({0.0, 5.0}, {}));
    EXPECT_EQ(sim.prefVelocity(plain), Vec2(1.0, 0.0) * (10.0 / std::sqrt(125.0)) +
                                           Vec2(0.0, -1.0) * (5.0 / std::sqrt(125.0)));
    const AgentId routed = sim.addAgent(walker({0.0, -5.0}, {{0.0, -8.0}}));
    EXPECT_EQ(sim.prefVelocity(routed), Vec2(0.0, -1.0)); // toward the waypoint
    const SimulatorState withRoute = sim.snapshot();
    AgentDef d = sim.agent(routed);
    d.waypoints.clear();
    d.routeProgress = 0;
    sim.setAgent(routed, d); // no agent has waypoints now
    EXPECT_NEAR(sim.prefVelocity(routed).y, 5.0 / std::sqrt(125.0), 1e-15);
    sim.restore(withRoute); // the route is back
    EXPECT_EQ(sim.prefVelocity(routed), Vec2(0.0, -1.0));
    sim.step();
    EXPECT_FALSE(sim.atGoal(routed));
    ASSERT_TRUE(sim.removeAgent(plain));
    EXPECT_EQ(sim.prefVelocity(routed).x, 0.0); // still routed after another agent left
    ASSERT_TRUE(sim.removeAgent(routed));
    const AgentId again = sim.addAgent(walker({9.8, 0.0}, {}));
    EXPECT_TRUE(sim.atGoal(again)); // within its radius of the goal, no route to follow
}

TEST(Routes, WaypointsAreReachedInOrderThenTheGoal) {
    SimulationParams sp;
    sp.timeStep = 0.25;
    Simulator sim(sp);
    // Waypoint radius 2 x 0.5 = 1 by default. Up to (0, 3), across to (5, 3), then the goal.
    const AgentId a = sim.addAgent(walker({0.0, 0.0}, {{0.0, 3.0}, {5.0, 3.0}}));
    EXPECT_EQ(effectiveWaypointRadius(sim.agentParams(a)), 1.0);
    std::vector<Event> events;
    EventDetector detector;
    detector.reset(sim, events);
    std::vector<std::uint64_t> reachedAt(2, 0);
    for (int s = 1; s <= 200 && !sim.atGoal(a); ++s) {
        sim.step();
        detector.observe(sim, events);
        for (std::uint32_t k = 0; k < 2; ++k)
            if (reachedAt[k] == 0 && sim.routeProgressAt(0) > k) reachedAt[k] = sim.stepCount();
    }
    ASSERT_TRUE(sim.atGoal(a));
    // Straight up at 1 unit/s: within 1 of (0, 3) at y >= 2, i.e. after 8 steps of 0.25 s.
    EXPECT_EQ(reachedAt[0], 8u);
    // Then toward (5, 3) from (0, 2): within 1 of it after sqrt(26) - 1 = 4.10 units: step
    // 8 + ceil(4.10 / 0.25) = 8 + 17 = 25.
    EXPECT_EQ(reachedAt[1], 25u);
    std::vector<Event> reached;
    for (const Event& e : events)
        if (e.kind == EventKind::WaypointReached) reached.push_back(e);
    ASSERT_EQ(reached.size(), 2u);
    EXPECT_EQ(reached[0].step, 8u);
    EXPECT_EQ(reached[0].value, 0.0);
    EXPECT_EQ(reached[1].step, 25u);
    EXPECT_EQ(reached[1].value, 1.0);
    EXPECT_EQ(reached[1].agents, std::vector<std::uint32_t>{0});
}

TEST(Routes, AnAgentPassingItsGoalBeforeItsWaypointsIsNotAtGoal) {
    Simulator sim;
    AgentDef d = walker({10.0, 0.0}, {{10.0, 5.0}});
    const AgentId a = sim.addAgent(d);
    EXPECT_FALSE(sim.atGoal(a)); // on its goal, but the waypoint comes first
    EXPECT_EQ(sim.goalAgentCount(), 1u);
    EXPECT_EQ(sim.atGoalCount(), 0u);
    sim.setRouteProgress(a, 1);
    EXPECT_TRUE(sim.atGoal(a));
}

TEST(Routes, CloseWaypointsAreAllReachedInOneStepWithOneEventEach) {
    SimulationParams sp;
    sp.timeStep = 0.25;
    Simulator sim(sp);
    // Three waypoints within 1 of (0, 0.25): the first step reaches all three.
    sim.addAgent(walker({0.0, 0.0}, {{0.0, 0.5}, {0.3, 0.5}, {-0.3, 0.5}, {0.0, 9.0}}));
    std::vector<Event> events;
    EventDetector detector;
    detector.reset(sim, events);
    sim.step();
    detector.observe(sim, events);
    EXPECT_EQ(sim.routeProgressAt(0), 3u);
    std::vector<double> indices;
    for (const Event& e : events)
        if (e.kind == EventKind::WaypointReached) indices.push_back(e.value);
    EXPECT_EQ(indices, (std::vector<double>{0.0, 1.0, 2.0}));
}

TEST(Routes, ProgressIsStateRestoredBitIdenticallyForEveryThreadCount) {
    auto crowd = [](int threads) {
        Simulator sim;
        sim.setThreadCount(threads);
        for (int i = 0; i < 24; ++i) {
            const double y = static_cast<double>(i % 6) * 1.5 - 4.0;
            const double x = i < 12 ? -8.0 : 8.0;
            AgentDef d = walker({x, y}, {{0.0, y * 0.5}, {x < 0 ? 4.0 : -4.0, -y}});
            d.goal = {-x, y};
            sim.addAgent(d);
        }
        return sim;
    };
    std::uint64_t reference = 0;
    for (int threads : {1, 2, 4}) {
        Simulator sim = crowd(threads);
        // No waypoint reached yet: the snapshot stores no progress (zeros cost nothing).
        EXPECT_TRUE(sim.snapshot().routeProgress.empty());
        EXPECT_TRUE(sim.snapshot().stallSeconds.empty());
        for (int s = 0; s < 40; ++s)
            sim.step();
        const SimulatorState snap = sim.snapshot();
        std::uint32_t progressed = 0;
        for (std::size_t i = 0; i < sim.agentCount(); ++i)
            progressed += sim.routeProgressAt(i);
        EXPECT_GT(progressed, 0u); // the snapshot holds real progress
        EXPECT_EQ(snap.routeProgress.size(), sim.agentCount());
        for (int s = 0; s < 60; ++s)
            sim.step();
        const std::uint64_t straight = sim.stateHash();
        sim.restore(snap);
        for (int s = 0; s < 60; ++s)
            sim.step();
        EXPECT_EQ(sim.stateHash(), straight);
        if (threads == 1) reference = straight;
        EXPECT_EQ(straight, reference) << threads << " threads";
    }
}

TEST(Routes, BadRoutesAreRefusedWithAClearMessage) {
    Simulator sim;
    AgentDef d = walker({0.0, 0.0}, {{1.0, std::nan("")}});
    EXPECT_THROW(
        {
            try {
                sim.addAgent(d);
            } catch (const InvalidArgument& e) {
                EXPECT_STREQ(e.what(), "agent waypoint 0 is not finite");
                throw;
            }
        },
        InvalidArgument);
    d = walker({0.0, 0.0}, {{1.0, 1.0}});
    d.routeProgress = 2;
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = walker({0.0, 0.0}, std::vector<Vec2>(kMaxWaypoints + 1, Vec2(1.0, 1.0)));
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = walker({0.0, 0.0}, std::vector<Vec2>(kMaxWaypoints, Vec2(1.0, 1.0)));
    const AgentId ok = sim.addAgent(d);
    EXPECT_THROW(sim.setRouteProgress(ok, static_cast<std::uint32_t>(kMaxWaypoints + 1)),
                 InvalidArgument);
    AgentDef negative = d;
    negative.params.waypointRadius = -2.0; // any negative value = the default
    EXPECT_NO_THROW(sim.setAgent(ok, negative));
}

} // namespace
} // namespace orca
