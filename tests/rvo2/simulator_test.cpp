// RVO::RVOSimulator (core/rvo2): construction, agent defaults, agents and their getters and
// setters, time, the step, and that the face adds nothing to the core's results.
#include <cmath>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

#include "orca/simulator.hpp"

namespace {

using RVO::RVOSimulator;
using RVO::Vector2;

TEST(Rvo2Simulator, DefaultConstructorHasNoDefaultsAndNoTimeStep) {
    RVOSimulator sim;
    EXPECT_EQ(sim.getTimeStep(), 0.0F);
    EXPECT_EQ(sim.getGlobalTime(), 0.0F);
    EXPECT_EQ(sim.getNumAgents(), 0u);
    EXPECT_EQ(sim.getNumObstacleVertices(), 0u);
    EXPECT_EQ(sim.addAgent(Vector2(1.0F, 2.0F)), RVO::RVO_ERROR); // no defaults yet
    EXPECT_EQ(sim.getNumAgents(), 0u);
    sim.setAgentDefaults(15.0F, 10, 10.0F, 5.0F, 1.5F, 2.0F);
    EXPECT_EQ(sim.addAgent(Vector2(1.0F, 2.0F)), 0u);
    EXPECT_EQ(sim.getNumAgents(), 1u);
}

TEST(Rvo2Simulator, ConstructorSetsTimeStepAndDefaults) {
    RVOSimulator sim(0.1F, 12.0F, 7, 3.0F, 4.0F, 0.5F, 1.25F);
    EXPECT_EQ(sim.getTimeStep(), 0.1F);
    const std::size_t a = sim.addAgent(Vector2(-1.0F, 3.0F));
    EXPECT_EQ(sim.getAgentNeighborDist(a), 12.0F);
    EXPECT_EQ(sim.getAgentMaxNeighbors(a), 7u);
    EXPECT_EQ(sim.getAgentTimeHorizon(a), 3.0F);
    EXPECT_EQ(sim.getAgentTimeHorizonObst(a), 4.0F);
    EXPECT_EQ(sim.getAgentRadius(a), 0.5F);
    EXPECT_EQ(sim.getAgentMaxSpeed(a), 1.25F);
    EXPECT_EQ(sim.getAgentPosition(a), Vector2(-1.0F, 3.0F));
    EXPECT_EQ(sim.getAgentVelocity(a), Vector2());
    EXPECT_EQ(sim.getAgentPrefVelocity(a), Vector2());

    RVOSimulator moving(0.1F, 12.0F, 7, 3.0F, 4.0F, 0.5F, 1.25F, Vector2(0.5F, -0.5F));
    EXPECT_EQ(moving.getAgentVelocity(moving.addAgent(Vector2())), Vector2(0.5F, -0.5F));
}

TEST(Rvo2Simulator, AgentsAreNumberedInAddOrder) {
    RVOSimulator sim;
    sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F, Vector2(1.0F, 0.0F));
    EXPECT_EQ(sim.addAgent(Vector2(0.0F, 0.0F)), 0u);
    EXPECT_EQ(sim.addAgent(Vector2(10.0F, 0.0F), 5.0F, 3, 2.0F, 1.0F, 0.75F, 1.0F), 1u);
    EXPECT_EQ(
        sim.addAgent(Vector2(20.0F, 0.0F), 6.0F, 4, 3.0F, 2.0F, 0.5F, 3.0F, Vector2(0.0F, 2.0F)),
        2u);
    ASSERT_EQ(sim.getNumAgents(), 3u);
    EXPECT_EQ(sim.getAgentVelocity(0), Vector2(1.0F, 0.0F)); // the defaults' velocity
    EXPECT_EQ(sim.getAgentVelocity(1), Vector2());           // explicit parameters: zero
    EXPECT_EQ(sim.getAgentVelocity(2), Vector2(0.0F, 2.0F));
    EXPECT_EQ(sim.getAgentRadius(1), 0.75F);
    EXPECT_EQ(sim.getAgentMaxNeighbors(2), 4u);
    EXPECT_EQ(sim.getAgentPosition(2), Vector2(20.0F, 0.0F));
    // Later defaults affect only later agents.
    sim.setAgentDefaults(1.0F, 1, 1.0F, 1.0F, 0.25F, 0.5F);
    EXPECT_EQ(sim.getAgentRadius(0), 1.5F);
    EXPECT_EQ(sim.getAgentRadius(sim.addAgent(Vector2(30.0F, 0.0F))), 0.25F);
}

