// The detour flow field on the bundled detour scenes (issue 4): with the field off the moving
// agents stall in front of the static agents; with it on every one of them arrives, without
// overlapping anything. Plus determinism with detour state (threads, save/resume).
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

scene::Scene loadBundled(const std::string& name) {
    return scene::loadScene(std::string(ORCA_SOURCE_DIR) + "/scenes/" + name).scene;
}

struct Outcome {
    std::size_t atGoal = 0;
    std::size_t goalAgents = 0;
    std::uint64_t steps = 0;
    double minClearance = std::numeric_limits<double>::infinity();
    double minObstacleClearance = std::numeric_limits<double>::infinity();
    std::uint64_t detourAgentSteps = 0;
};

Outcome run(scene::Scene sc, bool detour, std::uint64_t maxSteps) {
    sc.simulation.params.detour.enabled = detour;
    Simulator sim = scene::buildSimulator(sc);
    Outcome o;
    o.goalAgents = sim.goalAgentCount();
    while (o.steps < maxSteps && !sim.allAtGoal()) {
        sim.step();
        ++o.steps;
        o.detourAgentSteps += sim.lastStepStats().detouringAgents;
        const ClearanceStats c = sim.clearance();
        o.minClearance = std::min(o.minClearance, c.minAgentClearance);
        o.minObstacleClearance = std::min(o.minObstacleClearance, c.minObstacleClearance);
    }
    o.atGoal = sim.atGoalCount();
    return o;
}

struct Case {
    const char* scene;
    std::size_t minStalled; ///< moving agents that must stall without the field
};

class DetourScenes : public ::testing::TestWithParam<Case> {};

TEST_P(DetourScenes, StallWithoutTheFieldArriveWithIt) {
    const Case c = GetParam();
    const scene::Scene sc = loadBundled(c.scene);
    ASSERT_TRUE(sc.simulation.params.detour.enabled) << "the bundled scene shows the feature";

    const Outcome off = run(sc, false, 3000);
    EXPECT_LT(off.atGoal, off.goalAgents);
    EXPECT_GE(off.goalAgents - off.atGoal, c.minStalled);
    EXPECT_EQ(off.detourAgentSteps, 0u);

    const Outcome on = run(sc, true, 3000);
    EXPECT_EQ(on.atGoal, on.goalAgents) << "after " << on.steps << " steps";
    EXPECT_GT(on.detourAgentSteps, 0u);
    // No overlaps: moving agents never overlap each other, a static agent or a wall.
    EXPECT_GE(on.minClearance, -1e-9);
    EXPECT_GE(on.minObstacleClearance, -1e-9);
    std::printf("[ %-20s ] off: %zu/%zu stalled after %llu steps; on: all %zu arrive in %llu "
                "steps, min clearance %.3g\n",
                c.scene, off.goalAgents - off.atGoal, off.goalAgents,
                static_cast<unsigned long long>(off.steps), on.goalAgents,
                static_cast<unsigned long long>(on.steps), on.minClearance);
}

INSTANTIATE_TEST_SUITE_P(Bundled, DetourScenes,
                         ::testing::Values(Case{"detour_wall.json", 1},
                                           Case{"detour_field.json", 8},
                                           Case{"detour_corridor.json", 3}));

std::uint64_t hashAfter(const scene::Scene& sc, int steps, int threads) {
    Simulator sim = scene::buildSimulator(sc);
    sim.setThreadCount(threads);
    for (int s = 0; s < steps; ++s)
        sim.step();
    return sim.stateHash();
}

TEST(DetourDeterminism, ThreadCountDoesNotChangeTheTrajectory) {
    for (const char* name : {"detour_field.json", "detour_corridor.json"}) {
        const scene::Scene sc = loadBundled(name);
        EXPECT_EQ(hashAfter(sc, 400, 1), hashAfter(sc, 400, 3)) << name;
    }
}

TEST(DetourDeterminism, SavedStateWithDetouringAgentsResumesBitIdentically) {
    const scene::Scene original = loadBundled("detour_field.json");
    Simulator first = scene::buildSimulator(original);
    int steps = 0;
    // Run until some agents are detouring, then save.
    while (steps < 1000) {
        first.step();
        ++steps;
        if (first.lastStepStats().detouringAgents >= 2) break;
    }
    ASSERT_GE(first.lastStepStats().detouringAgents, 2u);
    const scene::Scene saved = scene::captureState(original, first);
    std::size_t detouringInFile = 0;
    for (const scene::SceneAgent& a : saved.agents)
        detouringInFile += a.detourMode == DetourMode::Detouring ? 1 : 0;
    EXPECT_GE(detouringInFile, 1u);
    const std::filesystem::path path =
        std::filesystem::temp_directory_path() / "orca_detour_resume.json";
    scene::saveScene(saved, path);
    Simulator resumed = scene::buildSimulator(scene::loadScene(path).scene);
    std::filesystem::remove(path);
    for (int s = 0; s < 300; ++s) {
        first.step();
        resumed.step();
    }
    EXPECT_EQ(resumed.stateHash(), first.stateHash());
}

} // namespace
} // namespace orca
