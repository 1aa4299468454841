// Scene generators: exact layouts for small cases, invariants for random fills, reproducibility,
// notes and parameter errors.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numbers>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/generators.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

std::vector<Vec2> positionsOf(const GeneratorResult& r) {
    std::vector<Vec2> out;
    for (const SceneAgent& a : r.agents)
        out.push_back(a.position);
    return out;
}

/// Smallest centre-to-centre distance among the agents (infinity for fewer than two).
double minPairDistance(const std::vector<Vec2>& points) {
    double best = kInf;
    for (std::size_t i = 0; i < points.size(); ++i) {
        for (std::size_t j = i + 1; j < points.size(); ++j) {
            best = std::min(best, length(points[i] - points[j]));
        }
    }
    return best;
}

/// Expects `f` to throw std::invalid_argument whose message contains every fragment.
template <class F> void expectInvalid(F&& f, std::initializer_list<const char*> fragments) {
    try {
        f();
        ADD_FAILURE() << "no exception";
    } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        for (const char* fragment : fragments) {
            EXPECT_NE(what.find(fragment), std::string::npos) << what << "\n  lacks: " << fragment;
        }
    }
}

/// The generated agents form a scene that saves and loads (i.e. the scene format accepts
/// every agent as generated).
void expectLoadable(const GeneratorResult& r) {
    Scene scene;
    scene.name = "generated";
    scene.agents = r.agents;
    const LoadResult loaded = parseScene(serializeScene(scene), "generated.json");
    EXPECT_EQ(loaded.scene, scene);
}

// An L-shaped (concave) region: the 20×20 square minus its top-right 10×10 quarter.
const std::vector<Vec2> kLShape{{0, 0}, {20, 0}, {20, 10}, {10, 10}, {10, 20}, {0, 20}};

// ---- Helpers ----------------------------------------------------------------------------------

TEST(GeneratorHelpers, RectangleRegionIsCounterClockwiseWithCornersInAnyOrder) {
    const std::vector<Vec2> expected{{1, 2}, {5, 2}, {5, 7}, {1, 7}};
    EXPECT_EQ(rectangleRegion({1, 2}, {5, 7}), expected);
    EXPECT_EQ(rectangleRegion({5, 7}, {1, 2}), expected);
    EXPECT_EQ(rectangleRegion({5, 2}, {1, 7}), expected);
}

TEST(GeneratorHelpers, PolygonAreaIgnoresWinding) {
    EXPECT_EQ(polygonArea(rectangleRegion({1, 2}, {5, 7})), 20.0);
    std::vector<Vec2> clockwise = rectangleRegion({1, 2}, {5, 7});
    std::reverse(clockwise.begin(), clockwise.end());
    EXPECT_EQ(polygonArea(clockwise), 20.0);
    EXPECT_EQ(polygonArea(kLShape), 300.0);
}

TEST(GeneratorHelpers, PointInConcavePolygon) {
    EXPECT_TRUE(pointInPolygon(kLShape, {5, 5}));
    EXPECT_TRUE(pointInPolygon(kLShape, {15, 5}));
    EXPECT_TRUE(pointInPolygon(kLShape, {5, 15}));
    EXPECT_FALSE(pointInPolygon(kLShape, {15, 15})); // the notch
    EXPECT_FALSE(pointInPolygon(kLShape, {-1, 5}));
    EXPECT_FALSE(pointInPolygon(kLShape, {25, 5}));
    std::vector<Vec2> clockwise = kLShape;
    std::reverse(clockwise.begin(), clockwise.end());
    EXPECT_TRUE(pointInPolygon(clockwise, {5, 15}));
    EXPECT_FALSE(pointInPolygon(clockwise, {15, 15}));
}

// ---- Prototype rules --------------------------------------------------------------------------

TEST(GeneratorPrototype, AgentsCopyTheOverridesAndLoseIdStateAndPrefVelocity) {
    SceneAgent prototype;
    prototype.id = "leader";
    prototype.overrides.radius = 0.5;
    prototype.overrides.maxSpeed = 3.0;
    prototype.velocity = Vec2(0.25, 0.0);
    prototype.prefVelocity = Vec2(1.0, 0.0);
    prototype.goal.reset();
    prototype.detourMode = DetourMode::Detouring;
    prototype.stillSeconds = 4.0;
    const GeneratorResult r = generate(CircleFormation{.count = 3}, prototype);
    ASSERT_EQ(r.agents.size(), 3U);
    for (const SceneAgent& a : r.agents) {
        EXPECT_FALSE(a.id.has_value());
        EXPECT_EQ(a.overrides, prototype.overrides);
        EXPECT_EQ(a.velocity, prototype.velocity);
        EXPECT_TRUE(a.goal.has_value());
        EXPECT_FALSE(a.prefVelocity.has_value()); // a goal and a prefVelocity cannot coexist
        EXPECT_EQ(a.detourMode, DetourMode::Normal);
        EXPECT_EQ(a.stillSeconds, 0.0);
        EXPECT_FALSE(a.isStatic);
    }
    EXPECT_EQ(r.note, "");
    expectLoadable(r);
}

TEST(GeneratorPrototype, WithoutGoalsThePrototypesPrefVelocityIsKept) {
    SceneAgent prototype;
    prototype.prefVelocity = Vec2(0.0, -1.0);
    const GeneratorResult r =
        generate(GridBlock{.rows = 1, .columns = 2, .withGoals = false}, prototype);
    ASSERT_EQ(r.agents.size(), 2U);
    for (const SceneAgent& a : r.agents) {
        EXPECT_FALSE(a.goal.has_value());
        EXPECT_EQ(a.prefVelocity, Vec2(0.0, -1.0));
    }
    expectLoadable(r);
}

TEST(GeneratorPrototype, StaticAgentsGetNoGoalsAndTheNoteSaysSo) {
    SceneAgent prototype;
    prototype.isStatic = true;
    const GeneratorResult r = generate(GridBlock{.rows = 2, .columns = 2}, prototype);
    ASSERT_EQ(r.agents.size(), 4U);
    for (const SceneAgent& a : r.agents) {
        EXPECT_TRUE(a.isStatic);
        EXPECT_FALSE(a.goal.has_value());
    }
    EXPECT_EQ(r.note, "static agents get no goals (they never move)");
    expectLoadable(r);

    // No goals asked for: nothing to say.
    EXPECT_EQ(generate(GridBlock{.withGoals = false}, prototype).note, "");
}

// ---- Circle formation -------------------------------------------------------------------------

TEST(GeneratorCircle, FourAgentsSitExactlyOnTheAxes) {
    const GeneratorResult r =
        generate(CircleFormation{.center = {1, 2}, .radius = 10, .count = 4}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 4U);
    const std::vector<Vec2> positions{{11, 2}, {1, 12}, {-9, 2}, {1, -8}};
    const std::vector<Vec2> goals{{-9, 2}, {1, -8}, {11, 2}, {1, 12}};
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(r.agents[i].position, positions[i]) << i;
        EXPECT_EQ(r.agents[i].goal, goals[i]) << i;
    }
}