TEST(Rvo2Simulator, SettersReadBack) {
    RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F);
    const std::size_t a = sim.addAgent(Vector2());
    sim.setAgentMaxNeighbors(a, 3);
    sim.setAgentMaxSpeed(a, 4.5F);
    sim.setAgentNeighborDist(a, 7.0F);
    sim.setAgentRadius(a, 0.3F);
    sim.setAgentTimeHorizon(a, 2.5F);
    sim.setAgentTimeHorizonObst(a, 1.5F);
    sim.setAgentPosition(a, Vector2(5.0F, 6.0F));
    sim.setAgentVelocity(a, Vector2(-1.0F, 0.5F));
    sim.setAgentPrefVelocity(a, Vector2(0.1F, 0.2F));
    EXPECT_EQ(sim.getAgentMaxNeighbors(a), 3u);
    EXPECT_EQ(sim.getAgentMaxSpeed(a), 4.5F);
    EXPECT_EQ(sim.getAgentNeighborDist(a), 7.0F);
    EXPECT_EQ(sim.getAgentRadius(a), 0.3F); // float -> core double -> float is exact
    EXPECT_EQ(sim.getAgentTimeHorizon(a), 2.5F);
    EXPECT_EQ(sim.getAgentTimeHorizonObst(a), 1.5F);
    EXPECT_EQ(sim.getAgentPosition(a), Vector2(5.0F, 6.0F));
    EXPECT_EQ(sim.getAgentVelocity(a), Vector2(-1.0F, 0.5F));
    EXPECT_EQ(sim.getAgentPrefVelocity(a), Vector2(0.1F, 0.2F));
    sim.setTimeStep(0.5F);
    EXPECT_EQ(sim.getTimeStep(), 0.5F);
    // maxNeighbors beyond int: "all", read back as INT_MAX.
    sim.setAgentMaxNeighbors(a, static_cast<std::size_t>(1) << 40);
    EXPECT_EQ(sim.getAgentMaxNeighbors(a), 2147483647u);
}

TEST(Rvo2Simulator, ReferencesFollowTheAgentWhileAgentsAreAdded) {
    RVOSimulator sim(0.5F, 15.0F, 10, 10.0F, 10.0F, 0.5F, 2.0F);
    const std::size_t a = sim.addAgent(Vector2(0.0F, 0.0F));
    const Vector2& position = sim.getAgentPosition(a);
    for (int k = 1; k < 200; ++k)
        sim.addAgent(Vector2(static_cast<float>(k) * 100.0F, 0.0F));
    sim.setAgentPrefVelocity(a, Vector2(1.0F, 0.0F));
    sim.doStep();
    EXPECT_EQ(position, Vector2(0.5F, 0.0F)); // still agent 0, after the step
}

TEST(Rvo2Simulator, OneFreeAgentMovesAtItsPreferredVelocity) {
    // Alone, ORCA has no half-plane: v_new = v_pref (within maxSpeed), p += v * Δt.
    RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F);
    const std::size_t a = sim.addAgent(Vector2(1.0F, 1.0F));
    sim.setAgentPrefVelocity(a, Vector2(1.0F, -0.5F));
    sim.doStep();
    EXPECT_EQ(sim.getAgentVelocity(a), Vector2(1.0F, -0.5F));
    EXPECT_EQ(sim.getAgentPosition(a), Vector2(1.25F, 0.875F));
    EXPECT_EQ(sim.getGlobalTime(), 0.25F);
    // A preferred velocity above maxSpeed is cut to maxSpeed, same direction.
    sim.setAgentPrefVelocity(a, Vector2(0.0F, 8.0F));
    sim.doStep();
    EXPECT_EQ(sim.getAgentVelocity(a), Vector2(0.0F, 2.0F));
    EXPECT_EQ(sim.getAgentPosition(a), Vector2(1.25F, 1.375F));
    EXPECT_EQ(sim.getGlobalTime(), 0.5F);
}

