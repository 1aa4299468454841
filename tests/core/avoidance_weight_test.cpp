// Avoidance weights (AgentParams::avoidanceWeight): in a pair of moving agents, A takes
// 2·responsibility·w_A / (w_A + w_B) of u, at most 1; equal weights give responsibility
// exactly (so weights 1 change no bit); a weight of 0 never yields to a positive weight; a
// static neighbour keeps staticResponsibility.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace orca {
namespace {

/// Two agents approaching head-on with a small offset (so they can pass), weights wa and wb.
Simulator pair(double wa, double wb, double responsibility = 0.5) {
    Simulator sim;
    SimulationParams params = sim.params();
    params.responsibility = responsibility;
    sim.setParams(params);
    AgentDef a;
    a.position = {-6.0, 0.0};
    a.velocity = {1.0, 0.0};
    a.prefVelocity = {1.0, 0.0};
    a.params.radius = 1.0;
    a.params.timeHorizon = 5.0;
    a.params.avoidanceWeight = wa;
    AgentDef b = a;
    b.position = {6.0, 0.4};
    b.velocity = {-1.0, 0.0};
    b.prefVelocity = {-1.0, 0.0};
    b.params.avoidanceWeight = wb;
    sim.addAgent(a);
    sim.addAgent(b);
    return sim;
}

/// The share of u agent `index` takes toward the other, from its explain record.
double share(const Simulator& sim, std::size_t index) {
    const ExplainRecord rec = sim.explain(sim.agentIdAt(index));
    EXPECT_EQ(rec.lines.size(), 1u);
    return rec.lines.at(0).share;
}

TEST(AvoidanceWeight, HandCheckedShares) {
    // Weights 2 and 1, responsibility ½: A takes 2/3 of u, B 1/3.
    Simulator s = pair(2.0, 1.0);
    EXPECT_DOUBLE_EQ(share(s, 0), 2.0 / 3.0);
    EXPECT_DOUBLE_EQ(share(s, 1), 1.0 / 3.0);
    // Weights 1 and 0: A takes all of u, B none.
    s = pair(1.0, 0.0);
    EXPECT_EQ(share(s, 0), 1.0);
    EXPECT_EQ(share(s, 1), 0.0);
    // Weights 3 and 1 with responsibility 0.8: 2 x 0.8 x 3/4 = 1.2, capped at 1; B 0.4.
    s = pair(3.0, 1.0, 0.8);
    EXPECT_EQ(share(s, 0), 1.0);
    EXPECT_DOUBLE_EQ(share(s, 1), 0.4);
    // Equal weights (0 and 0, 5 and 5): responsibility exactly.
    for (double w : {0.0, 5.0, 1.0}) {
        s = pair(w, w, 0.3);
        EXPECT_EQ(share(s, 0), 0.3);
        EXPECT_EQ(share(s, 1), 0.3);
    }
}

TEST(AvoidanceWeight, TheRecordCarriesTheNeighboursShareAndWeight) {
    // Weights 2 and 1: A's record says B takes 1/3 of -u (weight 1), B's says A takes 2/3.
    Simulator s = pair(2.0, 1.0);
    const ExplainRecord a = s.explain(s.agentIdAt(0));
    const ExplainRecord b = s.explain(s.agentIdAt(1));
    ASSERT_EQ(a.lines.size(), 1u);
    ASSERT_EQ(b.lines.size(), 1u);
    EXPECT_DOUBLE_EQ(a.lines[0].otherShare, 1.0 / 3.0);
    EXPECT_EQ(a.lines[0].otherWeight, 1.0);
    EXPECT_EQ(a.lines[0].otherShare, b.lines[0].share);
    EXPECT_EQ(b.lines[0].otherShare, a.lines[0].share);
    EXPECT_EQ(b.lines[0].otherWeight, 2.0);
    // B's u is A's mirrored: B's line goes through v_B - otherShare·u of A's record.
    EXPECT_EQ(b.lines[0].u, -a.lines[0].u);
    EXPECT_EQ(b.lines[0].line.point, Vec2(-1.0, 0.0) - a.lines[0].otherShare * a.lines[0].u);
    // Without weights both take responsibility; a static neighbour builds no line: 0.
    s = pair(1.0, 1.0);
    EXPECT_EQ(s.explain(s.agentIdAt(0)).lines[0].otherShare, 0.5);
    AgentDef still = s.agent(s.agentIdAt(1));
    still.isStatic = true;
    s.setAgent(s.agentIdAt(1), still);
    const ExplainRecord st = s.explain(s.agentIdAt(0));
    ASSERT_EQ(st.lines.size(), 1u);
    EXPECT_TRUE(st.lines[0].otherStatic);
    EXPECT_EQ(st.lines[0].otherShare, 0.0);
}

TEST(AvoidanceWeight, TheLinePassesThroughTheShareOfU) {
    // The ORCA line of A passes through v_A + share·u: with weight 0 through v_A itself.
    const Simulator s = pair(0.0, 1.0);
    const ExplainRecord rec = s.explain(s.agentIdAt(0));
    ASSERT_EQ(rec.lines.size(), 1u);
    EXPECT_EQ(rec.lines[0].line.point, Vec2(1.0, 0.0));
    const ExplainRecord other = s.explain(s.agentIdAt(1));
    const Vec2 expected = Vec2(-1.0, 0.0) + other.lines[0].u;
    EXPECT_EQ(other.lines[0].line.point, expected);
}

TEST(AvoidanceWeight, AWeightZeroAgentKeepsItsLine) {
    // Head-on pair, weights 1 and 0: B (weight 0) keeps its velocity and its line exactly;
    // A gets out of the way, and they do not overlap.
    Simulator s = pair(1.0, 0.0);
    double minGap = 1e9;
    bool aSwerved = false;
    for (int k = 0; k < 60; ++k) {
        s.step();
        const Vec2 b = s.positions()[1];
        EXPECT_EQ(s.velocities()[1], Vec2(-1.0, 0.0)) << "step " << k;
        EXPECT_EQ(b.y, 0.4) << "step " << k;
        const Vec2 a = s.positions()[0];
        aSwerved = aSwerved || a.y < -0.1;
        minGap = std::min(minGap, std::sqrt((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)));
    }
    EXPECT_TRUE(aSwerved);
    EXPECT_GE(minGap, 2.0 - 1e-6) << "the radii are 1";
    // With equal weights both swerve.
    Simulator eq = pair(1.0, 1.0);
    bool bMoved = false;
    for (int k = 0; k < 60; ++k) {
        eq.step();
        bMoved = bMoved || eq.positions()[1].y != 0.4;
    }
    EXPECT_TRUE(bMoved);
}

TEST(AvoidanceWeight, StaticNeighboursKeepTheirRule) {
    Simulator s;
    AgentDef a;
    a.position = {-3.0, 0.0};
    a.prefVelocity = {1.0, 0.0};
    a.velocity = {1.0, 0.0};
    a.params.avoidanceWeight = 0.0;
    s.addAgent(a);
    AgentDef wall;
    wall.position = {2.0, 0.2};
    wall.isStatic = true;
    wall.params.avoidanceWeight = 7.0;
    s.addAgent(wall);
    EXPECT_EQ(share(s, 0), s.params().staticResponsibility);
}

TEST(AvoidanceWeight, EqualWeightsChangeNoBit) {
    // A crowd with every weight 1, and the same with every weight 2.5: the same bits.
    auto crowd = [](double w) {
        Simulator sim;
        for (int k = 0; k < 40; ++k) {
            AgentDef d;
            const double t = 2.0 * std::numbers::pi * k / 40.0;
            d.position = {15.0 * std::cos(t), 15.0 * std::sin(t)};
            d.hasGoal = true;
            d.goal = -d.position;
            d.params.avoidanceWeight = w;
            sim.addAgent(d);
        }
        return sim;
    };
    Simulator one = crowd(1.0);
    Simulator other = crowd(2.5);
    for (int k = 0; k < 120; ++k) {
        one.step();
        other.step();
    }
    EXPECT_EQ(one.stateHash(), other.stateHash());
    // And unequal weights do change the run.
    Simulator mixed = crowd(1.0);
    AgentDef d = mixed.agent(mixed.agentIdAt(3));
    d.params.avoidanceWeight = 0.0;
    mixed.setAgent(mixed.agentIdAt(3), d);
    for (int k = 0; k < 120; ++k)
        mixed.step();
    EXPECT_NE(mixed.stateHash(), one.stateHash());
}

TEST(AvoidanceWeight, SnapshotsAndRemovalsKeepTheWeights) {
    Simulator s = pair(2.0, 1.0);
    const SimulatorState snap = s.snapshot();
    Simulator t;
    t.restore(snap);
    EXPECT_DOUBLE_EQ(share(t, 0), 2.0 / 3.0);
    // Removing the weighted agent: the rest are uniform again (responsibility).
    AgentDef c;
    c.position = {0.0, 5.0};
    c.prefVelocity = {0.0, -1.0};
    c.velocity = {0.0, -1.0};
    c.params.radius = 1.0;
    s.addAgent(c);
    s.removeAgent(s.agentIdAt(0));
    AgentDef b = s.agent(s.agentIdAt(0));
    EXPECT_EQ(b.params.avoidanceWeight, 1.0);
    const ExplainRecord rec = s.explain(s.agentIdAt(0));
    ASSERT_FALSE(rec.lines.empty());
    EXPECT_EQ(rec.lines[0].share, 0.5);
}

TEST(AvoidanceWeight, NegativeOrNonFiniteWeightsAreRefused) {
    Simulator s;
    AgentDef d;
    d.params.avoidanceWeight = -0.5;
    EXPECT_THROW(s.addAgent(d), InvalidArgument);
    d.params.avoidanceWeight = std::nan("");
    EXPECT_THROW(s.addAgent(d), InvalidArgument);
    d.params.avoidanceWeight = INFINITY;
    EXPECT_THROW(s.addAgent(d), InvalidArgument);
    EXPECT_EQ(s.agentCount(), 0u);
}

} // namespace
} // namespace orca
