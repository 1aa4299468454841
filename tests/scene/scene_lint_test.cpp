// The scene linter: every rule on a minimal scene that triggers it and a near miss that does
// not, every fix with the exact result, the bundled scenes, speed, and random scenes.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <numbers>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/sanitized.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/workloads.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;
using Kind = LintElement::Kind;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

/// A scene from JSON fragments (`defaults` and `simulation` replace keys of the blocks),
/// loaded as written (no winding repair). Agent defaults that trigger nothing: radius 1,
/// maxSpeed 1, prefSpeed 1, neighborDist 10, maxNeighbors 10, τ = τo = 5, Δt = 0.25.
Scene sceneOf(const std::string& agents, const std::string& obstacles = "",
              const std::string& defaults = "", const std::string& simulation = "") {
    nlohmann::json j = nlohmann::json::parse(R"({"format": "orca-scene", "version": 1,
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 1, "maxSpeed": 1, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5}})");
    j["agentDefaults"].update(nlohmann::json::parse("{" + defaults + "}"));
    j["simulation"].update(nlohmann::json::parse("{" + simulation + "}"));
    j["agents"] = nlohmann::json::parse("[" + agents + "]");
    if (!obstacles.empty()) j["obstacles"] = nlohmann::json::parse("[" + obstacles + "]");
    return parseScene(j.dump(), "lint.json", LoadOptions{.repairWinding = false}).scene;
}

std::vector<LintIssue> withRule(const std::vector<LintIssue>& issues, const std::string& rule) {
    std::vector<LintIssue> out;
    for (const LintIssue& i : issues)
        if (i.rule == rule) out.push_back(i);
    return out;
}

bool has(const Scene& s, const std::string& rule) {
    return !withRule(lintScene(s), rule).empty();
}

/// The one issue of `rule` in `s` (fails the test when there is not exactly one).
LintIssue one(const Scene& s, const std::string& rule) {
    const std::vector<LintIssue> all = lintScene(s);
    const std::vector<LintIssue> found = withRule(all, rule);
    std::string seen;
    for (const LintIssue& i : all)
        seen += "\n  " + i.rule + " at " + i.jsonPath + ": " + i.message;
    EXPECT_EQ(found.size(), 1u) << "rule " << rule << "; lint found:" << seen;
    return found.empty() ? LintIssue{} : found.front();
}

std::vector<LintElement> els(std::initializer_list<LintElement> e) {
    return e;
}
LintElement agent(std::size_t i) {
    return {Kind::Agent, i, 0};
}
LintElement goal(std::size_t i) {
    return {Kind::Goal, i, 0};
}
LintElement obstacle(std::size_t i) {
    return {Kind::Obstacle, i, 0};
}

/// Applies the fix of the one `rule` issue and checks that it is gone afterwards.
void fix(Scene& s, const std::string& rule) {
    const LintIssue issue = one(s, rule);
    ASSERT_FALSE(issue.fixLabel.empty()) << rule;
    std::string error;
    ASSERT_TRUE(applyLintFix(s, issue, &error)) << rule << ": " << error;
    EXPECT_FALSE(has(s, rule)) << rule << " is still reported after its fix";
    // The same issue cannot be fixed twice.
    EXPECT_FALSE(applyLintFix(s, issue, &error)) << rule;
    EXPECT_FALSE(error.empty());
}

const std::string kSquare = R"({"vertices": [[0, 0], [4, 0], [4, 4], [0, 4]]})";

// ---- Basics -------------------------------------------------------------------------------------

TEST(Lint, SeverityNames) {
    EXPECT_STREQ(severityName(LintSeverity::Error), "error");
    EXPECT_STREQ(severityName(LintSeverity::Warning), "warning");
    EXPECT_STREQ(severityName(LintSeverity::Info), "info");
}

TEST(Lint, ACleanSceneHasNoIssues) {
    const Scene s = sceneOf(R"({"position": [-10, 0], "goal": [10, 3]},
                               {"position": [-10, 5], "goal": [10, -3]},
                               {"position": [0, 20], "static": true})",
                            R"({"vertices": [[-2, -20], [2, -20], [2, -16], [-2, -16]]})");
    EXPECT_TRUE(lintScene(s).empty());
    EXPECT_TRUE(lintScene(Scene{}).empty());
}

TEST(Lint, IssuesAreSortedBySeverityThenElement) {
    // An info (agent 0 starts at its goal), two errors (agents 2 and 3 overlap; obstacle 1 is
    // clockwise) and a warning (obstacle 0 has a tiny edge).
    const Scene s = sceneOf(
        R"({"position": [0, 0], "goal": [0.5, 0]}, {"position": [-30, 0]},
           {"position": [20, 0]}, {"position": [21, 0]})",
        R"({"vertices": [[0, 10], [4, 10], [4, 10.000001], [4, 14], [0, 14]]},
           {"vertices": [[0, 20], [0, 24], [4, 24], [4, 20]]})");
    std::vector<LintIssue> issues = lintScene(s);
    std::vector<std::string> rules;
    for (const LintIssue& i : issues)
        rules.push_back(i.rule);
    EXPECT_EQ(rules, (std::vector<std::string>{"agents-overlap", "obstacle-clockwise",
                                               "obstacle-tiny-edge", "starts-at-goal"}));
    EXPECT_TRUE(
        std::is_sorted(issues.begin(), issues.end(), [](const LintIssue& a, const LintIssue& b) {
            return a.severity < b.severity;
        }));
    // Deterministic.
    const std::vector<LintIssue> again = lintScene(s);
    ASSERT_EQ(again.size(), issues.size());
    for (std::size_t k = 0; k < issues.size(); ++k) {
        EXPECT_EQ(again[k].rule, issues[k].rule);
        EXPECT_EQ(again[k].message, issues[k].message);
        EXPECT_EQ(again[k].elements, issues[k].elements);
    }
}

TEST(Lint, FixRefusesIssuesWithoutAFixOrThatNoLongerApply) {
    Scene s = sceneOf(R"({"position": [0, 0], "goal": [0.5, 0]})");
    const LintIssue atGoal = one(s, "starts-at-goal");
    EXPECT_TRUE(atGoal.fixLabel.empty());
    const Scene before = s;
    std::string error;
    EXPECT_FALSE(applyLintFix(s, atGoal, &error));
    EXPECT_EQ(error, "the issue has no automatic fix");
    EXPECT_TRUE(s == before);

    LintIssue bogus;
    bogus.rule = "agents-overlap";
    bogus.fixLabel = "Nudge apart";
    bogus.elements = {agent(0), agent(7)};
    EXPECT_FALSE(applyLintFix(s, bogus, nullptr));
    EXPECT_TRUE(s == before);
}

// ---- Obstacles ----------------------------------------------------------------------------------

