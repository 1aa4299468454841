#pragma once
/// \file recording_session.hpp
/// Recording a simulator that a program drives and may change between steps (the RVO2 face's
/// startRecording, orca.Simulator.start_recording): the one rule of what a change needs before
/// the next frame (docs/recording-format.md).
///
/// - A change of the configuration (agents or obstacles added, parameters changed, a state
///   restored) writes a scene record before the next step, then a frame of the state that step
///   starts from: the frames after it have the new scene's agents.
/// - A change of positions or velocities alone writes that frame of the state before the step
///   (it has the step number of the frame before it): the recorded state s − 1 is always the one
///   step s started from.
/// - Preferred velocities need nothing: each step's frame carries the ones the step used.
#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>

#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca::scene {

class RecordingSession {
  public:
    /// Opens `path` (RecordingWriter's SceneError when it cannot) and writes `scene`, the
    /// simulator's current configuration, and frame 0: `sim`'s state with `prefVelocity`, the
    /// preferred velocities its next step is to use (one per agent).
    RecordingSession(const std::filesystem::path& path, RecordingEncoding encoding,
                     const Scene& scene, const Simulator& sim, std::span<const Vec2> prefVelocity);
    RecordingSession(const RecordingSession&) = delete;
    RecordingSession& operator=(const RecordingSession&) = delete;
    /// Not finished: the recording is abandoned (the target stays as it was).
    ~RecordingSession() = default;

    /// Agents, obstacles or parameters changed, or another state was restored: a scene record
    /// and a frame of the state before the next step.
    void configurationChanged() { m_sceneDue = true; }
    /// Positions or velocities were set between steps: a frame of the state before the next
    /// step.
    void stateChanged() { m_stateDue = true; }
    /// Whether beforeStep will write anything.
    [[nodiscard]] bool pending() const { return m_sceneDue || m_stateDue; }

    /// Before a step that will use `prefVelocity`: what the changes since the last frame need
    /// (`scene` is called only when a scene record is due and returns the configuration now).
    void beforeStep(const Simulator& sim, std::span<const Vec2> prefVelocity,
                    const std::function<Scene()>& scene);
    /// After the step: its frame, `sim`'s new state with the preferred velocities it used.
    void afterStep(const Simulator& sim, std::span<const Vec2> prefVelocity);
    /// Puts the file in place (SceneError when that fails). Writing afterwards throws.
    void finish() { m_writer.finish(); }

    [[nodiscard]] const RecordingWriter& writer() const { return m_writer; }

  private:
    void frame(const Simulator& sim, std::span<const Vec2> prefVelocity);

    RecordingWriter m_writer;
    bool m_sceneDue = false;
    bool m_stateDue = false;
};

} // namespace orca::scene
