#pragma once
// `orca run --record --events`: the sandbox's loop around each step without a window. The app
// records every step at the head (orca::History with its default parameters: keyframes every
// few steps, events detected as it records); --events without --record runs an EventDetector
// alone. Both are timed apart from the step, so a run compares the bare step with the loop.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
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

    /// True when it detects events (then newEvents() are the last state's).
    [[nodiscard]] bool detectsEvents() const { return m_events; }
    /// The events of the state the last afterStep() (or the constructor) saw — the ones
    /// `orca events` prints for it. Without --record they are not kept past the next step;
    /// with it the History keeps them (its own memory rule).
    [[nodiscard]] std::span<const Event> newEvents() const;

    /// Adds "loopMs" {"step", "record", "events"} (means per step in ms; "step" is
    /// `stepMeanMs`, the others only when on), "history" {bytes, keyframeBytes, keyframes,
    /// keyframeInterval, firstStep, lastStep, budget} with --record and "events" {count,
    /// byKind} with --events.
    void addTo(Json& j, double stepMeanMs) const;

  private:
    /// Finds the events of `sim`'s state (the last ones detected) and counts them.
    void takeNewEvents(const Simulator& sim);

    bool m_events = false;
    std::optional<History> m_history;
    EventDetector m_detector;      ///< --events without --record
    std::vector<Event> m_detected; ///< its events of the last state
    std::size_t m_newBegin = 0;    ///< newEvents() in the History's or m_detected's events
    std::size_t m_newEnd = 0;
    std::array<std::uint64_t, kEventKindCount> m_byKind{}; ///< every event so far, per kind
    double m_recordMs = 0.0;                               ///< total time of History::recordState
    double m_eventsMs = 0.0;                               ///< total time of detection
    std::uint64_t m_steps = 0;                             ///< afterStep() calls
};

} // namespace orca::cli
