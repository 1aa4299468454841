// RVO::RVOSimulator::saveScene (core/rvo2): the program's state as a scene that the scene
// library loads, `orca validate` accepts, and `orca run` continues.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

#include "common/files.hpp"
#include "orca/scene/scene.hpp"

namespace {

namespace fs = std::filesystem;
using RVO::RVOSimulator;
using RVO::Vector2;

/// Eight agents on a ring of radius 12 walking through a square toward the far side (the
/// preferred velocities are set once, as a program's last call before saving would), some
/// with their own parameters, one obstacle processed and one not.
void crowd(RVOSimulator& sim) {
    sim.setTimeStep(0.25F);
    sim.setAgentDefaults(15.0F, 10, 5.0F, 5.0F, 1.0F, 2.0F);
    for (int i = 0; i < 8; ++i) {
        const float angle = static_cast<float>(i) * 0.785398163F;
        const Vector2 p = 12.0F * Vector2(std::cos(angle), std::sin(angle));
        const std::size_t a =
            i % 3 == 0 ? sim.addAgent(p, 10.0F, 4, 3.0F, 2.0F, 0.75F, 1.5F) : sim.addAgent(p);
        sim.setAgentPrefVelocity(a, RVO::normalize(-p));
    }
    sim.addObstacle(
        {Vector2(-2.0F, -2.0F), Vector2(2.0F, -2.0F), Vector2(2.0F, 2.0F), Vector2(-2.0F, 2.0F)});
    sim.processObstacles();
    sim.addObstacle({Vector2(30.0F, 0.0F), Vector2(31.0F, 0.0F)}); // never processed
    for (int k = 0; k < 10; ++k)
        sim.doStep();
}

TEST(Rvo2SaveScene, WritesTheStateAsAScene) {
    orca::test::TempDir dir("rvo2-scene");
    RVOSimulator sim;
    crowd(sim);
    sim.setAgentPrefVelocity(1, Vector2(0.5F, 0.25F)); // set, not yet stepped
    const fs::path path = dir.path() / "state.json";
    sim.saveScene(path.string());

    const orca::scene::LoadResult loaded = orca::scene::loadScene(path);
    const orca::scene::Scene& scene = loaded.scene;
    EXPECT_TRUE(loaded.warnings.empty());
    EXPECT_EQ(scene.simulation.params.timeStep, 0.25);
    EXPECT_EQ(scene.simulation.step, 10u);
    EXPECT_EQ(scene.simulation.time, 2.5);
    EXPECT_EQ(scene.agentDefaults.radius, 1.0);
    EXPECT_EQ(scene.agentDefaults.timeHorizon, 5.0);
    ASSERT_EQ(scene.agents.size(), 8u);
    ASSERT_EQ(scene.obstacles.size(), 1u); // only the processed one
    EXPECT_EQ(scene.obstacles[0].vertices[1], orca::Vec2(2.0, -2.0));
    for (std::size_t i = 0; i < 8; ++i) {
        const orca::scene::SceneAgent& a = scene.agents[i];
        EXPECT_EQ(Vector2(static_cast<float>(a.position.x), static_cast<float>(a.position.y)),
                  sim.getAgentPosition(i));
        ASSERT_TRUE(a.prefVelocity.has_value());
        EXPECT_EQ(*a.prefVelocity,
                  orca::Vec2(sim.getAgentPrefVelocity(i).x(), sim.getAgentPrefVelocity(i).y()));
        EXPECT_FALSE(a.goal.has_value());
        const orca::AgentParams p = scene.resolvedParams(a);
        EXPECT_EQ(static_cast<float>(p.radius), sim.getAgentRadius(i));
        EXPECT_EQ(static_cast<float>(p.maxSpeed), sim.getAgentMaxSpeed(i));
        EXPECT_EQ(static_cast<float>(p.neighborDist), sim.getAgentNeighborDist(i));
        EXPECT_EQ(static_cast<std::size_t>(p.maxNeighbors), sim.getAgentMaxNeighbors(i));
        EXPECT_EQ(static_cast<float>(p.timeHorizon), sim.getAgentTimeHorizon(i));
        EXPECT_EQ(static_cast<float>(p.timeHorizonObst), sim.getAgentTimeHorizonObst(i));
        // Only what differs from the defaults is written per agent.
        EXPECT_EQ(a.overrides.radius.has_value(), i % 3 == 0);
    }
    EXPECT_EQ(*scene.agents[1].prefVelocity, orca::Vec2(0.5, 0.25));
}

TEST(Rvo2SaveScene, TheSceneContinuesTheProgram) {
    // The scene holds the face's (float) state exactly, so the core's next step from the file
    // is the face's next step before the face rounds it to float. Later steps drift apart at
    // float precision: the face keeps rounding (as RVO2 stores floats), the file's run does
    // not; within 10 steps by less than 1e-5 (the agents then meet at the square, where such
    // differences grow).
    orca::test::TempDir dir("rvo2-scene");
    RVOSimulator sim;
    crowd(sim);
    const fs::path path = dir.path() / "state.json";
    sim.saveScene(path.string());
    orca::Simulator fromFile = orca::scene::buildSimulator(orca::scene::loadScene(path).scene);
    for (int k = 1; k <= 10; ++k) {
        sim.doStep();
        fromFile.step();
        for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
            const orca::Vec2 p = fromFile.positions()[i];
            const Vector2 pf(static_cast<float>(p.x), static_cast<float>(p.y));
            if (k == 1)
                EXPECT_EQ(sim.getAgentPosition(i), pf) << "agent " << i;
            else
                EXPECT_LT(RVO::abs(sim.getAgentPosition(i) - pf), 1e-5F)
                    << "step " << k << " agent " << i;
        }
    }
}