TEST(GeneratorCircle, StartAngleRotatesTheRing) {
    // θ = 90°, 210°, 330°: (0, 4), 4·(−√3/2, −1/2), 4·(√3/2, −1/2).
    const GeneratorResult r =
        generate(CircleFormation{.radius = 4, .count = 3, .startAngleDeg = 90}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 3U);
    EXPECT_EQ(r.agents[0].position, Vec2(0, 4));
    const double h = 2.0 * std::sqrt(3.0);
    EXPECT_NEAR(r.agents[1].position.x, -h, 1e-14);
    EXPECT_NEAR(r.agents[1].position.y, -2.0, 1e-14);
    EXPECT_NEAR(r.agents[2].position.x, h, 1e-14);
    EXPECT_NEAR(r.agents[2].position.y, -2.0, 1e-14);
}

TEST(GeneratorCircle, EveryGoalIsTheAntipode) {
    const Vec2 center{-3.5, 7.25};
    const GeneratorResult r =
        generate(CircleFormation{.center = center, .radius = 20, .count = 16, .startAngleDeg = 10},
                 SceneAgent{});
    ASSERT_EQ(r.agents.size(), 16U);
    for (std::size_t i = 0; i < r.agents.size(); ++i) {
        const SceneAgent& a = r.agents[i];
        ASSERT_TRUE(a.goal.has_value());
        EXPECT_NEAR(length(a.position - center), 20.0, 1e-12) << i;
        const Vec2 mid = 0.5 * (a.position + *a.goal);
        EXPECT_NEAR(mid.x, center.x, 1e-12) << i;
        EXPECT_NEAR(mid.y, center.y, 1e-12) << i;
        // Neighbours are 360°/16 apart: chord 2·20·sin(11.25°).
        const Vec2 next = r.agents[(i + 1) % r.agents.size()].position;
        EXPECT_NEAR(length(next - a.position), 40.0 * std::sin(11.25 * std::numbers::pi / 180.0),
                    1e-12);
    }
    expectLoadable(r);
}

TEST(GeneratorCircle, InvalidParametersThrow) {
    expectInvalid([] { (void)generate(CircleFormation{.count = 0}, SceneAgent{}); },
                  {"circle formation", "count must be at least 1 (got 0)"});
    expectInvalid([] { (void)generate(CircleFormation{.radius = 0}, SceneAgent{}); },
                  {"radius must be > 0 (got 0)"});
    expectInvalid([] { (void)generate(CircleFormation{.radius = -2}, SceneAgent{}); },
                  {"radius must be > 0 (got -2)"});
    expectInvalid([] { (void)generate(CircleFormation{.radius = kNaN}, SceneAgent{}); },
                  {"radius must be a finite number (got nan)"});
    expectInvalid(
        [] {
            (void)generate(CircleFormation{.center = {kInf, 0}}, SceneAgent{});
        },
        {"center must be finite (got (inf, 0))"});
    expectInvalid([] { (void)generate(CircleFormation{.startAngleDeg = kNaN}, SceneAgent{}); },
                  {"startAngleDeg"});
    expectInvalid(
        [] { (void)generate(CircleFormation{.count = kMaxGeneratedAgents + 1}, SceneAgent{}); },
        {"count must be at most 1000000"});
    expectInvalid([] { (void)generate(CircleFormation{.radius = 2e7}, SceneAgent{}); },
                  {"beyond ±10000000", "scene format"});
}

// ---- Grid block -------------------------------------------------------------------------------

TEST(GeneratorGrid, TwoByThreeExactPositionsAndGoals) {
    const GeneratorResult r = generate(
        GridBlock{.center = {10, 20}, .rows = 2, .columns = 3, .spacing = 2, .goalOffset = {5, -1}},
        SceneAgent{});
    const std::vector<Vec2> positions{{8, 19}, {10, 19}, {12, 19}, {8, 21}, {10, 21}, {12, 21}};
    ASSERT_EQ(r.agents.size(), positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        EXPECT_EQ(r.agents[i].position, positions[i]) << i;
        EXPECT_EQ(r.agents[i].goal, positions[i] + Vec2(5, -1)) << i;
    }
    EXPECT_EQ(r.note, "");
    expectLoadable(r);
}

TEST(GeneratorGrid, DefaultsAreSixteenAgentsCentredOnTheOrigin) {
    const GeneratorResult r = generate(GridBlock{}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 16U);
    EXPECT_EQ(r.agents.front().position, Vec2(-4.5, -4.5));
    EXPECT_EQ(r.agents.back().position, Vec2(4.5, 4.5));
    EXPECT_EQ(r.agents.back().goal, Vec2(24.5, 4.5));
    EXPECT_DOUBLE_EQ(minPairDistance(positionsOf(r)), 3.0);
}

TEST(GeneratorGrid, WithoutGoals) {
    const GeneratorResult r =
        generate(GridBlock{.rows = 3, .columns = 1, .withGoals = false}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 3U);
    EXPECT_EQ(r.agents[0].position, Vec2(0, -3));
    EXPECT_EQ(r.agents[2].position, Vec2(0, 3));
    for (const SceneAgent& a : r.agents)
        EXPECT_FALSE(a.goal.has_value());
}

TEST(GeneratorGrid, InvalidParametersThrow) {
    expectInvalid([] { (void)generate(GridBlock{.rows = 0}, SceneAgent{}); },
                  {"grid block", "rows must be at least 1 (got 0)"});
    expectInvalid([] { (void)generate(GridBlock{.columns = -3}, SceneAgent{}); },
                  {"columns must be at least 1 (got -3)"});
    expectInvalid([] { (void)generate(GridBlock{.rows = 2000, .columns = 2000}, SceneAgent{}); },
                  {"rows × columns must be at most 1000000 (got 4000000)"});
    expectInvalid([] { (void)generate(GridBlock{.spacing = 0}, SceneAgent{}); },
                  {"spacing must be > 0"});
    expectInvalid([] { (void)generate(GridBlock{.spacing = kInf}, SceneAgent{}); },
                  {"spacing must be a finite number (got inf)"});
    expectInvalid(
        [] {
            (void)generate(GridBlock{.goalOffset = {0, kNaN}}, SceneAgent{});
        },
        {"goalOffset must be finite"});
}

// ---- Random fill ------------------------------------------------------------------------------

TEST(GeneratorRandomFill, PlacesCountAgentsInsideTheRectangleAndSpaced) {
    const RandomFill params{
        .region = rectangleRegion({0, 0}, {50, 30}), .count = 100, .minSpacing = 3.0};
    const GeneratorResult r = generate(params, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 100U);
    EXPECT_EQ(r.note, "");
    for (const SceneAgent& a : r.agents) {
        EXPECT_TRUE(a.position.x >= 0 && a.position.x <= 50 && a.position.y >= 0 &&
                    a.position.y <= 30)
            << a.position.x << ", " << a.position.y;
        EXPECT_FALSE(a.goal.has_value());
    }
    EXPECT_GE(minPairDistance(positionsOf(r)), 3.0);
    expectLoadable(r);
}

