// Neighbour search (orca-spec section 3) against brute force, in both grid modes: compact
// crowds (dense cell array) and agents spread thinly over a large world, across negative
// coordinates (hashed groups of cells). The step's block-based search and explain()'s
// per-agent search must find the same neighbours in the same order, so the step applies
// exactly what explain() reports. Degenerate crowds — coincident agents, clusters packed far
// tighter than the cell size — go through the dense-cell index (docs/core.md): it must return
// exactly the brute-force lists too, ties broken by agent index.
#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "agent_grid.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

struct Layout {
    const char* name;
    double spread; ///< agents uniform in [-spread, spread]²
    int agents;
    double neighborDistMax;
};

std::vector<std::size_t> bruteForceNeighbors(const Simulator& sim, std::size_t i) {
    const AgentParams& p = sim.agentParams()[i];
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
        {"sparse world", 50000.0, 400, 20.0},    // hashed cells
        {"a few huge ranges", 200.0, 300, -1.0}, // blocks wider than 3 cells: fallback
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
        for (int c = 0; c < 20; ++c)
            centres.push_back({pos(rng), pos(rng)});
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
            const ExplainRecord r = sim.explain(sim.agentIdAt(i));
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

/// A crowd for the grid-level tests: positions, and the query points to check.
struct Crowd {
    std::string name;
    std::vector<Vec2> pos;
};

/// Deterministic uniform [0, 1) (std::uniform_real_distribution is not specified exactly).
double unitFrom(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

std::vector<Crowd> degenerateCrowds() {
    std::mt19937_64 rng(11);
    std::vector<Crowd> crowds;
    {
        Crowd c{"all coincident", {}};
        c.pos.assign(1500, Vec2(3.0, -4.0));
        crowds.push_back(std::move(c));
    }
    {
        Crowd c{"coincident clusters", {}};
        const std::vector<Vec2> centres{
            {0.0, 0.0}, {0.5, 0.0}, {0.5, 0.5}, {-7.0, 2.0}, {0.0, 1e-12}};
        for (int a = 0; a < 1500; ++a)
            c.pos.push_back(centres[std::size_t(a * 7 % 5)]);
        crowds.push_back(std::move(c));
    }
    for (double side : {1.0, 1e-3, 1e-9}) {
        Crowd c{"dense square of side " + std::to_string(side), {}};
        for (int a = 0; a < 1500; ++a)
            c.pos.push_back({side * unitFrom(rng), side * unitFrom(rng)});
        crowds.push_back(std::move(c));
    }
    {
        Crowd c{"dense square on a coarse lattice", {}}; // many exact ties in x, y and distance
        for (int a = 0; a < 1500; ++a)
            c.pos.push_back({0.125 * double(rng() % 8), 0.125 * double(rng() % 8)});
        crowds.push_back(std::move(c));
    }
    {
        Crowd c{"line of coincident and dense agents", {}}; // one axis has no extent
        for (int a = 0; a < 1000; ++a)
            c.pos.push_back({a % 3 == 0 ? 2.0 : 2.0 + unitFrom(rng), 5.0});
        crowds.push_back(std::move(c));
    }
    {
        Crowd c{"dense clusters among sparse agents", {}};
        for (int a = 0; a < 2000; ++a) {
            switch (a % 5) {
            case 0:
                c.pos.push_back({10.0, 10.0});
                break;
            case 1:
                c.pos.push_back({-20.0 + 0.3 * unitFrom(rng), 4.0 + 0.3 * unitFrom(rng)});
                break;
            case 2:
                c.pos.push_back({5.0 + 2.0 * unitFrom(rng), -3.0 + 2.0 * unitFrom(rng)});
                break;
            default:
                c.pos.push_back({200.0 * unitFrom(rng) - 100.0, 200.0 * unitFrom(rng) - 100.0});
            }
        }
        crowds.push_back(std::move(c));
    }
    return crowds;
}

/// Brute force: every agent but `self` with squared distance < rangeSq, sorted by (distSq,
/// agent index), the first k.
std::vector<detail::Neighbor> bruteForce(const std::vector<Vec2>& pos, Vec2 p, std::uint32_t self,
                                         double rangeSq, std::size_t k) {
    std::vector<detail::Neighbor> all;
    for (std::uint32_t j = 0; j < pos.size(); ++j) {
        const double d = absSq(pos[j] - p);
        if (j != self && d < rangeSq) all.push_back({d, j});
    }
    std::sort(all.begin(), all.end(), [](const detail::Neighbor& a, const detail::Neighbor& b) {
        return a.distSq < b.distSq || (a.distSq == b.distSq && a.agent < b.agent);
    });
    if (all.size() > k) all.resize(k);
    return all;
}

TEST(Neighbors, DenseCellsMatchBruteForce) {
    std::mt19937_64 rng(3);
    std::vector<detail::Neighbor> got;
    std::vector<detail::ItemRange> ranges;
    for (const Crowd& crowd : degenerateCrowds()) {
        SCOPED_TRACE(crowd.name);
        const std::size_t n = crowd.pos.size();
        for (double cellSize : {15.0, 0.3}) {
            SCOPED_TRACE(cellSize);
            detail::AgentGrid grid;
            grid.build(crowd.pos, cellSize);
            if (cellSize == 15.0) {
                EXPECT_FALSE(grid.denseCells().empty()); // the trees are used
            }
            // Every item carries its own agent's data, whatever order the cell keeps them in.
            std::vector<int> seen(n, 0);
            for (std::uint32_t item = 0; item < n; ++item) {
                const std::uint32_t a = grid.itemAgent(item);
                ASSERT_LT(a, n);
                ++seen[a];
                ASSERT_EQ(grid.itemPosition(item), crowd.pos[a]);
            }
            ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(n));
            for (double range : {1e-10, 0.05, 0.7, 15.0, 1e4}) {
                for (std::size_t k : {std::size_t{1}, std::size_t{10}, n + 5}) {
                    // Agents as query points (self excluded), and points off the agents.
                    for (int q = 0; q < 60; ++q) {
                        const bool atAgent = q % 3 != 0;
                        const auto self = atAgent ? static_cast<std::uint32_t>(rng() % n)
                                                  : std::uint32_t(0xffffffffu);
                        const Vec2 p = atAgent
                                           ? crowd.pos[self]
                                           : crowd.pos[rng() % n] +
                                                 Vec2(unitFrom(rng) - 0.5, unitFrom(rng) - 0.5) *
                                                     (q % 2 == 0 ? 1e-3 : 3.0);
                        const double rangeSq = range * range;
                        grid.nearest(p, self, rangeSq, k, got, ranges);
                        const std::vector<detail::Neighbor> want =
                            bruteForce(crowd.pos, p, self, rangeSq, k);
                        ASSERT_EQ(got.size(), want.size()) << "range " << range << " k " << k;
                        for (std::size_t r = 0; r < want.size(); ++r) {
                            ASSERT_EQ(got[r].agent, want[r].agent) << "rank " << r;
                            ASSERT_EQ(got[r].distSq, want[r].distSq) << "rank " << r;
                        }
                    }
                }
            }
        }
    }
}

TEST(Neighbors, DenseCrowdsMatchBruteForceInStepAndExplain) {
    // The step's per-cell search and explain()'s per-agent search on coincident and packed
    // agents: the same lists as brute force, and the step applies what explain() reports.
    std::mt19937_64 rng(9);
    for (int layout = 0; layout < 3; ++layout) {
        SCOPED_TRACE(layout);
        Simulator sim;
        sim.setThreadCount(2);
        for (int a = 0; a < 600; ++a) {
            AgentDef d;
            if (layout == 0) d.position = {1.0, 2.0};
            if (layout == 1) d.position = {unitFrom(rng), unitFrom(rng)};
            if (layout == 2)
                d.position = a % 2 ? Vec2(double(a % 3), 0.0) : Vec2(unitFrom(rng), 0.5);
            d.params.neighborDist = a % 10 == 0 ? 60.0 : 0.2 + 20.0 * unitFrom(rng);
            d.params.maxNeighbors = static_cast<int>(unitFrom(rng) * 40.0);
            d.isStatic = a % 50 == 7;
            d.hasGoal = true;
            d.goal = {100.0 * unitFrom(rng) - 50.0, 100.0 * unitFrom(rng) - 50.0};
            sim.addAgent(d);
        }
        for (int round = 0; round < 2; ++round) {
            std::vector<ExplainRecord> dry;
            for (std::size_t i = 0; i < sim.agentCount(); ++i) {
                const ExplainRecord r = sim.explain(sim.agentIdAt(i));
                if (!sim.isStaticAt(i)) {
                    const std::vector<std::size_t> expected = bruteForceNeighbors(sim, i);
                    ASSERT_EQ(r.agentNeighbors.size(), expected.size()) << "agent " << i;
                    for (std::size_t k = 0; k < expected.size(); ++k)
                        ASSERT_EQ(*sim.indexOf(r.agentNeighbors[k].id), expected[k])
                            << "agent " << i;
                }
                dry.push_back(r);
            }
            sim.step();
            for (std::size_t i = 0; i < sim.agentCount(); ++i)
                ASSERT_EQ(sim.velocities()[i], dry[i].newVelocity) << "agent " << i;
        }
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
