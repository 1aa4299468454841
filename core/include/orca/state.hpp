#pragma once
/// \file state.hpp
/// A full snapshot of a Simulator (Simulator::snapshot / restore): plain data, copyable.
///
/// A snapshot has two parts. The *configuration* (simulation parameters, agent order and
/// generational ids, per-agent parameters, goals, waypoints, constant preferred velocities, static
/// flags, obstacles and their ids) changes only when something is edited, so consecutive snapshots
/// of one run share it through a pointer. The *dynamics* (clock, positions, velocities, detour
/// modes, reasons and still timers, route progress, the last step's LP3 flags and counters) are
/// copied every time. Restoring a snapshot and stepping gives the same bits as never having left.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "orca/simulator.hpp"

namespace orca {

/// A Simulator::stateHash() as printed everywhere (CLI summaries, the app's state dump): 16
/// lower-case hex digits.
[[nodiscard]] std::string formatStateHash(std::uint64_t hash);

struct SimulatorState {
    /// Everything but the per-step dynamics. Compared bit for bit (0.0 and -0.0 differ) to
    /// decide whether two snapshots can share it.
    struct Config {
        SimulationParams params;
        std::vector<Vec2> prefVelocity;
        std::vector<Vec2> goal;
        std::vector<std::vector<Vec2>> waypoints;
        std::vector<AgentParams> agentParams;
        std::vector<std::uint8_t> hasGoal;
        std::vector<std::uint8_t> isStatic;
        std::vector<AgentId> ids;
        SlotTable agentSlots;
        double neighborDistSum = 0.0;
        std::size_t neighborDistCount = 0;
        std::uint64_t agentsVersion = 0;
        std::vector<std::vector<Vec2>> obstacles;
        std::vector<ObstacleId> obstacleIds;
        SlotTable obstacleSlots;
        /// The simulator's configuration revision when it was taken (0 = unknown): two
        /// configurations with the same non-zero revision hold the same bits, so a snapshot
        /// shares its predecessor's without comparing them.
        std::uint64_t revision = 0;

        /// Bytes held (vectors' sizes, not capacities).
        [[nodiscard]] std::size_t bytes() const;
        /// True when both hold the same bits.
        [[nodiscard]] bool sameBits(const Config& other) const;
    };

    std::shared_ptr<const Config> config;

    double time = 0.0;
    std::uint64_t stepCount = 0;
    StepStats lastStats;
    std::vector<Vec2> position;
    std::vector<Vec2> velocity;
    std::vector<std::uint8_t> detourMode;     ///< per agent (empty, with detourReason: all 0)
    std::vector<std::uint8_t> detourReason;   ///< per agent (empty with detourMode)
    std::vector<double> stillSeconds;         ///< detour still timers (empty: all 0)
    std::vector<std::uint32_t> routeProgress; ///< waypoints reached, per agent (empty: all 0)
    std::vector<double> stallSeconds;         ///< deadlock breaking's stall timers (empty: all 0)
    std::vector<std::uint8_t> lastLp3;        ///< empty when the simulator had none

    [[nodiscard]] std::size_t agentCount() const { return position.size(); }
    /// Bytes the dynamic part holds (what each further snapshot of a run costs): its arrays'
    /// capacities, which exceed their sizes in memory reused from a bigger crowd.
    [[nodiscard]] std::size_t dynamicBytes() const;
    /// Dynamic bytes plus the configuration's.
    [[nodiscard]] std::size_t bytes() const;
};

} // namespace orca
