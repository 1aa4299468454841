#pragma once
/// \file history.hpp
/// A recording of a run that reaches any recorded step exactly: keyframes (full snapshots,
/// every K steps) plus re-stepping. Seeking to step S gives the same bits (stateHash) as
/// running the scene S steps. The events of the recorded range are kept beside it.
///
/// Usage (the app's loop): start(sim) once; after each sim.step() at the head, record(sim);
/// seek(sim, S) to go to any step in [firstStep(), lastStep()]; stepping a simulator that was
/// seeked back replays the recorded future (no record() needed until it reaches the head).
/// An edit of the simulator at step S (after seek(sim, S)) is recorded with edit(sim): the
/// future after S is cut, as a video editor would. Copying a History is cheap (keyframes are
/// shared), so an undo stack can keep the recording an edit cut and put it back.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "orca/events.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace orca {

namespace detail {
/// Memory for a recording's next keyframes, made ready ahead of them (history_spares.cpp).
/// A keyframe's arrays are fresh memory, and the first write to a fresh page costs more than
/// the copy into it. So the recording snapshots into a state taken from here: its position
/// and velocity arrays already hold mapped memory, written once on a thread of its own while
/// the simulator steps to the next keyframe, or given back by a keyframe the recording dropped.
class StateSpares {
  public:
    StateSpares();
    /// A copy (of a History) starts without spares: they are memory, not recording.
    StateSpares(const StateSpares&);
    StateSpares& operator=(const StateSpares&);
    StateSpares(StateSpares&&) noexcept;
    StateSpares& operator=(StateSpares&&) noexcept;
    ~StateSpares();

    /// A state to snapshot into (Simulator::snapshotInto): when a spare was ready, its position
    /// and velocity arrays have room for `agents` in memory already written (the preparing
    /// thread's spares hold `agents` zeros, so that a large copy into them can run in chunks
    /// on the simulator's threads); else it is empty.
    /// Asks the preparing thread for the next spare (started by the first request) when the
    /// crowd's two arrays take at least kThreadBytes and bytes() stays within `room` with it.
    [[nodiscard]] SimulatorState take(std::size_t agents, std::size_t room);
    /// A state no keyframe holds any more: kept as a spare when fewer than kKept are and
    /// bytes() stays within `room`, else freed.
    void give(SimulatorState&& state, std::size_t room);
    /// Frees the spares (and the one being prepared, when it is ready).
    void clear();
    /// Bytes the spares hold, the one asked of the preparing thread included (so that it
    /// changes only in take(), give() and clear()).
    [[nodiscard]] std::size_t bytes() const;

    /// Bytes of a spare for `agents`: its position and velocity arrays (what the preparing
    /// thread allocates, and what a keyframe's copy of them takes).
    [[nodiscard]] static constexpr std::size_t bytesFor(std::size_t agents) {
        return 2 * agents * sizeof(Vec2);
    }

    /// Smallest crowd (bytes of its position and velocity arrays) for the preparing thread.
    /// (Below it a keyframe's arrays are a few pages: not worth a thread.)
    static constexpr std::size_t kThreadBytes = std::size_t(16) << 10;
    /// Spares kept ready at most.
    static constexpr std::size_t kKept = 2;

  private:
    struct Shared;
    std::unique_ptr<Shared> m_shared;
};
} // namespace detail

struct HistoryParams {
    /// Bytes the keyframes may hold (default 256 MiB, >= 1 MiB). When a recording outgrows it,
    /// every other keyframe is dropped and the interval doubles.
    std::size_t memoryBudget = std::size_t(256) << 20;
    /// Keyframe interval to start with (steps, >= 1).
    std::uint32_t initialInterval = 8;
    /// Detect events while recording (cheap; on by default).
    bool detectEvents = true;
    EventParams events;
};

class History {
  public:
    explicit History(const HistoryParams& params = {});

