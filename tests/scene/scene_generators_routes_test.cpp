// The bottleneck generators (doorway, corridor counterflow): exact walls, positions, goals and
// waypoints for small cases, parameter errors, and what their routes do in a simulation.

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/generators.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

using Points = std::vector<Vec2>;

SceneAgent prototypeOfRadius(double radius) {
    SceneAgent p;
    p.overrides.radius = radius;
    return p;
}

Points positionsOf(const GeneratorResult& r) {
    Points out;
    for (const SceneAgent& a : r.agents)
        out.push_back(a.position);
    return out;
}

Points goalsOf(const GeneratorResult& r) {
    Points out;
    for (const SceneAgent& a : r.agents)
        out.push_back(a.goal.value_or(Vec2(std::nan(""), std::nan(""))));
    return out;
}

/// Expects `f` to throw std::invalid_argument whose message is exactly `message`.
template <class F> void expectInvalid(F&& f, const std::string& message) {
    try {
        f();
        ADD_FAILURE() << "no exception; expected: " << message;
    } catch (const std::invalid_argument& e) {
        EXPECT_EQ(std::string(e.what()), message);
    }
}

/// Agents that were ever at their goal within `steps` steps (an agent that arrived counts even
/// if it is pushed off later).
std::size_t arrivedWithin(const Scene& scene, int steps) {
    Simulator sim = buildSimulator(scene);
    std::vector<bool> arrived(sim.agentCount(), false);
    std::size_t count = 0;
    for (int k = 0; k < steps && count < sim.agentCount(); ++k) {
        sim.step();
        for (std::size_t i = 0; i < sim.agentCount(); ++i) {
            if (!arrived[i] && sim.atGoalAt(i)) {
                arrived[i] = true;
                ++count;
            }
        }
    }
    return count;
}

/// The 2 × 4 doorway of the hand-checked layout below.
Doorway smallDoorway() {
    Doorway d;
    d.wallLength = 10.0;
    d.gapWidth = 1.5;
    d.perSide = 4;
    d.spacing = 1.5;
    d.distance = 2.0;
    return d;
}

// ---- Doorway ----------------------------------------------------------------------------------

TEST(DoorwayGenerator, SmallLayoutIsExact) {
    // Radius 0.5, two lanes at y = ±0.75; lane j of side s is set back (2j + s) · 1.5 / 4.
    const GeneratorResult r = generate(smallDoorway(), prototypeOfRadius(0.5));
    EXPECT_EQ(positionsOf(r), (Points{{-2.5, -0.75},
                                      {-3.25, 0.75},
                                      {-4, -0.75},
                                      {-4.75, 0.75},
                                      {2.875, -0.75},
                                      {3.625, 0.75},
                                      {4.375, -0.75},
                                      {5.125, 0.75}}));
    EXPECT_EQ(goalsOf(r), (Points{{2.5, -0.75},
                                  {3.25, 0.75},
                                  {4, -0.75},
                                  {4.75, 0.75},
                                  {-2.875, -0.75},
                                  {-3.625, 0.75},
                                  {-4.375, -0.75},
                                  {-5.125, 0.75}}));
    // Waypoints 2 radii from the wall's faces (x = ±0.5), on the gap's axis.
    for (std::size_t i = 0; i < 8; ++i) {
        EXPECT_EQ(r.agents[i].waypoints,
                  i < 4 ? (Points{{-1.5, 0}, {1.5, 0}}) : (Points{{1.5, 0}, {-1.5, 0}}))
            << i;
        EXPECT_EQ(r.agents[i].overrides.radius, 0.5);
        EXPECT_FALSE(r.agents[i].prefVelocity.has_value());
    }
    ASSERT_EQ(r.obstacles.size(), 2u);
    EXPECT_EQ(r.obstacles[0].vertices,
              (Points{{-0.5, -5}, {0.5, -5}, {0.5, -0.75}, {-0.5, -0.75}}));
    EXPECT_EQ(r.obstacles[1].vertices, (Points{{-0.5, 0.75}, {0.5, 0.75}, {0.5, 5}, {-0.5, 5}}));
    // The gap: from the lower wall's top to the upper wall's bottom.
    EXPECT_EQ(r.obstacles[1].vertices[0].y - r.obstacles[0].vertices[2].y, 1.5);
    EXPECT_EQ(r.requested, 8);
    EXPECT_EQ(r.unplaced, 0);
    EXPECT_EQ(r.note, "");
}

