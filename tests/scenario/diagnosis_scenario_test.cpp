// Diagnosis on the bundled scenes/diag_*.json: each class on its own scene at the documented
// agent and step (scenes/README.md), a step or a near miss where it must not fire, and — where
// the suggestion is concrete — that following it fixes the problem.
#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orca/diagnosis.hpp"
#include "orca/history.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

scene::Scene loadBundled(const std::string& name) {
    return scene::loadScene(std::string(ORCA_SOURCE_DIR) + "/scenes/" + name).scene;
}

Diagnosis diagnoseScene(const scene::Scene& sc, std::size_t agent, std::uint64_t steps) {
    Simulator sim = scene::buildSimulator(sc);
    return diagnoseAfterSteps(sim, agent, steps);
}

Diagnosis diagnoseFile(const std::string& name, std::size_t agent, std::uint64_t steps) {
    return diagnoseScene(loadBundled(name), agent, steps);
}

/// Steps until every goal agent is at its goal; returns the steps taken or -1.
int stepsToGoals(Simulator& sim, int maxSteps) {
    for (int s = 1; s <= maxSteps; ++s) {
        sim.step();
        if (sim.allAtGoal()) return s;
    }
    return -1;
}

using Agents = std::vector<std::uint32_t>;

// ---- Each class on its scene ------------------------------------------------------------------

struct Case {
    const char* file;
    std::size_t agent;
    std::uint64_t step;
    DiagnosisClass cls;
    std::uint64_t quietStep; ///< a step of the same scene where the agent is fine ("none")
};

TEST(DiagnosisScenes, EachClassShowsOnItsSceneAndNotBeforeItHappens) {
    const Case cases[] = {
        {"diag_none.json", 0, 20, DiagnosisClass::None, 0},
        {"diag_symmetric_deadlock.json", 0, 80, DiagnosisClass::SymmetricDeadlock, 40},
        {"diag_static_wall.json", 0, 80, DiagnosisClass::StaticWall, 20},
        {"diag_obstacle_trap.json", 0, 160, DiagnosisClass::ObstacleTrap, 40},
        {"diag_crowd_pressure.json", 0, 60, DiagnosisClass::CrowdPressure, 20},
        {"diag_neighbor_truncation.json", 0, 32, DiagnosisClass::NeighborTruncation, 20},
        {"diag_short_horizon.json", 0, 32, DiagnosisClass::ShortHorizon, 20},
        {"diag_goal_circling.json", 0, 6, DiagnosisClass::GoalCircling, 3},
        {"diag_bottleneck_jam.json", 0, 100, DiagnosisClass::BottleneckJam, 0},
        {"diag_group_deadlock.json", 0, 100, DiagnosisClass::GroupDeadlock, 0},
    };
    static_assert(std::size(cases) == kDiagnosisClassCount);
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        const Diagnosis d = diagnoseFile(c.file, c.agent, c.step);
        EXPECT_EQ(d.cls, c.cls) << d.sentence;
        EXPECT_EQ(d.step, c.step);
        EXPECT_FALSE(d.sentence.empty());
        EXPECT_FALSE(d.suggestion.empty());
        EXPECT_EQ(d.sentence.rfind("Agent " + std::to_string(c.agent), 0), 0u) << d.sentence;
        // Before the problem arises the agent walks as preferred or merely gives way.
        const Diagnosis quiet = diagnoseFile(c.file, c.agent, c.quietStep);
        EXPECT_EQ(quiet.cls, DiagnosisClass::None)
            << "step " << c.quietStep << ": " << quiet.sentence;
    }
}

// ---- none ---------------------------------------------------------------------------------

TEST(DiagnosisScenes, NoneWalkerMovesAsPreferredUntilItsGoalRadiusIsZero) {
    const Diagnosis d = diagnoseFile("diag_none.json", 0, 20);
    EXPECT_TRUE(d.binding.empty());
    EXPECT_TRUE(d.responsibleAgents.empty());
    EXPECT_EQ(d.suggestion, "Nothing to fix.");
    // Near its goal it is still fine...
    EXPECT_EQ(diagnoseFile("diag_none.json", 0, 80).cls, DiagnosisClass::None);
    // ...but with goalRadius 0 the geometric approach never gets there.
    scene::Scene sc = loadBundled("diag_none.json");
    sc.agents[0].overrides.goalRadius = 0.0;
    EXPECT_EQ(diagnoseScene(sc, 0, 80).cls, DiagnosisClass::GoalCircling);
}

// ---- symmetric-deadlock -------------------------------------------------------------------

