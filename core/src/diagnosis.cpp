#include "orca/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <stdexcept>

#include "orca/history.hpp"
#include "orca/state.hpp"

namespace orca {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

constexpr std::array<std::string_view, kDiagnosisClassCount> kClassNames = {
    "none",           "symmetric-deadlock",  "static-wall",   "obstacle-trap",
    "crowd-pressure", "neighbor-truncation", "short-horizon", "goal-circling",
};

// ---- Text ------------------------------------------------------------------------------------

/// A number for a sentence: three significant digits (plain notation up to 1e4), "-0" -> "0".
std::string num(double v) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "infinity" : "-infinity";
    char buf[32];
    if (std::fabs(v) >= 1e4)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    std::string s = buf;
    if (s == "-0") s = "0";
    return s;
}

std::string vec(Vec2 v) {
    // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "(" + std::string&&.
    std::string s = "(";
    s += num(v.x);
    s += ", ";
    s += num(v.y);
    s += ')';
    return s;
}

std::string percent(double fraction) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * fraction);
    return buf;
}

/// "agent 3", "agents 3 and 7", "agents 3, 7 and 9" (`word` = "agent" or "obstacle").
std::string list(const char* word, std::span<const std::uint32_t> items) {
    std::string s = word;
    if (items.size() != 1) s += 's';
    for (std::size_t k = 0; k < items.size(); ++k) {
        s += k == 0 ? " " : (k + 1 == items.size() ? " and " : ", ");
        s += std::to_string(items[k]);
    }
    return s;
}

/// `v` rounded up to two significant digits (suggested parameter values read well and stay on
/// the safe side).
double roundUp2(double v) {
    if (!(v > 0.0) || !std::isfinite(v)) return v;
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 1.0);
    return std::ceil(v / scale - 1e-9) * scale;
}

