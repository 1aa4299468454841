#pragma once
/// \file obstacles.hpp
/// Polygon obstacles as the ORCA core sees them: a flat list of vertices, each the start of a
/// directed segment to its `next` vertex, plus a uniform-grid index over those segments.
///
/// Conventions: a polygon's vertices are counter-clockwise (agents live outside); a 2-vertex
/// obstacle is a thin segment that blocks from both sides (two directed segments).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

/// One obstacle vertex; the segment from it to `next` is an obstacle neighbour candidate.
struct ObstacleVertex {
    Vec2 point{0.0, 0.0};         ///< World position.
    Vec2 unitDir{1.0, 0.0};       ///< normalize(next.point - point).
    std::uint32_t next = 0;       ///< Global index of the next vertex (counter-clockwise).
    std::uint32_t prev = 0;       ///< Global index of the previous vertex.
    std::uint32_t obstacle = 0;   ///< Dense index of the owning obstacle.
    std::uint32_t localIndex = 0; ///< Index of this vertex within its obstacle's vertex list.
    bool convex = true; ///< det(prev - next, point - prev) >= 0; always true for segments.
};

/// Result of checking a vertex list before it becomes an obstacle.
struct PolygonCheck {
    bool valid = true;      ///< False when the polygon cannot be used (see `error`).
    bool clockwise = false; ///< Signed area < 0 (valid polygon, but must be reversed).
    std::string error;      ///< What is wrong, when !valid.
};

/// The sign of det(b - a, c - a), exactly: +1 when c is left of the line a->b, -1 right of it,
/// 0 on it. Coordinates must be 0 or within 1e-100..1e100 in magnitude.
[[nodiscard]] int exactOrientation(Vec2 a, Vec2 b, Vec2 c);

/// Whether the closed segments [a, b] and [c, d] share at least one point (touching counts),
/// decided with exact orientation tests.
[[nodiscard]] bool segmentsTouch(Vec2 a, Vec2 b, Vec2 c, Vec2 d);

/// A self-intersection of a closed polygon (edge i runs from vertex i to vertex i + 1,
/// cyclically): two edges that share a point, `first` < `second`; or, when `foldBack`, an edge
/// `first` and the next one, `second` = (first + 1) mod n, which turns straight back along it
/// (adjacent edges share their common vertex, which does not count).
struct SelfIntersection {
    std::size_t first;
    std::size_t second;
    bool foldBack;
};

/// A self-intersection of the closed polygon `vertices` (3 or more, no repeated vertex, every
/// coordinate 0 or within 1e-100..1e100 in magnitude), or none. Folds are looked for first,
/// then any two edges that touch (a sweep line: O(n log n) for n vertices, with exact
/// orientation tests). When there are several, which one is reported is unspecified.
[[nodiscard]] std::optional<SelfIntersection> findSelfIntersection(std::span<const Vec2> vertices);

/// Checks a vertex list: at least 2 vertices, all coordinates finite and 0 or within
/// 1e-100..1e100 in magnitude, no repeated consecutive (or, for polygons, any repeated)
/// vertex, not all collinear (for >= 3 vertices), no self-intersection (findSelfIntersection),
/// and reports the winding. O(n log n).
[[nodiscard]] PolygonCheck checkPolygon(std::span<const Vec2> vertices);

/// Builds the flat vertex list (links, unit directions, convexity) for a set of polygons.
/// Each polygon must be valid per checkPolygon and counter-clockwise.
void buildObstacleVertices(std::span<const std::vector<Vec2>> polygons,
                           std::vector<ObstacleVertex>& out);

/// Uniform grid over obstacle segments for the neighbour query of orca-spec section 3.
///
/// A segment is registered in exactly the cells it passes through (row by row, its x-extent
/// in the row padded by a rounding margin far below a cell), and each registration carries a
/// copy of the segment's end points, so a query reads contiguous memory. A query visits, row
/// by row, only the cells that overlap the disc of its range (the row's x-extent of the disc)
/// and keeps the segments in range in order as it meets them. A segment through several cells
/// of a row is looked at in the first of them only; met again in another row, it has the same
/// distance and index, lands beside its first sighting and is dropped.
class ObstacleGrid {
  public:
    /// Rebuilds the grid. `typicalRange` (world units) sizes the cells: about one query range.
    void build(std::span<const ObstacleVertex> vertices, double typicalRange);

    /// Obstacle neighbours of an agent at `p`: segments with p strictly on their right and at
    /// distance < `range`, sorted by squared distance (nearest first; ties by vertex index).
    /// Appends first-vertex indices to `segments` and distances to `distSq` (both cleared).
    /// With `rightSideOnly == false` segments are kept whichever side p is on.
    void query(Vec2 p, double range, std::vector<std::uint32_t>& segments,
               std::vector<double>& distSq, bool rightSideOnly = true) const;

    [[nodiscard]] bool empty() const { return m_cellStart.empty(); }
    /// Registrations (segment copies) held: a segment counts once per cell it passes through.
    [[nodiscard]] std::size_t itemCount() const { return m_items.size(); }

  private:
    /// One registration of a segment in a cell: its end points, first-vertex index, and the
    /// first column of the cells it passes through in this row.
    struct Item {
        Vec2 a;
        Vec2 b;
        std::uint32_t segment;
        std::int32_t firstColumn;
    };
    [[nodiscard]] int cellX(double x) const;
    [[nodiscard]] int cellY(double y) const;

    Vec2 m_origin{0.0, 0.0};
    double m_cellSize = 1.0;
    double m_invCellSize = 1.0;
    double m_margin = 0.0; ///< rounding margin (world units) of registrations and queries
    int m_cols = 0;
    int m_rows = 0;
    Vec2 m_max{0.0, 0.0};
    std::vector<std::uint32_t> m_cellStart; ///< size cols*rows+1, offsets into m_items
    std::vector<Item> m_items;              ///< registrations, cell by cell
};

} // namespace orca