TEST(GeneratorRandomFill, FirstAgentIsTheFirstTwoRawMersenneTwisterOutputs) {
    // std::mt19937(1) starts 1791095845, 4282876139 (the engine is fully specified by the
    // standard); inside a rectangle the first candidate is always kept.
    const GeneratorResult r =
        generate(RandomFill{.region = rectangleRegion({-10, 5}, {30, 25}), .count = 1, .seed = 1},
                 SceneAgent{});
    ASSERT_EQ(r.agents.size(), 1U);
    EXPECT_EQ(r.agents[0].position.x, -10.0 + 1791095845.0 / 4294967296.0 * 40.0);
    EXPECT_EQ(r.agents[0].position.y, 5.0 + 4282876139.0 / 4294967296.0 * 20.0);
}

TEST(GeneratorRandomFill, ConcavePolygonKeepsEveryAgentInsideAndOutOfTheNotch) {
    const GeneratorResult r = generate(
        RandomFill{.region = kLShape, .count = 25, .minSpacing = 2.5, .seed = 7}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 25U);
    EXPECT_EQ(r.note, "");
    for (const SceneAgent& a : r.agents) {
        const Vec2 p = a.position;
        EXPECT_TRUE(pointInPolygon(kLShape, p)) << p.x << ", " << p.y;
        EXPECT_TRUE(p.x >= 0 && p.x <= 20 && p.y >= 0 && p.y <= 20) << p.x << ", " << p.y;
        EXPECT_FALSE(p.x > 10 && p.y > 10) << p.x << ", " << p.y;
    }
    EXPECT_GE(minPairDistance(positionsOf(r)), 2.5);
}

TEST(GeneratorRandomFill, WindingDoesNotMatter) {
    std::vector<Vec2> clockwise = kLShape;
    std::reverse(clockwise.begin(), clockwise.end());
    const GeneratorResult ccw = generate(RandomFill{.region = kLShape, .count = 20}, SceneAgent{});
    const GeneratorResult cw = generate(RandomFill{.region = clockwise, .count = 20}, SceneAgent{});
    EXPECT_EQ(positionsOf(cw), positionsOf(ccw));
}

TEST(GeneratorRandomFill, SameSeedSameAgentsDifferentSeedDifferentAgents) {
    RandomFill params{.region = rectangleRegion({0, 0}, {40, 40}), .count = 60, .seed = 123};
    const GeneratorResult a = generate(params, SceneAgent{});
    const GeneratorResult b = generate(params, SceneAgent{});
    ASSERT_EQ(a.agents.size(), 60U);
    EXPECT_EQ(positionsOf(a), positionsOf(b));
    params.seed = 124;
    const GeneratorResult c = generate(params, SceneAgent{});
    ASSERT_EQ(c.agents.size(), 60U);
    int same = 0;
    for (std::size_t i = 0; i < 60; ++i)
        same += a.agents[i].position == c.agents[i].position;
    EXPECT_EQ(same, 0);
}

TEST(GeneratorRandomFill, ASmallerCountIsAPrefixOfALargerOne) {
    RandomFill params{.region = kLShape, .count = 30, .minSpacing = 2, .seed = 5};
    const std::vector<Vec2> small = positionsOf(generate(params, SceneAgent{}));
    params.count = 40;
    const std::vector<Vec2> large = positionsOf(generate(params, SceneAgent{}));
    ASSERT_EQ(small.size(), 30U);
    ASSERT_EQ(large.size(), 40U);
    EXPECT_TRUE(std::equal(small.begin(), small.end(), large.begin()));
}

TEST(GeneratorRandomFill, DensityModeCountsRoundedAreaTimesDensity) {
    // Area 20 × 10 = 200: density 0.25 → 50 agents; 0.2475 → 49.5 → 50; 0.2425 → 48.5 → 49 (round
    // half away from zero); `count` is ignored.
    const std::vector<Vec2> region = rectangleRegion({0, 0}, {20, 10});
    EXPECT_EQ(generate(RandomFill{.region = region, .count = 3, .density = 0.25, .minSpacing = 1},
                       SceneAgent{})
                  .agents.size(),
              50U);
    EXPECT_EQ(
        generate(RandomFill{.region = region, .density = 0.2475, .minSpacing = 1}, SceneAgent{})
            .agents.size(),
        50U);
    EXPECT_EQ(
        generate(RandomFill{.region = region, .density = 0.2425, .minSpacing = 1}, SceneAgent{})
            .agents.size(),
        49U);
    // Concave region: area 300.
    EXPECT_EQ(generate(RandomFill{.region = kLShape, .density = 0.1, .minSpacing = 1}, SceneAgent{})
                  .agents.size(),
              30U);
}

TEST(GeneratorRandomFill, DensityRoundingToZeroGivesNoAgentsAndANote) {
    const GeneratorResult r = generate(
        RandomFill{.region = rectangleRegion({0, 0}, {20, 10}), .density = 0.001}, SceneAgent{});
    EXPECT_TRUE(r.agents.empty());
    EXPECT_EQ(r.note, "density 0.001 × area 200 = 0.2 rounds to 0 agents");
}

TEST(GeneratorRandomFill, NoteSaysHowManyWerePlacedWhenSpaceRunsOut) {
    // A 10×10 square holds at most (10/3 + 1)² ≈ 19 agents at spacing 3; 200 cannot fit.
    const GeneratorResult r = generate(
        RandomFill{.region = rectangleRegion({0, 0}, {10, 10}), .count = 200, .minSpacing = 3},
        SceneAgent{});
    EXPECT_GT(r.agents.size(), 5U);
    EXPECT_LT(r.agents.size(), 20U);
    EXPECT_EQ(r.note, "placed " + std::to_string(r.agents.size()) +
                          " of 200: no room at minSpacing 3 after 40000 tries");
    EXPECT_GE(minPairDistance(positionsOf(r)), 3.0);
}

TEST(GeneratorRandomFill, NoteBlamesAThinRegion) {
    // A thin diagonal sliver covers 1% of its bounding box.
    const std::vector<Vec2> sliver{{0, 0}, {100, 99}, {100, 100}, {0, 1}};
    const GeneratorResult r =
        generate(RandomFill{.region = sliver, .count = 500, .minSpacing = 3}, SceneAgent{});
    EXPECT_LT(r.agents.size(), 500U);
    EXPECT_NE(r.note.find("the region covers only 1% of its bounding box"), std::string::npos)
        << r.note;
    for (const SceneAgent& a : r.agents)
        EXPECT_TRUE(pointInPolygon(sliver, a.position));
}

