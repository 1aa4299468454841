#include "run_loop.hpp"

#include <array>
#include <chrono>

namespace orca::cli {

namespace {

double msSince(std::chrono::steady_clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

} // namespace

RunLoop::RunLoop(const Simulator& sim, bool record, std::optional<std::uint64_t> budget,
                 bool events)
    : m_events(events) {
    if (record) {
        HistoryParams p; // the app's: its History is default-constructed
        if (budget) p.memoryBudget = static_cast<std::size_t>(*budget);
        p.detectEvents = events;
        m_history.emplace(p);
        m_history->start(sim);
    } else if (events) {
        m_detector.reset(sim, m_detected);
    }
    takeNewEvents(sim);
}

void RunLoop::takeNewEvents(const Simulator& sim) {
    if (!m_events) return;
    const std::vector<Event>& all = m_history ? m_history->events() : m_detected;
    // The last state's events are the tail at its step (step numbers states).
    std::size_t begin = all.size();
    while (begin > 0 && all[begin - 1].step == sim.stepCount())
        --begin;
    m_newBegin = begin;
    m_newEnd = all.size();
    for (const Event& e : newEvents())
        ++m_byKind[static_cast<std::size_t>(e.kind)];
}

void RunLoop::afterStep(const Simulator& sim) {
    ++m_steps;
    if (m_history) {
        auto t0 = std::chrono::steady_clock::now();
        if (m_events) {
            m_history->recordEvents(sim);
            m_eventsMs += msSince(t0);
            t0 = std::chrono::steady_clock::now();
        }
        m_history->recordState(sim);
        m_recordMs += msSince(t0);
    } else if (m_events) {
        const auto t0 = std::chrono::steady_clock::now();
        m_detected.clear(); // the last state's were handed out: memory does not grow
        m_detector.observe(sim, m_detected);
        m_eventsMs += msSince(t0);
    }
    takeNewEvents(sim);
}

std::span<const Event> RunLoop::newEvents() const {
    const std::vector<Event>& all = m_history ? m_history->events() : m_detected;
    return std::span<const Event>(all).subspan(m_newBegin, m_newEnd - m_newBegin);
}

void RunLoop::addTo(Json& j, double stepMeanMs) const {
    const double steps = m_steps > 0 ? static_cast<double>(m_steps) : 1.0;
    Json loop;
    loop["step"] = stepMeanMs;
    if (m_history) loop["record"] = m_recordMs / steps;
    if (m_events) loop["events"] = m_eventsMs / steps;
    j["loopMs"] = loop;
    if (m_history) {
        const History& h = *m_history;
        Json hj;
        hj["bytes"] = h.bytes();
        hj["keyframeBytes"] = h.keyframeBytes();
        hj["keyframes"] = h.keyframeCount();
        hj["keyframeInterval"] = h.keyframeInterval();
        hj["firstStep"] = h.firstStep();
        hj["lastStep"] = h.lastStep();
        hj["budget"] = h.params().memoryBudget;
        j["history"] = hj;
    }
    if (m_events) {
        std::uint64_t count = 0;
        Json kinds = Json::object();
        for (std::size_t k = 0; k < kEventKindCount; ++k) {
            kinds[std::string(toString(static_cast<EventKind>(k)))] = m_byKind[k];
            count += m_byKind[k];
        }
        j["events"] = {{"count", count}, {"byKind", kinds}};
    }
}

} // namespace orca::cli
