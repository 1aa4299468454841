// Branch runs (compare.hpp): parameter assignments by name, all-or-nothing changes, a branch
// that follows the original in lockstep and seeks with it, and the metrics side by side.
#include <gtest/gtest.h>

#include "orca/scene/compare.hpp"
#include "orca/scene/scene.hpp"

namespace orca {
namespace {

scene::Scene bundled(const char* name) {
    return scene::loadScene(std::string(ORCA_SOURCE_DIR) + "/scenes/" + name).scene;
}

TEST(BranchChange, ParsesAgentAndSimulationParameters) {
    const SimulationParams base;
    BranchChange c;
    std::string error;
    EXPECT_TRUE(c.empty());
    EXPECT_TRUE(c.set("tau=5", base, error)) << error;
    EXPECT_EQ(c.agentOverrides.timeHorizon, 5.0);
    EXPECT_TRUE(c.set("maxNeighbors=3", base, error)) << error;
    EXPECT_EQ(c.agentOverrides.maxNeighbors, 3);
    EXPECT_TRUE(c.set("responsibility=1", base, error)) << error;
    ASSERT_TRUE(c.simulation);
    EXPECT_EQ(c.simulation->responsibility, 1.0);
    EXPECT_EQ(c.simulation->timeStep, base.timeStep);
    EXPECT_FALSE(c.empty());
    c.agents = {2, 4};
    EXPECT_EQ(c.describe(base), "maxNeighbors=3, timeHorizon=5, responsibility=1 on agents 2, 4");

    EXPECT_FALSE(c.set("maxNeighbors=2.5", base, error));
    EXPECT_EQ(error, "maxNeighbors must be an integer");
    EXPECT_FALSE(c.set("speed=2", base, error));
    EXPECT_NE(error.find("unknown parameter \"speed\""), std::string::npos);
    EXPECT_FALSE(c.set("radius=abc", base, error));
    EXPECT_FALSE(c.set("radius", base, error));
    EXPECT_FALSE(c.set("radius=inf", base, error));
    EXPECT_EQ(c.agentOverrides.maxNeighbors, 3); // failed assignments change nothing
}

TEST(BranchChange, ApplyIsAllOrNothing) {
    Simulator sim = scene::buildSimulator(bundled("crossing.json"));
    const std::uint64_t before = sim.stateHash();
    BranchChange c;
    std::string error;
    ASSERT_TRUE(c.set("tau=2", sim.params(), error));
    // A value the simulator rejects (set() refuses it already; here it is put in directly).
    c.agentOverrides.radius = -1.0;
    EXPECT_THROW(applyChange(sim, c), InvalidArgument);
    EXPECT_EQ(sim.agentParams(sim.agentIdAt(0)).timeHorizon,
              bundled("crossing.json").agentDefaults.timeHorizon);
    EXPECT_EQ(sim.stateHash(), before);

    BranchChange out;
    out.agents = {sim.agentCount()};
    ASSERT_TRUE(out.set("tau=2", sim.params(), error));
    EXPECT_THROW(applyChange(sim, out), InvalidArgument);

    BranchChange one;
    one.agents = {1};
    ASSERT_TRUE(one.set("tau=2", sim.params(), error));
    applyChange(sim, one);
    EXPECT_EQ(sim.agentParams(sim.agentIdAt(1)).timeHorizon, 2.0);
    EXPECT_NE(sim.agentParams(sim.agentIdAt(0)).timeHorizon, 2.0);
}

TEST(Comparison, AnEmptyChangeFollowsTheOriginalBitForBit) {
    Simulator base = scene::buildSimulator(bundled("dense_convergence.json"));
    for (int s = 0; s < 20; ++s)
        base.step();
    Comparison cmp;
    cmp.start(base, BranchChange{});
    EXPECT_EQ(cmp.fromStep(), 20u);
    for (int s = 0; s < 60; ++s) {
        base.step();
        cmp.follow(base.stepCount());
        ASSERT_EQ(cmp.branch().stateHash(), base.stateHash()) << "step " << base.stepCount();
    }
    // Seeking back follows too; before the split it clamps to the split.
    cmp.follow(45);
    EXPECT_EQ(cmp.branch().stepCount(), 45u);
    cmp.follow(3);
    EXPECT_EQ(cmp.branch().stepCount(), 20u);
    cmp.follow(80);
    EXPECT_EQ(cmp.branch().stateHash(), base.stateHash());
}

TEST(Comparison, AShorterHorizonChangesTheRunAndTheMetricsShowIt) {
    const scene::Scene sc = bundled("dense_convergence.json");
    Simulator base = scene::buildSimulator(sc);
    History baseHistory;
    baseHistory.start(base);
    Comparison cmp;
    BranchChange c;
    std::string error;
    ASSERT_TRUE(c.set("tau=0.5", base.params(), error));
    cmp.start(base, c);
    EXPECT_EQ(cmp.branch().agentParams(cmp.branch().agentIdAt(0)).timeHorizon, 0.5);
    for (int s = 0; s < 150; ++s) {
        base.step();
        baseHistory.record(base);
        cmp.follow(base.stepCount());
    }
    EXPECT_NE(cmp.branch().stateHash(), base.stateHash());
    const RunMetrics a = measureRun(base, baseHistory.events());
    const RunMetrics b = cmp.metrics();
    EXPECT_EQ(a.step, 150u);
    EXPECT_EQ(b.step, 150u);
    EXPECT_EQ(a.goalAgents, b.goalAgents);
    // τ = 0.5 s leaves agents almost no time to avoid each other: they touch, and deeper.
    const auto overlaps = static_cast<std::size_t>(EventKind::OverlapBegin);
    EXPECT_GT(b.eventCounts[overlaps], a.eventCounts[overlaps]);
    EXPECT_LT(b.minAgentClearance, a.minAgentClearance);
    // The original is untouched by the branch.
    EXPECT_EQ(base.agentParams(base.agentIdAt(0)).timeHorizon, sc.agentDefaults.timeHorizon);
}

} // namespace
} // namespace orca
