// History: keyframes + re-stepping (history.hpp).
#include "orca/history.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace orca {

History::History(const HistoryParams& params)
    : m_params(params), m_interval(std::max<std::uint32_t>(params.initialInterval, 1)),
      m_detector(params.events) {
    m_params.memoryBudget = std::max<std::size_t>(params.memoryBudget, std::size_t(1) << 20);
}

std::uint64_t History::firstStep() const {
    return m_keyframes.empty() ? 0 : m_keyframes.front()->state.stepCount;
}

template <class Pred> std::vector<SimulatorState> History::dropKeyframesIf(Pred drop) {
    std::vector<SimulatorState> dropped;
    std::erase_if(m_keyframes, [&](std::shared_ptr<const Keyframe>& k) {
        if (!drop(*k)) return false;
        // (Made non-const by addKeyframe; a count of 1 means no copy of this History has it.)
        if (k.use_count() == 1)
            dropped.push_back(std::move(std::const_pointer_cast<Keyframe>(k)->state));
        return true;
    });
    return dropped;
}

std::size_t History::spareRoom() const {
    return m_params.memoryBudget - std::min(m_keyframeBytes, m_params.memoryBudget);
}

void History::recycle(std::vector<SimulatorState>&& dropped) {
    for (SimulatorState& s : dropped)
        m_spares.give(std::move(s), spareRoom());
}

void History::fitBudget() {
    if (m_keyframeBytes + m_spares.bytes() > m_params.memoryBudget) m_spares.clear();
    if (m_keyframeBytes > m_params.memoryBudget) thin();
}

void History::start(const Simulator& sim) {
    std::vector<SimulatorState> dropped = dropKeyframesIf([](const Keyframe&) { return true; });
    m_events.clear();
    m_keyframeBytes = 0;
    recycle(std::move(dropped));
    m_interval = std::max<std::uint32_t>(m_params.initialInterval, 1);
    m_lastStep = m_observedStep = sim.stepCount();
    m_detector = EventDetector(m_params.events);
    if (m_params.detectEvents) m_detector.reset(sim, m_events);
    addKeyframe(sim, true);
}

void History::checkHead(const Simulator& sim, const char* what) const {
    if (!started()) throw std::logic_error(std::string("History::") + what + " before start");
    if (sim.stepCount() != m_lastStep + 1)
        throw std::logic_error(std::string("History::") + what + ": the simulator is at step " +
                               std::to_string(sim.stepCount()) + ", the recording's head is " +
                               std::to_string(m_lastStep));
}

void History::record(const Simulator& sim) {
    recordState(sim);
}

void History::recordEvents(const Simulator& sim) {
    checkHead(sim, "record");
    if (m_observedStep == sim.stepCount()) return; // (already detected)
    if (m_params.detectEvents) m_detector.observe(sim, m_events);
    m_observedStep = sim.stepCount();
}

void History::recordState(const Simulator& sim) {
    recordEvents(sim);
    m_lastStep = sim.stepCount();
    if ((m_lastStep - firstStep()) % m_interval == 0) {
        addKeyframe(sim, false);
        fitBudget();
    }
}

std::size_t History::keyframeIndexAtOrBefore(std::uint64_t step) const {
    const auto it = std::upper_bound(m_keyframes.begin(), m_keyframes.end(), step,
                                     [](std::uint64_t s, const std::shared_ptr<const Keyframe>& k) {
                                         return s < k->state.stepCount;
                                     });
    return it == m_keyframes.begin() ? 0 : static_cast<std::size_t>(it - m_keyframes.begin()) - 1;
}

std::uint64_t History::seek(Simulator& sim, std::uint64_t step) const {
    if (!started()) throw std::logic_error("History::seek before start");
    step = std::clamp(step, firstStep(), m_lastStep);
    sim.restore(m_keyframes[keyframeIndexAtOrBefore(step)]->state);
    while (sim.stepCount() < step)
        sim.step();
    return step;
}

EventDetector History::detectorAt(std::uint64_t step) const {
    // (Not after a recordEvents() without its recordState(): m_detector is a step ahead then.)
    if (step == m_lastStep && m_observedStep == m_lastStep) return m_detector;
    if (!m_params.detectEvents) return EventDetector(m_params.events);
    const Keyframe& k = *m_keyframes[keyframeIndexAtOrBefore(step)];
    Simulator scratch;
    scratch.restore(k.state);
    EventDetector detector = EventDetector::expand(k.detector, scratch);
    std::vector<Event> replayed; // already recorded
    while (scratch.stepCount() < step) {
        scratch.step();
        detector.observe(scratch, replayed);
        replayed.clear();
    }
    return detector;
}