TEST(LintObstacle, ClockwiseIsAnErrorFixedByReversing) {
    Scene s = sceneOf("", R"({"vertices": [[0, 0], [0, 4], [4, 4], [4, 0]]})");
    const LintIssue i = one(s, "obstacle-clockwise");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "obstacles[0]");
    EXPECT_EQ(i.elements, els({obstacle(0)}));
    EXPECT_EQ(i.where, Vec2(2, 2));
    EXPECT_EQ(i.fixLabel, "Reverse winding");
    fix(s, "obstacle-clockwise");
    EXPECT_EQ(s.obstacles[0].vertices, (std::vector<Vec2>{{4, 0}, {4, 4}, {0, 4}, {0, 0}}));
    // Near miss: counter-clockwise, and a 2-vertex wall has no winding.
    EXPECT_TRUE(lintScene(sceneOf("", kSquare + R"(, {"vertices": [[10, 0], [10, 5]]})")).empty());
}

TEST(LintObstacle, SelfIntersectingIsDeleted) {
    Scene s = sceneOf("", kSquare);
    s.obstacles.push_back({std::nullopt, {{10, 0}, {14, 4}, {14, 0}, {10, 4}}}); // bow tie
    const LintIssue i = one(s, "obstacle-self-intersecting");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "obstacles[1].vertices");
    EXPECT_EQ(i.elements, els({obstacle(1), {Kind::Edge, 1, 0}, {Kind::Edge, 1, 2}}));
    EXPECT_EQ(i.where, Vec2(12, 2));
    EXPECT_EQ(i.fixLabel, "Delete obstacle");
    fix(s, "obstacle-self-intersecting");
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_EQ(s.obstacles[0].vertices[1], Vec2(4, 0));
    // Near miss: a concave arrow is fine.
    EXPECT_TRUE(
        lintScene(sceneOf("", R"({"vertices": [[0, 0], [4, 2], [0, 4], [1, 2]]})")).empty());
}

TEST(LintObstacle, RepeatedVertexIsRemoved) {
    Scene s = sceneOf("");
    s.obstacles.push_back({std::nullopt, {{0, 0}, {4, 0}, {4, 0}, {4, 4}, {0, 4}}});
    const LintIssue i = one(s, "obstacle-duplicate-vertex");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "obstacles[0].vertices[2]");
    EXPECT_EQ(i.elements, els({obstacle(0), {Kind::Vertex, 0, 1}, {Kind::Vertex, 0, 2}}));
    EXPECT_NE(i.message.find("zero-length edge"), std::string::npos) << i.message;
    fix(s, "obstacle-duplicate-vertex");
    EXPECT_EQ(s.obstacles[0].vertices, (std::vector<Vec2>{{0, 0}, {4, 0}, {4, 4}, {0, 4}}));
    EXPECT_TRUE(lintScene(s).empty());

    // A pinch (the same point twice, not adjacent).
    Scene pinch = sceneOf("");
    pinch.obstacles.push_back({std::nullopt, {{0, 0}, {2, 2}, {4, 0}, {4, 4}, {2, 2}, {0, 4}}});
    const LintIssue p = one(pinch, "obstacle-duplicate-vertex");
    EXPECT_EQ(p.jsonPath, "obstacles[0].vertices[4]");
    EXPECT_NE(p.message.find("pinches"), std::string::npos) << p.message;
}

TEST(LintObstacle, TinyEdgeIsAWarningFixedByRemovingAVertex) {
    Scene s = sceneOf("", R"({"vertices": [[0, 0], [4, 0], [4, 0.000001], [4, 4], [0, 4]]})");
    const LintIssue i = one(s, "obstacle-tiny-edge");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "obstacles[0].vertices[2]");
    EXPECT_EQ(i.elements, els({obstacle(0), {Kind::Edge, 0, 1}}));
    fix(s, "obstacle-tiny-edge");
    EXPECT_EQ(s.obstacles[0].vertices, (std::vector<Vec2>{{0, 0}, {4, 0}, {4, 4}, {0, 4}}));
    // Near miss: 1e-4 is above the solver's epsilon.
    EXPECT_FALSE(has(sceneOf("", R"({"vertices": [[0, 0], [4, 0], [4, 0.0001], [4, 4], [0, 4]]})"),
                     "obstacle-tiny-edge"));
}

TEST(LintObstacle, TooFewVerticesNonFiniteAndCollinear) {
    Scene s = sceneOf("");
    s.obstacles.push_back({std::nullopt, {{1, 1}}});
    s.obstacles.push_back({std::nullopt, {}});
    s.obstacles.push_back({std::nullopt, {{0, 0}, {kNaN, 1}, {1, 1}}});
    s.obstacles.push_back({std::nullopt, {{2, 0}, {5, 0}, {0, 0}}});
    const std::vector<LintIssue> issues = lintScene(s);
    ASSERT_EQ(issues.size(), 4u);
    EXPECT_EQ(issues[0].rule, "obstacle-too-few-vertices");
    EXPECT_EQ(issues[0].jsonPath, "obstacles[0].vertices");
    EXPECT_EQ(issues[0].where, Vec2(1, 1));
    EXPECT_EQ(issues[1].rule, "obstacle-too-few-vertices");
    EXPECT_EQ(issues[2].rule, "obstacle-non-finite");
    EXPECT_EQ(issues[2].jsonPath, "obstacles[2].vertices[1]");
    EXPECT_EQ(issues[2].elements, els({obstacle(2), {Kind::Vertex, 2, 1}}));
    EXPECT_EQ(issues[3].rule, "obstacle-collinear");
    EXPECT_EQ(issues[3].fixLabel, "Replace with segment");
    for (const LintIssue& i : issues)
        EXPECT_EQ(i.severity, LintSeverity::Error);

    // Collinear becomes the segment between the two extreme vertices (in vertex order).
    ASSERT_TRUE(applyLintFix(s, issues[3]));
    EXPECT_EQ(s.obstacles[3].vertices, (std::vector<Vec2>{{5, 0}, {0, 0}}));
    // The others are deleted, last first so that indices stay valid.
    ASSERT_TRUE(applyLintFix(s, issues[2]));
    ASSERT_TRUE(applyLintFix(s, issues[1]));
    ASSERT_TRUE(applyLintFix(s, issues[0]));
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_TRUE(lintScene(s).empty());
}

// ---- Agents -------------------------------------------------------------------------------------

TEST(LintAgents, OverlapIsNudgedApartSymmetrically) {
    Scene s = sceneOf(R"({"position": [0, 0]}, {"position": [1.5, 0]})");
    const LintIssue i = one(s, "agents-overlap");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "agents[1].position");
    EXPECT_EQ(i.elements, els({agent(0), agent(1)}));
    EXPECT_EQ(i.where, Vec2(0.75, 0));
    EXPECT_EQ(i.fixLabel, "Nudge apart");
    fix(s, "agents-overlap");
    // Apart along the centre line to 2 * 1.01 (1% margin), each moving half of 0.52.
    EXPECT_DOUBLE_EQ(s.agents[0].position.x, -0.26);
    EXPECT_DOUBLE_EQ(s.agents[1].position.x, 1.76);
    EXPECT_EQ(s.agents[0].position.y, 0.0);
    EXPECT_EQ(s.agents[1].position.y, 0.0);

    // Near miss: exactly touching.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [0, 0]}, {"position": [2, 0]})")).empty());
    // Two static agents are scenery and may overlap.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [0, 0], "static": true},
                                     {"position": [1, 0], "static": true})"))
                    .empty());
}

