#pragma once
// A recording's frames as the sandbox plays them (docs/sandbox.md, "Recordings"), without the
// app: the simulator that shows frame k and explains the decision made from it, the scene a
// frame becomes when the user edits or continues live, and the events found in the frames.
//
// The decision shown at frame k is the next recorded step's: ORCA on frame k's positions and
// velocities with the preferred velocities recorded for that step (docs/recording-format.md:
// v_{s} should be ORCA(p_{s-1}, v_{s-1}, pv_{s})). Frame k+1 is that step when it is the next
// step of the same configuration; otherwise (the last frame, a new configuration or an edited
// state next) frame k's own preferred velocities are used and there is no recorded answer.

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/events.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca::app {

/// The frame holding the velocities the decision made from frame `k`'s state produced: k + 1
/// when it is the next step (step + 1) of the same configuration, else nullopt.
[[nodiscard]] std::optional<std::size_t> decisionFrame(const scene::Recording& rec, std::size_t k);

/// The preferred velocities the decision from frame `k` uses: those of decisionFrame(k), else
/// frame k's own.
[[nodiscard]] std::span<const Vec2> decisionPrefVelocities(const scene::Recording& rec,
                                                           std::size_t k);

/// The configuration decisions are explained in: `config` with every agent's goal and route
/// dropped (its v_pref is the recorded one, set per frame) and its stall and detour timers at
/// zero. The simulation parameters stay as recorded, but nothing acts on v_pref any more: the
/// detour field only steers agents with a goal, and deadlock breaking's turn and yield wait
/// for stall timers that a frame never runs. So the decision is plain ORCA, as the recording
/// format defines it (a recorded v_pref already holds deadlock breaking's turn).
[[nodiscard]] scene::Scene explainScene(const scene::Scene& config);

/// A simulator of frame `k`'s configuration (explainScene), not yet in the frame's state.
/// Obstacles the simulator rejects are left out and listed in `report`. Throws what
/// scene::buildSimulator throws.
[[nodiscard]] Simulator buildFrameSimulator(const scene::Recording& rec, std::size_t k,
                                            scene::BuildReport& report);

/// Puts frame `k`'s state into `sim` (built by buildFrameSimulator for the frame's
/// configuration, so with its agents in order): positions, velocities, the decision's preferred
/// velocities (decisionPrefVelocities) and the clock (the frame's time and recorded step).
void applyFrame(Simulator& sim, const scene::Recording& rec, std::size_t k);

/// Frame `k` as an ordinary scene: its configuration (goals, routes and parameters as recorded)
/// with the frame's positions and velocities, each agent without a goal keeping the preferred
/// velocity of the decision from this frame, and the frame's clock. Named after `file` and the
/// step.
[[nodiscard]] scene::Scene sceneAtFrame(const scene::Recording& rec, std::size_t k,
                                        const std::filesystem::path& file);

/// The recorded step number of every frame (the timeline's labels).
[[nodiscard]] std::vector<std::uint64_t> recordedSteps(const scene::Recording& rec);

/// The events of a recording, found frame by frame by the event detector on the recorded states
/// (the configuration as recorded, goals included): overlaps, obstacle penetrations, stalls and
/// arrivals. LP3 spells, oscillations, detours and waypoints are facts of the steps the
/// recording's program took, which a recording does not hold, so they are not reported. Each
/// event's `step` is its frame's index (the timeline's position); the detector's clock is the
/// recorded step, so its timers follow the recorded time.
class RecordingEvents {
  public:
    RecordingEvents() = default;
    /// Observes frames until all are done or `budget` has passed (at least one frame). True
    /// when every frame has been observed.
    bool advance(const scene::Recording& rec, std::chrono::steady_clock::duration budget);
    [[nodiscard]] bool done(const scene::Recording& rec) const {
        return m_next >= rec.frames.size() || m_failed;
    }
    [[nodiscard]] std::size_t framesObserved() const { return m_next; }
    [[nodiscard]] const std::vector<Event>& events() const { return m_events; }
    /// Why detection stopped early ("" when it did not).
    [[nodiscard]] const std::string& error() const { return m_error; }

  private:
    std::optional<Simulator> m_sim;
    std::size_t m_scene = ~std::size_t{0};
    EventDetector m_detector;
    std::size_t m_next = 0;
    std::vector<Event> m_events;
    std::vector<Event> m_scratch;
    bool m_failed = false;
    std::string m_error;
};

} // namespace orca::app
