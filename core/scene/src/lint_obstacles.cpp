// Lint rules about obstacles: their structure (what the simulator rejects, winding, tiny
// edges), and agents and goals against them.

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <glm/common.hpp>

#include "lint_rules.hpp"
#include "orca/geometry.hpp"

namespace orca::scene::lint {

namespace {

// ---- Geometry -----------------------------------------------------------------------------------

/// Parameter t along a->b of the crossing with c->d (lines not parallel), else the closest
/// endpoint's parameter; used only to order crossings and to place markers.
double crossingParam(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const Vec2 r = b - a;
    const Vec2 s = d - c;
    const double den = det(r, s);
    if (den != 0.0) return std::clamp(det(c - a, s) / den, 0.0, 1.0);
    const double lenSq = absSq(r);
    if (lenSq <= 0.0) return 0.0;
    return std::clamp(std::min(dot(c - a, r), dot(d - a, r)) / lenSq, 0.0, 1.0);
}

/// Edge count of an obstacle: n for polygons, 1 for a 2-vertex segment.
std::size_t edgeCount(const std::vector<Vec2>& v) {
    return v.size() == 2 ? 1 : v.size();
}

struct Nearest {
    Vec2 point{0.0, 0.0};
    std::size_t edge = 0;
    double distSq = std::numeric_limits<double>::infinity();
};

Nearest nearestOnBoundary(const std::vector<Vec2>& v, Vec2 p) {
    Nearest best;
    const std::size_t n = v.size();
    for (std::size_t e = 0; e < edgeCount(v); ++e) {
        const Vec2 q = closestPointOnSegment(v[e], v[(e + 1) % n], p);
        const double d = absSq(q - p);
        if (d < best.distSq) best = {q, e, d};
    }
    return best;
}

/// How deep a disk of radius r at p sits in the obstacle: the distance it must move to be
/// just clear (0 = clear). For 2-vertex segments only the distance counts.
double penetration(const std::vector<Vec2>& v, Vec2 p, double r) {
    const Nearest near = nearestOnBoundary(v, p);
    const double d = std::sqrt(near.distSq);
    if (v.size() >= 3 && pointInPolygon(v, p)) return d + r;
    return d < r ? r - d : 0.0;
}

/// Moves a disk (centre p, radius r) out of the obstacle to clearance r * (1 + margin) from
/// the nearest boundary point, repeating in concave corners. nullopt when it cannot get out.
std::optional<Vec2> pushOut(const std::vector<Vec2>& v, Vec2 p, double r) {
    const double clearance = r * (1.0 + kNudgeMargin);
    const bool ccw = v.size() < 3 || signedArea(v) > 0.0;
    for (int it = 0; it < kNudgeIterations; ++it) {
        if (penetration(v, p, r) <= 0.0) return p;
        const Nearest near = nearestOnBoundary(v, p);
        const bool inside = v.size() >= 3 && pointInPolygon(v, p);
        Vec2 dir = inside ? near.point - p : p - near.point;
        const double len = length(dir);
        if (len > 0.0) {
            dir /= len;
        } else {
            // On the boundary: leave along the edge's outer normal (right of a CCW edge; the
            // right of the segment's direction for a 2-vertex wall).
            const Vec2 a = v[near.edge];
            const Vec2 b = v[(near.edge + 1) % v.size()];
            const Vec2 along = b - a;
            const double l = length(along);
            if (!(l > 0.0)) return std::nullopt;
            const Vec2 right{along.y / l, -along.x / l};
            dir = ccw ? right : -right;
        }
        p = near.point + dir * clearance;
        if (!finite(p)) return std::nullopt;
    }
    if (penetration(v, p, r) <= 0.0) return p;
    return std::nullopt;
}

// ---- Obstacle structure -------------------------------------------------------------------------

/// The first structural problem of obstacle `k` (same checks and order as checkPolygon, with
/// the elements to highlight); duplicates are returned one per repeated vertex in `more`.
PolygonProblem structuralProblem(const std::vector<Vec2>& v, std::size_t k,
                                 std::vector<PolygonProblem>* more) {
    PolygonProblem p;
    const std::size_t n = v.size();
    const std::string path = obstaclePath(k);
    if (n < 2) {
        p.rule = "obstacle-too-few-vertices";
        p.path = path + ".vertices";
        p.message = "obstacle " + path + " has " + plural(n, "vertex") +
                    "; an obstacle needs at least 2 (2 = a thin wall), so the simulator rejects it";
        if (n == 1) p.where = v[0];
        p.elements = {obstacleElement(k)};
        p.fixLabel = "Delete obstacle";
        return p;
    }
    for (std::size_t i = 0; i < n; ++i) {
        // checkPolygon's range: coordinates 0 or within 1e-100..1e100 in magnitude.
        auto outOfRange = [](double c) {
            return c != 0.0 && (std::abs(c) < 1e-100 || std::abs(c) > 1e100);
        };
        if (!finite(v[i]) || outOfRange(v[i].x) || outOfRange(v[i].y)) {
            p.rule = "obstacle-non-finite";
            p.path = vertexPath(k, i);
            p.message = "vertex " + std::to_string(i) + " of obstacle " + path +
                        (finite(v[i]) ? " has a coordinate that is not 0 or within 1e-100..1e100 "
                                        "in magnitude"
                                      : " is not a finite number") +
                        ", so the simulator rejects the obstacle";
            p.elements = {obstacleElement(k), {Kind::Vertex, k, i}};
            for (const Vec2& q : v) {
                if (finite(q)) {
                    p.where = q;
                    break;
                }
            }
            p.fixLabel = "Delete obstacle";
            return p;
        }
    }
    // Repeated vertices: each later copy of a point is one issue.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (v[a].x != v[b].x) return v[a].x < v[b].x;
        if (v[a].y != v[b].y) return v[a].y < v[b].y;
        return a < b;
    });
    std::vector<PolygonProblem> duplicates;
    for (std::size_t s = 1; s < n; ++s) {
        std::size_t first = s - 1;
        while (first > 0 && v[order[first - 1]] == v[order[s]])
            --first;
        if (v[order[first]] != v[order[s]]) continue;
        const std::size_t a = order[first];
        const std::size_t b = order[s];
        PolygonProblem d;
        d.rule = "obstacle-duplicate-vertex";
        d.path = vertexPath(k, b);
        const bool adjacent = b == a + 1 || (a == 0 && b == n - 1);
        d.message = "vertices " + std::to_string(a) + " and " + std::to_string(b) +
                    " of obstacle " + path + " are the same point" +
                    (adjacent ? " (a zero-length edge, which has no direction)"
                              : " (the outline pinches there)") +
                    ", so the simulator rejects the obstacle";
        d.elements = {obstacleElement(k), {Kind::Vertex, k, a}, {Kind::Vertex, k, b}};
        d.where = v[b];
        d.fixLabel = "Remove duplicate vertex";
        duplicates.push_back(std::move(d));
    }
    if (!duplicates.empty()) {
        std::sort(duplicates.begin(), duplicates.end(),
                  [](const PolygonProblem& x, const PolygonProblem& y) {
                      return x.elements[2].sub < y.elements[2].sub;
                  });
        p = std::move(duplicates.front());
        if (more != nullptr) more->assign(duplicates.begin() + 1, duplicates.end());
        return p;
    }
    if (n == 2) return p;

