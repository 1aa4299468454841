// The checks of lessons' "try this" tasks (lesson.hpp, "Task checks"): beginTask captures a
// task's baseline when its page opens, checkTask reads the simulator and agent A's explain
// record; caseLabel names line cases in their progress texts.
#include "orca/scene/lesson.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "lesson_support.hpp"

namespace orca::lesson {

namespace {

using namespace detail;

const ExplainLine* lineFrom(const ExplainRecord& rec, AgentId other) {
    for (const ExplainLine& l : rec.lines)
        if (!isObstacleCase(l.lineCase) && l.otherAgent == other) return &l;
    return nullptr;
}

std::string vecText(Vec2 v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%.2f, %.2f)", v.x, v.y);
    return buf;
}

std::optional<double> paramValue(const Simulator& sim, std::optional<std::size_t> agent,
                                 std::string_view name) {
    const SimulationParams& s = sim.params();
    if (name == "timeStep") return s.timeStep;
    if (name == "responsibility") return s.responsibility;
    if (name == "staticResponsibility") return s.staticResponsibility;
    if (name == "lp3BisectorWeight") return s.lp3BisectorWeight;
    if (!agent || *agent >= sim.agentCount()) return std::nullopt;
    const AgentParams& p = sim.agentParams()[*agent];
    if (name == "radius") return p.radius;
    if (name == "maxSpeed") return p.maxSpeed;
    if (name == "prefSpeed") return p.prefSpeed;
    if (name == "neighborDist") return p.neighborDist;
    if (name == "maxNeighbors") return static_cast<double>(p.maxNeighbors);
    if (name == "timeHorizon") return p.timeHorizon;
    if (name == "timeHorizonObst") return p.timeHorizonObst;
    if (name == "goalRadius") return p.goalRadius < 0.0 ? p.radius : p.goalRadius;
    return std::nullopt;
}

} // namespace

std::string_view caseLabel(LineCase c) {
    switch (c) {
    case LineCase::AgentCutoffCircle:
        return "cut-off circle";
    case LineCase::AgentLeftLeg:
        return "left leg";
    case LineCase::AgentRightLeg:
        return "right leg";
    case LineCase::AgentColliding:
        return "colliding (cut-off circle of time Δt)";
    default:
        return toString(c);
    }
}

TaskContext beginTask(const LessonTask& task, const Simulator& sim,
                      std::optional<std::size_t> primary) {
    TaskContext c;
    c.agent = task.agent ? task.agent : primary;
    c.other = task.other;
    if (c.agent && *c.agent >= sim.agentCount()) c.agent.reset();
    if (c.other && *c.other >= sim.agentCount()) c.other.reset();
    if (task.kind == TaskKind::HalfPlaneFlips && c.agent && c.other) {
        const ExplainRecord rec = sim.explain(sim.agentIdAt(*c.agent));
        if (const ExplainLine* l = lineFrom(rec, sim.agentIdAt(*c.other))) {
            c.hasBaseline = true;
            c.baselineU = l->u;
            c.baselineCase = l->lineCase;
        }
    }
    return c;
}

