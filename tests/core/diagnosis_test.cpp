// Diagnosis ("why?") on hand-built simulators: class names, the window, binding constraints
// with hand-checked numbers (LP2 and LP3), each class's rule on a minimal case and a near miss,
// purity, and the History path.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "orca/diagnosis.hpp"
#include "orca/history.hpp"
#include "orca/orca_lines.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

AgentDef mover(double x, double y, double gx, double gy) {
    AgentDef d;
    d.position = {x, y};
    d.hasGoal = true;
    d.goal = {gx, gy};
    d.params.radius = 1.0;
    d.params.maxSpeed = 2.0;
    d.params.prefSpeed = 1.0;
    return d;
}

AgentDef pillar(double x, double y, double radius = 1.0) {
    AgentDef d;
    d.position = {x, y};
    d.isStatic = true;
    d.params.radius = radius;
    return d;
}

TEST(DiagnosisNames, EveryClassHasItsFixedName) {
    const std::pair<DiagnosisClass, const char*> names[] = {
        {DiagnosisClass::None, "none"},
        {DiagnosisClass::SymmetricDeadlock, "symmetric-deadlock"},
        {DiagnosisClass::StaticWall, "static-wall"},
        {DiagnosisClass::ObstacleTrap, "obstacle-trap"},
        {DiagnosisClass::CrowdPressure, "crowd-pressure"},
        {DiagnosisClass::NeighborTruncation, "neighbor-truncation"},
        {DiagnosisClass::ShortHorizon, "short-horizon"},
        {DiagnosisClass::GoalCircling, "goal-circling"},
        {DiagnosisClass::BottleneckJam, "bottleneck-jam"},
        {DiagnosisClass::GroupDeadlock, "group-deadlock"},
    };
    static_assert(std::size(names) == kDiagnosisClassCount);
    for (const auto& [cls, name] : names) {
        EXPECT_EQ(toString(cls), name);
        EXPECT_EQ(diagnosisClassFromString(name), cls);
    }
    EXPECT_FALSE(diagnosisClassFromString("stalled").has_value());
}

TEST(DiagnosisWindow, IsTheCeilingOfWindowOverTimeStep) {
    auto steps = [](double dt, double window) {
        SimulationParams p;
        p.timeStep = dt;
        const Simulator sim(p);
        DiagnosisParams dp;
        dp.windowSeconds = window;
        return diagnosisWindowSteps(sim, dp);
    };
    EXPECT_EQ(steps(0.25, 2.0), 8u);
    EXPECT_EQ(steps(0.1, 2.0), 20u); // 2/0.1 is 20.000000000000004 in doubles
    EXPECT_EQ(steps(0.3, 2.0), 7u);  // 6.67 -> 7
    EXPECT_EQ(steps(2.5, 2.0), 1u);
    EXPECT_EQ(steps(0.25, 0.0), 0u);
}

// Agent 0 at the origin heads for +x at prefSpeed 1; a static agent of radius 1 sits 2.5 ahead.
// By hand (orca-spec 5): rp = (2.5, 0), rv = 0, R = 2, 1/τ = 0.5: w = rv − rp/τ = (−1.25, 0),
// w·rp = −3.125 < 0 and (w·rp)² = 9.77 > R²|w|² = 6.25: the cut-off circle case. ŵ = (−1, 0),
// d = (ŵ.y, −ŵ.x) = (0, 1), u = (R/τ − |w|)ŵ = (1 − 1.25)(−1, 0) = (0.25, 0). With
// staticResponsibility 1 the line passes through v + u = (0.25, 0): v_new = (0.25, 0).
Simulator wallCase() {
    SimulationParams sp;
    sp.staticResponsibility = 1.0;
    Simulator sim(sp);
    AgentDef a = mover(0, 0, 100, 0);
    a.params.timeHorizon = 2.0;
    sim.addAgent(a);
    sim.addAgent(pillar(2.5, 0));
    return sim;
}