TEST(GeneratorRandomFill, MirrorGoalsGoThroughTheCentroid) {
    const GeneratorResult r = generate(RandomFill{.region = rectangleRegion({0, 0}, {40, 20}),
                                                  .count = 30,
                                                  .goals = RandomFill::Goals::MirrorThroughCenter},
                                       SceneAgent{});
    ASSERT_EQ(r.agents.size(), 30U);
    for (const SceneAgent& a : r.agents) {
        ASSERT_TRUE(a.goal.has_value());
        EXPECT_NEAR(a.goal->x, 40.0 - a.position.x, 1e-12);
        EXPECT_NEAR(a.goal->y, 20.0 - a.position.y, 1e-12);
    }
    expectLoadable(r);
}

TEST(GeneratorRandomFill, RandomGoalsAreInsideAndLeaveThePositionsAlone) {
    RandomFill params{.region = kLShape, .count = 30, .minSpacing = 2, .seed = 9};
    const GeneratorResult none = generate(params, SceneAgent{});
    params.goals = RandomFill::Goals::RandomInRegion;
    const GeneratorResult withGoals = generate(params, SceneAgent{});
    EXPECT_EQ(positionsOf(withGoals), positionsOf(none));
    std::vector<Vec2> goals;
    for (const SceneAgent& a : withGoals.agents) {
        ASSERT_TRUE(a.goal.has_value());
        EXPECT_TRUE(pointInPolygon(kLShape, *a.goal)) << a.goal->x << ", " << a.goal->y;
        goals.push_back(*a.goal);
    }
    EXPECT_NE(goals, positionsOf(none));
    EXPECT_EQ(withGoals.note, "");
    // Reproducible too.
    const GeneratorResult again = generate(params, SceneAgent{});
    for (std::size_t i = 0; i < again.agents.size(); ++i) {
        EXPECT_EQ(again.agents[i].goal, withGoals.agents[i].goal);
    }
}

TEST(GeneratorRandomFill, TenThousandAgentsAreSpacedAndQuick) {
    const auto start = std::chrono::steady_clock::now();
    const GeneratorResult r = generate(RandomFill{.region = rectangleRegion({0, 0}, {500, 500}),
                                                  .count = 10000,
                                                  .minSpacing = 3.0,
                                                  .seed = 2},
                                       SceneAgent{});
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    RecordProperty("milliseconds", std::to_string(ms));
    ASSERT_EQ(r.agents.size(), 10000U);
    EXPECT_EQ(r.note, "");
    // Pairwise check by sorting on x: only pairs within 3 in x can be closer than 3.
    std::vector<Vec2> p = positionsOf(r);
    std::sort(p.begin(), p.end(), [](Vec2 a, Vec2 b) { return a.x < b.x; });
    double closest = kInf;
    for (std::size_t i = 0; i < p.size(); ++i) {
        for (std::size_t j = i + 1; j < p.size() && p[j].x - p[i].x < 3.0; ++j) {
            closest = std::min(closest, length(p[j] - p[i]));
        }
    }
    EXPECT_GE(closest, 3.0);
    EXPECT_LT(ms, 5000.0); // generous: sanitizer builds on a loaded machine
}

TEST(GeneratorRandomFill, InvalidParametersThrow) {
    const std::vector<Vec2> square = rectangleRegion({0, 0}, {10, 10});
    expectInvalid([] { (void)generate(RandomFill{}, SceneAgent{}); },
                  {"random fill", "the region needs at least 3 vertices (got 0)"});
    expectInvalid(
        [] {
            (void)generate(RandomFill{.region = {{0, 0}, {1, 1}}}, SceneAgent{});
        },
        {"at least 3 vertices (got 2)"});
    expectInvalid(
        [] {
            (void)generate(RandomFill{.region = {{0, 0}, {1, 1}, {3, 3}}}, SceneAgent{});
        },
        {"the region has zero area"});
    expectInvalid(
        [] {
            (void)generate(RandomFill{.region = {{0, 0}, {1, kNaN}, {3, 0}}}, SceneAgent{});
        },
        {"region vertex 1 must be finite"});
    expectInvalid(
        [] {
            (void)generate(RandomFill{.region = {{0, 0}, {2e7, 0}, {0, 1}}}, SceneAgent{});
        },
        {"region vertex 1 (20000000, 0) lies beyond ±10000000"});
    expectInvalid([&] { (void)generate(RandomFill{.region = square, .count = 0}, SceneAgent{}); },
                  {"count must be at least 1 (got 0)"});
    expectInvalid(
        [&] { (void)generate(RandomFill{.region = square, .minSpacing = 0}, SceneAgent{}); },
        {"minSpacing must be > 0 (got 0)"});
    expectInvalid(
        [&] { (void)generate(RandomFill{.region = square, .minSpacing = kNaN}, SceneAgent{}); },
        {"minSpacing must be a finite number"});
    expectInvalid(
        [&] { (void)generate(RandomFill{.region = square, .density = -1}, SceneAgent{}); },
        {"density must be >= 0 (got -1)"});
    expectInvalid(
        [&] { (void)generate(RandomFill{.region = square, .density = 1e5}, SceneAgent{}); },
        {"density 100000 × area 100 = 10000000 agents, more than the limit of 1000000"});
}

// ---- Crossing flows ---------------------------------------------------------------------------

TEST(GeneratorCrossingFlows, SmallCaseExactLayout) {
    // lanes = floor(3/2) + 1 = 2, rows = ceil(5/2) = 3, the last row's single agent centred.
    // Flow 0 walks +x, flow 1 walks +y (across = perp(+y) = −x). Goals: along 10 + (2 − row)·2.
    const GeneratorResult r = generate(
        CrossingFlows{.perFlow = 5, .laneWidth = 3, .length = 10, .spacing = 2, .angleDeg = 90},
        SceneAgent{});
    const std::vector<Vec2> positions{{-10, -1}, {-10, 1},  {-12, -1}, {-12, 1},  {-14, 0},
                                      {1, -10},  {-1, -10}, {1, -12},  {-1, -12}, {0, -14}};
    const std::vector<Vec2> goals{{14, -1}, {14, 1},  {12, -1}, {12, 1},  {10, 0},
                                  {1, 14},  {-1, 14}, {1, 12},  {-1, 12}, {0, 10}};
    ASSERT_EQ(r.agents.size(), positions.size());
    for (std::size_t i = 0; i < positions.size(); ++i) {
        EXPECT_EQ(r.agents[i].position, positions[i]) << i;
        EXPECT_EQ(r.agents[i].goal, goals[i]) << i;
    }
    EXPECT_EQ(r.note, "");
    expectLoadable(r);
}

