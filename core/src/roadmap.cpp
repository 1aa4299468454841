// Roadmap build: obstacle-edge grid, node placement, visibility, graph edges (roadmap.hpp).
// Queries (distance fields, the cache, steer, path) are in roadmap_query.cpp.
#include "orca/roadmap.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>

#include <glm/common.hpp>

#include "roadmap_graph.hpp"
#include "segment_rows.hpp"

namespace orca {

namespace detail {

namespace {

/// Octant of direction d (0..7, counter-clockwise from +x; d = 0 gives 0).
int octant(Vec2 d) {
    if (d.y > 0.0 || (d.y == 0.0 && d.x >= 0.0)) {
        if (d.x > 0.0) return d.y < d.x ? 0 : 1;
        return d.y > -d.x ? 2 : 3;
    }
    if (d.x < 0.0) return -d.y < -d.x ? 4 : 5;
    return -d.y > d.x ? 6 : 7;
}

/// (1 - 1e-9)^2: an edge an endpoint is already within radius of may come no closer than this
/// fraction of its distance (squared); the factor absorbs nothing but marks "no closer".
constexpr double kRelaxSq = (1.0 - 1e-9) * (1.0 - 1e-9);

} // namespace

// ---- Grids -------------------------------------------------------------------------------------

void SegmentGrid::build(std::span<const RoadmapSegment> segments, double cellSize) {
    m_cellStart.clear();
    m_items.clear();
    m_itemIds.clear();
    m_cols = m_rows = 0;
    if (segments.empty()) return;
    Vec2 lo = segments[0].a;
    Vec2 hi = lo;
    for (const RoadmapSegment& s : segments) {
        lo = glm::min(lo, glm::min(s.a, s.b));
        hi = glm::max(hi, glm::max(s.a, s.b));
    }
    const Vec2 extent = hi - lo;
    const double cell = boundedCellSize(
        extent, std::max(cellSize, 1e-9 * std::max({extent.x, extent.y, 1.0})), segments.size());
    m_origin = lo;
    m_max = hi;
    m_cellSize = cell;
    m_invCellSize = 1.0 / cell;
    m_cols = static_cast<int>(std::floor(extent.x * m_invCellSize)) + 1;
    m_rows = static_cast<int>(std::floor(extent.y * m_invCellSize)) + 1;

    // The cells a segment passes through, row by row: the exact x-span per row, widened by a
    // hair against rounding (every extra copy would be tested by each visibility query
    // passing by).
    const double pad = 1e-9 * cell;
    auto forEachCell = [&](Vec2 a, Vec2 b, auto&& f) {
        const int r0 = cellY(std::min(a.y, b.y));
        const int r1 = cellY(std::max(a.y, b.y));
        forEachSegmentRow(a, b, m_origin.y, m_cellSize, r0, r1, [&](int r, double xa, double xb) {
            const int c0 = cellX(xa - pad);
            const int c1 = cellX(xb + pad);
            for (int c = c0; c <= c1; ++c)
                f(static_cast<std::size_t>(r) * static_cast<std::size_t>(m_cols) +
                  static_cast<std::size_t>(c));
        });
    };
    const std::size_t numCells =
        static_cast<std::size_t>(m_cols) * static_cast<std::size_t>(m_rows);
    std::vector<std::uint32_t> counts(numCells, 0);
    for (const RoadmapSegment& s : segments)
        forEachCell(s.a, s.b, [&](std::size_t c) { ++counts[c]; });
    m_cellStart.assign(numCells + 1, 0);
    for (std::size_t c = 0; c < numCells; ++c)
        m_cellStart[c + 1] = m_cellStart[c] + counts[c];
    m_items.resize(m_cellStart[numCells]);
    m_itemIds.resize(m_cellStart[numCells]);
    std::vector<std::uint32_t> fill(m_cellStart.begin(), m_cellStart.end() - 1);
    for (std::size_t i = 0; i < segments.size(); ++i) {
        forEachCell(segments[i].a, segments[i].b, [&](std::size_t c) {
            m_items[fill[c]] = segments[i];
            m_itemIds[fill[c]++] = static_cast<std::uint32_t>(i);
        });
    }
}

std::size_t SegmentGrid::bytes() const {
    return m_cellStart.capacity() * sizeof(std::uint32_t) +
           m_items.capacity() * sizeof(RoadmapSegment) +
           m_itemIds.capacity() * sizeof(std::uint32_t);
}

void NodeGrid::build(std::span<const Vec2> points, double cellSize) {
    m_cellStart.clear();
    m_items.clear();
    m_cols = m_rows = 0;
    if (points.empty()) return;
    Vec2 lo = points[0];
    Vec2 hi = lo;
    for (Vec2 p : points) {
        lo = glm::min(lo, p);
        hi = glm::max(hi, p);
    }
    const Vec2 extent = hi - lo;
    double cell = std::max(cellSize, 1e-9 * std::max({extent.x, extent.y, 1.0}));
    const double maxCells = static_cast<double>(points.size()) + 4096.0;
    while ((std::floor(extent.x / cell) + 1.0) * (std::floor(extent.y / cell) + 1.0) > maxCells)
        cell *= 2.0;
    m_origin = lo;
    m_max = hi;
    m_cellSize = cell;
    m_inv = 1.0 / cell;
    m_cols = static_cast<std::int64_t>(std::floor(extent.x * m_inv)) + 1;
    m_rows = static_cast<std::int64_t>(std::floor(extent.y * m_inv)) + 1;
    auto cellOf = [&](Vec2 p) {
        const std::int64_t x = std::clamp(cx(p.x), std::int64_t{0}, m_cols - 1);
        const std::int64_t y = std::clamp(cy(p.y), std::int64_t{0}, m_rows - 1);
        return static_cast<std::size_t>(y * m_cols + x);
    };
    const auto numCells = static_cast<std::size_t>(m_cols * m_rows);
    m_cellStart.assign(numCells + 1, 0);
    for (Vec2 p : points)
        ++m_cellStart[cellOf(p) + 1];
    for (std::size_t c = 0; c < numCells; ++c)
        m_cellStart[c + 1] += m_cellStart[c];
    m_items.resize(points.size());
    std::vector<std::uint32_t> fill(m_cellStart.begin(), m_cellStart.end() - 1);
    for (std::size_t i = 0; i < points.size(); ++i)
        m_items[fill[cellOf(points[i])]++] = static_cast<std::uint32_t>(i);
}

std::int64_t NodeGrid::minRing(std::int64_t x, std::int64_t y) const {
    const std::int64_t dx = x < 0 ? -x : (x >= m_cols ? x - m_cols + 1 : 0);
    const std::int64_t dy = y < 0 ? -y : (y >= m_rows ? y - m_rows + 1 : 0);
    return std::max(dx, dy);
}

std::int64_t NodeGrid::maxRing(std::int64_t x, std::int64_t y) const {
    auto far = [](std::int64_t v, std::int64_t n) {
        return std::max(v < 0 ? -v : v, std::abs(v - (n - 1)));
    };
    return std::max(far(x, m_cols), far(y, m_rows));
}

double NodeGrid::farthestSq(Vec2 p) const {
    const double dx = std::max(std::abs(p.x - m_origin.x), std::abs(p.x - m_max.x));
    const double dy = std::max(std::abs(p.y - m_origin.y), std::abs(p.y - m_max.y));
    return dx * dx + dy * dy;
}

std::size_t NodeGrid::bytes() const {
    return (m_cellStart.capacity() + m_items.capacity()) * sizeof(std::uint32_t);
}

// ---- Graph queries -----------------------------------------------------------------------------

bool RoadmapGraph::blocked(Vec2 a, Vec2 b, double radius, bool relaxA, bool relaxB) const {
    const double rSq = radius * radius;
    const Vec2 lo = glm::min(a, b) - radius;
    const Vec2 hi = glm::max(a, b) + radius;
    return segmentGrid.anyAlong(a, b, radius, [&](const RoadmapSegment& s, std::uint32_t) {
        // Bounding boxes first: most edges of a visited cell are nowhere near the segment.
        if (std::max(s.a.x, s.b.x) < lo.x || std::min(s.a.x, s.b.x) > hi.x ||
            std::max(s.a.y, s.b.y) < lo.y || std::min(s.a.y, s.b.y) > hi.y)
            return false;
        const double dSq = segmentDistSq(a, b, s.a, s.b);
        if (dSq == 0.0) return true; // crossing or touching
        if (dSq >= rSq) return false;
        // Too close. An endpoint that is itself already that close (an agent pushed against a
        // wall, a goal near one) excuses it, provided the segment comes no closer to the edge
        // than that endpoint is: distSqPointSegment(s.a, s.b, a) is one of the four terms of
        // segmentDistSq, so a segment moving away from the edge gives dSq == da exactly.
        double limit = rSq;
        if (relaxA) {
            const double da = distSqPointSegment(s.a, s.b, a);
            if (da < rSq) limit = std::min(limit, da * kRelaxSq);
        }
        if (relaxB) {
            const double db = distSqPointSegment(s.a, s.b, b);
            if (db < rSq) limit = std::min(limit, db * kRelaxSq);
        }
        return dSq < limit;
    });
}

bool RoadmapGraph::insidePolygon(Vec2 p) const {
    if (segmentGrid.empty()) return false;
    // Cast toward the nearer side of the grid; count, per polygon, the edges crossing the ray.
    // An edge sits in several cells of the row: it is counted in the cell holding the crossing.
    const int dir = p.x - segmentGrid.lo().x < segmentGrid.hi().x - p.x ? -1 : 1;
    std::vector<std::uint32_t> crossed;
    segmentGrid.alongRow(p, dir, [&](const RoadmapSegment& s, std::uint32_t id, int col) {
        const std::uint32_t poly = segmentPolygon[id];
        if (polygonThin[poly] != 0) return;
        if ((s.a.y > p.y) == (s.b.y > p.y)) return; // half-open: vertices on the ray count once
        const double x = s.a.x + (p.y - s.a.y) * (s.b.x - s.a.x) / (s.b.y - s.a.y);
        if (dir > 0 ? !(x > p.x) : !(x < p.x)) return;
        if (segmentGrid.cellX(x) != col) return;
        crossed.push_back(poly);
    });
    std::sort(crossed.begin(), crossed.end());
    for (std::size_t i = 0; i < crossed.size();) {
        std::size_t j = i;
        while (j < crossed.size() && crossed[j] == crossed[i])
            ++j;
        if ((j - i) % 2 == 1) return true;
        i = j;
    }
    return false;
}

void RoadmapGraph::sectorCandidates(Vec2 q, std::size_t m, std::int64_t self,
                                    std::vector<std::uint32_t>& out) const {
    if (nodeGrid.empty() || m == 0) return;
    // How far each octant reaches into the nodes' bounding box: the farthest vertex of the box
    // clipped to the octant's wedge (0 when they miss). An octant is done when it has m nodes
    // closer than the search bound, or when the bound passes its reach: a node at the edge of
    // the map does not scan the whole map for the octants that point outward.
    std::array<double, 8> reachSq{};
    for (std::size_t o = 0; o < 8; ++o) {
        const double a0 = static_cast<double>(o) * std::numbers::pi / 4.0;
        const double a1 = a0 + std::numbers::pi / 4.0;
        const std::array<Vec2, 4> rect{nodeGrid.lo(), Vec2(nodeGrid.hi().x, nodeGrid.lo().y),
                                       nodeGrid.hi(), Vec2(nodeGrid.lo().x, nodeGrid.hi().y)};
        // Wedge = left of direction a0 and right of direction a1 (closed: a superset).
        const Line sides[2] = {{q, Vec2(std::cos(a0), std::sin(a0))},
                               {q, -Vec2(std::cos(a1), std::sin(a1))}};
        std::vector<Vec2> poly(rect.begin(), rect.end());
        for (const Line& side : sides)
            poly = clipPolygon(poly, side, 1e-9 * nodeGrid.cellSize());
        for (Vec2 v : poly)
            reachSq[o] = std::max(reachSq[o], absSq(v - q));
    }
    std::array<std::vector<std::pair<double, std::uint32_t>>, 8> found;
    std::array<std::size_t, 8> within{};        // entries of found[o] within the bound
    std::array<std::vector<double>, 8> pending; // distances (squared) beyond it
    const std::int64_t x = nodeGrid.cx(q.x);
    const std::int64_t y = nodeGrid.cy(q.y);
    const std::int64_t k1 = nodeGrid.maxRing(x, y);
    for (std::int64_t k = nodeGrid.minRing(x, y); k <= k1; ++k) {
        nodeGrid.forEachInRing(x, y, k, [&](std::uint32_t n) {
            if (static_cast<std::int64_t>(n) == self) return;
            const Vec2 d = nodes[n] - q;
            const auto o = static_cast<std::size_t>(octant(d));
            found[o].emplace_back(absSq(d), n);
            pending[o].push_back(absSq(d));
        });
        // Cells beyond ring k are more than k cells away: every node within k * cellSize of q
        // has been seen.
        const double bound = static_cast<double>(k) * nodeGrid.cellSize();
        const double boundSq = bound * bound;
        bool done = true;
        for (std::size_t o = 0; o < 8; ++o) {
            auto& wait = pending[o];
            std::size_t kept = 0;
            for (double dSq : wait) {
                if (dSq <= boundSq)
                    ++within[o];
                else
                    wait[kept++] = dSq;
            }
            wait.resize(kept);
            if (within[o] < m && boundSq < reachSq[o]) done = false;
        }
        if (done) break;
    }
    for (auto& list : found) {
        const std::size_t take = std::min(m, list.size());
        std::partial_sort(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(take),
                          list.end());
        for (std::size_t i = 0; i < take; ++i)
            out.push_back(list[i].second);
    }
}

void RoadmapGraph::targetLinks(Vec2 target, std::vector<std::uint32_t>& out) const {
    out.clear();
    if (full) {
        for (std::uint32_t n = 0; n < nodes.size(); ++n)
            if (!blocked(nodes[n], target, edgeRadius, false, true)) out.push_back(n);
        return;
    }
    std::vector<std::uint32_t> candidates;
    for (std::size_t m = sectorNeighbours; m <= 16 * sectorNeighbours; m *= 4) {
        candidates.clear();
        sectorCandidates(target, m, -1, candidates);
        std::sort(candidates.begin(), candidates.end());
        for (std::uint32_t n : candidates)
            if (!blocked(nodes[n], target, edgeRadius, false, true)) out.push_back(n);
        if (!out.empty() || candidates.size() == nodes.size()) return;
    }
}

std::size_t RoadmapGraph::bytes() const {
    return sizeof(*this) + segments.capacity() * sizeof(RoadmapSegment) +
           segmentPolygon.capacity() * sizeof(std::uint32_t) + polygonThin.capacity() +
           segmentGrid.bytes() + nodes.capacity() * sizeof(Vec2) +
           edges.capacity() * sizeof(edges[0]) +
           (adjStart.capacity() + adjNode.capacity()) * sizeof(std::uint32_t) +
           adjWeight.capacity() * sizeof(double) + nodeGrid.bytes();
}

} // namespace detail

// ---- Build -------------------------------------------------------------------------------------

namespace {

using detail::RoadmapGraph;
using detail::RoadmapSegment;

/// The candidate nodes of one obstacle (see Roadmap::build): appended to `out`.
void placeNodes(const std::vector<Vec2>& poly, double c, std::vector<Vec2>& out) {
    const std::size_t n = poly.size();
    auto right = [](Vec2 d) { return Vec2(d.y, -d.x); }; // outward normal of a CCW edge
    if (n == 2) {
        // Thin segment: two nodes beyond each tip, the corners of the clearance rectangle.
        const Vec2 d = normalize(poly[1] - poly[0]);
        const Vec2 nr = right(d);
        out.push_back(poly[0] + c * (-d - nr));
        out.push_back(poly[0] + c * (-d + nr));
        out.push_back(poly[1] + c * (d + nr));
        out.push_back(poly[1] + c * (d - nr));
        return;
    }
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 u = poly[(i + n - 1) % n];
        const Vec2 v = poly[i];
        const Vec2 w = poly[(i + 1) % n];
        const Vec2 d1 = normalize(v - u);
        const Vec2 d2 = normalize(w - v);
        const double sinTurn = det(d1, d2);
        const double cosTurn = dot(d1, d2);
        // Concave and flat vertices are never on a shortest path (a taut path only bends
        // around convex corners); a fold straight back (turn of 180 degrees) is convex.
        if (!(sinTurn > 0.0 || (sinTurn == 0.0 && cosTurn < 0.0))) continue;
        const Vec2 n1 = right(d1);
        const Vec2 n2 = right(d2);
        if (cosTurn >= -0.5) {
            // Mitre: on the bisector, clearance from both edge lines (at most 2 clearance away
            // for a turn of 120 degrees). Its nearest point of either edge is v itself.
            const Vec2 m = normalize(n1 + n2);
            out.push_back(v + (c / dot(m, n1)) * m);
        } else {
            // Sharp corner: a bevel of two nodes, clearance from their own edge's line and
            // sqrt(2) clearance from v; the chord between them passes v at
            // sqrt(2) clearance cos((turn - 90 degrees) / 2) >= clearance.
            out.push_back(v + c * (n1 + d1));
            out.push_back(v + c * (n2 - d2));
        }
    }
}

bool fail(std::string* error, std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
}

} // namespace

