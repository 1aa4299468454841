// The blocking classes of the diagnosis (docs/diagnosis.md, "The classes and their
// precedence"): symmetric-deadlock, static-wall, obstacle-trap (with the waypoint search round
// the obstacles that its suggestion gives) and crowd-pressure.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "diagnosis_rules.hpp"

namespace orca::detail::diagnosis {

namespace {

// ---- Geometry ---------------------------------------------------------------------------------

/// Segments [a, b] and [c, e] cross at a point interior to both (touching does not count).
bool properlyCross(Vec2 a, Vec2 b, Vec2 c, Vec2 e) {
    const double o1 = det(b - a, c - a);
    const double o2 = det(b - a, e - a);
    const double o3 = det(e - c, a - c);
    const double o4 = det(e - c, b - c);
    return ((o1 > 0.0 && o2 < 0.0) || (o1 < 0.0 && o2 > 0.0)) &&
           ((o3 > 0.0 && o4 < 0.0) || (o3 < 0.0 && o4 > 0.0));
}

/// Crossing-number test for polygons of 3+ vertices (segments contain nothing).
bool insidePolygon(std::span<const Vec2> poly, Vec2 p) {
    return poly.size() >= 3 && pointInPolygon(poly, p);
}

/// Convex hull of a point set, counter-clockwise (Andrew's monotone chain).
std::vector<Vec2> convexHull(std::vector<Vec2> pts) {
    std::sort(pts.begin(), pts.end(),
              [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    if (pts.size() < 3) return pts;
    std::vector<Vec2> hull(2 * pts.size());
    std::size_t k = 0;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        while (k >= 2 && det(hull[k - 1] - hull[k - 2], pts[i] - hull[k - 2]) <= 0.0)
            --k;
        hull[k++] = pts[i];
    }
    for (std::size_t i = pts.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && det(hull[k - 1] - hull[k - 2], pts[i] - hull[k - 2]) <= 0.0)
            --k;
        hull[k++] = pts[i];
    }
    hull.resize(k - 1);
    return hull;
}

/// Point strictly inside a convex counter-clockwise polygon.
bool insideConvex(std::span<const Vec2> hull, Vec2 p) {
    if (hull.size() < 3) return false;
    for (std::size_t k = 0; k < hull.size(); ++k)
        if (det(hull[(k + 1) % hull.size()] - hull[k], p - hull[k]) <= 0.0) return false;
    return true;
}

/// Distance along the ray p + t·dir (unit dir, t >= 0) to segment [a, b]; +inf when missed.
double rayToSegment(Vec2 p, Vec2 dir, Vec2 a, Vec2 b) {
    const Vec2 e = b - a;
    const double den = det(dir, e);
    if (std::fabs(den) <= 1e-12) return kInf; // parallel: the agent slides along it
    const double t = det(a - p, e) / den;
    const double u = det(a - p, dir) / den;
    if (t < 0.0 || u < 0.0 || u > 1.0) return kInf;
    return t;
}

} // namespace

// ---- symmetric-deadlock -----------------------------------------------------------------------
//
// Two agents are mirror images when reflecting one about the perpendicular bisector of their
// centres gives the other: σ(v) = v − 2(v·n)n with n the unit vector between the centres maps
// A's v_pref and v onto B's. Their ORCA half-planes are then mirror images too, so each picks
// the mirror of the other's velocity; heading for each other (seed 002's head-on pair is the
// case n ∥ v_pref), the avoidance of each is the mirror of the other's and neither gets past.

bool symmetricDeadlock(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    if (!c.hindered()) return false;
    const double m = c.prm.mirrorTolerance;
    std::uint32_t partner = 0;
    bool found = false;
    ExplainRecord other;
    for (std::uint32_t j : c.bindingAgents) {
        if (c.sim.isStaticAt(j)) continue;
        ExplainRecord rb = c.sim.explain(c.sim.agentIdAt(j));
        const Vec2 rp = rb.position - r.position;
        if (absSq(rp) <= 0.0) continue;
        const Vec2 n = normalize(rp);
        auto mirror = [n](Vec2 v) { return v - 2.0 * dot(v, n) * n; };
        const double prefA = length(r.prefVelocity);
        const double prefB = length(rb.prefVelocity);
        const double scale = std::max(prefA, prefB);
        if (!(prefA > 0.0) || !(prefB > 0.0)) continue;
        if (length(rb.prefVelocity - mirror(r.prefVelocity)) > m * scale) continue;
        const double vScale = std::max({scale, length(r.velocity), length(rb.velocity)});
        if (length(rb.velocity - mirror(r.velocity)) > m * vScale) continue;
        if (dot(r.prefVelocity, n) / prefA < c.prm.mirrorApproachCos) continue;
        if (!(progressOf(rb.newVelocity, rb.prefVelocity, rb.params.maxSpeed) <
              c.prm.hinderedProgress))
            continue;
        partner = j;
        other = std::move(rb);
        found = true;
        break;
    }
    if (!found) return false;
    d.cls = DiagnosisClass::SymmetricDeadlock;
    d.responsibleAgents.push_back(partner);
    const std::string who = agentName(c.i);
    d.sentence = who + " and agent " + std::to_string(partner) +
                 " are mirror images of each other (reflected about the perpendicular bisector "
                 "of their centres, " +
                 num(length(other.position - r.position)) +
                 " apart): they head for each other with v_pref " + vec(r.prefVelocity) + " and " +
                 vec(other.prefVelocity) +
                 ", so their half-planes mirror each other too and neither steps aside; agent " +
                 std::to_string(c.i) + " keeps " + percent(std::max(d.progress, 0.0)) +
                 " of its preferred progress (the symmetric deadlock of seed 002).";
    // Perturb the later agent of the pair (as the linter's "Perturb" fix does): its goal moves
    // to the left of its heading by 10% of its radius, which turns its v_pref by a small angle.
    const std::size_t later = std::max<std::size_t>(c.i, partner);
    const ExplainRecord& lr = later == c.i ? r : other;
    const Vec2 heading = normalize(lr.prefVelocity);
    const double shift = 0.1 * lr.params.radius;
    if (c.sim.hasGoalAt(later)) {
        const Vec2 goal = c.sim.goalAt(later);
        const Vec2 moved = goal + perp(heading) * shift;
        d.suggestedAgent = static_cast<std::uint32_t>(later);
        d.suggestedGoal = moved;
        const double angle = std::atan2(shift, std::max(length(goal - lr.position), 1e-12)) *
                             180.0 / 3.14159265358979;
        d.suggestion = "Break the symmetry with a small perturbation: move agent " +
                       std::to_string(later) + "'s goal sideways from " + vec(goal) + " to " +
                       vec(moved) + " (turning its v_pref by " + num(angle) +
                       "°), or perturb either v_pref by a small angle (for a collinear head-on "
                       "pair in a scene file, the linter's Perturb fix does this).";
    } else {
        const double a = 1.0 * 3.14159265358979 / 180.0;
        const Vec2 v = lr.prefVelocity;
        const Vec2 turned{v.x * std::cos(a) - v.y * std::sin(a),
                          v.x * std::sin(a) + v.y * std::cos(a)};
        d.suggestion = "Break the symmetry with a small perturbation: turn agent " +
                       std::to_string(later) + "'s prefVelocity by 1° (from " + vec(v) + " to " +
                       vec(turned) + ").";
    }
    return true;
}

// ---- static-wall ------------------------------------------------------------------------------

bool staticWall(Context& c) {
    Diagnosis& d = c.d;
    if (!c.hindered()) return false;
    std::vector<std::uint32_t> statics;
    std::size_t moving = 0;
    for (std::uint32_t j : c.bindingAgents) {
        if (c.sim.isStaticAt(j))
            statics.push_back(j);
        else
            ++moving;
    }
    if (statics.empty() || statics.size() < moving) return false;
    d.cls = DiagnosisClass::StaticWall;
    d.responsibleAgents = statics;
    const ExplainRecord& r = c.rec;
    const std::string who = agentName(c.i);
    d.sentence = who + " is blocked by static " + list("agent", statics) + ": " +
                 (statics.size() == 1 ? "its half-plane binds" : "their half-planes bind") +
                 " its velocity and leave it " + percent(std::max(d.progress, 0.0)) +
                 " of its preferred progress (|v_new| = " + num(d.speed) +
                 ", |v_pref| = " + num(d.prefSpeed) +
                 "). Static agents never give way, and ORCA, being local, has "
                 "no way round them.";
    const DetourParams& detour = c.sim.params().detour;
    const std::string gap = num(2.0 * r.params.radius);
    if (!detour.enabled) {
        d.suggestion = "Enable the detour field (key D in the sandbox, or \"detour\": "
                       "{\"enabled\": true} in the scene): it leads stalled agents round static "
                       "ones; \"staticResponsibility\": 1 keeps them from grazing the statics.";
    } else if (r.detour.mode != DetourMode::Detouring &&
               r.detour.nextMode == DetourMode::Detouring) {
        d.suggestion = "Nothing to change yet: the detour field is on and agent " +
                       std::to_string(c.i) +
                       " enters it with this decision (its speed fell below enterSpeedRatio " +
                       num(detour.enterSpeedRatio) +
                       " × prefSpeed), so it should follow the flow "
                       "round the static agents.";
    } else if (r.detour.mode != DetourMode::Detouring && d.detourFraction <= 0.0) {
        d.suggestion = "The detour field is on but agent " + std::to_string(c.i) +
                       " does not enter it (it enters when its speed falls below enterSpeedRatio " +
                       num(detour.enterSpeedRatio) +
                       " × prefSpeed far from its goal): raise detour.enterSpeedRatio, or open a "
                       "gap wider than " +
                       gap + " (its diameter) in the wall.";
    } else {
        d.suggestion = "The detour field is on and agent " + std::to_string(c.i) + " follows it (" +
                       percent(d.detourFraction) +
                       " of the window) but it does not lead past: raise detour.influenceRadius "
                       "or detour.sampleDistance, or open a gap wider than " +
                       gap + " (its diameter) in the wall.";
    }
    return true;
}

// ---- obstacle-trap ----------------------------------------------------------------------------

namespace {

/// Outcome of the waypoint search.
enum class PathSearch : std::uint8_t {
    Found,   ///< a path (possibly the straight line: no waypoints)
    NoPath,  ///< the corners do not connect `from` to `to`
    Skipped, ///< too many corners for the O(n³) search
};

/// Shortest path from `from` to `to` round the simulator's obstacles through their corners,
/// each pushed out along its outer bisector by `clearance` (a visibility graph). Fills `path`
/// with the corners on it (empty when the straight line is clear).
PathSearch waypointsAround(const Simulator& sim, Vec2 from, Vec2 to, double clearance,
                           std::vector<Vec2>& path) {
    path.clear();
    std::vector<std::pair<Vec2, Vec2>> edges;
    std::vector<Vec2> nodes{from, to};
    for (std::size_t o = 0; o < sim.obstacleCount(); ++o) {
        const auto v = sim.obstacleVertices(sim.obstacleIdAt(o));
        const std::size_t n = v.size();
        if (n < 2) continue;
        for (std::size_t k = 0; k < n; ++k) {
            if (n == 2 && k == 1) break; // a thin wall has one segment
            edges.emplace_back(v[k], v[(k + 1) % n]);
        }
        for (std::size_t k = 0; k < n; ++k) {
            Vec2 out;
            if (n == 2) {
                out = normalize(v[k] - v[1 - k]);
            } else {
                // Counter-clockwise polygon: the outside is on the right of each edge.
                const Vec2 in = normalize(v[k] - v[(k + n - 1) % n]);
                const Vec2 next = normalize(v[(k + 1) % n] - v[k]);
                out = Vec2(in.y, -in.x) + Vec2(next.y, -next.x);
                if (absSq(out) < 1e-12) out = Vec2(in.y, -in.x);
                out = normalize(out);
            }
            nodes.push_back(v[k] + out * clearance);
        }
        if (nodes.size() > 2 + 256) return PathSearch::Skipped; // keep the O(n³) search small
    }
    auto blockedPoint = [&](Vec2 p) {
        for (std::size_t o = 0; o < sim.obstacleCount(); ++o)
            if (insidePolygon(sim.obstacleVertices(sim.obstacleIdAt(o)), p)) return true;
        return false;
    };
    auto visible = [&](Vec2 a, Vec2 b) {
        for (const auto& [e0, e1] : edges)
            if (properlyCross(a, b, e0, e1)) return false;
        return true;
    };
    if (visible(from, to)) return PathSearch::Found;
    const std::size_t count = nodes.size();
    std::vector<double> dist(count, kInf);
    std::vector<std::size_t> prev(count, count);
    std::vector<std::uint8_t> done(count, 0);
    std::vector<std::uint8_t> usable(count, 1);
    for (std::size_t k = 2; k < count; ++k)
        usable[k] = blockedPoint(nodes[k]) ? 0 : 1;
    dist[0] = 0.0;
    for (;;) {
        std::size_t u = count;
        for (std::size_t k = 0; k < count; ++k)
            if (!done[k] && usable[k] && dist[k] < kInf && (u == count || dist[k] < dist[u])) u = k;
        if (u == count || u == 1) break;
        done[u] = 1;
        for (std::size_t k = 1; k < count; ++k) {
            if (done[k] || !usable[k]) continue;
            const double alt = dist[u] + length(nodes[k] - nodes[u]);
            if (alt < dist[k] && visible(nodes[u], nodes[k])) {
                dist[k] = alt;
                prev[k] = u;
            }
        }
    }
    if (!(dist[1] < kInf)) return PathSearch::NoPath;
    for (std::size_t k = prev[1]; k != 0 && k != count; k = prev[k])
        path.push_back(nodes[k]);
    std::reverse(path.begin(), path.end());
    return PathSearch::Found;
}

} // namespace

bool obstacleTrap(Context& c) {
    Diagnosis& d = c.d;
    if (!c.hindered()) return false;
    const Simulator& sim = c.sim;
    const ExplainRecord& r = c.rec;
    const Vec2 dir = r.prefVelocity / d.prefSpeed;
    // Does v_pref point into one of the segments the solver considered (before the goal)?
    const double limit = sim.hasGoalAt(c.i) ? d.goalDistance : kInf;
    double hit = kInf;
    std::optional<std::uint32_t> hitObstacle;
    for (const ExplainObstacleNeighbor& on : r.obstacleNeighbors) {
        const auto o = obstacleIndex(sim, on.obstacle);
        if (!o) continue;
        const auto v = sim.obstacleVertices(on.obstacle);
        const Vec2 a = v[on.segment];
        const Vec2 b = v[(on.segment + 1) % v.size()];
        const double t = rayToSegment(r.position, dir, a, b);
        if (t < hit && t <= limit) {
            hit = t;
            hitObstacle = o;
        }
    }
    if (c.bindingObstacles.empty() && !hitObstacle) return false;
    d.cls = DiagnosisClass::ObstacleTrap;
    if (hitObstacle) d.responsibleObstacles.push_back(*hitObstacle);
    for (std::uint32_t o : c.bindingObstacles)
        pushUnique(d.responsibleObstacles, o);
    const std::uint32_t main = d.responsibleObstacles.front();
    const auto mainVertices = sim.obstacleVertices(sim.obstacleIdAt(main));
    // In a concave pocket: inside the obstacle's convex hull but outside the obstacle.
    const std::vector<Vec2> hull =
        convexHull(std::vector<Vec2>(mainVertices.begin(), mainVertices.end()));
    const bool pocket = insideConvex(hull, r.position) && !insidePolygon(mainVertices, r.position);

    // Waypoints: shortest path round the obstacles to the goal (or to a point as far beyond
    // the obstacle along v_pref as its farthest vertex, plus a margin).
    Vec2 target;
    if (sim.hasGoalAt(c.i)) {
        target = sim.goalAt(c.i);
    } else {
        double far = 0.0;
        for (Vec2 v : mainVertices)
            far = std::max(far, dot(v - r.position, dir));
        target = r.position + dir * (far + 4.0 * r.params.radius);
    }
    const PathSearch search =
        waypointsAround(sim, r.position, target, 2.0 * r.params.radius, d.waypoints);

    const std::string who = agentName(c.i);
    d.sentence = who + " is trapped " +
                 (pocket ? "in a concave pocket of obstacle " + std::to_string(main) +
                               " (inside its convex hull)"
                         : "by obstacle " + std::to_string(main)) +
                 ": ";
    if (hitObstacle && *hitObstacle == main)
        d.sentence += "its v_pref " + vec(r.prefVelocity) + " points into the obstacle " +
                      num(hit) + " ahead";
    else
        d.sentence += "the obstacle's half-planes hold its velocity";
    d.sentence += ", leaving " + percent(std::max(d.progress, 0.0)) +
                  " of its preferred progress. ORCA is local and does not plan a path round "
                  "obstacles.";
    if (!d.waypoints.empty()) {
        if (d.waypoints.size() == 1) {
            d.suggestion = "Add a waypoint (an intermediate goal) at " + vec(d.waypoints.front());
        } else {
            d.suggestion = "Add waypoints (intermediate goals) round the obstacle: " +
                           vec(d.waypoints.front());
            for (std::size_t k = 1; k < d.waypoints.size(); ++k)
                d.suggestion += ", then " + vec(d.waypoints[k]);
        }
        d.suggestion += ", then go on to the goal.";
    } else if (search == PathSearch::NoPath) {
        d.suggestion = "Move the goal: no path round the obstacles reaches it.";
    } else {
        d.suggestion = "Add a waypoint that leads round obstacle " + std::to_string(main) +
                       ", or move the goal.";
    }
    return true;
}

// ---- crowd-pressure ---------------------------------------------------------------------------

bool crowdPressure(Context& c) {
    Diagnosis& d = c.d;
    if (!(d.lp3Fraction > c.prm.lp3Fraction)) return false;
    const ExplainRecord& r = c.rec;
    d.cls = DiagnosisClass::CrowdPressure;
    d.responsibleAgents = c.bindingAgents;
    const auto lp3Count = static_cast<std::size_t>(
        std::lround(d.lp3Fraction * static_cast<double>(d.windowDecisions)));
    d.sentence = agentName(c.i) + " is squeezed by the crowd: in " + std::to_string(lp3Count) +
                 " of its last " + std::to_string(d.windowDecisions) + " decisions (" +
                 percent(d.lp3Fraction) +
                 ") no velocity satisfied all of its half-planes, so LP3 chose the least-bad one";
    if (r.lp3Ran && !c.bindingAgents.empty())
        d.sentence += "; now, of its " + std::to_string(r.lines.size() - r.numObstacleLines) +
                      " agent half-planes, it violates those of " + list("agent", c.bindingAgents) +
                      " most, by " + num(r.lp3Depth);
    d.sentence += ".";
    d.suggestion = "Give the crowd more room: spread the goals or stagger the starts, or lower "
                   "prefSpeed so it converges more slowly; a longer timeHorizon (" +
                   num(r.params.timeHorizon) +
                   " s now) makes agents react earlier. Brief LP3 spells are normal: LP3 keeps "
                   "the penetration minimal.";
    return true;
}

} // namespace orca::detail::diagnosis
