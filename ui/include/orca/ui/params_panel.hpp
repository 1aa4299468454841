#pragma once
/// \file params_panel.hpp
/// The parameters panel: simulation parameters and every parameter of the selected agent(s).
/// It only draws and reports edits; the app applies them (to the simulator and the scene).

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "orca/parameters.hpp"
#include "orca/types.hpp"

namespace orca::ui {

/// An editable per-agent value.
enum class AgentField : std::uint8_t {
    Radius,
    MaxSpeed,
    PrefSpeed,
    NeighborDist,
    MaxNeighbors,
    TimeHorizon,
    TimeHorizonObst,
    GoalRadius,
    WaypointRadius,
    AvoidanceWeight,
    Static,
    HasGoal,      ///< flag: v_pref from a goal (true) or constant (false)
    Goal,         ///< vec (sets HasGoal)
    PrefVelocity, ///< vec (clears HasGoal)
    Count,
};

/// Settings-style name of a field, e.g. "maxSpeed".
[[nodiscard]] const char* fieldName(AgentField f);

/// One edit of the selected agents: the field and its new value (`number`, `vec` or `flag`
/// depending on the field).
struct AgentEdit {
    AgentField field = AgentField::Radius;
    double number = 0.0;
    Vec2 vec{0.0, 0.0};
    bool flag = false;
};

/// Applies an edit to an agent definition. Switching to "has goal" without a goal puts the
/// goal at the agent's position; switching to constant v_pref keeps the current v_pref.
void applyAgentEdit(AgentDef& def, const AgentEdit& edit, Vec2 currentPrefVelocity = {0.0, 0.0});
/// Whether two definitions agree on `field` (multi-selection shows "mixed" when not).
[[nodiscard]] bool sameField(const AgentDef& a, const AgentDef& b, AgentField field);

/// How the panel draws one row of the parameter table (orca/parameters.hpp) showing `value`:
/// everything comes from the row, so the panel cannot drift from the table.
struct ParamWidget {
    std::string label; ///< row.ui.label
    double min = 0.0;  ///< drag range: row.ui.min .. row.ui.max
    double max = 0.0;
    float speed = 0.0f;  ///< row.ui.speed, or 0.5 % of |value| (at least 0.001) when that is 0
    std::string format;  ///< "%d" for an integer, else "%.Nf" with N = row.ui.decimals
    std::string tooltip; ///< the doc, then unit, valid range and default
};
[[nodiscard]] ParamWidget paramWidget(const ParamRow& row, double value);

/// The agent field of an Agent row of the table (by name); Count for any other row.
[[nodiscard]] AgentField agentFieldOf(const ParamRow& row);

struct ParamsPanelInput {
    SimulationParams simulation;
    int threads = 1;
    int maxThreads = 1;
    std::size_t selectedCount = 0;
    std::size_t primaryIndex = 0; ///< agent-order index of the primary selected agent
    std::string primaryName;      ///< its user id from the scene file, if any
    AgentDef primary;             ///< values shown (the primary agent's)
    std::uint32_t mixedMask = 0;  ///< bit (1 << field): selected agents differ
    std::string error;            ///< the last rejected edit, shown in red
};

struct ParamsPanelOutput {
    std::optional<SimulationParams> simulation;
    std::optional<int> threads;
    std::optional<AgentEdit> agent;
};

/// The "Parameters" window. At most one edit is reported per frame.
ParamsPanelOutput drawParamsPanel(const ParamsPanelInput& in, bool* open);

} // namespace orca::ui
