// Finite always (docs/core.md): valid, finite input never yields a NaN or infinite velocity or
// position. Agents nearer than the squared distance can resolve (spreads down to 1e-300,
// denormal coordinates, exact coincidence) get a defined direction, split by agent order;
// the time step has a floor; and a state that is not finite anyway (a restored snapshot, a
// coordinate near the largest double) stops the step with a named NonFiniteState.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace orca {
namespace {

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

/// Every position, velocity and explained line of `sim` finite, every |v| <= maxSpeed.
void expectFinite(const Simulator& sim, const std::string& what) {
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        ASSERT_TRUE(finite(sim.positions()[i])) << what << " agent " << i;
        ASSERT_TRUE(finite(sim.velocities()[i])) << what << " agent " << i;
        ASSERT_LE(length(sim.velocities()[i]), sim.agentParams()[i].maxSpeed)
            << what << " agent " << i;
    }
}

void expectFiniteRecords(const Simulator& sim, const std::string& what) {
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        const ExplainRecord r = sim.explain(sim.agentIdAt(i));
        ASSERT_TRUE(finite(r.newVelocity)) << what << " agent " << i;
        for (const ExplainLine& l : r.lines) {
            ASSERT_TRUE(finite(l.line.point) && finite(l.line.direction) && finite(l.u))
                << what << " agent " << i;
        }
    }
}

AgentDef agentAt(Vec2 p, Vec2 goal) {
    AgentDef d;
    d.position = p;
    d.hasGoal = true;
    d.goal = goal;
    return d;
}

TEST(Finite, AgentsOneE200ApartOnADiagonal) {
    // The reproducer: both at rest, 1e-200 apart. |p_j - p_i|² underflows to 0; 1/sqrt(0)
    // made the lines (and then the positions) NaN from step 1.
    for (int threads : {1, 2}) {
        Simulator sim;
        sim.setThreadCount(threads);
        sim.addAgent(agentAt({0.0, 0.0}, {10.0, 10.0}));
        sim.addAgent(agentAt({1e-200, 1e-200}, {-10.0, -10.0}));
        expectFiniteRecords(sim, "before");
        for (int step = 0; step < 20; ++step) {
            sim.step();
            expectFinite(sim, "step " + std::to_string(step));
        }
        expectFiniteRecords(sim, "after");
        // Pushed apart along the split direction, then free to walk to their goals.
        EXPECT_GT(length(sim.positions()[1] - sim.positions()[0]), 1.0);
    }
}

TEST(Finite, NearlyCoincidentCrowdsAtEverySpread) {
    // Spreads from 1e-9 (ordinary arithmetic) down to 1e-300 and to denormal coordinates,
    // around 0, a denormal base, 1 and 1e6 (where the spread vanishes in rounding: exact
    // coincidence); 2 to 5 agents, some static, at rest or moving.
    std::mt19937_64 rng(14);
    auto unit = [&rng] { return static_cast<double>(rng() >> 11) * 0x1.0p-53; };
    const std::vector<double> spreads{1e-9,   1e-50,  1e-100, 1e-150, 1e-154, 1e-155,
                                      1e-160, 1e-162, 1e-200, 1e-300, 1e-310, 5e-324};
    const std::vector<double> bases{0.0, 4.9e-324, 1e-310, 1.0, 1e6};
    for (double spread : spreads) {
        for (double base : bases) {
            for (int round = 0; round < 4; ++round) {
                const std::string what = "spread " + std::to_string(spread) + " base " +
                                         std::to_string(base) + " round " + std::to_string(round);
                SimulationParams sp;
                sp.timeStep = round % 2 == 0 ? 0.25 : 1e-6; // the shortest step too
                Simulator sim(sp);
                sim.setThreadCount(1 + round % 2);
                const int agents = 2 + round % 4;
                for (int a = 0; a < agents; ++a) {
                    AgentDef d = agentAt({base + spread * unit(), base - spread * unit()},
                                         {20.0 * unit() - 10.0, 20.0 * unit() - 10.0});
                    d.isStatic = round >= 2 && a == 0;
                    if (round == 3) d.velocity = {unit() - 0.5, unit() - 0.5};
                    sim.addAgent(d);
                }
                expectFiniteRecords(sim, what);
                for (int step = 0; step < 8; ++step) {
                    sim.step();
                    expectFinite(sim, what + " step " + std::to_string(step));
                }
            }
        }
    }
}