bool Roadmap::build(std::span<const std::vector<Vec2>> polygons, double clearance,
                    std::string* error) {
    clear();
    if (!std::isfinite(clearance) || clearance <= 0.0) {
        char buf[128];
        std::snprintf(buf, sizeof buf, "roadmap: clearance %g must be finite and > 0", clearance);
        return fail(error, buf);
    }
    std::size_t vertices = 0;
    for (std::size_t o = 0; o < polygons.size(); ++o) {
        if (polygons[o].size() < 2)
            return fail(error, "roadmap: obstacle " + std::to_string(o) + " has " +
                                   std::to_string(polygons[o].size()) + " vertices (at least 2)");
        for (Vec2 v : polygons[o])
            if (!std::isfinite(v.x) || !std::isfinite(v.y))
                return fail(error, "roadmap: obstacle " + std::to_string(o) +
                                       " has a non-finite coordinate");
        vertices += polygons[o].size();
    }
    if (vertices > m_limits.maxVertices)
        return fail(error, "roadmap: " + std::to_string(vertices) +
                               " obstacle vertices exceed the limit of " +
                               std::to_string(m_limits.maxVertices) +
                               " (Roadmap::Limits::maxVertices); the roadmap was not built");
    if (vertices >= 0x7fffffffu) return fail(error, "roadmap: too many vertices");
    if (polygons.empty()) return true; // nothing blocks: empty() stays true

    auto g = std::make_shared<RoadmapGraph>();
    g->clearance = clearance;
    g->edgeRadius = clearance * (1.0 - detail::kEdgeSlack);
    g->sectorNeighbours = std::max<std::size_t>(m_limits.sectorNeighbours, 1);

    // Obstacle edges and their grid: about 4 edges per cell on average.
    Vec2 lo = polygons[0][0];
    Vec2 hi = lo;
    g->polygonThin.resize(polygons.size());
    for (std::size_t o = 0; o < polygons.size(); ++o) {
        const std::vector<Vec2>& poly = polygons[o];
        const std::size_t n = poly.size();
        g->polygonThin[o] = n == 2 ? 1 : 0;
        const std::size_t edgesHere = n == 2 ? 1 : n;
        for (std::size_t i = 0; i < edgesHere; ++i) {
            g->segments.push_back({poly[i], poly[(i + 1) % n]});
            g->segmentPolygon.push_back(static_cast<std::uint32_t>(o));
            lo = glm::min(lo, poly[i]);
            hi = glm::max(hi, poly[i]);
        }
        lo = glm::min(lo, poly[n - 1]);
        hi = glm::max(hi, poly[n - 1]);
    }
    const Vec2 extent = hi - lo;
    const double segCount = static_cast<double>(g->segments.size());
    double segCell = std::sqrt(4.0 * extent.x * extent.y / segCount);
    if (!(segCell > 0.0)) segCell = std::max({extent.x, extent.y, clearance});
    g->segmentGrid.build(g->segments, segCell);

    // Nodes: placed per obstacle, kept when clear of every edge and outside every polygon.
    std::vector<Vec2> candidates;
    for (const std::vector<Vec2>& poly : polygons)
        placeNodes(poly, clearance, candidates);
    for (Vec2 q : candidates) {
        if (!std::isfinite(q.x) || !std::isfinite(q.y)) continue;
        if (g->blocked(q, q, g->edgeRadius, false, false)) continue;
        if (g->insidePolygon(q)) continue;
        g->nodes.push_back(q);
    }
    if (g->nodes.size() >= 0x7fffffffu) return fail(error, "roadmap: too many nodes");
    const auto numNodes = g->nodes.size();

    // Node grid and steer()'s first search radius: a disk holding about 16 nodes on average
    // (a larger first disk tests more hidden nodes and barely shortens the routes).
    if (numNodes > 0) {
        Vec2 nlo = g->nodes[0];
        Vec2 nhi = nlo;
        for (Vec2 q : g->nodes) {
            nlo = glm::min(nlo, q);
            nhi = glm::max(nhi, q);
        }
        const double area = (nhi.x - nlo.x) * (nhi.y - nlo.y);
        g->searchRadius =
            std::max(std::sqrt(16.0 * area / (std::numbers::pi * static_cast<double>(numNodes))),
                     4.0 * clearance);
        // A small map is searched whole (exact): the disk would save nothing.
        if (numNodes <= detail::kSteerAllNodes)
            g->searchRadius = std::numeric_limits<double>::infinity();
        g->nodeGrid.build(g->nodes, 0.5 * std::min(g->searchRadius, std::sqrt(area) + clearance));
    }

    // Edges: every visible pair (full graph) or the visible sector candidates.
    g->full = numNodes <= m_limits.fullGraphNodes;
    auto edgeVisible = [&](std::uint32_t i, std::uint32_t j) {
        return !g->blocked(g->nodes[i], g->nodes[j], g->edgeRadius, false, false);
    };
    if (g->full) {
        for (std::uint32_t i = 0; i < numNodes; ++i)
            for (std::uint32_t j = i + 1; j < numNodes; ++j)
                if (edgeVisible(i, j)) g->edges.emplace_back(i, j);
    } else {
        std::vector<std::uint64_t> pairs;
        std::vector<std::uint32_t> near;
        auto collect = [&](std::uint32_t i, std::size_t m) {
            near.clear();
            g->sectorCandidates(g->nodes[i], m, i, near);
            for (std::uint32_t j : near)
                pairs.push_back((std::uint64_t{std::min(i, j)} << 32) | std::max(i, j));
        };
        auto testPairs = [&] {
            std::sort(pairs.begin(), pairs.end());
            pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
            for (std::uint64_t p : pairs) {
                const auto i = static_cast<std::uint32_t>(p >> 32);
                const auto j = static_cast<std::uint32_t>(p & 0xffffffffu);
                if (edgeVisible(i, j)) g->edges.emplace_back(i, j);
            }
            pairs.clear();
        };
        for (std::uint32_t i = 0; i < numNodes; ++i)
            collect(i, g->sectorNeighbours);
        testPairs();
        // A node that saw none of its candidates tries 4 x as many (once).
        std::vector<std::uint8_t> linked(numNodes, 0);
        for (const auto& [i, j] : g->edges)
            linked[i] = linked[j] = 1;
        for (std::uint32_t i = 0; i < numNodes; ++i)
            if (linked[i] == 0) collect(i, 4 * g->sectorNeighbours);
        testPairs();
        std::sort(g->edges.begin(), g->edges.end());
        g->edges.erase(std::unique(g->edges.begin(), g->edges.end()), g->edges.end());
    }

    // Adjacency (CSR, neighbours ascending since edges are sorted) with weights.
    g->adjStart.assign(numNodes + 1, 0);
    for (const auto& [i, j] : g->edges) {
        ++g->adjStart[i + 1];
        ++g->adjStart[j + 1];
    }
    for (std::size_t n = 0; n < numNodes; ++n)
        g->adjStart[n + 1] += g->adjStart[n];
    g->adjNode.resize(2 * g->edges.size());
    g->adjWeight.resize(2 * g->edges.size());
    {
        std::vector<std::uint32_t> fill(g->adjStart.begin(), g->adjStart.end() - 1);
        // Edges sorted by (i, j): for node n, its neighbours below n arrive (as j of an earlier
        // i) in ascending i, then those above in ascending j.
        for (const auto& [i, j] : g->edges) {
            const double w = length(g->nodes[j] - g->nodes[i]);
            g->adjNode[fill[j]] = i;
            g->adjWeight[fill[j]++] = w;
        }
        for (const auto& [i, j] : g->edges) {
            const double w = length(g->nodes[j] - g->nodes[i]);
            g->adjNode[fill[i]] = j;
            g->adjWeight[fill[i]++] = w;
        }
    }
    m_graph = std::move(g);
    return true;
}

void Roadmap::clear() {
    m_graph.reset();
    m_cache.clear();
    m_cacheBytes = 0;
}

bool Roadmap::empty() const {
    return m_graph == nullptr;
}

std::span<const Vec2> Roadmap::nodes() const {
    if (!m_graph) return {};
    return m_graph->nodes;
}

std::span<const std::pair<std::uint32_t, std::uint32_t>> Roadmap::edges() const {
    if (!m_graph) return {};
    return m_graph->edges;
}

double Roadmap::clearance() const {
    return m_graph ? m_graph->clearance : 0.0;
}

double Roadmap::edgeRadius() const {
    return m_graph ? m_graph->edgeRadius : 0.0;
}

bool Roadmap::fullGraph() const {
    return m_graph ? m_graph->full : true;
}

double Roadmap::searchRadius() const {
    return m_graph ? m_graph->searchRadius : 0.0;
}

bool Roadmap::visible(Vec2 a, Vec2 b, double radius) const {
    if (!m_graph) return true;
    return !m_graph->blocked(a, b, std::max(radius, 0.0), false, false);
}

} // namespace orca