TEST(DiagnosisScenes, SymmetricDeadlockPairAndItsPerturbation) {
    const scene::Scene sc = loadBundled("diag_symmetric_deadlock.json");
    Simulator sim = scene::buildSimulator(sc);
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 80);
    ASSERT_EQ(d.cls, DiagnosisClass::SymmetricDeadlock) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, Agents{1});
    EXPECT_LT(d.progress, 0.5);
    const Diagnosis other = diagnose(sim, 1, {});
    EXPECT_EQ(other.cls, DiagnosisClass::SymmetricDeadlock);
    EXPECT_EQ(other.responsibleAgents, Agents{0});
    // Unperturbed the pair never arrives (the linter does not see this pair: it is not
    // collinear, only mirror-symmetric about the diagonal).
    Simulator stuck = scene::buildSimulator(sc);
    stuck.restore(sim.snapshot());
    EXPECT_EQ(stepsToGoals(stuck, 400), -1);
    // Moving the suggested goal lets both arrive.
    ASSERT_TRUE(d.suggestedAgent && d.suggestedGoal);
    const AgentId id = sim.agentIdAt(*d.suggestedAgent);
    AgentDef def = sim.agent(id);
    EXPECT_LT(length(def.goal - *d.suggestedGoal), 0.2); // a small move
    def.goal = *d.suggestedGoal;
    sim.setAgent(id, def);
    EXPECT_GT(stepsToGoals(sim, 400), 0);
}

// ---- static-wall --------------------------------------------------------------------------

TEST(DiagnosisScenes, StaticWallNamesTheStaticAgentsAndTheDetourFieldFixesIt) {
    Simulator sim = scene::buildSimulator(loadBundled("diag_static_wall.json"));
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 80);
    ASSERT_EQ(d.cls, DiagnosisClass::StaticWall) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, (Agents{5, 6})); // the statics at (0, 0) and (0, 2.5)
    for (const BindingConstraint& b : d.binding)
        EXPECT_TRUE(b.agentStatic);
    EXPECT_NE(d.suggestion.find("detour"), std::string::npos);
    // Near miss: the same wall with the detour field on (detour_wall.json) - agent 0 detours.
    const Diagnosis on = diagnoseFile("detour_wall.json", 0, 80);
    EXPECT_EQ(on.cls, DiagnosisClass::None) << on.sentence;
    EXPECT_GT(on.detourFraction, 0.5);
    // Following the suggestion from the stalled state: it arrives.
    SimulationParams p = sim.params();
    p.detour.enabled = true;
    sim.setParams(p);
    EXPECT_GT(stepsToGoals(sim, 1500), 0);
}

// ---- obstacle-trap ------------------------------------------------------------------------

TEST(DiagnosisScenes, ObstacleTrapWaypointsLeadOutOfThePocket) {
    Simulator sim = scene::buildSimulator(loadBundled("diag_obstacle_trap.json"));
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 160);
    ASSERT_EQ(d.cls, DiagnosisClass::ObstacleTrap) << d.sentence;
    EXPECT_EQ(d.responsibleObstacles, Agents{0});
    EXPECT_NE(d.sentence.find("concave pocket"), std::string::npos) << d.sentence;
    ASSERT_FALSE(d.waypoints.empty());
    // Left alone it stays in the pocket.
    Simulator stuck = scene::buildSimulator(loadBundled("diag_obstacle_trap.json"));
    stuck.restore(sim.snapshot());
    EXPECT_EQ(stepsToGoals(stuck, 1000), -1);
    // Walking the waypoints as intermediate goals (each passed within one diameter), then the
    // goal: it arrives.
    const AgentId id = sim.agentIdAt(0);
    const AgentDef original = sim.agent(id);
    for (Vec2 w : d.waypoints) {
        AgentDef def = sim.agent(id);
        def.goal = w;
        sim.setAgent(id, def);
        int s = 0;
        while (length(sim.position(id) - w) > 2.0 * def.params.radius && s < 400) {
            sim.step();
            ++s;
        }
        ASSERT_LT(s, 400) << "waypoint " << w.x << ", " << w.y;
        EXPECT_GT(sim.clearance().minObstacleClearance, -1e-6);
    }
    AgentDef def = sim.agent(id);
    def.goal = original.goal;
    sim.setAgent(id, def);
    EXPECT_GT(stepsToGoals(sim, 400), 0);
}

// ---- crowd-pressure -----------------------------------------------------------------------

TEST(DiagnosisScenes, CrowdPressureInTheCentreOnly) {
    const Diagnosis d = diagnoseFile("diag_crowd_pressure.json", 0, 60);
    ASSERT_EQ(d.cls, DiagnosisClass::CrowdPressure) << d.sentence;
    EXPECT_GT(d.lp3Fraction, 0.5);
    EXPECT_EQ(d.windowDecisions, 21u); // 2 s at Δt = 0.1, plus now
    EXPECT_FALSE(d.responsibleAgents.empty());
    EXPECT_LE(d.neighborCount, 19u); // maxNeighbors 30: nothing dropped
    // Once through the centre the pressure is gone.
    EXPECT_NE(diagnoseFile("diag_crowd_pressure.json", 0, 140).cls, DiagnosisClass::CrowdPressure);
}

