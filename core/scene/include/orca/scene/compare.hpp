#pragma once
/// \file compare.hpp
/// "What changes if τ were 5?": a branch of a run, split off at a step with changed parameters
/// and run in lockstep with the original, and the two runs' metrics side by side.
///
/// Target `orca_scene` (parameter names come from the scene format's one table,
/// scene::forEachAgentParam).

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/events.hpp"
#include "orca/history.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca {

/// The parameters a branch changes.
struct BranchChange {
    /// Replaces the simulation parameters (Δt, responsibility, ...), when set.
    std::optional<SimulationParams> simulation;
    /// Applied to the agents listed in `agents` (every agent when the list is empty).
    scene::AgentOverrides agentOverrides;
    std::vector<std::size_t> agents;

    /// True when nothing would change.
    [[nodiscard]] bool empty() const;
    /// Parses one "name=value" assignment: an agent parameter (radius, maxSpeed, prefSpeed,
    /// neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, goalRadius; also "tau" for
    /// timeHorizon) or a simulation one (timeStep, responsibility, staticResponsibility,
    /// lp3BisectorWeight), starting from `base` for the latter. False with `error` set when the
    /// name is unknown, the value is not a finite number, lies outside the range a scene file
    /// accepts for it (the parameter table's file range: radius=1e308 or maxNeighbors=-1 are
    /// refused as they are in a file) or is not an integer for maxNeighbors.
    bool set(std::string_view assignment, const SimulationParams& base, std::string& error);
    /// "timeHorizon=5 on agents 1, 2" — for titles and logs; simulation parameters are listed
    /// where they differ from `base`.
    [[nodiscard]] std::string describe(const SimulationParams& base) const;
};

/// Applies a change to a simulator. Throws InvalidArgument (the simulator's message) for a
/// value the simulator rejects or an agent index out of range; then nothing was changed.
void applyChange(Simulator& sim, const BranchChange& change);

/// One run's numbers at its current step.
struct RunMetrics {
    std::uint64_t step = 0;
    std::size_t goalAgents = 0;
    std::size_t agentsAtGoal = 0;
    std::size_t overlappingPairs = 0;
    /// Smallest agent-pair clearance (negative = overlap depth); +inf when no pair is near.
    double minAgentClearance = 0.0;
    std::size_t lp3Agents = 0; ///< in the last step
    double meanSpeed = 0.0;    ///< over non-static agents
    /// Events up to this step, per EventKind.
    std::array<std::size_t, kEventKindCount> eventCounts{};
};

/// Measures `sim` now; counts the events of `events` up to sim.stepCount() (and from `from`).
[[nodiscard]] RunMetrics measureRun(const Simulator& sim, std::span<const Event> events,
                                    std::uint64_t from = 0);

/// A branch run beside an original one. The branch has its own simulator and recording; the
/// original is not touched.
class Comparison {
  public:
    /// Splits a branch off `base` at its current step with `change` applied (throws
    /// InvalidArgument as applyChange does; then the comparison stays as it was).
    void start(const Simulator& base, const BranchChange& change,
               const HistoryParams& history = {});
    void stop();
    [[nodiscard]] bool active() const { return m_active; }
    /// The step the branch split off at.
    [[nodiscard]] std::uint64_t fromStep() const { return m_from; }
    [[nodiscard]] const BranchChange& change() const { return m_change; }
    /// Brings the branch to `step` (the original's current step): steps and records past its
    /// head, seeks within its recording; a step before the split clamps to the split.
    void follow(std::uint64_t step);
    [[nodiscard]] const Simulator& branch() const { return m_branch; }
    [[nodiscard]] const History& history() const { return m_history; }
    /// The branch's metrics now (events counted from the split).
    [[nodiscard]] RunMetrics metrics() const;

  private:
    bool m_active = false;
    std::uint64_t m_from = 0;
    BranchChange m_change;
    Simulator m_branch;
    History m_history;
};

} // namespace orca
