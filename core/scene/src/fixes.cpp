// Fixes on scene files, their JSON, and their verification (scene/fixes.hpp).
#include "orca/scene/fixes.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/parameters.hpp"
#include "orca/scene/explain_json.hpp"
#include "orca/state.hpp"

namespace orca::scene {

namespace {

using Json = nlohmann::ordered_json;

[[noreturn]] void fail(const std::string& message) {
    throw std::invalid_argument("fix: " + message);
}

const ParamRow& rowFor(const std::string& name, bool agent) {
    const ParamRow* row = findParameter(name);
    if (row == nullptr || (row->scope == ParamScope::Agent) != agent)
        fail("\"" + name + "\" is not " + std::string(agent ? "an agent" : "a simulation") +
             " parameter");
    return *row;
}

void checkValue(const ParamRow& row, double value) {
    if (!row.fileRange.contains(value))
        fail(std::string(row.name) + " " + formatValue(value) + " is outside " +
             formatRange(row.fileRange));
}

SceneAgent& agentAt(Scene& scene, std::uint32_t i) {
    if (i >= scene.agents.size())
        fail("agent " + std::to_string(i) + " is out of range (the scene has " +
             std::to_string(scene.agents.size()) + " agents)");
    return scene.agents[i];
}

void applyEdit(Scene& scene, const FixEdit& e) {
    switch (e.kind) {
    case FixEdit::Kind::AgentParameter: {
        const ParamRow& row = rowFor(e.parameter, true);
        checkValue(row, e.value);
        auto clear = [&](SceneAgent& a, double value, bool set) {
            forEachAgentParam(a.overrides, scene.agentDefaults,
                              [&](std::string_view key, auto& override, auto&) {
                                  if (key != row.name) return;
                                  using T = typename std::decay_t<decltype(override)>::value_type;
                                  if (set)
                                      override = static_cast<T>(value);
                                  else
                                      override.reset();
                              });
        };
        if (e.agents.empty()) {
            row.setAgent(scene.agentDefaults, e.value);
            for (SceneAgent& a : scene.agents)
                clear(a, 0.0, false);
        } else {
            for (std::uint32_t i : e.agents)
                clear(agentAt(scene, i), e.value, true);
        }
        return;
    }
    case FixEdit::Kind::SimulationParameter: {
        const ParamRow& row = rowFor(e.parameter, false);
        checkValue(row, e.value);
        row.setSimulation(scene.simulation.params, e.value);
        return;
    }
    case FixEdit::Kind::Waypoints: {
        SceneAgent& a = agentAt(scene, e.agent);
        if (!a.goal) fail("agent " + std::to_string(e.agent) + " has no goal for waypoints");
        std::vector<Vec2> route(
            a.waypoints.begin(),
            a.waypoints.begin() +
                static_cast<std::ptrdiff_t>(std::min<std::size_t>(e.kept, a.waypoints.size())));
        route.insert(route.end(), e.points.begin(), e.points.end());
        if (route.size() > kMaxWaypoints) fail("too many waypoints");
        for (Vec2 p : route)
            if (!withinSceneLimits(p)) fail("a waypoint is outside the scene's limits");
        a.waypoints = std::move(route);
        a.routeProgress = std::min(a.routeProgress, static_cast<std::uint32_t>(e.kept));
        return;
    }
    case FixEdit::Kind::MoveGoal: {
        SceneAgent& a = agentAt(scene, e.agent);
        if (e.points.empty() || !withinSceneLimits(e.points.front())) fail("a bad goal");
        if (a.isStatic) fail("agent " + std::to_string(e.agent) + " is static");
        a.goal = e.points.front();
        a.prefVelocity.reset();
        return;
    }
    case FixEdit::Kind::Routing:
        scene.simulation.params.routing = e.routing;
        return;
    case FixEdit::Kind::DeadlockBreaking:
        scene.simulation.params.deadlockBreaking = e.on;
        return;
    case FixEdit::Kind::Obstacle: {
        if (e.obstacle >= scene.obstacles.size())
            fail("obstacle " + std::to_string(e.obstacle) + " is out of range (the scene has " +
                 std::to_string(scene.obstacles.size()) + " obstacles)");
        for (Vec2 p : e.points)
            if (!withinSceneLimits(p)) fail("a vertex is outside the scene's limits");
        scene.obstacles[e.obstacle].vertices = e.points;
        return;
    }
    }
}

const char* kindName(FixEdit::Kind kind) {
    switch (kind) {
    case FixEdit::Kind::AgentParameter:
        return "agent-parameter";
    case FixEdit::Kind::SimulationParameter:
        return "simulation-parameter";
    case FixEdit::Kind::Waypoints:
        return "waypoints";
    case FixEdit::Kind::MoveGoal:
        return "move-goal";
    case FixEdit::Kind::Routing:
        return "routing";
    case FixEdit::Kind::DeadlockBreaking:
        return "deadlock-breaking";
    case FixEdit::Kind::Obstacle:
        return "obstacle";
    }
    return "?";
}

} // namespace

void applyFix(Scene& scene, const DiagnosisFix& fix) {
    Scene edited = scene;
    for (const FixEdit& e : fix.edits)
        applyEdit(edited, e);
    scene = std::move(edited);
}

FixVerification verifyFix(const Simulator& original, const Simulator& fixed, std::uint64_t steps,
                          int threads) {
    FixVerification v;
    v.steps = steps;
    Simulator runs[2];
    runs[0].restore(original.snapshot());
    runs[1].restore(fixed.snapshot());
    RunOutcome* outcomes[2] = {&v.before, &v.after};
    for (int k = 0; k < 2; ++k) {
        Simulator& sim = runs[k];
        sim.setThreadCount(threads);
        // The stall rule of the `stalled` event (EventParams defaults): slower than 5 % of
        // prefSpeed for 2 s.
        std::vector<double> slow(sim.agentCount(), 0.0);
        const double dt = sim.params().timeStep;
        for (std::uint64_t s = 0; s < steps; ++s) {
            sim.step();
            outcomes[k]->overlapPairSteps += sim.clearance().overlappingPairs;
            const auto vel = sim.velocities();
            for (std::size_t i = 0; i < slow.size(); ++i) {
                const double limit = 0.05 * sim.agentParams()[i].prefSpeed;
                slow[i] = absSq(vel[i]) < limit * limit ? slow[i] + dt : 0.0;
            }
        }
        outcomes[k]->goalAgents = sim.goalAgentCount();
        outcomes[k]->agentsAtGoal = sim.atGoalCount();
        for (std::size_t i = 0; i < slow.size(); ++i)
            if (sim.hasGoalAt(i) && !sim.atGoalAt(i) && !sim.isStaticAt(i) && slow[i] >= 2.0 - 1e-9)
                ++outcomes[k]->stalledAgents;
    }
    v.improved = v.after.agentsAtGoal > v.before.agentsAtGoal ||
                 (v.after.agentsAtGoal == v.before.agentsAtGoal &&
                  v.after.stalledAgents < v.before.stalledAgents);
    return v;
}

Json toJson(const DiagnosisFix& fix) {
    Json j;
    j["label"] = fix.label;
    Json edits = Json::array();
    for (const FixEdit& e : fix.edits) {
        Json x;
        x["kind"] = kindName(e.kind);
        switch (e.kind) {
        case FixEdit::Kind::AgentParameter:
            x["parameter"] = e.parameter;
            x["value"] = e.value;
            x["agents"] = e.agents.empty() ? Json("all") : Json(e.agents);
            break;
        case FixEdit::Kind::SimulationParameter:
            x["parameter"] = e.parameter;
            x["value"] = e.value;
            break;
        case FixEdit::Kind::Waypoints:
            x["agent"] = e.agent;
            x["kept"] = e.kept;
            x["waypoints"] = orca::toJsonPoints(e.points);
            break;
        case FixEdit::Kind::MoveGoal:
            x["agent"] = e.agent;
            x["goal"] = e.points.empty() ? Json(nullptr) : orca::toJson(e.points.front());
            break;
        case FixEdit::Kind::Routing:
            x["routing"] = std::string(toString(e.routing));
            break;
        case FixEdit::Kind::DeadlockBreaking:
            x["deadlockBreaking"] = e.on ? "on" : "off";
            break;
        case FixEdit::Kind::Obstacle:
            x["obstacle"] = e.obstacle;
            x["vertices"] = orca::toJsonPoints(e.points);
            break;
        }
        edits.push_back(std::move(x));
    }
    j["edits"] = std::move(edits);
    return j;
}

Json toJson(const RunOutcome& o) {
    Json j;
    j["goalAgents"] = o.goalAgents;
    j["agentsAtGoal"] = o.agentsAtGoal;
    j["stalledAgents"] = o.stalledAgents;
    j["overlapPairSteps"] = o.overlapPairSteps;
    return j;
}

Json toJson(const FixVerification& v) {
    Json j;
    j["steps"] = v.steps;
    j["before"] = toJson(v.before);
    j["after"] = toJson(v.after);
    j["improved"] = v.improved;
    return j;
}

} // namespace orca::scene
