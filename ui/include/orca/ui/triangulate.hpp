#pragma once
/// \file triangulate.hpp
/// Triangulation of simple polygons (convex or concave) for filled drawing.

#include <cstdint>
#include <span>
#include <vector>

#include "orca/geometry.hpp"

namespace orca::ui {

/// Ear-clipping triangulation of a simple polygon given in either winding. Returns vertex
/// indices, three per triangle (n - 2 triangles for n >= 3 vertices; fewer when vertices are
/// collinear or repeated). O(n^2), meant for obstacle outlines of tens of vertices.
[[nodiscard]] std::vector<std::uint32_t> triangulatePolygon(std::span<const Vec2> polygon);

} // namespace orca::ui
