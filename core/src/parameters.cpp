// The parameter table (parameters.hpp).
#include "orca/parameters.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>

namespace orca {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
/// Largest magnitude of any number in a scene file (scene-format.md: "within ±1e7").
constexpr double kFileMagnitude = 1e7;
/// The shortest time step (s).
constexpr double kMinTimeStep = 1e-6;
/// maxNeighbors is an int.
constexpr double kIntMax = std::numeric_limits<int>::max();

// ---- Ranges -------------------------------------------------------------------------------

constexpr ParamRange anyFinite() {
    return {};
}
constexpr ParamRange above(double min, double max = kInf) { // (min, max]
    return {min, max, true, false};
}
constexpr ParamRange atLeast(double min, double max = kInf) { // [min, max]
    return {min, max, false, false};
}
constexpr ParamRange flag() {
    return {0.0, 1.0, false, false};
}

// ---- Accessors ----------------------------------------------------------------------------

template <class T> T fromDouble(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0.0;
    } else if constexpr (std::is_same_v<T, int>) {
        return static_cast<int>(std::lround(v));
    } else {
        return v;
    }
}

template <auto M> constexpr double getSim(const SimulationParams& p) {
    return static_cast<double>(p.*M);
}
template <auto M> void setSim(SimulationParams& p, double v) {
    p.*M = fromDouble<std::remove_cvref_t<decltype(p.*M)>>(v);
}
template <auto M> constexpr double getDetour(const SimulationParams& p) {
    return static_cast<double>(p.detour.*M);
}
template <auto M> void setDetour(SimulationParams& p, double v) {
    p.detour.*M = fromDouble<std::remove_cvref_t<decltype(p.detour.*M)>>(v);
}
template <auto M> constexpr double getAgentParam(const AgentParams& p) {
    return static_cast<double>(p.*M);
}
template <auto M> void setAgentParam(AgentParams& p, double v) {
    p.*M = fromDouble<std::remove_cvref_t<decltype(p.*M)>>(v);
}

/// The kind of a member, from its type.
template <class T> constexpr ParamKind kindOf() {
    if constexpr (std::is_same_v<T, bool>) {
        return ParamKind::Boolean;
    } else if constexpr (std::is_same_v<T, int>) {
        return ParamKind::Integer;
    } else {
        static_assert(std::is_same_v<T, double>, "parameters are double, int or bool");
        return ParamKind::Real;
    }
}

// ---- Row builders -------------------------------------------------------------------------
// The kind, the accessors and the default all come from the member pointer.

template <auto M>
constexpr ParamRow simulationRow(std::string_view name, ParamRange range, ParamRange fileRange,
                                 std::string_view unit, std::string_view doc, ParamUi ui) {
    using T = std::remove_cvref_t<decltype(std::declval<SimulationParams&>().*M)>;
    ParamRow r{name, ParamScope::Simulation, kindOf<T>(), range, fileRange, unit, doc, ui};
    r.getSimulation = &getSim<M>;
    r.setSimulation = &setSim<M>;
    r.defaultValue = getSim<M>(SimulationParams{});
    return r;
}

template <auto M>
constexpr ParamRow detourRow(std::string_view name, ParamRange range, ParamRange fileRange,
                             std::string_view unit, std::string_view doc, ParamUi ui) {
    using T = std::remove_cvref_t<decltype(std::declval<DetourParams&>().*M)>;
    ParamRow r{name, ParamScope::Detour, kindOf<T>(), range, fileRange, unit, doc, ui};
    r.getSimulation = &getDetour<M>;
    r.setSimulation = &setDetour<M>;
    r.defaultValue = getDetour<M>(SimulationParams{});
    return r;
}

