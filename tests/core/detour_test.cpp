// The detour flow field (orca-spec section 8, seed 003): the field's rotation sense,
// superposition and sparsity, and every transition of the per-agent state machine.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "orca/detour.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

void expectVec(Vec2 actual, Vec2 expected, double tol = 1e-12) {
    EXPECT_NEAR(actual.x, expected.x, tol);
    EXPECT_NEAR(actual.y, expected.y, tol);
}

TEST(DetourField, CirculatesClockwiseAroundASource) {
    // One source at the origin, cells of 1, influence 3: a cell centre at (1.5, 0.5) gets
    // normalize(perp(centre - cell)) = normalize(perp(-1.5, -0.5)) = (0.5, -1.5)/|.|.
    DetourField f;
    const std::vector<Vec2> centers{{0.0, 0.0}};
    const std::vector<double> influence{3.0};
    f.build(centers, influence, 1.0);
    expectVec(f.at({1.5, 0.5}), Vec2(0.5, -1.5) / std::sqrt(2.5));
    // Right of the source the flow points down, above it to the right, left of it up, below
    // it to the left: clockwise.
    EXPECT_LT(f.at({2.5, 0.5}).y, 0.0);
    EXPECT_GT(f.at({0.5, 2.5}).x, 0.0);
    EXPECT_GT(f.at({-2.5, 0.5}).y, 0.0);
    EXPECT_LT(f.at({0.5, -2.5}).x, 0.0);
    // Only cells whose centre is within the influence radius exist.
    EXPECT_EQ(f.at({3.5, 0.5}), Vec2(0.0, 0.0));
    // Every stored vector is a unit vector (one source).
    f.forEachCell([](const DetourField::Cell& c) { EXPECT_NEAR(length(c.vector), 1.0, 1e-12); });
}

TEST(DetourField, ContributionsAddUp) {
    const std::vector<Vec2> a{{0.0, 0.0}};
    const std::vector<Vec2> b{{2.0, 1.0}};
    const std::vector<Vec2> both{{0.0, 0.0}, {2.0, 1.0}};
    const std::vector<double> one{3.0};
    const std::vector<double> two{3.0, 3.0};
    DetourField fa, fb, fab;
    fa.build(a, one, 0.5);
    fb.build(b, one, 0.5);
    fab.build(both, two, 0.5);
    std::size_t visited = 0;
    fab.forEachCell([&](const DetourField::Cell& c) {
        const Vec2 centre = fab.cellCenter(c.cx, c.cy);
        expectVec(c.vector, fa.at(centre) + fb.at(centre));
        ++visited;
    });
    EXPECT_EQ(visited, fab.cellCount());
    // Between the two sources the flows oppose each other (the seed's "aliasing").
    const Vec2 mid = fab.at({1.0, 0.5});
    EXPECT_LT(length(mid), length(fa.at({1.0, 0.5})) + length(fb.at({1.0, 0.5})));
}

TEST(DetourField, IsSparseAndClears) {
    // Two sources 10,000 apart cost no more cells than two far-apart copies of one.
    DetourField f;
    const std::vector<Vec2> far{{0.0, 0.0}, {10000.0, -10000.0}};
    const std::vector<double> influence{2.0, 2.0};
    f.build(far, influence, 0.4);
    DetourField single;
    single.build(std::vector<Vec2>{{0.0, 0.0}}, std::vector<double>{2.0}, 0.4);
    EXPECT_EQ(f.cellCount(), 2 * single.cellCount());
    EXPECT_LT(f.cellCount(), 200u);
    f.build({}, {}, 0.4);
    EXPECT_TRUE(f.empty());
    EXPECT_EQ(f.sample({0.0, 0.0}, 5.0), Vec2(0.0, 0.0));
}

TEST(DetourField, SampleAveragesTheCellsInRange) {
    DetourField f;
    f.build(std::vector<Vec2>{{0.0, 0.0}}, std::vector<double>{3.0}, 1.0);
    // Radius 0.6 around a cell centre: that cell only.
    expectVec(f.sample({1.5, 0.5}, 0.6), f.at({1.5, 0.5}));
    // Radius 1.01 around (1.5, 0.5): the cell and its four edge neighbours (all exist).
    const Vec2 sum = f.at({1.5, 0.5}) + f.at({2.5, 0.5}) + f.at({0.5, 0.5}) + f.at({1.5, 1.5}) +
                     f.at({1.5, -0.5});
    expectVec(f.sample({1.5, 0.5}, 1.01), sum / 5.0);
}

TEST(DetourRule, SingleDirectionIsCounterClockwiseOfPrefVelocity) {
    EXPECT_TRUE(isCounterClockwiseOf({1.0, 0.0}, {0.0, 1.0}));   // left of heading east
    EXPECT_FALSE(isCounterClockwiseOf({1.0, 0.0}, {0.0, -1.0})); // right of it
    EXPECT_FALSE(isCounterClockwiseOf({1.0, 0.0}, {1.0, 0.0}));  // straight on
    EXPECT_TRUE(isCounterClockwiseOf({-1.0, 0.0}, {0.0, -1.0})); // left of heading west
}

