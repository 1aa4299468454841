// applyFix (fixes.hpp): a diagnosis's fix applied to a simulator from its current state.
#include "orca/fixes.hpp"

#include <algorithm>
#include <string>

#include "orca/parameters.hpp"
#include "orca/state.hpp"

namespace orca {

namespace {

void requireAgent(const Simulator& sim, std::uint32_t i) {
    if (i >= sim.agentCount())
        throw InvalidArgument("fix: agent " + std::to_string(i) + " is out of range (" +
                              std::to_string(sim.agentCount()) + " agents)");
}

const ParamRow& requireRow(const std::string& name, bool agent) {
    const ParamRow* row = findParameter(name);
    if (row == nullptr || (row->scope == ParamScope::Agent) != agent)
        throw InvalidArgument("fix: \"" + name + "\" is not " +
                              (agent ? "an agent" : "a simulation") + " parameter");
    return *row;
}

void applyEdit(Simulator& sim, const FixEdit& e) {
    switch (e.kind) {
    case FixEdit::Kind::AgentParameter: {
        const ParamRow& row = requireRow(e.parameter, true);
        auto set = [&](std::uint32_t i) {
            requireAgent(sim, i);
            const AgentId id = sim.agentIdAt(i);
            AgentDef def = sim.agent(id);
            row.setAgent(def.params, e.value);
            sim.setAgent(id, def);
        };
        if (e.agents.empty()) {
            for (std::size_t i = 0; i < sim.agentCount(); ++i)
                set(static_cast<std::uint32_t>(i));
        } else {
            for (std::uint32_t i : e.agents)
                set(i);
        }
        return;
    }
    case FixEdit::Kind::SimulationParameter: {
        const ParamRow& row = requireRow(e.parameter, false);
        SimulationParams p = sim.params();
        row.setSimulation(p, e.value);
        sim.setParams(p);
        return;
    }
    case FixEdit::Kind::Waypoints: {
        requireAgent(sim, e.agent);
        const AgentId id = sim.agentIdAt(e.agent);
        AgentDef def = sim.agent(id);
        def.waypoints.resize(std::min<std::size_t>(e.kept, def.waypoints.size()));
        def.waypoints.insert(def.waypoints.end(), e.points.begin(), e.points.end());
        def.routeProgress = std::min(def.routeProgress, static_cast<std::uint32_t>(e.kept));
        sim.setAgent(id, def);
        return;
    }
    case FixEdit::Kind::MoveGoal: {
        requireAgent(sim, e.agent);
        if (e.points.empty()) throw InvalidArgument("fix: a goal move without a goal");
        const AgentId id = sim.agentIdAt(e.agent);
        AgentDef def = sim.agent(id);
        def.hasGoal = true;
        def.goal = e.points.front();
        sim.setAgent(id, def);
        return;
    }
    case FixEdit::Kind::Routing: {
        SimulationParams p = sim.params();
        p.routing = e.routing;
        sim.setParams(p);
        return;
    }
    case FixEdit::Kind::DeadlockBreaking: {
        SimulationParams p = sim.params();
        p.deadlockBreaking = e.on;
        sim.setParams(p);
        return;
    }
    case FixEdit::Kind::Obstacle:
        if (e.obstacle >= sim.obstacleCount())
            throw InvalidArgument("fix: obstacle " + std::to_string(e.obstacle) +
                                  " is out of range (" + std::to_string(sim.obstacleCount()) +
                                  " obstacles)");
        sim.setObstacle(sim.obstacleIdAt(e.obstacle), e.points);
        return;
    }
}

} // namespace

void applyFix(Simulator& sim, const DiagnosisFix& fix) {
    for (const FixEdit& e : fix.edits)
        applyEdit(sim, e);
}

} // namespace orca