TEST(DoorwayGenerator, DefaultsFollowTheRadiusAndRoutesCanBeLeftOut) {
    Doorway d;
    d.center = {10, -4};
    d.routes = false;
    const GeneratorResult r = generate(d, prototypeOfRadius(1.0));
    ASSERT_EQ(r.agents.size(), 16u); // 8 per side
    for (const SceneAgent& a : r.agents)
        EXPECT_TRUE(a.waypoints.empty());
    // Gap 2.4 radii: y from -4 - 1.2 to -4 + 1.2; spacing 3 radii: lanes at y = -4 + {-3, 0, 3}.
    EXPECT_EQ(r.obstacles[0].vertices[2].x, 10.5);
    EXPECT_DOUBLE_EQ(r.obstacles[0].vertices[2].y, -5.2);
    EXPECT_EQ(r.obstacles[1].vertices[0].x, 9.5);
    EXPECT_DOUBLE_EQ(r.obstacles[1].vertices[0].y, -2.8);
    EXPECT_EQ(r.agents[0].position, Vec2(10 - 0.5 - 3, -7));
    EXPECT_EQ(r.agents[1].position, Vec2(10 - 0.5 - 3 - 1, -4)); // lane 1: 2 × 3 / 6 back
    // Surroundings' defaultRadius when the prototype has no radius override.
    Surroundings none;
    none.defaultRadius = 0.5;
    const GeneratorResult small = generate(Doorway{}, SceneAgent{}, none);
    EXPECT_EQ(small.obstacles[1].vertices[0].y - small.obstacles[0].vertices[2].y, 1.2);
    EXPECT_EQ(small.agents[0].waypoints, (Points{{-1.5, 0}, {1.5, 0}}));
}

TEST(DoorwayGenerator, NarrowGapStaticPrototypeAndSurroundingsAreNoted) {
    Doorway d = smallDoorway();
    d.gapWidth = 0.8;
    EXPECT_EQ(generate(d, prototypeOfRadius(0.5)).note,
              "the gap 0.8 is narrower than an agent (1): nobody gets through");
    SceneAgent still = prototypeOfRadius(0.5);
    still.isStatic = true;
    const GeneratorResult r = generate(smallDoorway(), still);
    for (const SceneAgent& a : r.agents) {
        EXPECT_FALSE(a.goal.has_value());
        EXPECT_TRUE(a.waypoints.empty());
    }
    EXPECT_EQ(r.note, "static agents get no goals nor waypoints (they never move)");
    // An existing agent on the first generated one: that one is left out, the walls stay.
    Surroundings s;
    s.agents.push_back({{-2.5, -0.75}, 0.5});
    const GeneratorResult kept = generate(smallDoorway(), prototypeOfRadius(0.5), s);
    EXPECT_EQ(kept.agents.size(), 7u);
    EXPECT_EQ(kept.unplaced, 1);
    EXPECT_EQ(kept.obstacles.size(), 2u);
    EXPECT_EQ(kept.note, "placed 7 of 8: 1 would overlap existing agents");
}