// ---- The state machine, on a wall of static agents ------------------------------------------

struct Wall {
    Simulator sim;
    AgentId mover;
    explicit Wall(Vec2 start, Vec2 goal = {12.0, 0.3}, DetourParams d = enabled()) {
        SimulationParams p;
        p.detour = d;
        p.staticResponsibility = 1.0;
        sim.setParams(p);
        for (int k = -4; k <= 4; ++k) {
            AgentDef s;
            s.position = {0.0, 2.5 * k};
            s.params.radius = 1.0;
            s.isStatic = true;
            sim.addAgent(s);
        }
        AgentDef m;
        m.position = start;
        m.hasGoal = true;
        m.goal = goal;
        m.params.radius = 1.0;
        mover = sim.addAgent(m);
    }
    static DetourParams enabled() {
        DetourParams d;
        d.enabled = true;
        return d;
    }
};

TEST(DetourState, EntersWhenStalledFarFromTheGoal) {
    Wall w({-12.0, 0.3});
    int entered = -1;
    for (int s = 0; s < 200 && entered < 0; ++s) {
        const ExplainRecord r = w.sim.explain(w.mover);
        w.sim.step();
        if (w.sim.detourMode(w.mover) == DetourMode::Detouring) {
            entered = s;
            // The decision that entered: slower than a quarter of the preferred speed.
            EXPECT_EQ(r.detour.reason, DetourReason::Stalled);
            EXPECT_EQ(r.detour.nextMode, DetourMode::Detouring);
            EXPECT_LT(length(r.newVelocity), 0.25 * length(r.detour.goalPrefVelocity));
        }
    }
    ASSERT_GE(entered, 0);
    // While detouring, ORCA gets the field's direction at the preferred speed, on the left.
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_EQ(r.detour.mode, DetourMode::Detouring);
    EXPECT_NEAR(length(r.prefVelocity), length(r.detour.goalPrefVelocity), 1e-12);
    EXPECT_TRUE(isCounterClockwiseOf(r.detour.goalPrefVelocity, r.prefVelocity));
    EXPECT_EQ(r.prefVelocity, r.detour.sampledDirection * length(r.detour.goalPrefVelocity));
    EXPECT_GT(r.detour.sampleRadius, 0.0);
}

TEST(DetourState, NeverEntersWhenDisabledOrNearTheGoal) {
    DetourParams off;
    Wall w({-12.0, 0.3}, {12.0, 0.3}, off);
    for (int s = 0; s < 300; ++s)
        w.sim.step();
    EXPECT_EQ(w.sim.detourMode(w.mover), DetourMode::Normal);
    EXPECT_EQ(w.sim.lastStepStats().detouringAgents, 0u);
    // Goal just behind the wall: closer than enterGoalDistance (4 radii) when stalled.
    DetourParams d = Wall::enabled();
    d.enterGoalDistance = 10.0;
    Wall near({-5.0, 0.3}, {3.0, 0.3}, d);
    for (int s = 0; s < 300; ++s)
        near.sim.step();
    EXPECT_EQ(near.sim.detourMode(near.mover), DetourMode::Normal);
}

TEST(DetourState, LeavesWhenTheGoalIsNear) {
    Wall w({-1.0, 11.0}, {-1.0, 12.5}); // 1.5 from the goal, radius 1: exit within 2 radii
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_EQ(r.detour.mode, DetourMode::Normal);
    EXPECT_EQ(r.detour.reason, DetourReason::GoalNear);
    EXPECT_EQ(r.prefVelocity, r.detour.goalPrefVelocity);
}

TEST(DetourState, LeavesWhenTheSampleIsEmpty) {
    Wall w({-40.0, 0.3}); // far from every static agent: no field there
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    w.sim.step(); // builds the field
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_EQ(r.detour.reason, DetourReason::EmptySample);
    EXPECT_EQ(r.detour.mode, DetourMode::Normal);
}

TEST(DetourState, FallbackUsesNearbyStaticAgentsWhenTheFieldIsEmpty) {
    DetourParams d = Wall::enabled();
    d.influenceRadius = 0.1; // a field too small to reach the agent
    d.neighborFallback = true;
    Wall w({-2.5, 0.3}, {12.0, 0.3}, d);
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_TRUE(r.detour.usedFallback);
    EXPECT_EQ(r.detour.mode, DetourMode::Detouring);
    EXPECT_TRUE(isCounterClockwiseOf(r.detour.goalPrefVelocity, r.detour.sampledDirection));
    d.neighborFallback = false;
    Wall noFallback({-2.5, 0.3}, {12.0, 0.3}, d);
    noFallback.sim.setDetourState(noFallback.mover, DetourMode::Detouring, 0.0);
    EXPECT_EQ(noFallback.sim.explain(noFallback.mover).detour.reason, DetourReason::EmptySample);
}

