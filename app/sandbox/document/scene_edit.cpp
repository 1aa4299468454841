#include "document/scene_edit.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <utility>
#include <vector>

namespace orca::app {

namespace {

// Writes one resolved parameter into the agent's overrides; an override equal to the scene's
// default is dropped so saved files stay minimal.
template <class T> void setOverride(std::optional<T>& override, T value, T defaultValue) {
    if (value == defaultValue)
        override.reset();
    else
        override = value;
}

void writeToScene(const scene::Scene& scene, scene::SceneAgent& a, const AgentDef& def,
                  ui::AgentField field) {
    const AgentParams& p = def.params;
    const AgentParams& d = scene.agentDefaults;
    scene::AgentOverrides& o = a.overrides;
    using F = ui::AgentField;
    switch (field) {
    case F::Radius:
        setOverride(o.radius, p.radius, d.radius);
        break;
    case F::MaxSpeed:
        setOverride(o.maxSpeed, p.maxSpeed, d.maxSpeed);
        break;
    case F::PrefSpeed:
        setOverride(o.prefSpeed, p.prefSpeed, d.prefSpeed);
        break;
    case F::NeighborDist:
        setOverride(o.neighborDist, p.neighborDist, d.neighborDist);
        break;
    case F::MaxNeighbors:
        setOverride(o.maxNeighbors, p.maxNeighbors, d.maxNeighbors);
        break;
    case F::TimeHorizon:
        setOverride(o.timeHorizon, p.timeHorizon, d.timeHorizon);
        break;
    case F::TimeHorizonObst:
        setOverride(o.timeHorizonObst, p.timeHorizonObst, d.timeHorizonObst);
        break;
    case F::GoalRadius:
        setOverride(o.goalRadius, p.goalRadius, d.goalRadius);
        break;
    case F::WaypointRadius:
        setOverride(o.waypointRadius, p.waypointRadius, d.waypointRadius);
        break;
    case F::AvoidanceWeight:
        setOverride(o.avoidanceWeight, p.avoidanceWeight, d.avoidanceWeight);
        break;
    case F::Static:
        a.isStatic = def.isStatic;
        break;
    case F::HasGoal:
    case F::Goal:
    case F::PrefVelocity:
        if (def.hasGoal) {
            a.goal = def.goal;
            a.prefVelocity.reset();
        } else {
            a.goal.reset();
            a.waypoints.clear(); // a route needs a goal
            a.routeProgress = 0;
            if (def.prefVelocity == Vec2{0.0, 0.0})
                a.prefVelocity.reset();
            else
                a.prefVelocity = def.prefVelocity;
        }
        break;
    case F::Count:
        break;
    }
}

} // namespace

bool applyAgentEdit(scene::Scene& scene, Simulator& sim, std::span<const AgentId> ids,
                    const ui::AgentEdit& edit, std::string& error) {
    struct Applied {
        AgentId id;
        std::size_t index;
        AgentDef before;
        AgentDef after;
    };
    std::vector<Applied> applied;
    try {
        for (const AgentId id : ids) {
            const auto index = sim.indexOf(id);
            if (!index || *index >= scene.agents.size()) continue;
            Applied a{id, *index, sim.agent(id), {}};
            a.after = a.before;
            ui::applyAgentEdit(a.after, edit, sim.prefVelocity(id));
            sim.setAgent(id, a.after);
            applied.push_back(std::move(a));
        }
    } catch (const std::exception& e) {
        for (auto it = applied.rbegin(); it != applied.rend(); ++it)
            sim.setAgent(it->id, it->before);
        error = std::string(ui::fieldName(edit.field)) + ": " + e.what();
        return false;
    }
    for (const Applied& a : applied)
        writeToScene(scene, scene.agents[a.index], a.after, edit.field);
    error.clear();
    return true;
}

bool applySimulationEdit(scene::Scene& scene, Simulator& sim, const SimulationParams& params,
                         std::string& error) {
    try {
        sim.setParams(params);
    } catch (const std::exception& e) {
        error = e.what();
        return false;
    }
    scene.simulation.params = params;
    error.clear();
    return true;
}

namespace {

bool sameRoute(const scene::SceneAgent& a, const scene::SceneAgent& b) {
    auto same = [](Vec2 p, Vec2 q) { return p.x == q.x && p.y == q.y; };
    return a.routeProgress == b.routeProgress && a.stallSeconds == b.stallSeconds &&
           std::equal(a.waypoints.begin(), a.waypoints.end(), b.waypoints.begin(),
                      b.waypoints.end(), same);
}

} // namespace

scene::SceneEdit sceneEditBetween(const scene::Scene& before, const scene::Scene& after,
                                  std::string label) {
    scene::SceneEdit edit = scene::SceneEdit::diff(before, after, std::move(label));
    const std::vector<scene::SceneAgent>& a = before.agents;
    const std::vector<scene::SceneAgent>& b = after.agents;
    if (a.size() == b.size()) {
        // Splices of a length-preserving diff replace runs in place: indices are stable.
        auto covered = [&](std::size_t i) {
            for (const auto& s : edit.agents)
                if (i >= s.index && i < s.index + s.removed.size()) return true;
            return false;
        };
        bool added = false;
        for (std::size_t i = 0; i < a.size(); ++i) {
            if (sameRoute(a[i], b[i]) || covered(i)) continue;
            edit.agents.push_back({i, {a[i]}, {b[i]}});
            added = true;
        }
        if (added)
            std::sort(edit.agents.begin(), edit.agents.end(),
                      [](const auto& x, const auto& y) { return x.index < y.index; });
        return edit;
    }
    scene::Scene check = before;
    edit.apply(check);
    if (!(check == after)) edit.agents = {{0, a, b}};
    return edit;
}

namespace {

// The agent whose route an edit changes, or nullptr with `error`.
scene::SceneAgent* routeAgent(scene::Scene& scene, std::size_t agent, std::string& error) {
    if (agent >= scene.agents.size()) {
        error = "agent #" + std::to_string(agent) + " does not exist";
        return nullptr;
    }
    scene::SceneAgent& a = scene.agents[agent];
    if (a.isStatic) {
        error = "agent #" + std::to_string(agent) + " is static: it has no route";
        return nullptr;
    }
    if (!a.goal) {
        error = "agent #" + std::to_string(agent) +
                " has no goal: give it one first (drag from it with the goal tool)";
        return nullptr;
    }
    return &a;
}

bool finitePoint(Vec2 p, std::string& error) {
    if (std::isfinite(p.x) && std::isfinite(p.y)) return true;
    error = "the waypoint is not a finite point";
    return false;
}

bool waypointIndex(const scene::SceneAgent& a, std::size_t index, std::string& error) {
    if (index < a.waypoints.size()) return true;
    error = "waypoint " + std::to_string(index + 1) + " does not exist (the route has " +
            std::to_string(a.waypoints.size()) + ")";
    return false;
}

} // namespace

bool insertWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, Vec2 point,
                    std::string& error) {
    scene::SceneAgent* a = routeAgent(scene, agent, error);
    if (!a || !finitePoint(point, error)) return false;
    if (index > a->waypoints.size()) {
        error = "cannot insert at waypoint " + std::to_string(index + 1) + " (the route has " +
                std::to_string(a->waypoints.size()) + ")";
        return false;
    }
    if (a->waypoints.size() >= kMaxWaypoints) {
        error = "an agent has at most " + std::to_string(kMaxWaypoints) + " waypoints";
        return false;
    }
    a->waypoints.insert(a->waypoints.begin() + static_cast<std::ptrdiff_t>(index), point);
    // A waypoint inserted among the reached ones counts as reached.
    if (index < a->routeProgress) ++a->routeProgress;
    error.clear();
    return true;
}

bool moveWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, Vec2 point,
                  std::string& error) {
    scene::SceneAgent* a = routeAgent(scene, agent, error);
    if (!a || !finitePoint(point, error) || !waypointIndex(*a, index, error)) return false;
    a->waypoints[index] = point;
    error.clear();
    return true;
}

bool removeWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, std::string& error) {
    scene::SceneAgent* a = routeAgent(scene, agent, error);
    if (!a || !waypointIndex(*a, index, error)) return false;
    a->waypoints.erase(a->waypoints.begin() + static_cast<std::ptrdiff_t>(index));
    if (index < a->routeProgress) --a->routeProgress;
    error.clear();
    return true;
}

} // namespace orca::app