TEST(Rvo2Simulator, GlobalTimeIsAFloatSum) {
    // RVO2 adds the float time step to a float clock; 0.1 is not exact, so ten steps give
    // the float sum, not 1.
    RVOSimulator sim(0.1F, 15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F);
    float expected = 0.0F;
    for (int k = 0; k < 10; ++k) {
        sim.doStep();
        expected += 0.1F;
    }
    EXPECT_EQ(sim.getGlobalTime(), expected);
    EXPECT_NE(expected, 1.0F);
}

/// The face adds nothing but RVO2's float state: a program's calls on RVOSimulator and the
/// same calls on the core (doubles of the same floats, the state rounded to float after each
/// step as RVO2 stores it) give the same bits.
TEST(Rvo2Simulator, GivesTheCoresResultsBitForBit) {
    RVOSimulator face(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.5F, 2.0F);
    orca::SimulationParams sp;
    sp.timeStep = 0.25;
    orca::Simulator core(sp);
    std::vector<orca::AgentId> ids;
    std::vector<Vector2> goals;
    const int n = 24;
    for (int i = 0; i < n; ++i) {
        const float angle = static_cast<float>(i) * 6.28318530718F / static_cast<float>(n);
        const Vector2 p = 30.0F * Vector2(std::cos(angle), std::sin(angle));
        face.addAgent(p);
        goals.push_back(-p);
        orca::AgentDef def;
        def.position = {p.x(), p.y()};
        ids.push_back(core.addAgent(def)); // core defaults are RVO2 Circle's, as above
    }
    for (int step = 0; step < 120; ++step) {
        for (int i = 0; i < n; ++i) {
            Vector2 toGoal = goals[i] - face.getAgentPosition(i);
            if (RVO::absSq(toGoal) > 1.0F) toGoal = RVO::normalize(toGoal);
            face.setAgentPrefVelocity(i, toGoal);
            orca::AgentDef def = core.agent(ids[i]);
            def.prefVelocity = {toGoal.x(), toGoal.y()};
            core.setAgent(ids[i], def);
        }
        face.doStep();
        core.step();
        for (int i = 0; i < n; ++i) {
            const orca::Vec2 p = core.position(ids[i]);
            const orca::Vec2 v = core.velocity(ids[i]);
            const Vector2 pf(static_cast<float>(p.x), static_cast<float>(p.y));
            const Vector2 vf(static_cast<float>(v.x), static_cast<float>(v.y));
            ASSERT_EQ(face.getAgentPosition(i), pf) << "step " << step << " agent " << i;
            ASSERT_EQ(face.getAgentVelocity(i), vf) << "step " << step << " agent " << i;
            core.setPosition(ids[i], {pf.x(), pf.y()});
            core.setVelocity(ids[i], {vf.x(), vf.y()});
        }
    }
    // And the crowd did cross: the agents left the ring.
    EXPECT_LT(RVO::abs(face.getAgentPosition(0)), 20.0F);
}

TEST(Rvo2Simulator, PreferredVelocitiesMaySetFromSeveralThreads) {
    // RVO2's examples set preferred velocities in an OpenMP loop; different agents from
    // different threads must give what one thread gives.
    auto run = [](bool threaded) {
        RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F);
        for (int i = 0; i < 64; ++i)
            sim.addAgent(
                Vector2(static_cast<float>(i % 8) * 3.0F, static_cast<float>(i / 8) * 3.0F));
        for (int step = 0; step < 5; ++step) {
            auto set = [&sim](std::size_t begin, std::size_t end) {
                for (std::size_t i = begin; i < end; ++i)
                    sim.setAgentPrefVelocity(
                        i, RVO::normalize(Vector2(10.0F, 10.0F) - sim.getAgentPosition(i)));
            };
            if (threaded) {
                std::thread other(set, 0, 32);
                set(32, 64);
                other.join();
            } else {
                set(0, 64);
            }
            sim.doStep();
        }
        std::vector<Vector2> out;
        for (std::size_t i = 0; i < sim.getNumAgents(); ++i)
            out.push_back(sim.getAgentPosition(i));
        return out;
    };
    EXPECT_EQ(run(true), run(false));
}

} // namespace
