// EventDetector::Compact: the tracking state a recording keeps beside each keyframe, without
// what the keyframe's own state holds (events.hpp).
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "orca/events.hpp"

namespace orca {

std::size_t EventDetector::Compact::bytes() const {
    return sizeof(Compact) + tracks.capacity() * sizeof(Track) +
           flipSteps.capacity() * sizeof(std::uint64_t) +
           overlaps.capacity() * sizeof(OpenOverlap) + contacts.capacity() * sizeof(Contact);
}

EventDetector::Compact EventDetector::compact() const {
    Compact c;
    c.params = m_params;
    c.observed = m_observed;
    c.step = m_step;
    c.agents = m_agents.size();
    const std::size_t flips = static_cast<std::size_t>(std::max(m_params.oscillationFlips, 0));
    // The tracks not at rest, found by their m_kept bytes eight at a time (reading every
    // 32-byte track cost a keyframe more than its copy of the positions).
    const std::size_t n = m_agents.size();
    auto keep = [&](std::size_t i) {
        const AgentTrack& t = m_agents[i];
        Compact::Track k;
        k.agent = static_cast<std::uint32_t>(i);
        k.flipCount = t.flipCount;
        // (lp3Since means something only during a spell: a new one sets it at its begin.)
        k.lp3Since = t.lp3 ? t.lp3Since : 0;
        k.stillSteps = t.stillSteps;
        k.lp3 = t.lp3;
        k.stallReported = t.stallReported;
        c.tracks.push_back(k);
        // (Only the flips in the window are read: the slots after flipCount are rewritten
        // before they are read again.)
        const auto* w = m_flipSteps.data() + i * flips;
        c.flipSteps.insert(c.flipSteps.end(), w, w + t.flipCount);
    };
    auto forKept = [&](auto&& f) {
        std::size_t i = 0;
        for (; i + 8 <= n; i += 8) {
            std::uint64_t word;
            std::memcpy(&word, m_kept.data() + i, 8);
            if (word == 0) continue;
            for (std::size_t k = i; k < i + 8; ++k)
                if (m_kept[k] != 0) f(k);
        }
        for (; i < n; ++i)
            if (m_kept[i] != 0) f(i);
    };
    // Counted first, so that the arrays are allocated once at their size (a keyframe holds
    // them: no growth slack, no second copy to shed it).
    std::size_t kept = 0, keptFlips = 0;
    forKept([&](std::size_t i) {
        ++kept;
        keptFlips += m_agents[i].flipCount;
    });
    c.tracks.reserve(kept);
    c.flipSteps.reserve(keptFlips);
    forKept(keep);
    c.overlaps = m_overlaps;
    c.flooded = m_flooded;
    c.floodSince = m_floodSince;
    c.contacts = m_contacts;
    return c;
}

EventDetector EventDetector::expand(const Compact& c, const Simulator& sim) {
    EventDetector d(c.params);
    sim.watchSteps(d.watch()); // (the flags and velocities its next observation reads)
    if (!c.observed) return d;
    const std::size_t n = sim.agentCount();
    if (n != c.agents)
        throw std::invalid_argument("EventDetector::expand: the simulator has " +
                                    std::to_string(n) + " agents, the detector followed " +
                                    std::to_string(c.agents));
    d.m_observed = true;
    d.m_step = c.step;
    // What the observed state holds (detectPerAgent and the syncs wrote exactly these).
    d.m_agentIds.resize(n);
    d.m_agents.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        d.m_agentIds[i] = sim.agentIdAt(i);
        AgentTrack& t = d.m_agents[i];
        t.routeProgress = sim.routeProgressAt(i);
        t.known = true;
        t.atGoal = sim.atGoalAt(i);
        t.detouring = sim.detourModeAt(i) == DetourMode::Detouring;
    }
    const std::size_t flips = static_cast<std::size_t>(std::max(c.params.oscillationFlips, 0));
    d.m_flipSteps.assign(n * flips, 0);
    std::size_t f = 0;
    for (const Compact::Track& k : c.tracks) {
        AgentTrack& t = d.m_agents[k.agent];
        t.flipCount = k.flipCount;
        t.lp3Since = k.lp3Since;
        t.stillSteps = k.stillSteps;
        t.lp3 = k.lp3;
        t.stallReported = k.stallReported;
        std::copy_n(c.flipSteps.begin() + static_cast<std::ptrdiff_t>(f), k.flipCount,
                    d.m_flipSteps.begin() + static_cast<std::ptrdiff_t>(k.agent * flips));
        f += k.flipCount;
    }
    d.m_kept.assign(n, 0);
    for (const Compact::Track& k : c.tracks)
        d.m_kept[k.agent] = d.m_agents[k.agent].kept() ? 1 : 0;
    d.m_overlaps = c.overlaps;
    d.m_flooded = c.flooded;
    d.m_floodSince = c.floodSince;
    d.m_contacts = c.contacts;
    d.m_obstacleIds.resize(sim.obstacleCount());
    for (std::size_t o = 0; o < d.m_obstacleIds.size(); ++o)
        d.m_obstacleIds[o] = sim.obstacleIdAt(o);
    return d;
}

} // namespace orca
