#include "document/scene_edit.hpp"

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

} // namespace orca::app