TEST(LintAgents, OverlapFixMovesOnlyTheNonStaticAgentAndSplitsCoincidentOnesAlongX) {
    Scene s = sceneOf(R"({"position": [0, 0], "static": true}, {"position": [0, 1], "radius": 2})");
    fix(s, "agents-overlap");
    EXPECT_EQ(s.agents[0].position, Vec2(0, 0));
    EXPECT_DOUBLE_EQ(s.agents[1].position.y, 3.03);
    EXPECT_EQ(s.agents[1].position.x, 0.0);

    Scene same = sceneOf(R"({"position": [3, 3], "goal": [9, 9]}, {"position": [3, 3]})");
    fix(same, "agents-overlap");
    EXPECT_EQ(same.agents[0].position, Vec2(3 - 1.01, 3));
    EXPECT_EQ(same.agents[1].position, Vec2(3 + 1.01, 3));
}

TEST(LintAgents, OverlapIsFoundWhateverTheRadii) {
    // A big agent and a small one: found from the big one's query.
    const Scene s =
        sceneOf(R"({"position": [0, 0], "radius": 0.1}, {"position": [4, 0], "radius": 5},
                               {"position": [20, 0], "radius": 0.1})");
    const LintIssue i = one(s, "agents-overlap");
    EXPECT_EQ(i.elements, els({agent(0), agent(1)}));
}

TEST(LintAgents, DuplicatesAreDeletedNotReportedAsOverlaps) {
    Scene s = sceneOf(R"({"position": [1, 1], "goal": [5, 5]}, {"position": [8, 8]},
                        {"position": [1, 1], "goal": [5, 5]})");
    const LintIssue i = one(s, "duplicate-agents");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "agents[2]");
    EXPECT_EQ(i.elements, els({agent(0), agent(2)}));
    EXPECT_FALSE(has(s, "agents-overlap"));
    fix(s, "duplicate-agents");
    ASSERT_EQ(s.agents.size(), 2u);
    EXPECT_EQ(s.agents[1].position, Vec2(8, 8));
    // Near miss: same position, other goal = an overlap, not a copy.
    const Scene other =
        sceneOf(R"({"position": [1, 1], "goal": [5, 5]}, {"position": [1, 1], "goal": [5, 6]})");
    EXPECT_FALSE(has(other, "duplicate-agents"));
    EXPECT_TRUE(has(other, "agents-overlap"));
}

TEST(LintAgents, AgentInObstacleIsNudgedOut) {
    Scene s = sceneOf(R"({"position": [2, 1], "radius": 0.5})", kSquare);
    const LintIssue i = one(s, "agent-in-obstacle");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "agents[0].position");
    EXPECT_EQ(i.elements, els({agent(0), obstacle(0)}));
    EXPECT_NE(i.message.find("inside obstacles[0] (1.5 deep)"), std::string::npos) << i.message;
    fix(s, "agent-in-obstacle");
    // Out through the nearest edge (y = 0) to radius * 1.01 beyond it.
    EXPECT_DOUBLE_EQ(s.agents[0].position.x, 2.0);
    EXPECT_DOUBLE_EQ(s.agents[0].position.y, -0.505);

    // Outside, but the disk crosses an edge.
    Scene grazing = sceneOf(R"({"position": [4.25, 2], "radius": 0.5})", kSquare);
    EXPECT_NE(
        one(grazing, "agent-in-obstacle").message.find("overlapping obstacles[0] (0.25 deep)"),
        std::string::npos);
    fix(grazing, "agent-in-obstacle");
    EXPECT_DOUBLE_EQ(grazing.agents[0].position.x, 4.505);

    // Centred on a thin wall: out along the wall's right-hand normal.
    Scene wall =
        sceneOf(R"({"position": [1, 0], "radius": 0.5})", R"({"vertices": [[0, 0], [4, 0]]})");
    fix(wall, "agent-in-obstacle");
    EXPECT_EQ(wall.agents[0].position, Vec2(1, -0.505));

    // In a concave corner the push repeats until the agent is clear of both edges.
    Scene corner = sceneOf(R"({"position": [1.2, 1.2], "radius": 0.5})",
                           R"({"vertices": [[0, 0], [4, 0], [4, 1], [1, 1], [1, 4], [0, 4]]})");
    fix(corner, "agent-in-obstacle");

    // Near misses: just touching; and a static agent overlapping a wall is only a warning.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [2, -0.5], "radius": 0.5})", kSquare)).empty());
    EXPECT_EQ(one(sceneOf(R"({"position": [2, 1], "static": true})", kSquare), "agent-in-obstacle")
                  .severity,
              LintSeverity::Warning);
}

TEST(LintAgents, NonFiniteStaticMovingAndGoalWithPrefVelocity) {
    Scene s = sceneOf(R"({"position": [0, 0]}, {"position": [5, 0]}, {"position": [10, 0]},
                        {"position": [15, 0]})");
    s.agents[0].goal = Vec2(kNaN, 0);
    s.agents[1].isStatic = true;
    s.agents[1].goal = Vec2(5, 9);
    s.agents[2].goal = Vec2(10, 9);
    s.agents[2].prefVelocity = Vec2(1, 0);
    const std::vector<LintIssue> issues = lintScene(s);
    ASSERT_EQ(issues.size(), 3u);
    EXPECT_EQ(issues[0].rule, "agent-non-finite");
    EXPECT_EQ(issues[0].jsonPath, "agents[0].goal");
    EXPECT_EQ(issues[1].rule, "static-agent-moving");
    EXPECT_EQ(issues[1].jsonPath, "agents[1].goal");
    EXPECT_EQ(issues[2].rule, "goal-and-pref-velocity");
    EXPECT_EQ(issues[2].elements, els({agent(2), goal(2)}));
    for (const LintIssue& i : issues)
        EXPECT_EQ(i.severity, LintSeverity::Error);

    ASSERT_TRUE(applyLintFix(s, issues[2]));
    EXPECT_FALSE(s.agents[2].prefVelocity.has_value());
    EXPECT_EQ(s.agents[2].goal, Vec2(10, 9));
    ASSERT_TRUE(applyLintFix(s, issues[1]));
    EXPECT_FALSE(s.agents[1].goal.has_value());
    ASSERT_TRUE(applyLintFix(s, issues[0]));
    ASSERT_EQ(s.agents.size(), 3u);
    EXPECT_EQ(s.agents[0].position, Vec2(5, 0));
    EXPECT_TRUE(lintScene(s).empty());
}

TEST(LintAgents, CoordinatesBeyondAMillion) {
    const LintIssue i = one(sceneOf(R"({"position": [2000000, 0]})"), "coordinate-huge");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[0].position");
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [1000000, -1000000]})")).empty());
    LintOptions loose;
    loose.maxCoordinate = 5e6;
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [2000000, 0]})"), loose).empty());
    const LintIssue v =
        one(sceneOf("", R"({"vertices": [[0, 0], [3000000, 0], [0, 4]]})"), "coordinate-huge");
    EXPECT_EQ(v.jsonPath, "obstacles[0].vertices[1]");
}