void History::dropAfter(std::uint64_t step, bool keepKeyframeAtStep) {
    std::erase_if(m_events, [step](const Event& e) { return e.step > step; });
    std::vector<SimulatorState> dropped = dropKeyframesIf([&](const Keyframe& k) {
        return k.state.stepCount > step || (!keepKeyframeAtStep && k.state.stepCount == step);
    });
    m_lastStep = m_observedStep = step;
    recountBytes();
    recycle(std::move(dropped));
}

void History::cutAfter(std::uint64_t step) {
    if (!started() || step >= m_lastStep) return;
    step = std::max(step, firstStep());
    m_detector = detectorAt(step);
    dropAfter(step, true);
}

void History::edit(const Simulator& sim) {
    if (!started()) {
        start(sim);
        return;
    }
    const std::uint64_t step = sim.stepCount();
    if (step < firstStep() || step > m_lastStep)
        throw std::logic_error("History::edit: step " + std::to_string(step) +
                               " is outside the recording [" + std::to_string(firstStep()) + ", " +
                               std::to_string(m_lastStep) + "]");
    const Keyframe& k = *m_keyframes[keyframeIndexAtOrBefore(step)];
    const bool sameAgents = k.state.agentCount() == sim.agentCount();
    if (step == firstStep() && !sameAgents) {
        start(sim);
        return;
    }
    EventDetector detector = sameAgents ? detectorAt(step) : EventDetector(m_params.events);
    dropAfter(step, false);
    if (m_params.detectEvents) {
        // The edit's transitions are events of this step; with other agents, start over.
        if (sameAgents)
            detector.observe(sim, m_events);
        else
            detector.reset(sim, m_events);
    }
    m_detector = std::move(detector);
    addKeyframe(sim, true);
    fitBudget();
}

void History::addKeyframe(const Simulator& sim, bool pinned) {
    const SimulatorState* previous = m_keyframes.empty() ? nullptr : &m_keyframes.back()->state;
    // (Into memory made ready ahead when there is some: a fresh keyframe's page faults cost
    // more than its copy. The next spare may take what the budget leaves after this keyframe.)
    const std::size_t next = detail::StateSpares::bytesFor(sim.agentCount());
    const std::size_t left = spareRoom();
    const std::size_t room = left - std::min(left, next);
    auto k = std::make_shared<Keyframe>(
        Keyframe{m_spares.take(sim.agentCount(), room), m_detector.compact(), pinned});
    sim.snapshotInto(k->state, previous);
    m_keyframeBytes += k->state.dynamicBytes() + k->detector.bytes();
    if (!previous || previous->config != k->state.config)
        m_keyframeBytes += k->state.config->bytes();
    m_keyframes.push_back(std::move(k));
}

void History::recountBytes() {
    m_keyframeBytes = 0;
    const SimulatorState::Config* last = nullptr;
    for (const auto& k : m_keyframes) {
        m_keyframeBytes += k->state.dynamicBytes() + k->detector.bytes();
        if (k->state.config.get() != last) m_keyframeBytes += k->state.config->bytes();
        last = k->state.config.get();
    }
}

void History::thin() {
    const std::uint64_t first = firstStep();
    std::vector<SimulatorState> dropped;
    while (m_keyframeBytes > m_params.memoryBudget) {
        const std::size_t before = m_keyframes.size();
        if (m_interval > (std::uint32_t(1) << 30)) break;
        m_interval *= 2;
        for (SimulatorState& d : dropKeyframesIf([&](const Keyframe& k) {
                 return !k.pinned && (k.state.stepCount - first) % m_interval != 0;
             }))
            dropped.push_back(std::move(d));
        recountBytes();
        // Only pinned keyframes left, or the interval now spans the whole recording.
        if (m_keyframes.size() == before && m_interval > m_lastStep - first) break;
    }
    recycle(std::move(dropped));
}

void History::setMemoryBudget(std::size_t bytes) {
    m_params.memoryBudget = std::max<std::size_t>(bytes, std::size_t(1) << 20);
    fitBudget();
}

std::vector<std::uint64_t> History::keyframeSteps() const {
    std::vector<std::uint64_t> steps;
    steps.reserve(m_keyframes.size());
    for (const auto& k : m_keyframes)
        steps.push_back(k->state.stepCount);
    return steps;
}

std::size_t History::bytes() const {
    // An event's agent list: one or two indices, on the heap.
    return m_keyframeBytes + m_detector.bytes() + m_spares.bytes() +
           m_events.size() * (sizeof(Event) + 2 * sizeof(std::uint32_t)) + sizeof(History);
}

} // namespace orca
