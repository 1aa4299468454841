#pragma once
// Uniform grid over agents, rebuilt every step. Two storage modes with one interface:
//  * dense — a cell array over the agents' bounding box, when that box has at most a few
//    cells per agent (typical crowds): O(1) cell lookup, and the cells of a row are
//    contiguous, so a block of cells is a handful of contiguous item ranges;
//  * hashed — only occupied groups of 4x4 cells are stored (an open-addressing table maps a
//    group to its number), when the agents are spread thinly over a large world (e.g. a ring
//    of 100,000 agents), so the index never grows with empty space.
// Items are stored cell by cell with a copy of what neighbour queries read (position and
// agent index), so a query scans contiguous memory; whatever else a caller needs of an agent
// it reads from its own arrays by the agent index. The build is a counting
// sort by cell, its passes split into contiguous chunks of agents run in parallel with a
// thread pool; the layout (agents in ascending index within a cell) is the same for any
// number of chunks.
//
// Dense cells. A cell holding more than kDenseCellItems agents (a crowd packed far tighter
// than its neighbour range, or agents at one point) would make every query in it scan all of
// them: quadratic. Such a cell gets a static kd-tree over its items, built with the grid: the
// items are reordered within the cell into tree order, and each node keeps its bounding box
// and its smallest agent index. Splits go by (x, y, agent index) along the wider side, and by
// agent index alone when the items all coincide, so even a cell of identical points splits
// evenly. Queries walk the tree instead of scanning the cell; ordinary cells keep the plain
// scan (and a grid without dense cells pays nothing for the feature).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "orca/geometry.hpp"

namespace orca::detail {

class ThreadPool;

/// One neighbour: squared distance and agent index (ties broken by index).
struct Neighbor {
    double distSq;
    std::uint32_t agent; ///< dense agent index
};

/// Items [begin, end) of the grid's item arrays.
struct ItemRange {
    std::uint32_t begin;
    std::uint32_t end;
};

/// A node of a dense cell's kd-tree: the items [begin, end). A leaf when `right` is 0; else
/// the children are the next node (left) and node `right`.
struct TreeNode {
    Vec2 lo; ///< bounding box of the items' positions
    Vec2 hi;
    std::uint32_t begin;
    std::uint32_t end;
    std::uint32_t minAgent; ///< smallest agent index among the items
    std::uint32_t right;
};

/// A dense cell: its items [begin, end) and the index of its tree's root node.
struct DenseCell {
    std::uint32_t begin;
    std::uint32_t end;
    std::uint32_t root;
};

/// Lower bound of absSq(q - p) over the points q of the box [lo, hi], computed with the same
/// rounded operations: rounding is monotonic, so for x >= lo.x, fl(x - p.x) >= fl(lo.x - p.x),
/// and the bound never exceeds a distance the scan itself would compute (exact pruning).
[[nodiscard]] inline double boxDistSqLower(Vec2 lo, Vec2 hi, Vec2 p) {
    const double dx = p.x < lo.x ? lo.x - p.x : (p.x > hi.x ? p.x - hi.x : 0.0);
    const double dy = p.y < lo.y ? lo.y - p.y : (p.y > hi.y ? p.y - hi.y : 0.0);
    return absSq(Vec2(dx, dy));
}

/// Upper bound of absSq(q - p) over the box [lo, hi] (same rounded operations, see above).
[[nodiscard]] inline double boxDistSqUpper(Vec2 lo, Vec2 hi, Vec2 p) {
    const double dx = std::max(std::abs(lo.x - p.x), std::abs(hi.x - p.x));
    const double dy = std::max(std::abs(lo.y - p.y), std::abs(hi.y - p.y));
    return absSq(Vec2(dx, dy));
}

/// A scaled coordinate clamped to +-1e9 cells before the int32 conversion; NaN (a corrupt
/// state the step then refuses) goes to -1e9, so cell arithmetic never nears the int32 limits.
[[nodiscard]] inline double clampCell(double c) {
    c = c > -1.0e9 ? c : -1.0e9;
    return c < 1.0e9 ? c : 1.0e9;
}

class AgentGrid {
  public:
    /// Cells with more items than this get a kd-tree. Ordinary crowds hold a few agents per
    /// cell (circle/uniform workloads: under 30 even where they jam) and keep the plain scan.
    static constexpr std::uint32_t kDenseCellItems = 64;
    /// Tree leaves hold at most this many items.
    static constexpr std::uint32_t kLeafItems = 16;

    /// Rebuilds the grid from dense agent arrays. `cellSize` > 0 (world units). With a pool,
    /// the passes over the agents and over the cells run in parallel chunks; the grid is the
    /// same with or without one.
    void build(std::span<const Vec2> pos, double cellSize, ThreadPool* pool = nullptr);