TEST(DoorwayGenerator, BadParametersAreRefusedWithASentence) {
    const SceneAgent p = prototypeOfRadius(0.5);
    Doorway d = smallDoorway();
    d.gapWidth = 0.0;
    expectInvalid([&] { (void)generate(d, p); }, "doorway: gapWidth must be > 0 (got 0)");
    d = smallDoorway();
    d.wallLength = 1.0;
    expectInvalid([&] { (void)generate(d, p); },
                  "doorway: wallLength must be more than the gap 1.5 (got 1)");
    d = smallDoorway();
    d.perSide = 0;
    expectInvalid([&] { (void)generate(d, p); }, "doorway: perSide must be at least 1 (got 0)");
    d = smallDoorway();
    d.spacing = 0.8;
    expectInvalid([&] { (void)generate(d, p); },
                  "doorway: spacing must be at least 2 × the radius 0.5 so that the agents do "
                  "not overlap (got 0.8)");
    d = smallDoorway();
    d.distance = 0.25;
    expectInvalid([&] { (void)generate(d, p); },
                  "doorway: distance must be at least the radius 0.5, else the front row "
                  "overlaps the wall (got 0.25)");
    d = smallDoorway();
    d.wallThickness = -1.0;
    expectInvalid([&] { (void)generate(d, p); }, "doorway: wallThickness must be > 0 (got -1)");
    d = smallDoorway();
    d.center = {9.9999999e6, 0};
    expectInvalid([&] { (void)generate(d, p); },
                  "doorway: the agents' positions or goals would lie beyond ±10000000 (the scene "
                  "format's limit); make the layout smaller");
    d = smallDoorway();
    d.center = {std::numeric_limits<double>::quiet_NaN(), 0};
    expectInvalid([&] { (void)generate(d, p); }, "doorway: center must be finite (got (nan, 0))");
}

// ---- Corridor ---------------------------------------------------------------------------------

CorridorCounterflow smallCorridor() {
    CorridorCounterflow c;
    c.length = 10.0;
    c.width = 4.0;
    c.perFlow = 3;
    c.spacing = 1.5;
    c.distance = 2.0;
    c.keepRight = true;
    return c;
}

TEST(CorridorGenerator, SmallLayoutIsExact) {
    // Lanes: floor((4 - 1) / 1.5) + 1 = 3 at y = -1.5, 0, 1.5; right lanes at y = ∓1.
    const GeneratorResult r = generate(smallCorridor(), prototypeOfRadius(0.5));
    EXPECT_EQ(positionsOf(r),
              (Points{{-7, -1.5}, {-7, 0}, {-7, 1.5}, {7, -1.5}, {7, 0}, {7, 1.5}}));
    EXPECT_EQ(goalsOf(r), (Points{{7, -1.5}, {7, 0}, {7, 1.5}, {-7, -1.5}, {-7, 0}, {-7, 1.5}}));
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(r.agents[i].waypoints,
                  i < 3 ? (Points{{-5, -1}, {5, -1}}) : (Points{{5, 1}, {-5, 1}}))
            << i;
    }
    ASSERT_EQ(r.obstacles.size(), 2u);
    EXPECT_EQ(r.obstacles[0].vertices, (Points{{-5, -3}, {5, -3}, {5, -2}, {-5, -2}}));
    EXPECT_EQ(r.obstacles[1].vertices, (Points{{-5, 2}, {5, 2}, {5, 3}, {-5, 3}}));
    // A fourth agent per flow starts a second row, centred, one spacing behind.
    CorridorCounterflow more = smallCorridor();
    more.perFlow = 4;
    more.keepRight = false;
    const GeneratorResult r4 = generate(more, prototypeOfRadius(0.5));
    EXPECT_EQ(r4.agents[3].position, Vec2(-8.5, 0));
    EXPECT_EQ(r4.agents[7].position, Vec2(8.5, 0));
    EXPECT_EQ(r4.agents[7].goal, Vec2(-8.5, 0));
    EXPECT_TRUE(r4.agents[0].waypoints.empty());
}