template <auto M>
constexpr ParamRow agentRow(std::string_view name, ParamRange range, ParamRange fileRange,
                            std::string_view unit, std::string_view doc, ParamUi ui) {
    using T = std::remove_cvref_t<decltype(std::declval<AgentParams&>().*M)>;
    ParamRow r{name, ParamScope::Agent, kindOf<T>(), range, fileRange, unit, doc, ui};
    r.getAgent = &getAgentParam<M>;
    r.setAgent = &setAgentParam<M>;
    r.defaultValue = getAgentParam<M>(AgentParams{});
    return r;
}

// ---- The table ----------------------------------------------------------------------------
// Order: member order within each struct (the scene file's key order). Ranges: what the
// Simulator accepts, then what a scene file accepts (every file number lies within ±1e7).

using SP = SimulationParams;
using DP = DetourParams;
using AP = AgentParams;

constexpr std::size_t kSimulationRows = 4;
constexpr std::size_t kDetourRows = 11;
constexpr std::size_t kAgentRows = 10;

constexpr std::array<ParamRow, kSimulationRows + kDetourRows + kAgentRows> kTable = {{
    // Simulation
    // At least a microsecond: the collision response scales relative positions by 1 / Δt and
    // squares them, which overflows (and the response vanishes) for Δt below about 1e-150.
    simulationRow<&SP::timeStep>("timeStep", atLeast(kMinTimeStep),
                                 atLeast(kMinTimeStep, kFileMagnitude), "s",
                                 "Δt: simulated seconds per step, running or single-stepped "
                                 "(at least 1e-6)",
                                 {"time step (s)", 0.001, 10.0, 0.0, 4}),
    simulationRow<&SP::responsibility>(
        "responsibility", above(0.0, 1.0), above(0.0, 1.0), "",
        "Share of the avoidance u an agent takes toward another agent (0.5 = reciprocal, as "
        "RVO2; 1 = all of it)",
        {"responsibility", 0.01, 1.0, 0.0, 3}),
    simulationRow<&SP::staticResponsibility>(
        "staticResponsibility", above(0.0, 1.0), above(0.0, 1.0), "",
        "Share of u taken toward static agents, which never reciprocate (0.5 = RVO2; 1 = "
        "avoid them fully)",
        {"static responsibility", 0.01, 1.0, 0.0, 3}),
    simulationRow<&SP::lp3BisectorWeight>(
        "lp3BisectorWeight", above(0.0), above(0.0, kFileMagnitude), "",
        "Weight w of LP3's projected-line direction normalize(w·d_j − d_i) (1 = RVO2's "
        "bisector)",
        {"LP3 bisector weight", 0.01, 100.0, 0.0, 3}),
    // Detour
    detourRow<&DP::enabled>("enabled", flag(), flag(), "",
                            "Detour flow field around static agents (off = plain RVO2)",
                            {"enabled (D)", 0.0, 1.0, 0.0, 0}),
    detourRow<&DP::cellSize>("cellSize", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
                             "Field cell size; 0 = 0.4 × the median radius of the source agents",
                             {"cell size", 0.0, 100.0, 0.0, 3}),
    detourRow<&DP::influenceRadius>(
        "influenceRadius", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
        "A source agent writes the cells within this distance; 0 = its radius + 2 × the "
        "median radius",
        {"influence radius", 0.0, 1000.0, 0.0, 3}),
    detourRow<&DP::enterSpeedRatio>(
        "enterSpeedRatio", atLeast(0.0, 1.0), atLeast(0.0, 1.0), "",
        "Enter detour when the speed ORCA chose is below this × the preferred speed...",
        {"enter speed ratio", 0.0, 1.0, 0.0, 3}),
    detourRow<&DP::enterGoalDistance>(
        "enterGoalDistance", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
        "...and the goal is farther than this; 0 = 4 × the agent's radius",
        {"enter goal distance", 0.0, 1000.0, 0.0, 3}),
    detourRow<&DP::sampleDistance>(
        "sampleDistance", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
        "The field is sampled this far toward the goal, averaging the cells within the same "
        "distance; 0 = the agent's radius (at least one cell)",
        {"sample distance", 0.0, 100.0, 0.0, 3}),
    detourRow<&DP::exitAlignedDegrees>(
        "exitAlignedDegrees", atLeast(0.0, 90.0), atLeast(0.0, 90.0), "deg",
        "Leave detour when its direction is within this angle of the direction to the goal",
        {"exit aligned (deg)", 0.0, 90.0, 0.0, 3}),
    detourRow<&DP::exitGoalDistance>(
        "exitGoalDistance", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
        "Leave detour when the goal is closer than this; 0 = 2 × the agent's radius",
        {"exit goal distance", 0.0, 1000.0, 0.0, 3}),
    detourRow<&DP::neighborFallback>(
        "neighborFallback", flag(), flag(), "",
        "When the field sample is empty, estimate a direction from nearby static agents",
        {"neighbour fallback", 0.0, 1.0, 0.0, 0}),
    detourRow<&DP::stillSpeed>("stillSpeed", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units/s",
                               "Agents without a goal (or at it) that move slower than this...",
                               {"still speed", 0.0, 100.0, 0.0, 3}),
    detourRow<&DP::stillSeconds>("stillSeconds", atLeast(0.0), atLeast(0.0, kFileMagnitude), "s",
                                 "...for at least this long feed the field like static agents",
                                 {"still seconds", 0.0, 1000.0, 0.0, 3}),
    // Agent
    agentRow<&AP::radius>("radius", above(0.0), above(0.0, kFileMagnitude), "units",
                          "Radius of the agent's disk", {"radius", 0.001, 1e4, 0.0, 3}),
    agentRow<&AP::maxSpeed>("maxSpeed", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units/s",
                            "Largest speed ORCA may choose: |v_new| ≤ maxSpeed",
                            {"max speed", 0.0, 1e4, 0.0, 3}),
    agentRow<&AP::prefSpeed>("prefSpeed", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units/s",
                             "Speed toward the goal: v_pref = goal − p clamped to this length",
                             {"pref speed", 0.0, 1e4, 0.0, 3}),
    agentRow<&AP::neighborDist>("neighborDist", atLeast(0.0), atLeast(0.0, kFileMagnitude), "units",
                                "Agents closer than this (centre to centre) can be neighbours",
                                {"neighbour dist", 0.0, 1e5, 0.0, 3}),
    agentRow<&AP::maxNeighbors>(
        "maxNeighbors", atLeast(0.0), atLeast(0.0, kIntMax), "",
        "At most this many nearest agents are considered (0 = ignore other agents)",
        {"max neighbours", 0.0, 10000.0, 0.2, 0}),
    agentRow<&AP::timeHorizon>("timeHorizon", above(0.0), above(0.0, kFileMagnitude), "s",
                               "τ: collisions with agents are avoided this far ahead",
                               {"time horizon (s)", 0.001, 1e4, 0.0, 3}),
    agentRow<&AP::timeHorizonObst>("timeHorizonObst", above(0.0), above(0.0, kFileMagnitude), "s",
                                   "τo: collisions with obstacles are avoided this far ahead",
                                   {"obst. horizon (s)", 0.001, 1e4, 0.0, 3}),
    agentRow<&AP::goalRadius>(
        "goalRadius", anyFinite(), atLeast(0.0, kFileMagnitude), "units",
        "At goal within this distance of it; negative (the default; a file leaves it out) = "
        "the agent's radius",
        {"goal radius", -1.0, 1e4, 0.0, 3}),
    agentRow<&AP::waypointRadius>(
        "waypointRadius", anyFinite(), atLeast(0.0, kFileMagnitude), "units",
        "A waypoint is reached within this distance of it; negative (the default; a file "
        "leaves it out) = twice the agent's radius",
        {"waypoint radius", -1.0, 1e4, 0.0, 3}),
    agentRow<&AP::avoidanceWeight>(
        "avoidanceWeight", atLeast(0.0), atLeast(0.0, kFileMagnitude), "",
        "Share of the avoidance this agent takes: toward a moving agent of weight w_B it "
        "takes w_A / (w_A + w_B) of u (with responsibility ½); 0 = never yields to an agent "
        "of positive weight; equal weights = responsibility",
        {"avoidance weight", 0.0, 10.0, 0.0, 3}),
}};

