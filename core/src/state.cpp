// Simulator::snapshot / restore (state.hpp).
#include "orca/state.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace orca {

namespace {

/// Copies `v` into `out`. When `out` already holds as many elements (a keyframe's spare, or a
/// dropped keyframe's memory: history.hpp), a large copy runs in chunks on the simulator's
/// threads: the spare's pages are mapped but cold in the stepping core's caches and TLB. When
/// `out` has no room for it, the copy goes to fresh memory whose pages are mapped before they
/// are written (MADV_POPULATE_WRITE, Linux 5.14 and later), in chunks on the simulator's
/// threads: page by page, a fresh page's fault costs more than the copy itself (on the VMs
/// measured, about 0.4 ns per byte against 0.02 for the copy; docs/performance.md, "The app's
/// loop"). Where the call is missing or fails, the copy faults its pages itself: the same bits
/// either way.
template <class T>
void assignPrefaulted(const std::vector<T>& v, std::vector<T>& out, const Simulator& sim) {
    static_assert(std::is_trivially_copyable_v<T>);
    constexpr std::size_t kChunk = std::size_t(64) << 10; // bytes per chunk of a parallel copy
    if (out.size() == v.size() && v.size() * sizeof(T) >= 4 * kChunk && sim.threadCount() > 1) {
        const auto* from = reinterpret_cast<const unsigned char*>(v.data());
        auto* to = reinterpret_cast<unsigned char*>(out.data());
        const std::size_t bytes = v.size() * sizeof(T);
        sim.parallelChunks((bytes + kChunk - 1) / kChunk, 1,
                           [&](std::size_t b, std::size_t e, int) {
                               const std::size_t begin = b * kChunk;
                               const std::size_t end = std::min(bytes, e * kChunk);
                               std::memcpy(to + begin, from + begin, end - begin);
                           });
        return;
    }
    if (out.capacity() >= v.size()) {
        out.assign(v.begin(), v.end());
        return;
    }
    std::vector<T> fresh;
#if defined(__linux__) && defined(MADV_POPULATE_WRITE)
    constexpr std::uintptr_t kPage = 4096;
    const std::size_t bytes = v.size() * sizeof(T);
    if (bytes >= 4 * kPage) {
        fresh.reserve(v.size());
        const auto begin = reinterpret_cast<std::uintptr_t>(fresh.data());
        const std::uintptr_t first = (begin + kPage - 1) & ~(kPage - 1);
        const std::uintptr_t last = (begin + bytes) & ~(kPage - 1);
        const std::size_t pages = last > first ? (last - first) / kPage : 0;
        sim.parallelChunks(pages, 64, [first](std::size_t b, std::size_t e, int) {
            (void)madvise(reinterpret_cast<void*>(first + b * kPage), (e - b) * kPage,
                          MADV_POPULATE_WRITE);
        });
    }
#else
    (void)sim;
#endif
    fresh.assign(v.begin(), v.end());
    out = std::move(fresh);
}

/// True when every element of `v` is 0 (for doubles +0 or -0). Reads it in 256-byte blocks of
/// whole words (vectorised, no branch per element); only a block with a bit set leads to the
/// element-by-element test (a -0.0 has one). A keyframe asks it of 2.2 MB per 100,000 agents.
template <class T> bool allZero(const std::vector<T>& v) {
    static_assert(std::is_arithmetic_v<T>);
    const auto* p = reinterpret_cast<const unsigned char*>(v.data());
    const std::size_t bytes = v.size() * sizeof(T);
    auto exact = [&] { return std::all_of(v.begin(), v.end(), [](T x) { return x == T(0); }); };
    std::size_t i = 0;
    for (; i + 256 <= bytes; i += 256) {
        std::uint64_t bits = 0;
        for (std::size_t k = 0; k < 256; k += 8) {
            std::uint64_t word;
            std::memcpy(&word, p + i + k, 8);
            bits |= word;
        }
        if (bits != 0) return exact();
    }
    for (; i < bytes; ++i)
        if (p[i] != 0) return exact();
    return true;
}

/// `to` = `from`, or empty when every element of `from` is 0 (a snapshot's optional arrays).
template <class T> void copyUnlessAllZero(const std::vector<T>& from, std::vector<T>& to) {
    if (allZero(from))
        to.clear();
    else
        to = from;
}

template <class T> std::size_t vectorBytes(const std::vector<T>& v) {
    return v.size() * sizeof(T);
}

/// Bit equality of two vectors of trivially copyable elements without padding.
template <class T> bool sameBits(const std::vector<T>& a, const std::vector<T>& b) {
    static_assert(std::is_trivially_copyable_v<T>);
    return a.size() == b.size() &&
           (a.empty() || std::memcmp(a.data(), b.data(), a.size() * sizeof(T)) == 0);
}

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

bool sameBits(const AgentParams& a, const AgentParams& b) {
    return sameBits(a.radius, b.radius) && sameBits(a.maxSpeed, b.maxSpeed) &&
           sameBits(a.prefSpeed, b.prefSpeed) && sameBits(a.neighborDist, b.neighborDist) &&
           a.maxNeighbors == b.maxNeighbors && sameBits(a.timeHorizon, b.timeHorizon) &&
           sameBits(a.timeHorizonObst, b.timeHorizonObst) && sameBits(a.goalRadius, b.goalRadius) &&
           sameBits(a.waypointRadius, b.waypointRadius) &&
           sameBits(a.avoidanceWeight, b.avoidanceWeight);
}

bool sameBits(const SimulationParams& a, const SimulationParams& b) {
    const DetourParams& x = a.detour;
    const DetourParams& y = b.detour;
    return sameBits(a.timeStep, b.timeStep) && sameBits(a.responsibility, b.responsibility) &&
           sameBits(a.staticResponsibility, b.staticResponsibility) &&
           sameBits(a.lp3BisectorWeight, b.lp3BisectorWeight) && x.enabled == y.enabled &&
           sameBits(x.cellSize, y.cellSize) && sameBits(x.influenceRadius, y.influenceRadius) &&
           sameBits(x.enterSpeedRatio, y.enterSpeedRatio) &&
           sameBits(x.enterGoalDistance, y.enterGoalDistance) &&
           sameBits(x.sampleDistance, y.sampleDistance) &&
           sameBits(x.exitAlignedDegrees, y.exitAlignedDegrees) &&
           sameBits(x.exitGoalDistance, y.exitGoalDistance) &&
           x.neighborFallback == y.neighborFallback && sameBits(x.stillSpeed, y.stillSpeed) &&
           sameBits(x.stillSeconds, y.stillSeconds) && a.routing == b.routing &&
           a.deadlockBreaking == b.deadlockBreaking;
}

bool sameBits(const std::vector<std::vector<Vec2>>& a, const std::vector<std::vector<Vec2>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i)
        if (!sameBits(a[i], b[i])) return false;
    return true;
}

