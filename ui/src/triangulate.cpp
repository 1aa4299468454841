#include "orca/ui/triangulate.hpp"

#include <algorithm>
#include <cmath>

namespace orca::ui {

namespace {

// Twice the signed area of triangle abc (> 0 when counter-clockwise).
double cross3(Vec2 a, Vec2 b, Vec2 c) {
    return det(b - a, c - a);
}

// Inside or on the boundary of the counter-clockwise triangle abc.
bool inTriangle(Vec2 p, Vec2 a, Vec2 b, Vec2 c) {
    return cross3(a, b, p) >= 0.0 && cross3(b, c, p) >= 0.0 && cross3(c, a, p) >= 0.0;
}

} // namespace

std::vector<std::uint32_t> triangulatePolygon(std::span<const Vec2> polygon) {
    std::vector<std::uint32_t> out;
    const std::size_t n = polygon.size();
    if (n < 3) return out;
    out.reserve(3 * (n - 2));

    // Work on a counter-clockwise index list so "convex corner" means a left turn.
    std::vector<std::uint32_t> ring(n);
    const bool ccw = signedArea(polygon) >= 0.0;
    for (std::size_t i = 0; i < n; ++i)
        ring[i] = static_cast<std::uint32_t>(ccw ? i : n - 1 - i);

    // Scale-aware tolerance for "collinear": relative to the polygon's extent.
    double extent = 0.0;
    for (const Vec2& v : polygon)
        extent = std::max({extent, std::abs(v.x), std::abs(v.y)});
    const double eps = 1e-12 * std::max(extent * extent, 1e-300);

    std::size_t guard = 0; // passes without clipping an ear
    std::size_t i = 0;
    while (ring.size() > 3) {
        const std::size_t m = ring.size();
        const std::size_t ip = (i + m - 1) % m;
        const std::size_t in = (i + 1) % m;
        const Vec2 a = polygon[ring[ip]];
        const Vec2 b = polygon[ring[i]];
        const Vec2 c = polygon[ring[in]];
        const double turn = cross3(a, b, c);

        bool ear = turn > eps;
        if (ear) {
            // An ear holds no other remaining vertex (reflex vertices are the only candidates,
            // but testing all is simpler and n is small). Vertices at a, b or c themselves
            // (repeated points) do not block the ear.
            for (std::size_t k = 0; k < m && ear; ++k) {
                if (k == ip || k == i || k == in) continue;
                const Vec2 p = polygon[ring[k]];
                if (p == a || p == b || p == c) continue;
                if (inTriangle(p, a, b, c)) ear = false;
            }
        }
        if (ear) {
            out.insert(out.end(), {ring[ip], ring[i], ring[in]});
            ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
            guard = 0;
            if (i >= ring.size()) i = 0;
            continue;
        }
        if (std::abs(turn) <= eps) {
            // A collinear (or repeated) vertex adds no area: drop it.
            ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(i));
            guard = 0;
            if (i >= ring.size()) i = 0;
            continue;
        }
        if (++guard > m) {
            // No ear found in a full pass: the polygon is not simple (self-intersecting).
            // Fall back to a fan so that something is still drawn.
            for (std::size_t k = 1; k + 1 < ring.size(); ++k)
                out.insert(out.end(), {ring[0], ring[k], ring[k + 1]});
            return out;
        }
        i = (i + 1) % m;
    }
    if (cross3(polygon[ring[0]], polygon[ring[1]], polygon[ring[2]]) > eps)
        out.insert(out.end(), {ring[0], ring[1], ring[2]});
    return out;
}

} // namespace orca::ui