// ---- neighbor-truncation ------------------------------------------------------------------

TEST(DiagnosisScenes, NeighborTruncationNamesTheDroppedPillar) {
    const scene::Scene sc = loadBundled("diag_neighbor_truncation.json");
    const Diagnosis d = diagnoseScene(sc, 0, 32);
    ASSERT_EQ(d.cls, DiagnosisClass::NeighborTruncation) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, Agents{2});
    EXPECT_EQ(d.maxNeighbors, 1);
    EXPECT_DOUBLE_EQ(d.suggestedValue, 2.0);
    ASSERT_TRUE(d.truncationVelocity.has_value());
    EXPECT_LT(d.truncationVelocity->y, 0.0); // with the pillar in view it veers away from it
    // The companion (maxNeighbors 10) sees everyone.
    EXPECT_NE(diagnoseScene(sc, 1, 32).cls, DiagnosisClass::NeighborTruncation);
    // With the suggested maxNeighbors nothing is dropped.
    scene::Scene fixed = sc;
    fixed.agents[0].overrides.maxNeighbors = static_cast<int>(d.suggestedValue);
    EXPECT_NE(diagnoseScene(fixed, 0, 32).cls, DiagnosisClass::NeighborTruncation);
}

// ---- short-horizon ------------------------------------------------------------------------

TEST(DiagnosisScenes, ShortHorizonUnseenAgentAndTheSuggestedNeighborDist) {
    const scene::Scene sc = loadBundled("diag_short_horizon.json");
    const Diagnosis d = diagnoseScene(sc, 0, 32);
    ASSERT_EQ(d.cls, DiagnosisClass::ShortHorizon) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, Agents{1});
    EXPECT_GT(d.suggestedValue, sc.agentDefaults.maxSpeed * sc.agentDefaults.timeHorizon);
    // Once they see each other (2 apart) it is plain avoidance.
    EXPECT_NE(diagnoseScene(sc, 0, 46).cls, DiagnosisClass::ShortHorizon);
    // With the suggested neighborDist they see each other in time.
    scene::Scene fixed = sc;
    fixed.agentDefaults.neighborDist = d.suggestedValue;
    EXPECT_NE(diagnoseScene(fixed, 0, 32).cls, DiagnosisClass::ShortHorizon);
}

// ---- goal-circling ------------------------------------------------------------------------

TEST(DiagnosisScenes, GoalCirclingAndTheSuggestedGoalRadius) {
    const scene::Scene sc = loadBundled("diag_goal_circling.json");
    Simulator sim = scene::buildSimulator(sc);
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 6);
    ASSERT_EQ(d.cls, DiagnosisClass::GoalCircling) << d.sentence;
    EXPECT_GT(d.suggestedValue, d.goalRadius);
    // It keeps hopping for good...
    Simulator stuck = scene::buildSimulator(sc);
    stuck.restore(sim.snapshot());
    EXPECT_EQ(stepsToGoals(stuck, 200), -1);
    EXPECT_EQ(diagnose(stuck, 0, {}).cls, DiagnosisClass::GoalCircling);
    // ...and with the suggested goalRadius it arrives within a couple of steps.
    const AgentId id = sim.agentIdAt(0);
    AgentDef def = sim.agent(id);
    def.params.goalRadius = d.suggestedValue;
    sim.setAgent(id, def);
    const int steps = stepsToGoals(sim, 10);
    EXPECT_GT(steps, 0);
    EXPECT_LE(steps, 3);
}

// ---- History --------------------------------------------------------------------------------

TEST(DiagnosisScenes, DiagnoseAtAHistoryStepEqualsStepping) {
    const scene::Scene sc = loadBundled("diag_crowd_pressure.json");
    Simulator sim = scene::buildSimulator(sc);
    History h;
    h.start(sim);
    for (int s = 0; s < 80; ++s) {
        sim.step();
        h.record(sim);
    }
    const Diagnosis got = diagnoseAt(h, 60, 0);
    const Diagnosis want = diagnoseScene(sc, 0, 60);
    EXPECT_EQ(got.cls, DiagnosisClass::CrowdPressure);
    EXPECT_EQ(got.sentence, want.sentence);
    EXPECT_EQ(got.lp3Fraction, want.lp3Fraction);
    EXPECT_EQ(got.meanSpeed, want.meanSpeed);
    EXPECT_EQ(got.responsibleAgents, want.responsibleAgents);
}

} // namespace
} // namespace orca
