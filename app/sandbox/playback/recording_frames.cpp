#include "playback/recording_frames.hpp"

#include <cmath>
#include <stdexcept>
#include <utility>

namespace orca::app {

namespace {

// Positions, velocities and the clock of frame `f` (the simulator holds its configuration).
void putState(Simulator& sim, const scene::RecordingFrame& f) {
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

} // namespace

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

scene::Scene explainScene(const scene::Scene& config) {
    scene::Scene s = config;
    for (scene::SceneAgent& a : s.agents) {
        a.goal.reset();
        a.waypoints.clear();
        a.routeProgress = 0;
        a.detourMode = DetourMode::Normal;
        a.stillSeconds = 0.0;
        a.stallSeconds = 0.0;
        if (!a.prefVelocity) a.prefVelocity = Vec2(0.0, 0.0);
    }
    return s;
}

Simulator buildFrameSimulator(const scene::Recording& rec, std::size_t k,
                              scene::BuildReport& report) {
    return scene::buildSimulator(explainScene(rec.scenes.at(rec.frames.at(k).scene)), report);
}

void applyFrame(Simulator& sim, const scene::Recording& rec, std::size_t k) {
    const scene::RecordingFrame& f = rec.frames.at(k);
    putState(sim, f);
    const std::span<const Vec2> pv = decisionPrefVelocities(rec, k);
    for (std::size_t i = 0; i < pv.size(); ++i)
        sim.setPrefVelocity(sim.agentIdAt(i), pv[i]);
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
        if (!a.goal && !a.isStatic) a.prefVelocity = pv[i];
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

bool RecordingEvents::advance(const scene::Recording& rec,
                              std::chrono::steady_clock::duration budget) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!done(rec)) {
        const scene::RecordingFrame& f = rec.frames[m_next];
        m_scratch.clear();
        try {
            if (!m_sim || f.scene != m_scene) {
                // The configuration as recorded (goals included: arrivals and stalls).
                scene::BuildReport report;
                m_sim.emplace(scene::buildSimulator(rec.scenes.at(f.scene), report));
                m_scene = f.scene;
            }
            putState(*m_sim, f);
            if (m_next == 0)
                m_detector.reset(*m_sim, m_scratch);
            else
                m_detector.observe(*m_sim, m_scratch);
        } catch (const std::exception& e) {
            m_failed = true;
            m_error = e.what();
            break;
        }
        for (Event& e : m_scratch) {
            e.step = m_next; // the timeline counts frames
            m_events.push_back(std::move(e));
        }
        ++m_next;
        if (std::chrono::steady_clock::now() - t0 >= budget) break;
    }
    return done(rec);
}

} // namespace orca::app
