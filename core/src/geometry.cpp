#include "orca/geometry.hpp"

#include <algorithm>
#include <numbers>

namespace orca {

Vec2 closestPointOnSegment(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 ab = b - a;
    const double lenSq = absSq(ab);
    if (lenSq <= 0.0) return a;
    const double t = std::clamp(dot(p - a, ab) / lenSq, 0.0, 1.0);
    return a + t * ab;
}

std::vector<Vec2> clipPolygon(std::span<const Vec2> polygon, const Line& line, double tolerance) {
    std::vector<Vec2> out;
    const std::size_t n = polygon.size();
    if (n == 0) return out;
    out.reserve(n + 1);
    // Signed distance to the boundary; >= -tolerance counts as inside (permitted = left).
    auto side = [&](Vec2 x) { return det(line.direction, x - line.point); };
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[(i + 1) % n];
        const double sa = side(a);
        const double sb = side(b);
        const bool ina = sa >= -tolerance;
        const bool inb = sb >= -tolerance;
        if (ina) out.push_back(a);
        if (ina != inb) {
            // The edge crosses the boundary: add the intersection point.
            const double t = sa / (sa - sb);
            out.push_back(a + t * (b - a));
        }
    }
    // A polygon that degenerated to a point or a sliver has no area: treat it as empty.
    if (out.size() < 3 || std::abs(signedArea(out)) <= tolerance * tolerance) out.clear();
    return out;
}

std::vector<Vec2> feasibleRegion(std::span<const Line> lines, double radius, int diskSegments,
                                 double tolerance) {
    std::vector<Vec2> poly;
    if (radius <= 0.0 || diskSegments < 3) return poly;
    poly.reserve(static_cast<std::size_t>(diskSegments));
    for (int k = 0; k < diskSegments; ++k) {
        const double a = 2.0 * std::numbers::pi * k / diskSegments;
        poly.push_back({radius * std::cos(a), radius * std::sin(a)});
    }
    for (const Line& line : lines) {
        poly = clipPolygon(poly, line, tolerance);
        if (poly.empty()) break;
    }
    return poly;
}

double signedArea(std::span<const Vec2> polygon) {
    double twice = 0.0;
    const std::size_t n = polygon.size();
    for (std::size_t i = 0; i < n; ++i)
        twice += det(polygon[i], polygon[(i + 1) % n]);
    return 0.5 * twice;
}

bool pointInPolygon(std::span<const Vec2> polygon, Vec2 p) {
    // Even-odd rule: count the edges crossed by the ray from p toward +x. An edge counts when
    // its endpoints lie on opposite sides of the line y = p.y (one strictly above, the other
    // at or below, so a vertex on the ray is counted once) and it crosses right of p.
    bool inside = false;
    for (std::size_t i = 0, n = polygon.size(), j = n - 1; i < n; j = i++) {
        const Vec2 a = polygon[i];
        const Vec2 b = polygon[j];
        if ((a.y > p.y) != (b.y > p.y)) {
            const double xCross = a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y);
            if (p.x < xCross) inside = !inside;
        }
    }
    return inside;
}

} // namespace orca