TEST(DetourState, LeavesWhenTheDirectionTurnsClockwise) {
    // Right of the wall's lowest agent (0, -10), heading up-right: the clockwise flow there
    // points down, i.e. clockwise of v_pref.
    Wall w({2.3, -10.0}, {12.0, 5.0});
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_EQ(r.detour.reason, DetourReason::Clockwise);
    EXPECT_FALSE(isCounterClockwiseOf(r.detour.goalPrefVelocity, r.detour.sampledDirection));
    EXPECT_EQ(r.prefVelocity, r.detour.goalPrefVelocity);
}

TEST(DetourState, LeavesWhenAlignedWithTheGoal) {
    // Above the wall's top agent (0, 10), heading east: the sample point (one radius ahead)
    // lies right over the top agent, where the clockwise flow points east.
    Wall w({-1.0, 12.3}, {12.0, 12.3});
    w.sim.setDetourState(w.mover, DetourMode::Detouring, 0.0);
    const ExplainRecord r = w.sim.explain(w.mover);
    EXPECT_EQ(r.detour.reason, DetourReason::Aligned);
    EXPECT_GT(dot(r.detour.sampledDirection, normalize(r.detour.goalPrefVelocity)),
              std::cos(10.0 * 3.14159265358979 / 180.0));
}

TEST(DetourState, ReachesTheGoalAndReEntersWhenBlockedAgain) {
    // Two walls in a row: the agent detours around the first, leaves, meets the second and
    // detours again.
    SimulationParams p;
    p.detour.enabled = true;
    p.staticResponsibility = 1.0;
    Simulator sim(p);
    for (double x : {0.0, 15.0}) {
        for (int k = -4; k <= 4; ++k) {
            AgentDef s;
            s.position = {x, 2.5 * k};
            s.params.radius = 1.0;
            s.isStatic = true;
            sim.addAgent(s);
        }
    }
    AgentDef m;
    m.position = {-12.0, 0.3};
    m.hasGoal = true;
    m.goal = {28.0, 0.3};
    m.params.radius = 1.0;
    const AgentId id = sim.addAgent(m);
    int entries = 0;
    DetourMode last = DetourMode::Normal;
    for (int s = 0; s < 2000 && !sim.atGoal(id); ++s) {
        sim.step();
        if (sim.detourMode(id) == DetourMode::Detouring && last == DetourMode::Normal) ++entries;
        last = sim.detourMode(id);
    }
    EXPECT_TRUE(sim.atGoal(id));
    EXPECT_GE(entries, 2);
}

TEST(DetourState, SwitchingOffReturnsEveryAgentToNormal) {
    Wall w({-12.0, 0.3});
    for (int s = 0; s < 200 && w.sim.detourMode(w.mover) != DetourMode::Detouring; ++s)
        w.sim.step();
    ASSERT_EQ(w.sim.detourMode(w.mover), DetourMode::Detouring);
    SimulationParams p = w.sim.params();
    p.detour.enabled = false;
    w.sim.setParams(p);
    w.sim.step();
    EXPECT_EQ(w.sim.detourMode(w.mover), DetourMode::Normal);
    EXPECT_TRUE(w.sim.detourField().empty());
}

TEST(DetourSources, StillAgentsWithoutGoalsFeedTheFieldMovingOnesDoNot) {
    SimulationParams p;
    p.detour.enabled = true;
    p.detour.stillSeconds = 1.0;
    Simulator sim(p);
    AgentDef idle; // no goal, never moves: becomes a source after 1 s (4 steps)
    idle.position = {0.0, 0.0};
    sim.addAgent(idle);
    AgentDef walker; // has a goal far away: never a source
    walker.position = {50.0, 0.0};
    walker.hasGoal = true;
    walker.goal = {50.0, 500.0};
    sim.addAgent(walker);
    sim.step();
    EXPECT_TRUE(sim.detourField().empty());
    for (int s = 0; s < 5; ++s)
        sim.step();
    EXPECT_FALSE(sim.detourField().empty());
    EXPECT_NE(sim.detourField().at({0.7, 0.1}), Vec2(0.0, 0.0));
    EXPECT_EQ(sim.detourField().at({50.7, 0.1}), Vec2(0.0, 0.0));
}

TEST(DetourParams, AreValidated) {
    Simulator sim;
    SimulationParams p;
    p.detour.enterSpeedRatio = 1.5;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
    p = {};
    p.detour.exitAlignedDegrees = 100.0;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
    p = {};
    p.detour.cellSize = -1.0;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
    p = {};
    p.staticResponsibility = 0.0;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
}

} // namespace
} // namespace orca
