#pragma once
/// \file diagnosis_rules.hpp
/// What the parts of the diagnosis share (diagnosis.cpp, diagnosis_configuration.cpp,
/// diagnosis_blocking.cpp): the context of one diagnosis, the helpers its sentences are written
/// with, and the class rules that diagnose() tries in order. Internal to core/src.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/diagnosis.hpp"
#include "orca/explain.hpp"
#include "orca/geometry.hpp"
#include "orca/simulator.hpp"

namespace orca::detail::diagnosis {

inline constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- Text ------------------------------------------------------------------------------------

/// A number for a sentence: three significant digits (plain notation up to 1e4), "-0" -> "0".
inline std::string num(double v) {
    if (std::isnan(v)) return "n/a";
    if (std::isinf(v)) return v > 0 ? "infinity" : "-infinity";
    char buf[32];
    if (std::fabs(v) >= 1e4)
        std::snprintf(buf, sizeof buf, "%.0f", v);
    else
        std::snprintf(buf, sizeof buf, "%.3g", v);
    std::string s = buf;
    if (s == "-0") s = "0";
    return s;
}

inline std::string vec(Vec2 v) {
    // Built by appending: GCC 12 warns (-Wrestrict, a false positive) on "(" + std::string&&.
    std::string s = "(";
    s += num(v.x);
    s += ", ";
    s += num(v.y);
    s += ')';
    return s;
}

inline std::string percent(double fraction) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.0f%%", 100.0 * fraction);
    return buf;
}

/// "agent 3", "agents 3 and 7", "agents 3, 7 and 9" (`word` = "agent" or "obstacle").
inline std::string list(const char* word, std::span<const std::uint32_t> items) {
    std::string s = word;
    if (items.size() != 1) s += 's';
    for (std::size_t k = 0; k < items.size(); ++k) {
        s += k == 0 ? " " : (k + 1 == items.size() ? " and " : ", ");
        s += std::to_string(items[k]);
    }
    return s;
}

/// `v` rounded up to two significant digits (suggested parameter values read well and stay on
/// the safe side).
inline double roundUp2(double v) {
    if (!(v > 0.0) || !std::isfinite(v)) return v;
    const double scale = std::pow(10.0, std::floor(std::log10(v)) - 1.0);
    return std::ceil(v / scale - 1e-9) * scale;
}

inline void pushUnique(std::vector<std::uint32_t>& v, std::uint32_t x) {
    if (std::find(v.begin(), v.end(), x) == v.end()) v.push_back(x);
}

// ---- The diagnosis ----------------------------------------------------------------------------

struct Context {
    const Simulator& sim;
    const DiagnosisParams& prm;
    Diagnosis& d;
    const ExplainRecord& rec;
    std::span<const AgentSample> recent;  ///< the crowd-pressure window (newest samples)
    std::span<const AgentSample> history; ///< every sample diagnose() uses (persistence)
    std::size_t i;
    AgentId id;
    std::vector<std::uint32_t> bindingAgents;    ///< agent lines, unique, line order
    std::vector<std::uint32_t> bindingObstacles; ///< obstacle lines, unique, line order

    [[nodiscard]] bool hindered() const {
        return d.prefSpeed > 0.0 && d.progress < prm.hinderedProgress;
    }
    [[nodiscard]] double timeStep() const { return sim.params().timeStep; }
    /// Stalled for at least stallSeconds (the blocking classes first; never none).
    [[nodiscard]] bool stalled() const {
        return d.stalledSeconds > 0.0 && d.stalledSeconds >= prm.stallSeconds - 1e-9;
    }
};

inline std::optional<std::uint32_t> obstacleIndex(const Simulator& sim, ObstacleId id) {
    for (std::size_t k = 0; k < sim.obstacleCount(); ++k)
        if (sim.obstacleIdAt(k) == id) return static_cast<std::uint32_t>(k);
    return std::nullopt;
}

/// The progress measure of one decision: dot(v_new, v̂_pref) / min(|v_pref|, maxSpeed).
inline double progressOf(Vec2 newVelocity, Vec2 prefVelocity, double maxSpeed) {
    const double prefSpeed = length(prefVelocity);
    const double reach = std::min(prefSpeed, maxSpeed);
    if (!(reach > 0.0)) return 1.0;
    return dot(newVelocity, prefVelocity) / prefSpeed / reach;
}

inline std::string agentName(std::size_t i) {
    return "Agent " + std::to_string(i);
}

// ---- The classes -----------------------------------------------------------------------------
//
// Each rule returns true, with the class, the sentence and the suggestion filled in, when its
// class applies; diagnose() tries them in the order of docs/diagnosis.md ("The classes and
// their precedence").

// Configuration classes (diagnosis_configuration.cpp).
bool goalCircling(Context& c);
bool shortHorizon(Context& c);
bool neighborTruncation(Context& c);

// Blocking classes (diagnosis_blocking.cpp).
bool symmetricDeadlock(Context& c);
bool staticWall(Context& c);
bool obstacleTrap(Context& c);
bool crowdPressure(Context& c);

// Jams (diagnosis_jams.cpp).
/// How long the agent has been stalled, from its history (Diagnosis::stalledSeconds).
double stalledSecondsOf(const Context& c);
bool bottleneckJam(Context& c);
/// `fallback`: the rule for a stalled agent that no other class explains (then it always
/// applies).
bool groupDeadlock(Context& c, bool fallback);

// Fixes (diagnosis_fixes.cpp): the class's suggestion as applicable fixes, best first.
void buildFixes(Context& c);

} // namespace orca::detail::diagnosis