TEST(GeneratorCrossingFlows, GoalsOnTheFarSideAndFlowsApartAtTheStart) {
    for (const double angle : {90.0, 60.0, 135.0, 180.0, -90.0}) {
        const Vec2 center{5, -3};
        const CrossingFlows params{.center = center, .perFlow = 20, .angleDeg = angle};
        const GeneratorResult r = generate(params, SceneAgent{});
        ASSERT_EQ(r.agents.size(), 40U) << angle;
        const double rad = angle * std::numbers::pi / 180.0;
        const std::vector<Vec2> directions{{1, 0}, {std::cos(rad), std::sin(rad)}};
        std::vector<Vec2> flows[2];
        for (std::size_t i = 0; i < r.agents.size(); ++i) {
            const SceneAgent& a = r.agents[i];
            const Vec2 d = directions[i / 20];
            ASSERT_TRUE(a.goal.has_value());
            // Starts behind the centre by at least `length`, ends beyond it by at least
            // `length`, and walks straight along the flow: 2·40 + (5 − 1)·3 = 92.
            EXPECT_LE(dot(a.position - center, d), -40.0 + 1e-9) << angle << " agent " << i;
            EXPECT_GE(dot(*a.goal - center, d), 40.0 - 1e-9) << angle << " agent " << i;
            EXPECT_NEAR(length(*a.goal - a.position), 92.0, 1e-9);
            EXPECT_NEAR(det(d, *a.goal - a.position), 0.0, 1e-9);
            // Inside its lane: at most laneWidth/2 from the flow's axis.
            EXPECT_LE(std::fabs(det(d, a.position - center)), 5.0 + 1e-9);
            flows[i / 20].push_back(a.position);
        }
        double closest = kInf;
        for (const Vec2 p : flows[0]) {
            for (const Vec2 q : flows[1])
                closest = std::min(closest, length(p - q));
        }
        EXPECT_GE(closest, 3.0) << angle;
        EXPECT_DOUBLE_EQ(minPairDistance(flows[0]), 3.0);
        expectLoadable(r);
    }
}

TEST(GeneratorCrossingFlows, SingleFileWhenTheLaneIsNarrowerThanTheSpacing) {
    const GeneratorResult r = generate(
        CrossingFlows{.perFlow = 3, .laneWidth = 1, .length = 10, .spacing = 2}, SceneAgent{});
    ASSERT_EQ(r.agents.size(), 6U);
    EXPECT_EQ(r.agents[0].position, Vec2(-10, 0));
    EXPECT_EQ(r.agents[1].position, Vec2(-12, 0));
    EXPECT_EQ(r.agents[2].position, Vec2(-14, 0));
    EXPECT_EQ(r.agents[2].goal, Vec2(10, 0));
}

TEST(GeneratorCrossingFlows, OverlappingStartsThrow) {
    expectInvalid(
        [] { (void)generate(CrossingFlows{.angleDeg = 5}, SceneAgent{}); },
        {"crossing flows", "the two flows overlap at the start", "increase length or the angle"});
    expectInvalid([] { (void)generate(CrossingFlows{.length = 0}, SceneAgent{}); },
                  {"overlap at the start"});
    expectInvalid([] { (void)generate(CrossingFlows{.angleDeg = 360}, SceneAgent{}); },
                  {"overlap at the start"});
}

TEST(GeneratorCrossingFlows, InvalidParametersThrow) {
    expectInvalid([] { (void)generate(CrossingFlows{.perFlow = 0}, SceneAgent{}); },
                  {"crossing flows", "perFlow must be at least 1 (got 0)"});
    expectInvalid([] { (void)generate(CrossingFlows{.perFlow = 600000}, SceneAgent{}); },
                  {"perFlow must be at most 500000"});
    expectInvalid([] { (void)generate(CrossingFlows{.laneWidth = -1}, SceneAgent{}); },
                  {"laneWidth must be >= 0 (got -1)"});
    expectInvalid([] { (void)generate(CrossingFlows{.length = kInf}, SceneAgent{}); },
                  {"length must be a finite number"});
    expectInvalid([] { (void)generate(CrossingFlows{.spacing = -3}, SceneAgent{}); },
                  {"spacing must be > 0 (got -3)"});
    expectInvalid([] { (void)generate(CrossingFlows{.angleDeg = kNaN}, SceneAgent{}); },
                  {"angleDeg must be a finite number"});
    expectInvalid(
        [] {
            (void)generate(CrossingFlows{.center = {kNaN, 0}}, SceneAgent{});
        },
        {"center must be finite"});
}

// ---- Keeping clear of the surroundings -------------------------------------------------------

/// The agents as scene text: equal text = bit-identical agents (numbers round-trip exactly).
std::string textOf(const GeneratorResult& r) {
    Scene scene;
    scene.agents = r.agents;
    return serializeScene(scene);
}

SceneAgent withRadius(double radius) {
    SceneAgent prototype;
    prototype.overrides.radius = radius;
    return prototype;
}

/// The 3×3 grid at spacing 2 around the origin: x, y in {−2, 0, 2}, row by row from y = −2.
const GridBlock kGrid3{.rows = 3, .columns = 3, .spacing = 2, .goalOffset = {0, 10}};

TEST(GeneratorSurroundings, GridOverAnExistingAgentDropsExactlyTheOverlappingOnes) {
    // Existing agent at (1, 0), radius 1; new radius 0.5: centres must be >= 1.5 apart.
    // (0, 0) and (2, 0) are 1 away: dropped. (0, ±2), (2, ±2) are √5 ≈ 2.24 away, (−2, 0) is 3.
    // The agent at (−4, 0), radius 1.5, needs 2.0 and (−2, 0) is exactly 2 away: touching is
    // clear.
    Surroundings around;
    around.agents = {{{1, 0}, 1.0}, {{-4, 0}, 1.5}};
    const GeneratorResult r = generate(kGrid3, withRadius(0.5), around);
    const std::vector<Vec2> kept{{-2, -2}, {0, -2}, {2, -2}, {-2, 0}, {-2, 2}, {0, 2}, {2, 2}};
    EXPECT_EQ(positionsOf(r), kept);
    for (const SceneAgent& a : r.agents)
        EXPECT_EQ(a.goal, a.position + Vec2(0, 10)); // goals travel with their agents
    EXPECT_EQ(r.requested, 9);
    EXPECT_EQ(r.unplaced, 2);
    EXPECT_EQ(r.note, "placed 7 of 9: 2 would overlap existing agents");
    expectLoadable(r);
}

TEST(GeneratorSurroundings, MinSpacingWidensTheGapBetweenCentres) {
    // minSpacing 3 > 0.5 + 1: centres >= 3 from (1, 0). Kept: (−2, 0) exactly 3 away and
    // (−2, ±2) √13 ≈ 3.6 away; (0, ±2) and (2, ±2) are √5 away.
    Surroundings around;
    around.agents = {{{1, 0}, 1.0}};
    around.minSpacing = 3.0;
    const GeneratorResult r = generate(kGrid3, withRadius(0.5), around);
    EXPECT_EQ(positionsOf(r), (std::vector<Vec2>{{-2, -2}, {-2, 0}, {-2, 2}}));
    EXPECT_EQ(r.unplaced, 6);
    EXPECT_EQ(r.note, "placed 3 of 9: 6 would overlap existing agents");
}