void pushUnique(std::vector<std::uint32_t>& v, std::uint32_t x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// ---- Geometry ---------------------------------------------------------------------------------

/// Time until a point moving with `v` from the origin enters the disk D(c, radius) (0 when
/// inside, +inf when never): the simulator's time-to-collision rule.
double timeToDisk(Vec2 c, double radius, Vec2 v) {
    const double cSq = absSq(c);
    if (cSq <= radius * radius) return 0.0;
    const double a = absSq(v);
    if (a <= 0.0) return kInf;
    const double b = dot(c, v);
    const double disc = b * b - a * (cSq - radius * radius);
    if (b <= 0.0 || disc < 0.0) return kInf;
    return (b - std::sqrt(disc)) / a;
}

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

// ---- The diagnosis ----------------------------------------------------------------------------

struct Context {
    const Simulator& sim;
    const DiagnosisParams& prm;
    Diagnosis& d;
    const ExplainRecord& rec;
    std::span<const AgentSample> recent;
    std::size_t i;
    AgentId id;
    std::vector<std::uint32_t> bindingAgents;    ///< agent lines, unique, line order
    std::vector<std::uint32_t> bindingObstacles; ///< obstacle lines, unique, line order

    [[nodiscard]] bool hindered() const {
        return d.prefSpeed > 0.0 && d.progress < prm.hinderedProgress;
    }
    [[nodiscard]] double timeStep() const { return sim.params().timeStep; }
};

std::optional<std::uint32_t> obstacleIndex(const Simulator& sim, ObstacleId id) {
    for (std::size_t k = 0; k < sim.obstacleCount(); ++k)
        if (sim.obstacleIdAt(k) == id) return static_cast<std::uint32_t>(k);
    return std::nullopt;
}

/// The progress measure of one decision: dot(v_new, v̂_pref) / min(|v_pref|, maxSpeed).
double progressOf(Vec2 newVelocity, Vec2 prefVelocity, double maxSpeed) {
    const double prefSpeed = length(prefVelocity);
    const double reach = std::min(prefSpeed, maxSpeed);
    if (!(reach > 0.0)) return 1.0;
    return dot(newVelocity, prefVelocity) / prefSpeed / reach;
}

void measure(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    const AgentParams& p = r.params;
    d.position = r.position;
    d.velocity = r.velocity;
    d.prefVelocity = r.prefVelocity;
    d.newVelocity = r.newVelocity;
    d.prefSpeed = length(r.prefVelocity);
    d.speed = length(r.newVelocity);
    d.progress = progressOf(r.newVelocity, r.prefVelocity, p.maxSpeed);
    const double dev = length(r.newVelocity - r.prefVelocity);
    d.deviation = d.prefSpeed > 0.0 ? dev / d.prefSpeed : (dev > 0.0 ? kInf : 0.0);
    d.lp3 = r.lp3Ran;
    d.lp3Depth = r.lp3Depth;

    std::size_t lp3Count = r.lp3Ran ? 1 : 0;
    std::size_t detourCount = 0;
    double speedSum = 0.0;
    for (const AgentSample& s : c.recent) {
        lp3Count += s.lp3 ? 1 : 0;
        detourCount += s.detouring ? 1 : 0;
        speedSum += length(s.velocity);
    }
    d.windowDecisions = c.recent.size() + 1;
    d.lp3Fraction = static_cast<double>(lp3Count) / static_cast<double>(d.windowDecisions);
    if (!c.recent.empty()) {
        const auto n = static_cast<double>(c.recent.size());
        d.detourFraction = static_cast<double>(detourCount) / n;
        d.meanSpeed = speedSum / n;
    }

    d.neighborCount = r.agentNeighbors.size();
    d.maxNeighbors = p.maxNeighbors;
    const auto pos = c.sim.positions();
    const double rangeSq = p.neighborDist * p.neighborDist;
    for (std::size_t j = 0; j < pos.size(); ++j)
        if (j != c.i && absSq(pos[j] - r.position) < rangeSq) ++d.agentsInRange;
    for (std::size_t k = r.numObstacleLines; k < r.lines.size(); ++k)
        d.minTimeToCollision = std::min(d.minTimeToCollision, r.lines[k].timeToCollision);
    if (c.sim.hasGoalAt(c.i)) {
        d.goalDistance = length(c.sim.goalAt(c.i) - r.position);
        d.goalRadius = p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
    }
}

void collectBinding(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    const double tol = c.prm.bindingTolerance;
    // LP3 minimises the largest agent-line violation with the obstacle lines hard: its binding
    // agent lines are those at that maximum (= lp3Depth up to rounding). LP2's result lies on
    // its active lines up to rounding.
    double maxAgentViolation = -kInf;
    for (std::size_t k = r.numObstacleLines; k < r.lines.size(); ++k)
        maxAgentViolation = std::max(maxAgentViolation, r.lines[k].violation);
    for (std::size_t k = 0; k < r.lines.size(); ++k) {
        const ExplainLine& l = r.lines[k];
        const bool obstacle = k < r.numObstacleLines;
        // (An LP3 line must also not be satisfied with room to spare: LP3 can end with every
        // line satisfied when rounding made LP2 fail at a tangency.)
        const bool binds = (r.lp3Ran && !obstacle)
                               ? l.violation >= maxAgentViolation - tol && l.violation >= -tol
                               : std::fabs(l.violation) <= tol;
        if (!binds) continue;
        BindingConstraint b;
        b.lineIndex = k;
        b.source = obstacle ? ConstraintSource::Obstacle : ConstraintSource::Agent;
        b.lineCase = l.lineCase;
        b.slack = 0.0 - l.violation; // 0 - (+0) = +0: no "-0" in the output
        b.line = l.line;
        b.distance = l.distance;
        b.timeToCollision = l.timeToCollision;
        if (obstacle) {
            b.obstacle = obstacleIndex(c.sim, l.obstacle);
            b.segment = l.segment;
            if (b.obstacle) pushUnique(c.bindingObstacles, *b.obstacle);
        } else if (const auto j = c.sim.indexOf(l.otherAgent)) {
            b.agent = static_cast<std::uint32_t>(*j);
            b.agentStatic = c.sim.isStaticAt(*j);
            pushUnique(c.bindingAgents, *b.agent);
        }
        d.binding.push_back(b);
    }
    d.speedLimitBinding = r.params.maxSpeed > 0.0 && d.speed >= r.params.maxSpeed - tol;
}

std::string agentName(std::size_t i) {
    return "Agent " + std::to_string(i);
}

// ---- goal-circling ----------------------------------------------------------------------------
//
// Near the goal the simulator moves the agent by v·Δt with v = goal − p clamped to
// s = min(prefSpeed, maxSpeed) (numerically a distance: the agent aims to arrive within 1 s).
// Within s of the goal that step is Δt·(goal − p): the remaining
// distance is multiplied by |1 − Δt| every step. For Δt < 2 the approach converges (so any
// goalRadius > 0 is hit eventually; goalRadius 0 never is), for Δt >= 2 it never does: the agent
// jumps back and forth across the goal. "goalRadius < prefSpeed·Δt/2" (a step can jump over the
// disk) is necessary for a miss but not sufficient, because the step shrinks near the goal. So
// the rule predicts the unobstructed approach exactly as the simulator computes it.
bool goalCircling(Context& c) {
    Diagnosis& d = c.d;
    const Simulator& sim = c.sim;
    if (!sim.hasGoalAt(c.i) || sim.atGoalAt(c.i)) return false;
    const AgentParams& p = c.rec.params;
    const double s = std::min(p.prefSpeed, p.maxSpeed);
    if (!(s > 0.0)) return false; // never moves: not a circling problem
    const double dt = c.timeStep();
    const Vec2 goal = sim.goalAt(c.i);
    const double dist = d.goalDistance;
    const double g = d.goalRadius;
    // "Near": within one full step or within the zone where v_pref = goal − p.
    if (dist > std::max(s * dt, s)) return false;
    const std::size_t early =
        std::max<std::size_t>(16, diagnosisWindowSteps(sim, c.prm)); // for the suggestion
    Vec2 x = c.rec.position;
    double closest = kInf;
    double closestEarly = kInf;
    for (std::uint32_t k = 1; k <= std::max<std::uint32_t>(c.prm.goalPredictionSteps, 1); ++k) {
        Vec2 v = goal - x;
        const double lenSq = absSq(v);
        if (lenSq > s * s) v *= s / std::sqrt(lenSq);
        x += v * dt;
        const double remaining = length(goal - x);
        if (absSq(goal - x) <= g * g) return false; // it gets there
        closest = std::min(closest, remaining);
        if (k <= early) closestEarly = std::min(closestEarly, remaining);
    }
    d.cls = DiagnosisClass::GoalCircling;
    d.predictedClosest = closest;
    d.suggestedValue = roundUp2(1.05 * closestEarly);
    const std::string who = agentName(c.i);
    if (dt >= 2.0) {
        d.sentence = who + " overshoots its goal " + vec(goal) + ": it is " + num(dist) +
                     " from it, and this close v_pref = goal − p (unclamped within " + num(s) +
                     " of the goal), so each step moves it Δt = " + num(dt) +
                     " times the remaining distance: it jumps back and forth across the goal and "
                     "never comes within its goalRadius " +
                     num(g) + " (from here the closest it gets is " + num(closest) + ").";
        d.suggestion = "Raise goalRadius from " + num(g) + " to " + num(d.suggestedValue) +
                       " (just above the closest approach), or use a timeStep below 2 s (" +
                       num(dt) + " now; at most 1 s makes the last approach monotone).";
    } else {
        d.sentence = who + " creeps toward its goal " + vec(goal) + " without reaching it: it is " +
                     num(dist) + " away, and this close v_pref = goal − p (unclamped within " +
                     num(s) +
                     " of the goal), so each step multiplies the remaining distance by "
                     "|1 − Δt| = " +
                     num(std::fabs(1.0 - dt)) + " (Δt = " + num(dt) + " s): in " +
                     std::to_string(c.prm.goalPredictionSteps) +
                     " steps it still does not come within its goalRadius " + num(g) +
                     " (closest: " + num(closest) + ").";
        d.suggestion = "Raise goalRadius from " + num(g) + " to " + num(d.suggestedValue) +
                       " (where the approach is after " + std::to_string(early) + " steps).";
    }
    return true;
}

// ---- short-horizon ----------------------------------------------------------------------------

bool shortHorizon(Context& c) {
    Diagnosis& d = c.d;
    const Simulator& sim = c.sim;
    const ExplainRecord& r = c.rec;
    const AgentParams& p = r.params;
    const std::string who = agentName(c.i);

    // (a) neighborDist < maxSpeed·τ, and an agent the solver does not see (beyond
    //     neighborDist) would touch it within τ at the current velocities: ORCA builds no
    //     half-plane for it. (Without the first condition an agent is seen at most a step or
    //     two late, which the horizon absorbs.)
    struct Unseen {
        std::uint32_t agent;
        double tc;
        double distance;
        double needed; ///< neighborDist that would show it τ before contact
    };
    std::vector<Unseen> unseen;
    const auto pos = sim.positions();
    const auto vel = sim.velocities();
    const auto params = sim.agentParams();
    const double rangeSq = p.neighborDist * p.neighborDist;
    const bool shortRange = p.neighborDist < p.maxSpeed * p.timeHorizon;
    for (std::size_t j = 0; shortRange && j < pos.size(); ++j) {
        if (j == c.i) continue;
        const Vec2 rp = pos[j] - r.position;
        if (absSq(rp) < rangeSq) continue; // in range: seen, or dropped by maxNeighbors
        const double combined = p.radius + params[j].radius;
        const Vec2 rv = r.velocity - vel[j];
        const double tc = timeToDisk(rp, combined, rv);
        if (tc < p.timeHorizon)
            unseen.push_back({static_cast<std::uint32_t>(j), tc, length(rp),
                              length(rv) * p.timeHorizon + combined});
    }
    if (!unseen.empty()) {
        std::stable_sort(unseen.begin(), unseen.end(),
                         [](const Unseen& a, const Unseen& b) { return a.tc < b.tc; });
        d.cls = DiagnosisClass::ShortHorizon;
        double needed = p.maxSpeed * p.timeHorizon;
        for (const Unseen& u : unseen) {
            d.responsibleAgents.push_back(u.agent);
            needed = std::max(needed, u.needed);
        }
        d.suggestedValue = roundUp2(needed);
        const Unseen& u = unseen.front();
        d.sentence = who + " does not see " + list("agent", d.responsibleAgents) + ": " +
                     (unseen.size() == 1 ? "it is "
                                         : "the first is agent " + std::to_string(u.agent) + ", ") +
                     num(u.distance) + " away, beyond neighborDist " + num(p.neighborDist) +
                     ", yet at the current velocities they touch in " + num(u.tc) +
                     " s, within τ = " + num(p.timeHorizon) +
                     " s. ORCA builds no half-plane for an agent it does not see, so the "
                     "avoidance will start late and abruptly (neighborDist " +
                     num(p.neighborDist) + " < maxSpeed·τ = " + num(p.maxSpeed * p.timeHorizon) +
                     ").";
        d.suggestion =
            "Raise neighborDist from " + num(p.neighborDist) + " to " + num(d.suggestedValue) +
            " (at least maxSpeed·τ = " + num(p.maxSpeed * p.timeHorizon) +
            ", and far enough to see agent " + std::to_string(u.agent) + " τ before contact).";
        return true;
    }

    // (b) A horizon shorter than one step: ORCA only avoids collisions predicted within τ, so
    //     a contact less than a step away slips through. Evidence: a line whose neighbour is
    //     overlapping or touches within Δt.
    const double dt = c.timeStep();
    std::size_t best = r.lines.size();
    for (std::size_t k = 0; k < r.lines.size(); ++k) {
        const bool obstacle = k < r.numObstacleLines;
        const double tau = obstacle ? p.timeHorizonObst : p.timeHorizon;
        if (!(tau < dt) || !(r.lines[k].timeToCollision < dt)) continue;
        if (best == r.lines.size() || r.lines[k].timeToCollision < r.lines[best].timeToCollision)
            best = k;
    }
    if (best == r.lines.size()) return false;
    const ExplainLine& l = r.lines[best];
    const bool obstacle = best < r.numObstacleLines;
    const double tau = obstacle ? p.timeHorizonObst : p.timeHorizon;
    const char* key = obstacle ? "timeHorizonObst" : "timeHorizon";
    std::string other;
    if (obstacle) {
        const auto o = obstacleIndex(sim, l.obstacle);
        if (o) d.responsibleObstacles.push_back(*o);
        other = "obstacle " + (o ? std::to_string(*o) : std::string("?"));
    } else {
        const auto j = sim.indexOf(l.otherAgent);
        if (j) d.responsibleAgents.push_back(static_cast<std::uint32_t>(*j));
        other = "agent " + (j ? std::to_string(*j) : std::string("?"));
    }
    d.cls = DiagnosisClass::ShortHorizon;
    d.suggestedValue = 2.0 * dt;
    d.sentence = who +
                 (l.timeToCollision <= 0.0
                      ? " overlaps " + other
                      : " is about to touch " + other + " (in " + num(l.timeToCollision) +
                            " s, less than one step of " + num(dt) + " s)") +
                 ": its " + key + " " + num(tau) +
                 " s is shorter than the time step Δt = " + num(dt) +
                 " s, and ORCA only avoids collisions predicted within the horizon, "
                 "so contacts slip through between steps.";
    d.suggestion = std::string("Raise ") + key + " from " + num(tau) + " to " +
                   num(d.suggestedValue) + " s (two steps; at least one step Δt = " + num(dt) +
                   " s is needed, a few seconds is typical).";
    return true;
}

// ---- neighbor-truncation ----------------------------------------------------------------------

bool neighborTruncation(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    const AgentParams& p = r.params;
    if (p.maxNeighbors < 0 || d.neighborCount < static_cast<std::size_t>(p.maxNeighbors) ||
        d.agentsInRange <= d.neighborCount)
        return false;
    // What-if on a private copy: every agent within neighborDist is a neighbour.
    Simulator copy;
    copy.restore(c.sim.snapshot());
    AgentDef def = copy.agent(c.id);
    def.params.maxNeighbors = static_cast<int>(d.agentsInRange);
    copy.setAgent(c.id, def);
    const ExplainRecord w = copy.explain(c.id);
    d.truncationVelocity = w.newVelocity;

    struct Dropped {
        std::uint32_t agent;
        double violation;
    };
    std::vector<Dropped> dropped;
    std::size_t droppedCount = 0;
    for (std::size_t k = 0; k < w.agentNeighbors.size(); ++k) {
        const AgentId other = w.agentNeighbors[k].id;
        const bool seen = std::any_of(r.agentNeighbors.begin(), r.agentNeighbors.end(),
                                      [&](const ExplainAgentNeighbor& n) { return n.id == other; });
        if (seen) continue;
        ++droppedCount;
        // Its half-plane does not depend on the other lines: does the actual v_new violate it?
        const double v = violation(w.lines[w.numObstacleLines + k].line, r.newVelocity);
        const auto j = c.sim.indexOf(other);
        if (v > c.prm.bindingTolerance && j) dropped.push_back({static_cast<std::uint32_t>(*j), v});
    }
    const double change = length(w.newVelocity - r.newVelocity);
    if (dropped.empty() || !(change > c.prm.truncationChange * std::max(p.maxSpeed, 1e-12)))
        return false;
    std::stable_sort(dropped.begin(), dropped.end(),
                     [](const Dropped& a, const Dropped& b) { return a.violation > b.violation; });
    d.cls = DiagnosisClass::NeighborTruncation;
    for (const Dropped& x : dropped)
        d.responsibleAgents.push_back(x.agent);
    std::vector<std::uint32_t> seenAgents;
    for (const ExplainAgentNeighbor& n : r.agentNeighbors)
        if (const auto j = c.sim.indexOf(n.id))
            seenAgents.push_back(static_cast<std::uint32_t>(*j));
    d.suggestedValue = static_cast<double>(d.agentsInRange);
    d.sentence =
        agentName(c.i) + " sees only its maxNeighbors = " + std::to_string(p.maxNeighbors) +
        (p.maxNeighbors == 1 ? " nearest agent" : " nearest agents") +
        (seenAgents.empty() ? std::string() : " (" + list("agent", seenAgents) + ")") +
        " and drops " + std::to_string(droppedCount) + " more within neighborDist " +
        num(p.neighborDist) + "; among them " + list("agent", d.responsibleAgents) +
        (dropped.size() == 1 ? ", whose half-plane" : ", whose half-planes") + " its velocity " +
        vec(r.newVelocity) + " violates (by " + (dropped.size() == 1 ? "" : "up to ") +
        num(dropped.front().violation) + "). Seeing every agent in range it would choose " +
        vec(w.newVelocity) + " instead.";
    d.suggestion = "Raise maxNeighbors from " + std::to_string(p.maxNeighbors) + " to " +
                   std::to_string(d.agentsInRange) + " (the agents within neighborDist " +
                   num(p.neighborDist) + " now).";
    return true;
}

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

// ---- none -------------------------------------------------------------------------------------

void none(Context& c) {
    Diagnosis& d = c.d;
    const ExplainRecord& r = c.rec;
    const std::string who = agentName(c.i);
    d.cls = DiagnosisClass::None;
    d.suggestion = "Nothing to fix.";
    if (r.isStatic) {
        d.sentence = who + " is static: it never moves, and the others avoid it.";
        return;
    }
    d.responsibleAgents = c.bindingAgents;
    d.responsibleObstacles = c.bindingObstacles;
    std::string by;
    if (!c.bindingAgents.empty()) by = list("agent", c.bindingAgents);
    if (!c.bindingObstacles.empty())
        by += (by.empty() ? "" : " and ") + list("obstacle", c.bindingObstacles);
    if (!(d.prefSpeed > 0.0)) {
        d.sentence = who + " has no preferred velocity" +
                     (c.sim.atGoalAt(c.i) ? std::string(" (it is at its goal)") : std::string()) +
                     (d.speed > 0.0 ? ": it only moves (|v_new| = " + num(d.speed) +
                                          ") to make room" + (by.empty() ? "" : " for " + by)
                                    : std::string(" and stands still")) +
                     ".";
        return;
    }
    if (d.deviation <= c.prm.preferredTolerance) {
        d.sentence = who + " moves as preferred: v_new " + vec(r.newVelocity) + " is within " +
                     percent(c.prm.preferredTolerance) + " of v_pref " + vec(r.prefVelocity) + ".";
        return;
    }
    if (!c.hindered()) {
        d.sentence = who + " gives way" + (by.empty() ? "" : " to " + by) +
                     (d.progress >= 0.995
                          ? std::string(" without losing progress")
                          : " but keeps " + percent(d.progress) + " of its preferred progress") +
                     ": ordinary avoidance.";
        return;
    }
    d.sentence = who + " is slowed to " + percent(std::max(d.progress, 0.0)) +
                 " of its preferred progress" + (by.empty() ? "" : " by " + by) +
                 ": ordinary reciprocal avoidance that none of the specific classes explains; it "
                 "should resolve as they pass.";
    d.suggestion = "Nothing to fix yet; if it persists, diagnose it again a few steps later.";
}

AgentSample sampleOf(const ExplainRecord& rec) {
    AgentSample s;
    s.velocity = rec.newVelocity;
    s.prefVelocity = rec.prefVelocity;
    s.lp3 = rec.lp3Ran;
    s.detouring = rec.detour.enabled && rec.detour.mode == DetourMode::Detouring;
    return s;
}

} // namespace