// ---- Goals --------------------------------------------------------------------------------------

TEST(LintGoals, GoalInObstacleIsMovedOut) {
    Scene s = sceneOf(R"({"position": [-5, 2], "goal": [2, 1.5]})", kSquare);
    const LintIssue i = one(s, "goal-in-obstacle");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_EQ(i.elements, els({goal(0), agent(0), obstacle(0)}));
    EXPECT_EQ(i.where, Vec2(2, 1.5));
    EXPECT_EQ(i.fixLabel, "Move goal out");
    EXPECT_FALSE(has(s, "goal-unreachable-straight")); // one finding for one mistake
    fix(s, "goal-in-obstacle");
    EXPECT_DOUBLE_EQ(s.agents[0].goal->x, 2.0);
    EXPECT_DOUBLE_EQ(s.agents[0].goal->y, -1.01);
    // Near miss: close to the wall but within reach (the agent gets within goalRadius = 1).
    EXPECT_FALSE(
        has(sceneOf(R"({"position": [-5, -3], "goal": [2, -0.5]})", kSquare), "goal-in-obstacle"));
}

TEST(LintGoals, StraightPathThroughAnObstacleIsGroupedByObstacle) {
    const Scene s = sceneOf(R"({"position": [-5, 2], "goal": [10, 2]}, {"position": [-5, -3]},
                               {"position": [-5, 5], "goal": [10, 1]})",
                            kSquare);
    const LintIssue i = one(s, "goal-unreachable-straight");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_EQ(i.elements, els({obstacle(0), agent(0), goal(0), agent(2), goal(2)}));
    EXPECT_EQ(i.where, Vec2(0, 2));
    EXPECT_EQ(i.fixLabel,
              "Add waypoints round the obstacle"); // tests/scene/scene_lint_routes_test.cpp
    // Near miss: the goal stops short of the obstacle; a path past its corner.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [-5, 2], "goal": [-1.5, 2]},
                                     {"position": [-5, 6], "goal": [10, 6]})",
                                  kSquare))
                    .empty());
}

TEST(LintGoals, CrowdedSharedGoalGetsALargerGoalRadius) {
    // Four unit disks cannot all have their centres within 1 of one point (they need 1.414).
    Scene s =
        sceneOf(R"({"position": [-20, 0], "goal": [0, 0]}, {"position": [20, 0], "goal": [0, 0]},
                        {"position": [0, 20], "goal": [0, 0]},
                        {"position": [0, -20], "goal": [0, 0]})");
    const LintIssue i = one(s, "goal-crowded");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_EQ(i.elements.size(), 8u);
    EXPECT_EQ(i.fixLabel, "Raise goalRadius to 1.42");
    fix(s, "goal-crowded");
    for (const SceneAgent& a : s.agents)
        EXPECT_EQ(a.overrides.goalRadius, 1.42);
    // Near misses: two agents fit within radius 1; four fit within goalRadius 1.5.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-20, 0], "goal": [0, 0]},
                                {"position": [20, 0], "goal": [0, 0]})"),
                     "goal-crowded"));
    EXPECT_FALSE(has(
        sceneOf(R"({"position": [-20, 0], "goal": [0, 0]}, {"position": [20, 0], "goal": [0, 0]},
                                {"position": [0, 20], "goal": [0, 0]},
                                {"position": [0, -20], "goal": [0, 0]})",
                "", R"("goalRadius": 1.5)"),
        "goal-crowded"));
}

TEST(LintGoals, StartingAtTheGoalIsInfo) {
    const LintIssue i = one(sceneOf(R"({"position": [0, 0], "goal": [0.5, 0]})"), "starts-at-goal");
    EXPECT_EQ(i.severity, LintSeverity::Info);
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_EQ(i.elements, els({agent(0), goal(0)}));
    EXPECT_FALSE(has(sceneOf(R"({"position": [0, 0], "goal": [1.5, 0]})"), "starts-at-goal"));
}

// ---- Head-on ------------------------------------------------------------------------------------

/// Steps a simulator of `s` until every goal agent is at its goal (or `maxSteps`).
bool reachesGoals(const Scene& s, int maxSteps) {
    Simulator sim = buildSimulator(s);
    for (int k = 0; k < maxSteps && !sim.allAtGoal(); ++k)
        sim.step();
    return sim.allAtGoal();
}

TEST(LintHeadOn, TheBundledHeadOnPairIsFoundAndPerturbingItLetsThemPass) {
    Scene s = loadScene(fs::path(ORCA_SOURCE_DIR) / "scenes" / "head_on.json").scene;
    const LintIssue i = one(s, "head-on-symmetric");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[1].position");
    EXPECT_EQ(i.elements, els({agent(0), agent(1)}));
    EXPECT_EQ(i.where, Vec2(0, 0));
    EXPECT_EQ(i.fixLabel, "Perturb");
    EXPECT_FALSE(reachesGoals(s, 2000)); // why the rule exists: they stall face to face
    fix(s, "head-on-symmetric");
    // The later agent moves 1% of its radius to the left of its heading (-x): down.
    EXPECT_EQ(s.agents[1].position, Vec2(10, -0.01));
    EXPECT_EQ(s.agents[1].goal, Vec2(-10, -0.01));
    EXPECT_EQ(s.agents[0].position, Vec2(-10, 0));
    EXPECT_TRUE(reachesGoals(s, 2000));
}

TEST(LintHeadOn, AnyCollinearOpposedPairCountsNotJustMirrorImages) {
    // Different radii and speeds, a constant prefVelocity, a diagonal line: all stall.
    const Scene s = sceneOf(R"({"position": [-10, -10], "goal": [10, 10], "radius": 0.5},
                               {"position": [10, 10], "prefVelocity": [-0.5, -0.5],
                                "maxSpeed": 2})");
    EXPECT_EQ(one(s, "head-on-symmetric").elements, els({agent(0), agent(1)}));
    // Vertical lines (where the canonical direction flips sign) are found too.
    EXPECT_TRUE(has(
        sceneOf(
            R"({"position": [3, -10], "goal": [3, 10]}, {"position": [3, 10], "goal": [3, -10]})"),
        "head-on-symmetric"));
}

TEST(LintHeadOn, NearMisses) {
    // A tiny offset already breaks the tie.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-10, 0], "goal": [10, 0]},
                                {"position": [10, 0.000001], "goal": [-10, 0.000001]})"),
                     "head-on-symmetric"));
    // Moving apart, or stopping before they meet.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-10, 0], "goal": [-20, 0]},
                                {"position": [10, 0], "goal": [20, 0]})"),
                     "head-on-symmetric"));
    EXPECT_FALSE(has(sceneOf(R"({"position": [-10, 0], "goal": [-5, 0]},
                                {"position": [10, 0], "goal": [5, 0]})"),
                     "head-on-symmetric"));
    // A third agent near one of them breaks the symmetry.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-10, 0], "goal": [10, 0]},
                                {"position": [10, 0], "goal": [-10, 0]}, {"position": [12, 6]})"),
                     "head-on-symmetric"));
    // An initial velocity off the line breaks it too.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-10, 0], "goal": [10, 0], "velocity": [0, 0.1]},
                                {"position": [10, 0], "goal": [-10, 0]})"),
                     "head-on-symmetric"));
}

