// The configuration classes of the diagnosis (docs/diagnosis.md, "The classes and their
// precedence"): goal-circling, short-horizon and neighbor-truncation, where the solver decided
// with missing information (an unseen or dropped neighbour) or a goal rule that cannot be met.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "diagnosis_rules.hpp"
#include "orca/state.hpp"

namespace orca::detail::diagnosis {

namespace {

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

} // namespace

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
    d.suggestedParameter = "goalRadius";
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
        d.suggestedParameter = "neighborDist";
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
    d.suggestedParameter = key;
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
    d.suggestedParameter = "maxNeighbors";
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

} // namespace orca::detail::diagnosis