    /// Starts a new recording at the simulator's current state: its step is firstStep().
    void start(const Simulator& sim);
    /// True once start() was called.
    [[nodiscard]] bool started() const { return !m_keyframes.empty(); }
    /// Records the state after a step at the head: sim.stepCount() must be lastStep() + 1
    /// (throws std::logic_error otherwise).
    void record(const Simulator& sim);
    /// record() in two parts, for a caller that times them apart (`orca run --record
    /// --events`): recordEvents(sim) detects the events of the state after a step at the head
    /// (nothing when detectEvents is off; calling it twice for one step detects once), then
    /// recordState(sim) records that state (it detects the events first if recordEvents was
    /// not called). Same precondition as record().
    void recordEvents(const Simulator& sim);
    void recordState(const Simulator& sim);
    /// Brings `sim` to recorded step `step` (clamped to [firstStep(), lastStep()]): restores
    /// the nearest keyframe at or before it and re-steps. Returns the step reached.
    std::uint64_t seek(Simulator& sim, std::uint64_t step) const;
    /// `sim` was seeked to step S (in the recorded range) and then edited (parameters,
    /// agents' values): drops everything recorded after S, replaces step S by the edited
    /// state and reports the transitions the edit caused as events at S. lastStep() becomes S.
    void edit(const Simulator& sim);
    /// Drops everything recorded after `step` (keeps `step`). lastStep() becomes it.
    void cutAfter(std::uint64_t step);

    [[nodiscard]] std::uint64_t firstStep() const;
    [[nodiscard]] std::uint64_t lastStep() const { return m_lastStep; }
    /// Events of the recorded range, ordered by step (then detection order).
    [[nodiscard]] const std::vector<Event>& events() const { return m_events; }

    // ---- Memory ---------------------------------------------------------------------------
    [[nodiscard]] std::uint32_t keyframeInterval() const { return m_interval; }
    [[nodiscard]] std::size_t keyframeCount() const { return m_keyframes.size(); }
    /// Steps of the kept keyframes, ascending.
    [[nodiscard]] std::vector<std::uint64_t> keyframeSteps() const;
    /// Bytes held by keyframes (configurations counted once), event detectors, events and the
    /// memory made ready for the next keyframes (detail::StateSpares).
    [[nodiscard]] std::size_t bytes() const;
    /// The part of bytes() the memory budget bounds: the keyframes (their states, configurations
    /// counted once, and the event detectors' copies) and the memory made ready for the next
    /// ones. At most the budget, unless the pinned keyframes (start and edit points) alone
    /// exceed it.
    [[nodiscard]] std::size_t keyframeBytes() const { return m_keyframeBytes + m_spares.bytes(); }
    [[nodiscard]] const HistoryParams& params() const { return m_params; }
    /// Changes the budget (thins at once when the recording is over it).
    void setMemoryBudget(std::size_t bytes);

  private:
    struct Keyframe {
        SimulatorState state;
        /// The event detector after observing this keyframe's step, without what `state`
        /// holds (EventDetector::expand gives it back).
        EventDetector::Compact detector;
        bool pinned = false; ///< a start or an edit point: never thinned away
    };
    void addKeyframe(const Simulator& sim, bool pinned);
    /// Drops the keyframes `drop` selects; returns the states of those no copy of this History
    /// shares (for recycle(), once the bytes are recounted).
    template <class Pred> [[nodiscard]] std::vector<SimulatorState> dropKeyframesIf(Pred drop);
    /// Keeps dropped keyframes' memory as spares within the budget, frees the rest.
    void recycle(std::vector<SimulatorState>&& dropped);
    /// The budget left after the keyframes: what spares may hold.
    [[nodiscard]] std::size_t spareRoom() const;
    /// Frees the spares when the keyframes and spares exceed the budget, then thins.
    void fitBudget();
    void thin();
    void recountBytes();
    /// Throws std::logic_error unless started and `sim` is one step past the head.
    void checkHead(const Simulator& sim, const char* what) const;
    /// Drops events after `step` and keyframes after it (and at it unless kept); recounts the
    /// bytes and recycles the dropped keyframes' memory.
    void dropAfter(std::uint64_t step, bool keepKeyframeAtStep);
    /// The event detector as it was after observing `step` (replayed from a keyframe).
    [[nodiscard]] EventDetector detectorAt(std::uint64_t step) const;
    [[nodiscard]] std::size_t keyframeIndexAtOrBefore(std::uint64_t step) const;

    HistoryParams m_params;
    std::uint32_t m_interval = 8;
    std::vector<std::shared_ptr<const Keyframe>> m_keyframes;
    std::uint64_t m_lastStep = 0;
    EventDetector m_detector;         ///< after observing m_observedStep
    std::uint64_t m_observedStep = 0; ///< lastStep(), or lastStep() + 1 after recordEvents()
    std::vector<Event> m_events;
    std::size_t m_keyframeBytes = 0;
    detail::StateSpares m_spares;
};

} // namespace orca
