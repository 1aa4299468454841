#pragma once
/// \file agent_history.hpp
/// Per-agent history plots for the Inspector: speed, clearance (to the nearest agent), LP3 and
/// detour state over recorded steps, the current step marked; clicking a plot goes to that
/// step.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

namespace orca::ui {

/// One agent at one step (the state after that step).
struct AgentHistorySample {
    float speed = 0.0f;
    float clearance = 0.0f; ///< |p - p_j| - r - r_j over the other agents (world units)
    bool lp3 = false;       ///< LP3 chose the velocity of that step
    bool detour = false;    ///< following the detour field
    bool valid = false;     ///< collected (steps not collected yet are gaps)
};

struct AgentHistoryView {
    std::uint64_t first = 0; ///< step of samples[0]
    std::span<const AgentHistorySample> samples;
    std::uint64_t current = 0;
    float maxSpeed = 1.0f;
    std::size_t collected = 0; ///< valid samples (for the caption)
};

/// Draws the plots (inside the current window). Returns the step clicked, if any.
std::optional<std::uint64_t> drawAgentHistory(const AgentHistoryView& view);

/// The sample index under screen x for plots spanning [x0, x0 + width] over `count` samples.
[[nodiscard]] std::size_t historyIndexAt(double x, double x0, double width, std::size_t count);

} // namespace orca::ui
