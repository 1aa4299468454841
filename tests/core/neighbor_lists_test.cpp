// Candidate lists (core/src/neighbor_lists.hpp, docs/core.md "Candidate lists"): a list holds
// exactly the agents within neighborDist + skin at its build; the lists stay usable until the
// accumulated displacement bound reaches half the skin; and a simulator that searches them
// applies bit for bit what a fresh grid search (explain(), a dry run) gives, step after step,
// through teleports, removals, additions and restores that void the lists, for 1 and 3
// threads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "agent_decision.hpp"
#include "agent_grid.hpp"
#include "neighbor_lists.hpp"
#include "neighbor_select.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"
#include "thread_pool.hpp"

namespace orca::detail {
namespace {

/// Deterministic uniform [0, 1).
double unit(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

struct Crowd {
    std::vector<Vec2> pos;
    std::vector<AgentParams> params;
    std::vector<std::uint8_t> isStatic;
};

/// n agents in [0, side)², with ranges 2..12, one in seven static, one in nine blind
/// (maxNeighbors 0), and some exact duplicates and equal distances.
Crowd randomCrowd(std::mt19937_64& rng, std::size_t n, double side) {
    Crowd c;
    for (std::size_t i = 0; i < n; ++i) {
        Vec2 p{side * unit(rng), side * unit(rng)};
        if (i % 11 == 5) p = c.pos[i - 3];                   // coincident
        if (i % 13 == 6) p = c.pos[i - 1] + Vec2(0.25, 0.0); // lattice ties
        if (i % 13 == 7) p = c.pos[i - 2] + Vec2(0.0, 0.25);
        c.pos.push_back(p);
        AgentParams ap;
        ap.neighborDist = 2.0 + 10.0 * unit(rng);
        ap.maxNeighbors = i % 9 == 0 ? 0 : 1 + static_cast<int>(rng() % 12);
        c.params.push_back(ap);
        c.isStatic.push_back(i % 7 == 3 ? 1 : 0);
    }
    return c;
}

double meanRange(const Crowd& c) {
    double sum = 0.0;
    for (const AgentParams& p : c.params)
        sum += p.neighborDist;
    return sum / static_cast<double>(c.params.size());
}

TEST(NeighborLists, ListsHoldExactlyTheAgentsWithinReach) {
    std::mt19937_64 rng(41);
    ThreadPool pool(3);
    std::vector<Scratch> scratch(static_cast<std::size_t>(pool.size()));
    for (double side : {250.0, 2000.0, 1e6}) { // dense cell array, hashed groups, isolated
        SCOPED_TRACE(side);
        const Crowd c = randomCrowd(rng, 1500, side);
        const double skin = NeighborLists::kSkinShare * meanRange(c);
        AgentGrid grid;
        grid.build(c.pos, meanRange(c) + skin, &pool);
        NeighborLists lists;
        ASSERT_EQ(lists.plan(skin), NeighborLists::Plan::Build);
        ASSERT_TRUE(lists.build(grid, skin, c.pos, c.params, c.isStatic, pool, scratch));
        ASSERT_TRUE(lists.usable());
        ASSERT_EQ(lists.plan(skin), NeighborLists::Plan::Use);
        ASSERT_EQ(lists.order().size(), c.pos.size());
        for (std::uint32_t i = 0; i < c.pos.size(); ++i) {
            std::vector<std::uint32_t> want;
            if (!c.isStatic[i] && c.params[i].maxNeighbors > 0) {
                const double reach = c.params[i].neighborDist + skin;
                for (std::uint32_t j = 0; j < c.pos.size(); ++j) {
                    const double dx = c.pos[j].x - c.pos[i].x;
                    const double dy = c.pos[j].y - c.pos[i].y;
                    if (j != i && dx * dx + dy * dy < reach * reach) want.push_back(j);
                }
            }
            const std::span<const std::uint32_t> got = lists.candidates(i);
            std::vector<std::uint32_t> sorted(got.begin(), got.end());
            std::sort(sorted.begin(), sorted.end());
            ASSERT_EQ(sorted, want) << "agent " << i;
        }
    }
}

TEST(NeighborLists, UsableUntilTheAgentsMayHaveMovedHalfTheSkin) {
    std::mt19937_64 rng(42);
    ThreadPool pool(1);
    std::vector<Scratch> scratch(1);
    const Crowd c = randomCrowd(rng, 200, 60.0);
    const double skin = 2.0;
    AgentGrid grid;
    grid.build(c.pos, meanRange(c) + skin);
    NeighborLists lists;
    ASSERT_TRUE(lists.build(grid, skin, c.pos, c.params, c.isStatic, pool, scratch));
    // Speed 1, dt 0.25: 0.25 per step; half the skin (1.0) is reached after 4 steps, and the
    // rounding margins make the fourth one too many.
    for (int k = 0; k < 3; ++k) {
        lists.moved(1.0, 0.25, 100.0);
        EXPECT_TRUE(lists.usable()) << k;
    }
    lists.moved(1.0, 0.25, 100.0);
    EXPECT_FALSE(lists.usable());
    EXPECT_EQ(lists.plan(skin), NeighborLists::Plan::Build); // 4 * 0.25 <= skin: worth it

    ASSERT_TRUE(lists.build(grid, skin, c.pos, c.params, c.isStatic, pool, scratch));
    lists.invalidate();
    EXPECT_FALSE(lists.usable());

    // A NaN or infinite speed expires them, and sends the next steps to the grid.
    for (double bad :
         {std::numeric_limits<double>::quiet_NaN(), std::numeric_limits<double>::infinity()}) {
        ASSERT_TRUE(lists.build(grid, skin, c.pos, c.params, c.isStatic, pool, scratch));
        lists.moved(bad, 0.25, 0.0);
        EXPECT_FALSE(lists.usable());
        EXPECT_EQ(lists.plan(skin), NeighborLists::Plan::Grid);
        lists.moved(0.0, 0.25, 0.0);
    }
    // Agents that would use up the skin in less than two steps: the grid.
    lists.moved(1.0, 0.6, 0.0); // 2 * 2 * 0.6 > 2
    EXPECT_EQ(lists.plan(skin), NeighborLists::Plan::Grid);
    lists.moved(1.0, 0.5, 0.0); // 2 * 2 * 0.5 = 2 plus the margin: still too fast
    EXPECT_EQ(lists.plan(skin), NeighborLists::Plan::Grid);
    lists.moved(1.0, 0.49, 0.0);
    EXPECT_EQ(lists.plan(skin), NeighborLists::Plan::Build);
}

TEST(NeighborLists, DroppedForPackedCrowdsAndRetriedLater) {
    ThreadPool pool(2);
    std::vector<Scratch> scratch(2);
    Crowd c;
    for (int i = 0; i < 500; ++i) {
        c.pos.push_back({3.0, 4.0}); // one cell of 500 coincident agents: a dense cell
        c.params.emplace_back();
        c.isStatic.push_back(0);
    }
    AgentGrid grid;
    grid.build(c.pos, 20.0, &pool);
    NeighborLists lists;
    EXPECT_FALSE(lists.build(grid, 4.5, c.pos, c.params, c.isStatic, pool, scratch));
    EXPECT_FALSE(lists.usable());
    for (int k = 0; k < NeighborLists::kRetrySteps; ++k) {
        EXPECT_EQ(lists.plan(4.5), NeighborLists::Plan::Grid) << k;
        lists.moved(0.0, 0.25, 0.0);
    }
    EXPECT_EQ(lists.plan(4.5), NeighborLists::Plan::Build);

    // Spread over a few cells (no dense cell) but still more than kMaxMeanCandidates
    // candidates per agent: dropped too.
    c.pos.clear();
    std::mt19937_64 rng(3);
    for (int i = 0; i < 500; ++i)
        c.pos.push_back({60.0 * unit(rng), 60.0 * unit(rng)});
    grid.build(c.pos, 12.0, &pool);
    ASSERT_TRUE(grid.denseCells().empty());
    EXPECT_FALSE(lists.build(grid, 4.5, c.pos, c.params, c.isStatic, pool, scratch));
    EXPECT_FALSE(lists.usable());
}

TEST(NeighborLists, ChoosingFromAListIsExactInAnyOrder) {
    // selectFromList on short lists (insertion) and long ones (ranks), sorted, shuffled or
    // reversed, with equal distances and coincident agents: the maxNeighbors nearest strictly
    // within range, by (distSq, agent index), as brute force.
    std::mt19937_64 rng(8);
    Scratch s;
    for (int round = 0; round < 3000; ++round) {
        const std::size_t n = 1 + rng() % 40;
        std::vector<Vec2> pos(n + 1);
        for (std::size_t j = 0; j < n; ++j) {
            // Coordinates on a coarse lattice: many equal distances; some exactly coincident.
            pos[j] = {0.5 * static_cast<double>(rng() % 9), 0.5 * static_cast<double>(rng() % 9)};
        }
        const Vec2 p{2.0, 2.0};
        std::vector<std::uint32_t> candidates(n);
        for (std::uint32_t j = 0; j < n; ++j)
            candidates[j] = j;
        std::shuffle(candidates.begin(), candidates.end(), rng);
        if (round % 3 == 1) {
            std::sort(candidates.begin(), candidates.end(), [&](std::uint32_t a, std::uint32_t b) {
                return absSq(pos[a] - p) < absSq(pos[b] - p);
            });
        }
        if (round % 3 == 2) std::reverse(candidates.begin(), candidates.end());
        const std::size_t maxNeighbors = 1 + rng() % 12;
        const double rangeSq = 0.25 * static_cast<double>(rng() % 40);
        std::vector<Neighbor> want;
        for (const std::uint32_t j : candidates) {
            const double dx = pos[j].x - p.x;
            const double dy = pos[j].y - p.y;
            const double d = dx * dx + dy * dy;
            if (d < rangeSq) want.push_back({d, j});
        }
        std::sort(want.begin(), want.end(), [](const Neighbor& a, const Neighbor& b) {
            return a.distSq < b.distSq || (a.distSq == b.distSq && a.agent < b.agent);
        });
        if (want.size() > maxNeighbors) want.resize(maxNeighbors);
        selectFromList(p, rangeSq, maxNeighbors, pos.data(), candidates, s);
        ASSERT_EQ(s.neighborCount, want.size()) << "round " << round;
        for (std::size_t k = 0; k < want.size(); ++k) {
            ASSERT_EQ(s.neighbors[k].agent, want[k].agent) << "round " << round << " rank " << k;
            ASSERT_EQ(s.neighbors[k].distSq, want[k].distSq);
        }
    }
}

/// A simulator of 400 agents in [0, side)² walking to random goals (some static, ranges
/// 4..16, speeds up to 2).
Simulator walkers(std::mt19937_64& rng, double side, int threads) {
    Simulator sim;
    sim.setThreadCount(threads);
    for (int a = 0; a < 400; ++a) {
        AgentDef d;
        d.position = {side * unit(rng), side * unit(rng)};
        d.hasGoal = true;
        d.goal = {side * unit(rng), side * unit(rng)};
        d.params.neighborDist = 4.0 + 12.0 * unit(rng);
        d.params.maxNeighbors = 1 + static_cast<int>(rng() % 10);
        d.params.maxSpeed = 0.5 + 1.5 * unit(rng);
        d.params.prefSpeed = d.params.maxSpeed * 0.8;
        d.isStatic = a % 17 == 0;
        sim.addAgent(d);
    }
    return sim;
}

TEST(NeighborLists, SimulatorAppliesWhatAGridSearchGivesThroughEdits) {
    for (double side : {160.0, 3000.0}) { // crowded (LP3, contacts), sparse (hashed cells)
        SCOPED_TRACE(side);
        std::mt19937_64 rng(7);
        Simulator sim = walkers(rng, side, 1);
        std::mt19937_64 rng3(7);
        Simulator sim3 = walkers(rng3, side, 3);
        std::vector<AgentId> ids;
        SimulatorState early;
        int listSteps = 0;
        for (int step = 0; step < 60; ++step) {
            SCOPED_TRACE(step);
            // Edits that move agents other than by a step (lists void): a teleport, a removal,
            // an addition, a restore of an earlier state.
            if (step % 9 == 4) {
                const AgentId id = sim.agentIdAt(rng() % sim.agentCount());
                const Vec2 to{side * unit(rng), side * unit(rng)};
                sim.setPosition(id, to);
                sim3.setPosition(id, to);
            }
            if (step == 20) {
                const AgentId id = sim.agentIdAt(17);
                ASSERT_TRUE(sim.removeAgent(id));
                ASSERT_TRUE(sim3.removeAgent(id));
                AgentDef d;
                d.position = sim.positions()[3] + Vec2(0.1, 0.0);
                ASSERT_EQ(sim.addAgent(d), sim3.addAgent(d));
            }
            if (step == 10) early = sim.snapshot();
            if (step == 40) {
                sim.restore(early);
                sim3.restore(early);
            }
            ids.clear();
            for (std::size_t i = 0; i < sim.agentCount(); ++i)
                ids.push_back(sim.agentIdAt(i));
            const std::vector<ExplainRecord> dry = sim.explain(ids); // a fresh grid's search
            sim.step();
            sim3.step();
            for (std::size_t i = 0; i < sim.agentCount(); ++i) {
                ASSERT_EQ(sim.velocities()[i].x, dry[i].newVelocity.x) << "agent " << i;
                ASSERT_EQ(sim.velocities()[i].y, dry[i].newVelocity.y) << "agent " << i;
            }
            ASSERT_EQ(sim.stateHash(), sim3.stateHash());
            ASSERT_EQ(sim.lastStepStats().neighborLists, sim3.lastStepStats().neighborLists);
            listSteps += sim.lastStepStats().neighborLists ? 1 : 0;
        }
        // Lists are built on the first step and after each edit, searched in between.
        EXPECT_GE(listSteps, 50);
    }
}

TEST(NeighborLists, ExplainDuringAStepMatchesTheStep) {
    // step(ids, records) explains from the lists when the step searches them.
    std::mt19937_64 rng(9);
    Simulator sim = walkers(rng, 160.0, 2);
    std::vector<ExplainRecord> records;
    const std::vector<AgentId> ids{sim.agentIdAt(5), sim.agentIdAt(77), sim.agentIdAt(300)};
    for (int step = 0; step < 30; ++step) {
        ASSERT_TRUE(sim.lastStepStats().neighborLists || step == 0);
        const std::vector<ExplainRecord> dry = sim.explain(ids);
        sim.step(ids, records);
        ASSERT_EQ(records.size(), ids.size());
        for (std::size_t k = 0; k < ids.size(); ++k) {
            ASSERT_EQ(records[k].agentNeighbors.size(), dry[k].agentNeighbors.size());
            for (std::size_t j = 0; j < dry[k].agentNeighbors.size(); ++j)
                ASSERT_EQ(records[k].agentNeighbors[j].id, dry[k].agentNeighbors[j].id);
            ASSERT_EQ(records[k].newVelocity, dry[k].newVelocity);
            ASSERT_EQ(sim.velocities()[*sim.indexOf(ids[k])], dry[k].newVelocity);
        }
    }
}

} // namespace
} // namespace orca::detail