TEST(DiagnosisBinding, TheActiveLineOfLp2WithHandCheckedNumbers) {
    const Simulator sim = wallCase();
    const Diagnosis d = diagnose(sim, 0, {});
    EXPECT_FALSE(d.lp3);
    EXPECT_NEAR(d.newVelocity.x, 0.25, 1e-12);
    EXPECT_NEAR(d.newVelocity.y, 0.0, 1e-12);
    ASSERT_EQ(d.binding.size(), 1u);
    const BindingConstraint& b = d.binding[0];
    EXPECT_EQ(b.lineIndex, 0u);
    EXPECT_EQ(b.source, ConstraintSource::Agent);
    ASSERT_TRUE(b.agent.has_value());
    EXPECT_EQ(*b.agent, 1u);
    EXPECT_TRUE(b.agentStatic);
    EXPECT_FALSE(b.obstacle.has_value());
    EXPECT_EQ(b.lineCase, LineCase::AgentCutoffCircle);
    EXPECT_NEAR(b.slack, 0.0, 1e-12);
    EXPECT_NEAR(b.line.point.x, 0.25, 1e-12);
    EXPECT_NEAR(b.line.point.y, 0.0, 1e-12);
    EXPECT_NEAR(b.line.direction.x, 0.0, 1e-12);
    EXPECT_NEAR(b.line.direction.y, 1.0, 1e-12);
    EXPECT_DOUBLE_EQ(b.distance, 2.5);
    EXPECT_TRUE(std::isinf(b.timeToCollision)); // rv = 0: never
    EXPECT_FALSE(d.speedLimitBinding);
    // progress 0.25 < 0.5: hindered, by a static agent.
    EXPECT_NEAR(d.progress, 0.25, 1e-12);
    EXPECT_EQ(d.cls, DiagnosisClass::StaticWall);
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{1});
    EXPECT_NE(d.sentence.find("static agent 1"), std::string::npos) << d.sentence;
    EXPECT_NE(d.suggestion.find("detour field"), std::string::npos) << d.suggestion;
}

TEST(DiagnosisBinding, LinesAtTheLp3DepthWithHandCheckedNumbers) {
    // Agent 0 overlaps two static agents 1.5 to its left and right (R = 2, Δt = 0.25). The
    // colliding case (orca-spec 5), right one: w = rv − rp/Δt = (−6, 0), ŵ = (−1, 0),
    // d = (0, 1), u = (R/Δt − |w|)ŵ = (8 − 6)(−1, 0) = (−2, 0): with responsibility 1 the line
    // is x <= −2. The left one mirrors it: x >= 2. No velocity satisfies both: LP3 takes the
    // middle, violating each by 2.
    SimulationParams sp;
    sp.staticResponsibility = 1.0;
    Simulator sim(sp);
    sim.addAgent(mover(0, 0, 0, 100));
    sim.addAgent(pillar(1.5, 0));
    sim.addAgent(pillar(-1.5, 0));
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_TRUE(d.lp3);
    EXPECT_NEAR(d.lp3Depth, 2.0, 1e-9);
    EXPECT_NEAR(d.newVelocity.x, 0.0, 1e-9);
    ASSERT_EQ(d.binding.size(), 2u);
    for (const BindingConstraint& b : d.binding) {
        EXPECT_EQ(b.lineCase, LineCase::AgentColliding);
        EXPECT_NEAR(b.slack, -2.0, 1e-9);
        EXPECT_DOUBLE_EQ(b.timeToCollision, 0.0); // overlapping
        EXPECT_TRUE(b.agentStatic);
    }
    EXPECT_EQ(*d.binding[0].agent, 1u); // nearest first; equal distance -> agent order
    EXPECT_EQ(*d.binding[1].agent, 2u);
    EXPECT_NEAR(d.binding[0].line.point.x, -2.0, 1e-12);
    EXPECT_NEAR(d.binding[1].line.point.x, 2.0, 1e-12);
    // One LP3 decision with no history: LP3 in 1 of 1 decisions.
    EXPECT_EQ(d.windowDecisions, 1u);
    EXPECT_DOUBLE_EQ(d.lp3Fraction, 1.0);
}

