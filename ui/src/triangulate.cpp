#include "orca/ui/triangulate.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>

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

    // The ring, counter-clockwise (so "convex corner" means a left turn), as a doubly linked
    // list: clipping an ear unlinks it in O(1).
    const bool ccw = signedArea(polygon) >= 0.0;
    auto vertex = [&](std::size_t k) { return static_cast<std::uint32_t>(ccw ? k : n - 1 - k); };
    std::vector<std::uint32_t> prev(n), next(n);
    for (std::size_t k = 0; k < n; ++k) {
        prev[vertex(k)] = vertex((k + n - 1) % n);
        next[vertex(k)] = vertex((k + 1) % n);
    }

    // Scale-aware tolerance for "collinear": relative to the polygon's extent.
    double extent = 0.0;
    Vec2 lo = polygon[0];
    Vec2 hi = polygon[0];
    for (const Vec2& v : polygon) {
        extent = std::max({extent, std::abs(v.x), std::abs(v.y)});
        lo = {std::min(lo.x, v.x), std::min(lo.y, v.y)};
        hi = {std::max(hi.x, v.x), std::max(hi.y, v.y)};
    }
    const double eps = 1e-12 * std::max(extent * extent, 1e-300);
    auto turnAt = [&](std::uint32_t v) {
        return cross3(polygon[prev[v]], polygon[v], polygon[next[v]]);
    };

    // The vertices also sit in a second list sorted along a Z-order (Morton) curve over the
    // bounding box: the vertices inside an ear's bounding box have Z codes between the codes
    // of its corners, so an ear is tested only against the vertices in that stretch of the
    // list (the idea of Mapbox's earcut), not against all of them.
    const double side = std::max({hi.x - lo.x, hi.y - lo.y, 1e-300});
    const double scale = 32767.0 / side;
    auto spread = [](std::uint32_t v) { // 15 bits -> every other bit of 30
        v &= 0x7fff;
        v = (v | (v << 8)) & 0x00ff00ff;
        v = (v | (v << 4)) & 0x0f0f0f0f;
        v = (v | (v << 2)) & 0x33333333;
        v = (v | (v << 1)) & 0x55555555;
        return v;
    };
    auto zOf = [&](double x, double y) {
        const auto qx = static_cast<std::uint32_t>(std::clamp((x - lo.x) * scale, 0.0, 32767.0));
        const auto qy = static_cast<std::uint32_t>(std::clamp((y - lo.y) * scale, 0.0, 32767.0));
        return spread(qx) | (spread(qy) << 1);
    };
    constexpr std::uint32_t kNone = 0xffffffffu;
    std::vector<std::uint32_t> z(n), prevZ(n, kNone), nextZ(n, kNone);
    {
        std::vector<std::uint32_t> byZ(n);
        for (std::uint32_t v = 0; v < n; ++v) {
            z[v] = zOf(polygon[v].x, polygon[v].y);
            byZ[v] = v;
        }
        std::sort(byZ.begin(), byZ.end(), [&](std::uint32_t p, std::uint32_t q) {
            return z[p] < z[q] || (z[p] == z[q] && p < q);
        });
        for (std::size_t k = 0; k + 1 < n; ++k) {
            nextZ[byZ[k]] = byZ[k + 1];
            prevZ[byZ[k + 1]] = byZ[k];
        }
    }

    // An ear holds no other remaining vertex; vertices at a, b or c themselves (repeated
    // points) do not block it.
    auto isEar = [&](std::uint32_t b) {
        const Vec2 a = polygon[prev[b]];
        const Vec2 bp = polygon[b];
        const Vec2 c = polygon[next[b]];
        const std::uint32_t minZ = zOf(std::min({a.x, bp.x, c.x}), std::min({a.y, bp.y, c.y}));
        const std::uint32_t maxZ = zOf(std::max({a.x, bp.x, c.x}), std::max({a.y, bp.y, c.y}));
        auto blocks = [&](std::uint32_t k) {
            if (k == prev[b] || k == next[b]) return false;
            const Vec2 p = polygon[k];
            if (p == a || p == bp || p == c) return false;
            return inTriangle(p, a, bp, c);
        };
        for (std::uint32_t k = nextZ[b]; k != kNone && z[k] <= maxZ; k = nextZ[k])
            if (blocks(k)) return false;
        for (std::uint32_t k = prevZ[b]; k != kNone && z[k] >= minZ; k = prevZ[k])
            if (blocks(k)) return false;
        return true;
    };
    auto unlink = [&](std::uint32_t v) {
        next[prev[v]] = next[v];
        prev[next[v]] = prev[v];
        if (prevZ[v] != kNone) nextZ[prevZ[v]] = nextZ[v];
        if (nextZ[v] != kNone) prevZ[nextZ[v]] = prevZ[v];
    };

    std::size_t remaining = n;
    std::size_t guard = 0; // steps without clipping an ear
    std::uint32_t at = vertex(0);
    while (remaining > 3) {
        const double turn = turnAt(at);
        if (turn > eps && isEar(at)) {
            out.insert(out.end(), {prev[at], at, next[at]});
            const std::uint32_t c = next[at];
            unlink(at);
            --remaining;
            guard = 0;
            // On past the next vertex (earcut's trick): clipping neighbour after neighbour would
            // fan long slivers out of one corner, each tested against ever more vertices.
            at = next[c];
            continue;
        }
        if (std::abs(turn) <= eps) {
            // A collinear (or repeated) vertex adds no area: drop it.
            const std::uint32_t c = next[at];
            unlink(at);
            --remaining;
            guard = 0;
            at = c;
            continue;
        }
        if (++guard > remaining) {
            // No ear found in a full pass: the polygon is not simple (self-intersecting).
            // Fall back to a fan so that something is still drawn.
            const std::uint32_t first = at;
            for (std::uint32_t k = next[first]; next[k] != first; k = next[k])
                out.insert(out.end(), {first, k, next[k]});
            return out;
        }
        at = next[at];
    }
    if (cross3(polygon[prev[at]], polygon[at], polygon[next[at]]) > eps)
        out.insert(out.end(), {prev[at], at, next[at]});
    return out;
}

} // namespace orca::ui