    // All collinear (checkPolygon's tolerance: relative to the polygon's extent).
    Vec2 lo = v[0];
    Vec2 hi = v[0];
    for (const Vec2& q : v) {
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    const double extentSq = absSq(hi - lo);
    bool allCollinear = true;
    for (std::size_t i = 1; i + 1 < n && allCollinear; ++i) {
        if (std::abs(det(v[i] - v[0], v[i + 1] - v[0])) > 1e-12 * extentSq) allCollinear = false;
    }
    if (allCollinear) {
        p.rule = "obstacle-collinear";
        p.path = path + ".vertices";
        p.message = "all " + std::to_string(n) + " vertices of obstacle " + path +
                    " lie on one line, so the polygon has no inside and the simulator rejects "
                    "it; a thin wall is a 2-vertex segment";
        p.elements = {obstacleElement(k)};
        p.where = (lo + hi) * 0.5;
        p.fixLabel = "Replace with segment";
        return p;
    }

    // Self-intersection: the one checkPolygon reports.
    auto intersecting = [&](std::size_t i, std::size_t j, Vec2 where) {
        p.rule = "obstacle-self-intersecting";
        p.path = path + ".vertices";
        p.message = "edges " + std::to_string(i) + " and " + std::to_string(j) + " of obstacle " +
                    path +
                    " cross, so it has no consistent inside and outside for ORCA's obstacle "
                    "lines and the simulator rejects it";
        p.elements = {obstacleElement(k), {Kind::Edge, k, i}, {Kind::Edge, k, j}};
        p.where = where;
        p.fixLabel = "Delete obstacle";
    };
    if (const auto hit = findSelfIntersection(v)) {
        const std::size_t i = hit->first;
        const std::size_t j = hit->second;
        const Vec2 a = v[i];
        const Vec2 b = v[(i + 1) % n];
        intersecting(i, j,
                     hit->foldBack ? b : a + crossingParam(a, b, v[j], v[(j + 1) % n]) * (b - a));
    }
    return p;
}

// ---- Agents and obstacles -----------------------------------------------------------------------

struct ObstacleIndex {
    std::vector<std::size_t> sceneIndex; ///< dense obstacle -> scene obstacle
    std::vector<std::pair<Vec2, Vec2>> box;
    std::vector<ObstacleVertex> vertices;
    ObstacleGrid grid;
    std::vector<std::uint32_t> segments;
    std::vector<double> distSq;
};

void buildObstacleIndex(const Scene& s, const std::vector<std::uint8_t>& usable,
                        double typicalRange, ObstacleIndex& index) {
    std::vector<std::vector<Vec2>> polygons;
    for (std::size_t k = 0; k < s.obstacles.size(); ++k) {
        if (!usable[k]) continue;
        std::vector<Vec2> v = s.obstacles[k].vertices;
        // The index only needs segments; CCW order keeps buildObstacleVertices' convexity
        // flags meaningful.
        if (v.size() >= 3 && signedArea(v) < 0.0) std::reverse(v.begin(), v.end());
        Vec2 lo = v[0];
        Vec2 hi = v[0];
        for (const Vec2& q : v) {
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
        index.sceneIndex.push_back(k);
        index.box.emplace_back(lo, hi);
        polygons.push_back(std::move(v));
    }
    buildObstacleVertices(polygons, index.vertices);
    index.grid.build(index.vertices, typicalRange);
}

/// Scene obstacles (ascending) that the disk (p, r) overlaps or whose polygon contains p.
std::vector<std::size_t> obstaclesHit(const Scene& s, ObstacleIndex& index, Vec2 p, double r) {
    std::vector<std::size_t> hit;
    if (r > 0.0) {
        index.grid.query(p, r, index.segments, index.distSq, false);
        for (std::uint32_t seg : index.segments)
            hit.push_back(index.sceneIndex[index.vertices[seg].obstacle]);
    }
    for (std::size_t d = 0; d < index.sceneIndex.size(); ++d) {
        const auto& [lo, hi] = index.box[d];
        if (p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y) continue;
        const std::vector<Vec2>& v = s.obstacles[index.sceneIndex[d]].vertices;
        if (v.size() >= 3 && pointInPolygon(v, p)) hit.push_back(index.sceneIndex[d]);
    }
    std::sort(hit.begin(), hit.end());
    hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
    return hit;
}

/// The first usable obstacle (by distance along the path) that the segment a->b crosses,
/// with the crossing point; obstacles in `skip` are ignored.
std::optional<std::pair<std::size_t, Vec2>> firstCrossing(const Scene& s,
                                                          const ObstacleIndex& index, Vec2 a,
                                                          Vec2 b,
                                                          const std::vector<std::size_t>& skip) {
    const Vec2 lo = glm::min(a, b);
    const Vec2 hi = glm::max(a, b);
    double bestT = std::numeric_limits<double>::infinity();
    std::optional<std::pair<std::size_t, Vec2>> best;
    for (std::size_t d = 0; d < index.sceneIndex.size(); ++d) {
        const auto& [olo, ohi] = index.box[d];
        if (hi.x < olo.x || lo.x > ohi.x || hi.y < olo.y || lo.y > ohi.y) continue;
        const std::size_t k = index.sceneIndex[d];
        if (std::find(skip.begin(), skip.end(), k) != skip.end()) continue;
        const std::vector<Vec2>& v = s.obstacles[k].vertices;
        for (std::size_t e = 0; e < edgeCount(v); ++e) {
            const Vec2 c0 = v[e];
            const Vec2 c1 = v[(e + 1) % v.size()];
            if (!segmentsTouch(a, b, c0, c1)) continue;
            const double t = crossingParam(a, b, c0, c1);
            if (t < bestT) {
                bestT = t;
                best = {k, a + t * (b - a)};
            }
        }
    }
    return best;
}

/// Adds obstacle k's structural problems when the first is `rule`'s.
void addStructural(Context& c, std::string_view rule) {
    for (std::size_t k = 0; k < c.scene.obstacles.size(); ++k) {
        const ObstacleShape& shape = c.shape(k);
        if (shape.problem.rule == nullptr || shape.problem.rule != rule) continue;
        const PolygonProblem& p = shape.problem;
        c.add(p.path, p.message, p.elements, p.where, p.fixLabel);
        for (const PolygonProblem& m : shape.more)
            c.add(m.path, m.message, m.elements, m.where, m.fixLabel);
    }
}

/// Obstacle `issue` names, or nullptr (with `error` set) when it is gone.
std::vector<Vec2>* issueObstacle(Scene& scene, const LintIssue& issue, std::size_t& k,
                                 std::string* error) {
    const auto index = elementIndex(issue, Kind::Obstacle);
    if (!index || *index >= scene.obstacles.size()) {
        fail(error, "the obstacle is gone");
        return nullptr;
    }
    k = *index;
    return &scene.obstacles[k].vertices;
}

bool fixPushOut(Scene& scene, const LintIssue& issue, bool goal, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    const auto k = elementIndex(issue, Kind::Obstacle);
    if (!i || !k || *i >= scene.agents.size() || *k >= scene.obstacles.size())
        return fail(error, "the agent or obstacle is gone");
    SceneAgent& a = scene.agents[*i];
    const std::vector<Vec2>& v = scene.obstacles[*k].vertices;
    if (checkPolygon(v).valid == false) return fail(error, "the obstacle is invalid");
    const AgentParams p = scene.resolvedParams(a);
    if (!paramsValid(p)) return fail(error, "invalid agent parameters");
    Vec2* point = goal ? (a.goal ? &*a.goal : nullptr) : &a.position;
    if (point == nullptr || !finite(*point)) return fail(error, "the agent has no such point");
    const double depth = penetration(v, *point, p.radius);
    if (goal ? !(depth > effectiveGoalRadius(p)) : !(depth > 0.0))
        return fail(error, "no longer inside the obstacle");
    const std::optional<Vec2> out = pushOut(v, *point, p.radius);
    if (!out) return fail(error, "no free spot found near the obstacle's boundary");
    if (!withinSceneLimits(*out)) return fail(error, kBeyondFileRange);
    *point = *out;
    return true;
}

} // namespace

ObstacleShape obstacleShape(const std::vector<Vec2>& v, std::size_t k) {
    ObstacleShape shape;
    shape.problem = structuralProblem(v, k, &shape.more);
    if (shape.problem.rule != nullptr) return shape;
    shape.check = checkPolygon(v);
    for (const Vec2& q : v)
        shape.centre += q;
    shape.centre /= static_cast<double>(v.size());
    shape.valid = shape.check.valid;
    return shape;
}

ObstacleContacts obstacleContacts(Context& c) {
    const Scene& s = c.scene;
    ObstacleContacts out;
    out.inside.resize(s.agents.size());
    out.goalHits.resize(s.agents.size());
    out.waypointHits.resize(s.agents.size());
    out.blockedLegs.resize(s.agents.size());
    std::vector<std::uint8_t> usable(s.obstacles.size(), 0);
    for (std::size_t k = 0; k < s.obstacles.size(); ++k)
        usable[k] = c.usable(k) ? 1 : 0;
    if (std::none_of(usable.begin(), usable.end(), [](std::uint8_t u) { return u != 0; }))
        return out;
    double typical = 1.0;
    {
        std::vector<double> radii;
        for (std::size_t i = 0; i < s.agents.size(); ++i)
            if (c.ok[i]) radii.push_back(c.params[i].radius);
        if (!radii.empty()) {
            std::nth_element(radii.begin(),
                             radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2),
                             radii.end());
            typical = 4.0 * radii[radii.size() / 2];
        }
    }
    ObstacleIndex index;
    buildObstacleIndex(s, usable, typical, index);