TEST(DiagnosisBinding, ObstacleLinesCarryObstacleIndexAndSegment) {
    // A thin wall x = 3 (obstacle 1) across the path, τo = 4, r = 1. The agent (on the right of
    // the wall's segment 1, (3, 5) -> (3, −5), unitDir (0, −1)) is nearest the cut-off line
    // (orca-spec 4): cL = (3, 5)/τo = (0.75, 1.25), d = −unitDir = (0, 1),
    // q = cL + (r/τo)·perp(d) = (0.75, 1.25) + 0.25·(−1, 0) = (0.5, 1.25): x <= 0.5.
    Simulator sim;
    sim.addObstacle(std::vector<Vec2>{{-10, 20}, {-12, 20}}); // obstacle 0, elsewhere
    sim.addObstacle(std::vector<Vec2>{{3, -5}, {3, 5}});      // obstacle 1
    AgentDef a = mover(0, 0, 10, 0);
    a.params.timeHorizonObst = 4.0;
    a.velocity = {1, 0};
    sim.addAgent(a);
    const Diagnosis d = diagnose(sim, 0, {});
    EXPECT_NEAR(d.newVelocity.x, 0.5, 1e-12);
    EXPECT_NEAR(d.newVelocity.y, 0.0, 1e-12);
    ASSERT_EQ(d.binding.size(), 1u);
    const BindingConstraint& b = d.binding.front();
    EXPECT_EQ(b.lineIndex, 0u);
    EXPECT_EQ(b.source, ConstraintSource::Obstacle);
    ASSERT_TRUE(b.obstacle.has_value());
    EXPECT_EQ(*b.obstacle, 1u);
    EXPECT_EQ(b.segment, 1u);
    EXPECT_FALSE(b.agent.has_value());
    EXPECT_EQ(b.lineCase, LineCase::ObstacleCutoffLine);
    EXPECT_NEAR(b.slack, 0.0, 1e-12);
    EXPECT_NEAR(b.line.point.x, 0.5, 1e-12);
    EXPECT_NEAR(b.line.point.y, 1.25, 1e-12);
    EXPECT_NEAR(b.line.direction.x, 0.0, 1e-12);
    EXPECT_NEAR(b.line.direction.y, 1.0, 1e-12);
    EXPECT_DOUBLE_EQ(b.distance, 3.0);
    EXPECT_NEAR(b.timeToCollision, 2.0, 1e-12); // (3 − r)/|v|
    // Progress 0.5 is not hindered: sliding to a slower speed in front of a wall is "none".
    EXPECT_EQ(d.cls, DiagnosisClass::None);
    EXPECT_EQ(d.responsibleObstacles, std::vector<std::uint32_t>{1});
}

TEST(DiagnosisPurity, DiagnosingChangesNothing) {
    SimulationParams sp;
    Simulator sim(sp);
    AgentDef a = mover(0, 0, 20, 0);
    a.params.maxNeighbors = 1; // triggers the truncation what-if
    sim.addAgent(a);
    sim.addAgent(mover(0, 2.5, 20, 2.5));
    sim.addAgent(pillar(4, 0.3, 0.5));
    for (int s = 0; s < 3; ++s)
        sim.step();
    const std::uint64_t hash = sim.stateHash();
    const std::vector<std::uint8_t> lp3(sim.lastStepLp3().begin(), sim.lastStepLp3().end());
    const ExplainRecord before = sim.explain(sim.agentIdAt(0));
    const Diagnosis d = diagnose(sim, 0, {});
    EXPECT_TRUE(d.truncationVelocity.has_value()); // the what-if ran
    EXPECT_EQ(sim.stateHash(), hash);
    EXPECT_EQ(sim.stepCount(), 3u);
    EXPECT_EQ(sim.agentParams()[0].maxNeighbors, 1);
    EXPECT_EQ(std::vector<std::uint8_t>(sim.lastStepLp3().begin(), sim.lastStepLp3().end()), lp3);
    const ExplainRecord after = sim.explain(sim.agentIdAt(0));
    EXPECT_EQ(after.newVelocity, before.newVelocity);
    // And stepping on gives the same bits as a simulator nobody diagnosed.
    Simulator twin;
    twin.restore(sim.snapshot());
    sim.step();
    twin.step();
    EXPECT_EQ(sim.stateHash(), twin.stateHash());
}

TEST(DiagnosisErrors, AgentIndexOutOfRangeThrows) {
    Simulator sim;
    sim.addAgent(mover(0, 0, 1, 0));
    EXPECT_THROW((void)diagnose(sim, 1, {}), InvalidArgument);
    EXPECT_THROW((void)diagnoseAfterSteps(sim, 5, 3), InvalidArgument);
    EXPECT_EQ(sim.stepCount(), 0u);
}

// ---- none ---------------------------------------------------------------------------------

