#pragma once
/// \file roadmap_graph.hpp
/// Internals of the roadmap (roadmap.hpp): the immutable graph a build produces, with its two
/// uniform grids (obstacle edges for visibility, nodes for neighbour searches).

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>
#include <utility>
#include <vector>

#include "orca/geometry.hpp"
#include "segment_rows.hpp"

namespace orca::detail {

/// One obstacle edge (a thin segment is stored once: it blocks from both sides anyway).
struct RoadmapSegment {
    Vec2 a{0.0, 0.0};
    Vec2 b{0.0, 0.0};
};

/// Uniform grid over obstacle edges; each cell holds copies of the edges crossing it (edges in
/// cell order make the visibility walk read memory in sequence).
class SegmentGrid {
  public:
    /// Rebuilds the grid; `cellSize` > 0 (doubled while the grid would have more than about
    /// 4 cells per segment).
    void build(std::span<const RoadmapSegment> segments, double cellSize);

    /// Calls f(segment, segmentIndex) for the edges registered in every cell that the capsule
    /// of radius `r` around [a, b] overlaps (a superset of the edges within r of it; an edge may
    /// come several times), rows and columns in the direction a -> b so that a blocking edge
    /// near a is met early. Stops and returns true as soon as f returns true.
    template <class F> bool anyAlong(Vec2 a, Vec2 b, double r, F&& f) const;

    /// Calls f(segment, segmentIndex, column) for the edges of the cells of p's row from p's
    /// column to the grid's right end (dir > 0) or left end (dir < 0). Nothing when p's row is
    /// outside the grid.
    template <class F> void alongRow(Vec2 p, int dir, F&& f) const;

    [[nodiscard]] bool empty() const { return m_cellStart.empty(); }
    [[nodiscard]] int cellX(double x) const {
        return clampedCell((x - m_origin.x) * m_invCellSize, m_cols);
    }
    [[nodiscard]] int cellY(double y) const {
        return clampedCell((y - m_origin.y) * m_invCellSize, m_rows);
    }
    [[nodiscard]] int cols() const { return m_cols; }
    [[nodiscard]] Vec2 lo() const { return m_origin; }
    [[nodiscard]] Vec2 hi() const { return m_max; }
    [[nodiscard]] std::size_t bytes() const;

  private:
    Vec2 m_origin{0.0, 0.0};
    Vec2 m_max{0.0, 0.0};
    double m_cellSize = 1.0;
    double m_invCellSize = 1.0;
    int m_cols = 0;
    int m_rows = 0;
    std::vector<std::uint32_t> m_cellStart; ///< cols*rows+1 offsets into m_items
    std::vector<RoadmapSegment> m_items;    ///< edge copies, cell by cell
    std::vector<std::uint32_t> m_itemIds;   ///< their segment indices
};

/// Uniform grid over the nodes (CSR of node indices, ascending within a cell). Cell
/// coordinates of query points are not clamped, so points outside the grid work.
class NodeGrid {
  public:
    void build(std::span<const Vec2> points, double cellSize);
    [[nodiscard]] bool empty() const { return m_cellStart.empty(); }
    [[nodiscard]] double cellSize() const { return m_cellSize; }
    /// Unclamped cell coordinate (limited to +-2^40 so far points cannot overflow).
    [[nodiscard]] std::int64_t cx(double x) const { return coord((x - m_origin.x) * m_inv); }
    [[nodiscard]] std::int64_t cy(double y) const { return coord((y - m_origin.y) * m_inv); }
    /// Chebyshev distance (in cells) from cell (x, y) to the nearest / farthest grid cell.
    [[nodiscard]] std::int64_t minRing(std::int64_t x, std::int64_t y) const;
    [[nodiscard]] std::int64_t maxRing(std::int64_t x, std::int64_t y) const;
    /// Calls f(node) for the nodes of the cells in [x0, x1] x [y0, y1] (clipped), row-major.
    template <class F>
    void forEachIn(std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1, F&& f) const;
    /// Calls f(node) for the nodes of the cells at Chebyshev distance exactly k from (x, y).
    template <class F>
    void forEachInRing(std::int64_t x, std::int64_t y, std::int64_t k, F&& f) const;
    /// The nodes' bounding box.
    [[nodiscard]] Vec2 lo() const { return m_origin; }
    [[nodiscard]] Vec2 hi() const { return m_max; }
    /// Squared distance from p to the farthest corner of the nodes' bounding box.
    [[nodiscard]] double farthestSq(Vec2 p) const;
    [[nodiscard]] std::size_t bytes() const;