/// Runs a shell command; returns its exit code.
int run(const std::string& command) {
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

TEST(Rvo2SaveScene, OrcaValidatesAndRunsIt) {
    const std::string orca = std::string(ORCA_BIN_DIR) + "/orca";
    if (!fs::exists(orca)) GTEST_SKIP() << "the orca binary is not built";
    orca::test::TempDir dir("rvo2-scene");
    RVOSimulator sim;
    crowd(sim);
    const fs::path path = dir.path() / "state.json";
    const fs::path end = dir.path() / "end.json";
    sim.saveScene(path.string());
    EXPECT_EQ(run(orca + " validate " + path.string() + " > /dev/null"), 0);
    ASSERT_EQ(run(orca + " run " + path.string() + " --steps 1 --save-state " + end.string() +
                  " > /dev/null"),
              0);
    sim.doStep(); // the same step (see TheSceneContinuesTheProgram)
    const orca::scene::Scene after = orca::scene::loadScene(end).scene;
    ASSERT_EQ(after.agents.size(), sim.getNumAgents());
    EXPECT_EQ(after.simulation.step, 11u);
    for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
        const orca::Vec2 p = after.agents[i].position;
        EXPECT_EQ(sim.getAgentPosition(i),
                  Vector2(static_cast<float>(p.x), static_cast<float>(p.y)));
    }
}

TEST(Rvo2SaveScene, FailuresThrowSceneErrorsAndWriteNothing) {
    orca::test::TempDir dir("rvo2-scene");
    RVOSimulator sim;
    crowd(sim);
    // A folder that does not exist.
    EXPECT_THROW(sim.saveScene((dir.path() / "missing" / "state.json").string()),
                 orca::scene::SceneError);
    // A position beyond the scene format's limits (±1e7).
    sim.setAgentPosition(0, Vector2(5e7F, 0.0F));
    EXPECT_THROW(sim.saveScene((dir.path() / "far.json").string()), orca::scene::SceneError);
    EXPECT_EQ(dir.listing(), "");
}

} // namespace
