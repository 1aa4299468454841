#pragma once
// A recording's frames as the sandbox plays them (docs/sandbox.md, "Recordings"), without the
// app: which frame answers which, the recorded state of a frame, the scene a frame becomes when
// the user edits or continues live. (The decision made from a frame and the events:
// recording_analysis.hpp.)
//
// The decision shown at frame k is the next recorded step's: ORCA on frame k's positions and
// velocities with the preferred velocities recorded for that step (docs/recording-format.md:
// v_{s} should be ORCA(p_{s-1}, v_{s-1}, pv_{s})), as the conformance check makes it. Frame
// k+1 is that step when it is the next step of the same configuration; otherwise (the last
// frame, a new configuration or an edited state next) frame k's own preferred velocities are
// used and there is no recorded answer.

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca::app {

/// The frame holding the velocities the decision made from frame `k`'s state produced: k + 1
/// when it is the next step (step + 1) of the same configuration, else nullopt.
[[nodiscard]] std::optional<std::size_t> decisionFrame(const scene::Recording& rec, std::size_t k);

/// The preferred velocities the decision from frame `k` uses: those of decisionFrame(k), else
/// frame k's own (empty when the run recorded none: a trajectory CSV without pvx,pvy).
[[nodiscard]] std::span<const Vec2> decisionPrefVelocities(const scene::Recording& rec,
                                                           std::size_t k);

/// Puts a frame's recorded state into `sim` (built for the frame's configuration, so with
/// its agents in order): positions, velocities (static agents keep theirs) and the clock (the
/// frame's time and recorded step). Preferred velocities are not touched.
void putFrameState(Simulator& sim, const scene::RecordingFrame& frame);

/// Frame `k` as an ordinary scene: its configuration (goals, routes and parameters as recorded)
/// with the frame's positions and velocities, each agent without a goal keeping the preferred
/// velocity of the decision from this frame, and the frame's clock. Named after `file` and the
/// step.
[[nodiscard]] scene::Scene sceneAtFrame(const scene::Recording& rec, std::size_t k,
                                        const std::filesystem::path& file);

/// The recorded step number of every frame (the timeline's labels).
[[nodiscard]] std::vector<std::uint64_t> recordedSteps(const scene::Recording& rec);

} // namespace orca::app