  private:
    static std::int64_t coord(double v) {
        return static_cast<std::int64_t>(std::floor(std::clamp(v, -0x1p40, 0x1p40)));
    }
    Vec2 m_origin{0.0, 0.0};
    Vec2 m_max{0.0, 0.0};
    double m_cellSize = 1.0;
    double m_inv = 1.0;
    std::int64_t m_cols = 0;
    std::int64_t m_rows = 0;
    std::vector<std::uint32_t> m_cellStart;
    std::vector<std::uint32_t> m_items;
};

/// The graph a build produces. Immutable once built (shared by Roadmap copies).
struct RoadmapGraph {
    double clearance = 0.0;
    double edgeRadius = 0.0;   ///< clearance * (1 - kEdgeSlack)
    double searchRadius = 0.0; ///< steer()'s first search radius
    bool full = true;          ///< full visibility graph
    std::size_t sectorNeighbours = 4;

    std::vector<RoadmapSegment> segments;
    std::vector<std::uint32_t> segmentPolygon; ///< owning polygon per segment
    std::vector<std::uint8_t> polygonThin;     ///< per polygon: 2-vertex thin segment
    SegmentGrid segmentGrid;

    std::vector<Vec2> nodes;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> edges; ///< i < j, sorted
    std::vector<std::uint32_t> adjStart;                        ///< nodes+1 offsets
    std::vector<std::uint32_t> adjNode;                         ///< neighbours, ascending
    std::vector<double> adjWeight;                              ///< |n_i - n_j|
    NodeGrid nodeGrid;

    /// Whether an obstacle edge blocks [a, b] for `radius`: it crosses or touches it, or comes
    /// closer than radius. With relaxA (relaxB), an edge already closer than radius to a (b)
    /// blocks only when the segment comes closer to it than a (b) is.
    [[nodiscard]] bool blocked(Vec2 a, Vec2 b, double radius, bool relaxA, bool relaxB) const;
    /// Whether p lies inside one of the polygons (not thin segments), by ray casting along p's
    /// grid row (even-odd per polygon).
    [[nodiscard]] bool insidePolygon(Vec2 p) const;
    /// The nodes to test as neighbours of q: up to m nearest in each of 8 octants around q
    /// (ties by index), `self` excluded; appended to `out` (unsorted, no duplicates).
    void sectorCandidates(Vec2 q, std::size_t m, std::int64_t self,
                          std::vector<std::uint32_t>& out) const;
    /// The nodes a target links to (ascending): every node that sees it (full graph) or the
    /// visible ones among its sector candidates (widened up to 16 x when none is visible).
    void targetLinks(Vec2 target, std::vector<std::uint32_t>& out) const;
    [[nodiscard]] std::size_t bytes() const;
};

/// Up to this many nodes steer() considers every node (its search radius is infinite).
inline constexpr std::size_t kSteerAllNodes = 64;

/// Relative slack of the edge radius under the clearance.
inline constexpr double kEdgeSlack = 1e-6;

/// Squared distance between the segments [a, b] and [c, d] (0 when they cross).
[[nodiscard]] inline double segmentDistSq(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const double o1 = det(b - a, c - a);
    const double o2 = det(b - a, d - a);
    const double o3 = det(d - c, a - c);
    const double o4 = det(d - c, b - c);
    // Proper crossing: each segment has the other's endpoints strictly on both sides.
    if (((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) &&
        ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0)))
        return 0.0;
    // Otherwise the nearest pair involves an endpoint (touching gives ~0 here).
    return std::min(std::min(distSqPointSegment(c, d, a), distSqPointSegment(c, d, b)),
                    std::min(distSqPointSegment(a, b, c), distSqPointSegment(a, b, d)));
}

// ---- Template definitions ----------------------------------------------------------------------