TaskStatus checkTask(const LessonTask& task, const Simulator& sim, const ExplainRecord* record,
                     const TaskContext& context) {
    TaskStatus s;
    switch (task.kind) {
    case TaskKind::AllReachGoal: {
        const std::size_t n = sim.goalAgentCount();
        const std::size_t at = sim.atGoalCount();
        s.done = n > 0 && at == n;
        s.progress = std::to_string(at) + "/" + std::to_string(n) + " agents at their goals";
        return s;
    }
    case TaskKind::DetourEnabled:
        s.done = sim.params().detour.enabled;
        s.progress = s.done ? "detour field on" : "detour field off";
        return s;
    case TaskKind::ParamBelow:
    case TaskKind::ParamAbove: {
        const auto v = paramValue(sim, context.agent, task.param);
        if (!v) {
            s.progress = "no agent to read " + task.param + " from";
            return s;
        }
        const bool below = task.kind == TaskKind::ParamBelow;
        s.done = below ? *v < task.value : *v > task.value;
        s.progress = task.param + " = " + formatNumber(*v) + " (needs " + (below ? "< " : "> ") +
                     formatNumber(task.value) + ")";
        return s;
    }
    default:
        break;
    }

    // The remaining kinds look at agent A's decision.
    if (!context.agent || *context.agent >= sim.agentCount()) {
        s.progress = "agent A is not in the scene";
        return s;
    }
    const std::size_t a = *context.agent;
    const AgentId id = sim.agentIdAt(a);
    if (task.kind == TaskKind::AgentReachesGoal) {
        s.done = sim.atGoalAt(a);
        if (!sim.hasGoalAt(a)) {
            s.progress = "agent #" + std::to_string(a) + " has no goal";
        } else {
            const Vec2 d = sim.goalAt(a) - sim.positions()[a];
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.2f", std::sqrt(d.x * d.x + d.y * d.y));
            s.progress = std::string("distance to the goal ") + buf;
        }
        return s;
    }
    ExplainRecord local;
    const ExplainRecord* rec = record;
    if (!rec || rec->agent != id) {
        local = sim.explain(id);
        rec = &local;
    }
    switch (task.kind) {
    case TaskKind::Lp3Stops:
    case TaskKind::Lp3Runs: {
        const bool failed = rec->lp2Failed();
        s.done = task.kind == TaskKind::Lp3Runs ? failed : !failed;
        if (failed) {
            char buf[96];
            std::snprintf(buf, sizeof buf, "LP2 fails at line %zu: LP3 runs (depth %.3f)",
                          rec->lp2Fail, rec->lp3Depth);
            s.progress = buf;
        } else {
            s.progress = "LP2 finds a velocity in the feasible region (no LP3)";
        }
        return s;
    }
    default:
        break;
    }

    if (!context.other || *context.other >= sim.agentCount()) {
        s.progress = "agent B is not in the scene";
        return s;
    }
    const AgentId other = sim.agentIdAt(*context.other);
    const std::string bName = "#" + std::to_string(*context.other);
    if (task.kind == TaskKind::SeesNeighbor) {
        s.done = std::any_of(rec->agentNeighbors.begin(), rec->agentNeighbors.end(),
                             [&](const ExplainAgentNeighbor& n) { return n.id == other; });
        s.progress = std::string(s.done ? "sees " : "does not see ") + bName + " (" +
                     std::to_string(rec->agentNeighbors.size()) + " agent neighbours)";
        return s;
    }
    const ExplainLine* line = lineFrom(*rec, other);
    if (!line) {
        s.progress = bName + " is not a neighbour: no half-plane from it";
        return s;
    }
    const std::string now = std::string(caseLabel(line->lineCase));
    if (task.kind == TaskKind::OutsideVo) {
        // The line passes through v_A + ½u with u pointing out of the VO when v_A − v_B is
        // inside it, and toward it when outside: v_A is on the permitted side exactly when
        // v_A − v_B is outside the VO.
        const Vec2 d = line->line.direction;
        const Vec2 w = rec->velocity - line->line.point;
        const double side = d.x * w.y - d.y * w.x;
        s.done = side > 0.0;
        s.progress = "v_A − v_B = " + vecText(line->relativeVelocity) +
                     (s.done ? " is outside the VO" : " is inside the VO: a collision within τ");
        return s;
    }
    if (task.kind == TaskKind::LineCase) {
        s.done = line->lineCase == task.lineCase;
        s.progress = "half-plane from " + bName + ": " + now +
                     " (wanted: " + std::string(caseLabel(task.lineCase)) + ")";
        return s;
    }
    // HalfPlaneFlips: u (the avoidance A and B share) now points against its direction when
    // the page opened, so A dodges B the other way.
    if (!context.hasBaseline) {
        s.progress = "no half-plane from " + bName + " when the page opened";
        return s;
    }
    s.done = line->u.x * context.baselineU.x + line->u.y * context.baselineU.y < 0.0;
    s.progress = "u = " + vecText(line->u) + ", " + now +
                 " (at the start: u = " + vecText(context.baselineU) + ", " +
                 std::string(caseLabel(context.baselineCase)) + ")";
    return s;
}

} // namespace orca::lesson
