// Scenario tests on the bundled scenes: the classic RVO2 scenes reach their goals, the crowd
// stays no worse than RVO2, results do not depend on the thread count, a saved state resumes
// bit-identically, and a golden hash guards against unintended changes to the dynamics.
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

std::string scenePath(const std::string& name) {
    return std::string(ORCA_SOURCE_DIR) + "/scenes/" + name;
}

scene::Scene loadBundled(const std::string& name) {
    return scene::loadScene(scenePath(name)).scene;
}

struct RunResult {
    std::uint64_t steps = 0;
    bool allAtGoal = false;
    double minClearance = std::numeric_limits<double>::infinity();
    double minObstacleClearance = std::numeric_limits<double>::infinity();
    std::uint64_t lp3 = 0;
    std::uint64_t hash = 0;
};

RunResult runUntilGoals(Simulator& sim, std::uint64_t maxSteps) {
    RunResult r;
    while (r.steps < maxSteps && !sim.allAtGoal()) {
        sim.step();
        ++r.steps;
        r.lp3 += sim.lastStepStats().lp3Agents;
        const ClearanceStats c = sim.clearance();
        r.minClearance = std::min(r.minClearance, c.minAgentClearance);
        r.minObstacleClearance = std::min(r.minObstacleClearance, c.minObstacleClearance);
    }
    r.allAtGoal = sim.allAtGoal();
    r.hash = sim.stateHash();
    return r;
}

TEST(Scenario, CircleReachesItsGoalsNoWorseThanRVO2) {
    Simulator sim = scene::buildSimulator(loadBundled("circle.json"));
    ASSERT_EQ(sim.agentCount(), 250u);
    const RunResult r = runUntilGoals(sim, 10000);
    EXPECT_TRUE(r.allAtGoal) << "after " << r.steps << " steps";
    // The reference RVO2 (float) overlaps agents at the crowded centre; measured on this
    // machine with the same start: 3441 steps, deepest overlap 0.91 (the issue quotes 0.66).
    // Ours must be no worse than the figure.
    EXPECT_GT(r.minClearance, -0.66) << "deepest overlap " << -r.minClearance;
    EXPECT_GT(r.lp3, 0u); // the crowded centre is infeasible for some agents
    std::printf("[ circle   ] %llu steps, deepest overlap %.4f, LP3 agent-steps %llu\n",
                static_cast<unsigned long long>(r.steps), -r.minClearance,
                static_cast<unsigned long long>(r.lp3));
}

TEST(Scenario, BlocksReachesItsGoals) {
    Simulator sim = scene::buildSimulator(loadBundled("blocks.json"));
    ASSERT_EQ(sim.agentCount(), 100u);
    ASSERT_EQ(sim.obstacleCount(), 4u);
    const RunResult r = runUntilGoals(sim, 10000);
    EXPECT_TRUE(r.allAtGoal) << "after " << r.steps << " steps";
    // RVO2 (same start, no perturbation): 4306 steps, deepest overlap 0.19.
    EXPECT_GT(r.minClearance, -0.19);
    EXPECT_GT(r.minObstacleClearance, -1e-6); // nobody walks into a block
    std::printf("[ blocks   ] %llu steps, deepest overlap %.4f, min obstacle clearance %.3g\n",
                static_cast<unsigned long long>(r.steps), -r.minClearance, r.minObstacleClearance);
}

TEST(Scenario, EveryBundledSceneRunsWithoutNaNOrSpeeding) {
    for (const auto& entry :
         std::filesystem::directory_iterator(std::string(ORCA_SOURCE_DIR) + "/scenes")) {
        if (entry.path().extension() != ".json") continue;
        SCOPED_TRACE(entry.path().filename().string());
        Simulator sim = scene::buildSimulator(scene::loadScene(entry.path()).scene);
        for (int s = 0; s < 200; ++s) {
            sim.step();
            for (std::size_t i = 0; i < sim.agentCount(); ++i) {
                const Vec2 v = sim.velocities()[i];
                ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y));
                ASSERT_LE(length(v), sim.agentParams()[i].maxSpeed);
            }
        }
    }
}

TEST(Scenario, DenseConvergenceNeedsLP3) {
    Simulator sim = scene::buildSimulator(loadBundled("dense_convergence.json"));
    std::uint64_t lp3 = 0;
    for (int s = 0; s < 400; ++s) {
        sim.step();
        lp3 += sim.lastStepStats().lp3Agents;
    }
    EXPECT_GT(lp3, 10u);
}

std::uint64_t hashAfter(const std::string& sceneName, int steps, int threads) {
    Simulator sim = scene::buildSimulator(loadBundled(sceneName));
    sim.setThreadCount(threads);
    for (int s = 0; s < steps; ++s)
        sim.step();
    return sim.stateHash();
}

TEST(Determinism, ThreadCountDoesNotChangeTheTrajectory) {
    for (const char* name : {"circle.json", "blocks.json", "dense_convergence.json"}) {
        const std::uint64_t one = hashAfter(name, 600, 1);
        EXPECT_EQ(hashAfter(name, 600, 2), one) << name;
        EXPECT_EQ(hashAfter(name, 600, 3), one) << name;
        EXPECT_EQ(hashAfter(name, 600, 8), one) << name;
    }
}

TEST(Determinism, SavedStateResumesBitIdentically) {
    for (const char* name : {"circle.json", "blocks.json"}) {
        SCOPED_TRACE(name);
        const scene::Scene original = loadBundled(name);
        Simulator straight = scene::buildSimulator(original);
        for (int s = 0; s < 700; ++s)
            straight.step();

        Simulator first = scene::buildSimulator(original);
        for (int s = 0; s < 300; ++s)
            first.step();
        const std::filesystem::path saved =
            std::filesystem::temp_directory_path() / ("orca_resume_" + std::string(name));
        scene::saveScene(scene::captureState(original, first), saved);
        Simulator resumed = scene::buildSimulator(scene::loadScene(saved).scene);
        std::filesystem::remove(saved);
        EXPECT_EQ(resumed.stepCount(), 300u);
        EXPECT_DOUBLE_EQ(resumed.time(), first.time());
        for (int s = 0; s < 400; ++s)
            resumed.step();
        EXPECT_EQ(resumed.stateHash(), straight.stateHash());
    }
}

TEST(Determinism, GoldenStateHash) {
    // Changes to the dynamics (intended or not) change these. When a change is intended,
    // compare the scenario numbers above and against RVO2 first, then update the constants.
    EXPECT_EQ(hashAfter("circle.json", 1000, 2), 0xaf247580f4d13fc9ull);
    EXPECT_EQ(hashAfter("blocks.json", 1000, 2), 0x8c722195654ce26cull);
}

} // namespace
} // namespace orca