template <class F> bool SegmentGrid::anyAlong(Vec2 a, Vec2 b, double r, F&& f) const {
    if (m_cellStart.empty()) return false;
    const double xlo = std::min(a.x, b.x) - r;
    const double xhi = std::max(a.x, b.x) + r;
    const double ylo = std::min(a.y, b.y) - r;
    const double yhi = std::max(a.y, b.y) + r;
    // Every edge lies in [m_origin, m_max]: a capsule that misses it sees nothing.
    if (xhi < m_origin.x || xlo > m_max.x || yhi < m_origin.y || ylo > m_max.y) return false;
    // A little padding so that rounding in the cell arithmetic never skips a cell.
    const double pad = 1e-9 * m_cellSize;
    const int r0 = cellY(ylo - pad);
    const int r1 = cellY(yhi + pad);
    const bool up = b.y >= a.y;
    const bool right = b.x >= a.x;
    const Vec2 ab = b - a;
    for (int k = 0; k <= r1 - r0; ++k) {
        const int row = up ? r0 + k : r1 - k;
        // The part of [a, b] within r of this row's band: its x-extent, widened by r.
        const double band0 = m_origin.y + row * m_cellSize - r - pad;
        const double band1 = m_origin.y + (row + 1) * m_cellSize + r + pad;
        double x0 = std::min(a.x, b.x);
        double x1 = std::max(a.x, b.x);
        if (ab.y != 0.0) {
            double t0 = (band0 - a.y) / ab.y;
            double t1 = (band1 - a.y) / ab.y;
            if (t0 > t1) std::swap(t0, t1);
            t0 = std::max(t0, 0.0);
            t1 = std::min(t1, 1.0);
            if (t0 > t1) continue;
            const double xa = a.x + t0 * ab.x;
            const double xb = a.x + t1 * ab.x;
            x0 = std::min(xa, xb);
            x1 = std::max(xa, xb);
        } else if (a.y < band0 || a.y > band1) {
            continue;
        }
        const int c0 = cellX(x0 - r - pad);
        const int c1 = cellX(x1 + r + pad);
        for (int j = 0; j <= c1 - c0; ++j) {
            const int col = right ? c0 + j : c1 - j;
            const std::size_t cell =
                static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols) +
                static_cast<std::size_t>(col);
            for (std::uint32_t i = m_cellStart[cell]; i < m_cellStart[cell + 1]; ++i)
                if (f(m_items[i], m_itemIds[i])) return true;
        }
    }
    return false;
}

template <class F> void SegmentGrid::alongRow(Vec2 p, int dir, F&& f) const {
    if (m_cellStart.empty() || p.y < m_origin.y || p.y > m_max.y) return;
    const int row = cellY(p.y);
    const int c0 = cellX(p.x);
    const int end = dir > 0 ? m_cols : -1;
    const int step = dir > 0 ? 1 : -1;
    for (int col = c0; col != end; col += step) {
        const std::size_t cell = static_cast<std::size_t>(row) * static_cast<std::size_t>(m_cols) +
                                 static_cast<std::size_t>(col);
        for (std::uint32_t i = m_cellStart[cell]; i < m_cellStart[cell + 1]; ++i)
            f(m_items[i], m_itemIds[i], col);
    }
}

template <class F>
void NodeGrid::forEachIn(std::int64_t x0, std::int64_t y0, std::int64_t x1, std::int64_t y1,
                         F&& f) const {
    if (m_cellStart.empty()) return;
    x0 = std::max<std::int64_t>(x0, 0);
    y0 = std::max<std::int64_t>(y0, 0);
    x1 = std::min(x1, m_cols - 1);
    y1 = std::min(y1, m_rows - 1);
    for (std::int64_t y = y0; y <= y1; ++y) {
        for (std::int64_t x = x0; x <= x1; ++x) {
            const auto cell = static_cast<std::size_t>(y * m_cols + x);
            for (std::uint32_t i = m_cellStart[cell]; i < m_cellStart[cell + 1]; ++i)
                f(m_items[i]);
        }
    }
}

template <class F>
void NodeGrid::forEachInRing(std::int64_t x, std::int64_t y, std::int64_t k, F&& f) const {
    if (k == 0) {
        forEachIn(x, y, x, y, f);
        return;
    }
    forEachIn(x - k, y - k, x + k, y - k, f);         // bottom row
    forEachIn(x - k, y + k, x + k, y + k, f);         // top row
    forEachIn(x - k, y - k + 1, x - k, y + k - 1, f); // left column
    forEachIn(x + k, y - k + 1, x + k, y + k - 1, f); // right column
}

} // namespace orca::detail