    // Routes whose straight legs cross an obstacle, grouped by the first leg's obstacle.
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!c.ok[i]) continue;
        const SceneAgent& a = s.agents[i];
        const double r = c.params[i].radius;
        const std::vector<std::size_t>& inside = out.inside[i] =
            obstaclesHit(s, index, a.position, r);
        if (a.isStatic || !a.goal) continue;
        const Vec2 g = *a.goal;
        const double goalRadius = effectiveGoalRadius(c.params[i]);
        const std::vector<std::size_t>& goalHits = out.goalHits[i] = obstaclesHit(s, index, g, r);
        bool goalBlocked = false;
        for (std::size_t k : goalHits) {
            const double need = penetration(s.obstacles[k].vertices, g, r);
            if (need > goalRadius) goalBlocked = true;
        }
        // Legs: position -> remaining waypoints -> goal. A leg ignores the obstacles its end
        // disks touch (reported by agent-, waypoint- and goal-in-obstacle); the leg to a goal
        // the agent cannot reach for an obstacle is left to goal-in-obstacle.
        std::vector<BlockedLeg>& legs = out.blockedLegs[i];
        std::vector<std::size_t> fromHits = inside;
        Vec2 from = a.position;
        for (std::size_t w = std::min<std::size_t>(a.routeProgress, a.waypoints.size());
             w <= a.waypoints.size(); ++w) {
            const bool toGoal = w == a.waypoints.size();
            const Vec2 to = toGoal ? g : a.waypoints[w];
            if (!finite(to)) break;
            std::vector<std::size_t> toHits = toGoal ? goalHits : obstaclesHit(s, index, to, r);
            if (!toGoal) {
                for (std::size_t k : toHits)
                    out.waypointHits[i].emplace_back(w, k);
            }
            if (!(toGoal && goalBlocked)) {
                std::vector<std::size_t> skip = fromHits;
                skip.insert(skip.end(), toHits.begin(), toHits.end());
                if (const auto crossing = firstCrossing(s, index, from, to, skip))
                    legs.push_back({w, crossing->first, crossing->second});
            }
            from = to;
            fromHits = std::move(toHits);
        }
        if (legs.empty()) continue;
        auto [it, inserted] = out.blocked.try_emplace(legs.front().obstacle);
        it->second.push_back(i);
        if (inserted) out.blockedAt[legs.front().obstacle] = legs.front().at;
    }
    return out;
}

