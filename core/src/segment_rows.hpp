#pragma once
/// \file segment_rows.hpp
/// What the obstacle grid (obstacles.cpp) and the roadmap's edge grid (roadmap.cpp), two uniform
/// grids over segments, share: their cell size bound, the cell of a coordinate and the walk that
/// registers a segment in the cells it passes through. Internal to core/src.

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "orca/geometry.hpp"

namespace orca::detail {

/// The cell size of a segment grid over `extent` (world units): `cell`, doubled until the grid
/// has at most 4 cells per segment plus 4,096 (memory stays linear in the segments).
inline double boundedCellSize(Vec2 extent, double cell, std::size_t segments) {
    const double maxCells = 4.0 * static_cast<double>(segments) + 4096.0;
    while ((std::floor(extent.x / cell) + 1.0) * (std::floor(extent.y / cell) + 1.0) > maxCells)
        cell *= 2.0;
    return cell;
}

/// floor(c) clamped to [0, n - 1] (NaN to 0), the cell of a scaled coordinate in a grid of n
/// columns or rows, without a libm call (x86-64 baseline has no SSE4.1 round instruction, and
/// a query takes several): clamped first, truncation is the floor.
[[nodiscard]] inline int clampedCell(double c, int n) {
    c = c > 0.0 ? c : 0.0;
    const auto last = static_cast<double>(n - 1);
    return static_cast<int>(c < last ? c : last);
}

/// Calls f(row, xMin, xMax) for rows r0..r1 of a grid whose row r spans y in [originY +
/// r·cellSize, originY + (r + 1)·cellSize], widened by `pad` on both sides: [xMin, xMax] is the
/// x-extent of the segment a→b within that band (its whole x-extent for a horizontal
/// segment). Callers pad the x-extent as they need.
template <class F>
void forEachSegmentRow(Vec2 a, Vec2 b, double originY, double cellSize, int r0, int r1, F&& f,
                       double pad = 0.0) {
    for (int r = r0; r <= r1; ++r) {
        double xa = std::min(a.x, b.x);
        double xb = std::max(a.x, b.x);
        if (a.y != b.y) {
            const double y0 = std::max(std::min(a.y, b.y), originY + r * cellSize - pad);
            const double y1 = std::min(std::max(a.y, b.y), originY + (r + 1) * cellSize + pad);
            const double xa0 = a.x + (b.x - a.x) * (y0 - a.y) / (b.y - a.y);
            const double xa1 = a.x + (b.x - a.x) * (y1 - a.y) / (b.y - a.y);
            xa = std::min(xa0, xa1);
            xb = std::max(xa0, xa1);
        }
        f(r, xa, xb);
    }
}

} // namespace orca::detail
