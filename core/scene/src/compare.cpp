// Branch runs and their metrics (compare.hpp).
#include "orca/scene/compare.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string>

#include "orca/parameters.hpp"

namespace orca {

namespace {

/// The parameter a branch can change by this name: an agent or a simulation row of the
/// parameter table, by its plain JSON name (the detour rows are not offered).
const ParamRow* branchParameter(std::string_view name) {
    if (name.find('.') != std::string_view::npos) return nullptr;
    const ParamRow* row = findParameter(name);
    return row != nullptr && row->scope != ParamScope::Detour ? row : nullptr;
}

/// "radius, maxSpeed, ..., timeHorizon (tau), ..." for the rows of `scope`.
std::string branchParameterNames(ParamScope scope) {
    std::string out;
    for (const ParamRow& row : parameterTable(scope)) {
        if (!out.empty()) out += ", ";
        out += row.name;
        if (row.name == "timeHorizon") out += " (tau)";
    }
    return out;
}

bool parseNumber(std::string_view text, double& out) {
    const char* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, out);
    return r.ec == std::errc() && r.ptr == end && std::isfinite(out);
}

std::string formatNumber(double v) {
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

} // namespace

bool BranchChange::empty() const {
    return !simulation && agentOverrides == scene::AgentOverrides{};
}

bool BranchChange::set(std::string_view assignment, const SimulationParams& base,
                       std::string& error) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string_view::npos) {
        error = "expected NAME=VALUE, got \"" + std::string(assignment) + "\"";
        return false;
    }
    std::string_view name = assignment.substr(0, eq);
    const std::string_view valueText = assignment.substr(eq + 1);
    if (name == "tau") name = "timeHorizon";
    double value = 0.0;
    if (!parseNumber(valueText, value)) {
        error = std::string(name) + ": \"" + std::string(valueText) + "\" is not a finite number";
        return false;
    }
    const ParamRow* row = branchParameter(name);
    if (row == nullptr) {
        error = "unknown parameter \"" + std::string(name) +
                "\" (agent: " + branchParameterNames(ParamScope::Agent) +
                "; simulation: " + branchParameterNames(ParamScope::Simulation) + ")";
        return false;
    }
    // The range a scene file accepts (the parameter table's file range): a value set on a
    // command line (`orca compare --set`, `orca-sandbox --branch`) is held to the same.
    if (!row->fileRange.contains(value)) {
        error = std::string(name) + ": " + std::string(valueText) +
                " is out of range: " + std::string(name) + " must be in " +
                formatRange(row->fileRange) +
                (row->unit.empty() ? "" : " " + std::string(row->unit)) +
                ", as in a scene file (orca params)";
        return false;
    }
    if (row->kind == ParamKind::Integer && value != std::floor(value)) {
        error = std::string(name) + " must be an integer";
        return false;
    }
    if (row->scope == ParamScope::Simulation) {
        SimulationParams sp = simulation.value_or(base);
        row->setSimulation(sp, value);
        simulation = sp;
        return true;
    }
    AgentParams unused;
    scene::forEachAgentParam(agentOverrides, unused, [&](const char* key, auto& override, auto&) {
        if (name != key) return;
        using T = typename std::decay_t<decltype(override)>::value_type;
        override = static_cast<T>(value);
    });
    return true;
}

std::string BranchChange::describe(const SimulationParams& base) const {
    std::string out;
    auto add = [&out](std::string_view key, double v) {
        if (!out.empty()) out += ", ";
        out += key;
        out += '=';
        out += formatNumber(v);
    };
    scene::AgentOverrides o = agentOverrides;
    AgentParams unused;
    scene::forEachAgentParam(o, unused, [&](const char* key, auto& override, auto&) {
        if (override) add(key, static_cast<double>(*override));
    });
    if (simulation) {
        for (const ParamRow& row : parameterTable(ParamScope::Simulation)) {
            const double v = row.getSimulation(*simulation);
            if (v != row.getSimulation(base)) add(row.name, v);
        }
    }
    if (out.empty()) out = "no change";
    if (!agents.empty() && !(agentOverrides == scene::AgentOverrides{})) {
        out += agents.size() == 1 ? " on agent " : " on agents ";
        for (std::size_t k = 0; k < agents.size(); ++k) {
            if (k) out += ", ";
            out += std::to_string(agents[k]);
        }
    }
    return out;
}

