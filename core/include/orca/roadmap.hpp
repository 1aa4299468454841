#pragma once
/// \file roadmap.hpp
/// A roadmap (visibility graph) router: the idea of RVO2's Roadmap example, in our own code.
///
/// Nodes sit just outside the convex corners of the obstacles, offset outward by a clearance;
/// edges join the nodes that see each other with that clearance. For a target point (a waypoint
/// or a goal) a distance field gives every node its shortest distance to the target along the
/// graph; an agent heads for the target itself when it sees it, else for the visible node that
/// minimises |p - n| + dist(n), which is the farthest node of its shortest path that it can see.
/// The planner only chooses a point to walk at; ORCA still does the avoidance.
///
/// Conventions as in obstacles.hpp: polygons are counter-clockwise (agents live outside), a
/// 2-vertex obstacle is a thin segment that blocks from both sides. Lengths are world units.
///
/// **What is exact and what is bounded.**
/// - Nodes and visibility are exact for the rules stated at build() and visible().
/// - Graph edges: with at most Limits::fullGraphNodes nodes, every pair of nodes that see each
///   other is joined (the full visibility graph), and a target is linked to every node that sees
///   it, so distances are the exact shortest paths over the nodes. Above that, each node is
///   tested only against its Limits::sectorNeighbours nearest nodes in each of 8 directions
///   (octants), and likewise a target; distances are then shortest paths over that sparser
///   graph (never shorter than the exact ones, usually a few percent longer).
/// - steer(): the direct case (target visible) is exact. Otherwise it looks at the nodes within
///   R of p, for R = searchRadius(), 4 R, 16 R, ... until that disk holds a visible node with a
///   finite distance (at worst every node), and takes the best of them: the exact minimiser of
///   |p - n| + dist(n) among the visible nodes in that disk. With at most 64 nodes the disk is
///   the whole map (exact). Whether some node exists is exact (reachable() never misses a route
///   the graph has). Measured on a 7 x 7 box field (196 nodes): the route from a random point
///   is the exact one in 72 % of cases, 0.06 % longer on average, 2.8 % at worst.
/// - Everything is a pure function of (obstacles, clearance, limits, query): no dependence on
///   the cache, on call order or on threads; ties are broken by node index.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

namespace detail {
struct RoadmapGraph;
} // namespace detail

class Roadmap {
  public:
    /// Bounds on the work and memory of a roadmap. Beyond maxVertices build() refuses.
    struct Limits {
        /// Most obstacle vertices build() accepts (>= 0). A box field builds in about 0.02 s
        /// per 1,000 vertices in bounded mode (20,000 vertices: 0.35 s, 80,000: 1.5 s); larger
        /// inputs are refused rather than slow.
        std::size_t maxVertices = 100'000;
        /// Up to this many nodes the graph is the full visibility graph (O(nodes^2) pair
        /// tests); above it, the octant-bounded graph (see the file comment).
        std::size_t fullGraphNodes = 2'000;
        /// Bounded mode: nearest candidates per octant tested for an edge (>= 1).
        std::size_t sectorNeighbours = 4;
        /// Memory cap of the distance-field cache, bytes. One field costs 8 bytes per node plus
        /// its target links. Targets beyond the cap are computed again when asked for (same
        /// result, slower); evicting never changes a result.
        std::size_t maxCacheBytes = std::size_t{64} << 20;
    };

    /// Where to steer (see steer()).
    struct Steer {
        Vec2 point{0.0, 0.0};   ///< The point to walk at: the target or a node (world units).
        std::int64_t node = -1; ///< The node steered at, or -1 (direct, or no route).
        bool direct = false;    ///< The target itself is visible: walk straight at it.
        bool routed = true;     ///< False when no route exists: `point` is then the target.
    };

    /// An empty roadmap with default limits. Copies share the (immutable) graph.
    Roadmap() = default;
    explicit Roadmap(const Limits& limits) : m_limits(limits) {}

    [[nodiscard]] const Limits& limits() const { return m_limits; }

    /// Builds nodes and edges from obstacle polygons (counter-clockwise, valid per
    /// checkPolygon; or 2-vertex thin segments) with `clearance` (world units, finite, > 0):
    /// the caller passes at least the largest agent radius plus a margin; 1.1 x the largest
    /// radius is what we recommend (the simulator's choice): nodes are then a tenth of a radius
    /// clear of every corner, so an agent pushed a little by its neighbours still sees on.
    ///
    /// Nodes: at each convex vertex with a turn of at most 120 degrees, one node on the outward
    /// bisector at distance clearance / cos(turn / 2) (clearance from both edge lines); at a
    /// sharper vertex (and at both tips of a thin segment), two nodes, one per edge, at
    /// v + clearance * (outward normal +- edge direction) (sqrt(2) clearance from the vertex;
    /// the segment between them also keeps the clearance). Flat (collinear) and concave
    /// vertices get none: they are never on a shortest path. A node closer than clearance to
    /// any obstacle edge, or inside a polygon, is dropped. Edges: node pairs visible with
    /// radius edgeRadius() = clearance * (1 - 1e-6) (the slack absorbs rounding for nodes that
    /// are exactly clearance from an edge line).
    ///
    /// Returns false (and a message in *error) and leaves the roadmap empty for: clearance not
    /// finite or <= 0, a polygon with fewer than 2 vertices or a non-finite coordinate, more
    /// than Limits::maxVertices vertices. Clears the field cache. Cost: O(V log V) plus the
    /// edge tests: O(N^2) visibility tests up to fullGraphNodes nodes (0.3 to 0.5 s for 2,000
    /// nodes), O(N) above (0.25 to 0.35 s and 9 MB for 5,000 boxes, 20,000 vertices).
    bool build(std::span<const std::vector<Vec2>> polygons, double clearance,
               std::string* error = nullptr);