template <class T> std::size_t nestedBytes(const std::vector<std::vector<T>>& v) {
    std::size_t n = 0;
    for (const std::vector<T>& inner : v)
        n += sizeof inner + vectorBytes(inner);
    return n;
}

} // namespace

std::string formatStateHash(std::uint64_t hash) {
    char buf[17];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
    return buf;
}

std::size_t SimulatorState::Config::bytes() const {
    std::size_t n = sizeof(Config) + vectorBytes(prefVelocity) + vectorBytes(goal) +
                    vectorBytes(agentParams) + vectorBytes(hasGoal) + vectorBytes(isStatic) +
                    vectorBytes(ids) + agentSlots.bytes() + vectorBytes(obstacleIds) +
                    obstacleSlots.bytes();
    return n + nestedBytes(obstacles) + nestedBytes(waypoints);
}

bool SimulatorState::Config::sameBits(const Config& o) const {
    if (!orca::sameBits(params, o.params) || !orca::sameBits(prefVelocity, o.prefVelocity) ||
        !orca::sameBits(goal, o.goal) || !orca::sameBits(waypoints, o.waypoints) ||
        agentParams.size() != o.agentParams.size() || !orca::sameBits(hasGoal, o.hasGoal) ||
        !orca::sameBits(isStatic, o.isStatic) || !(ids == o.ids) || !(agentSlots == o.agentSlots) ||
        !orca::sameBits(neighborDistSum, o.neighborDistSum) ||
        neighborDistCount != o.neighborDistCount || agentsVersion != o.agentsVersion ||
        obstacles.size() != o.obstacles.size() || !(obstacleIds == o.obstacleIds) ||
        !(obstacleSlots == o.obstacleSlots))
        return false;
    for (std::size_t i = 0; i < agentParams.size(); ++i)
        if (!orca::sameBits(agentParams[i], o.agentParams[i])) return false;
    return orca::sameBits(obstacles, o.obstacles);
}