TEST(LintHeadOn, OthersWhereThePairWouldMeetBreakTheTie) {
    // Twelve agents on a circle of radius 30 walking to the opposite point: each antipodal pair
    // is head-on and nobody is within neighborDist 10 at the start (neighbours 15.5 apart), but
    // all twelve meet in the middle at the same time: no pair is isolated there.
    std::string circle;
    for (int k = 0; k < 12; ++k) {
        const double a = k * std::numbers::pi / 6.0;
        char buf[200];
        std::snprintf(buf, sizeof buf, R"(%s{"position": [%.17g, %.17g], "goal": [%.17g, %.17g]})",
                      k == 0 ? "" : ",", 30.0 * std::cos(a), 30.0 * std::sin(a),
                      -30.0 * std::cos(a), -30.0 * std::sin(a));
        circle += buf;
    }
    EXPECT_FALSE(has(sceneOf(circle), "head-on-symmetric"));
    // A pair meeting at (0, 0) at t = 9 (gap 18 at speed 1 + 1): a third agent crossing there
    // at that time breaks the tie, one that passed long before does not.
    const std::string pair = R"({"position": [-10, 0], "goal": [10, 0]},
                                {"position": [10, 0], "goal": [-10, 0]},)";
    EXPECT_FALSE(
        has(sceneOf(pair + R"({"position": [0, -15], "goal": [0, 20]})"), "head-on-symmetric"));
    EXPECT_TRUE(
        has(sceneOf(pair + R"({"position": [0, -12], "goal": [0, -30]})"), "head-on-symmetric"));
    // One standing (static, or without anywhere to go) near the meeting point counts too.
    EXPECT_FALSE(
        has(sceneOf(pair + R"({"position": [0, 8], "static": true})"), "head-on-symmetric"));
}

// ---- Parameters ---------------------------------------------------------------------------------

TEST(LintParams, NeighborDistShortIsGroupedAndRaisedWhereItComesFrom) {
    // Defaults: neighborDist 4 < maxSpeed 1 x τ 5. Agent 2 overrides maxSpeed (3 x 5 = 15).
    Scene s = sceneOf(R"({"position": [0, 0]}, {"position": [0, 10]},
                        {"position": [0, 20], "maxSpeed": 3},
                        {"position": [0, 30], "static": true})",
                      "", R"("neighborDist": 4)");
    std::vector<LintIssue> issues = withRule(lintScene(s), "neighbor-dist-short");
    ASSERT_EQ(issues.size(), 2u);
    EXPECT_EQ(issues[0].jsonPath, "agentDefaults.neighborDist");
    EXPECT_EQ(issues[0].elements, els({agent(0), agent(1)})); // not the static agent
    EXPECT_EQ(issues[0].fixLabel, "Raise neighborDist to 5");
    EXPECT_EQ(issues[1].jsonPath, "agents[2]");
    EXPECT_EQ(issues[1].elements, els({agent(2)}));
    EXPECT_EQ(issues[1].fixLabel, "Raise neighborDist to 15");
    for (const LintIssue& i : issues)
        EXPECT_EQ(i.severity, LintSeverity::Warning);

    ASSERT_TRUE(applyLintFix(s, issues[0]));
    EXPECT_EQ(s.agentDefaults.neighborDist, 5.0);
    EXPECT_FALSE(s.agents[0].overrides.neighborDist.has_value());
    ASSERT_TRUE(applyLintFix(s, issues[1]));
    EXPECT_EQ(s.agents[2].overrides.neighborDist, 15.0);
    EXPECT_FALSE(has(s, "neighbor-dist-short"));
    // Near miss: exactly maxSpeed x timeHorizon.
    EXPECT_FALSE(
        has(sceneOf(R"({"position": [0, 0]})", "", R"("neighborDist": 5)"), "neighbor-dist-short"));
}

TEST(LintParams, NeighborDistShortFixStopsAtTheLargestValueAFileAccepts) {
    // maxSpeed 1e7 x τ 5 = 5e7, beyond the file range of neighborDist (at most 1e7): the fix
    // raises to 1e7 and the fixed scene still loads (a fuzzer find: it used to write 5e7).
    Scene s = sceneOf(R"({"position": [-12, 0]}, {"position": [12, 0.4]})", "",
                      R"("maxSpeed": 1e7, "neighborDist": 2)");
    std::vector<LintIssue> issues = withRule(lintScene(s), "neighbor-dist-short");
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].fixLabel, "Raise neighborDist to 1e+07");
    EXPECT_NE(issues[0].message.find("at most 1e+07: lower maxSpeed or timeHorizon"),
              std::string::npos)
        << issues[0].message;
    ASSERT_TRUE(applyLintFix(s, issues[0]));
    EXPECT_EQ(s.agentDefaults.neighborDist, 1e7);
    const Scene again = parseScene(serializeScene(s), "fixed.json").scene;
    EXPECT_EQ(again.agentDefaults.neighborDist, 1e7);
    // At the cap the warning stays (it is still true) but has no fix, and applying it fails.
    issues = withRule(lintScene(s), "neighbor-dist-short");
    ASSERT_EQ(issues.size(), 1u);
    EXPECT_EQ(issues[0].fixLabel, "");
    std::string error;
    EXPECT_FALSE(applyLintFix(s, issues[0], &error));
    EXPECT_NE(error.find("no automatic fix"), std::string::npos) << error;

    // The same through an agent override.
    Scene o = sceneOf(R"({"position": [0, 0], "maxSpeed": 1e7, "timeHorizon": 2})", "", "");
    issues = withRule(lintScene(o), "neighbor-dist-short");
    ASSERT_EQ(issues.size(), 1u);
    ASSERT_TRUE(applyLintFix(o, issues[0]));
    EXPECT_EQ(o.agents[0].overrides.neighborDist, 1e7);
}

/// Applies the one `rule` issue of `s`: either the fix works and the scene it leaves loads
/// again, or it fails naming the file range. Returns whether it was applied.
bool fixStaysLoadable(Scene& s, const std::string& rule) {
    const LintIssue issue = one(s, rule);
    std::string error;
    if (!applyLintFix(s, issue, &error)) {
        EXPECT_NE(error.find("beyond -1e7..1e7"), std::string::npos) << rule << ": " << error;
        return false;
    }
    EXPECT_NO_THROW((void)parseScene(serializeScene(s), "fixed.json")) << rule;
    return true;
}