TEST(DiagnosisNone, AloneAgentMovesAsPreferredAndStaticAgentsAreNone) {
    Simulator sim;
    sim.addAgent(mover(0, 0, 10, 0));
    sim.addAgent(pillar(0, 50));
    const Diagnosis d = diagnose(sim, 0, {});
    EXPECT_EQ(d.cls, DiagnosisClass::None);
    EXPECT_TRUE(d.binding.empty());
    EXPECT_DOUBLE_EQ(d.deviation, 0.0);
    EXPECT_DOUBLE_EQ(d.progress, 1.0);
    EXPECT_NE(d.sentence.find("moves as preferred"), std::string::npos) << d.sentence;
    EXPECT_EQ(d.suggestion, "Nothing to fix.");
    const Diagnosis s = diagnose(sim, 1, {});
    EXPECT_EQ(s.cls, DiagnosisClass::None);
    EXPECT_NE(s.sentence.find("static"), std::string::npos) << s.sentence;
}

TEST(DiagnosisNone, GivingWayWithProgressIsOrdinaryAvoidance) {
    // The wall case with the static agent 3 ahead instead of 2.5: v_new = (0.5, 0) by the same
    // construction (u = (1 − 1.5)(−1, 0)), progress 0.5 is not "hindered" (< 0.5).
    SimulationParams sp;
    sp.staticResponsibility = 1.0;
    Simulator sim(sp);
    AgentDef a = mover(0, 0, 100, 0);
    a.params.timeHorizon = 2.0;
    sim.addAgent(a);
    sim.addAgent(pillar(3, 0));
    const Diagnosis d = diagnose(sim, 0, {});
    EXPECT_NEAR(d.newVelocity.x, 0.5, 1e-12);
    EXPECT_EQ(d.cls, DiagnosisClass::None);
    EXPECT_NE(d.sentence.find("gives way to agent 1"), std::string::npos) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{1});
}

// ---- goal-circling ------------------------------------------------------------------------

TEST(DiagnosisGoalCircling, OvershootCycleWithHandCheckedPrediction) {
    // Δt = 2.5, prefSpeed 1 (< maxSpeed 2), goal at the origin, agent 0.3 short of it. Within
    // 1 of the goal x' = x + (0 − x)·2.5 = −1.5x: −0.3, 0.45, −0.675, 1.0125; beyond 1 the step
    // is ±2.5: −1.4875, 1.0125, −1.4875, ... It never comes within 0.1; the closest is 0.45,
    // and the suggestion is 1.05 × 0.45 = 0.4725 rounded up to two digits: 0.48.
    SimulationParams sp;
    sp.timeStep = 2.5;
    Simulator sim(sp);
    AgentDef a = mover(-0.3, 0, 0, 0);
    a.params.radius = 0.5;
    a.params.goalRadius = 0.1;
    sim.addAgent(a);
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_EQ(d.cls, DiagnosisClass::GoalCircling) << d.sentence;
    EXPECT_NEAR(d.predictedClosest, 0.45, 1e-12);
    EXPECT_NEAR(d.suggestedValue, 0.48, 1e-12);
    EXPECT_NE(d.sentence.find("overshoots"), std::string::npos) << d.sentence;
    EXPECT_NE(d.suggestion.find("goalRadius from 0.1 to 0.48"), std::string::npos) << d.suggestion;
    // The simulator agrees: with 0.1 it never arrives, with the suggested radius it does.
    Simulator run(sp);
    run.addAgent(a);
    for (int s = 0; s < 50; ++s) {
        run.step();
        EXPECT_FALSE(run.atGoalAt(0));
    }
    a.params.goalRadius = d.suggestedValue;
    Simulator fixed(sp);
    fixed.addAgent(a);
    fixed.step();
    EXPECT_TRUE(fixed.atGoalAt(0));
}

TEST(DiagnosisGoalCircling, StepsOverTheDiskButConvergesIsNotCircling) {
    // The rule of thumb "goalRadius < prefSpeed·Δt/2" would fire here (2·1.5/2 = 1.5 >
    // 0.5) but the agent arrives: 2.1 short of the goal it steps 3 (clamped to 2·1.5) to 0.9
    // past it, then −0.9·(1 − 1.5) ... x' = x − 1.5x = −0.45: inside 0.5 after two steps.
    SimulationParams sp;
    sp.timeStep = 1.5;
    Simulator sim(sp);
    AgentDef a = mover(-2.1, 0, 0, 0);
    a.params.prefSpeed = 2.0;
    a.params.maxSpeed = 2.0;
    a.params.goalRadius = 0.5;
    sim.addAgent(a);
    EXPECT_NE(diagnose(sim, 0, {}).cls, DiagnosisClass::GoalCircling);
    sim.step();
    EXPECT_NEAR(sim.positions()[0].x, 0.9, 1e-12);
    EXPECT_NE(diagnose(sim, 0, {}).cls, DiagnosisClass::GoalCircling);
    sim.step();
    EXPECT_NEAR(sim.positions()[0].x, -0.45, 1e-12);
    EXPECT_TRUE(sim.atGoalAt(0));
}

