#pragma once
// The step's workspace (simulator.cpp): the neighbour search, per-step outputs and workers a
// Simulator keeps between steps. Private to the core's sources.
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "agent_grid.hpp"
#include "detour_policy.hpp"
#include "neighbor_lists.hpp"
#include "neighbor_select.hpp"
#include "orca/simulator.hpp"
#include "thread_pool.hpp"

namespace orca {

/// The largest agent count plus one (an index that is none).
inline constexpr std::uint32_t kNoIndex = 0xffffffffu;

/// The step's machinery: nothing here is state a caller can observe (docs/core.md, "A step").
struct detail::StepWorkspace {
    detail::AgentGrid grid;
    detail::NeighborLists lists; ///< searched instead of the grid while they hold
    // Per-step outputs, per agent, applied by the move.
    std::vector<Vec2> newVelocity;
    std::vector<std::uint8_t> nextDetourMode;
    std::vector<std::uint8_t> detourReason;
    std::vector<std::uint8_t> detouring;
    std::vector<std::uint8_t> lp3; ///< LP3 ran, per agent (m_lastLp3 once the step commits)
    detail::DetourSources sources; ///< this step's detour field sources
    std::vector<Vec2> targets;     ///< this step's route targets (roadmap routing)
    std::vector<Vec2> basePref;    ///< v_pref before deadlock breaking's turn (when it is on)
    std::span<const Vec2> forced;  ///< stepWithVelocities' velocities (empty otherwise)
    std::vector<detail::Scratch> scratch; ///< one per worker
    /// Cell size for the next grid search (0: none measured yet), see step().
    double searchCell = 0.0;
    /// The move's counts and bounds, one per worker (a cache line each), combined after it.
    struct alignas(64) WorkerStats {
        StepStats stats;
        double maxSpeedSq = 0.0;       ///< of the agents that moved
        double maxAbsCoordinate = 0.0; ///< after the move
    };
    std::vector<WorkerStats> stats;
    /// The largest radius of any agent, as of the agents' definitions' revision
    /// `maxRadiusRevision` (Simulator::m_agentDefsRevision; a contact watch's completeness test
    /// and its pairs' bound; radii change only with the definitions). 0: not taken yet
    /// (revisions start at 1).
    double maxRadius = 0.0;
    double minRadius = 0.0; ///< the smallest, as of the same revision
    std::uint64_t maxRadiusRevision = 0;
    /// A watched step's per-agent thresholds for kSlow and kFlip (step_watch.hpp:
    /// slowSpeedSq, flipTinySq), as of the agents' definitions' revision `motionRevision` and
    /// the watch's slowSpeedRatio `motionRatio` (0: not taken yet).
    std::vector<double> slowSq;
    std::vector<double> tinySq;
    std::uint64_t motionRevision = 0;
    double motionRatio = 0.0;
    /// The last step's contacts (StepWatch::contactReach; Simulator::lastStepContacts): the
    /// workers' lists joined, and whether they hold every pair that overlaps after the move.
    std::vector<std::pair<std::uint32_t, std::uint32_t>> contacts;
    bool contactsComplete = false;
    std::unique_ptr<detail::ThreadPool> pool;

    explicit StepWorkspace(int threads) { resize(threads); }
    void resize(int threads) {
        pool = std::make_unique<detail::ThreadPool>(threads);
        scratch.resize(static_cast<std::size_t>(pool->size()));
        stats.resize(static_cast<std::size_t>(pool->size()));
    }
};

} // namespace orca