void applyChange(Simulator& sim, const BranchChange& change) {
    for (std::size_t i : change.agents) {
        if (i >= sim.agentCount())
            throw InvalidArgument("agent " + std::to_string(i) + " is out of range (the run has " +
                                  std::to_string(sim.agentCount()) + " agents)");
    }
    // All or nothing: put the simulator back if the simulator rejects a value.
    const SimulatorState before = sim.snapshot();
    try {
        if (change.simulation) sim.setParams(*change.simulation);
        if (!(change.agentOverrides == scene::AgentOverrides{})) {
            auto apply = [&](std::size_t i) {
                const AgentId id = sim.agentIdAt(i);
                AgentDef def = sim.agent(id);
                def.params = change.agentOverrides.appliedTo(def.params);
                sim.setAgent(id, def);
            };
            if (change.agents.empty()) {
                for (std::size_t i = 0; i < sim.agentCount(); ++i)
                    apply(i);
            } else {
                for (std::size_t i : change.agents)
                    apply(i);
            }
        }
    } catch (...) {
        sim.restore(before);
        throw;
    }
}

RunMetrics measureRun(const Simulator& sim, std::span<const Event> events, std::uint64_t from) {
    RunMetrics m;
    m.step = sim.stepCount();
    m.goalAgents = sim.goalAgentCount();
    m.agentsAtGoal = sim.atGoalCount();
    const ClearanceStats c = sim.clearance();
    m.overlappingPairs = c.overlappingPairs;
    m.minAgentClearance = c.minAgentClearance;
    const auto lp3 = sim.lastStepLp3();
    for (std::uint8_t f : lp3)
        m.lp3Agents += f;
    double speedSum = 0.0;
    std::size_t moving = 0;
    const auto vel = sim.velocities();
    for (std::size_t i = 0; i < vel.size(); ++i) {
        if (sim.isStaticAt(i)) continue;
        speedSum += length(vel[i]);
        ++moving;
    }
    m.meanSpeed = moving ? speedSum / static_cast<double>(moving) : 0.0;
    for (const Event& e : events) {
        if (e.step >= from && e.step <= m.step) ++m.eventCounts[static_cast<std::size_t>(e.kind)];
    }
    return m;
}

void Comparison::start(const Simulator& base, const BranchChange& change,
                       const HistoryParams& history) {
    Simulator branch;
    branch.setThreadCount(base.threadCount());
    branch.restore(base.snapshot());
    applyChange(branch, change); // throws before anything here changed
    m_branch = std::move(branch);
    m_change = change;
    m_from = base.stepCount();
    m_history = History(history);
    m_history.start(m_branch);
    m_active = true;
}

void Comparison::stop() {
    m_active = false;
    m_history = History(m_history.params());
    m_branch = Simulator();
}

void Comparison::follow(std::uint64_t step) {
    if (!m_active) return;
    step = std::max(step, m_from);
    if (m_branch.stepCount() == step) return;
    if (step <= m_history.lastStep()) {
        // Within the recording: one step on replays the same bits; anything else seeks.
        if (m_branch.stepCount() + 1 == step)
            m_branch.step();
        else
            m_history.seek(m_branch, step);
        return;
    }
    if (m_branch.stepCount() != m_history.lastStep())
        m_history.seek(m_branch, m_history.lastStep());
    while (m_branch.stepCount() < step) {
        m_branch.step();
        m_history.record(m_branch);
    }
}

RunMetrics Comparison::metrics() const {
    return measureRun(m_branch, m_history.events(), m_from);
}

} // namespace orca
