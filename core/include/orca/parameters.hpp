#pragma once
/// \file parameters.hpp
/// The parameter table: one row per parameter of SimulationParams (its DetourParams included)
/// and of AgentParams, with its JSON name, scope, accessors, valid range, kind, default, unit,
/// one-line doc and the Parameters panel's label and drag range. The Simulator's validation,
/// the scene loader and saver, the linter, `orca compare --set`, the Parameters panel and
/// `orca params` read it; tests hold the scene JSON Schema and scripts/make_scenes.py to it.
/// Adding a parameter: docs/parameters.md.
///
/// Target `orca_core`.

#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "orca/types.hpp"

namespace orca {

/// Which struct (and scene block) a parameter belongs to.
enum class ParamScope : std::uint8_t {
    Simulation, ///< a SimulationParams member: the scene's "simulation" block
    Detour,     ///< a DetourParams member (SimulationParams::detour): the "detour" block
    Agent,      ///< an AgentParams member: "agentDefaults" and each agent
};

/// The C++ type behind a parameter; the table carries every value as a double (booleans as 0
/// or 1, integers exactly).
enum class ParamKind : std::uint8_t {
    Real,    ///< double
    Integer, ///< int
    Boolean, ///< bool
};

/// A set of accepted values: an interval whose infinite ends mean "no bound on that side", and
/// (always, today) only finite values.
struct ParamRange {
    double min = -std::numeric_limits<double>::infinity();
    double max = std::numeric_limits<double>::infinity();
    bool minOpen = false; ///< min itself is excluded
    bool maxOpen = false; ///< max itself is excluded
    bool finite = true;   ///< NaN and ±inf are rejected

    [[nodiscard]] constexpr bool hasMin() const {
        return min != -std::numeric_limits<double>::infinity();
    }
    [[nodiscard]] constexpr bool hasMax() const {
        return max != std::numeric_limits<double>::infinity();
    }
    /// Whether `v` lies in the range (NaN never does).
    [[nodiscard]] bool contains(double v) const;
};

/// How the Parameters panel shows a row: its label and a drag range that stays within the
/// valid range (a soft range: typing a value is still bounded by it).
struct ParamUi {
    std::string_view label; ///< e.g. "time step (s)"
    double min = 0.0;
    double max = 0.0;
    /// Drag speed per pixel; 0 = proportional to the value (0.5 % of it, at least 0.001).
    double speed = 0.0;
    int decimals = 3; ///< shown decimals of a real value
};

/// One parameter.
struct ParamRow {
    std::string_view name; ///< JSON key within its block, e.g. "timeStep", "cellSize"
    ParamScope scope = ParamScope::Simulation;
    ParamKind kind = ParamKind::Real;
    ParamRange range;      ///< what the Simulator accepts
    ParamRange fileRange;  ///< what a scene file accepts (the JSON Schema's bounds)
    std::string_view unit; ///< "s", "units", "units/s", "deg" or "" (a ratio, count or flag)
    std::string_view doc;  ///< one line
    ParamUi ui;
    /// Accessors of a Simulation or Detour row (null for an Agent row).
    double (*getSimulation)(const SimulationParams&) = nullptr;
    void (*setSimulation)(SimulationParams&, double) = nullptr;
    /// Accessors of an Agent row (null otherwise). Integers are rounded, booleans are v != 0.
    double (*getAgent)(const AgentParams&) = nullptr;
    void (*setAgent)(AgentParams&, double) = nullptr;
    /// The struct's in-class default, read through the accessor (so it cannot drift). A
    /// default outside fileRange is a sentinel that a scene file writes by leaving the key
    /// out (goalRadius: negative = the agent's radius).
    double defaultValue = 0.0;
};

/// Every row: Simulation rows, then Detour rows, then Agent rows, each in the struct's
/// member order (which is also the scene file's key order).
[[nodiscard]] std::span<const ParamRow> parameterTable();
/// The rows of one scope, in member order.
[[nodiscard]] std::span<const ParamRow> parameterTable(ParamScope scope);
/// A row by JSON name ("timeStep", "cellSize", "radius") or by qualified name
/// ("simulation.timeStep", "detour.cellSize", "agent.radius"); null when there is none.
[[nodiscard]] const ParamRow* findParameter(std::string_view name);

/// "simulation", "detour" or "agent".
[[nodiscard]] std::string_view scopeName(ParamScope scope);
/// "real", "integer" or "boolean".
[[nodiscard]] std::string_view kindName(ParamKind kind);
/// "simulation.timeStep", "detour.cellSize", "agent.radius".
[[nodiscard]] std::string qualifiedName(const ParamRow& row);
/// The range in interval notation, e.g. "(0, 1]", "[0, inf)", "(-inf, inf)".
[[nodiscard]] std::string formatRange(const ParamRange& range);
/// Shortest text that reads back exactly ("0.25", "1e+07", "inf").
[[nodiscard]] std::string formatValue(double v);

/// The value of `row` in the structs (Simulation and Detour rows read `simulation`, Agent
/// rows read `agent`).
[[nodiscard]] double valueOf(const ParamRow& row, const SimulationParams& simulation,
                             const AgentParams& agent);

/// What a valid value is, as the error texts say it after "must be": "a finite number > 0",
/// "in (0, 1]", "in [0, 90]" (Simulation and Detour rows), "> 0", ">= 0" (Agent rows, whose
/// messages never said "a finite number"), "true or false"; "finite" for a row without bounds.
[[nodiscard]] std::string requirement(const ParamRow& row);

/// Empty when `value` is valid for `row` (in range, integral for an Integer row, 0 or 1 for a
/// Boolean one); otherwise the Simulator's error text, e.g.
/// "timeStep must be a finite number > 0 (timeStep = 0.000000)",
/// "detour.enterSpeedRatio must be in [0, 1] (enterSpeedRatio = 1.500000)",
/// "agent radius must be > 0 (radius = -1.000000)", "agent goalRadius is not finite".
[[nodiscard]] std::string check(const ParamRow& row, double value);
/// The first error of the Simulation and Detour rows, in table order (empty when all valid).
[[nodiscard]] std::string checkSimulationParams(const SimulationParams& params);
/// The first error of the Agent rows, in table order (empty when all valid).
[[nodiscard]] std::string checkAgentParams(const AgentParams& params);

} // namespace orca
