// Scene <-> Simulator: buildSimulator, captureState, Scene::resolvedParams / agentDef.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

std::uint64_t bits(double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

const std::string kScene = R"({"format": "orca-scene", "version": 1,
  "simulation": {"timeStep": 0.1, "responsibility": 0.75, "lp3BisectorWeight": 2,
                 "time": 12.5, "step": 125},
  "agentDefaults": {"radius": 0.5, "maxSpeed": 2, "prefSpeed": 1, "neighborDist": 8,
                    "maxNeighbors": 6, "timeHorizon": 4, "timeHorizonObst": 3},
  "agents": [
    {"id": "a", "position": [-10, 0], "goal": [10, 0]},
    {"id": "b", "position": [10, 0.25], "goal": [-10, 0], "radius": 0.75, "maxSpeed": 1.5,
     "maxNeighbors": 2, "goalRadius": 1},
    {"id": "c", "position": [0, 6], "static": true},
    {"id": "d", "position": [0, -6], "velocity": [0.5, 0], "prefVelocity": [0.5, 0.25]}],
  "obstacles": [
    {"vertices": [[-2, 10], [2, 10], [2, 12], [-2, 12]]},
    {"vertices": [[-3, -10], [3, -10]]}]})";

TEST(SceneSim, ResolvedParamsApplyOverrides) {
    const Scene s = parseScene(kScene, "s.json").scene;
    const AgentParams a = s.resolvedParams(s.agents[0]);
    EXPECT_EQ(a.radius, 0.5);
    EXPECT_EQ(a.maxSpeed, 2.0);
    EXPECT_EQ(a.maxNeighbors, 6);
    EXPECT_EQ(a.goalRadius, -1.0); // "use the radius"
    const AgentParams b = s.resolvedParams(s.agents[1]);
    EXPECT_EQ(b.radius, 0.75);
    EXPECT_EQ(b.maxSpeed, 1.5);
    EXPECT_EQ(b.prefSpeed, 1.0);
    EXPECT_EQ(b.neighborDist, 8.0);
    EXPECT_EQ(b.maxNeighbors, 2);
    EXPECT_EQ(b.timeHorizon, 4.0);
    EXPECT_EQ(b.timeHorizonObst, 3.0);
    EXPECT_EQ(b.goalRadius, 1.0);
}

TEST(SceneSim, AgentDefMapsGoalPrefVelocityAndStatic) {
    const Scene s = parseScene(kScene, "s.json").scene;
    const AgentDef a = s.agentDef(s.agents[0]);
    EXPECT_TRUE(a.hasGoal);
    EXPECT_EQ(a.goal, Vec2(10, 0));
    EXPECT_EQ(a.velocity, Vec2(0, 0));
    EXPECT_FALSE(a.isStatic);
    const AgentDef c = s.agentDef(s.agents[2]);
    EXPECT_TRUE(c.isStatic);
    EXPECT_FALSE(c.hasGoal);
    const AgentDef d = s.agentDef(s.agents[3]);
    EXPECT_FALSE(d.hasGoal);
    EXPECT_EQ(d.prefVelocity, Vec2(0.5, 0.25));
    EXPECT_EQ(d.velocity, Vec2(0.5, 0));
}

TEST(SceneSim, BuildSimulatorAddsEverythingInOrder) {
    const Scene s = parseScene(kScene, "s.json").scene;
    const Simulator sim = buildSimulator(s);
    EXPECT_EQ(sim.params().timeStep, 0.1);
    EXPECT_EQ(sim.params().responsibility, 0.75);
    EXPECT_EQ(sim.params().lp3BisectorWeight, 2.0);
    EXPECT_EQ(sim.time(), 12.5);
    EXPECT_EQ(sim.stepCount(), 125u);
    ASSERT_EQ(sim.agentCount(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(sim.positions()[i], s.agents[i].position) << i;
    }
    const AgentId b = sim.agentIdAt(1);
    EXPECT_EQ(sim.agentParams(b).radius, 0.75);
    EXPECT_EQ(sim.agentParams(b).maxNeighbors, 2);
    EXPECT_EQ(sim.agentParams(sim.agentIdAt(0)).radius, 0.5);
    EXPECT_TRUE(sim.hasGoal(sim.agentIdAt(0)));
    EXPECT_TRUE(sim.isStatic(sim.agentIdAt(2)));
    EXPECT_FALSE(sim.hasGoal(sim.agentIdAt(3)));
    EXPECT_EQ(sim.prefVelocity(sim.agentIdAt(3)), Vec2(0.5, 0.25));
    EXPECT_EQ(sim.velocity(sim.agentIdAt(3)), Vec2(0.5, 0));
    ASSERT_EQ(sim.obstacleCount(), 2u);
    EXPECT_EQ(sim.obstacleVertices(sim.obstacleIdAt(0)).size(), 4u);
    EXPECT_EQ(sim.obstacleVertices(sim.obstacleIdAt(1)).size(), 2u);
}

TEST(SceneSim, ClockwiseObstacleIsAcceptedAfterRepair) {
    const Scene s = parseScene(R"({"format": "orca-scene", "version": 1, "agents": [],
                       "obstacles": [{"vertices": [[0, 0], [0, 4], [4, 4], [4, 0]]}]})",
                               "cw.json")
                        .scene;
    const Simulator sim = buildSimulator(s);
    EXPECT_EQ(sim.obstacleCount(), 1u);
}

