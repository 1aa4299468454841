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
/// collinear or repeated). The ring is a linked list and an ear is tested only against the
/// vertices whose Z-order code lies between those of its bounding box's corners (Mapbox
/// earcut's idea), so an outline of 100,000 vertices takes milliseconds, not minutes; a polygon
/// that is not simple is drawn as a fan.
[[nodiscard]] std::vector<std::uint32_t> triangulatePolygon(std::span<const Vec2> polygon);

} // namespace orca::ui