// ---- Structure ----------------------------------------------------------------------------------

void checkObstacleTooFewVertices(Context& c) {
    addStructural(c, "obstacle-too-few-vertices");
}

void checkObstacleNonFinite(Context& c) {
    addStructural(c, "obstacle-non-finite");
}

void checkObstacleDuplicateVertex(Context& c) {
    addStructural(c, "obstacle-duplicate-vertex");
}

void checkObstacleCollinear(Context& c) {
    addStructural(c, "obstacle-collinear");
}

void checkObstacleSelfIntersecting(Context& c) {
    addStructural(c, "obstacle-self-intersecting");
}

/// A case the structural checks do not name: the simulator's own reason.
void checkObstacleInvalid(Context& c) {
    for (std::size_t k = 0; k < c.scene.obstacles.size(); ++k) {
        const ObstacleShape& shape = c.shape(k);
        if (shape.problem.rule != nullptr || shape.check.valid) continue;
        c.add(obstaclePath(k) + ".vertices",
              "obstacle " + obstaclePath(k) + " is rejected by the simulator: " + shape.check.error,
              {obstacleElement(k)}, shape.centre, "Delete obstacle");
    }
}

void checkObstacleClockwise(Context& c) {
    for (std::size_t k = 0; k < c.scene.obstacles.size(); ++k) {
        const ObstacleShape& shape = c.shape(k);
        if (!shape.valid || !shape.check.clockwise) continue;
        c.add(obstaclePath(k),
              "obstacle " + obstaclePath(k) +
                  " is clockwise: ORCA takes the right of each edge as the outside, so as "
                  "written it is inside out (RVO2 lets agents walk in from outside; this "
                  "simulator rejects it: the sandbox leaves it out, `orca run` reverses it "
                  "with a warning)",
              {obstacleElement(k)}, shape.centre, "Reverse winding");
    }
}

