#include "neighbor_lists.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>

#include "agent_decision.hpp"
#include "agent_grid.hpp"
#include "neighbor_select.hpp"
#include "thread_pool.hpp"

namespace orca::detail {

NeighborLists::Plan NeighborLists::plan(double skin) const {
    if (usable()) return Plan::Use;
    if (m_retryIn > 0) return Plan::Grid;
    // Lists that would not last kMinLifeSteps steps cost more than they save (a build scans a
    // wider block than the grid search and writes the lists). The negated test also sends a
    // NaN step to the grid.
    if (!(2.0 * kMinLifeSteps * m_lastStep <= skin)) return Plan::Grid;
    return Plan::Build;
}

bool NeighborLists::drop() {
    m_valid = false;
    m_retryIn = kRetrySteps;
    return false;
}

bool NeighborLists::build(const AgentGrid& grid, double skin, std::span<const Vec2> pos,
                          std::span<const AgentParams> params,
                          std::span<const std::uint8_t> isStatic, ThreadPool& pool,
                          std::span<Scratch> scratch) {
    m_valid = false;
    // A cell of more than kDenseCellItems agents within a cell width of each other: each of
    // them would list all the others.
    if (!grid.denseCells().empty()) return drop();
    const std::size_t n = pos.size();
    // Each worker writes its agents' lists into a buffer of its own. A buffer that grew by
    // doubling could hold twice what it needs: each is reserved for its share of the last
    // build's lists (plus a margin) and trimmed after a build that left it far too big.
    const auto workers = static_cast<std::size_t>(pool.size());
    m_buffers.resize(workers);
    for (std::vector<std::uint32_t>& b : m_buffers) {
        b.clear();
        b.reserve(m_lastTotal / workers + m_lastTotal / (4 * workers) + 1024);
    }
    m_ref.resize(n);
    const std::span<const std::uint32_t> items = grid.itemAgents();
    m_order.assign(items.begin(), items.end());

    // Cell by cell, like the step's search: the agents of a cell share the block of cells that
    // covers their reach (or, for a reach of more than 3 cells, each looks up its own square).
    const double invCell = 1.0 / grid.cellSize();
    const std::size_t cells = grid.occupiedCount();
    const std::size_t grain =
        std::clamp<std::size_t>(cells / (static_cast<std::size_t>(pool.size()) * 8), 4, 512);
    const std::size_t budget = kMaxMeanCandidates * n;
    std::atomic<bool> tooMany{false};
    std::vector<double> workerReach(workers, 0.0); ///< the longest reach each worker saw
    pool.parallelFor(cells, grain, [&](std::size_t begin, std::size_t end, int worker) {
        Scratch& s = scratch[static_cast<std::size_t>(worker)];
        // The worker's buffer, held in a local vector for the chunk: the buffers' headers lie
        // side by side in m_buffers, and each append writes its header's end pointer, so two
        // workers appending to their own buffers in place wrote the same cache line for every
        // candidate (a 10,000-agent build took as long on two threads as on one: 0.86 vs
        // 0.92 ms; 0.47 ms this way).
        std::vector<std::uint32_t> out = std::move(m_buffers[static_cast<std::size_t>(worker)]);
        const auto workerBits = static_cast<std::uint32_t>(worker) << 24;
        // Agent i's candidates, appended to `out`; a short list nearest first (so that choosing
        // from it in the steps that follow, when the order has changed little, inserts each
        // candidate in place).
        auto scan = [&](std::uint32_t i, double reachSq) {
            const std::size_t found = gatherCandidates(pos[i], i, reachSq, grid, s);
            if (found > kInsertionCandidates) { // chosen from by rank: any order will do
                out.insert(out.end(), s.candAgent.begin(),
                           s.candAgent.begin() + static_cast<std::ptrdiff_t>(found));
                return;
            }
            // Chosen from by insertion (selectFromList): sorted as the choice sorts them.
            pickNearest(found, found, s);
            for (std::size_t a = 0; a < found; ++a)
                out.push_back(s.neighbors[a].agent);
        };
        double longestReach = 0.0; // written once per chunk (no line shared while it runs)
        for (std::size_t c = begin; c < end && !tooMany.load(std::memory_order_relaxed); ++c) {
            const AgentGrid::CellView cell = grid.occupied(c);
            double cellReach = 0.0;
            for (std::uint32_t k = cell.start; k < cell.start + cell.count; ++k) {
                const std::uint32_t i = items[k];
                if (!isStatic[i] && params[i].maxNeighbors > 0)
                    cellReach = std::max(cellReach, params[i].neighborDist + skin);
            }
            longestReach = std::max(longestReach, cellReach);
            // ceil(reach / cell), at most 4 (beyond that the block is not used).
            const double cellsNeeded = std::min(cellReach * invCell, 4.0);
            const int whole = static_cast<int>(cellsNeeded);
            const int blockRadius = whole + (cellsNeeded > whole ? 1 : 0);
            const bool useBlock = blockRadius > 0 && blockRadius <= 3;
            if (useBlock) grid.blockRanges(cell.cx, cell.cy, blockRadius, s.ranges);
            for (std::uint32_t k = cell.start; k < cell.start + cell.count; ++k) {
                const std::uint32_t i = items[k];
                const auto offset = static_cast<std::uint32_t>(out.size());
                if (!isStatic[i] && params[i].maxNeighbors > 0) {
                    const double reach = params[i].neighborDist + skin;
                    if (!useBlock) grid.rangesNear(pos[i], reach, s.ranges);
                    scan(i, reach * reach);
                }
                const std::size_t count = out.size() - offset;
                if (count > kMaxCandidates || out.size() > budget) {
                    tooMany.store(true, std::memory_order_relaxed); // the others stop early
                    break;
                }
                m_ref[i] = {offset, static_cast<std::uint32_t>(count) | workerBits};
            }
        }
        double& reach = workerReach[static_cast<std::size_t>(worker)];
        reach = std::max(reach, longestReach);
        m_buffers[static_cast<std::size_t>(worker)] = std::move(out);
    });
    std::size_t total = 0;
    for (const std::vector<std::uint32_t>& b : m_buffers)
        total += b.size();
    if (tooMany.load() || total > budget) return drop();
    m_lastTotal = total;
    for (std::vector<std::uint32_t>& b : m_buffers) {
        if (b.capacity() > b.size() + b.size() / 2 + 4096) b.shrink_to_fit();
    }
    const double maxReach = *std::max_element(workerReach.begin(), workerReach.end());
    m_valid = true;
    m_drift = 0.0;
    // Rounding: a candidate is left out when its computed |d|² >= reach², and the search keeps
    // only computed |d|² < neighborDist². Each computed square is within a few ulps (relative
    // 1e-15) of the true one, so the margin 1e-12 * maxReach keeps the argument "moved less than
    // skin / 2" valid for the computed values too.
    m_allowed = skin - 1e-12 * maxReach;
    return true;
}

double NeighborLists::moved(double maxSpeedSq, double dt, double maxAbsCoordinate) {
    // p + v·dt is rounded twice (the product and the sum): |Δp| <= |v|·dt·(1 + 3u) + u·|p|,
    // u = 2^-53; the margins below are generous.
    m_lastStep = std::sqrt(maxSpeedSq) * dt * (1.0 + 1e-12) + 1e-15 * maxAbsCoordinate;
    m_drift += m_lastStep;
    if (m_retryIn > 0) --m_retryIn;
    return m_lastStep;
}

} // namespace orca::detail