std::string_view toString(DiagnosisClass c) {
    const auto k = static_cast<std::size_t>(c);
    return k < kClassNames.size() ? kClassNames[k] : std::string_view("?");
}

std::optional<DiagnosisClass> diagnosisClassFromString(std::string_view name) {
    for (std::size_t k = 0; k < kClassNames.size(); ++k)
        if (kClassNames[k] == name) return static_cast<DiagnosisClass>(k);
    return std::nullopt;
}

std::size_t diagnosisWindowSteps(const Simulator& sim, const DiagnosisParams& params) {
    if (!(params.windowSeconds > 0.0)) return 0;
    // The 1e-9 keeps 2 s / 0.1 s at 20 steps although 2/0.1 rounds to 20.000000000000004.
    const double steps = std::ceil(params.windowSeconds / sim.params().timeStep - 1e-9);
    return static_cast<std::size_t>(std::max(steps, 0.0));
}

Diagnosis diagnose(const Simulator& sim, std::size_t agentIndex,
                   std::span<const AgentSample> recent, const DiagnosisParams& params) {
    if (agentIndex >= sim.agentCount())
        throw InvalidArgument("diagnose: agent index " + std::to_string(agentIndex) +
                              " is out of range (" + std::to_string(sim.agentCount()) + " agents)");
    const std::size_t window = diagnosisWindowSteps(sim, params);
    if (recent.size() > window) recent = recent.last(window);
    Diagnosis d;
    d.agent = agentIndex;
    d.step = sim.stepCount();
    const AgentId id = sim.agentIdAt(agentIndex);
    d.record = sim.explain(id);
    Context c{sim, params, d, d.record, recent, agentIndex, id, {}, {}};
    measure(c);
    collectBinding(c);
    if (d.record.isStatic) {
        none(c);
        return d;
    }
    // The first class that applies wins (docs/diagnosis.md, "Precedence").
    if (goalCircling(c) || shortHorizon(c) || neighborTruncation(c) || symmetricDeadlock(c) ||
        staticWall(c) || obstacleTrap(c) || crowdPressure(c))
        return d;
    none(c);
    return d;
}