TEST(DiagnosisGoalCircling, ZeroGoalRadiusIsNeverReachedByTheGeometricApproach) {
    // Δt = 0.25: the remaining distance shrinks by 0.75 per step and never becomes exactly 0.
    Simulator sim;
    AgentDef a = mover(-0.5, 0, 0, 0);
    a.params.goalRadius = 0.0;
    sim.addAgent(a);
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_EQ(d.cls, DiagnosisClass::GoalCircling);
    EXPECT_NE(d.sentence.find("creeps"), std::string::npos) << d.sentence;
    // After max(window 8, 16) = 16 steps it is 0.5·0.75^16 = 0.00501 away: 1.05× rounds to 0.0053.
    EXPECT_NEAR(d.suggestedValue, 0.0053, 1e-15);
    // With a goal radius it gets there (0.5 · 0.75^k <= 0.01 from k = 14).
    a.params.goalRadius = 0.01;
    Simulator ok;
    ok.addAgent(a);
    EXPECT_NE(diagnose(ok, 0, {}).cls, DiagnosisClass::GoalCircling);
}

// ---- short-horizon ------------------------------------------------------------------------

TEST(DiagnosisShortHorizon, AnUnseenAgentWithinTau) {
    // neighborDist 2 < maxSpeed·τ = 10. Agent 1 is 6.02 away: unseen. rp = (6, 0.5), rv = (2, 0),
    // R = 2: |rp|² = 36.25, b = rp·rv = 12, a = 4, disc = b² − a(|rp|² − R²) = 144 − 4·32.25
    // = 15: contact in (12 − √15)/4 = 2.032 s < τ = 5. Suggested neighborDist: max(10,
    // |rv|τ + R = 12) = 12.
    Simulator sim;
    AgentDef a = mover(0, 0, 100, 0);
    a.velocity = {1, 0};
    a.params.neighborDist = 2.0;
    a.params.timeHorizon = 5.0;
    sim.addAgent(a);
    AgentDef b = mover(6, 0.5, -100, 0.5);
    b.velocity = {-1, 0};
    sim.addAgent(b);
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_EQ(d.cls, DiagnosisClass::ShortHorizon) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{1});
    EXPECT_DOUBLE_EQ(d.suggestedValue, 12.0);
    EXPECT_NE(d.sentence.find(" s, within τ = 5 s"), std::string::npos) << d.sentence;
    EXPECT_NE(d.sentence.find("touch in 2.03 s"), std::string::npos) << d.sentence;
    EXPECT_NE(d.suggestion.find("neighborDist from 2 to 12"), std::string::npos) << d.suggestion;
    // Near misses: the other agent is seen (neighborDist 7), or will not come within τ.
    Simulator seen;
    a.params.neighborDist = 7.0;
    seen.addAgent(a);
    seen.addAgent(b);
    EXPECT_NE(diagnose(seen, 0, {}).cls, DiagnosisClass::ShortHorizon);
    Simulator late;
    a.params.neighborDist = 2.0;
    b.position = {16, 0.5}; // contact in ~7 s
    late.addAgent(a);
    late.addAgent(b);
    EXPECT_NE(diagnose(late, 0, {}).cls, DiagnosisClass::ShortHorizon);
}

TEST(DiagnosisShortHorizon, AHorizonShorterThanTheStepWithAContactWithinIt) {
    // τ = 0.1 < Δt = 0.25. rp = (1.3, 0.3), rv = (2, 0), R = 1: |rp|² = 1.78, b = 2.6, a = 4,
    // disc = 6.76 − 4·0.78 = 3.64: contact in (2.6 − √3.64)/4 = 0.173 s < Δt.
    Simulator sim;
    AgentDef a = mover(0, 0, 100, 0);
    a.params.radius = 0.5;
    a.velocity = {1, 0};
    a.params.timeHorizon = 0.1;
    sim.addAgent(a);
    AgentDef b = mover(1.3, 0.3, -100, 0.3);
    b.params.radius = 0.5;
    b.velocity = {-1, 0};
    sim.addAgent(b);
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_EQ(d.cls, DiagnosisClass::ShortHorizon) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{1});
    EXPECT_NEAR(d.minTimeToCollision, (2.6 - std::sqrt(3.64)) / 4.0, 1e-12);
    EXPECT_DOUBLE_EQ(d.suggestedValue, 0.5); // two steps
    EXPECT_NE(d.sentence.find("about to touch agent 1"), std::string::npos) << d.sentence;
    EXPECT_NE(d.suggestion.find("timeHorizon from 0.1 to 0.5"), std::string::npos) << d.suggestion;
    // Near miss: the same contact with τ = Δt is not a horizon problem.
    a.params.timeHorizon = 0.25;
    Simulator ok;
    ok.addAgent(a);
    ok.addAgent(b);
    EXPECT_NE(diagnose(ok, 0, {}).cls, DiagnosisClass::ShortHorizon);
}

