#pragma once
/// \file neighbor_lists.hpp
/// Candidate lists ("Verlet lists") for the step's neighbour search (docs/core.md, "Candidate
/// lists"). For every agent that looks for neighbours, the list holds every agent that was
/// within neighborDist + skin of it when the lists were built. While every agent has moved
/// less than skin / 2 since — a bound the step accumulates from its moves — every agent now
/// within neighborDist of an agent is on its list, so choosing the nearest from the list gives
/// exactly the neighbours the grid would (neighbor_select.hpp: the choice depends only on the
/// distances and agent indices). A step that uses the lists builds no grid and scans fewer
/// candidates; the lists are rebuilt every few steps (when the agents have moved half the
/// skin), and not used at all when agents move too fast for them to last or a crowd is packed
/// so tightly that they would be long. Which path a step takes changes its speed, never its
/// result. Internal to core/src.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "orca/types.hpp"

namespace orca::detail {

class AgentGrid;
class ThreadPool;
struct Scratch;

class NeighborLists {
  public:
    /// The skin, as a share of the agents' mean neighbour distance: wider lasts longer but
    /// lists more candidates (0.3 measured best on the circle and uniform workloads).
    static constexpr double kSkinShare = 0.3;
    /// Lists are not built when the agents moved more than skin / kMinLifeSteps / 2 in the last
    /// step: they would be rebuilt nearly every step, at more cost than the grid search.
    static constexpr double kMinLifeSteps = 2.0;
    /// Most candidates per agent on average (and the most for one agent): a build that lists
    /// more is dropped, and the next kRetrySteps steps search the grid.
    static constexpr std::size_t kMaxMeanCandidates = 32;
    static constexpr std::uint32_t kMaxCandidates = (1u << 24) - 1;
    static constexpr int kRetrySteps = 16;

    /// What the next step should do, for new lists of skin `skin` (> 0).
    enum class Plan {
        Use,   ///< the lists are valid: search them
        Build, ///< build new lists (from a grid with cells of at least max reach / 3)
        Grid,  ///< search the grid
    };
    [[nodiscard]] Plan plan(double skin) const;

    /// Builds the lists for the agents of `grid` (built over `pos`): for agent i (not static,
    /// maxNeighbors > 0) every other agent j with |p_j - p_i|² < (neighborDist_i + skin)².
    /// Returns false, and the lists stay invalid, when the grid has dense cells or the lists
    /// would exceed the limits above. `scratch` has one entry per worker of `pool`.
    bool build(const AgentGrid& grid, double skin, std::span<const Vec2> pos,
               std::span<const AgentParams> params, std::span<const std::uint8_t> isStatic,
               ThreadPool& pool, std::span<Scratch> scratch);

    /// True when the lists may be searched (built, not invalidated, not expired).
    [[nodiscard]] bool usable() const { return m_valid && 2.0 * m_drift <= m_allowed; }
    /// The agents in the order the lists were built (cell by cell: neighbours close in memory).
    [[nodiscard]] std::span<const std::uint32_t> order() const { return m_order; }
    /// Agent i's candidates (agent indices, i excluded).
    [[nodiscard]] std::span<const std::uint32_t> candidates(std::uint32_t i) const {
        const Ref r = m_ref[i];
        return {m_buffers[r.countWorker >> 24].data() + r.offset, r.countWorker & kMaxCandidates};
    }

    /// After a step's move p += v·dt: the largest |v|² of the agents that moved, the time step
    /// and the largest |coordinate| after the move (NaN or infinite values expire the lists).
    /// Returns the bound on any agent's displacement in the move (StepStats::maxMove).
    double moved(double maxSpeedSq, double dt, double maxAbsCoordinate);
    /// Positions or agents changed other than by the step's move: the lists are void.
    void invalidate() { m_valid = false; }
    /// Positions changed other than by the step's move, none by more than `distance`: the lists
    /// hold while the drift bound allows (a NaN or infinite distance voids them).
    void displaced(double distance) {
        if (distance >= 0.0 && distance <= 1e300)
            m_drift += distance * (1.0 + 1e-12);
        else
            m_valid = false;
    }

  private:
    struct Ref {
        std::uint32_t offset;      ///< in m_buffers[worker]
        std::uint32_t countWorker; ///< count | worker << 24
    };
    bool drop();

    bool m_valid = false;
    double m_allowed = 0.0;      ///< 2 * drift may reach this: the skin less a rounding margin
    double m_drift = 0.0;        ///< bound on any agent's displacement since the build
    double m_lastStep = 0.0;     ///< the last move's displacement bound
    int m_retryIn = 0;           ///< steps before a dropped build is tried again
    std::size_t m_lastTotal = 0; ///< candidates listed by the last build
    std::vector<std::uint32_t> m_order;
    std::vector<Ref> m_ref;                            ///< per agent
    std::vector<std::vector<std::uint32_t>> m_buffers; ///< per worker: its agents' lists
};

} // namespace orca::detail
