#include "orca/obstacles.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <set>
#include <string>

#include <glm/common.hpp>

#include "segment_rows.hpp"

namespace orca {

namespace {

std::string fmtPoint(Vec2 p) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%.17g, %.17g)", p.x, p.y);
    return buf;
}

// ---- Exact orientation ------------------------------------------------------------------------
// The sign of det(b - a, c - a), exactly: a floating-point filter, and when it cannot decide,
// the determinant as an exact sum of products (Shewchuk's orient2d). Exactness is what lets
// the sweep line below keep one consistent order of the edges, so that it finds a crossing
// whenever there is one. Valid for coordinates of magnitude 0 or within kMinMagnitude ..
// kMaxMagnitude (checkPolygon refuses others): no product overflows or loses its rounding error
// to underflow. The build never fuses a*b+c (-ffp-contract=off), which the exact products
// rely on.

constexpr double kMinMagnitude = 1e-100;
constexpr double kMaxMagnitude = 1e100;
constexpr double kEpsilon53 = 0x1p-53;
/// Shewchuk's ccwerrboundA: |det - computed det| <= this * (|detleft| + |detright|).
constexpr double kOrientBound = (3.0 + 16.0 * kEpsilon53) * kEpsilon53;

/// a + b = x + y exactly, x = fl(a + b).
inline void twoSum(double a, double b, double& x, double& y) {
    x = a + b;
    const double bv = x - a;
    const double av = x - bv;
    y = (a - av) + (b - bv);
}
/// a - b = x + y exactly, x = fl(a - b).
inline void twoDiff(double a, double b, double& x, double& y) {
    x = a - b;
    const double bv = a - x;
    const double av = x + bv;
    y = (a - av) + (bv - b);
}
/// a * b = x + y exactly, x = fl(a * b) (Dekker's product with Veltkamp's split).
inline void twoProduct(double a, double b, double& x, double& y) {
    auto split = [](double v, double& hi, double& lo) {
        const double c = 134217729.0 * v; // 2^27 + 1
        const double big = c - v;
        hi = c - big;
        lo = v - hi;
    };
    x = a * b;
    double ahi, alo, bhi, blo;
    split(a, ahi, alo);
    split(b, bhi, blo);
    const double err1 = x - ahi * bhi;
    const double err2 = err1 - alo * bhi;
    const double err3 = err2 - ahi * blo;
    y = alo * blo - err3;
}

} // namespace

int exactOrientation(Vec2 a, Vec2 b, Vec2 c) {
    // det(b - a, c - a) = det(a - c, b - c), Shewchuk's form.
    const double detLeft = (a.x - c.x) * (b.y - c.y);
    const double detRight = (a.y - c.y) * (b.x - c.x);
    const double det = detLeft - detRight;
    double detSum = 0.0;
    if (detLeft > 0.0) {
        if (detRight <= 0.0) return (det > 0.0) - (det < 0.0);
        detSum = detLeft + detRight;
    } else if (detLeft < 0.0) {
        if (detRight >= 0.0) return (det > 0.0) - (det < 0.0);
        detSum = -detLeft - detRight;
    } else {
        return (det > 0.0) - (det < 0.0); // a factor is exactly 0: the sign is exact
    }
    const double bound = kOrientBound * detSum;
    if (det >= bound || -det >= bound) return (det > 0.0) - (det < 0.0);

    // Exactly: each difference is a two-term sum, each product of two of them four two-term
    // sums; the sixteen terms are added into an exact expansion (Shewchuk's Grow-Expansion,
    // zeros dropped: increasing magnitude, non-overlapping) whose largest term has the sign.
    double acx, acxTail, bcy, bcyTail, acy, acyTail, bcx, bcxTail;
    twoDiff(a.x, c.x, acx, acxTail);
    twoDiff(b.y, c.y, bcy, bcyTail);
    twoDiff(a.y, c.y, acy, acyTail);
    twoDiff(b.x, c.x, bcx, bcxTail);
    std::array<double, 16> e{};
    std::size_t n = 0;
    auto grow = [&](double term) {
        double q = term;
        std::size_t kept = 0;
        for (std::size_t i = 0; i < n; ++i) {
            double sum, error;
            twoSum(q, e[i], sum, error);
            q = sum;
            if (error != 0.0) e[kept++] = error;
        }
        if (q != 0.0) e[kept++] = q;
        n = kept;
    };
    auto addProduct = [&](double x, double y, double sign) {
        double p, pTail;
        twoProduct(x, y, p, pTail);
        grow(sign * pTail);
        grow(sign * p);
    };
    for (const double l : {acx, acxTail})
        for (const double r : {bcy, bcyTail})
            addProduct(l, r, 1.0);
    for (const double l : {acy, acyTail})
        for (const double r : {bcx, bcxTail})
            addProduct(l, r, -1.0);
    if (n == 0) return 0;
    return e[n - 1] > 0.0 ? 1 : -1;
}