// ---- neighbor-truncation ------------------------------------------------------------------

TEST(DiagnosisTruncation, ADroppedStaticAgentConstrainsTheVelocity) {
    // maxNeighbors 1: the companion 2 to the side fills it; the pillar 3.01 ahead is dropped.
    Simulator sim;
    AgentDef a = mover(0, 0, 100, 0);
    a.params.radius = 0.5;
    a.velocity = {1, 0};
    a.params.maxNeighbors = 1;
    a.params.timeHorizon = 5.0;
    sim.addAgent(a);
    AgentDef c = mover(0, 2, 100, 2);
    c.params.radius = 0.5;
    c.velocity = {1, 0};
    sim.addAgent(c);
    sim.addAgent(pillar(3, 0.2, 0.5));
    const Diagnosis d = diagnose(sim, 0, {});
    ASSERT_EQ(d.cls, DiagnosisClass::NeighborTruncation) << d.sentence;
    EXPECT_EQ(d.neighborCount, 1u);
    EXPECT_EQ(d.agentsInRange, 2u);
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{2});
    EXPECT_DOUBLE_EQ(d.suggestedValue, 2.0);
    ASSERT_TRUE(d.truncationVelocity.has_value());
    // The what-if velocity is what a simulator with maxNeighbors 2 chooses.
    Simulator full;
    a.params.maxNeighbors = 2;
    full.addAgent(a);
    full.addAgent(c);
    full.addAgent(pillar(3, 0.2, 0.5));
    EXPECT_EQ(*d.truncationVelocity, full.explain(full.agentIdAt(0)).newVelocity);
    // The pillar's half-plane (a pure function of the pair) is violated by the actual v_new.
    const AgentLine line = agentOrcaLine(Vec2(3, 0.2), Vec2(1, 0), Vec2(1, 0), 1.0, 1.0 / 5.0,
                                         1.0 / 0.25, SimulationParams{}.staticResponsibility);
    EXPECT_GT(violation(line.line, d.newVelocity), 0.0);
    EXPECT_NE(d.suggestion.find("maxNeighbors from 1 to 2"), std::string::npos) << d.suggestion;
    // Near miss: with maxNeighbors 2 nothing is dropped.
    EXPECT_NE(diagnose(full, 0, {}).cls, DiagnosisClass::NeighborTruncation);
}

// ---- symmetric-deadlock -------------------------------------------------------------------

Simulator headOn(double goalOffset) {
    Simulator sim;
    AgentDef a = mover(-10, 0, 10, 0);
    a.params.timeHorizon = 5.0;
    sim.addAgent(a);
    AgentDef b = mover(10, 0, -10, goalOffset);
    b.params.timeHorizon = 5.0;
    sim.addAgent(b);
    return sim;
}

TEST(DiagnosisSymmetricDeadlock, AHeadOnMirrorPairStalls) {
    Simulator sim = headOn(0.0);
    const Diagnosis early = diagnoseAfterSteps(sim, 0, 10);
    EXPECT_EQ(early.cls, DiagnosisClass::None); // still walking
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 60);
    ASSERT_EQ(d.cls, DiagnosisClass::SymmetricDeadlock) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, std::vector<std::uint32_t>{1});
    EXPECT_LT(d.progress, 0.5);
    EXPECT_NE(d.sentence.find("mirror images"), std::string::npos);
    // The later agent's goal moves left of its heading (−x) by 10% of its radius: (−10, −0.1).
    ASSERT_TRUE(d.suggestedAgent.has_value());
    EXPECT_EQ(*d.suggestedAgent, 1u);
    ASSERT_TRUE(d.suggestedGoal.has_value());
    EXPECT_NEAR(d.suggestedGoal->x, -10.0, 1e-9);
    EXPECT_NEAR(d.suggestedGoal->y, -0.1, 1e-9);
    // Agent 1 sees the same deadlock with agent 0.
    EXPECT_EQ(diagnose(sim, 1, {}).cls, DiagnosisClass::SymmetricDeadlock);
}

