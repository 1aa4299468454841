// A recording of a simulator driven between steps (recording_session.hpp).
#include "orca/scene/recording_session.hpp"

namespace orca::scene {

RecordingSession::RecordingSession(const std::filesystem::path& path, RecordingEncoding encoding,
                                   const Scene& scene, const Simulator& sim,
                                   std::span<const Vec2> prefVelocity)
    : m_writer(path, encoding) {
    m_writer.writeScene(scene);
    frame(sim, prefVelocity);
}

void RecordingSession::frame(const Simulator& sim, std::span<const Vec2> prefVelocity) {
    m_writer.writeFrame(sim.stepCount(), sim.time(), sim.positions(), sim.velocities(),
                        prefVelocity);
}

void RecordingSession::beforeStep(const Simulator& sim, std::span<const Vec2> prefVelocity,
                                  const std::function<Scene()>& scene) {
    if (m_sceneDue) m_writer.writeScene(scene());
    if (m_sceneDue || m_stateDue) frame(sim, prefVelocity);
    m_sceneDue = m_stateDue = false;
}

void RecordingSession::afterStep(const Simulator& sim, std::span<const Vec2> prefVelocity) {
    frame(sim, prefVelocity);
}

} // namespace orca::scene