TEST(SceneSim, BuildReportSkipsObstaclesTheSimulatorWouldReject) {
    Scene s = parseScene(kScene, "s.json").scene;
    // A clockwise square between the two valid obstacles, and a bow tie at the end (as an
    // editor could leave them; the loader would have reversed or refused them).
    s.obstacles.insert(s.obstacles.begin() + 1,
                       SceneObstacle{std::nullopt, {{0, 0}, {0, 4}, {4, 4}, {4, 0}}});
    s.obstacles.push_back(SceneObstacle{std::nullopt, {{0, 0}, {4, 4}, {4, 0}, {0, 4}}});
    EXPECT_THROW((void)buildSimulator(s), InvalidArgument);

    BuildReport report;
    report.skippedObstacles.push_back(99); // cleared first
    const Simulator sim = buildSimulator(s, report);
    EXPECT_EQ(report.skippedObstacles, (std::vector<std::size_t>{1, 3}));
    ASSERT_EQ(report.reasons.size(), 2u);
    EXPECT_EQ(report.reasons[0].rfind("obstacles[1] is clockwise", 0), 0u) << report.reasons[0];
    EXPECT_EQ(report.reasons[1].rfind("obstacles[3] is invalid: ", 0), 0u) << report.reasons[1];
    EXPECT_NE(report.reasons[1].find("self-intersecting"), std::string::npos);
    ASSERT_EQ(sim.obstacleCount(), 2u);
    EXPECT_EQ(sim.obstacleVertices(sim.obstacleIdAt(0))[0], s.obstacles[0].vertices[0]);
    EXPECT_EQ(sim.obstacleVertices(sim.obstacleIdAt(1))[0], s.obstacles[2].vertices[0]);
    EXPECT_EQ(sim.agentCount(), s.agents.size());

    // Nothing to skip: an empty report and the same simulator as the throwing overload.
    s.obstacles.erase(s.obstacles.begin() + 3);
    s.obstacles.erase(s.obstacles.begin() + 1);
    const Simulator clean = buildSimulator(s, report);
    EXPECT_TRUE(report.skippedObstacles.empty());
    EXPECT_TRUE(report.reasons.empty());
    EXPECT_EQ(clean.obstacleCount(), 2u);
}

TEST(SceneSim, CaptureStateTakesPositionsVelocitiesAndClock) {
    const Scene s = parseScene(kScene, "s.json").scene;
    Simulator sim = buildSimulator(s);
    for (int i = 0; i < 20; ++i)
        sim.step();
    const Scene captured = captureState(s, sim);
    ASSERT_EQ(captured.agents.size(), 4u);
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(bits(captured.agents[i].position.x), bits(sim.positions()[i].x)) << i;
        EXPECT_EQ(bits(captured.agents[i].position.y), bits(sim.positions()[i].y)) << i;
    }
    // Moving agents get their velocity; the static agent keeps "absent".
    ASSERT_TRUE(captured.agents[0].velocity.has_value());
    EXPECT_EQ(*captured.agents[0].velocity, sim.velocities()[0]);
    EXPECT_FALSE(captured.agents[2].velocity.has_value());
    EXPECT_EQ(captured.agents[2].position, Vec2(0, 6));
    // Everything else is unchanged.
    EXPECT_EQ(captured.agents[1].overrides.radius, 0.75);
    EXPECT_EQ(captured.agents[1].goal, s.agents[1].goal);
    EXPECT_EQ(captured.agents[1].id, nlohmann::json("b"));
    EXPECT_EQ(captured.obstacles.size(), 2u);
    EXPECT_EQ(captured.simulation.time, sim.time());
    EXPECT_EQ(captured.simulation.step, 145u);
    EXPECT_EQ(captured.simulation.params.timeStep, 0.1);
}

TEST(SceneSim, VelocityPresentButZeroStaysPresent) {
    const Scene s = parseScene(R"({"format": "orca-scene", "version": 1, "agents": [
                         {"position": [0, 0], "velocity": [0, 0]}, {"position": [5, 5]}]})",
                               "z.json")
                        .scene;
    const Simulator sim = buildSimulator(s);
    const Scene captured = captureState(s, sim);
    EXPECT_TRUE(captured.agents[0].velocity.has_value());
    EXPECT_FALSE(captured.agents[1].velocity.has_value());
    EXPECT_TRUE(captured == s);
}

TEST(SceneSim, SavedStateContinuesBitIdentically) {
    const Scene s = parseScene(kScene, "s.json").scene;
    Simulator original = buildSimulator(s);
    for (int i = 0; i < 30; ++i)
        original.step();

    const std::string saved = serializeScene(captureState(s, original));
    const Scene reloaded = parseScene(saved, "state.json").scene;
    Simulator resumed = buildSimulator(reloaded);
    EXPECT_EQ(resumed.stateHash(), original.stateHash());
    EXPECT_EQ(resumed.time(), original.time());
    EXPECT_EQ(resumed.stepCount(), original.stepCount());
    for (int i = 0; i < 40; ++i) {
        original.step();
        resumed.step();
    }
    EXPECT_EQ(resumed.stateHash(), original.stateHash());
    for (std::size_t i = 0; i < original.agentCount(); ++i) {
        EXPECT_EQ(bits(resumed.positions()[i].x), bits(original.positions()[i].x)) << i;
        EXPECT_EQ(bits(resumed.velocities()[i].y), bits(original.velocities()[i].y)) << i;
    }
}

TEST(SceneSim, CaptureStateRejectsAMismatchedSimulator) {
    const Scene s = parseScene(kScene, "s.json").scene;
    Simulator sim = buildSimulator(s);
    sim.removeAgent(sim.agentIdAt(0));
    EXPECT_THROW((void)captureState(s, sim), std::invalid_argument);
}

} // namespace
} // namespace orca::scene
