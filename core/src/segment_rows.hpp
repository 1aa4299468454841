#pragma once
/// \file segment_rows.hpp
/// The rows of a uniform grid a segment passes through, with the segment's x-span in each: the
/// walk that the obstacle grid (obstacles.cpp) and the roadmap's edge grid (roadmap.cpp) both
/// register segments with. Internal to core/src.

#include <algorithm>

#include "orca/geometry.hpp"

namespace orca::detail {

/// Calls f(row, xMin, xMax) for rows r0..r1 of a grid whose row r spans y in [originY +
/// r·cellSize, originY + (r + 1)·cellSize]: [xMin, xMax] is the x-extent of the segment a→b
/// within that row (its whole x-extent for a horizontal segment). Callers pad it as they need.
template <class F>
void forEachSegmentRow(Vec2 a, Vec2 b, double originY, double cellSize, int r0, int r1, F&& f) {
    for (int r = r0; r <= r1; ++r) {
        double xa = std::min(a.x, b.x);
        double xb = std::max(a.x, b.x);
        if (a.y != b.y) {
            const double y0 = std::max(std::min(a.y, b.y), originY + r * cellSize);
            const double y1 = std::min(std::max(a.y, b.y), originY + (r + 1) * cellSize);
            const double xa0 = a.x + (b.x - a.x) * (y0 - a.y) / (b.y - a.y);
            const double xa1 = a.x + (b.x - a.x) * (y1 - a.y) / (b.y - a.y);
            xa = std::min(xa0, xa1);
            xb = std::max(xa0, xa1);
        }
        f(r, xa, xb);
    }
}

} // namespace orca::detail