TEST(LintFixes, NoFixWritesAValueTheLoaderRefuses) {
    // Overlap at the edge of the coordinate range: nudging apart would leave it.
    Scene edge = sceneOf(R"({"position": [9999999.5, 0]}, {"position": [10000000, 0]})");
    EXPECT_FALSE(fixStaysLoadable(edge, "agents-overlap"));
    EXPECT_EQ(edge.agents[1].position, Vec2(1e7, 0)); // untouched
    // Head-on along the top and the bottom edge: the sideways shift leaves the range on one.
    int refused = 0;
    for (const char* y : {"1e7", "-1e7"}) {
        const std::string a = std::string(R"({"position": [-5, )") + y + R"(], "goal": [5, )" + y +
                              "]}, " + R"({"position": [5, )" + y + R"(], "goal": [-5, )" + y +
                              "]}";
        Scene headOn = sceneOf(a);
        refused += fixStaysLoadable(headOn, "head-on-symmetric") ? 0 : 1;
    }
    EXPECT_EQ(refused, 1);
    // Three agents of radius 9e6 sharing a goal need a goalRadius beyond what a file holds:
    // the fix stops at 1e7.
    Scene big = sceneOf(R"({"position": [-9000000, 0], "goal": [0, 0]},
                           {"position": [0, 9000000], "goal": [0, 0]},
                           {"position": [9000000, 0], "goal": [0, 0]})",
                        "", R"("radius": 1e6)");
    for (SceneAgent& a : big.agents)
        a.overrides.radius = 9e6;
    const LintIssue crowded = one(big, "goal-crowded");
    EXPECT_EQ(crowded.fixLabel, "Raise goalRadius to 1e+07") << crowded.message;
    EXPECT_NE(crowded.message.find("more than a scene's goalRadius can be"), std::string::npos)
        << crowded.message;
    EXPECT_TRUE(fixStaysLoadable(big, "goal-crowded"));
    EXPECT_EQ(big.agents[0].overrides.goalRadius, 1e7);
}

TEST(LintParams, OneIssueForTenThousandAgentsSharingTheDefaults) {
    const Scene s = uniformWorkload(10000);
    const std::vector<LintIssue> issues = lintScene(s);
    ASSERT_EQ(issues.size(), 1u); // neighborDist 15 < 2 x 10 (RVO2 Circle's defaults)
    EXPECT_EQ(issues[0].rule, "neighbor-dist-short");
    EXPECT_EQ(issues[0].elements.size(), 10000u);
    EXPECT_NE(issues[0].message.find("all 10000 agents using agentDefaults"), std::string::npos);
}

TEST(LintParams, MaxNeighborsLowCountsTheCrowdAtTheStart) {
    // Range min(neighborDist 10, maxSpeed 1 x τ 5 + 2 radii) = 7: each of the four sees 3.
    Scene s = sceneOf(R"({"position": [0, 0]}, {"position": [3, 0]}, {"position": [0, 3]},
                        {"position": [3, 3], "static": true}, {"position": [30, 0]})",
                      "", R"("maxNeighbors": 2)");
    const LintIssue i = one(s, "max-neighbors-low");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agentDefaults.maxNeighbors");
    EXPECT_EQ(i.elements, els({agent(0), agent(1), agent(2)}));
    EXPECT_EQ(i.fixLabel, "Raise maxNeighbors to 3");
    fix(s, "max-neighbors-low");
    EXPECT_EQ(s.agentDefaults.maxNeighbors, 3);
    // Near miss: 7.5 apart is out of range.
    EXPECT_FALSE(
        has(sceneOf(R"({"position": [0, 0]}, {"position": [7.5, 0]})", "", R"("maxNeighbors": 0)"),
            "max-neighbors-low"));
    // An override group is raised on its agents.
    Scene o = sceneOf(
        R"({"position": [0, 0], "maxNeighbors": 1}, {"position": [3, 0]}, {"position": [0, 3]})");
    const LintIssue oi = one(o, "max-neighbors-low");
    EXPECT_EQ(oi.jsonPath, "agents[0].maxNeighbors");
    fix(o, "max-neighbors-low");
    EXPECT_EQ(o.agents[0].overrides.maxNeighbors, 2);
}

TEST(LintParams, TimeStepLongerThanTheHorizon) {
    const Scene s = sceneOf(R"({"position": [0, 0], "timeHorizon": 0.2}, {"position": [0, 10]})",
                            "", R"("timeHorizonObst": 0.1)", R"("responsibility": 0.5)");
    const std::vector<LintIssue> issues = withRule(lintScene(s), "time-step-vs-horizon");
    ASSERT_EQ(issues.size(), 2u);
    EXPECT_EQ(issues[0].jsonPath, "agents[0].timeHorizon");
    EXPECT_EQ(issues[0].elements, els({agent(0), {Kind::Simulation, 0, 0}}));
    EXPECT_EQ(issues[1].jsonPath, "agentDefaults.timeHorizonObst");
    EXPECT_EQ(issues[1].elements, els({agent(1), {Kind::Simulation, 0, 0}}));
    EXPECT_TRUE(issues[0].fixLabel.empty());
    // Near miss: equal to the step.
    EXPECT_FALSE(has(sceneOf(R"({"position": [0, 0]})", "", R"("timeHorizon": 0.25)"),
                     "time-step-vs-horizon"));
}

TEST(LintParams, InvalidValuesAreResetAndAbsurdOnesReported) {
    Scene s = sceneOf(R"({"position": [0, 0], "goal": [5, 0]}, {"position": [0, 10]})");
    s.simulation.params.timeStep = 0.0;
    s.agentDefaults.radius = -1.0;
    s.agents[1].overrides.timeHorizon = kNaN;
    const std::vector<LintIssue> issues = lintScene(s);
    ASSERT_EQ(issues.size(), 3u);
    EXPECT_EQ(issues[0].rule, "simulation-invalid");
    EXPECT_EQ(issues[0].jsonPath, "simulation.timeStep");
    EXPECT_EQ(issues[0].fixLabel, "Reset to default (0.25)");
    EXPECT_EQ(issues[1].rule, "param-invalid");
    EXPECT_EQ(issues[1].jsonPath, "agentDefaults.radius");
    EXPECT_EQ(issues[1].fixLabel, "Reset to default (1.5)");
    EXPECT_EQ(issues[2].jsonPath, "agents[1].timeHorizon");
    EXPECT_EQ(issues[2].fixLabel, "Use agentDefaults");
    for (const LintIssue& i : issues)
        ASSERT_TRUE(applyLintFix(s, i)) << i.rule;
    EXPECT_EQ(s.simulation.params.timeStep, 0.25);
    EXPECT_EQ(s.agentDefaults.radius, 1.5);
    EXPECT_FALSE(s.agents[1].overrides.timeHorizon.has_value());
    EXPECT_TRUE(lintScene(s).empty());
    EXPECT_NO_THROW((void)buildSimulator(s));
}