std::size_t SimulatorState::dynamicBytes() const {
    // (Capacities: a keyframe written into a spare or a dropped keyframe's memory may hold
    // more than its agents need, and a recording's budget counts what it holds.)
    auto held = [](const auto& v) { return v.capacity() * sizeof(v[0]); };
    return sizeof(SimulatorState) + held(position) + held(velocity) + held(detourMode) +
           held(detourReason) + held(stillSeconds) + held(routeProgress) + held(stallSeconds) +
           held(lastLp3);
}

std::size_t SimulatorState::bytes() const {
    return dynamicBytes() + (config ? config->bytes() : 0);
}

SimulatorState Simulator::snapshot(const SimulatorState* previous) const {
    SimulatorState s;
    snapshotInto(s, previous);
    return s;
}

void Simulator::snapshotInto(SimulatorState& s, const SimulatorState* previous) const {
    // The previous snapshot's configuration is shared when it holds the current bits. It is
    // compared in place (Config::sameBits' tests, field by field): a copy made only to be
    // found equal cost every keyframe of a run about 150 bytes per agent of copying, compared
    // and freed again, more than the dynamics themselves.
    const SimulatorState::Config* p =
        previous && previous->config ? previous->config.get() : nullptr;
    // (Taken at this configuration revision: the same bits, nothing to compare.)
    const bool sameRevision = p && p->revision != 0 && p->revision == m_configRevision;
    bool same =
        sameRevision ||
        (p && orca::sameBits(p->params, m_params) && orca::sameBits(p->prefVelocity, m_prefVel) &&
         orca::sameBits(p->goal, m_goal) && orca::sameBits(p->waypoints, m_waypoints) &&
         p->agentParams.size() == m_agentParams.size() && orca::sameBits(p->hasGoal, m_hasGoal) &&
         orca::sameBits(p->isStatic, m_static) && p->ids == m_ids &&
         p->agentSlots == m_agentSlots && orca::sameBits(p->neighborDistSum, m_neighborDistSum) &&
         p->neighborDistCount == m_neighborDistCount && p->agentsVersion == m_agentsVersion &&
         p->obstacleIds == m_obstacleIds && p->obstacleSlots == m_obstacleSlots &&
         orca::sameBits(p->obstacles, m_obstacles));
    for (std::size_t i = 0; same && !sameRevision && i < m_agentParams.size(); ++i)
        same = orca::sameBits(p->agentParams[i], m_agentParams[i]);
    if (same) {
        s.config = previous->config;
    } else {
        auto config = std::make_shared<SimulatorState::Config>();
        SimulatorState::Config& c = *config;
        c.params = m_params;
        c.prefVelocity = m_prefVel;
        c.goal = m_goal;
        c.waypoints = m_waypoints;
        c.agentParams = m_agentParams;
        c.hasGoal = m_hasGoal;
        c.isStatic = m_static;
        c.ids = m_ids;
        c.agentSlots = m_agentSlots;
        c.neighborDistSum = m_neighborDistSum;
        c.neighborDistCount = m_neighborDistCount;
        c.agentsVersion = m_agentsVersion;
        c.obstacles = m_obstacles;
        c.obstacleIds = m_obstacleIds;
        c.obstacleSlots = m_obstacleSlots;
        c.revision = m_configRevision;
        s.config = std::move(config);
    }

    s.time = m_time;
    s.stepCount = m_stepCount;
    s.lastStats = m_lastStats;
    assignPrefaulted(m_pos, s.position, *this);
    assignPrefaulted(m_vel, s.velocity, *this);
    // Detour states, route progress and timers only when some agent has one (else they cost
    // every keyframe 22 bytes per agent for zeros).
    if (!allZero(m_detourMode) || !allZero(m_detourReason)) {
        s.detourMode = m_detourMode;
        s.detourReason = m_detourReason;
    } else {
        s.detourMode.clear();
        s.detourReason.clear();
    }
    copyUnlessAllZero(m_stillSeconds, s.stillSeconds);
    copyUnlessAllZero(m_routeProgress, s.routeProgress);
    copyUnlessAllZero(m_stallSeconds, s.stallSeconds);
    const auto lp3 = lastStepLp3();
    s.lastLp3.assign(lp3.begin(), lp3.end());
}

