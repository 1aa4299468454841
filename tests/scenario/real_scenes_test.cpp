// Real scenes (issue 21): a two-way doorway, a goal behind a U-shaped pocket, a goal behind a
// wall, four agents in a cross and a ring. The diagnosis names the real cause, its first fix is
// one that exists (waypoints, a wider gap, roadmap routing, deadlock breaking), and running it
// gets more agents home — proven with verifyFix, the machinery of `orca diagnose --verify`.
#include <string>

#include <gtest/gtest.h>

#include "orca/diagnosis.hpp"
#include "orca/scene/fixes.hpp"
#include "orca/scene/scene.hpp"

namespace orca {
namespace {

scene::Scene loadBundled(const std::string& name) {
    return scene::loadScene(std::string(ORCA_SOURCE_DIR) + "/scenes/" + name).scene;
}

struct Proof {
    Diagnosis diagnosis;
    scene::FixVerification verification;
};

/// Diagnoses `agent` after `step` steps, applies its first fix to the scene from step 0 and
/// runs original and fixed `steps` steps side by side.
Proof proveFirstFix(const scene::Scene& sc, std::size_t agent, std::uint64_t step,
                    std::uint64_t steps) {
    Simulator sim = scene::buildSimulator(sc);
    Proof p{diagnoseAfterSteps(sim, agent, step), {}};
    if (p.diagnosis.fixes.empty()) return p;
    scene::Scene fixed = sc;
    scene::applyFix(fixed, p.diagnosis.fixes.front());
    p.verification =
        scene::verifyFix(scene::buildSimulator(sc), scene::buildSimulator(fixed), steps);
    return p;
}

scene::Scene wallScene() {
    scene::Scene sc;
    sc.simulation.params.timeStep = 0.1;
    sc.agentDefaults.radius = 0.5;
    sc.agentDefaults.maxSpeed = 1.5;
    sc.agentDefaults.prefSpeed = 1.2;
    sc.agentDefaults.timeHorizon = 3.0;
    sc.agentDefaults.timeHorizonObst = 2.0;
    scene::SceneAgent a;
    a.position = {-6.0, 0.3};
    a.goal = Vec2(6.0, 0.3);
    sc.agents.push_back(a);
    sc.obstacles.push_back(
        {std::nullopt, {{-0.25, -4.0}, {0.25, -4.0}, {0.25, 4.0}, {-0.25, 4.0}}});
    return sc;
}

TEST(RealScenes, DoorwayJamIsABottleneckAndAWiderGapWithLanesGetsEveryoneHome) {
    const scene::Scene sc = loadBundled("diag_bottleneck_jam.json");
    for (std::size_t agent : {0u, 5u, 11u}) {
        Simulator sim = scene::buildSimulator(sc);
        const Diagnosis d = diagnoseAfterSteps(sim, agent, 1500);
        EXPECT_EQ(d.cls, DiagnosisClass::BottleneckJam) << agent << ": " << d.sentence;
        EXPECT_GE(d.stalledSeconds, 2.0);
        EXPECT_NEAR(d.gapWidth, 1.2, 1e-9);
        // Not the parameter tweaks that change nothing.
        EXPECT_EQ(d.suggestion.find("Raise maxNeighbors"), std::string::npos);
    }
    const Proof p = proveFirstFix(sc, 0, 1500, 3000);
    ASSERT_FALSE(p.diagnosis.fixes.empty());
    EXPECT_NE(p.diagnosis.fixes.front().label.find("Widen the gap from 1.2"), std::string::npos)
        << p.diagnosis.fixes.front().label;
    EXPECT_EQ(p.verification.before.agentsAtGoal, 0u);
    EXPECT_EQ(p.verification.after.agentsAtGoal, 16u);
    EXPECT_TRUE(p.verification.improved);
    // The other candidate exists too, and helps less.
    ASSERT_EQ(p.diagnosis.fixes.size(), 2u);
    EXPECT_EQ(p.diagnosis.fixes[1].label, "Turn on deadlock breaking");
}

TEST(RealScenes, UPocketAndWallAreObstacleTrapsThatRoadmapRoutingSolves) {
    for (const auto& [name, sc, step] :
         {std::tuple{"pocket", loadBundled("diag_obstacle_trap.json"), 160u},
          std::tuple{"wall", wallScene(), 200u}}) {
        SCOPED_TRACE(name);
        const Proof p = proveFirstFix(sc, 0, step, 1500);
        EXPECT_EQ(p.diagnosis.cls, DiagnosisClass::ObstacleTrap) << p.diagnosis.sentence;
        ASSERT_GE(p.diagnosis.fixes.size(), 2u);
        EXPECT_EQ(p.diagnosis.fixes[0].label, "Switch the scene to roadmap routing");
        EXPECT_EQ(p.verification.before.agentsAtGoal, 0u);
        EXPECT_EQ(p.verification.after.agentsAtGoal, 1u);
        // The waypoint fix works too, applied as a scene edit.
        scene::Scene fixed = sc;
        scene::applyFix(fixed, p.diagnosis.fixes[1]);
        EXPECT_FALSE(fixed.agents[0].waypoints.empty());
        const scene::FixVerification v =
            scene::verifyFix(scene::buildSimulator(sc), scene::buildSimulator(fixed), 1500);
        EXPECT_TRUE(v.improved) << "waypoints";
    }
}

TEST(RealScenes, CrossAndRingAreGroupDeadlocksThatDeadlockBreakingResolves) {
    scene::Scene ring = loadBundled("diag_group_deadlock.json");
    ring.agents.clear();
    for (int k = 0; k < 12; ++k) {
        const double a = 2.0 * 3.14159265358979323846 * k / 12.0;
        scene::SceneAgent agent;
        agent.position = {6.0 * std::cos(a), 6.0 * std::sin(a)};
        agent.goal = -agent.position;
        ring.agents.push_back(agent);
    }
    for (const auto& [name, sc] :
         {std::pair{"cross", loadBundled("diag_group_deadlock.json")}, std::pair{"ring", ring}}) {
        SCOPED_TRACE(name);
        const Proof p = proveFirstFix(sc, 0, 150, 2000);
        EXPECT_EQ(p.diagnosis.cls, DiagnosisClass::GroupDeadlock) << p.diagnosis.sentence;
        ASSERT_FALSE(p.diagnosis.fixes.empty());
        EXPECT_EQ(p.diagnosis.fixes.front().label, "Turn on deadlock breaking");
        EXPECT_EQ(p.verification.before.agentsAtGoal, 0u);
        EXPECT_EQ(p.verification.after.agentsAtGoal, sc.agents.size());
    }
}

TEST(RealScenes, AStalledAgentIsNeverNone) {
    // Every agent of the jammed doorway and the cross, long after they stalled.
    for (const char* file : {"diag_bottleneck_jam.json", "diag_group_deadlock.json"}) {
        const scene::Scene sc = loadBundled(file);
        for (std::size_t agent = 0; agent < sc.agents.size(); ++agent) {
            Simulator sim = scene::buildSimulator(sc);
            const Diagnosis d = diagnoseAfterSteps(sim, agent, 1200);
            if (d.stalledSeconds >= 2.0) {
                EXPECT_NE(d.cls, DiagnosisClass::None) << file << " agent " << agent;
                EXPECT_FALSE(d.fixes.empty()) << file << " agent " << agent;
            }
        }
    }
}

} // namespace
} // namespace orca
