#pragma once
// `orca run --record --events`: the sandbox's loop around each step without a window. The app
// records every step at the head (orca::History with its default parameters: keyframes every
// few steps, events detected as it records); --events without --record runs an EventDetector
// alone. Both are timed apart from the step, so a run compares the bare step with the loop.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "cli_common.hpp"
#include "orca/events.hpp"
#include "orca/history.hpp"
#include "orca/simulator.hpp"

namespace orca::cli {

class RunLoop {
  public:
    /// `record`: keep a History (memoryBudget = `budget` when given); `events`: detect events
    /// (inside the History when recording, else with an EventDetector). Starts on `sim`'s
    /// current state (the events that already hold are reported at its step).
    RunLoop(const Simulator& sim, bool record, std::optional<std::uint64_t> budget, bool events);

    /// After each sim.step(): records the state and detects its events, each timed.
    void afterStep(const Simulator& sim);

    /// True when it detects events (then events() is the run's events so far).
    [[nodiscard]] bool detectsEvents() const { return m_events; }
    /// The events detected so far, ordered by step (the ones `orca events` prints).
    [[nodiscard]] const std::vector<Event>& events() const;

    /// Adds "loopMs" {"step", "record", "events"} (means per step in ms; "step" from
    /// `stepMs`, the others only when on), "history" {bytes, keyframeBytes, keyframes,
    /// keyframeInterval, firstStep, lastStep, budget} with --record and "events" {count,
    /// byKind} with --events.
    void addTo(Json& j, const std::vector<double>& stepMs) const;

  private:
    bool m_events = false;
    std::optional<History> m_history;
    EventDetector m_detector;      ///< --events without --record
    std::vector<Event> m_detected; ///< its events
    double m_recordMs = 0.0;       ///< total time of History::recordState
    double m_eventsMs = 0.0;       ///< total time of detection
    std::uint64_t m_steps = 0;     ///< afterStep() calls
};

} // namespace orca::cli
