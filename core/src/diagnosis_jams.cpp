// The jam classes of the diagnosis: how long an agent has been stalled (persistence), the
// bottleneck jam (counterflow at a gap narrower than two agents) and the group deadlock
// (agents blocking each other for seconds). docs/diagnosis.md has the rules.
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "diagnosis_rules.hpp"
#include "orca/obstacles.hpp"

namespace orca::detail::diagnosis {

namespace {

/// The closest points of two segments that do not cross: the nearest of the four
/// endpoint-to-segment distances. False when they touch or cross.
bool closestPoints(Vec2 a0, Vec2 a1, Vec2 b0, Vec2 b1, Vec2& pa, Vec2& pb) {
    if (segmentsTouch(a0, a1, b0, b1)) return false;
    double best = std::numeric_limits<double>::infinity();
    auto consider = [&](Vec2 onA, Vec2 onB) {
        const double d = absSq(onA - onB);
        if (d < best) {
            best = d;
            pa = onA;
            pb = onB;
        }
    };
    consider(a0, closestPointOnSegment(b0, b1, a0));
    consider(a1, closestPointOnSegment(b0, b1, a1));
    consider(closestPointOnSegment(a0, a1, b0), b0);
    consider(closestPointOnSegment(a0, a1, b1), b1);
    // Parallel edges (a door frame): the middle of the stretch where they face each other.
    const Vec2 da = a1 - a0;
    const double la = length(da);
    if (la > 0.0 && std::fabs(det(da / la, normalize(b1 - b0))) < 1e-9) {
        const Vec2 u = da / la;
        const double t0 = std::clamp(std::min(dot(b0 - a0, u), dot(b1 - a0, u)), 0.0, la);
        const double t1 = std::clamp(std::max(dot(b0 - a0, u), dot(b1 - a0, u)), 0.0, la);
        if (t1 > t0) {
            pa = a0 + u * (0.5 * (t0 + t1));
            pb = closestPointOnSegment(b0, b1, pa);
        }
    }
    return true;
}

/// Which side of the line through `center` across `across` a point lies on (+1 or -1, 0 on it
/// within `tolerance`).
int sideOf(Vec2 p, Vec2 center, Vec2 across, double tolerance) {
    const double s = det(across, p - center);
    return s > tolerance ? 1 : (s < -tolerance ? -1 : 0);
}

struct Gap {
    Vec2 a{0.0, 0.0}; ///< on obstacle `first`
    Vec2 b{0.0, 0.0}; ///< on obstacle `second`
    std::uint32_t first = 0;
    std::uint32_t second = 0;
    double width = 0.0;
    [[nodiscard]] Vec2 center() const { return 0.5 * (a + b); }
    [[nodiscard]] Vec2 across() const { return normalize(b - a); }
};

/// The narrowest gap between two obstacle segments near `p` (within `reach` of it) that an
/// agent of `radius` fits through (width >= 2 radius) but two side by side do not (< 4
/// radius), with nothing else in the gap. Segments of one obstacle count when they share no
/// vertex.
std::optional<Gap> narrowGapNear(const Simulator& sim, Vec2 p, double radius, double reach) {
    const std::span<const ObstacleVertex> v = sim.obstacleVertexData();
    std::vector<std::uint32_t> near;
    for (std::uint32_t k = 0; k < v.size(); ++k) {
        if (distSqPointSegment(v[k].point, v[v[k].next].point, p) < reach * reach)
            near.push_back(k);
        if (near.size() >= 96) break; // a bound on the pairs (a crowded corner of a big map)
    }
    std::optional<Gap> best;
    for (std::size_t x = 0; x < near.size(); ++x) {
        for (std::size_t y = x + 1; y < near.size(); ++y) {
            const ObstacleVertex& s = v[near[x]];
            const ObstacleVertex& t = v[near[y]];
            const std::uint32_t sn = s.next;
            const std::uint32_t tn = t.next;
            if (s.obstacle == t.obstacle &&
                (sn == near[y] || tn == near[x] || s.prev == near[y] || near[x] == near[y]))
                continue; // adjacent edges of one polygon
            Vec2 pa{0.0, 0.0};
            Vec2 pb{0.0, 0.0};
            if (!closestPoints(s.point, v[sn].point, t.point, v[tn].point, pa, pb)) continue;
            const double w = length(pb - pa);
            if (!(w >= 2.0 * radius * 0.999) || !(w < 4.0 * radius)) continue;
            const Vec2 center = 0.5 * (pa + pb);
            // The narrowest; of equally narrow ones (the two sides of a door frame), the one
            // nearest the agent.
            if (best && (w > best->width * (1.0 + 1e-9) ||
                         (!(w < best->width * (1.0 - 1e-9)) &&
                          !(absSq(center - p) < absSq(best->center() - p)))))
                continue;
            if (absSq(center - p) > reach * reach) continue;
            // Nothing else in the gap: no other edge crosses the segment between the walls
            // (shrunk a little, so the two edges' own endpoints do not count).
            const Vec2 ia = pa + 1e-6 * (pb - pa);
            const Vec2 ib = pb - 1e-6 * (pb - pa);
            bool clear = true;
            for (std::uint32_t k : near) {
                if (k == near[x] || k == near[y]) continue;
                if (segmentsTouch(ia, ib, v[k].point, v[v[k].next].point)) {
                    clear = false;
                    break;
                }
            }
            if (!clear) continue;
            best = Gap{pa, pb, s.obstacle, t.obstacle, w};
        }
    }
    return best;
}

/// Agent j's speed along its preferred direction as a share of what it could make (see
/// progressOf), from the current state.
double currentProgress(const Simulator& sim, std::size_t j) {
    return progressOf(sim.velocities()[j], sim.prefVelocityAt(j), sim.agentParams()[j].maxSpeed);
}

} // namespace

double stalledSecondsOf(const Context& c) {
    std::size_t steps = 0;
    const double maxSpeed = c.rec.params.maxSpeed;
    for (auto it = c.history.rbegin(); it != c.history.rend(); ++it) {
        if (!(absSq(it->prefVelocity) > 0.0)) break; // nothing to make: not stalled
        if (!(progressOf(it->velocity, it->prefVelocity, maxSpeed) < c.prm.stallProgress)) break;
        ++steps;
    }
    return static_cast<double>(steps) * c.timeStep();
}

bool bottleneckJam(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    if (!c.sim.hasGoalAt(c.i) || c.sim.obstacleCount() == 0) return false;
    if (!c.hindered() && !c.stalled()) return false;
    const double radius = r.params.radius;
    const double reach = 12.0 * radius;
    const Vec2 target = c.sim.targetAt(c.i);
    const std::optional<Gap> gap = narrowGapNear(c.sim, r.position, radius, reach);
    if (!gap) return false;
    const Vec2 center = gap->center();
    const Vec2 across = gap->across();
    // The agent goes through the gap: its target is on the other side, or it is in it.
    const int mySide = sideOf(r.position, center, across, radius);
    const int targetSide = sideOf(target, center, across, 0.0);
    if (!(mySide != 0 && targetSide != 0 && mySide != targetSide) && mySide != 0) return false;
    const int direction = targetSide; // crossing toward this side
    if (direction == 0) return false;
    // Counterflow: a moving agent near the gap, crossing the other way, hindered too.
    std::vector<std::uint32_t> opposing;
    const auto positions = c.sim.positions();
    for (std::size_t j = 0; j < positions.size(); ++j) {
        if (j == c.i || c.sim.isStaticAt(j) || !c.sim.hasGoalAt(j) || c.sim.atGoalAt(j)) continue;
        if (absSq(positions[j] - center) > reach * reach) continue;
        const double rj = c.sim.agentParams()[j].radius;
        const int side = sideOf(positions[j], center, across, rj);
        const int toward = sideOf(c.sim.targetAt(j), center, across, 0.0);
        if (toward != -direction || side == toward) continue;
        if (!(currentProgress(c.sim, j) < c.prm.hinderedProgress)) continue;
        opposing.push_back(static_cast<std::uint32_t>(j));
    }
    if (opposing.empty()) return false;
    // Nearest first.
    std::stable_sort(opposing.begin(), opposing.end(), [&](std::uint32_t x, std::uint32_t y) {
        return absSq(positions[x] - r.position) < absSq(positions[y] - r.position);
    });
    d.cls = DiagnosisClass::BottleneckJam;
    d.gapWidth = gap->width;
    d.gapCenter = center;
    d.gapAcross = across;
    d.responsibleAgents = opposing;
    pushUnique(d.responsibleObstacles, gap->first);
    pushUnique(d.responsibleObstacles, gap->second);
    const std::string gapName = gap->first == gap->second
                                    ? "a gap of obstacle " + std::to_string(gap->first)
                                    : "the gap between obstacles " + std::to_string(gap->first) +
                                          " and " + std::to_string(gap->second);
    const std::size_t shown = std::min<std::size_t>(opposing.size(), 3);
    d.sentence =
        agentName(c.i) + " is caught in a counterflow jam at " + gapName + " (" + num(gap->width) +
        " wide at " + vec(center) + ", narrower than two agents of " + num(2.0 * radius) +
        "): " + list("agent", std::span<const std::uint32_t>(opposing.data(), shown)) +
        (opposing.size() > shown ? " and " + std::to_string(opposing.size() - shown) + " more"
                                 : std::string()) +
        " cross the other way and they press against each other" +
        (d.stalledSeconds > 0.0 ? "; it has made no progress for " + num(d.stalledSeconds) + " s"
                                : std::string()) +
        ". One agent fits through at a time; two flows do not, and ORCA alone does "
        "not take turns.";
    d.suggestion = "Let the flows pass each other: widen the gap to at least two agents and give "
                   "each flow its own lane (waypoints on its right half of the gap), or turn on "
                   "deadlock breaking. Changing maxNeighbors or τ does not help here.";
    return true;
}

bool groupDeadlock(Context& c, bool fallback) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    if (!c.stalled()) return false;
    if (!fallback && !c.bindingObstacles.empty()) return false;
    if (!fallback)
        for (std::uint32_t j : c.bindingAgents)
            if (c.sim.isStaticAt(j)) return false; // a static wall, not a deadlock
    // The stuck cluster: moving goal agents in contact range, transitively, that make little
    // progress now.
    const auto positions = c.sim.positions();
    const auto params = c.sim.agentParams();
    std::vector<std::uint32_t> cluster{static_cast<std::uint32_t>(c.i)};
    for (std::size_t k = 0; k < cluster.size() && cluster.size() < 64; ++k) {
        const std::uint32_t a = cluster[k];
        for (std::size_t j = 0; j < positions.size(); ++j) {
            if (std::find(cluster.begin(), cluster.end(), j) != cluster.end()) continue;
            if (c.sim.isStaticAt(j) || !c.sim.hasGoalAt(j) || c.sim.atGoalAt(j)) continue;
            const double ra = params[a].radius;
            const double rj = params[j].radius;
            if (absSq(positions[j] - positions[a]) > std::pow(ra + rj + std::max(ra, rj), 2.0))
                continue;
            if (!(currentProgress(c.sim, j) < c.prm.hinderedProgress)) continue;
            cluster.push_back(static_cast<std::uint32_t>(j));
        }
    }
    // More than a pair (a pair is a symmetric deadlock, or this rule's fallback).
    if (!fallback && cluster.size() < 3) return false;
    d.cls = DiagnosisClass::GroupDeadlock;
    d.responsibleAgents.assign(cluster.begin() + 1, cluster.end());
    for (std::uint32_t j : c.bindingAgents)
        pushUnique(d.responsibleAgents, j);
    d.responsibleObstacles = c.bindingObstacles;
    std::string by;
    if (!c.bindingAgents.empty()) by = list("agent", c.bindingAgents);
    if (!c.bindingObstacles.empty())
        by += (by.empty() ? "" : " and ") + list("obstacle", c.bindingObstacles);
    if (cluster.size() >= 2) {
        d.sentence = agentName(c.i) + " has made no progress for " + num(d.stalledSeconds) +
                     " s: it and " + std::to_string(cluster.size() - 1) +
                     (cluster.size() == 2 ? " other agent" : " other agents") +
                     " in contact with it block each other (" + by.substr(0, 200) +
                     " hold its velocity), and every one of them waits for the others. It will "
                     "not resolve by itself.";
    } else {
        d.sentence = agentName(c.i) + " has made no progress for " + num(d.stalledSeconds) + " s" +
                     (by.empty() ? std::string() : ", held by " + by) +
                     ", although its current decision looks like ordinary avoidance: it is "
                     "stuck, not passing.";
    }
    d.suggestion = "Break the deadlock: turn on deadlock breaking (stalled agents turn aside, "
                   "deterministically), or move one goal a little to break the symmetry.";
    (void)r;
    return true;
}

} // namespace orca::detail::diagnosis