TEST(CorridorGenerator, BadParametersAreRefusedWithASentence) {
    const SceneAgent p = prototypeOfRadius(0.5);
    CorridorCounterflow c = smallCorridor();
    c.width = 1.0;
    c.keepRight = false;
    expectInvalid([&] { (void)generate(c, p); },
                  "corridor: width must be more than 2 × the radius 0.5 (got 1)");
    c = smallCorridor();
    c.width = 1.5;
    expectInvalid([&] { (void)generate(c, p); },
                  "corridor: keepRight needs width >= 4 × the radius 0.5, so that each lane is "
                  "clear of its wall (got 1.5)");
    c = smallCorridor();
    c.length = -1.0;
    expectInvalid([&] { (void)generate(c, p); }, "corridor: length must be > 0 (got -1)");
    c = smallCorridor();
    c.spacing = 0.0;
    expectInvalid([&] { (void)generate(c, p); },
                  "corridor: spacing must be > 0, or negative for 3 × the radius (got 0)");
    c = smallCorridor();
    c.perFlow = kMaxGeneratedAgents;
    expectInvalid([&] { (void)generate(c, p); },
                  "corridor: perFlow must be at most 500000 (got 1000000)");
}

// ---- Scenes -----------------------------------------------------------------------------------

TEST(BottleneckScene, IsDeterministicLoadsAndLintsWithoutErrors) {
    Surroundings none;
    none.defaultRadius = bottleneckAgentDefaults().radius;
    for (const bool routes : {true, false}) {
        Doorway d;
        d.routes = routes;
        CorridorCounterflow c;
        c.keepRight = routes;
        for (const Scene& s : {bottleneckScene(generate(d, SceneAgent{}, none), "doorway", "d"),
                               bottleneckScene(generate(c, SceneAgent{}, none), "corridor", "c")}) {
            SCOPED_TRACE(s.name + (routes ? " with routes" : " without"));
            EXPECT_EQ(s.simulation.params.timeStep, 0.1);
            EXPECT_EQ(s.agentDefaults.radius, 0.5);
            EXPECT_EQ(s.agentDefaults.timeHorizonObst, 2.0);
            EXPECT_TRUE(parseScene(serializeScene(s), "g.json").scene == s);
            for (const LintIssue& i : lintScene(s)) {
                EXPECT_NE(i.severity, LintSeverity::Error) << i.rule << ": " << i.message;
                // With routes, no leg crosses a wall.
                if (routes) {
                    EXPECT_NE(i.rule, "goal-unreachable-straight") << i.message;
                }
            }
        }
        EXPECT_TRUE(serializeScene(bottleneckScene(generate(d, SceneAgent{}, none), "x", "y")) ==
                    serializeScene(bottleneckScene(generate(d, SceneAgent{}, none), "x", "y")));
    }
}

TEST(BottleneckScene, DoorwayRoutesGetEveryoneThroughAOneAgentGap) {
    // 2 × 4 agents, gap 3 radii (one agent wide). Measured: with the waypoints all 8 arrive by
    // step 593; without them 5 of 8 in 4,000 steps (the rest stall at the wall beside the gap).
    Surroundings none;
    none.defaultRadius = 0.5;
    Doorway d;
    d.perSide = 4;
    d.gapWidth = 1.5;
    const Scene routed = bottleneckScene(generate(d, SceneAgent{}, none), "routed", "d");
    d.routes = false;
    const Scene straight = bottleneckScene(generate(d, SceneAgent{}, none), "straight", "d");
    const std::size_t withRoutes = arrivedWithin(routed, 1500);
    const std::size_t without = arrivedWithin(straight, 1500);
    EXPECT_EQ(withRoutes, 8u);
    EXPECT_LT(without, withRoutes);
}

TEST(BottleneckScene, CorridorKeepRightLetsTheFlowsPass) {
    // 2 × 8 agents in a corridor 6 wide. Measured: keeping right, all arrive by step 368;
    // without, the flows meet head on and need 1,048 steps.
    Surroundings none;
    none.defaultRadius = 0.5;
    CorridorCounterflow c;
    c.keepRight = true;
    const Scene right = bottleneckScene(generate(c, SceneAgent{}, none), "right", "c");
    c.keepRight = false;
    const Scene mixed = bottleneckScene(generate(c, SceneAgent{}, none), "mixed", "c");
    EXPECT_EQ(arrivedWithin(right, 600), 16u);
    EXPECT_LT(arrivedWithin(mixed, 600), 16u);
}

} // namespace
} // namespace orca::scene