// A new member of a parameter struct breaks these on purpose: give it a row above (see
// docs/parameters.md), then add its name here.
constexpr bool kMembersCovered = [] {
    // routing is a string key of the scene's simulation block, not a row (scene/load.cpp).
    [[maybe_unused]] auto [timeStep, responsibility, staticResponsibility, lp3BisectorWeight,
                           detour, routing, deadlockBreaking] = SimulationParams{};
    [[maybe_unused]] auto [enabled, cellSize, influenceRadius, enterSpeedRatio, enterGoalDistance,
                           sampleDistance, exitAlignedDegrees, exitGoalDistance, neighborFallback,
                           stillSpeed, stillSeconds] = DetourParams{};
    [[maybe_unused]] auto [radius, maxSpeed, prefSpeed, neighborDist, maxNeighbors, timeHorizon,
                           timeHorizonObst, goalRadius, waypointRadius, avoidanceWeight] =
        AgentParams{};
    return true;
}();
static_assert(kMembersCovered);

/// Rows of each scope are contiguous, in this order.
constexpr bool scopesContiguous() {
    for (std::size_t i = 0; i < kTable.size(); ++i) {
        const ParamScope want = i < kSimulationRows                 ? ParamScope::Simulation
                                : i < kSimulationRows + kDetourRows ? ParamScope::Detour
                                                                    : ParamScope::Agent;
        if (kTable[i].scope != want || kTable[i].name.empty()) return false;
    }
    return true;
}
static_assert(scopesContiguous(), "keep the rows grouped by scope; count them right");

