// RVO::RVOSimulator::saveScene and the recordings: the program's current state as an ORCA
// Sandbox scene (RVOSimulator.h, docs/rvo2.md "Opening a program's crowd in the sandbox"), and
// its run as a recording (docs/recording-format.md).
#include <memory>
#include <optional>
#include <string>

#include "orca/scene/recording_session.hpp"
#include "orca/scene/scene.hpp"
#include "simulator_impl.hpp"

namespace RVO {

namespace {

/// `value` when it differs from the default, else nothing (the scene keeps only overrides).
template <class T> std::optional<T> overrideOf(T value, T defaultValue) {
    if (value == defaultValue) return std::nullopt;
    return value;
}

} // namespace

orca::scene::Scene RVOSimulator::Impl::currentScene() const {
    const Impl& s = *this;
    orca::scene::Scene scene;
    scene.name = "RVO2 program";
    scene.description = "Saved by RVO::RVOSimulator::saveScene: each agent keeps its current "
                        "preferred velocity";
    scene.simulation.params = s.sim.params();
    scene.simulation.time = s.sim.time();
    scene.simulation.step = s.sim.stepCount();
    if (s.defaults) scene.agentDefaults = s.defaults->params;
    const orca::AgentParams& d = scene.agentDefaults;

    const auto positions = s.sim.positions();
    const auto velocities = s.sim.velocities();
    const auto params = s.sim.agentParams();
    scene.agents.reserve(s.ids.size());
    for (std::size_t i = 0; i < s.ids.size(); ++i) {
        orca::scene::SceneAgent a;
        a.position = positions[i];
        if (velocities[i] != orca::Vec2(0.0)) a.velocity = velocities[i];
        // The program's preferred velocity (the mirror also holds one not yet handed over).
        a.prefVelocity = toDouble(s.agents[i].prefVelocity);
        const orca::AgentParams& p = params[i];
        orca::scene::AgentOverrides& o = a.overrides;
        o.radius = overrideOf(p.radius, d.radius);
        o.maxSpeed = overrideOf(p.maxSpeed, d.maxSpeed);
        o.neighborDist = overrideOf(p.neighborDist, d.neighborDist);
        o.maxNeighbors = overrideOf(p.maxNeighbors, d.maxNeighbors);
        o.timeHorizon = overrideOf(p.timeHorizon, d.timeHorizon);
        o.timeHorizonObst = overrideOf(p.timeHorizonObst, d.timeHorizonObst);
        scene.agents.push_back(std::move(a));
    }
    // The processed obstacles: the ones the simulation sees.
    for (std::size_t k = 0; k < s.processedPolygons; ++k) {
        orca::scene::SceneObstacle o;
        o.vertices = s.polygons[k];
        scene.obstacles.push_back(std::move(o));
    }
    return scene;
}

void RVOSimulator::saveScene(const std::string& path) const {
    orca::scene::saveScene(impl_->currentScene(), path);
}

// ---- Recordings -------------------------------------------------------------------------------

std::vector<orca::Vec2> RVOSimulator::Impl::mirrorPrefVelocities() const {
    std::vector<orca::Vec2> v(agents.size());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = toDouble(agents[i].prefVelocity);
    return v;
}

void RVOSimulator::startRecording(const std::string& path) {
    Impl& s = *impl_;
    stopRecording();
    s.recording = std::make_unique<orca::scene::RecordingSession>(
        path, orca::scene::RecordingEncoding::Float32, // (RVO2's state is float: exact)
        s.currentScene(), s.sim, s.mirrorPrefVelocities());
}

void RVOSimulator::stopRecording() {
    if (!impl_->recording) return;
    const std::unique_ptr<orca::scene::RecordingSession> session = std::move(impl_->recording);
    session->finish();
}

} // namespace RVO