TEST(GeneratorSurroundings, TheGeneratedRadiusIsTheOverrideElseTheDefault) {
    // Existing agent at (0, 0.9), radius 0; the grid agent (0, 0) is 0.9 away: clear for a
    // radius up to 0.9.
    Surroundings around;
    around.agents = {{{0, 0.9}, 0.0}};
    around.defaultRadius = 1.0;
    const GridBlock one{.rows = 1, .columns = 1};
    EXPECT_EQ(generate(one, SceneAgent{}, around).agents.size(), 0U); // default 1.0
    EXPECT_EQ(generate(one, withRadius(0.9), around).agents.size(), 1U);
    around.defaultRadius = 0.5;
    EXPECT_EQ(generate(one, SceneAgent{}, around).agents.size(), 1U);
}

TEST(GeneratorSurroundings, ObstaclesDropAgentsInsideOrOverlappingButNotTouching) {
    // A clockwise box [1, 3.5] × [−1.5, 1.5]: (2, 0) is inside, 1 or more from every edge (only
    // the inside test drops it); (2, ±2) are exactly 0.5 (= radius) from its top and bottom
    // edges: touching, kept. A wall (2-vertex segment) along y = −2.4 from x = −3 to 3 is 0.4
    // from the bottom row: all three dropped.
    Surroundings around;
    around.obstacles = {{{1, -1.5}, {1, 1.5}, {3.5, 1.5}, {3.5, -1.5}}, {{-3, -2.4}, {3, -2.4}}};
    const GeneratorResult r = generate(kGrid3, withRadius(0.5), around);
    EXPECT_EQ(positionsOf(r), (std::vector<Vec2>{{-2, 0}, {0, 0}, {-2, 2}, {0, 2}, {2, 2}}));
    EXPECT_EQ(r.requested, 9);
    EXPECT_EQ(r.unplaced, 4);
    EXPECT_EQ(r.note, "placed 5 of 9: 4 would overlap obstacles");
}

TEST(GeneratorSurroundings, TheNoteCountsAgentsObstaclesAndBoth) {
    // The wall of the previous test drops the bottom row; agents at (−2, 2) (alone) and (2, −2)
    // (also on the wall) drop one each; a point obstacle 0.3 from (0, 0) drops it.
    Surroundings around;
    around.obstacles = {{{-3, -2.4}, {3, -2.4}}, {{0.3, 0}}};
    around.agents = {{{-2, 2}, 0.5}, {{2, -2}, 0.5}};
    SceneAgent prototype = withRadius(0.5);
    prototype.isStatic = true;
    const GeneratorResult r = generate(kGrid3, prototype, around);
    EXPECT_EQ(positionsOf(r), (std::vector<Vec2>{{-2, 0}, {2, 0}, {0, 2}, {2, 2}}));
    EXPECT_EQ(r.unplaced, 5);
    EXPECT_EQ(r.note, "placed 4 of 9: 5 would overlap existing agents or obstacles (1 an agent, "
                      "3 an obstacle, 1 both); static agents get no goals (they never move)");
}

TEST(GeneratorSurroundings, CircleAndCrossingFlowsDropInOrder) {
    Surroundings around;
    around.agents = {{{10, 0}, 1.0}};
    const GeneratorResult circle =
        generate(CircleFormation{.radius = 10, .count = 4}, withRadius(0.5), around);
    EXPECT_EQ(positionsOf(circle), (std::vector<Vec2>{{0, 10}, {-10, 0}, {0, -10}}));
    EXPECT_EQ(circle.agents[1].goal, Vec2(10, 0)); // goals are not checked
    EXPECT_EQ(circle.note, "placed 3 of 4: 1 would overlap existing agents");

    // The small layout of SmallCaseExactLayout; an agent at (−12, 0), radius 0.6, reaches 1.1:
    // it drops (−12, ±1) (1 away) but not (−10, ±1) (√5) nor (−14, 0) (2).
    around.agents = {{{-12, 0}, 0.6}};
    const GeneratorResult flows = generate(
        CrossingFlows{.perFlow = 5, .laneWidth = 3, .length = 10, .spacing = 2, .angleDeg = 90},
        withRadius(0.5), around);
    EXPECT_EQ(
        positionsOf(flows),
        (std::vector<Vec2>{
            {-10, -1}, {-10, 1}, {-14, 0}, {1, -10}, {-1, -10}, {1, -12}, {-1, -12}, {0, -14}}));
    EXPECT_EQ(flows.agents[2].goal, Vec2(10, 0));
    EXPECT_EQ(flows.requested, 10);
    EXPECT_EQ(flows.unplaced, 2);
    EXPECT_EQ(flows.note, "placed 8 of 10: 2 would overlap existing agents");
}

TEST(GeneratorSurroundings, RandomFillSkipsTheCandidateOnAnExistingAgent) {
    // The first candidate in [0, 10]² is (10·o1, 10·o2)/2^32 ≈ (4.17, 9.97) from the first
    // raw outputs of std::mt19937(1); an agent at (4, 10) with radius 1 blocks it (new radius
    // 0.5: 1.5 needed), so the first agent is the second candidate.
    std::mt19937 rng(1);
    const auto o1 = static_cast<double>(rng());
    const auto o2 = static_cast<double>(rng());
    const double ux = static_cast<double>(rng()) / 4294967296.0;
    const double uy = static_cast<double>(rng()) / 4294967296.0;
    const Vec2 second{ux * 10.0, uy * 10.0}; // as the generator computes lo + u·extent
    ASSERT_EQ(o1, 1791095845.0);
    ASSERT_EQ(o2, 4282876139.0);
    ASSERT_GT(length(second - Vec2(4, 10)), 1.5);
    Surroundings around;
    around.agents = {{{4, 10}, 1.0}};
    const RandomFill params{.region = rectangleRegion({0, 0}, {10, 10}), .count = 1, .seed = 1};
    const GeneratorResult r = generate(params, withRadius(0.5), around);
    ASSERT_EQ(r.agents.size(), 1U);
    EXPECT_EQ(r.agents[0].position, second);
    EXPECT_EQ(r.requested, 1);
    EXPECT_EQ(r.unplaced, 0);
    EXPECT_EQ(r.note, "");
}