/// Text of a value in an error message, as the Simulator always wrote it (std::to_string).
std::string messageValue(const ParamRow& row, double v) {
    if (row.kind != ParamKind::Real && std::isfinite(v) && v == std::floor(v) &&
        std::fabs(v) < 9.0e18) {
        return std::to_string(static_cast<long long>(v));
    }
    // std::to_string's six decimals, unless they would hide the value ("0.000000" for 1e-161).
    if (v != 0.0 && std::isfinite(v) && std::fabs(v) < 1e-3) {
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.6g", v);
        return buf;
    }
    return std::to_string(v);
}

} // namespace

bool ParamRange::contains(double v) const {
    if (std::isnan(v)) return false;
    if (finite && !std::isfinite(v)) return false;
    if (hasMin() && (minOpen ? !(v > min) : !(v >= min))) return false;
    if (hasMax() && (maxOpen ? !(v < max) : !(v <= max))) return false;
    return true;
}

std::span<const ParamRow> parameterTable() {
    return kTable;
}

std::span<const ParamRow> parameterTable(ParamScope scope) {
    const std::span<const ParamRow> all = kTable;
    switch (scope) {
    case ParamScope::Simulation:
        return all.subspan(0, kSimulationRows);
    case ParamScope::Detour:
        return all.subspan(kSimulationRows, kDetourRows);
    case ParamScope::Agent:
        return all.subspan(kSimulationRows + kDetourRows, kAgentRows);
    }
    return {};
}

const ParamRow* findParameter(std::string_view name) {
    for (const ParamRow& row : kTable) {
        if (name == row.name) return &row;
        const std::string_view scope = scopeName(row.scope);
        if (name.size() == scope.size() + 1 + row.name.size() && name.starts_with(scope) &&
            name[scope.size()] == '.' && name.ends_with(row.name)) {
            return &row;
        }
    }
    return nullptr;
}

std::string_view scopeName(ParamScope scope) {
    switch (scope) {
    case ParamScope::Simulation:
        return "simulation";
    case ParamScope::Detour:
        return "detour";
    case ParamScope::Agent:
        return "agent";
    }
    return "?";
}