namespace {

bool onSegment(Vec2 a, Vec2 b, Vec2 p) {
    return std::min(a.x, b.x) <= p.x && p.x <= std::max(a.x, b.x) && std::min(a.y, b.y) <= p.y &&
           p.y <= std::max(a.y, b.y);
}

/// Points in sweep order: by x, then y.
bool sweepBefore(Vec2 p, Vec2 q) {
    return p.x < q.x || (p.x == q.x && p.y < q.y);
}

} // namespace

bool segmentsTouch(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const int o1 = exactOrientation(a, b, c);
    const int o2 = exactOrientation(a, b, d);
    const int o3 = exactOrientation(c, d, a);
    const int o4 = exactOrientation(c, d, b);
    if (o1 != o2 && o3 != o4) return true;
    if (o1 == 0 && onSegment(a, b, c)) return true;
    if (o2 == 0 && onSegment(a, b, d)) return true;
    if (o3 == 0 && onSegment(c, d, a)) return true;
    if (o4 == 0 && onSegment(c, d, b)) return true;
    return false;
}

std::optional<SelfIntersection> findSelfIntersection(std::span<const Vec2> v) {
    const std::size_t n = v.size();
    if (n < 3) return std::nullopt;
    // Adjacent edges meet at their common vertex; they intersect elsewhere only by folding
    // back onto each other (collinear, the second turning back along the first).
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = v[i];
        const Vec2 b = v[(i + 1) % n];
        const Vec2 c = v[(i + 2) % n];
        if (exactOrientation(a, b, c) == 0 && sweepBefore(a, b) != sweepBefore(b, c))
            return SelfIntersection{i, (i + 1) % n, true};
    }
    // Any two other edges that share a point (Shamos and Hoey's sweep line, O(n log n)): the
    // edges crossed by a vertical line sweeping left to right, kept in their order along it;
    // two edges that touch are neighbours in that order at some moment before the sweep
    // passes their first common point, so each edge is tested against its neighbours when it
    // starts and the two neighbours of an edge against each other when it ends.
    struct Edge {
        Vec2 a; ///< the endpoint the sweep meets first
        Vec2 b;
    };
    std::vector<Edge> edges(n);
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 p = v[i];
        const Vec2 q = v[(i + 1) % n];
        edges[i] = sweepBefore(p, q) ? Edge{p, q} : Edge{q, p};
    }
    auto adjacent = [n](std::size_t i, std::size_t j) {
        return j == (i + 1) % n || i == (j + 1) % n;
    };
    // Below in the sweep's order, for two edges that do not cross (nor touch, bar their common
    // vertex): seen from the edge that starts later, on which side of the other it starts (or,
    // starting on its line, ends). Ties (collinear: such edges touch, and are found) by index.
    auto below = [&](std::uint32_t i, std::uint32_t j) {
        if (i == j) return false;
        const Edge& s = edges[i];
        const Edge& t = edges[j];
        if (!sweepBefore(s.a, t.a)) { // s starts at or after t
            int o = exactOrientation(t.a, t.b, s.a);
            if (o == 0) o = exactOrientation(t.a, t.b, s.b);
            if (o != 0) return o < 0;
        } else {
            int o = exactOrientation(s.a, s.b, t.a);
            if (o == 0) o = exactOrientation(s.a, s.b, t.b);
            if (o != 0) return o > 0;
        }
        return i < j;
    };
    std::set<std::uint32_t, decltype(below)> active(below);
    std::vector<std::set<std::uint32_t, decltype(below)>::iterator> where(n, active.end());
    struct Event {
        Vec2 at;
        bool start;
        std::uint32_t edge;
    };
    std::vector<Event> events;
    events.reserve(2 * n);
    for (std::uint32_t i = 0; i < n; ++i) {
        events.push_back({edges[i].a, true, i});
        events.push_back({edges[i].b, false, i});
    }
    // At one point, edges start before others end: an edge ending where another starts touches
    // it, and both are in the order together.
    std::sort(events.begin(), events.end(), [](const Event& x, const Event& y) {
        if (x.at != y.at) return sweepBefore(x.at, y.at);
        if (x.start != y.start) return x.start;
        return x.edge < y.edge;
    });
    std::optional<SelfIntersection> found;
    auto test = [&](std::uint32_t i, std::uint32_t j) {
        if (found || adjacent(i, j)) return;
        if (segmentsTouch(edges[i].a, edges[i].b, edges[j].a, edges[j].b))
            found =
                SelfIntersection{std::min<std::size_t>(i, j), std::max<std::size_t>(i, j), false};
    };
    for (const Event& e : events) {
        if (e.start) {
            const auto it = active.insert(e.edge).first;
            where[e.edge] = it;
            if (it != active.begin()) test(*std::prev(it), e.edge);
            if (std::next(it) != active.end()) test(e.edge, *std::next(it));
        } else {
            const auto it = where[e.edge];
            if (it != active.begin() && std::next(it) != active.end())
                test(*std::prev(it), *std::next(it));
            active.erase(it);
        }
        if (found) return found;
    }
    return std::nullopt;
}