void checkObstacleTinyEdge(Context& c) {
    for (std::size_t k = 0; k < c.scene.obstacles.size(); ++k) {
        if (!c.usable(k)) continue;
        const std::vector<Vec2>& v = c.scene.obstacles[k].vertices;
        for (std::size_t e = 0; e < edgeCount(v); ++e) {
            const Vec2 a = v[e];
            const Vec2 b = v[(e + 1) % v.size()];
            const double len = length(b - a);
            if (len >= kTinyEdge) continue;
            const std::size_t drop = (e + 1) % v.size();
            c.add(vertexPath(k, drop),
                  "edge " + std::to_string(e) + " of " + obstaclePath(k) + " is only " + num(len) +
                      " long, below the solver's epsilon 1e-5: its direction is mostly rounding "
                      "and ORCA's obstacle tests treat it unreliably",
                  {obstacleElement(k), {Kind::Edge, k, e}}, a,
                  v.size() == 2 ? "Delete obstacle" : "Remove vertex");
        }
    }
}

// ---- Agents and goals against obstacles ---------------------------------------------------------

void checkAgentInObstacle(Context& c) {
    const Scene& s = c.scene;
    const ObstacleContacts& contacts = c.contacts();
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        const double r = c.params[i].radius;
        for (std::size_t k : contacts.inside[i]) {
            const double depth = penetration(s.obstacles[k].vertices, a.position, r);
            c.add(a.isStatic ? LintSeverity::Warning : LintSeverity::Error,
                  agentPath(i) + ".position",
                  agentPath(i) + " starts " +
                      (s.obstacles[k].vertices.size() >= 3 &&
                               pointInPolygon(s.obstacles[k].vertices, a.position)
                           ? "inside "
                           : "overlapping ") +
                      obstaclePath(k) + " (" + num(depth) +
                      " deep): ORCA keeps agents out of obstacles but cannot get them out, so "
                      "it is stuck or pushed through the wall",
                  {agentElement(i), obstacleElement(k)}, a.position, "Nudge out");
        }
    }
}