void Simulator::restore(const SimulatorState& s) {
    if (!s.config) throw InvalidArgument("restore: the snapshot has no configuration");
    const SimulatorState::Config& c = *s.config;
    const std::size_t n = s.position.size();
    if (s.velocity.size() != n || c.prefVelocity.size() != n || c.goal.size() != n ||
        c.agentParams.size() != n || c.hasGoal.size() != n || c.isStatic.size() != n ||
        c.ids.size() != n || (!s.detourMode.empty() && s.detourMode.size() != n) ||
        s.detourReason.size() != s.detourMode.size() ||
        (!s.stillSeconds.empty() && s.stillSeconds.size() != n) || c.waypoints.size() != n ||
        (!s.routeProgress.empty() && s.routeProgress.size() != n) ||
        (!s.stallSeconds.empty() && s.stallSeconds.size() != n) ||
        (!s.lastLp3.empty() && s.lastLp3.size() != n) || c.obstacles.size() != c.obstacleIds.size())
        throw InvalidArgument("restore: the snapshot's per-agent arrays differ in length");
    touch();
    m_watching = false; // (a jump: whoever watched the run asks again; watchSteps)
    m_params = c.params;
    m_prefVel = c.prefVelocity;
    m_goal = c.goal;
    m_agentParams = c.agentParams;
    m_hasGoal = c.hasGoal;
    m_static = c.isStatic;
    m_ids = c.ids;
    m_agentSlots = c.agentSlots;
    m_neighborDistSum = c.neighborDistSum;
    m_neighborDistCount = c.neighborDistCount;
    m_agentsVersion = c.agentsVersion;
    m_waypoints = c.waypoints;
    m_waypointAgents = static_cast<std::size_t>(
        std::count_if(m_waypoints.begin(), m_waypoints.end(),
                      [](const std::vector<Vec2>& w) { return !w.empty(); }));
    m_roadmapClearanceValid = false;
    m_radius.resize(n);
    m_weight.resize(n);
    m_weightedAgents = 0;
    for (std::size_t i = 0; i < n; ++i) {
        m_radius[i] = m_agentParams[i].radius;
        m_weight[i] = m_agentParams[i].avoidanceWeight;
        m_weightedAgents += m_weight[i] != 1.0 ? 1 : 0;
    }
    // Obstacles: the derived vertex list and index are rebuilt only when they differ.
    bool sameObstacles = m_obstacleIds == c.obstacleIds && m_obstacles.size() == c.obstacles.size();
    for (std::size_t k = 0; sameObstacles && k < m_obstacles.size(); ++k)
        sameObstacles = orca::sameBits(m_obstacles[k], c.obstacles[k]);
    m_obstacleIds = c.obstacleIds;
    m_obstacleSlots = c.obstacleSlots;
    if (!sameObstacles) {
        m_obstacles = c.obstacles;
        rebuildObstacles();
    }

    m_time = s.time;
    m_stepCount = s.stepCount;
    m_lastStats = s.lastStats;
    m_pos = s.position;
    invalidateNeighborLists();
    m_vel = s.velocity;
    if (s.detourMode.empty()) {
        m_detourMode.assign(n, 0);
        m_detourReason.assign(n, 0);
    } else {
        m_detourMode = s.detourMode;
        m_detourReason = s.detourReason;
    }
    if (s.stillSeconds.empty())
        m_stillSeconds.assign(n, 0.0);
    else
        m_stillSeconds = s.stillSeconds;
    if (s.routeProgress.empty())
        m_routeProgress.assign(n, 0);
    else
        m_routeProgress = s.routeProgress;
    if (s.stallSeconds.empty())
        m_stallSeconds.assign(n, 0.0);
    else
        m_stallSeconds = s.stallSeconds;
    m_lastLp3 = s.lastLp3;
    // The configuration is the snapshot's now (rebuildObstacles above took a new revision).
    m_configRevision = c.revision != 0 ? c.revision : m_revision;
    m_agentDefsRevision = m_revision; // (this restore's own: the step's caches are taken again)
    // The detour field is a cache of the sources' state: rebuilt on the next step.
    m_detourField.clear();
    m_detourSignature = 0;
}

} // namespace orca