TEST(Finite, NearlyCoincidentWithAnObstacleVertex) {
    const std::vector<Vec2> square{{0.0, 0.0}, {2.0, 0.0}, {2.0, 2.0}, {0.0, 2.0}};
    for (double spread : {0.0, 1e-160, 1e-200, 5e-324}) {
        Simulator sim;
        sim.addObstacle(square);
        sim.addAgent(agentAt({-spread, -spread}, {-10.0, -10.0})); // on a convex vertex
        sim.addAgent(agentAt({2.0 + spread, 1.0}, {10.0, 1.0}));   // on an edge
        expectFiniteRecords(sim, "spread " + std::to_string(spread));
        for (int step = 0; step < 8; ++step) {
            sim.step();
            expectFinite(sim, "spread " + std::to_string(spread));
        }
    }
}

TEST(Finite, TimeStepHasAFloor) {
    // With Δt = 1e-161, 1/Δt squared overflowed and overlapping agents drove straight on.
    SimulationParams sp;
    sp.timeStep = 1e-161;
    try {
        Simulator sim(sp);
        FAIL() << "a time step of 1e-161 was accepted";
    } catch (const InvalidArgument& e) {
        EXPECT_NE(std::string(e.what()).find("timeStep"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find(">= 1e-6 (timeStep = 1e-161)"), std::string::npos)
            << e.what();
    }
    sp.timeStep = 1e-6;
    Simulator sim(sp);
    sim.addAgent(agentAt({0.0, 0.0}, {10.0, 0.0}));
    sim.addAgent(agentAt({0.5, 0.0}, {-10.0, 0.0})); // overlapping
    sim.step();
    expectFinite(sim, "dt 1e-6");
    // The collision response holds: they move apart, not through each other.
    EXPECT_LT(sim.velocities()[0].x, 0.0);
    EXPECT_GT(sim.velocities()[1].x, 0.0);
}

TEST(Finite, NonFiniteStateStopsTheStepAndNamesTheAgent) {
    Simulator sim;
    for (int a = 0; a < 5; ++a)
        sim.addAgent(agentAt({3.0 * a, 0.0}, {0.0, 20.0}));
    sim.step();
    // A snapshot whose agent 3 has a NaN position (a corrupt file, a bug elsewhere).
    SimulatorState bad = sim.snapshot();
    bad.position[3].x = std::numeric_limits<double>::quiet_NaN();
    sim.restore(bad);
    const std::uint64_t hash = sim.stateHash();
    try {
        sim.step();
        FAIL() << "stepped from a NaN position";
    } catch (const NonFiniteState& e) {
        const std::string m = e.what();
        EXPECT_NE(m.find("step 2"), std::string::npos) << m;
        EXPECT_NE(m.find("agent 3"), std::string::npos) << m;
        EXPECT_NE(m.find("nan"), std::string::npos) << m;
    }
    // Nothing moved, and it keeps refusing.
    EXPECT_EQ(sim.stateHash(), hash);
    EXPECT_EQ(sim.stepCount(), 1U);
    EXPECT_THROW(sim.step(), NonFiniteState);

    // A coordinate near the largest double overflows in the move: the step names it.
    Simulator edge;
    AgentDef d;
    d.position = {1.797e308, 0.0}; // the largest double is 1.7977e308
    d.params.maxSpeed = 1e306;
    d.params.prefSpeed = 1e306;
    d.prefVelocity = {1e306, 0.0};
    edge.addAgent(d);
    try {
        edge.step();
        FAIL() << "a position overflowed silently";
    } catch (const NonFiniteState& e) {
        EXPECT_NE(std::string(e.what()).find("agent 0's position overflowed"), std::string::npos)
            << e.what();
    }
    EXPECT_THROW(edge.step(), NonFiniteState);
}

} // namespace
} // namespace orca
