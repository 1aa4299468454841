// diagnose() and its variants: the measures and binding constraints of one decision, the class
// rules tried in order (diagnosis_configuration.cpp, diagnosis_blocking.cpp) and the fallback
// class none.
#include "orca/diagnosis.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "diagnosis_rules.hpp"
#include "orca/history.hpp"
#include "orca/state.hpp"

namespace orca {

// The context, the sentence helpers and the class rules (diagnosis_rules.hpp).
using namespace detail::diagnosis;

namespace {

constexpr std::array<std::string_view, kDiagnosisClassCount> kClassNames = {
    "none",           "symmetric-deadlock",  "static-wall",   "obstacle-trap",
    "crowd-pressure", "neighbor-truncation", "short-horizon", "goal-circling",
    "bottleneck-jam", "group-deadlock",
};

// ---- The diagnosis ----------------------------------------------------------------------------

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
        d.goalRadius = effectiveGoalRadius(p);
    }
    d.stalledSeconds = stalledSecondsOf(c);
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

namespace {

std::size_t stepsFor(const Simulator& sim, double seconds) {
    if (!(seconds > 0.0)) return 0;
    // The 1e-9 keeps 2 s / 0.1 s at 20 steps although 2/0.1 rounds to 20.000000000000004.
    const double steps = std::ceil(seconds / sim.params().timeStep - 1e-9);
    return static_cast<std::size_t>(std::min(std::max(steps, 0.0), 1e7));
}

} // namespace

std::size_t diagnosisWindowSteps(const Simulator& sim, const DiagnosisParams& params) {
    return stepsFor(sim, params.windowSeconds);
}

std::size_t diagnosisHistorySteps(const Simulator& sim, const DiagnosisParams& params) {
    return stepsFor(sim, std::max(params.windowSeconds, params.historySeconds));
}

Diagnosis diagnose(const Simulator& sim, std::size_t agentIndex,
                   std::span<const AgentSample> recent, const DiagnosisParams& params) {
    if (agentIndex >= sim.agentCount())
        throw InvalidArgument("diagnose: agent index " + std::to_string(agentIndex) +
                              " is out of range (" + std::to_string(sim.agentCount()) + " agents)");
    const std::size_t historySteps = diagnosisHistorySteps(sim, params);
    if (recent.size() > historySteps) recent = recent.last(historySteps);
    const std::size_t window = diagnosisWindowSteps(sim, params);
    const std::span<const AgentSample> inWindow =
        recent.size() > window ? recent.last(window) : recent;
    Diagnosis d;
    d.agent = agentIndex;
    d.step = sim.stepCount();
    const AgentId id = sim.agentIdAt(agentIndex);
    d.record = sim.explain(id);
    Context c{sim, params, d, d.record, inWindow, recent, agentIndex, id, {}, {}};
    measure(c);
    collectBinding(c);
    if (d.record.isStatic) {
        none(c);
        return d;
    }
    // The first class that applies wins (docs/diagnosis.md, "Precedence"). A stalled agent is
    // judged by what holds it first, and is never none.
    const bool found =
        c.stalled()
            ? goalCircling(c) || bottleneckJam(c) || groupDeadlock(c, false) ||
                  symmetricDeadlock(c) || staticWall(c) || obstacleTrap(c) || crowdPressure(c) ||
                  shortHorizon(c) || neighborTruncation(c) || groupDeadlock(c, true)
            : goalCircling(c) || bottleneckJam(c) || shortHorizon(c) || neighborTruncation(c) ||
                  symmetricDeadlock(c) || staticWall(c) || obstacleTrap(c) || crowdPressure(c);
    if (!found) none(c);
    buildFixes(c);
    return d;
}

Diagnosis diagnoseAfterSteps(Simulator& sim, std::size_t agentIndex, std::uint64_t steps,
                             const DiagnosisParams& params) {
    if (agentIndex >= sim.agentCount())
        throw InvalidArgument("diagnose: agent index " + std::to_string(agentIndex) +
                              " is out of range (" + std::to_string(sim.agentCount()) + " agents)");
    const AgentId id = sim.agentIdAt(agentIndex);
    const std::size_t window = diagnosisHistorySteps(sim, params);
    std::vector<AgentSample> samples;
    // At most the window's samples, and never more than the steps asked for (a tiny Δt makes
    // the window millions of steps long).
    samples.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(window, steps)));
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
    const std::uint64_t window = diagnosisHistorySteps(scratch, params);
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
