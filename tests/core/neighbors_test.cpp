// Neighbour search (orca-spec section 3) against brute force, in both grid modes: compact
// crowds (dense cell array) and agents spread thinly over a large world, across negative
// coordinates (hashed groups of cells). The step's block-based search and explain()'s
// per-agent search must find the same neighbours in the same order, so the step applies
// exactly what explain() reports.
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"

namespace orca {
namespace {

struct Layout {
    const char* name;
    double spread;      ///< agents uniform in [-spread, spread]²
    int agents;
    double neighborDistMax;
};

std::vector<std::size_t> bruteForceNeighbors(const Simulator& sim, std::size_t i) {
    const AgentParams& p = sim.agentParamsAll()[i];
    std::vector<std::pair<double, std::size_t>> found;
    for (std::size_t j = 0; j < sim.agentCount(); ++j) {
        if (j == i) continue;
        const double d = absSq(sim.positions()[j] - sim.positions()[i]);
        if (d < p.neighborDist * p.neighborDist) found.push_back({d, j});
    }
    std::sort(found.begin(), found.end());
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < found.size() && k < static_cast<std::size_t>(p.maxNeighbors); ++k)
        out.push_back(found[k].second);
    return out;
}

TEST(Neighbors, MatchBruteForceInDenseAndSparseWorlds) {
    const std::vector<Layout> layouts{
        {"compact crowd", 60.0, 400, 20.0},
        {"sparse world", 50000.0, 400, 20.0},        // hashed cells
        {"a few huge ranges", 200.0, 300, -1.0},     // blocks wider than 3 cells: fallback
        {"clusters far apart", 1e6, 300, 15.0},
    };
    std::mt19937_64 rng(5);
    for (const Layout& layout : layouts) {
        SCOPED_TRACE(layout.name);
        std::uniform_real_distribution<double> pos(-layout.spread, layout.spread);
        std::uniform_real_distribution<double> unit(0.0, 1.0);
        Simulator sim;
        sim.setThreadCount(2);
        std::vector<Vec2> centres;
        for (int c = 0; c < 20; ++c) centres.push_back({pos(rng), pos(rng)});
        for (int a = 0; a < layout.agents; ++a) {
            AgentDef d;
            // Clustered around random centres so that every agent has neighbours.
            const Vec2 c = centres[static_cast<std::size_t>(a) % centres.size()];
            d.position = c + Vec2(unit(rng) * 40.0 - 20.0, unit(rng) * 40.0 - 20.0);
            // neighborDistMax < 0: mostly short ranges, one agent in ten sees 30x farther
            // (beyond the 3-cell block the step falls back to a per-agent search).
            d.params.neighborDist =
                layout.neighborDistMax > 0.0
                    ? 1.0 + unit(rng) * layout.neighborDistMax
                    : (a % 10 == 0 ? 300.0 + unit(rng) * 100.0 : 5.0 + unit(rng) * 10.0);
            d.params.maxNeighbors = static_cast<int>(unit(rng) * 12.0);
            d.params.radius = 0.2 + unit(rng);
            d.velocity = {unit(rng) - 0.5, unit(rng) - 0.5};
            d.prefVelocity = {unit(rng) - 0.5, unit(rng) - 0.5};
            sim.addAgent(d);
        }
        std::vector<ExplainRecord> dry;
        for (std::size_t i = 0; i < sim.agentCount(); ++i) {
            const ExplainRecord r = sim.explain(sim.agentAt(i));
            const std::vector<std::size_t> expected = bruteForceNeighbors(sim, i);
            ASSERT_EQ(r.agentNeighbors.size(), expected.size()) << "agent " << i;
            for (std::size_t k = 0; k < expected.size(); ++k)
                ASSERT_EQ(*sim.indexOf(r.agentNeighbors[k].id), expected[k]) << "agent " << i;
            dry.push_back(r);
        }
        sim.step();
        for (std::size_t i = 0; i < sim.agentCount(); ++i)
            ASSERT_EQ(sim.velocities()[i], dry[i].newVelocity) << "agent " << i;
    }
}

TEST(Neighbors, ClearEmptiesTheSimulator) {
    Simulator sim;
    std::vector<AgentId> ids;
    for (int i = 0; i < 50; ++i) {
        AgentDef d;
        d.position = {i * 3.0, 0.0};
        ids.push_back(sim.addAgent(d));
    }
    const std::vector<Vec2> box{{0.0, 5.0}, {2.0, 5.0}, {2.0, 7.0}, {0.0, 7.0}};
    const ObstacleId o = sim.addObstacle(box);
    sim.step();
    sim.clear();
    EXPECT_EQ(sim.agentCount(), 0u);
    EXPECT_EQ(sim.obstacleCount(), 0u);
    EXPECT_TRUE(sim.obstacleVertexData().empty());
    EXPECT_FALSE(sim.contains(ids[3]));
    EXPECT_FALSE(sim.contains(o));
    EXPECT_EQ(sim.stepCount(), 0u);
    EXPECT_EQ(sim.time(), 0.0);
    AgentDef d;
    const AgentId fresh = sim.addAgent(d);
    EXPECT_TRUE(sim.contains(fresh));
    sim.step(); // works on the emptied simulator
    EXPECT_EQ(sim.agentCount(), 1u);
}

} // namespace
} // namespace orca
