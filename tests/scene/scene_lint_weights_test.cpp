// The linter's avoidance-weight rules (lint_weights.cpp): weights-zero-pair fires for two
// weight-0 agents whose walks meet and only then; weights-without-effect fires when every moving
// agent has one weight other than 1, and its fix removes the weights without changing the run.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/lint.hpp"
#include "orca/simulator.hpp"

namespace orca::scene {
namespace {

/// Agent defaults that trigger nothing else (as scene_lint_routes_test.cpp's sceneOf), plus
/// `defaults` merged into agentDefaults.
Scene sceneOf(const std::string& agents, const std::string& defaults = "") {
    nlohmann::json j = nlohmann::json::parse(R"({"format": "orca-scene", "version": 1,
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 1, "maxSpeed": 1, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5}})");
    j["agentDefaults"].update(nlohmann::json::parse("{" + defaults + "}"));
    j["agents"] = nlohmann::json::parse("[" + agents + "]");
    return parseScene(j.dump(), "lint.json").scene;
}

std::vector<LintIssue> withRule(const Scene& s, const std::string& rule) {
    std::vector<LintIssue> out;
    for (const LintIssue& i : lintScene(s))
        if (i.rule == rule) out.push_back(i);
    return out;
}

TEST(LintWeights, ZeroPairWhoseWalksMeet) {
    // Two weight-0 agents crossing at right angles: they reach (5, 0) together.
    const std::string crossing =
        R"({"position": [0, 0], "goal": [10, 0], "avoidanceWeight": 0},
           {"position": [5, -5], "goal": [5, 5], "avoidanceWeight": 0})";
    const std::vector<LintIssue> found = withRule(sceneOf(crossing), "weights-zero-pair");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, LintSeverity::Warning);
    EXPECT_EQ(found[0].jsonPath, "agents[1].avoidanceWeight");
    EXPECT_NE(found[0].message.find("agents[0] and agents[1] both have avoidanceWeight 0"),
              std::string::npos)
        << found[0].message;
    EXPECT_TRUE(found[0].fixLabel.empty());
    ASSERT_EQ(found[0].elements.size(), 2u);
    // One of them with weight 1: the weights decide who yields, no finding.
    EXPECT_TRUE(withRule(sceneOf(R"({"position": [0, 0], "goal": [10, 0], "avoidanceWeight": 0},
                                    {"position": [5, -5], "goal": [5, 5]})"),
                         "weights-zero-pair")
                    .empty());
    // The second starts late enough to pass behind: at t = 5 the first is at (5, 0), the
    // second at (5, -8) -- closest approach above 2 radii.
    EXPECT_TRUE(withRule(sceneOf(R"({"position": [0, 0], "goal": [10, 0], "avoidanceWeight": 0},
                                    {"position": [5, -13], "goal": [5, -9], "avoidanceWeight": 0})"),
                         "weights-zero-pair")
                    .empty());
    // A walker passing by one that has arrived and stands at its goal (5, 0.5): the second
    // phase of the walks (one standing) meets.
    EXPECT_EQ(withRule(sceneOf(R"({"position": [5, -1], "goal": [5, 0.5], "avoidanceWeight": 0},
                                  {"position": [-20, 0], "goal": [20, 0], "avoidanceWeight": 0})"),
                       "weights-zero-pair")
                  .size(),
              1u);
    // Constant preferred velocities meet too; a static weight-0 agent is never a walker.
    EXPECT_EQ(
        withRule(sceneOf(R"({"position": [0, 0], "prefVelocity": [1, 0], "avoidanceWeight": 0},
                                  {"position": [10, 0], "prefVelocity": [-1, 0], "avoidanceWeight": 0})"),
                 "weights-zero-pair")
            .size(),
        1u);
    EXPECT_TRUE(withRule(sceneOf(R"({"position": [0, 0], "goal": [10, 0], "avoidanceWeight": 0},
                                    {"position": [5, 0], "static": true, "avoidanceWeight": 0})"),
                         "weights-zero-pair")
                    .empty());
}

TEST(LintWeights, SameWeightEverywhereHasNoEffect) {
    const std::string agents = R"({"position": [0, 0], "goal": [10, 0]},
                                  {"position": [10, 0.5], "goal": [0, 0.5]},
                                  {"position": [0, 20], "goal": [10, 20], "avoidanceWeight": 2})";
    Scene s = sceneOf(agents, R"("avoidanceWeight": 2)");
    std::vector<LintIssue> found = withRule(s, "weights-without-effect");
    ASSERT_EQ(found.size(), 1u);
    EXPECT_EQ(found[0].severity, LintSeverity::Info);
    EXPECT_EQ(found[0].jsonPath, "agentDefaults.avoidanceWeight");
    EXPECT_EQ(found[0].fixLabel, "Remove the weights");
    // The fix removes them; the run is bit for bit the same (equal weights = responsibility).
    Simulator before = buildSimulator(s);
    std::string error;
    Scene fixed = s;
    ASSERT_TRUE(applyLintFix(fixed, found[0], &error)) << error;
    EXPECT_EQ(fixed.agentDefaults.avoidanceWeight, 1.0);
    EXPECT_FALSE(fixed.agents[2].overrides.avoidanceWeight.has_value());
    EXPECT_TRUE(withRule(fixed, "weights-without-effect").empty());
    EXPECT_FALSE(applyLintFix(fixed, found[0], &error));
    EXPECT_FALSE(error.empty());
    Simulator after = buildSimulator(fixed);
    for (int k = 0; k < 40; ++k) {
        before.step();
        after.step();
    }
    for (std::size_t i = 0; i < 3; ++i)
        EXPECT_EQ(before.positions()[i], after.positions()[i]) << i;
    // Different weights, or the default everywhere: silent.
    EXPECT_TRUE(withRule(sceneOf(agents), "weights-without-effect").empty());
    EXPECT_TRUE(
        withRule(sceneOf(agents, R"("avoidanceWeight": 3)"), "weights-without-effect").empty());
}

} // namespace
} // namespace orca::scene