PolygonCheck checkPolygon(std::span<const Vec2> v) {
    PolygonCheck check;
    auto fail = [&](std::string msg) {
        check.valid = false;
        check.error = std::move(msg);
        return check;
    };
    const std::size_t n = v.size();
    if (n < 2) return fail("an obstacle needs at least 2 vertices, got " + std::to_string(n));
    for (std::size_t i = 0; i < n; ++i) {
        if (!std::isfinite(v[i].x) || !std::isfinite(v[i].y))
            return fail("vertex " + std::to_string(i) + " is not finite");
        // The exact geometry tests need products that neither overflow nor underflow.
        for (const double c : {v[i].x, v[i].y}) {
            if (c != 0.0 && (std::abs(c) < kMinMagnitude || std::abs(c) > kMaxMagnitude)) {
                return fail("vertex " + std::to_string(i) + " " + fmtPoint(v[i]) +
                            " is out of range: a coordinate must be 0 or between 1e-100 and "
                            "1e100 in magnitude");
            }
        }
    }
    // Repeated vertices (anywhere: a repeated vertex makes a zero-length edge or a pinch).
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return v[a].x < v[b].x ||
               (v[a].x == v[b].x && (v[a].y < v[b].y || (v[a].y == v[b].y && a < b)));
    });
    for (std::size_t k = 1; k < n; ++k) {
        if (v[order[k]] == v[order[k - 1]]) {
            return fail("vertices " + std::to_string(order[k - 1]) + " and " +
                        std::to_string(order[k]) + " are the same point " + fmtPoint(v[order[k]]));
        }
    }
    if (n == 2) return check; // a thin segment: no winding, no area

    // Collinear-only: no area at all. Tolerance relative to the polygon's extent.
    double minX = v[0].x, maxX = v[0].x, minY = v[0].y, maxY = v[0].y;
    for (const Vec2& p : v) {
        minX = std::min(minX, p.x);
        maxX = std::max(maxX, p.x);
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    const double extentSq = (maxX - minX) * (maxX - minX) + (maxY - minY) * (maxY - minY);
    bool allCollinear = true;
    for (std::size_t i = 1; i + 1 < n && allCollinear; ++i) {
        const double d = det(v[i] - v[0], v[i + 1] - v[0]);
        if (std::abs(d) > 1e-12 * extentSq) allCollinear = false;
    }
    if (allCollinear) {
        return fail("all " + std::to_string(n) +
                    " vertices are collinear (the polygon has no area); use a 2-vertex "
                    "segment for a thin wall");
    }

    // Self-intersection: non-adjacent edges must not touch; adjacent edges must not fold back
    // onto each other.
    if (const auto hit = findSelfIntersection(v)) {
        const std::size_t i = hit->first;
        const std::size_t j = hit->second;
        if (hit->foldBack) {
            return fail("edges " + std::to_string(i) + " and " + std::to_string(j) +
                        " fold back on each other at vertex " + std::to_string(j) + " " +
                        fmtPoint(v[j]) + " (self-intersecting polygon)");
        }
        return fail("edge " + std::to_string(i) + " " + fmtPoint(v[i]) + "-" +
                    fmtPoint(v[(i + 1) % n]) + " intersects edge " + std::to_string(j) + " " +
                    fmtPoint(v[j]) + "-" + fmtPoint(v[(j + 1) % n]) +
                    " (self-intersecting polygon)");
    }
    check.clockwise = signedArea(v) < 0.0;
    return check;
}

