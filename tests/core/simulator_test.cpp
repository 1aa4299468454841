// The Simulator: ids, agents, obstacles, goal seeking, explain, determinism.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"

namespace orca {
namespace {

AgentDef at(double x, double y) {
    AgentDef d;
    d.position = {x, y};
    return d;
}
AgentDef toward(double x, double y, double gx, double gy) {
    AgentDef d = at(x, y);
    d.hasGoal = true;
    d.goal = {gx, gy};
    return d;
}

TEST(SimulatorIds, GenerationalIdsSurviveRemoval) {
    Simulator sim;
    const AgentId a = sim.addAgent(at(0, 0));
    const AgentId b = sim.addAgent(at(10, 0));
    const AgentId c = sim.addAgent(at(20, 0));
    EXPECT_TRUE(sim.removeAgent(b));
    EXPECT_FALSE(sim.contains(b));
    EXPECT_FALSE(sim.removeAgent(b)); // twice: refused
    ASSERT_EQ(sim.agentCount(), 2u);
    // Order of the rest is kept and ids still address the same agents.
    EXPECT_EQ(sim.agentIdAt(0), a);
    EXPECT_EQ(sim.agentIdAt(1), c);
    EXPECT_EQ(sim.position(c), Vec2(20.0, 0.0));
    EXPECT_EQ(*sim.indexOf(c), 1u);
    // The freed slot is reused with a new generation: the old id stays invalid.
    const AgentId d = sim.addAgent(at(30, 0));
    EXPECT_EQ(d.slot, b.slot);
    EXPECT_NE(d.generation, b.generation);
    EXPECT_FALSE(sim.contains(b));
    EXPECT_TRUE(sim.contains(d));
    EXPECT_EQ(sim.position(d), Vec2(30.0, 0.0));
    EXPECT_THROW((void)sim.position(b), InvalidArgument);
}

TEST(SimulatorIds, RejectsInvalidParameters) {
    Simulator sim;
    AgentDef d = at(0, 0);
    d.params.radius = 0.0;
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = at(0, 0);
    d.params.maxSpeed = -1.0;
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = at(std::nan(""), 0);
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = at(0, 0);
    d.params.timeHorizon = 0.0;
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    d = at(0, 0);
    d.params.maxNeighbors = -2;
    EXPECT_THROW(sim.addAgent(d), InvalidArgument);
    EXPECT_EQ(sim.agentCount(), 0u);
    SimulationParams p;
    p.timeStep = 0.0;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
    p = {};
    p.responsibility = 1.5;
    EXPECT_THROW(sim.setParams(p), InvalidArgument);
}

TEST(Simulator, GoalSeekingClampsToPreferredSpeed) {
    Simulator sim;
    AgentDef far = toward(0, 0, 30, 40); // 50 away
    far.params.prefSpeed = 1.5;
    const AgentId a = sim.addAgent(far);
    EXPECT_NEAR(sim.prefVelocity(a).x, 0.9, 1e-15); // (30,40)/50 * 1.5
    EXPECT_NEAR(sim.prefVelocity(a).y, 1.2, 1e-15);
    const AgentId b = sim.addAgent(toward(100, 0, 100.3, 0.4)); // 0.5 away, prefSpeed 1
    EXPECT_NEAR(sim.prefVelocity(b).x, 0.3, 1e-12);
    EXPECT_NEAR(sim.prefVelocity(b).y, 0.4, 1e-12);
    AgentDef constant = at(200, 0);
    constant.prefVelocity = {0.5, 0.25};
    EXPECT_EQ(sim.prefVelocity(sim.addAgent(constant)), Vec2(0.5, 0.25));
}

TEST(Simulator, LoneAgentWalksStraightToItsGoalAndStops) {
    // prefSpeed 1, Δt 0.25: 0.25 per step until 1 unit away, then v_pref = goal - p (RVO2's
    // rule) so the remaining distance shrinks by a quarter per step, never overshooting.
    Simulator sim;
    const AgentId a = sim.addAgent(toward(0, 0, 10, 0));
    for (int i = 0; i < 33; ++i)
        sim.step();
    EXPECT_EQ(sim.position(a), Vec2(8.25, 0.0));
    EXPECT_FALSE(sim.atGoal(a)); // 1.75 away, goal radius = radius 1.5
    sim.step();
    EXPECT_EQ(sim.position(a), Vec2(8.5, 0.0));
    EXPECT_TRUE(sim.atGoal(a));
    EXPECT_TRUE(sim.allAtGoal());
    for (int i = 0; i < 3; ++i)
        sim.step();
    EXPECT_EQ(sim.position(a), Vec2(9.25, 0.0));
    sim.step();
    EXPECT_EQ(sim.position(a), Vec2(9.4375, 0.0)); // 0.75 * 0.25 further
    for (int i = 0; i < 100; ++i)
        sim.step();
    EXPECT_LE(sim.position(a).x, 10.0);
    EXPECT_GT(sim.position(a).x, 9.999);
    EXPECT_NEAR(sim.time(), 138 * 0.25, 1e-12);
    EXPECT_EQ(sim.stepCount(), 138u);
}

TEST(Simulator, GoalRadiusDefaultsToTheAgentRadius) {
    Simulator sim;
    AgentDef d = toward(0, 0, 1.4, 0); // 1.4 < radius 1.5
    const AgentId a = sim.addAgent(d);
    EXPECT_TRUE(sim.atGoal(a));
    d.params.goalRadius = 1.0;
    sim.setAgent(a, d);
    EXPECT_FALSE(sim.atGoal(a));
}

TEST(Simulator, ObstacleClearanceIsNegativeForACentreInsideAPolygonOnly) {
    // Square [0,4]² (counter-clockwise), agents of radius 0.5. Inside at (2, 1): nearest edge
    // 1 away, so clearance -(1 + 0.5). Outside at (6, 2): 2 - 0.5. A thin segment has no
    // inside: (2, 1) is 6 above [(0, -5), (4, -5)], so 6 - 0.5.
    std::vector<Vec2> square{{0.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}, {0.0, 4.0}};
    AgentDef d;
    d.params.radius = 0.5;
    {
        Simulator sim;
        sim.addObstacle(square);
        d.position = {6.0, 2.0};
        sim.addAgent(d);
        EXPECT_DOUBLE_EQ(sim.clearance().minObstacleClearance, 1.5);
        d.position = {2.0, 1.0};
        sim.addAgent(d);
        EXPECT_DOUBLE_EQ(sim.clearance().minObstacleClearance, -1.5);
    }
    {
        Simulator sim;
        const std::vector<Vec2> segment{{0.0, -5.0}, {4.0, -5.0}};
        sim.addObstacle(segment);
        d.position = {2.0, 1.0};
        sim.addAgent(d);
        EXPECT_DOUBLE_EQ(sim.clearance().minObstacleClearance, 5.5);
    }
}

TEST(Simulator, StaticAgentsNeverMoveAndAreSeenStill) {
    Simulator sim;
    AgentDef s = at(5, 0);
    s.isStatic = true;
    s.velocity = {3.0, 3.0}; // ignored for a static agent
    const AgentId still = sim.addAgent(s);
    const AgentId mover = sim.addAgent(toward(0, 0.5, 10, 0.5));
    EXPECT_EQ(sim.velocity(still), Vec2(0.0, 0.0));
    for (int i = 0; i < 100; ++i)
        sim.step();
    EXPECT_EQ(sim.position(still), Vec2(5.0, 0.0));
    EXPECT_EQ(sim.velocity(still), Vec2(0.0, 0.0));
    // The mover sees a neighbour with velocity zero and steps around it (off its line).
    const ExplainRecord r = sim.explain(still);
    EXPECT_TRUE(r.isStatic);
    EXPECT_TRUE(r.lines.empty());
    for (int i = 0; i < 100; ++i)
        sim.step();
    EXPECT_TRUE(sim.atGoal(mover));
}

TEST(Simulator, StaticAgentStallsAnExactlyAlignedMover) {
    // Perfect symmetry: heading straight at a static agent, ORCA gives no sideways push, and
    // the mover stops in front of it (the stall the detour field addresses).
    Simulator sim;
    AgentDef s = at(5, 0);
    s.isStatic = true;
    sim.addAgent(s);
    const AgentId mover = sim.addAgent(toward(0, 0, 10, 0));
    for (int i = 0; i < 400; ++i)
        sim.step();
    // It creeps toward contact (centres 3 apart, x = 2) without ever reaching it.
    EXPECT_EQ(sim.position(mover).y, 0.0);
    EXPECT_LT(sim.position(mover).x, 2.0);
    EXPECT_GT(sim.position(mover).x, 1.99);
    EXPECT_LT(length(sim.velocity(mover)), 1e-4);
    EXPECT_FALSE(sim.atGoal(mover));
}

TEST(Simulator, HeadOnPairPassesWithoutOverlapWhenSlightlyOffset) {
    Simulator sim;
    const AgentId a = sim.addAgent(toward(-10, 0.01, 10, 0.01));
    const AgentId b = sim.addAgent(toward(10, -0.01, -10, -0.01));
    double minGap = 1e9;
    for (int i = 0; i < 200; ++i) {
        sim.step();
        minGap = std::min(minGap, length(sim.position(a) - sim.position(b)) - 3.0);
    }
    EXPECT_GE(minGap, -1e-9);
    EXPECT_TRUE(sim.allAtGoal());
}

TEST(Simulator, MaxNeighborsZeroIgnoresOtherAgents) {
    Simulator sim;
    AgentDef d = toward(-10, 0, 10, 0);
    d.params.maxNeighbors = 0;
    const AgentId a = sim.addAgent(d);
    sim.addAgent(at(0, 0));
    const ExplainRecord r = sim.explain(a);
    EXPECT_TRUE(r.agentNeighbors.empty());
    EXPECT_TRUE(r.lines.empty());
    EXPECT_EQ(r.newVelocity, Vec2(1.0, 0.0));
}

TEST(Simulator, NeighboursAreTheNearestInOrder) {
    Simulator sim;
    AgentDef self = at(0, 0);
    self.params.maxNeighbors = 3;
    self.params.neighborDist = 10.0;
    const AgentId a = sim.addAgent(self);
    const AgentId n4 = sim.addAgent(at(4, 0));
    const AgentId n2 = sim.addAgent(at(0, 2));
    sim.addAgent(at(9, 0)); // beyond the 3 nearest
    const AgentId n3a = sim.addAgent(at(-3, 0));
    sim.addAgent(at(0, 10)); // exactly neighborDist: excluded (strict)
    const ExplainRecord r = sim.explain(a);
    ASSERT_EQ(r.agentNeighbors.size(), 3u);
    EXPECT_EQ(r.agentNeighbors[0].id, n2);
    EXPECT_EQ(r.agentNeighbors[1].id, n3a);
    EXPECT_EQ(r.agentNeighbors[2].id, n4);
    EXPECT_DOUBLE_EQ(r.agentNeighbors[2].distSq, 16.0);
    // Equal distances: agent order decides.
    const AgentId tie = sim.addAgent(at(0, -2));
    const ExplainRecord r2 = sim.explain(a);
    EXPECT_EQ(r2.agentNeighbors[0].id, n2);
    EXPECT_EQ(r2.agentNeighbors[1].id, tie);
}

TEST(Simulator, ExplainIsADryRunMatchingTheStep) {
    Simulator sim;
    for (int i = 0; i < 8; ++i) {
        const double a = i * 0.785398163;
        sim.addAgent(toward(6 * std::cos(a), 6 * std::sin(a), -6 * std::cos(a), -6 * std::sin(a)));
    }
    const std::vector<Vec2> wall{{-1.0, -8.0}, {1.0, -8.0}, {1.0, -7.0}, {-1.0, -7.0}};
    sim.addObstacle(wall);
    for (int s = 0; s < 10; ++s)
        sim.step();
    const std::uint64_t before = sim.stateHash();
    const AgentId id = sim.agentIdAt(3);
    const ExplainRecord dry = sim.explain(id);
    EXPECT_EQ(sim.stateHash(), before); // nothing changed
    EXPECT_EQ(sim.stepCount(), 10u);
    EXPECT_EQ(dry.step, 10u);

    // The batch dry run gives the same records (and skips invalid ids).
    const std::vector<AgentId> batchIds{sim.agentIdAt(0), AgentId{9999, 0}, id};
    const std::vector<ExplainRecord> batch = sim.explain(batchIds);
    ASSERT_EQ(batch.size(), 2u);
    EXPECT_EQ(batch[1].newVelocity, dry.newVelocity);
    EXPECT_EQ(batch[1].lines.size(), dry.lines.size());
    EXPECT_EQ(sim.stateHash(), before);

    std::vector<ExplainRecord> out;
    const std::vector<AgentId> want{id};
    sim.step(want, out);
    ASSERT_EQ(out.size(), 1u);
    EXPECT_EQ(out[0].newVelocity, dry.newVelocity);
    EXPECT_EQ(sim.velocity(id), dry.newVelocity); // bit-identical to what the step applied
    ASSERT_EQ(out[0].lines.size(), dry.lines.size());
    for (std::size_t k = 0; k < dry.lines.size(); ++k) {
        EXPECT_EQ(out[0].lines[k].line.point, dry.lines[k].line.point);
        EXPECT_EQ(out[0].lines[k].lineCase, dry.lines[k].lineCase);
    }
}

TEST(Simulator, ExplainRecordDescribesTheDecision) {
    // Two agents approaching head-on, slightly offset: one agent line (a leg or the
    // cut-off), u from the relative velocity, a feasible region containing v_new.
    Simulator sim;
    AgentDef a = toward(-5, 0.2, 5, 0.2);
    a.velocity = {1.0, 0.0};
    AgentDef b = toward(5, -0.2, -5, -0.2);
    b.velocity = {-1.0, 0.0};
    const AgentId ia = sim.addAgent(a);
    const AgentId ib = sim.addAgent(b);
    const ExplainRecord r = sim.explain(ia);
    EXPECT_EQ(r.agent, ia);
    EXPECT_EQ(r.velocity, Vec2(1.0, 0.0));
    EXPECT_EQ(r.prefVelocity, Vec2(1.0, 0.0));
    ASSERT_EQ(r.agentNeighbors.size(), 1u);
    EXPECT_EQ(r.agentNeighbors[0].id, ib);
    ASSERT_EQ(r.lines.size(), 1u);
    EXPECT_EQ(r.numObstacleLines, 0u);
    const ExplainLine& l = r.lines[0];
    EXPECT_EQ(l.otherAgent, ib);
    EXPECT_EQ(l.relativeVelocity, Vec2(2.0, 0.0));
    // The line passes through v + u/2.
    EXPECT_NEAR(det(l.line.direction, l.line.point - (r.velocity + 0.5 * l.u)), 0.0, 1e-12);
    EXPECT_NEAR(l.distance, std::sqrt(100.0 + 0.16), 1e-12);
    // Closing at 2 units/s from 10.008 apart with R = 3: about 3.5 s to contact.
    EXPECT_GT(l.timeToCollision, 3.0);
    EXPECT_LT(l.timeToCollision, 4.0);
    EXPECT_FALSE(r.lp2Failed());
    EXPECT_FALSE(r.lp3Ran);
    EXPECT_LE(l.violation, 1e-12);
    EXPECT_FALSE(r.feasibleRegion.empty());
    EXPECT_LE(length(r.newVelocity), r.params.maxSpeed);
    // The VO is centred on rp/τ with radius R/τ and translated by v_B.
    EXPECT_NEAR(l.vo.cutoffCenter.x, 1.0, 1e-12);
    EXPECT_NEAR(l.vo.cutoffRadius, 0.3, 1e-12);
    EXPECT_EQ(l.vo.offset, Vec2(-1.0, 0.0));
}

TEST(Simulator, ExplainLinesRecordTheShareOfU) {
    // responsibility 0.75 toward agents, staticResponsibility 1 toward static agents, and 1
    // for obstacle lines: each line records the share it was built with and passes through
    // v + share * u.
    SimulationParams params;
    params.responsibility = 0.75;
    params.staticResponsibility = 1.0;
    Simulator sim(params);
    AgentDef a = toward(-5, 0.2, 5, 0.2);
    a.velocity = {1.0, 0.0};
    AgentDef b = toward(5, -0.2, -5, -0.2);
    b.velocity = {-1.0, 0.0};
    AgentDef wall = at(0, -4);
    wall.isStatic = true;
    const AgentId ia = sim.addAgent(a);
    const AgentId ib = sim.addAgent(b);
    const AgentId is = sim.addAgent(wall);
    sim.addObstacle(std::vector<Vec2>{{-2.0, 3.0}, {2.0, 3.0}, {2.0, 4.0}, {-2.0, 4.0}});
    const ExplainRecord r = sim.explain(ia);
    ASSERT_GE(r.numObstacleLines, 1u);
    bool sawAgent = false;
    bool sawStatic = false;
    for (std::size_t k = 0; k < r.lines.size(); ++k) {
        const ExplainLine& l = r.lines[k];
        if (k < r.numObstacleLines) {
            EXPECT_EQ(l.share, 1.0);
            EXPECT_FALSE(l.otherStatic);
            continue;
        }
        if (l.otherAgent == ib) {
            sawAgent = true;
            EXPECT_EQ(l.share, 0.75);
            EXPECT_FALSE(l.otherStatic);
        } else if (l.otherAgent == is) {
            sawStatic = true;
            EXPECT_EQ(l.share, 1.0);
            EXPECT_TRUE(l.otherStatic);
        }
        EXPECT_NEAR(det(l.line.direction, l.line.point - (r.velocity + l.share * l.u)), 0.0, 1e-12);
    }
    EXPECT_TRUE(sawAgent);
    EXPECT_TRUE(sawStatic);
    // The default is RVO2's reciprocal half.
    EXPECT_EQ(Simulator{}.params().responsibility, ExplainLine{}.share);
}

TEST(Simulator, InfeasibleCrowdRunsLP3AndReportsIt) {
    // An agent boxed in by four overlapping neighbours closing in: its region is empty.
    Simulator sim;
    const AgentId centre = sim.addAgent(at(0, 0));
    for (Vec2 p : {Vec2(2.5, 0), Vec2(-2.5, 0), Vec2(0, 2.5), Vec2(0, -2.5)}) {
        AgentDef d = at(p.x, p.y);
        d.velocity = -p * 0.8; // all rushing at the centre
        sim.addAgent(d);
    }
    const ExplainRecord r = sim.explain(centre);
    EXPECT_TRUE(r.lp2Failed());
    EXPECT_TRUE(r.lp3Ran);
    EXPECT_GT(r.lp3Depth, 0.0);
    EXPECT_TRUE(r.feasibleRegion.empty());
    std::vector<ExplainRecord> out;
    sim.step(std::vector<AgentId>{centre}, out);
    EXPECT_GE(sim.lastStepStats().lp3Agents, 1u);
}

TEST(Simulator, ObstaclesCanBeAddedAndRemoved) {
    // An agent walking at a wall stops in front of it; without the wall it walks through.
    const std::vector<Vec2> wall{{5.0, -10.0}, {6.0, -10.0}, {6.0, 10.0}, {5.0, 10.0}};
    Simulator sim;
    const AgentId a = sim.addAgent(toward(0, 0, 20, 0));
    const ObstacleId w = sim.addObstacle(wall);
    EXPECT_EQ(sim.obstacleCount(), 1u);
    for (int i = 0; i < 200; ++i)
        sim.step();
    EXPECT_LT(sim.position(a).x, 5.0 - 1.5 + 1e-6);
    const ClearanceStats c = sim.clearance();
    EXPECT_GE(c.minObstacleClearance, -1e-9);
    EXPECT_TRUE(sim.removeObstacle(w));
    EXPECT_FALSE(sim.contains(w));
    EXPECT_EQ(sim.obstacleCount(), 0u);
    for (int i = 0; i < 200; ++i)
        sim.step();
    EXPECT_TRUE(sim.atGoal(a));
}

TEST(Simulator, RejectsClockwiseAndBrokenObstacles) {
    Simulator sim;
    const std::vector<Vec2> cw{{0.0, 0.0}, {0.0, 4.0}, {4.0, 4.0}, {4.0, 0.0}};
    EXPECT_THROW(sim.addObstacle(cw), InvalidArgument);
    const std::vector<Vec2> one{{0.0, 0.0}};
    EXPECT_THROW(sim.addObstacle(one), InvalidArgument);
    EXPECT_EQ(sim.obstacleCount(), 0u);
    // A batch is all or nothing.
    const std::vector<Vec2> ccw(cw.rbegin(), cw.rend());
    const std::vector<std::vector<Vec2>> mixed{ccw, one};
    EXPECT_THROW(sim.addObstacles(mixed), InvalidArgument);
    EXPECT_EQ(sim.obstacleCount(), 0u);
    const std::vector<std::vector<Vec2>> good{ccw, {{10.0, 0.0}, {12.0, 0.0}}};
    const std::vector<ObstacleId> ids = sim.addObstacles(good);
    ASSERT_EQ(ids.size(), 2u);
    EXPECT_EQ(sim.obstacleCount(), 2u);
    EXPECT_EQ(sim.obstacleVertexData().size(), 6u);
    EXPECT_EQ(sim.obstacleVertices(ids[1]).size(), 2u);
}

TEST(Simulator, CoincidentAgentsSeparateWithoutNaN) {
    Simulator sim;
    const AgentId a = sim.addAgent(at(1, 1));
    const AgentId b = sim.addAgent(at(1, 1));
    for (int i = 0; i < 20; ++i)
        sim.step();
    for (AgentId id : {a, b}) {
        EXPECT_TRUE(std::isfinite(sim.position(id).x) && std::isfinite(sim.position(id).y));
    }
    EXPECT_GT(length(sim.position(a) - sim.position(b)), 2.0);
}

TEST(Simulator, ClearanceMeasuresOverlapsAndObstacles) {
    Simulator sim;
    sim.addAgent(at(0, 0));
    sim.addAgent(at(2, 0)); // radius 1.5 each: overlap 1
    sim.addAgent(at(50, 0));
    const std::vector<Vec2> box{{10.0, -1.0}, {12.0, -1.0}, {12.0, 1.0}, {10.0, 1.0}};
    sim.addObstacle(box);
    sim.addAgent(at(11, 0)); // centre inside the box: 1 from the edges, radius 1.5
    const ClearanceStats c = sim.clearance();
    EXPECT_DOUBLE_EQ(c.minAgentClearance, -1.0);
    EXPECT_EQ(c.overlappingPairs, 1u);
    EXPECT_DOUBLE_EQ(c.minObstacleClearance, -2.5);
}

TEST(Simulator, RemovingAnAgentMidRunKeepsTheOthersConsistent) {
    Simulator sim;
    std::vector<AgentId> ids;
    for (int i = 0; i < 10; ++i)
        ids.push_back(sim.addAgent(toward(i * 4.0, 0, i * 4.0, 40)));
    for (int s = 0; s < 5; ++s)
        sim.step();
    const Vec2 p7 = sim.position(ids[7]);
    sim.removeAgent(ids[3]);
    EXPECT_EQ(sim.position(ids[7]), p7);
    for (int s = 0; s < 5; ++s)
        sim.step();
    EXPECT_EQ(sim.agentCount(), 9u);
    EXPECT_TRUE(sim.explain(ids[9]).agentNeighbors.size() <= 10u);
}

} // namespace
} // namespace orca
