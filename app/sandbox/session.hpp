#pragma once
// The session part of the sandbox's context: the running simulation, its clock and timing,
// and the version counter every cache of the simulation's state follows.

#include <cstdint>

#include "orca/simulator.hpp"
#include "orca/ui/metrics_panel.hpp"

#include "cache_stamp.hpp"
#include "sim_clock.hpp"

namespace orca::app {

/// Exponential moving average plus totals (for --frames reports).
struct TimingStat {
    double average = 0.0; ///< ms, smoothed
    double total = 0.0;   ///< ms
    std::uint64_t count = 0;
    void add(double ms) {
        average = average == 0.0 ? ms : average + 0.05 * (ms - average);
        total += ms;
        ++count;
    }
    [[nodiscard]] double mean() const { return count ? total / static_cast<double>(count) : 0.0; }
};

struct Session {
    Simulator sim;
    int threads = 1;
    /// Bumped whenever the simulator's state changes (step, edit, load, restart): caches
    /// (explain records, hover tooltip, metrics, Why?, Compare) are stale against it.
    std::uint64_t stateVersion = 0;

    // Simulation control. One clock; single steps use the same Δt.
    bool running = false;
    ClockSettings clockSettings;
    SimClock clock;
    int pendingSingleSteps = 0;

    // Metrics of the run: one sample per step, and the current state's (Metrics panel).
    ui::MetricsHistory metricsHistory;
    VersionedCache<ui::MetricsSample> metricsNow;

    TimingStat stepTiming;  ///< CPU time of Simulator::step()
    TimingStat frameTiming; ///< CPU time to build a frame (ImGui NewFrame .. Render)
};

} // namespace orca::app