TEST(GeneratorSurroundings, RandomFillAroundAnObstaclePlacesEveryAgentOutsideIt) {
    // A 10×10 block in the middle of a 40×40 room, and a few agents in the room already.
    Surroundings around;
    around.obstacles = {rectangleRegion({15, 15}, {25, 25})};
    around.agents = {{{5, 5}, 1.0}, {{35, 5}, 2.0}, {{5, 35}, 0.5}, {{30, 30}, 1.0}};
    around.minSpacing = 2.0;
    const RandomFill params{
        .region = rectangleRegion({0, 0}, {40, 40}), .count = 150, .minSpacing = 2.0, .seed = 7};
    const double radius = 0.5;
    const GeneratorResult r = generate(params, withRadius(radius), around);
    ASSERT_EQ(r.agents.size(), 150U);
    EXPECT_EQ(r.requested, 150);
    EXPECT_EQ(r.unplaced, 0);
    EXPECT_EQ(r.note, "");
    for (const SceneAgent& a : r.agents) {
        const Vec2 p = a.position;
        // Outside the block by at least the radius (distance to the box [15, 25]²).
        const double dx = std::max({15.0 - p.x, 0.0, p.x - 25.0});
        const double dy = std::max({15.0 - p.y, 0.0, p.y - 25.0});
        EXPECT_GE(std::hypot(dx, dy), radius) << p.x << ", " << p.y;
        for (const OccupiedDisk& d : around.agents) {
            EXPECT_GE(length(p - d.position), std::max(2.0, radius + d.radius))
                << p.x << ", " << p.y;
        }
        EXPECT_TRUE(isClear(around, p, radius));
    }
    EXPECT_GE(minPairDistance(positionsOf(r)), 2.0); // and none overlapping each other

    // Deterministic: the same inputs give the same agents; so does another order of the
    // existing agents and obstacles (the rule is a yes/no per candidate).
    EXPECT_EQ(textOf(generate(params, withRadius(radius), around)), textOf(r));
    Surroundings reordered = around;
    std::reverse(reordered.agents.begin(), reordered.agents.end());
    reordered.obstacles.insert(reordered.obstacles.begin(), std::vector<Vec2>{{100, 100}});
    EXPECT_EQ(textOf(generate(params, withRadius(radius), reordered)), textOf(r));
    // Without surroundings some agents would have landed on the block.
    const GeneratorResult bare = generate(params, withRadius(radius));
    EXPECT_TRUE(std::any_of(bare.agents.begin(), bare.agents.end(), [&](const SceneAgent& a) {
        return !isClear(around, a.position, radius);
    }));
}

TEST(GeneratorSurroundings, RandomFillOutOfRoomSaysWhatBlockedIt) {
    // The left half of the 10×10 square is an obstacle: at spacing 3 not even 20 fit.
    Surroundings around;
    around.obstacles = {rectangleRegion({-1, -1}, {5, 11})};
    RandomFill params{.region = rectangleRegion({0, 0}, {10, 10}), .count = 50, .minSpacing = 3};
    GeneratorResult r = generate(params, withRadius(0.5), around);
    EXPECT_GT(r.agents.size(), 2U);
    EXPECT_LT(r.agents.size(), 20U);
    EXPECT_EQ(r.requested, 50);
    EXPECT_EQ(r.unplaced, 50 - static_cast<int>(r.agents.size()));
    const std::string placed = "placed " + std::to_string(r.agents.size()) +
                               " of 50: no room at minSpacing 3 after "
                               "10000 tries (";
    EXPECT_EQ(r.note.rfind(placed, 0), 0U) << r.note;
    EXPECT_NE(r.note.find(" tries overlapped obstacles)"), std::string::npos) << r.note;
    EXPECT_EQ(r.note.find("agents"), std::string::npos) << r.note;
    for (const SceneAgent& a : r.agents)
        EXPECT_GE(a.position.x, 5.5);

    // An agent too: both kinds are named.
    around.agents = {{{8, 5}, 1.0}};
    r = generate(params, withRadius(0.5), around);
    EXPECT_NE(r.note.find(" tries overlapped existing agents, "), std::string::npos) << r.note;
    EXPECT_NE(r.note.find(" obstacles)"), std::string::npos) << r.note;
}

TEST(GeneratorSurroundings, NoSurroundingsOrFarAwayOnesChangeNothing) {
    // Far away: outside every generated agent's reach.
    Surroundings far;
    far.agents = {{{500, 500}, 3.0}, {{-400, 0}, 1.0}};
    far.obstacles = {rectangleRegion({300, -10}, {310, 10}), {{0, 200}, {10, 200}}};
    far.minSpacing = 5.0;
    const SceneAgent prototype = withRadius(0.5);
    const auto expectSame = [&](const auto& params) {
        const GeneratorResult old = generate(params, prototype);
        for (const Surroundings& s : {Surroundings{}, far}) {
            const GeneratorResult r = generate(params, prototype, s);
            EXPECT_EQ(textOf(r), textOf(old));
            EXPECT_EQ(r.note, old.note);
            EXPECT_EQ(r.requested, old.requested);
            EXPECT_EQ(r.unplaced, old.unplaced);
        }
        return old;
    };
    const GeneratorResult circle = expectSame(CircleFormation{.count = 12});
    EXPECT_EQ(circle.requested, 12);
    EXPECT_EQ(circle.unplaced, 0);
    EXPECT_EQ(expectSame(GridBlock{.rows = 5, .columns = 7}).requested, 35);
    EXPECT_EQ(expectSame(CrossingFlows{}).requested, 40);
    const GeneratorResult fill = expectSame(RandomFill{.region = kLShape,
                                                       .count = 60,
                                                       .minSpacing = 2,
                                                       .seed = 3,
                                                       .goals = RandomFill::Goals::RandomInRegion});
    EXPECT_EQ(fill.requested, 60);
    // Out of room without surroundings: unplaced counts the shortfall, the note is as before.
    const GeneratorResult full = expectSame(
        RandomFill{.region = rectangleRegion({0, 0}, {10, 10}), .count = 200, .minSpacing = 3});
    EXPECT_EQ(full.unplaced, 200 - static_cast<int>(full.agents.size()));
    EXPECT_EQ(full.note, "placed " + std::to_string(full.agents.size()) +
                             " of 200: no room at minSpacing 3 after 40000 tries");
    const GeneratorResult none =
        expectSame(RandomFill{.region = rectangleRegion({0, 0}, {20, 10}), .density = 0.001});
    EXPECT_EQ(none.requested, 0);
    EXPECT_EQ(none.unplaced, 0);
}

TEST(GeneratorSurroundings, SurroundingsOfASceneResolveRadii) {
    Scene scene;
    scene.agentDefaults.radius = 0.4;
    SceneAgent big;
    big.position = {1, 2};
    big.overrides.radius = 1.5;
    SceneAgent plain;
    plain.position = {-3, 0};
    scene.agents = {big, plain};
    SceneObstacle wall;
    wall.vertices = {{0, 0}, {1, 0}, {1, 1}};
    scene.obstacles = {wall};
    const Surroundings s = surroundingsOf(scene, 2.5);
    ASSERT_EQ(s.agents.size(), 2U);
    EXPECT_EQ(s.agents[0].position, Vec2(1, 2));
    EXPECT_EQ(s.agents[0].radius, 1.5);
    EXPECT_EQ(s.agents[1].position, Vec2(-3, 0));
    EXPECT_EQ(s.agents[1].radius, 0.4);
    EXPECT_EQ(s.obstacles, std::vector<std::vector<Vec2>>{wall.vertices});
    EXPECT_EQ(s.minSpacing, 2.5);
    EXPECT_EQ(s.defaultRadius, 0.4);
    EXPECT_EQ(surroundingsOf(scene).minSpacing, 0.0);
}

