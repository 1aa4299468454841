// Simulator::setPrefVelocity and Simulator::roundStateToFloat: the cheap edits the RVO2 face
// (core/rvo2) makes every step. Each must give exactly what the general edits give, and keep
// the step's candidate lists.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"

namespace orca {
namespace {

/// Agents without goals on a jittered grid, each heading to the far side with a constant
/// preferred velocity (RVO2's style: the program sets v_pref every step).
Simulator crossing(std::uint32_t seed) {
    Simulator sim;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-0.3, 0.3);
    for (int k = 0; k < 400; ++k) {
        AgentDef d;
        d.position = {3.0 * (k % 20) + u(rng), 3.0 * (k / 20) + u(rng)};
        d.prefVelocity = {k % 2 == 0 ? 1.0 : -1.0, 0.1 * u(rng)};
        d.params.neighborDist = 5.0; // (a dozen candidates each: the lists are worth it)
        sim.addAgent(d);
    }
    return sim;
}

/// The preferred velocity each agent gets at step s.
Vec2 steer(const Simulator& sim, std::size_t i, int s) {
    const Vec2 p = sim.positions()[i];
    return {i % 2 == 0 ? 1.0 : -1.0, 0.05 * std::sin(0.1 * s + p.y)};
}

TEST(FloatState, SetPrefVelocityGivesWhatSetAgentGives) {
    Simulator a = crossing(1);
    Simulator b = crossing(1);
    bool listsUsed = false;
    Vec2 last;
    for (int s = 0; s < 60; ++s) {
        last = steer(a, 3, s);
        for (std::size_t i = 0; i < a.agentCount(); ++i) {
            a.setPrefVelocity(a.agentIdAt(i), steer(a, i, s));
            AgentDef d = b.agent(b.agentIdAt(i));
            d.prefVelocity = steer(b, i, s);
            b.setAgent(b.agentIdAt(i), d);
        }
        a.step();
        b.step();
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << s;
        listsUsed = listsUsed || a.lastStepStats().neighborLists;
    }
    EXPECT_TRUE(listsUsed) << "setPrefVelocity keeps the candidate lists";
    EXPECT_EQ(a.prefVelocity(a.agentIdAt(3)), last);
    const std::uint64_t r = a.revision();
    EXPECT_THROW(a.setPrefVelocity(a.agentIdAt(0), {std::nan(""), 0.0}), InvalidArgument);
    EXPECT_THROW(a.setPrefVelocity(a.agentIdAt(0), {0.0, INFINITY}), InvalidArgument);
    EXPECT_EQ(a.revision(), r) << "a refused edit changes nothing";
    a.setPrefVelocity(a.agentIdAt(0), {0.5, 0.0});
    EXPECT_NE(a.revision(), r);
}

TEST(FloatState, RoundingToFloatGivesWhatSettingFloatsGivesAndKeepsTheLists) {
    Simulator a = crossing(2);
    Simulator b = crossing(2);
    bool listsUsed = false;
    for (int s = 0; s < 80; ++s) {
        a.step();
        b.step();
        a.roundStateToFloat();
        for (std::size_t i = 0; i < b.agentCount(); ++i) {
            const Vec2 p = b.positions()[i];
            const Vec2 v = b.velocities()[i];
            b.setPosition(b.agentIdAt(i), {static_cast<float>(p.x), static_cast<float>(p.y)});
            b.setVelocity(b.agentIdAt(i), {static_cast<float>(v.x), static_cast<float>(v.y)});
        }
        ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << s;
        for (std::size_t i = 0; i < a.agentCount(); ++i) {
            const Vec2 p = a.positions()[i];
            ASSERT_EQ(p.x, static_cast<double>(static_cast<float>(p.x)));
            ASSERT_EQ(p.y, static_cast<double>(static_cast<float>(p.y)));
        }
        listsUsed = listsUsed || a.lastStepStats().neighborLists;
    }
    EXPECT_TRUE(listsUsed) << "rounding keeps the candidate lists";
    EXPECT_FALSE(a.lastChangeWasStep()) << "rounding is an edit";
}

TEST(FloatState, CoordinatesBeyondFloatKeepTheirDouble) {
    Simulator sim;
    AgentDef d;
    d.position = {1e39, 0.1};
    d.velocity = {0.3, -1e300};
    const AgentId id = sim.addAgent(d);
    sim.roundStateToFloat();
    EXPECT_EQ(sim.position(id).x, 1e39);
    EXPECT_EQ(sim.position(id).y, static_cast<double>(0.1F));
    EXPECT_EQ(sim.velocity(id).x, static_cast<double>(0.3F));
    EXPECT_EQ(sim.velocity(id).y, -1e300);
}

} // namespace
} // namespace orca
