#pragma once
/// \file geometry.hpp
/// 2-D vector helpers and the ORCA half-plane type shared by the whole core.
///
/// All geometry is in double precision. RVO2 works in float; double lets the linear programs
/// keep |v_new| <= maxSpeed exactly (see linear_program.hpp) while giving the same answers as
/// RVO2 up to float rounding.

#include <cmath>
#include <span>
#include <vector>

#include <glm/vec2.hpp>

namespace orca {

/// A 2-D vector (position in world units, velocity in units per second).
using Vec2 = glm::dvec2;

/// The epsilon of the ORCA specification (RVO_EPSILON): tolerance for "parallel" lines in the
/// linear programs and for the obstacle "already covered" test.
inline constexpr double kEpsilon = 1e-5;

/// Dot product.
[[nodiscard]] inline double dot(Vec2 a, Vec2 b) {
    return a.x * b.x + a.y * b.y;
}
/// Squared length.
[[nodiscard]] inline double absSq(Vec2 a) {
    return a.x * a.x + a.y * a.y;
}
/// Length.
[[nodiscard]] inline double length(Vec2 a) {
    return std::sqrt(absSq(a));
}
/// 2-D cross product `a.x*b.y - a.y*b.x`: positive when b is counter-clockwise of a.
[[nodiscard]] inline double det(Vec2 a, Vec2 b) {
    return a.x * b.y - a.y * b.x;
}
/// `a` rotated 90 degrees counter-clockwise.
[[nodiscard]] inline Vec2 perp(Vec2 a) {
    return {-a.y, a.x};
}
/// Unit vector along `a` (`a / |a|`). Precondition: a != 0.
[[nodiscard]] inline Vec2 normalize(Vec2 a) {
    return a / length(a);
}

/// Signed distance-like test of point `c` against the directed line a->b:
/// `det(a - c, b - a)`, positive when c is to the left of a->b.
[[nodiscard]] inline double leftOf(Vec2 a, Vec2 b, Vec2 c) {
    return det(a - c, b - a);
}

/// The point of the segment [a, b] nearest to `p` (`a` for a zero-length segment).
[[nodiscard]] Vec2 closestPointOnSegment(Vec2 a, Vec2 b, Vec2 p);

/// Squared distance from point `p` to the segment [a, b].
[[nodiscard]] inline double distSqPointSegment(Vec2 a, Vec2 b, Vec2 p) {
    const Vec2 ab = b - a;
    const double lenSq = absSq(ab);
    if (lenSq <= 0.0) return absSq(p - a);
    const double t = dot(p - a, ab) / lenSq;
    if (t < 0.0) return absSq(p - a);
    if (t > 1.0) return absSq(p - b);
    return absSq(p - (a + t * ab));
}

/// An ORCA half-plane: the directed line through `point` with unit `direction`.
/// Convention (as in RVO2): the *permitted* velocities are on the **left** of the line, i.e.
/// x is allowed iff det(direction, x - point) >= 0.
struct Line {
    Vec2 point{0.0, 0.0};     ///< A point on the boundary line (velocity units).
    Vec2 direction{1.0, 0.0}; ///< Unit direction; permitted side is to its left.
};

/// How far `x` is on the forbidden side of `line` (velocity units): det(d, q - x).
/// Positive means x violates the line; <= 0 means x satisfies it.
[[nodiscard]] inline double violation(const Line& line, Vec2 x) {
    return det(line.direction, line.point - x);
}

/// The feasible velocity region: the disk |x| <= radius intersected with every half-plane.
/// The disk is approximated by an inscribed regular polygon with `diskSegments` vertices
/// (so every returned vertex is inside the true region). Returns the convex polygon
/// counter-clockwise; empty when the intersection is empty (up to `tolerance`, velocity units).
[[nodiscard]] std::vector<Vec2> feasibleRegion(std::span<const Line> lines, double radius,
                                               int diskSegments = 128, double tolerance = 1e-9);

/// Clips a convex polygon (counter-clockwise) to the permitted side of one half-plane
/// (Sutherland-Hodgman). Returns the clipped polygon, possibly empty.
[[nodiscard]] std::vector<Vec2> clipPolygon(std::span<const Vec2> polygon, const Line& line,
                                            double tolerance = 1e-9);

/// Signed area of a polygon (positive when counter-clockwise).
[[nodiscard]] double signedArea(std::span<const Vec2> polygon);

/// Whether `p` is inside `polygon` by the even-odd rule (any winding). Points exactly on an
/// edge may go either way, and so may any point for a 2-vertex "polygon" (callers that may
/// pass segments check the size first). The one point-in-polygon test of the project (scene
/// generators, linter, diagnosis, editor).
[[nodiscard]] bool pointInPolygon(std::span<const Vec2> polygon, Vec2 p);

} // namespace orca