std::string_view kindName(ParamKind kind) {
    switch (kind) {
    case ParamKind::Real:
        return "real";
    case ParamKind::Integer:
        return "integer";
    case ParamKind::Boolean:
        return "boolean";
    }
    return "?";
}

std::string qualifiedName(const ParamRow& row) {
    return std::string(scopeName(row.scope)) + '.' + std::string(row.name);
}

std::string formatValue(double v) {
    if (std::isnan(v)) return "nan";
    if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
    char buf[32];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    std::string out(buf, r.ptr);
    // "1e+07" -> "1e7", "1e-05" -> "1e-5"
    const std::size_t e = out.find('e');
    if (e != std::string::npos) {
        std::string exponent = out.substr(e + 1);
        const bool negative = exponent[0] == '-';
        if (exponent[0] == '+' || exponent[0] == '-') exponent.erase(0, 1);
        while (exponent.size() > 1 && exponent[0] == '0')
            exponent.erase(0, 1);
        out = out.substr(0, e + 1) + (negative ? "-" : "") + exponent;
    }
    return out;
}

std::string formatRange(const ParamRange& range) {
    return std::string(range.minOpen || !range.hasMin() ? "(" : "[") + formatValue(range.min) +
           ", " + formatValue(range.max) + (range.maxOpen || !range.hasMax() ? ")" : "]");
}

double valueOf(const ParamRow& row, const SimulationParams& simulation, const AgentParams& agent) {
    return row.scope == ParamScope::Agent ? row.getAgent(agent) : row.getSimulation(simulation);
}

std::string requirement(const ParamRow& row) {
    const ParamRange& r = row.range;
    if (row.kind == ParamKind::Boolean) return "true or false";
    if (!r.hasMin() && !r.hasMax()) return "finite";
    if (r.hasMin() && r.hasMax()) return "in " + formatRange(r);
    // One-sided. The Simulator has always said "a finite number" for the simulation and
    // detour values but not for the agent ones; the texts are kept as they were.
    const std::string finite = r.finite && row.scope != ParamScope::Agent ? "a finite number " : "";
    if (r.hasMin()) return finite + (r.minOpen ? "> " : ">= ") + formatValue(r.min);
    return finite + (r.maxOpen ? "< " : "<= ") + formatValue(r.max);
}

std::string check(const ParamRow& row, double value) {
    // The texts are built only for an invalid value: the simulator checks every agent it adds.
    const auto subject = [&] {
        return row.scope == ParamScope::Agent    ? "agent " + std::string(row.name)
               : row.scope == ParamScope::Detour ? "detour." + std::string(row.name)
                                                 : std::string(row.name);
    };
    const auto shown = [&] {
        return " (" + std::string(row.name) + " = " + messageValue(row, value) + ")";
    };
    if (row.kind == ParamKind::Boolean) {
        if (value == 0.0 || value == 1.0) return {};
        return subject() + " must be " + requirement(row) + shown();
    }
    const ParamRange& r = row.range;
    if (!r.contains(value)) {
        if (!r.hasMin() && !r.hasMax()) return subject() + " is not finite";
        return subject() + " must be " + requirement(row) + shown();
    }
    if (row.kind == ParamKind::Integer &&
        (value != std::floor(value) ||
         value < static_cast<double>(std::numeric_limits<int>::min()) || value > kIntMax)) {
        return subject() + " must be an integer" + shown();
    }
    return {};
}

std::string checkSimulationParams(const SimulationParams& params) {
    for (const ParamRow& row : kTable) {
        if (row.scope == ParamScope::Agent) continue;
        std::string error = check(row, row.getSimulation(params));
        if (!error.empty()) return error;
    }
    return {};
}

std::string checkAgentParams(const AgentParams& params) {
    for (const ParamRow& row : parameterTable(ParamScope::Agent)) {
        std::string error = check(row, row.getAgent(params));
        if (!error.empty()) return error;
    }
    return {};
}

} // namespace orca