TEST(LintParams, AbsurdSpeedsAndRadii) {
    const Scene s = sceneOf(R"({"position": [0, 0], "goal": [50, 0], "maxSpeed": 0},
                               {"position": [0, 100], "goal": [50, 100], "prefSpeed": 0},
                               {"position": [0, 200], "goal": [50, 200], "prefSpeed": 3},
                               {"position": [0, 300], "prefVelocity": [4, 0]},
                               {"position": [0, 400000], "radius": 20000},
                               {"position": [0, 500], "maxSpeed": 0})");
    const std::vector<LintIssue> issues = lintScene(s);
    std::vector<std::pair<std::string, std::string>> found;
    for (const LintIssue& i : issues)
        found.emplace_back(i.rule, i.jsonPath);
    EXPECT_EQ(found, (std::vector<std::pair<std::string, std::string>>{
                         {"max-speed-zero", "agents[0].maxSpeed"},
                         {"pref-speed-zero", "agents[1].prefSpeed"},
                         {"radius-huge", "agents[4].radius"},
                         {"pref-speed-above-max", "agents[2].prefSpeed"},
                         {"pref-speed-above-max", "agents[3].prefVelocity"}}));
    EXPECT_EQ(issues[2].severity, LintSeverity::Warning);
    EXPECT_EQ(issues[3].severity, LintSeverity::Info);
}

TEST(LintAgentsOverlap, APileUpIsListedUpToACapAndCountedInOneFinding) {
    Scene s;
    for (int i = 0; i < 1000; ++i) {
        SceneAgent a;
        a.position = {0.0, 0.0};
        a.goal = Vec2{static_cast<double>(i), 50.0}; // distinct goals: not duplicates
        s.agents.push_back(a);
    }
    std::vector<LintIssue> overlaps;
    for (LintIssue& i : lintScene(s))
        if (i.rule == "agents-overlap") overlaps.push_back(std::move(i));
    ASSERT_EQ(overlaps.size(), 201u);
    std::size_t summaries = 0;
    for (const LintIssue& i : overlaps) {
        if (i.jsonPath != "agents") continue;
        ++summaries;
        EXPECT_NE(i.message.find("499500 pairs of agents overlap"), std::string::npos) << i.message;
        EXPECT_TRUE(i.fixLabel.empty());
    }
    EXPECT_EQ(summaries, 1u);
    // The pairs listed are the first by index: agents[0] with agents[1..200].
    std::size_t withFirst = 0;
    for (const LintIssue& i : overlaps)
        if (i.jsonPath != "agents" && i.elements.front().index == 0) ++withFirst;
    EXPECT_EQ(withFirst, 200u);
}

// ---- Bundled scenes -----------------------------------------------------------------------------

TEST(LintBundledScenes, NoErrorsAndExactlyTheKnownFindings) {
    // Each finding here is deliberate (see docs/lint.md): Circle keeps RVO2's parameters,
    // Blocks and the concave cup route agents round obstacles ORCA cannot plan for, and
    // head_on.json exists to show the symmetric stall.
    const std::map<std::string, std::vector<std::pair<std::string, std::string>>> expected = {
        // Each scene with a blocked straight leg also gets the suggestion of roadmap routing.
        {"blocks.json",
         {{"goal-unreachable-straight", "agents[1].goal"},
          {"goal-unreachable-straight", "agents[0].goal"},
          {"goal-unreachable-straight", "agents[2].goal"},
          {"goal-unreachable-straight", "agents[3].goal"},
          {"routing-roadmap-suggested", "simulation.routing"}}},
        {"circle.json", {{"neighbor-dist-short", "agentDefaults.neighborDist"}}},
        {"concave_obstacle.json",
         {{"goal-unreachable-straight", "agents[4].goal"},
          {"routing-roadmap-suggested", "simulation.routing"}}},
        // The diagnosis scenes (docs/diagnosis.md) show these hazards on purpose.
        {"diag_obstacle_trap.json",
         {{"goal-unreachable-straight", "agents[0].goal"},
          {"routing-roadmap-suggested", "simulation.routing"}}},
        {"diag_short_horizon.json", {{"neighbor-dist-short", "agentDefaults.neighborDist"}}},
        {"head_on.json", {{"head-on-symmetric", "agents[1].position"}}},
    };
    std::size_t files = 0;
    for (const auto& e : fs::directory_iterator(fs::path(ORCA_SOURCE_DIR) / "scenes")) {
        if (e.path().extension() != ".json") continue;
        ++files;
        const std::string name = e.path().filename().string();
        SCOPED_TRACE(name);
        const Scene s = loadScene(e.path(), LoadOptions{.repairWinding = false}).scene;
        std::vector<std::pair<std::string, std::string>> found;
        for (const LintIssue& i : lintScene(s)) {
            std::printf("%s: %s: at %s: %s [%s]\n", name.c_str(), severityName(i.severity),
                        i.jsonPath.c_str(), i.message.c_str(), i.rule.c_str());
            EXPECT_NE(i.severity, LintSeverity::Error);
            found.emplace_back(i.rule, i.jsonPath);
        }
        const auto it = expected.find(name);
        EXPECT_EQ(found, it == expected.end() ? decltype(found){} : it->second);
    }
    EXPECT_GE(files, 9u);
}

// ---- Speed --------------------------------------------------------------------------------------

using orca::test::kSanitized;