void buildObstacleVertices(std::span<const std::vector<Vec2>> polygons,
                           std::vector<ObstacleVertex>& out) {
    out.clear();
    for (std::size_t o = 0; o < polygons.size(); ++o) {
        const std::vector<Vec2>& poly = polygons[o];
        const auto n = static_cast<std::uint32_t>(poly.size());
        const auto base = static_cast<std::uint32_t>(out.size());
        for (std::uint32_t i = 0; i < n; ++i) {
            ObstacleVertex vx;
            const std::uint32_t prev = (i == 0 ? n - 1 : i - 1);
            const std::uint32_t next = (i == n - 1 ? 0 : i + 1);
            vx.point = poly[i];
            vx.prev = base + prev;
            vx.next = base + next;
            vx.obstacle = static_cast<std::uint32_t>(o);
            vx.localIndex = i;
            // A 2-vertex obstacle is a thin segment: both vertices count as convex.
            vx.convex = n == 2 || leftOf(poly[prev], poly[i], poly[next]) >= 0.0;
            vx.unitDir = normalize(poly[next] - poly[i]);
            out.push_back(vx);
        }
    }
}

int ObstacleGrid::cellX(double x) const {
    return detail::clampedCell((x - m_origin.x) * m_invCellSize, m_cols);
}

int ObstacleGrid::cellY(double y) const {
    return detail::clampedCell((y - m_origin.y) * m_invCellSize, m_rows);
}

void ObstacleGrid::build(std::span<const ObstacleVertex> vertices, double typicalRange) {
    m_cellStart.clear();
    m_items.clear();
    m_cols = m_rows = 0;
    if (vertices.empty()) return;

    Vec2 lo = vertices[0].point;
    Vec2 hi = lo;
    for (const ObstacleVertex& vx : vertices) {
        lo = glm::min(lo, vx.point);
        hi = glm::max(hi, vx.point);
    }
    const Vec2 extent = hi - lo;
    // One query range per cell (a query visits 3 rows of about 3 cells; half or a quarter of
    // that, closer to its disc, measured no faster: more cells and more segments in several),
    // but never more than ~4 cells per segment plus a floor.
    const double cell =
        detail::boundedCellSize(extent, std::max(typicalRange, 1e-6), vertices.size());
    m_origin = lo;
    m_max = hi;
    m_cellSize = cell;
    m_invCellSize = 1.0 / cell;
    m_cols = static_cast<int>(std::floor(extent.x * m_invCellSize)) + 1;
    m_rows = static_cast<int>(std::floor(extent.y * m_invCellSize)) + 1;
    // Cell coordinates and a segment's x-extent in a row are rounded (a few ulps of the
    // coordinates): registrations and queries are widened by a margin far above that and far
    // below a cell, so a segment is found in every cell it touches (a superset; the query's
    // distance filter is exact).
    const double scale = std::max(
        {std::abs(lo.x), std::abs(lo.y), std::abs(hi.x), std::abs(hi.y), extent.x, extent.y, cell});
    m_margin = 1e-9 * scale;

    // Calls f(cellIndex, c0) for the cells the segment a→b passes through, row by row; c0 is
    // the first of them in that row (their column).
    auto forEachCell = [&](Vec2 a, Vec2 b, auto&& f) {
        const int r0 = cellY(std::min(a.y, b.y) - m_margin);
        const int r1 = cellY(std::max(a.y, b.y) + m_margin);
        detail::forEachSegmentRow(
            a, b, m_origin.y, m_cellSize, r0, r1,
            [&](int r, double xa, double xb) {
                const int c0 = cellX(xa - m_margin);
                const int c1 = cellX(xb + m_margin);
                for (int c = c0; c <= c1; ++c)
                    f(static_cast<std::size_t>(r) * m_cols + c, c0);
            },
            m_margin);
    };

    const std::size_t numCells = static_cast<std::size_t>(m_cols) * m_rows;
    m_cellStart.assign(numCells + 1, 0);
    for (const ObstacleVertex& vx : vertices) {
        forEachCell(vx.point, vertices[vx.next].point,
                    [&](std::size_t c, int) { ++m_cellStart[c + 1]; });
    }
    for (std::size_t c = 0; c < numCells; ++c)
        m_cellStart[c + 1] += m_cellStart[c];
    m_items.resize(m_cellStart[numCells]);
    std::vector<std::uint32_t> fill(m_cellStart.begin(), m_cellStart.end() - 1);
    for (std::uint32_t i = 0; i < vertices.size(); ++i) {
        const Vec2 a = vertices[i].point;
        const Vec2 b = vertices[vertices[i].next].point;
        forEachCell(a, b, [&](std::size_t c, int c0) { m_items[fill[c]++] = {a, b, i, c0}; });
    }
}