    /// Forgets the obstacles and the cache. O(1) plus freeing.
    void clear();
    /// True when there are no obstacles (every target is then visible: steer() goes direct).
    [[nodiscard]] bool empty() const;

    /// The nodes (world units), in a fixed order: by obstacle, by vertex.
    [[nodiscard]] std::span<const Vec2> nodes() const;
    /// The graph edges, as node index pairs (first < second), sorted; for drawing.
    [[nodiscard]] std::span<const std::pair<std::uint32_t, std::uint32_t>> edges() const;
    /// The clearance given to build() (0 when empty).
    [[nodiscard]] double clearance() const;
    /// The radius graph edges are tested with: clearance * (1 - 1e-6).
    [[nodiscard]] double edgeRadius() const;
    /// True when the graph is the full visibility graph (nodes <= Limits::fullGraphNodes).
    [[nodiscard]] bool fullGraph() const;
    /// The first radius of steer()'s node search (world units): the radius of a disk holding 16
    /// nodes on average over the nodes' bounding box, at least 4 x clearance.
    [[nodiscard]] double searchRadius() const;

    /// True when the closed segment a->b keeps at least `radius` (>= 0, world units) from
    /// every obstacle edge and touches none (RVO2's queryVisibility, with exact segment
    /// distances). Cost: the obstacle-grid cells the segment's radius band crosses, stopping at
    /// the first blocking edge; O(1) for a short segment.
    [[nodiscard]] bool visible(Vec2 a, Vec2 b, double radius) const;

    /// Computes and caches the distance fields of `targets` (duplicates allowed) that are not
    /// cached yet: one Dijkstra each over the graph, O(E log N). Call it single-threaded before
    /// a parallel step for that step's targets; steer(), path() and reachable() are const and
    /// thread-safe at any time (a target not cached is computed on the fly for that one call:
    /// same result, slower). Fields of targets not named here may be evicted (least recently
    /// prepared first) to keep the cache within Limits::maxCacheBytes; this call's targets are
    /// kept while they fit. A field of 20,000 nodes costs 160 KB and about 6 ms; naming cached
    /// targets costs a hash look-up each (about 40 us for 5,000 agents).
    void prepare(std::span<const Vec2> targets);

    /// Where an agent at `p` with `radius` (>= 0, world units) heading for `target` should
    /// steer: `target` itself when visible (direct); else the node n minimising
    /// |p - n| + dist(n -> target) among the visible nodes of the search disk (see the file
    /// comment), ties by index; when it sees no node with a finite distance: `target` with
    /// routed = false (the caller walks straight). Visibility from p uses min(radius,
    /// edgeRadius()) for nodes; an edge that p (or the target, for the direct test) is already
    /// closer to than `radius` is allowed as long as the segment gets no closer to it than p
    /// (the target) is, so an agent pushed against a wall still routes. Non-finite p or target:
    /// `target`, routed = false. Cost with the field cached (5,000 boxes, CPU time): about
    /// 0.15 us direct, 1 us routed; without it, one Dijkstra more.
    [[nodiscard]] Steer steer(Vec2 p, double radius, Vec2 target) const;

    /// The whole route: p, the steer() node, the nodes of its shortest path, target. {p,
    /// target} when direct; empty when no route (or non-finite input). For drawing and the
    /// linter. Cost: steer() plus the path's nodes times their degrees.
    [[nodiscard]] std::vector<Vec2> path(Vec2 p, double radius, Vec2 target) const;

    /// Whether `target` can be reached from `p` on the roadmap (steer(...).routed): false in a
    /// closed room.
    [[nodiscard]] bool reachable(Vec2 p, double radius, Vec2 target) const;

    /// Bytes held: graph, grids and cached fields.
    [[nodiscard]] std::size_t bytes() const;
    /// Number of cached distance fields.
    [[nodiscard]] std::size_t cachedFields() const { return m_cache.size(); }

  private:
    /// One target's distance field (immutable once built).
    struct Field {
        std::vector<double> dist;         ///< per node; +inf when unreachable
        std::vector<std::uint32_t> links; ///< nodes joined to the target, ascending
        [[nodiscard]] std::size_t bytes() const;
    };
    struct Entry {
        std::shared_ptr<const Field> field;
        std::uint64_t stamp = 0; ///< the prepare() call that last named it
    };
    struct KeyHash {
        std::size_t operator()(const std::pair<std::uint64_t, std::uint64_t>& k) const;
    };
    using Key = std::pair<std::uint64_t, std::uint64_t>;
    [[nodiscard]] static Key keyOf(Vec2 target);
    [[nodiscard]] Field computeField(Vec2 target) const;
    [[nodiscard]] const Field* cachedField(Vec2 target) const;
    /// The node steer() picks (-1 when none), given the field.
    [[nodiscard]] std::int64_t chooseNode(Vec2 p, double radius, const Field& field) const;

    Limits m_limits;
    std::shared_ptr<const detail::RoadmapGraph> m_graph; ///< null when empty
    std::unordered_map<Key, Entry, KeyHash> m_cache;
    std::size_t m_cacheBytes = 0;
    std::uint64_t m_stamp = 0;
};

} // namespace orca
