#pragma once
/// \file fixes.hpp
/// Fixes a diagnosis proposes, as data that can be applied: a parameter value, a goal moved,
/// waypoints, the routing, deadlock breaking, an obstacle moved. A fix is a list of edits
/// applied together (a wider gap *and* a lane for each flow). The same fix applies to a
/// Simulator from its current state (the app's Try fix, a Compare branch) and to a scene file
/// from step 0 (orca_scene's applyFix, `orca diagnose --fix-out`); docs/diagnosis.md, "Fixes".
///
/// Indices are agent and obstacle positions in the simulator's order (= file order for a scene
/// built by buildSimulator).

#include <cstdint>
#include <string>
#include <vector>

#include "orca/simulator.hpp"

namespace orca {

/// One change.
struct FixEdit {
    enum class Kind : std::uint8_t {
        /// An agent parameter (`parameter`, a row name of parameters.hpp) set to `value` for
        /// `agents` (empty = every agent: in a scene, agentDefaults, dropping the overrides of
        /// that key).
        AgentParameter,
        /// A simulation or detour parameter (`parameter`, e.g. "detour.enabled") set to `value`.
        SimulationParameter,
        /// `agent`'s route after its first `kept` waypoints (those it had reached when the fix
        /// was made) replaced by `points` (then its goal).
        Waypoints,
        /// `agent`'s goal moved to points[0].
        MoveGoal,
        /// "routing" set to `routing`.
        Routing,
        /// "deadlockBreaking" set to `on`.
        DeadlockBreaking,
        /// Obstacle `obstacle` replaced by `points` (same vertex count, moved).
        Obstacle,
    };
    Kind kind = Kind::AgentParameter;
    std::string parameter;
    double value = 0.0;
    std::vector<std::uint32_t> agents;
    std::uint32_t agent = 0;
    std::uint32_t obstacle = 0;
    std::uint32_t kept = 0; ///< Waypoints: leading waypoints kept
    std::vector<Vec2> points;
    Routing routing = Routing::Straight;
    bool on = false;
};

/// A fix: what it does in words and its edits.
struct DiagnosisFix {
    /// One line for a button or a report, e.g. "maxNeighbors 10 → 15 for every agent".
    std::string label;
    std::vector<FixEdit> edits;
};

/// Applies every edit to `sim` from its current state (positions, velocities and the clock are
/// kept). Throws InvalidArgument (the simulator's message) for an edit it rejects (an index out
/// of range, a value out of range); edits before it have then been applied.
void applyFix(Simulator& sim, const DiagnosisFix& fix);

} // namespace orca