void checkGoalInObstacle(Context& c) {
    const Scene& s = c.scene;
    const ObstacleContacts& contacts = c.contacts();
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (contacts.goalHits[i].empty()) continue;
        const Vec2 g = *s.agents[i].goal;
        const double r = c.params[i].radius;
        const double goalRadius = effectiveGoalRadius(c.params[i]);
        for (std::size_t k : contacts.goalHits[i]) {
            const double need = penetration(s.obstacles[k].vertices, g, r);
            if (!(need > goalRadius)) continue;
            c.add(agentPath(i) + ".goal",
                  "the goal of " + agentPath(i) + " lies " +
                      (s.obstacles[k].vertices.size() >= 3 &&
                               pointInPolygon(s.obstacles[k].vertices, g)
                           ? "inside "
                           : "too close to ") +
                      obstaclePath(k) + ": the agent (radius " + num(r) +
                      ") cannot get within its goalRadius " + num(goalRadius) +
                      " of it, so it presses against the obstacle forever",
                  {goalElement(i), agentElement(i), obstacleElement(k)}, g, "Move goal out");
        }
    }
}

// ---- Fixes --------------------------------------------------------------------------------------

bool fixAgentInObstacle(Scene& scene, const LintIssue& issue, std::string* error) {
    return fixPushOut(scene, issue, false, error);
}

bool fixGoalInObstacle(Scene& scene, const LintIssue& issue, std::string* error) {
    return fixPushOut(scene, issue, true, error);
}

