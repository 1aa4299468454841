// The real-scene benchmark set (workloads.hpp): the documented sizes, deterministic, and clean
// starts (the linter finds no error: no overlapping agents, none inside an obstacle).
#include <string>
#include <utility>

#include <gtest/gtest.h>

#include "orca/scene/lint.hpp"
#include "orca/scene/workloads.hpp"

namespace orca::scene {
namespace {

TEST(RealScenes, SizesAreTheDocumentedOnes) {
    const std::pair<const char*, std::pair<std::size_t, std::size_t>> sizes[] = {
        {"hallway50", {50, 2}},      {"concentric250", {250, 0}},   {"office400", {400, 20}},
        {"forest500", {500, 700}},   {"bottleneck1000", {1000, 2}}, {"gathering2000", {2000, 0}},
        {"space5000", {5000, 5004}},
    };
    ASSERT_EQ(realSceneNames().size(), std::size(sizes));
    for (const auto& [name, n] : sizes) {
        SCOPED_TRACE(name);
        const Scene s = realSceneWorkload(name);
        EXPECT_EQ(s.agents.size(), n.first);
        EXPECT_EQ(s.obstacles.size(), n.second);
        EXPECT_EQ(s.simulation.params.timeStep, 0.05);
        EXPECT_EQ(s.agentDefaults.radius, 0.5);
        EXPECT_EQ(s.agentDefaults.maxNeighbors, 10);
        EXPECT_EQ(s.agentDefaults.timeHorizon, 2.0);
    }
    EXPECT_THROW((void)realSceneWorkload("forest"), std::invalid_argument);
}

TEST(RealScenes, AreDeterministicAndStartClean) {
    for (const std::string& name : realSceneNames()) {
        SCOPED_TRACE(name);
        const Scene a = realSceneWorkload(name);
        EXPECT_EQ(serializeScene(a), serializeScene(realSceneWorkload(name)));
        // The simulator's clearances (a grid: fast on the big ones) say no overlap, no agent in
        // an obstacle; the linter (slower: roadmap legs) checks the small ones too.
        const ClearanceStats c = buildSimulator(a).clearance();
        EXPECT_GE(c.minAgentClearance, 0.0);
        EXPECT_GE(c.minObstacleClearance, 0.0);
        if (a.agents.size() > 500) continue;
        for (const LintIssue& issue : lintScene(a))
            EXPECT_NE(issue.severity, LintSeverity::Error) << issue.rule << ": " << issue.message;
    }
}

} // namespace
} // namespace orca::scene