void ObstacleGrid::query(Vec2 p, double range, std::vector<std::uint32_t>& segments,
                         std::vector<double>& distSq, bool rightSideOnly) const {
    segments.clear();
    distSq.clear();
    if (m_cellStart.empty()) return;
    // Segments lie inside [m_origin, m_max]; skip the search when the range misses it.
    if (!(p.x + range >= m_origin.x && p.x - range <= m_max.x && p.y + range >= m_origin.y &&
          p.y - range <= m_max.y))
        return;
    const double rangeSq = range * range;
    const double margin = m_margin + 1e-9 * std::max(std::abs(p.x), std::abs(p.y));
    const int r0 = cellY(p.y - range - margin);
    const int r1 = cellY(p.y + range + margin);
    for (int r = r0; r <= r1; ++r) {
        // The disc's x-extent within the row (widened by the margin).
        const double bottom = m_origin.y + r * m_cellSize;
        const double top = bottom + m_cellSize;
        double dy = p.y < bottom ? bottom - p.y : (p.y > top ? p.y - top : 0.0);
        dy = std::max(dy - margin, 0.0);
        if (dy >= range) continue;
        const double w = std::sqrt(rangeSq - dy * dy) + margin;
        const std::size_t row = static_cast<std::size_t>(r) * m_cols;
        const int c0 = cellX(p.x - w);
        const int c1 = cellX(p.x + w);
        for (int c = c0; c <= c1; ++c) {
            const std::uint32_t end = m_cellStart[row + c + 1];
            for (std::uint32_t k = m_cellStart[row + c]; k < end; ++k) {
                const Item& it = m_items[k];
                // A segment through several cells of this row was met in the first of them.
                if (c > c0 && it.firstColumn < c) continue;
                // Keep segments the agent sees from their right (outer) side within range.
                if (rightSideOnly && leftOf(it.a, it.b, p) >= 0.0) continue;
                const double d = distSqPointSegment(it.a, it.b, p);
                if (d >= rangeSq) continue;
                // Nearest first; ties by vertex index (deterministic). A segment met again (in
                // another row) has the same distance and index: it stops right behind itself.
                const std::uint32_t s = it.segment;
                std::size_t j = segments.size();
                while (j > 0 && (d < distSq[j - 1] || (d == distSq[j - 1] && s < segments[j - 1])))
                    --j;
                if (j > 0 && d == distSq[j - 1] && s == segments[j - 1]) continue;
                segments.insert(segments.begin() + static_cast<std::ptrdiff_t>(j), s);
                distSq.insert(distSq.begin() + static_cast<std::ptrdiff_t>(j), d);
            }
        }
    }
}

} // namespace orca