TEST(LintSpeed, TenThousandAgentsLintInMilliseconds) {
    // Uniform crowd, the Circle ring, and a dense crowd where every agent overlaps several.
    Scene dense = uniformWorkload(10000);
    for (SceneAgent& a : dense.agents)
        a.position *= 0.25;
    const std::pair<const char*, Scene> scenes[] = {
        {"uniform", uniformWorkload(10000)}, {"circle", circleWorkload(10000)}, {"dense", dense}};
    for (const auto& [name, s] : scenes) {
        double best = 1e9;
        std::size_t count = 0;
        for (int run = 0; run < 3; ++run) {
            const auto t0 = std::chrono::steady_clock::now();
            count = lintScene(s).size();
            const auto t1 = std::chrono::steady_clock::now();
            best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::printf("lint %s, 10000 agents: %.2f ms, %zu issues\n", name, best, count);
        // Far above the measured time (a quadratic pass would take seconds), so that a loaded
        // machine does not fail it.
        if (!kSanitized && std::string(name) != "dense") {
            EXPECT_LT(best, 150.0) << name;
        }
    }
}

// ---- Random scenes ------------------------------------------------------------------------------

bool finiteScene(const Scene& s) {
    auto ok = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    for (const SceneAgent& a : s.agents) {
        if (!ok(a.position) || (a.goal && !ok(*a.goal)) || (a.velocity && !ok(*a.velocity)) ||
            (a.prefVelocity && !ok(*a.prefVelocity)))
            return false;
        const AgentParams p = s.resolvedParams(a);
        if (!std::isfinite(p.radius) || !std::isfinite(p.neighborDist) ||
            !std::isfinite(p.goalRadius) || !std::isfinite(p.maxSpeed))
            return false;
    }
    for (const SceneObstacle& o : s.obstacles)
        for (const Vec2& v : o.vertices)
            if (!ok(v)) return false;
    return std::isfinite(s.simulation.params.timeStep);
}

Scene randomScene(std::mt19937& rng, bool allowNaN) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    auto coord = [&](double extent) {
        // Snap some values to a coarse grid so that coincidences (duplicates, collinear and
        // head-on configurations, repeated vertices) actually happen.
        const double v = (u(rng) * 2.0 - 1.0) * extent;
        return u(rng) < 0.5 ? std::round(v) : v;
    };
    auto maybeNaN = [&](double v) { return allowNaN && u(rng) < 0.05 ? kNaN : v; };
    Scene s;
    s.simulation.params.timeStep = u(rng) < 0.05 ? 0.0 : 0.05 + u(rng);
    s.agentDefaults.radius = 0.2 + u(rng) * 2.0;
    s.agentDefaults.neighborDist = u(rng) * 20.0;
    s.agentDefaults.maxNeighbors = static_cast<int>(u(rng) * 12);
    s.agentDefaults.timeHorizon = 0.1 + u(rng) * 8.0;
    s.agentDefaults.maxSpeed = u(rng) < 0.1 ? 0.0 : u(rng) * 3.0;
    const int agents = static_cast<int>(u(rng) * 40);
    for (int k = 0; k < agents; ++k) {
        SceneAgent a;
        a.position = {maybeNaN(coord(15)), coord(15)};
        const double r = u(rng);
        if (r < 0.1) {
            a.isStatic = true;
        } else if (r < 0.7) {
            a.goal = Vec2{coord(15), maybeNaN(coord(15))};
        } else if (r < 0.85) {
            a.prefVelocity = Vec2{coord(2), coord(2)};
        }
        if (u(rng) < 0.2) a.velocity = Vec2{coord(1), coord(1)};
        if (u(rng) < 0.03) a.prefVelocity = Vec2{1, 0}; // with a goal: an error
        if (u(rng) < 0.2) a.overrides.radius = u(rng) < 0.1 ? -1.0 : 0.1 + u(rng) * 3.0;
        if (u(rng) < 0.1) a.overrides.maxNeighbors = static_cast<int>(u(rng) * 4);
        if (u(rng) < 0.1) a.overrides.goalRadius = u(rng) * 3.0;
        if (u(rng) < 0.05 && !s.agents.empty()) a = s.agents.back(); // a pasted copy
        s.agents.push_back(a);
    }
    if (u(rng) < 0.15) {
        // An isolated head-on pair far from the rest (same line, opposite goals).
        const Vec2 base{1000.0 + coord(100), coord(100)};
        const Vec2 dir = u(rng) < 0.5 ? Vec2{1, 0} : Vec2{0.6, 0.8};
        SceneAgent a;
        a.position = base - 10.0 * dir;
        a.goal = base + 10.0 * dir;
        SceneAgent b;
        b.position = base + 10.0 * dir;
        b.goal = base - 10.0 * dir;
        s.agents.push_back(a);
        s.agents.push_back(b);
    }
    if (u(rng) < 0.1 && !s.agents.empty()) s.agents.back().overrides.prefSpeed = 0.0;
    if (u(rng) < 0.05 && !s.agents.empty()) s.agents.front().position.x = 2e6;
    if (u(rng) < 0.05 && !s.agents.empty()) s.agents.front().overrides.radius = 5e4;
    if (u(rng) < 0.1) {
        // Collinear, or with a tiny edge.
        const Vec2 c{coord(12), coord(12)};
        if (u(rng) < 0.5) {
            s.obstacles.push_back({std::nullopt, {c, c + Vec2{1, 1}, c + Vec2{3, 3}}});
        } else {
            s.obstacles.push_back(
                {std::nullopt, {c, c + Vec2{2, 0}, c + Vec2{2, 1e-7}, c + Vec2{0, 2}}});
        }
    }
    const int obstacles = static_cast<int>(u(rng) * 6);
    for (int k = 0; k < obstacles; ++k) {
        SceneObstacle o;
        const int n = static_cast<int>(u(rng) * 7);
        const Vec2 c{coord(12), coord(12)};
        for (int v = 0; v < n; ++v) {
            // Mostly star-shaped around c (valid, either winding), sometimes scrambled.
            const double angle = (u(rng) < 0.8 ? v : u(rng) * 7.0) * 0.9;
            const double len = 1.0 + u(rng) * 4.0;
            o.vertices.push_back(c + len * Vec2{std::cos(angle), std::sin(angle)});
            if (u(rng) < 0.05) o.vertices.push_back(o.vertices.back());
        }
        if (u(rng) < 0.3) std::reverse(o.vertices.begin(), o.vertices.end());
        if (!o.vertices.empty() && u(rng) < 0.2) o.vertices[0].x = maybeNaN(o.vertices[0].x);
        s.obstacles.push_back(o);
    }
    return s;
}

TEST(LintRandom, NeverThrowsAndFixesNeverMakeNaN) {
    std::mt19937 rng(20240607);
    std::size_t fixed = 0;
    std::map<std::string, std::size_t> byRule;
    std::size_t issues = 0;
    for (int round = 0; round < 400; ++round) {
        const bool allowNaN = round % 4 == 3;
        const Scene s = randomScene(rng, allowNaN);
        std::vector<LintIssue> found;
        ASSERT_NO_THROW(found = lintScene(s)) << "round " << round;
        issues += found.size();
        for (const LintIssue& i : found)
            ++byRule[i.rule];
        for (const LintIssue& issue : found) {
            EXPECT_FALSE(issue.rule.empty());
            EXPECT_FALSE(issue.message.empty());
            EXPECT_TRUE(std::isfinite(issue.where.x) && std::isfinite(issue.where.y));
            Scene copy = s;
            bool applied = false;
            ASSERT_NO_THROW(applied = applyLintFix(copy, issue)) << issue.rule;
            if (!applied) continue;
            ++fixed;
            if (!allowNaN) {
                EXPECT_TRUE(finiteScene(copy)) << issue.rule << " made a NaN";
            }
            std::vector<LintIssue> after;
            ASSERT_NO_THROW(after = lintScene(copy)) << issue.rule;
            // Fixes that neither delete nor renumber anything make their issue disappear.
            static const std::set<std::string> inPlace = {
                "agents-overlap",         "agent-in-obstacle",
                "goal-in-obstacle",       "head-on-symmetric",
                "obstacle-clockwise",     "neighbor-dist-short",
                "max-neighbors-low",      "goal-crowded",
                "simulation-invalid",     "param-invalid",
                "obstacle-collinear",     "static-agent-moving",
                "goal-and-pref-velocity", "routing-roadmap-suggested"};
            if (inPlace.count(issue.rule) != 0) {
                for (const LintIssue& a : after) {
                    EXPECT_FALSE(a.rule == issue.rule && a.elements == issue.elements &&
                                 a.jsonPath == issue.jsonPath)
                        << issue.rule << " at " << issue.jsonPath << " survived its fix (round "
                        << round << ")";
                }
            }
        }
    }
    std::printf("random scenes: %zu issues, %zu fixes applied\n", issues, fixed);
    for (const auto& [rule, n] : byRule)
        std::printf("  %s: %zu\n", rule.c_str(), n);
    EXPECT_GT(fixed, 100u); // the generator really exercises the fixes
}

} // namespace
} // namespace orca::scene
