// AgentGrid against brute force, in both storage modes (dense cell array, hashed 4x4-cell
// groups) and with dense (kd-tree) cells: every query must return exactly the items of the
// cells it covers, each once, as whole cells; the items carry their agent's data; and the
// build gives the same layout without a thread pool and with pools of 1 to 6 workers (the
// crowds are large enough for the build to split them into 2 to 4 chunks).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "agent_grid.hpp"
#include "thread_pool.hpp"

namespace orca::detail {
namespace {

/// Deterministic uniform [0, 1).
double unitFrom(std::mt19937_64& rng) {
    return static_cast<double>(rng() >> 11) * 0x1.0p-53;
}

struct Config {
    std::string name;
    std::vector<Vec2> pos;
    double cellSize;
    bool hashed; ///< the grid is expected in hashed mode
};

/// The grid's cell coordinate of v (the same formula: floor of v / cell, clamped).
std::int32_t cellOf(double v, double cellSize) {
    const double c = std::clamp(v * (1.0 / cellSize), -1.0e9, 1.0e9);
    return static_cast<std::int32_t>(std::floor(c));
}

std::vector<Config> configs() {
    std::vector<Config> out;
    std::mt19937_64 rng(17);
    auto uniform = [&](std::size_t n, double lo, double hi) {
        std::vector<Vec2> p;
        for (std::size_t i = 0; i < n; ++i)
            p.push_back({lo + (hi - lo) * unitFrom(rng), lo + (hi - lo) * unitFrom(rng)});
        return p;
    };
    out.push_back({"dense square", uniform(9000, -40.0, 160.0), 7.0, false});
    out.push_back({"dense, many agents per cell", uniform(9000, 0.0, 30.0), 4.0, false});
    // Rows of 123 cells (segments of 64 and 59), enough cells to split the prefix pass.
    out.push_back({"dense, wide rows", uniform(9000, -1.0, 612.0), 5.0, false});
    out.push_back({"sparse world", uniform(9000, -1e6, 1e6), 15.0, true});
    {
        // A ring in agent order (consecutive agents share groups), like the circle workload.
        std::vector<Vec2> p;
        const std::size_t n = 20000;
        for (std::size_t i = 0; i < n; ++i) {
            const double a = 6.283185307179586 * double(i) / double(n);
            const double r = 16000.0 + 30.0 * unitFrom(rng);
            p.push_back({r * std::cos(a), r * std::sin(a)});
        }
        out.push_back({"ring", std::move(p), 15.0, true});
    }
    {
        // Clusters far apart, agents in random order, across group and sign boundaries.
        std::vector<Vec2> p;
        std::vector<Vec2> centres;
        for (int c = 0; c < 30; ++c)
            centres.push_back({2e5 * unitFrom(rng) - 1e5, 2e5 * unitFrom(rng) - 1e5});
        centres.push_back({0.0, 0.0});
        for (int i = 0; i < 13000; ++i) {
            const Vec2 c = centres[rng() % centres.size()];
            p.push_back(c + Vec2(80.0 * unitFrom(rng) - 40.0, 80.0 * unitFrom(rng) - 40.0));
        }
        out.push_back({"clusters far apart", std::move(p), 5.0, true});
    }
    {
        // Hashed, with cells that get kd-trees (coincident agents, a packed cluster).
        std::vector<Vec2> p = uniform(8200, -1e5, 1e5);
        for (int i = 0; i < 300; ++i)
            p.push_back({12.0, -7.0});
        for (int i = 0; i < 500; ++i)
            p.push_back({-300.0 + unitFrom(rng), 40.0 + unitFrom(rng)});
        std::shuffle(p.begin(), p.end(), rng);
        out.push_back({"sparse with dense cells", std::move(p), 10.0, true});
    }
    {
        // Dense mode with a dense cell.
        std::vector<Vec2> p = uniform(8600, 0.0, 100.0);
        for (int i = 0; i < 400; ++i)
            p.push_back({50.0, 50.0});
        std::shuffle(p.begin(), p.end(), rng);
        out.push_back({"dense with dense cells", std::move(p), 3.0, false});
    }
    for (const double cell : {0.5, 3.0}) {
        // Coordinates on cell boundaries, signed zeros, and beyond the clamp (±1e9 cells).
        std::vector<Vec2> p;
        const double inf = std::numeric_limits<double>::infinity();
        const std::vector<double> edges{0.0,  -0.0,  1e300,  -1e300,  inf,        -inf,
                                        1e10, -1e10, 1e-300, -1e-300, 0.1,        -0.1,
                                        3e9,  -3e9,  2.5,    -2.5,    0.5 * cell, -0.5 * cell};
        for (int k = -6; k <= 6; ++k) {
            for (const double e : edges) {
                p.push_back({k * cell, e});
                p.push_back({e, k * cell + (k % 2 ? 1e-12 : -1e-12)});
            }
        }
        out.push_back({"edge coordinates, cell " + std::to_string(cell), std::move(p), cell, true});
    }
    out.push_back({"single agent", {{-3.5, 2.0}}, 1.0, false});
    out.push_back({"no agents", {}, 1.0, false});
    return out;
}

void build(const Config& c, ThreadPool* pool, AgentGrid& g) {
    g.build(c.pos, c.cellSize, pool);
}

/// 9000 agents uniform in [0, world]^2 (9000: two chunks with a pool of two workers).
std::vector<Vec2> uniform9000(std::mt19937_64& rng, double world) {
    std::vector<Vec2> p;
    for (int i = 0; i < 9000; ++i)
        p.push_back({world * unitFrom(rng), world * unitFrom(rng)});
    return p;
}

using Cell = std::pair<std::int32_t, std::int32_t>;

/// Brute force: every agent's cell, and the agents of each occupied cell.
struct Truth {
    explicit Truth(const Config& c) : config(c) {
        for (std::uint32_t i = 0; i < c.pos.size(); ++i) {
            const Cell cell{cellOf(c.pos[i].x, c.cellSize), cellOf(c.pos[i].y, c.cellSize)};
            agentCell.push_back(cell);
            byCell[cell].push_back(i);
        }
    }
    /// Agents of the cells in [x0, x1] x [y0, y1], sorted.
    [[nodiscard]] std::vector<std::uint32_t> inBox(std::int32_t x0, std::int32_t x1,
                                                   std::int32_t y0, std::int32_t y1) const {
        std::vector<std::uint32_t> out;
        if ((double(x1) - x0 + 1.0) * (double(y1) - y0 + 1.0) <= 4096.0) {
            for (std::int32_t y = y0; y <= y1; ++y) {
                for (std::int32_t x = x0; x <= x1; ++x) {
                    const auto it = byCell.find({x, y});
                    if (it != byCell.end())
                        out.insert(out.end(), it->second.begin(), it->second.end());
                }
            }
            std::sort(out.begin(), out.end());
            return out;
        }
        for (std::uint32_t i = 0; i < agentCell.size(); ++i) {
            const auto [cx, cy] = agentCell[i];
            if (cx >= x0 && cx <= x1 && cy >= y0 && cy <= y1) out.push_back(i);
        }
        return out;
    }
    const Config& config;
    std::vector<Cell> agentCell;
    std::map<Cell, std::vector<std::uint32_t>> byCell;
};

/// The agents of `ranges`, sorted; fails when an item is covered twice or lies outside.
std::vector<std::uint32_t> agentsOf(const AgentGrid& g, std::size_t n,
                                    const std::vector<ItemRange>& ranges) {
    std::vector<std::uint32_t> out;
    std::vector<char> seen(n, 0);
    for (const ItemRange& r : ranges) {
        EXPECT_LT(r.begin, r.end); // no empty ranges
        EXPECT_LE(r.end, n);
        for (std::uint32_t k = r.begin; k < r.end && k < n; ++k) {
            EXPECT_FALSE(seen[k]) << "item " << k << " twice";
            seen[k] = 1;
            out.push_back(g.itemAgent(k));
        }
    }
    std::sort(out.begin(), out.end());
    return out;
}

/// Brute force of touchesDenseCell: a dense cell lies within one of the ranges.
bool touchesDense(const AgentGrid& g, const std::vector<ItemRange>& ranges) {
    for (const DenseCell& d : g.denseCells()) {
        for (const ItemRange& r : ranges) {
            if (d.begin >= r.begin && d.end <= r.end) return true;
            // Ranges are whole cells: a dense cell is inside a range or disjoint from it.
            EXPECT_TRUE(d.end <= r.begin || d.begin >= r.end);
        }
    }
    return false;
}

void checkQueries(const Truth& t, const AgentGrid& g, std::mt19937_64& rng) {
    const Config& c = t.config;
    const std::size_t n = c.pos.size();
    std::vector<ItemRange> ranges;
    // Blocks around occupied cells (the step's queries), and around cells next to them and
    // far away (possibly empty).
    std::vector<Cell> centres;
    for (std::size_t k = 0; k < g.occupiedCount(); k += 1 + g.occupiedCount() / 300)
        centres.push_back({g.occupied(k).cx, g.occupied(k).cy});
    for (int q = 0; q < 200 && g.occupiedCount() > 0; ++q) {
        const AgentGrid::CellView& v = g.occupied(rng() % g.occupiedCount());
        centres.push_back({v.cx + int(rng() % 9) - 4, v.cy + int(rng() % 9) - 4});
    }
    centres.push_back({-1'000'000'000, 1'000'000'000});
    centres.push_back({0, 0});
    for (const auto& [cx, cy] : centres) {
        for (int r = 0; r <= 3; ++r) {
            g.blockRanges(cx, cy, r, ranges);
            ASSERT_EQ(agentsOf(g, n, ranges), t.inBox(cx - r, cx + r, cy - r, cy + r))
                << "block (" << cx << ", " << cy << ") r " << r;
            ASSERT_EQ(g.touchesDenseCell(ranges), touchesDense(g, ranges));
        }
    }
    // Squares around points: agents, and points anywhere, small to huge.
    for (int q = 0; q < 300; ++q) {
        const Vec2 p = n > 0 && q % 2 == 0
                           ? c.pos[rng() % n]
                           : Vec2(2e6 * unitFrom(rng) - 1e6, 2e6 * unitFrom(rng) - 1e6) *
                                 (q % 3 == 0 ? 1e-4 : 1.0);
        const double range = c.cellSize * std::pow(10.0, 5.0 * unitFrom(rng) - 2.0);
        g.rangesNear(p, range, ranges);
        ASSERT_EQ(agentsOf(g, n, ranges),
                  t.inBox(cellOf(p.x - range, c.cellSize), cellOf(p.x + range, c.cellSize),
                          cellOf(p.y - range, c.cellSize), cellOf(p.y + range, c.cellSize)))
            << "near (" << p.x << ", " << p.y << ") range " << range;
        ASSERT_EQ(g.touchesDenseCell(ranges), touchesDense(g, ranges));
    }
}

/// nearest() and nearestFrom() (started from blocks of radius 0 to 2 around the agent's cell,
/// ranges up to 8 cells: the search then goes far beyond its start) against brute force.
void checkNearest(const Config& c, const AgentGrid& g, std::mt19937_64& rng) {
    const std::size_t n = c.pos.size();
    if (n == 0) return;
    std::vector<Neighbor> got;
    std::vector<ItemRange> ranges;
    std::vector<ItemRange> start;
    auto expectSame = [](const std::vector<Neighbor>& found,
                         const std::vector<std::pair<double, std::uint32_t>>& want) {
        ASSERT_EQ(found.size(), want.size());
        for (std::size_t r = 0; r < want.size(); ++r) {
            ASSERT_EQ(found[r].agent, want[r].second);
            ASSERT_EQ(found[r].distSq, want[r].first);
        }
    };
    for (int q = 0; q < 300; ++q) {
        const auto self = static_cast<std::uint32_t>(rng() % n);
        const Vec2 p = c.pos[self];
        if (!std::isfinite(p.x) || !std::isfinite(p.y)) continue; // distances of NaN
        const double range = c.cellSize * (0.2 + (q % 3 == 0 ? 8.0 : 2.5) * unitFrom(rng));
        const std::size_t k = 1 + rng() % 20;
        std::vector<std::pair<double, std::uint32_t>> want;
        for (std::uint32_t j = 0; j < n; ++j) {
            const double d = absSq(c.pos[j] - p);
            if (j != self && d < range * range) want.push_back({d, j});
        }
        std::sort(want.begin(), want.end());
        if (want.size() > k) want.resize(k);
        g.nearest(p, self, range * range, k, got, ranges);
        expectSame(got, want);
        const int radius = q % 3;
        const std::int32_t cx = cellOf(p.x, c.cellSize), cy = cellOf(p.y, c.cellSize);
        g.blockRanges(cx, cy, radius, start);
        // The own cell's items (searched first), or none.
        ItemRange own{0, 0};
        if (q % 2 == 0) {
            for (std::size_t at = 0; at < g.occupiedCount(); ++at) {
                const AgentGrid::CellView& v = g.occupied(at);
                if (v.cx == cx && v.cy == cy) own = {v.start, v.start + v.count};
            }
        }
        g.nearestFrom(p, self, range * range, k, own, cx, cy, radius, start, got, ranges);
        expectSame(got, want);
    }
}

/// The same occupied cells, items and dense cells.
void expectSameLayout(const AgentGrid& h, const AgentGrid& g) {
    ASSERT_EQ(h.occupiedCount(), g.occupiedCount());
    for (std::size_t k = 0; k < g.occupiedCount(); ++k) {
        ASSERT_EQ(h.occupied(k).cx, g.occupied(k).cx);
        ASSERT_EQ(h.occupied(k).cy, g.occupied(k).cy);
        ASSERT_EQ(h.occupied(k).start, g.occupied(k).start);
        ASSERT_EQ(h.occupied(k).count, g.occupied(k).count);
    }
    ASSERT_EQ(h.itemAgents().size(), g.itemAgents().size());
    for (std::uint32_t k = 0; k < g.itemAgents().size(); ++k) {
        ASSERT_EQ(h.itemAgent(k), g.itemAgent(k));
        ASSERT_EQ(h.itemPosition(k), g.itemPosition(k));
    }
    ASSERT_EQ(h.denseCells().size(), g.denseCells().size());
    ASSERT_EQ(h.treeNodes().size(), g.treeNodes().size());
}

TEST(AgentGrid, QueriesMatchBruteForceInBothModes) {
    ThreadPool pool1(1);
    ThreadPool pool2(2);
    ThreadPool pool3(3);
    ThreadPool pool6(6); // 4 chunks at most
    std::mt19937_64 rng(23);
    for (const Config& c : configs()) {
        SCOPED_TRACE(c.name);
        const std::size_t n = c.pos.size();
        const Truth truth(c);
        AgentGrid g;
        build(c, nullptr, g);
        // The mode is what the config means to test (dense cells: kd-trees are built).
        const std::size_t cellsInBox = [&] {
            if (n == 0) return std::size_t{0};
            std::int32_t x0 = cellOf(c.pos[0].x, c.cellSize), x1 = x0;
            std::int32_t y0 = cellOf(c.pos[0].y, c.cellSize), y1 = y0;
            for (const Vec2 p : c.pos) {
                x0 = std::min(x0, cellOf(p.x, c.cellSize));
                x1 = std::max(x1, cellOf(p.x, c.cellSize));
                y0 = std::min(y0, cellOf(p.y, c.cellSize));
                y1 = std::max(y1, cellOf(p.y, c.cellSize));
            }
            return std::size_t(double(x1 - x0 + 1) * double(y1 - y0 + 1));
        }();
        EXPECT_EQ(c.hashed, double(cellsInBox) > 4.0 * double(n) + 1024.0);
        if (c.name.find("dense cells") != std::string::npos) {
            EXPECT_FALSE(g.denseCells().empty());
        }
        // Every agent is one item with its own data; occupied cells hold exactly their agents.
        ASSERT_EQ(g.itemAgents().size(), n);
        std::vector<int> seen(n, 0);
        for (std::uint32_t k = 0; k < n; ++k) {
            const std::uint32_t a = g.itemAgent(k);
            ASSERT_LT(a, n);
            ++seen[a];
            ASSERT_EQ(g.itemPosition(k), c.pos[a]);
        }
        ASSERT_EQ(std::count(seen.begin(), seen.end(), 1), std::ptrdiff_t(n));
        std::set<Cell> cells;
        std::uint32_t covered = 0;
        for (std::size_t k = 0; k < g.occupiedCount(); ++k) {
            const AgentGrid::CellView& v = g.occupied(k);
            ASSERT_TRUE(cells.insert({v.cx, v.cy}).second) << "cell listed twice";
            ASSERT_GT(v.count, 0u);
            covered += v.count;
            std::vector<std::uint32_t> items;
            for (std::uint32_t i = v.start; i < v.start + v.count; ++i)
                items.push_back(g.itemAgent(i));
            std::sort(items.begin(), items.end());
            ASSERT_EQ(items, truth.inBox(v.cx, v.cx, v.cy, v.cy));
        }
        ASSERT_EQ(covered, n);
        checkQueries(truth, g, rng);
        checkNearest(c, g, rng);

        // The same layout with any pool, also when the grid is rebuilt (reused buffers, and a
        // grid that was in the other mode before).
        AgentGrid other;
        build(configs()[c.hashed ? 0 : 2], nullptr, other);
        for (ThreadPool* pool : {&pool1, &pool2, &pool3, &pool6, &pool2}) {
            SCOPED_TRACE(pool->size());
            build(c, pool, other);
            expectSameLayout(other, g);
            if (testing::Test::HasFatalFailure()) return;
            checkQueries(truth, other, rng);
        }
    }
}

TEST(AgentGrid, RebuildsFollowACrowdThatSpreadsAndGathers) {
    // The hashed table is sized from the previous build: a crowd that suddenly covers many
    // more groups (and then few again) must still be indexed exactly.
    ThreadPool pool(2);
    std::mt19937_64 rng(29);
    AgentGrid b;
    for (std::size_t round = 0; round < 8; ++round) {
        const std::size_t n = round % 2 == 0 ? 50 : 40000;
        Config c{"round " + std::to_string(round), {}, 2.0, true};
        for (std::size_t i = 0; i < n; ++i)
            c.pos.push_back({4e5 * unitFrom(rng) - 2e5, 4e5 * unitFrom(rng) - 2e5});
        SCOPED_TRACE(c.name);
        const Truth truth(c);
        build(c, round % 4 < 2 ? &pool : nullptr, b);
        std::uint32_t covered = 0;
        for (std::size_t k = 0; k < b.occupiedCount(); ++k)
            covered += b.occupied(k).count;
        ASSERT_EQ(covered, n);
        std::vector<ItemRange> ranges;
        for (std::size_t q = 0; q < 500; ++q) {
            const std::uint32_t i = static_cast<std::uint32_t>(rng() % n);
            const std::int32_t cx = cellOf(c.pos[i].x, c.cellSize);
            const std::int32_t cy = cellOf(c.pos[i].y, c.cellSize);
            b.blockRanges(cx, cy, 1, ranges);
            ASSERT_EQ(agentsOf(b, n, ranges), truth.inBox(cx - 1, cx + 1, cy - 1, cy + 1));
        }
    }
}

TEST(AgentGrid, LayoutDoesNotDependOnThePreviousBuild) {
    // A build starts from a guess made from the previous one (its mode, and in dense mode its
    // box): a crowd that moves, jumps out of the box, spreads out and gathers again must give
    // the grid a fresh build gives.
    ThreadPool pool(2);
    std::mt19937_64 rng(31);
    for (const double world : {300.0, 3e5}) {
        SCOPED_TRACE(world);
        Config c{"moving crowd", uniform9000(rng, world), 5.0, world > 1e3};
        AgentGrid kept;
        for (int step = 0; step < 14; ++step) {
            SCOPED_TRACE(step);
            for (Vec2& p : c.pos)
                p += Vec2(unitFrom(rng) - 0.5, unitFrom(rng) - 0.5) * 2.0;
            if (step == 3) c.pos[17] = {-40.0, 1e3};                    // leaves the box
            if (step == 5) c.pos[9000 - 3] = c.pos[0] - Vec2(6.0, 0.0); // just outside
            if (step == 7 || step == 10) {
                const double f = step == 7 ? 1000.0 : 0.001; // dense <-> hashed
                for (Vec2& p : c.pos)
                    p *= f;
            }
            ThreadPool* p = step % 3 == 2 ? nullptr : &pool;
            build(c, p, kept);
            AgentGrid fresh;
            build(c, p, fresh);
            expectSameLayout(kept, fresh);
            if (testing::Test::HasFatalFailure()) return;
            if (step % 4 == 3) checkQueries(Truth(c), kept, rng);
        }
    }
}

} // namespace
} // namespace orca::detail