TEST(DiagnosisSymmetricDeadlock, ANonMirrorPairIsNot) {
    // Agent 1 aims 3 units off the line: its v_pref is 8.5° from the mirror of agent 0's.
    Simulator sim = headOn(-3.0);
    for (int s = 0; s < 120; ++s) {
        const Diagnosis d = diagnoseAfterSteps(sim, 0, 1);
        ASSERT_NE(d.cls, DiagnosisClass::SymmetricDeadlock)
            << "step " << d.step << ": " << d.sentence;
    }
}

// ---- crowd-pressure -----------------------------------------------------------------------

/// Agent 0 overlapping two agents 1.5 to its left and right that stand still (no goal, zero
/// prefVelocity): as in the LP3 case above, but they are moving agents, so with responsibility
/// 0.5 the lines are x <= −1 and x >= 1 and LP3 violates each by 1.
Simulator squeezed(bool staticNeighbours) {
    SimulationParams sp;
    sp.staticResponsibility = 0.5;
    Simulator sim(sp);
    sim.addAgent(mover(0, 0, 0, 100));
    for (double x : {1.5, -1.5}) {
        AgentDef n = staticNeighbours ? pillar(x, 0) : mover(x, 0, 0, 0);
        n.hasGoal = false;
        sim.addAgent(n);
    }
    return sim;
}

TEST(DiagnosisCrowdPressure, Lp3InMoreThanHalfOfTheWindow) {
    const Simulator sim = squeezed(false);
    std::vector<AgentSample> recent(8);
    for (std::size_t k = 0; k < 5; ++k)
        recent[k].lp3 = true;
    const Diagnosis d = diagnose(sim, 0, recent);
    ASSERT_TRUE(d.lp3);
    EXPECT_NEAR(d.lp3Depth, 1.0, 1e-9);
    EXPECT_EQ(d.windowDecisions, 9u);
    EXPECT_NEAR(d.lp3Fraction, 6.0 / 9.0, 1e-15); // 5 of 8 samples, plus now
    ASSERT_EQ(d.cls, DiagnosisClass::CrowdPressure) << d.sentence;
    EXPECT_EQ(d.responsibleAgents, (std::vector<std::uint32_t>{1, 2}));
    EXPECT_NE(d.sentence.find("in 6 of its last 9 decisions (67%)"), std::string::npos)
        << d.sentence;
    EXPECT_NE(d.sentence.find("agents 1 and 2 most, by 1"), std::string::npos) << d.sentence;
    // Near miss: LP3 in 3 of 8 samples plus now = 4/9, not more than half.
    std::vector<AgentSample> fewer(8);
    for (std::size_t k = 0; k < 3; ++k)
        fewer[k].lp3 = true;
    const Diagnosis n = diagnose(sim, 0, fewer);
    EXPECT_NEAR(n.lp3Fraction, 4.0 / 9.0, 1e-15);
    EXPECT_NE(n.cls, DiagnosisClass::CrowdPressure);
    // Only the window counts: of 20 samples only the newest 8 (all LP3) are used.
    std::vector<AgentSample> longer(20);
    for (std::size_t k = 12; k < 20; ++k)
        longer[k].lp3 = true;
    EXPECT_DOUBLE_EQ(diagnose(sim, 0, longer).lp3Fraction, 1.0);
}

TEST(DiagnosisPrecedence, StaticWallComesBeforeCrowdPressure) {
    // The same squeeze by static agents, LP3 throughout the window: both rules hold, the more
    // specific one (static-wall, with its own fix) is reported.
    const Simulator sim = squeezed(true);
    std::vector<AgentSample> recent(8);
    for (AgentSample& s : recent)
        s.lp3 = true;
    const Diagnosis d = diagnose(sim, 0, recent);
    EXPECT_GT(d.lp3Fraction, 0.5);
    EXPECT_LT(d.progress, 0.5);
    EXPECT_EQ(d.cls, DiagnosisClass::StaticWall) << d.sentence;
}

