#pragma once
/// \file metrics_panel.hpp
/// The metrics panel: current values and plots over the last steps of clearance, overlaps,
/// agents at goal and LP3 agents.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace orca::ui {

struct MetricsSample {
    std::uint64_t step = 0;
    bool hasClearance = false; ///< clearance was measured for this step (panel open)
    /// min over agent pairs of |p_i - p_j| - r_i - r_j (+inf: no pair in range).
    double minClearance = std::numeric_limits<double>::infinity();
    std::size_t overlappingPairs = 0;
    std::size_t agentsAtGoal = 0;
    std::size_t goalAgents = 0;
    std::size_t lp3Agents = 0;
};

/// The last `capacity` samples, oldest first (a ring buffer).
class MetricsHistory {
  public:
    explicit MetricsHistory(std::size_t capacity = 600);
    void clear();
    void push(const MetricsSample& s);
    [[nodiscard]] std::size_t size() const { return m_size; }
    [[nodiscard]] std::size_t capacity() const { return m_buffer.size(); }
    /// i = 0 is the oldest kept sample.
    [[nodiscard]] const MetricsSample& at(std::size_t i) const;
    [[nodiscard]] const MetricsSample* latest() const { return m_size ? &at(m_size - 1) : nullptr; }

  private:
    std::vector<MetricsSample> m_buffer;
    std::size_t m_start = 0;
    std::size_t m_size = 0;
};

/// A clearance (negative: an overlap) as the panels print it: `decimals` decimals, except that
/// a nonzero value too small for them gets two significant digits ("-0.00042", "3e-05"), so a
/// small overlap never reads as 0.000. "-" when not finite.
[[nodiscard]] std::string formatClearance(double v, int decimals = 3);

/// The "Metrics" window: `current` holds the values for the current state (clearance
/// measured), `history` one sample per step.
void drawMetricsPanel(const MetricsSample& current, const MetricsHistory& history, bool* open);

} // namespace orca::ui