Diagnosis diagnoseAfterSteps(Simulator& sim, std::size_t agentIndex, std::uint64_t steps,
                             const DiagnosisParams& params) {
    if (agentIndex >= sim.agentCount())
        throw InvalidArgument("diagnose: agent index " + std::to_string(agentIndex) +
                              " is out of range (" + std::to_string(sim.agentCount()) + " agents)");
    const AgentId id = sim.agentIdAt(agentIndex);
    const std::size_t window = diagnosisWindowSteps(sim, params);
    std::vector<AgentSample> samples;
    samples.reserve(window);
    std::vector<ExplainRecord> records;
    for (std::uint64_t s = 0; s < steps; ++s) {
        if (steps - s > window) {
            sim.step();
            continue;
        }
        // The same step, with the agent's record filled from the same pre-step state.
        sim.step(std::span<const AgentId>(&id, 1), records);
        if (!records.empty()) samples.push_back(sampleOf(records.front()));
    }
    return diagnose(sim, agentIndex, samples, params);
}

Diagnosis diagnoseAt(const History& history, std::uint64_t step, std::size_t agentIndex,
                     const DiagnosisParams& params) {
    if (!history.started()) throw std::logic_error("diagnoseAt: the history was not started");
    Simulator scratch;
    step = history.seek(scratch, step); // clamps to the recorded range
    if (agentIndex >= scratch.agentCount())
        throw InvalidArgument("diagnose: agent index " + std::to_string(agentIndex) +
                              " is out of range (" + std::to_string(scratch.agentCount()) +
                              " agents at step " + std::to_string(step) + ")");
    const AgentId id = scratch.agentIdAt(agentIndex);
    const std::uint64_t window = diagnosisWindowSteps(scratch, params);
    const std::uint64_t first = history.firstStep();
    const std::uint64_t start = step - std::min<std::uint64_t>(window, step - first);
    std::vector<AgentSample> samples;
    if (start < step) {
        history.seek(scratch, start);
        std::vector<ExplainRecord> records;
        while (scratch.stepCount() < step) {
            scratch.step(std::span<const AgentId>(&id, 1), records);
            if (!records.empty()) samples.push_back(sampleOf(records.front()));
        }
        // An edit recorded inside the window is not reproduced by re-stepping: the diagnosed
        // state is the recorded one.
        history.seek(scratch, step);
    }
    return diagnose(scratch, agentIndex, samples, params);
}

} // namespace orca