    /// The (up to) `maxNeighbors` agents nearest to `p` with squared distance < `rangeSq`,
    /// excluding agent `self`, sorted by (distSq, agent index). Replaces `out`'s contents.
    void nearest(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                 std::vector<Neighbor>& out, std::vector<ItemRange>& ranges) const;
    /// As nearest(), among the items of `ranges` only (whole cells, as rangesNear() and
    /// blockRanges() return them; they must cover the range around p).
    void nearestIn(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                   std::span<const ItemRange> ranges, std::vector<Neighbor>& out) const;
    /// As nearest(), output-sensitive: the search starts with `start`, the item ranges of the
    /// cells within `startRadius` of cell (cx, cy) (blockRanges(); p's cell, so a cell's agents
    /// share them), and then visits only the cells within the distance of the k-th nearest
    /// found there (or within the range, when fewer were found). With cells about as wide as
    /// the k-th neighbour's distance, the work is bounded by maxNeighbors, not by the agents
    /// within the range. `own` is the items of cell (cx, cy), searched first (or empty).
    /// Same neighbours, same order as nearest(). `ranges` is scratch.
    void nearestFrom(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                     ItemRange own, std::int32_t cx, std::int32_t cy, int startRadius,
                     std::span<const ItemRange> start, std::vector<Neighbor>& out,
                     std::vector<ItemRange>& ranges) const;
    /// The second half of nearestFrom(): `out` holds the (up to) maxNeighbors nearest among
    /// the cells within `startRadius` of cell (cx, cy), sorted; adds the cells beyond them
    /// that can still hold nearer agents.
    void nearestBeyond(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                       std::int32_t cx, std::int32_t cy, int startRadius,
                       std::vector<Neighbor>& out, std::vector<ItemRange>& ranges) const;
    /// True when one of `ranges` (whole cells) holds a dense cell.
    [[nodiscard]] bool touchesDenseCell(std::span<const ItemRange> ranges) const;

    /// Replaces `out` with the item ranges of every cell overlapping the square of half-size
    /// `range` around p (a superset of the agents within `range`).
    void rangesNear(Vec2 p, double range, std::vector<ItemRange>& out) const;
    /// Replaces `out` with the item ranges of the cells within `r` cells of cell (cx, cy).
    void blockRanges(std::int32_t cx, std::int32_t cy, int r, std::vector<ItemRange>& out) const;

    /// An occupied cell: its coordinates and its items [start, start + count).
    struct CellView {
        std::int32_t cx;
        std::int32_t cy;
        std::uint32_t start;
        std::uint32_t count;
    };
    [[nodiscard]] std::size_t occupiedCount() const { return m_occupied.size(); }
    [[nodiscard]] const CellView& occupied(std::size_t k) const { return m_occupied[k]; }
    [[nodiscard]] double cellSize() const { return m_cellSize; }

    [[nodiscard]] std::span<const Vec2> itemPositions() const { return m_itemPos; }
    [[nodiscard]] Vec2 itemPosition(std::uint32_t item) const { return m_itemPos[item]; }
    [[nodiscard]] std::uint32_t itemAgent(std::uint32_t item) const { return m_itemAgent[item]; }
    [[nodiscard]] std::span<const std::uint32_t> itemAgents() const { return m_itemAgent; }

    /// Dense cells in item order, and the nodes of their trees.
    [[nodiscard]] std::span<const DenseCell> denseCells() const { return m_denseCells; }
    [[nodiscard]] std::span<const TreeNode> treeNodes() const { return m_nodes; }
    /// Splits `r` (whole cells) into plain parts, passed to plain(begin, end), and dense
    /// cells, passed to dense(const DenseCell&), in item order.
    template <class Plain, class Dense>
    void splitRange(ItemRange r, Plain&& plain, Dense&& dense) const {
        auto it = std::lower_bound(m_denseCells.begin(), m_denseCells.end(), r.begin,
                                   [](const DenseCell& c, std::uint32_t b) { return c.begin < b; });
        std::uint32_t at = r.begin;
        for (; it != m_denseCells.end() && it->begin < r.end; ++it) {
            if (at < it->begin) plain(at, it->begin);
            dense(*it);
            at = it->end;
        }
        if (at < r.end) plain(at, r.end);
    }

