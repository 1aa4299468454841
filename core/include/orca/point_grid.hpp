#pragma once
/// \file point_grid.hpp
/// A uniform grid over a fixed set of points, for tools outside the simulator (the scene
/// linter) that need "which points are near here" queries. It is the simulator's own agent
/// grid (dense cells, hashed cells for sparse worlds, kd-trees for piled-up cells) behind a
/// small interface, so its iteration order is the simulator's.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

namespace detail {
class AgentGrid;
struct ItemRange;
} // namespace detail

class PointGrid {
  public:
    PointGrid();
    ~PointGrid();
    PointGrid(PointGrid&&) noexcept;
    PointGrid& operator=(PointGrid&&) noexcept;
    PointGrid(const PointGrid&) = delete;
    PointGrid& operator=(const PointGrid&) = delete;

    /// Rebuilds the grid over `positions`. `cellSize` > 0 (world units).
    void build(std::span<const Vec2> positions, double cellSize);

    /// Replaces `out` with the indices of the points in every cell overlapping the square of
    /// half-size `range` around `p`: a superset of the points within `range`, in a fixed order
    /// (cell by cell, as the simulator scans them). Callers filter by distance themselves.
    void candidatesNear(Vec2 p, double range, std::vector<std::uint32_t>& out) const;

  private:
    std::unique_ptr<detail::AgentGrid> m_grid;
    std::unique_ptr<std::vector<detail::ItemRange>> m_ranges; ///< scratch for queries
};

} // namespace orca