bool fixObstacleClockwise(Scene& scene, const LintIssue& issue, std::string* error) {
    std::size_t k = 0;
    std::vector<Vec2>* vertices = issueObstacle(scene, issue, k, error);
    if (vertices == nullptr) return false;
    std::vector<Vec2>& v = *vertices;
    const PolygonCheck check = checkPolygon(v);
    if (!check.valid || !check.clockwise || v.size() < 3)
        return fail(error, "the obstacle is not a clockwise polygon now");
    std::reverse(v.begin(), v.end());
    return true;
}

bool fixObstacleDuplicateVertex(Scene& scene, const LintIssue& issue, std::string* error) {
    std::size_t k = 0;
    std::vector<Vec2>* vertices = issueObstacle(scene, issue, k, error);
    if (vertices == nullptr) return false;
    std::vector<Vec2>& v = *vertices;
    // Elements: the obstacle, the first copy of the point, the later copy (removed).
    std::vector<std::size_t> subs;
    for (const LintElement& e : issue.elements)
        if (e.kind == Kind::Vertex) subs.push_back(e.sub);
    if (subs.size() != 2 || subs[0] == subs[1] || subs[0] >= v.size() || subs[1] >= v.size() ||
        !(v[subs[0]] == v[subs[1]]))
        return fail(error, "the vertices are no longer the same point");
    v.erase(v.begin() + static_cast<std::ptrdiff_t>(subs[1]));
    return true;
}

bool fixObstacleTinyEdge(Scene& scene, const LintIssue& issue, std::string* error) {
    std::size_t k = 0;
    std::vector<Vec2>* vertices = issueObstacle(scene, issue, k, error);
    if (vertices == nullptr) return false;
    std::vector<Vec2>& v = *vertices;
    const auto e = std::find_if(issue.elements.begin(), issue.elements.end(),
                                [](const LintElement& x) { return x.kind == Kind::Edge; });
    if (e == issue.elements.end() || e->sub >= v.size() || v.size() < 2)
        return fail(error, "the edge is gone");
    const std::size_t drop = (e->sub + 1) % v.size();
    const double len = length(v[drop] - v[e->sub]);
    if (!(len < kTinyEdge)) return fail(error, "the edge is not tiny now");
    if (v.size() == 2) {
        scene.obstacles.erase(scene.obstacles.begin() + static_cast<std::ptrdiff_t>(k));
    } else {
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(drop));
    }
    return true;
}

bool fixObstacleCollinear(Scene& scene, const LintIssue& issue, std::string* error) {
    std::size_t k = 0;
    std::vector<Vec2>* vertices = issueObstacle(scene, issue, k, error);
    if (vertices == nullptr) return false;
    std::vector<Vec2>& v = *vertices;
    const char* problem = v.size() < 3 ? nullptr : structuralProblem(v, k, nullptr).rule;
    if (problem == nullptr || std::string_view(problem) != issue.rule)
        return fail(error, "the obstacle is not a collinear polygon now");
    // The two extreme points along the line.
    std::size_t far = 1;
    for (std::size_t m = 1; m < v.size(); ++m)
        if (absSq(v[m] - v[0]) > absSq(v[far] - v[0])) far = m;
    const Vec2 axis = v[far] - v[0];
    std::size_t lo = 0;
    std::size_t hi = 0;
    for (std::size_t m = 0; m < v.size(); ++m) {
        if (dot(v[m], axis) < dot(v[lo], axis)) lo = m;
        if (dot(v[m], axis) > dot(v[hi], axis)) hi = m;
    }
    const std::vector<Vec2> segment = {v[std::min(lo, hi)], v[std::max(lo, hi)]};
    v = segment;
    return true;
}

/// Delete obstacle: only while the simulator would still reject it.
bool fixDeleteBrokenObstacle(Scene& scene, const LintIssue& issue, std::string* error) {
    std::size_t k = 0;
    std::vector<Vec2>* vertices = issueObstacle(scene, issue, k, error);
    if (vertices == nullptr) return false;
    const std::vector<Vec2>& v = *vertices;
    const bool broken = v.size() < 2 || !checkPolygon(v).valid;
    if (!broken) return fail(error, "the obstacle is valid now");
    scene.obstacles.erase(scene.obstacles.begin() + static_cast<std::ptrdiff_t>(k));
    return true;
}

} // namespace orca::scene::lint