  private:
    // Cells are numbered: in dense mode row by row over the bounding box; in hashed mode group
    // by group (groups of 4x4 neighbouring cells, numbered in order of first occupation, so
    // spatially coherent with the agent order), cells row-major within a group. Cell c holds
    // items [m_cellStart[c], m_cellStart[c + 1]): agents in ascending index, so the layout
    // does not depend on the thread count. In hashed mode a block of 3x3 cells touches at most
    // 4 groups, usually the same ones as the previous cell's block, so the lookups stay in
    // cache even when the table is large.
    static constexpr int kGroupShift = 2; ///< 4x4 cells per group
    static constexpr int kGroupCells = 1 << (2 * kGroupShift);
    static constexpr std::uint32_t kNoGroup = ~std::uint32_t{0};
    /// A slot of the open-addressing table of occupied groups. Slots of an older build (epoch
    /// other than m_epoch) count as empty, so the table is not cleared every step.
    struct Slot {
        std::uint64_t key;
        std::uint32_t group; ///< group number
        std::uint32_t epoch;
    };
    /// Agents per chunk at least, for the build's parallel passes; and chunks at most (each
    /// chunk after the first has a count array over all cells: memory, and work in the prefix
    /// pass).
    static constexpr std::size_t kMinChunkAgents = 4096;
    static constexpr std::size_t kMaxChunks = 4;
    /// Cells per span at least, for the parallel prefix pass.
    static constexpr std::size_t kMinSpanCells = 4096;

    // Group coordinates are biased by 2^31: no group (|c| <= 1e9 cells) maps to ~0.
    [[nodiscard]] static std::uint64_t makeKey(std::int32_t gx, std::int32_t gy) {
        return (std::uint64_t(std::uint32_t(gx) ^ 0x80000000u) << 32) |
               (std::uint32_t(gy) ^ 0x80000000u);
    }
    [[nodiscard]] static int localIndex(std::int32_t cx, std::int32_t cy) {
        constexpr std::int32_t mask = (1 << kGroupShift) - 1;
        return (cx & mask) | ((cy & mask) << kGroupShift);
    }
    [[nodiscard]] std::size_t slotOf(std::uint64_t key) const {
        return static_cast<std::size_t>((key * 0x9E3779B97F4A7C15ull) >> m_shift);
    }
    /// The number of group (gx, gy) (group coordinates), or kNoGroup.
    [[nodiscard]] std::uint32_t findGroup(std::int32_t gx, std::int32_t gy) const;
    [[nodiscard]] std::int32_t cellCoord(double v) const {
        // floor(), without a libm call (x86-64 baseline has no SSE4.1 round instruction and
        // this runs for every agent every step). |coordinates| are bounded by validation (1e7
        // in scenes); the clamp keeps any input from overflowing the conversion.
        const double c = clampCell(v * m_invCellSize);
        const auto t = static_cast<std::int32_t>(c); // truncates toward zero
        return t - static_cast<std::int32_t>(c < static_cast<double>(t));
    }
    void boxRanges(std::int32_t x0, std::int32_t x1, std::int32_t y0, std::int32_t y1,
                   std::vector<ItemRange>& out) const;
    /// Runs fn(chunk, begin, end) over `chunks` contiguous ranges of the n agents, in
    /// parallel when chunks > 1.
    template <class Fn>
    void forChunks(ThreadPool* pool, std::size_t chunks, std::size_t n, const Fn& fn);
    /// Bounding box of a chunk's cells, and whether a cell fell outside the guessed dense box.
    struct Box {
        std::int32_t x0, x1, y0, y1;
        bool outside;
    };
    /// The first pass over the agents [begin, end) (chunk k): their bounding box, and the
    /// work of the mode the grid is expected in (that of the previous build):
    ///  * Dense — each agent's cell in the box m_x0.., m_cols x m_rows (the previous box with
    ///    a margin: the same row-major cell order as the exact box), counted per chunk;
    ///  * Assign (hashed, one chunk) — the groups numbered in order of first occupation, each
    ///    agent's cell, counted (serial);
    ///  * Runs (hashed, several chunks) — the chunk's runs of agents in one group, its agents'
    ///    cells relative to them (mergeRuns() numbers the groups);
    ///  * Box — nothing else (no previous build).
    enum class Guess { Box, Dense, Assign, Runs };
    Box firstPass(Guess guess, std::span<const Vec2> pos, std::size_t k, std::size_t begin,
                  std::size_t end);
    /// Hashed mode, several chunks: numbers the chunks' runs' groups in order (serial, one
    /// lookup per run), which is the order of first occupation.
    void mergeRuns();
    /// Counts chunk k's agents per cell (chunk 0 into m_cellStart, chunk k > 0 into its
    /// cursor array); dense mode also sets their cells, hashed mode translates them from runs.
    void countPass(std::span<const Vec2> pos, std::size_t k, std::size_t begin, std::size_t end);
    /// Hashed mode: the table, empty, sized for about m_lastGroupCount groups.
    void resetTable();
    /// Hashed mode: doubles the table and reinserts the groups.
    void growTable();
    /// Hashed mode: the number of the group with this key, numbering it if new.
    std::uint32_t groupOf(std::uint64_t key);
    /// Turns the per-chunk counts into cell starts and write cursors, and lists the occupied
    /// cells (and those that get a kd-tree); over spans of cells in parallel when there are
    /// several chunks and many cells.
    void prefixCells(ThreadPool* pool, std::size_t chunks);
    /// prefixCells() over the rows (dense) or groups (hashed) [u0, u1), whose items start at
    /// `run`: emit(cx, cy, begin, count) for each occupied cell, in order, and big(k) for
    /// the k-th of them when it holds more than kDenseCellItems. Returns the items' end.
    template <class Emit, class Big>
    std::uint32_t prefixUnits(std::size_t chunks, std::size_t u0, std::size_t u1, std::uint32_t run,
                              Emit&& emit, Big&& big);
    /// Copies the agents into the items, cell by cell (each chunk of agents in parallel).
    void scatter(std::span<const Vec2> pos, ThreadPool* pool, std::size_t chunks);
    /// Builds the trees of the dense cells (after scatter()).
    void buildDenseCells();
    /// Node over order[b, e) (item indices); returns its index in m_nodes.
    std::uint32_t buildNode(std::uint32_t* order, std::uint32_t b, std::uint32_t e);
    /// Offers the items of `ranges` (whole cells) to the neighbour list (see nearestIn()).
    void offerRanges(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                     std::span<const ItemRange> ranges, std::vector<Neighbor>& out,
                     double& limitSq) const;
    /// Offers items [b, e) to the neighbour list (see nearestIn()).
    void scanItems(std::uint32_t b, std::uint32_t e, Vec2 p, std::uint32_t self, double rangeSq,
                   std::size_t maxNeighbors, std::vector<Neighbor>& out, double& limitSq) const;
    void searchTree(const DenseCell& cell, Vec2 p, std::uint32_t self, double rangeSq,
                    std::size_t maxNeighbors, std::vector<Neighbor>& out, double& limitSq) const;