// ---- obstacle-trap ------------------------------------------------------------------------

SimulationParams tenthSecond() {
    SimulationParams p;
    p.timeStep = 0.1;
    return p;
}

TEST(DiagnosisObstacleTrap, APocketAndAWaypointRoundIt) {
    // A cup open toward −x; the goal is behind its back wall.
    Simulator sim(tenthSecond());
    sim.addObstacle(std::vector<Vec2>{
        {-1, -2.5}, {3.5, -2.5}, {3.5, 2.5}, {-1, 2.5}, {-1, 2}, {3, 2}, {3, -2}, {-1, -2}});
    AgentDef a = mover(2.3, 0.2, 10, 0.2);
    a.params.radius = 0.5;
    a.params.timeHorizonObst = 2.0;
    sim.addAgent(a);
    const Diagnosis d = diagnoseAfterSteps(sim, 0, 40);
    ASSERT_EQ(d.cls, DiagnosisClass::ObstacleTrap) << d.sentence;
    EXPECT_EQ(d.responsibleObstacles, std::vector<std::uint32_t>{0});
    EXPECT_NE(d.sentence.find("concave pocket"), std::string::npos) << d.sentence;
    ASSERT_FALSE(d.waypoints.empty());
    // The first waypoint is in front of the mouth (x < −1), pushed out from an arm's tip.
    EXPECT_LT(d.waypoints.front().x, -1.0);
    // Near miss: the same agent with its goal inside the cup is not trapped.
    Simulator inside(tenthSecond());
    inside.addObstacle(sim.obstacleVertices(sim.obstacleIdAt(0)));
    a.goal = {2.3, 0.2};
    a.position = {-6, 0.2};
    inside.addAgent(a);
    for (int s = 0; s < 120; ++s)
        ASSERT_NE(diagnoseAfterSteps(inside, 0, 1).cls, DiagnosisClass::ObstacleTrap);
}

// ---- The window and the History path ------------------------------------------------------

TEST(DiagnosisSteps, AfterStepsIsPlainSteppingPlusTheWindow) {
    Simulator a = headOn(0.0);
    Simulator b = headOn(0.0);
    const Diagnosis d = diagnoseAfterSteps(a, 0, 30);
    for (int s = 0; s < 30; ++s)
        b.step();
    EXPECT_EQ(a.stateHash(), b.stateHash());
    EXPECT_EQ(d.step, 30u);
    EXPECT_EQ(d.windowDecisions, 9u); // 8 samples (2 s at 0.25 s) + the diagnosed decision
    EXPECT_EQ(d.record.newVelocity, b.explain(b.agentIdAt(0)).newVelocity);
    EXPECT_TRUE(std::isfinite(d.meanSpeed));
}

TEST(DiagnosisHistory, DiagnoseAtEqualsDiagnosingAfterTheSameSteps) {
    Simulator sim = headOn(0.0);
    History h;
    h.start(sim);
    for (int s = 0; s < 90; ++s) {
        sim.step();
        h.record(sim);
    }
    for (std::uint64_t step : {0u, 5u, 60u, 90u}) {
        SCOPED_TRACE(step);
        Simulator fresh = headOn(0.0);
        const Diagnosis want = diagnoseAfterSteps(fresh, 0, step);
        const Diagnosis got = diagnoseAt(h, step, 0);
        EXPECT_EQ(got.step, step);
        EXPECT_EQ(got.cls, want.cls);
        EXPECT_EQ(got.sentence, want.sentence);
        EXPECT_EQ(got.suggestion, want.suggestion);
        EXPECT_EQ(got.windowDecisions, want.windowDecisions);
        EXPECT_TRUE(got.meanSpeed == want.meanSpeed ||
                    (std::isnan(got.meanSpeed) && std::isnan(want.meanSpeed)));
        EXPECT_EQ(got.newVelocity, want.newVelocity);
        ASSERT_EQ(got.binding.size(), want.binding.size());
        for (std::size_t k = 0; k < got.binding.size(); ++k)
            EXPECT_EQ(got.binding[k].slack, want.binding[k].slack);
    }
    // Beyond the recording: clamped to its last step.
    EXPECT_EQ(diagnoseAt(h, 500, 0).step, 90u);
    EXPECT_THROW((void)diagnoseAt(h, 10, 2), InvalidArgument);
    EXPECT_THROW((void)diagnoseAt(History{}, 0, 0), std::logic_error);
}

} // namespace
} // namespace orca
