#include "playback/recording_frames.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace orca::app {

void putFrameState(Simulator& sim, const scene::RecordingFrame& f) {
    if (sim.agentCount() != f.position.size())
        throw std::logic_error("a frame of " + std::to_string(f.position.size()) +
                               " agents applied to a simulator of " +
                               std::to_string(sim.agentCount()));
    for (std::size_t i = 0; i < f.position.size(); ++i) {
        const AgentId id = sim.agentIdAt(i);
        sim.setPosition(id, f.position[i]);
        sim.setVelocity(id, f.velocity[i]); // (ignored for static agents: they never move)
    }
    sim.setClock(std::isfinite(f.time) ? f.time : 0.0, f.step);
}

std::optional<std::size_t> decisionFrame(const scene::Recording& rec, std::size_t k) {
    if (k + 1 >= rec.frames.size()) return std::nullopt;
    const scene::RecordingFrame& now = rec.frames[k];
    const scene::RecordingFrame& next = rec.frames[k + 1];
    if (next.scene != now.scene || next.step != now.step + 1) return std::nullopt;
    return k + 1;
}

std::span<const Vec2> decisionPrefVelocities(const scene::Recording& rec, std::size_t k) {
    const std::optional<std::size_t> d = decisionFrame(rec, k);
    return rec.frames[d ? *d : k].prefVelocity;
}

scene::Scene sceneAtFrame(const scene::Recording& rec, std::size_t k,
                          const std::filesystem::path& file) {
    const scene::RecordingFrame& f = rec.frames.at(k);
    scene::Scene s = rec.scenes.at(f.scene);
    const std::span<const Vec2> pv = decisionPrefVelocities(rec, k);
    for (std::size_t i = 0; i < s.agents.size() && i < f.position.size(); ++i) {
        scene::SceneAgent& a = s.agents[i];
        a.position = f.position[i];
        const Vec2 v = f.velocity[i];
        if (v.x != 0.0 || v.y != 0.0 || a.velocity) a.velocity = v;
        if (!a.goal && !a.isStatic && i < pv.size()) a.prefVelocity = pv[i];
    }
    s.simulation.time = std::isfinite(f.time) ? f.time : 0.0;
    s.simulation.step = f.step;
    const std::string step = std::to_string(f.step);
    const std::string base = s.name.empty() ? file.stem().string() : s.name;
    s.name = base + " at step " + step;
    s.description = "Frame " + std::to_string(k) + " (step " + step + ") of the recording " +
                    file.filename().string();
    return s;
}

std::vector<std::uint64_t> recordedSteps(const scene::Recording& rec) {
    std::vector<std::uint64_t> steps;
    steps.reserve(rec.frames.size());
    for (const scene::RecordingFrame& f : rec.frames)
        steps.push_back(f.step);
    return steps;
}

} // namespace orca::app
