#pragma once
// The pass over a recording's frames that the sandbox runs in the background (docs/sandbox.md,
// "Recordings"), without the app: the event detector on the recorded states and the conformance
// check (orca::ConformanceChecker, frame by frame as `orca conform` runs it), whose deviations
// become events, with snapshots of the checker's shadow every few frames. And the decision
// state of any frame: the shadow of a checker that followed the frames up to it, restored from
// the nearest snapshot and replayed (DecisionState).

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/conformance.hpp"
#include "orca/events.hpp"
#include "orca/explain.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace orca::app {

/// The options `orca conform` checks `rec` with by default: scene::defaultTolerance (by the
/// precision of its numbers); every deviation kept (each becomes an event).
[[nodiscard]] ConformanceOptions appConformanceOptions(const scene::Recording& rec);

/// The conformance checker's shadow after frame `frame` (its positions and velocities, what the
/// recording does not hold as the check followed it): a check resumes there (DecisionState).
struct ShadowSnapshot {
    std::size_t frame = 0;
    std::size_t scene = 0; ///< the frame's configuration (scene record)
    SimulatorState state;
};

/// The background pass, frame by frame: for frame k, first the conformance check of the
/// velocities it recorded (each deviating agent-step becomes a deviation event filed at frame
/// k − 1, where its decision was made: ui/event_kinds.hpp), then the event detector on its state
/// (the configuration as recorded, goals included: overlaps, obstacle penetrations, stalls and
/// arrivals; LP3 spells, oscillations, detours and waypoints are facts of the recording
/// program's own steps, which a recording does not hold). So the events stay ordered by frame.
/// Each event's `step` is a frame index (the timeline's position); the detector's clock is the
/// recorded step, so its timers follow the recorded time.
///
/// Snapshots of the shadow are kept at every `interval`-th frame; when they hold more than the
/// budget, every other one goes and the interval doubles, so memory stays bounded (about half
/// the budget to the whole of it) whatever the recording's length.
class RecordingAnalysis {
  public:
    /// Deviation events listed at most (more are counted in the report, not listed).
    static constexpr std::size_t kMaxDeviationEvents = 100'000;
    static constexpr std::size_t kDefaultSnapshotBudget = std::size_t{64} << 20;
    static constexpr std::size_t kDefaultSnapshotInterval = 8;

    RecordingAnalysis() = default;
    /// `threads` for the shadow's steps (the results are the same for any count).
    explicit RecordingAnalysis(ConformanceOptions options, int threads = 1,
                               std::size_t snapshotBudget = kDefaultSnapshotBudget,
                               std::size_t snapshotInterval = kDefaultSnapshotInterval);

    /// Observes frames until all are done or `budget` has passed (at least one frame). True
    /// when every frame has been observed.
    bool advance(const scene::Recording& rec, std::chrono::steady_clock::duration budget);
    /// Observes frames until frame `frame` is (or every frame, or a failure). True when it is.
    bool advanceTo(const scene::Recording& rec, std::size_t frame);
    [[nodiscard]] bool done(const scene::Recording& rec) const {
        return m_next >= rec.frames.size() || m_failed;
    }
    [[nodiscard]] std::size_t framesObserved() const { return m_next; }
    /// The detector's events and the deviations, ordered by frame.
    [[nodiscard]] const std::vector<Event>& events() const { return m_events; }
    /// The conformance check so far (`deviations`: every deviating agent-step).
    [[nodiscard]] const ConformanceReport& report() const { return m_checker.report(); }
    [[nodiscard]] double tolerance() const { return m_checker.options().tolerance; }
    [[nodiscard]] int threads() const { return m_threads; }
    /// Why the pass stopped early ("" when it did not).
    [[nodiscard]] const std::string& error() const { return m_error; }

    /// The latest snapshot at or before `frame` (frames observed only), or null.
    [[nodiscard]] const ShadowSnapshot* snapshotAtOrBefore(std::size_t frame) const;
    [[nodiscard]] std::span<const ShadowSnapshot> snapshots() const { return m_snapshots; }
    [[nodiscard]] std::size_t snapshotInterval() const { return m_interval; }
    /// Bytes the snapshots hold (dynamic parts, and each distinct configuration once).
    [[nodiscard]] std::size_t snapshotBytes() const { return m_snapshotBytes; }

  private:
    void observe(const scene::Recording& rec);
    void keepSnapshot(std::size_t frame, std::size_t scene);
    void recountSnapshotBytes();

    ConformanceChecker m_checker{ConformanceOptions{}};
    int m_threads = 1;
    std::size_t m_checkScene = ~std::size_t{0};
    std::size_t m_deviationsSeen = 0;
    std::size_t m_deviationEvents = 0;
    std::vector<ShadowSnapshot> m_snapshots;
    std::size_t m_snapshotBudget = kDefaultSnapshotBudget;
    std::size_t m_interval = kDefaultSnapshotInterval;
    std::size_t m_snapshotBytes = 0;

    std::optional<Simulator> m_sim; ///< the detector's (the configuration as recorded)
    std::size_t m_scene = ~std::size_t{0};
    EventDetector m_detector;
    std::size_t m_next = 0;
    std::vector<Event> m_events;
    std::vector<Event> m_scratch;
    bool m_failed = false;
    std::string m_error;
};

/// The state the decision from a frame is made from, as the conformance check has it: the
/// shadow of a ConformanceChecker that followed frames 0..k. Playing forward feeds it one frame;
/// any other move restores the analysis's nearest snapshot at or before k and replays the
/// frames after it with a fresh checker (the analysis first observes frames up to k).
class DecisionState {
  public:
    /// Moves to frame `k`. Throws what building a configuration throws (SceneError,
    /// InvalidArgument), and std::runtime_error when the analysis failed before frame k.
    void moveTo(const scene::Recording& rec, RecordingAnalysis& analysis, std::size_t k);
    /// The shadow after the frame moved to (before its decision's preferred velocities).
    [[nodiscard]] const Simulator& shadow() const { return m_checker->shadow(); }
    [[nodiscard]] std::optional<std::size_t> frame() const { return m_frame; }
    /// Frames fed to the checker by the last moveTo (1 when playing forward).
    [[nodiscard]] std::size_t replayed() const { return m_replayed; }

  private:
    void feed(const scene::Recording& rec, std::size_t k, int threads);

    std::optional<ConformanceChecker> m_checker;
    std::optional<std::size_t> m_frame;
    std::size_t m_scene = ~std::size_t{0};
    std::size_t m_replayed = 0;
};

/// Makes `sim` frame k's decision state: the shadow (DecisionState::shadow, after frame k)
/// with the preferred velocities of the decision (decisionPrefVelocities, given by
/// applyRecordedPrefVelocities: agents without a goal take them, goal agents steer by their
/// goal or route) and the frame's clock. Its explain records then give exactly the velocities
/// the conformance check compares with the recorded ones.
void applyDecision(Simulator& sim, const Simulator& shadow, const scene::Recording& rec,
                   std::size_t k);

/// A half-plane the recorded velocity lies outside of: ORCA line `line` of the decision's
/// explain record, and by how far (m/s; > 0).
struct LineViolation {
    std::size_t line = 0;
    double by = 0.0;
};
/// The ORCA lines {q, d} of `rec` that `v` violates: det(d, v − q) < 0 (right of the line,
/// the forbidden side), with its distance to the line (orca::violation), in line order.
[[nodiscard]] std::vector<LineViolation> violatedLines(const ExplainRecord& rec, Vec2 v);

} // namespace orca::app