TEST(GeneratorSurroundings, IsClearFollowsTheRule) {
    Surroundings s;
    s.agents = {{{0, 0}, 1.0}};
    s.obstacles = {rectangleRegion({10, 0}, {12, 2})};
    EXPECT_FALSE(isClear(s, {1.4, 0}, 0.5));
    EXPECT_TRUE(isClear(s, {1.5, 0}, 0.5)); // touching
    s.minSpacing = 2.0;
    EXPECT_FALSE(isClear(s, {1.5, 0}, 0.5));
    EXPECT_TRUE(isClear(s, {0, -2}, 0.5));
    EXPECT_FALSE(isClear(s, {11, 1}, 0.0));     // inside, radius 0
    EXPECT_FALSE(isClear(s, {9.6, 1}, 0.5));    // overlaps the left edge
    EXPECT_TRUE(isClear(s, {9.5, 1}, 0.5));     // touches it
    EXPECT_FALSE(isClear(s, {12.3, 2.3}, 0.5)); // near the corner: √0.18 ≈ 0.42 away
    EXPECT_TRUE(isClear(s, {12.4, 2.4}, 0.5));  // √0.32 ≈ 0.57 away
    EXPECT_TRUE(isClear(Surroundings{}, {0, 0}, 100.0));
}

TEST(GeneratorSurroundings, TheIndexAgreesWithTheLinearRuleOnARandomScene) {
    // Existing agents of mixed radii (a few huge ones), triangles, segments, points and one
    // big obstacle over the generated grid; every grid agent must be kept exactly when the
    // linear rule (isClear) says it is clear.
    std::mt19937 rng(42);
    const auto uniform = [&](double lo, double hi) {
        return lo + (hi - lo) * static_cast<double>(rng()) / 4294967296.0;
    };
    Surroundings s;
    s.minSpacing = 1.2;
    for (int i = 0; i < 3000; ++i) {
        const double radius = i % 500 == 0 ? uniform(5, 20) : uniform(0.2, 0.8);
        s.agents.push_back({{uniform(-120, 120), uniform(-120, 120)}, radius});
    }
    for (int i = 0; i < 200; ++i) {
        const Vec2 c{uniform(-120, 120), uniform(-120, 120)};
        switch (i % 3) {
        case 0:
            s.obstacles.push_back({c, c + Vec2(uniform(0.5, 4), 0), c + Vec2(0, uniform(0.5, 4))});
            break;
        case 1:
            s.obstacles.push_back({c, c + Vec2(uniform(-5, 5), uniform(-5, 5))});
            break;
        default:
            s.obstacles.push_back({c});
            break;
        }
    }
    s.obstacles.push_back({{-60, -60}, {70, -50}, {0, 10}, {60, 70}, {-50, 40}});
    const GridBlock grid{.rows = 100, .columns = 100, .spacing = 2.0};
    const GeneratorResult bare = generate(grid, withRadius(0.6));
    const GeneratorResult r = generate(grid, withRadius(0.6), s);
    std::vector<Vec2> expected;
    for (const SceneAgent& a : bare.agents) {
        if (isClear(s, a.position, 0.6)) expected.push_back(a.position);
    }
    EXPECT_EQ(positionsOf(r), expected);
    EXPECT_GT(expected.size(), 1000U);
    EXPECT_LT(expected.size(), 9000U);
    EXPECT_EQ(r.unplaced, 10000 - static_cast<int>(expected.size()));
    EXPECT_NE(r.note.find("existing agents or obstacles ("), std::string::npos) << r.note;
}

TEST(GeneratorSurroundings, TwentyThousandExistingAgentsAndTenThousandNewOnesAreQuick) {
    // A dense existing crowd on a jittered lattice (1.25 apart) over an eighth of a 500×500
    // square; a random fill of the whole square must keep clear of it.
    std::mt19937 rng(5);
    const auto jitter = [&] { return 0.5 * (static_cast<double>(rng()) / 4294967296.0 - 0.5); };
    Surroundings s;
    for (int i = 0; i < 20000; ++i) {
        const double x = 0.625 + 1.25 * static_cast<double>(i % 100) + jitter();
        const double y = 0.625 + 1.25 * static_cast<double>(i / 100) + jitter();
        s.agents.push_back({{x, y}, 0.5});
    }
    s.minSpacing = 3.0;
    const auto start = std::chrono::steady_clock::now();
    const GeneratorResult r = generate(RandomFill{.region = rectangleRegion({0, 0}, {500, 500}),
                                                  .count = 10000,
                                                  .minSpacing = 3.0,
                                                  .seed = 2},
                                       withRadius(0.5), s);
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    RecordProperty("milliseconds", std::to_string(ms));
    ASSERT_EQ(r.agents.size(), 10000U);
    for (std::size_t i = 0; i < r.agents.size(); i += 50)
        EXPECT_TRUE(isClear(s, r.agents[i].position, 0.5)) << i;
    EXPECT_LT(ms, 5000.0); // generous: sanitizer builds on a loaded machine
}

TEST(GeneratorSurroundings, InvalidSurroundingsThrow) {
    const GridBlock one{.rows = 1, .columns = 1};
    Surroundings s;
    s.agents = {{{0, 0}, 1.0}, {{1, kNaN}, 1.0}};
    expectInvalid([&] { (void)generate(one, SceneAgent{}, s); },
                  {"grid block", "surroundings.agents[1].position must be finite"});
    s.agents = {{{0, 0}, -1.0}};
    expectInvalid([&] { (void)generate(one, SceneAgent{}, s); },
                  {"surroundings.agents[0].radius must be >= 0 (got -1)"});
    s.agents.clear();
    s.obstacles = {{{0, 0}, {kInf, 0}}};
    expectInvalid([&] { (void)generate(CircleFormation{}, SceneAgent{}, s); },
                  {"circle formation", "surroundings.obstacles[0][1] must be finite"});
    s.obstacles.clear();
    s.minSpacing = -2;
    expectInvalid([&] { (void)generate(RandomFill{.region = kLShape}, SceneAgent{}, s); },
                  {"random fill", "surroundings.minSpacing must be >= 0 (got -2)"});
    s.minSpacing = 0;
    expectInvalid([&] { (void)generate(CrossingFlows{}, withRadius(-0.5), s); },
                  {"crossing flows", "the prototype's radius must be >= 0 (got -0.5)"});
    s.defaultRadius = kNaN;
    expectInvalid([&] { (void)generate(one, SceneAgent{}, s); },
                  {"surroundings.defaultRadius must be a finite number"});
}

} // namespace
} // namespace orca::scene
