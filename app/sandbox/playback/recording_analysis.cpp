#include "playback/recording_analysis.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <stdexcept>
#include <utility>

#include "orca/scene/conform.hpp"
#include "orca/ui/event_kinds.hpp"

#include "playback/recording_frames.hpp"

namespace orca::app {

namespace {

// A configuration's simulator as the conformance check builds it (scene::checkConformance;
// obstacles the simulator rejects are left out, where `orca conform` refuses the scene).
Simulator configurationSimulator(const scene::Recording& rec, std::size_t scene, int threads) {
    scene::BuildReport report;
    Simulator sim = scene::buildSimulator(rec.scenes.at(scene), report);
    sim.setThreadCount(threads);
    return sim;
}

} // namespace

ConformanceOptions appConformanceOptions(const scene::Recording& rec) {
    ConformanceOptions o;
    o.tolerance = scene::defaultTolerance(rec);
    o.keepAll = true;
    return o;
}

RecordingAnalysis::RecordingAnalysis(ConformanceOptions options, int threads,
                                     std::size_t snapshotBudget, std::size_t snapshotInterval)
    : m_checker(options), m_threads(std::max(threads, 1)), m_snapshotBudget(snapshotBudget),
      m_interval(std::max<std::size_t>(snapshotInterval, 1)) {}

bool RecordingAnalysis::advance(const scene::Recording& rec,
                                std::chrono::steady_clock::duration budget) {
    const auto t0 = std::chrono::steady_clock::now();
    while (!done(rec)) {
        observe(rec);
        if (std::chrono::steady_clock::now() - t0 >= budget) break;
    }
    return done(rec);
}

bool RecordingAnalysis::advanceTo(const scene::Recording& rec, std::size_t frame) {
    while (m_next <= frame && !done(rec))
        observe(rec);
    return m_next > frame && !m_failed;
}

void RecordingAnalysis::observe(const scene::Recording& rec) {
    const std::size_t k = m_next;
    const scene::RecordingFrame& f = rec.frames[k];
    m_scratch.clear();
    try {
        // The conformance check of the velocities frame k recorded, from frame k − 1.
        if (f.scene != m_checkScene) {
            m_checker.begin(configurationSimulator(rec, f.scene, m_threads));
            m_checkScene = f.scene;
        }
        m_checker.frame(f.step, f.position, f.velocity, f.prefVelocity);
        const std::vector<ConformanceDeviation>& deviations = m_checker.report().deviations;
        for (; m_deviationsSeen < deviations.size(); ++m_deviationsSeen) {
            if (m_deviationEvents >= kMaxDeviationEvents || k == 0) continue;
            const ConformanceDeviation& d = deviations[m_deviationsSeen];
            Event e;
            e.step = k - 1; // the frame the decision was made from
            e.kind = ui::kDeviationEvent;
            e.agents = {static_cast<std::uint32_t>(d.agent)};
            e.value = d.difference;
            m_events.push_back(std::move(e));
            ++m_deviationEvents;
        }
        if (k % m_interval == 0) keepSnapshot(k, f.scene);

        // The events of frame k's state.
        if (!m_sim || f.scene != m_scene) {
            // The configuration as recorded (goals included: arrivals and stalls).
            scene::BuildReport report;
            m_sim.emplace(scene::buildSimulator(rec.scenes.at(f.scene), report));
            m_scene = f.scene;
        }
        putFrameState(*m_sim, f);
        if (k == 0)
            m_detector.reset(*m_sim, m_scratch);
        else
            m_detector.observe(*m_sim, m_scratch);
    } catch (const std::exception& e) {
        m_failed = true;
        m_error = "frame " + std::to_string(k) + ": " + e.what();
        return;
    }
    for (Event& e : m_scratch) {
        e.step = k; // the timeline counts frames
        m_events.push_back(std::move(e));
    }
    ++m_next;
}

void RecordingAnalysis::keepSnapshot(std::size_t frame, std::size_t scene) {
    const SimulatorState* previous = m_snapshots.empty() ? nullptr : &m_snapshots.back().state;
    ShadowSnapshot s{frame, scene, m_checker.shadow().snapshot(previous)};
    m_snapshotBytes += s.state.dynamicBytes();
    if (!previous || previous->config != s.state.config) m_snapshotBytes += s.state.config->bytes();
    m_snapshots.push_back(std::move(s));
    while (m_snapshotBytes > m_snapshotBudget && m_snapshots.size() > 1) {
        // Every other one goes: those of the doubled interval stay (frame 0 among them).
        m_interval *= 2;
        std::erase_if(m_snapshots,
                      [&](const ShadowSnapshot& x) { return x.frame % m_interval != 0; });
        recountSnapshotBytes();
    }
}

void RecordingAnalysis::recountSnapshotBytes() {
    m_snapshotBytes = 0;
    const SimulatorState::Config* last = nullptr;
    for (const ShadowSnapshot& s : m_snapshots) {
        m_snapshotBytes += s.state.dynamicBytes();
        if (s.state.config.get() != last) m_snapshotBytes += s.state.config->bytes();
        last = s.state.config.get();
    }
}

const ShadowSnapshot* RecordingAnalysis::snapshotAtOrBefore(std::size_t frame) const {
    if (frame >= m_next) return nullptr;
    const auto it =
        std::upper_bound(m_snapshots.begin(), m_snapshots.end(), frame,
                         [](std::size_t f, const ShadowSnapshot& s) { return f < s.frame; });
    return it == m_snapshots.begin() ? nullptr : &*std::prev(it);
}

void DecisionState::feed(const scene::Recording& rec, std::size_t k, int threads) {
    const scene::RecordingFrame& f = rec.frames.at(k);
    if (f.scene != m_scene) {
        m_checker->begin(configurationSimulator(rec, f.scene, threads));
        m_scene = f.scene;
    }
    m_checker->frame(f.step, f.position, f.velocity, f.prefVelocity);
}

void DecisionState::moveTo(const scene::Recording& rec, RecordingAnalysis& analysis,
                           std::size_t k) {
    m_replayed = 0;
    if (m_checker && m_frame == k) return;
    try {
        if (m_checker && m_frame && k == *m_frame + 1) {
            feed(rec, k, analysis.threads());
            m_replayed = 1;
            m_frame = k;
            return;
        }
        m_frame.reset();
        analysis.advanceTo(rec, k);
        const ShadowSnapshot* s = analysis.snapshotAtOrBefore(k);
        if (!s)
            throw std::runtime_error(analysis.error().empty()
                                         ? "no conformance state for frame " + std::to_string(k)
                                         : analysis.error());
        Simulator sim;
        sim.restore(s->state);
        sim.setThreadCount(analysis.threads());
        m_checker.emplace();
        m_checker->begin(std::move(sim));
        m_scene = s->scene;
        for (std::size_t j = s->frame + 1; j <= k; ++j) {
            feed(rec, j, analysis.threads());
            ++m_replayed;
        }
        m_frame = k;
    } catch (...) {
        m_frame.reset(); // the next move starts from a snapshot
        m_checker.reset();
        throw;
    }
}

void applyDecision(Simulator& sim, const Simulator& shadow, const scene::Recording& rec,
                   std::size_t k) {
    sim.restore(shadow.snapshot());
    const std::span<const Vec2> pv = decisionPrefVelocities(rec, k);
    if (!pv.empty()) applyRecordedPrefVelocities(sim, pv);
    const scene::RecordingFrame& f = rec.frames.at(k);
    sim.setClock(std::isfinite(f.time) ? f.time : 0.0, f.step); // (not the dynamics)
}

std::vector<LineViolation> violatedLines(const ExplainRecord& rec, Vec2 v) {
    std::vector<LineViolation> out;
    for (std::size_t i = 0; i < rec.lines.size(); ++i) {
        const double by = violation(rec.lines[i].line, v); // det(d, q − v) = −det(d, v − q)
        if (by > 0.0) out.push_back({i, by});
    }
    return out;
}

} // namespace orca::app