    double m_cellSize = 1.0;
    double m_invCellSize = 1.0;
    bool m_dense = true;
    std::size_t m_cells = 0;                ///< cells numbered (dense: the box; hashed: 16 a group)
    std::vector<std::uint32_t> m_cellStart; ///< m_cells + 1 offsets into the items
    // Dense mode.
    std::int32_t m_x0 = 0; ///< cell coordinates of column 0 / row 0
    std::int32_t m_y0 = 0;
    std::int32_t m_cols = 0;
    std::int32_t m_rows = 0;
    // Hashed mode.
    int m_shift = 64;
    std::size_t m_mask = 0;
    std::uint32_t m_epoch = 0;
    std::vector<Slot> m_slots;              ///< open-addressing table of the occupied groups
    std::vector<std::uint64_t> m_groupKeys; ///< per group number: its key
    std::size_t m_lastGroupCount = 0;
    /// A run of consecutive agents in one group (several chunks: their cells are run * 16 +
    /// local index until the runs are numbered).
    struct Run {
        std::uint64_t key;
        std::uint32_t group;
    };
    std::vector<std::vector<Run>> m_chunkRuns; ///< per chunk: its runs
    // Both.
    std::vector<CellView> m_occupied;
    std::vector<std::uint32_t> m_bigCells;  ///< occupied cells holding > kDenseCellItems
    std::vector<std::uint32_t> m_agentCell; ///< per agent: its cell; then the dense cells'
                                            ///< tree order
    std::vector<std::uint32_t> m_cursor;    ///< write cursors of chunks 1.. (m_cells each)
    std::vector<Box> m_chunkBox;            ///< per chunk: bounding box of its agents' cells
    bool m_built = false; ///< built before: m_lastBox and m_dense are the last build's
    Box m_lastBox{0, -1, 0, -1, false}; ///< the last build's exact bounding box
    /// Margin (cells) of the guessed dense box around the last one (agents move much less
    /// than a cell per step).
    static constexpr std::int32_t kBoxMargin = 2;
    /// Per span of cells (parallel prefixCells()): its items and occupied cells, then where
    /// they start; and its big cells.
    struct Span {
        std::uint32_t items;
        std::uint32_t occupied;
    };
    std::vector<Span> m_spans;
    std::vector<std::vector<std::uint32_t>> m_spanBigCells;
    std::vector<Vec2> m_itemPos;
    std::vector<std::uint32_t> m_itemAgent;
    std::vector<DenseCell> m_denseCells;
    std::vector<TreeNode> m_nodes;
};

inline std::uint32_t AgentGrid::findGroup(std::int32_t gx, std::int32_t gy) const {
    const std::uint64_t key = makeKey(gx, gy);
    for (std::size_t s = slotOf(key);; s = (s + 1) & m_mask) {
        const Slot& slot = m_slots[s];
        if (slot.epoch != m_epoch) return kNoGroup;
        if (slot.key == key) return slot.group;
    }
}

} // namespace orca::detail
