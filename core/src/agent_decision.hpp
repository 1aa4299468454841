#pragma once
/// \file agent_decision.hpp
/// One agent's decision once its neighbours are chosen, shared by Simulator::step() and the
/// explain path (simulator.cpp, simulator_explain.cpp): obstacle and agent ORCA lines and the
/// linear programs, with the per-worker scratch buffers they use. Internal to core/src; inline
/// so that the step's hot loop compiles as one piece.

#include <algorithm>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <utility>
#include <vector>

#include "agent_grid.hpp"
#include "agent_line_kernel.hpp"
#include "orca/linear_program.hpp"
#include "orca/obstacles.hpp"
#include "orca/orca_lines.hpp"
#include "orca/types.hpp"

namespace orca::detail {

/// Per-thread reusable buffers for one agent's decision. Cache-line aligned: the workers'
/// scratch objects sit side by side and are written constantly (vector ends), so sharing a
/// line would make the threads fight over it.
struct alignas(64) Scratch {
    /// The selected neighbours are neighbors[0, neighborCount): the buffer only grows, so
    /// that selecting never pays for constructing elements.
    std::vector<detail::Neighbor> neighbors;
    std::size_t neighborCount = 0;
    std::vector<std::uint32_t> segments;
    std::vector<double> segmentDistSq;
    std::vector<Line> lines;
    std::vector<Line> projected;
    std::vector<ObstacleLineRecord> obstacleRecords;
    // Item ranges of the block of cells around the current cell, and of more cells an agent
    // searches beyond it.
    std::vector<detail::ItemRange> ranges;
    std::vector<detail::ItemRange> moreRanges;
    /// Grid searches of the step: the sum of the k-th neighbour's squared distance over the
    /// agents whose list was full, and their count (the next grid's cell size).
    double kthDistSqSum = 0.0;
    std::size_t kthCount = 0;
    // Candidates of one agent within its range.
    std::vector<double> candDistSq;
    std::vector<std::uint32_t> candAgent;
    std::vector<std::uint32_t> candOrder; ///< partial sort of many candidates
    /// The step's guard: the smallest agent index whose decision this worker found not
    /// finite, or kNoAgent.
    static constexpr std::uint32_t kNoAgent = 0xffffffffu;
    std::uint32_t nonFinite = kNoAgent;
    /// A contact watch's pairs found by this worker (Simulator::lastStepContacts), (i, j) in
    /// either order: contacts[0, contactCount). The buffer only grows, so that a pair can be
    /// written before it is known to be one (then counted or not, without a branch).
    std::vector<std::pair<std::uint32_t, std::uint32_t>> contacts;
    std::size_t contactCount = 0;
    /// How many pairs the current block of agents may still offer with noteContactInRoom (one
    /// per agent at most): the buffer keeps room for them (keepContactRoom).
    std::size_t contactRoom = 0;
    /// Whether an agent's neighbours fell short of the contact reach.
    bool contactsShort = false;
    /// Pair (i, j) as a contact when `within`: written at contacts[contactCount] either way.
    void noteContact(std::uint32_t i, std::uint32_t j, bool within) {
        if (contactCount == contacts.size())
            contacts.resize(std::max<std::size_t>(64, 2 * contacts.size()));
        noteContactInRoom(i, j, within);
    }
    /// noteContact without the test for room: the block's keepContactRoom made it.
    void noteContactInRoom(std::uint32_t i, std::uint32_t j, bool within) {
        assert(contactCount < contacts.size());
        contacts[contactCount] = {i, j};
        contactCount += within ? 1 : 0;
    }
    /// Room for `contactRoom` more pairs.
    void keepContactRoom() {
        if (contacts.size() < contactCount + contactRoom)
            contacts.resize(std::max<std::size_t>(64, 2 * (contactCount + contactRoom)));
    }
    std::vector<detail::ItemRange> contactRanges; ///< the grid cells a contact search visits
    // Agent-line kernel arrays (grow-only: resizing per agent costs more than the kernel).
    std::vector<double> rpx, rpy, rvx, rvy, radius, dx, dy, ux, uy;
    std::vector<double> share;        ///< of u, per neighbour (shareOfU)
    std::vector<std::uint32_t> index; ///< the neighbours' agent indices (gathered kernel)
    std::vector<std::uint8_t> lineCase;

    void reserveLines(std::size_t n) {
        if (rpx.size() >= n) return;
        for (auto* v : {&rpx, &rpy, &rvx, &rvy, &radius, &dx, &dy, &ux, &uy, &share})
            v->resize(n);
        index.resize(n);
        lineCase.resize(n);
    }
    void reserveCandidates(std::size_t n) {
        if (candDistSq.size() >= n) return;
        candDistSq.resize(n);
        candAgent.resize(n);
    }
};

/// The state of the agents that a neighbour's line reads, by agent index (Neighbor::agent):
/// the simulator's own arrays, however the neighbours were found.
struct AgentArrays {
    const Vec2* position;
    const Vec2* velocity;
    const double* radius;
    const std::uint8_t* isStatic;
    /// Avoidance weights, or null when every agent has weight 1 (the shares are then
    /// responsibility's, without reading weights).
    const double* weight;
};

/// p_j - p_i for neighbour j of agent i. Centres so close that the squared distance underflows
/// (coincident, or nearer than about 1.5e-154: denormal coordinates, spreads of 1e-200) give
/// no usable direction — the kernel would divide by zero — so they are split deterministically
/// by agent order, 1e-9 apart (RVO2 produces NaN for them). AgentLineSources' gathered kernel
/// applies the same rule lane by lane.
inline Vec2 relativePosition(Vec2 pj, Vec2 pi, std::uint32_t j, std::uint32_t i) {
    const Vec2 rel = pj - pi;
    if (rel.x * rel.x + rel.y * rel.y < std::numeric_limits<double>::min())
        return {j > i ? 1e-9 : -1e-9, 0.0};
    return rel;
}

/// Everything one agent's decision reads, gathered once.
struct AgentView {
    Vec2 position;
    Vec2 velocity;
    Vec2 prefVelocity;
    const AgentParams* params;
};

/// The share of u an agent takes toward a neighbour (orca-spec section 5.3): `responsibility`, or
/// `staticResponsibility` toward a static agent, which never reciprocates. The step and explain
/// both use it, so an explained line is the step's line.
inline double shareOfU(const SimulationParams& sim, bool otherStatic) {
    return otherStatic ? sim.staticResponsibility : sim.responsibility;
}

/// The same with avoidance weights (AgentParams::avoidanceWeight): equal weights (0 and 0 too)
/// give `responsibility` exactly; otherwise 2·responsibility·w_self / (w_self + w_other), at
/// most 1. Toward a static agent, staticResponsibility.
inline double shareOfU(const SimulationParams& sim, bool otherStatic, double self, double other) {
    if (otherStatic) return sim.staticResponsibility;
    if (self == other) return sim.responsibility;
    return std::min(1.0, 2.0 * sim.responsibility * (self / (self + other)));
}

/// Agent `self`'s share of u toward neighbour j (weights when the arrays carry them).
inline double shareOfU(const SimulationParams& sim, const AgentArrays& agents, std::uint32_t self,
                       std::uint32_t j) {
    const bool otherStatic = agents.isStatic[j] != 0;
    return agents.weight ? shareOfU(sim, otherStatic, agents.weight[self], agents.weight[j])
                         : shareOfU(sim, otherStatic);
}

/// Obstacle lines (built first; orca-spec section 4), optionally with explain records.
inline void addObstacleLines(const AgentView& a, std::span<const ObstacleVertex> vertices,
                             const ObstacleGrid& obstGrid, Scratch& s, bool record) {
    const AgentParams& p = *a.params;
    if (record) s.obstacleRecords.clear();
    if (vertices.empty()) {
        s.segments.clear();
        return;
    }
    const double range = p.timeHorizonObst * p.maxSpeed + p.radius;
    obstGrid.query(a.position, range, s.segments, s.segmentDistSq);
    if (s.segments.empty()) return;
    obstacleOrcaLines(vertices, s.segments, s.segmentDistSq, a.position, a.velocity, p.radius,
                      1.0 / p.timeHorizonObst, s.lines, record ? &s.obstacleRecords : nullptr);
}

/// Agent lines for s.neighbors (orca-spec section 5), appended in neighbour order.
inline void addAgentLines(const AgentView& a, std::uint32_t self, const SimulationParams& sim,
                          const AgentArrays& agents, Scratch& s) {
    const std::size_t n = s.neighborCount;
    if (n == 0) return;
    // Room for whole quadruples: the kernel then runs no scalar tail, whose data-dependent
    // branches mispredict (padding lanes are computed and ignored).
    const std::size_t padded = (n + 3) & ~std::size_t{3};
    s.reserveLines(padded);
    const Neighbor* const neighbors = s.neighbors.data();
    const Vec2 p = a.position;
    const Vec2 v = a.velocity;
    const double radius = a.params->radius;
    const AgentLineBatch batch{s.rpx.data(),    s.rpy.data(),     s.rvx.data(), s.rvy.data(),
                               s.radius.data(), s.dx.data(),      s.dy.data(),  s.ux.data(),
                               s.uy.data(),     s.lineCase.data()};
    double* const share = s.share.data();
#if defined(ORCA_HAVE_AVX2_KERNEL)
    static const bool avx2 = cpuHasAvx2();
    if (avx2) {
        std::uint32_t* const index = s.index.data();
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t j = neighbors[k].agent;
            index[k] = j;
            share[k] = shareOfU(sim, agents, self, j);
        }
        for (std::size_t k = n; k < padded; ++k)
            index[k] = index[n - 1]; // a real neighbour: finite lanes, ignored
        const AgentLineSources src{
            agents.position, agents.velocity, agents.radius, index, self, p, v, radius};
        computeAgentLinesGatheredAvx2(padded, src, batch, 1.0 / a.params->timeHorizon,
                                      1.0 / sim.timeStep);
    } else
#endif
    {
        double* const rpx = s.rpx.data();
        double* const rpy = s.rpy.data();
        double* const rvx = s.rvx.data();
        double* const rvy = s.rvy.data();
        double* const combined = s.radius.data();
        for (std::size_t k = 0; k < n; ++k) {
            const std::uint32_t j = neighbors[k].agent;
            const Vec2 relPos = relativePosition(agents.position[j], p, j, self);
            const Vec2 relVel = v - agents.velocity[j];
            rpx[k] = relPos.x;
            rpy[k] = relPos.y;
            rvx[k] = relVel.x;
            rvy[k] = relVel.y;
            combined[k] = radius + agents.radius[j];
            share[k] = shareOfU(sim, agents, self, j);
        }
        for (std::size_t k = n; k < padded; ++k) {
            rpx[k] = 1.0; // any finite, non-degenerate pair
            rpy[k] = 0.0;
            rvx[k] = 0.0;
            rvy[k] = 0.0;
            combined[k] = 0.5;
        }
        detail::computeAgentLines(n, padded, batch, 1.0 / a.params->timeHorizon,
                                  1.0 / sim.timeStep);
    }
    for (std::size_t k = 0; k < n; ++k) {
        s.lines.push_back({{v.x + share[k] * batch.ux[k], v.y + share[k] * batch.uy[k]},
                           {batch.dx[k], batch.dy[k]}});
    }
}

/// The decision of one agent given its neighbours in s.neighbors (explain path: the caller
/// fills the record from the scratch buffers afterwards).
inline SolveResult decide(const AgentView& a, std::uint32_t self, const SimulationParams& sim,
                          std::span<const ObstacleVertex> vertices, const ObstacleGrid& obstGrid,
                          const AgentArrays& agents, Scratch& s, bool record,
                          LpTrace* trace = nullptr) {
    s.lines.clear();
    addObstacleLines(a, vertices, obstGrid, s, record);
    const std::size_t numObstLines = s.lines.size();
    addAgentLines(a, self, sim, agents, s);
    // The traced solve is a separate instantiation (explain path only); same operations.
    if (trace)
        return solveVelocity(s.lines, numObstLines, a.params->maxSpeed, a.prefVelocity,
                             sim.lp3BisectorWeight, s.projected, *trace);
    return solveVelocity(s.lines, numObstLines, a.params->maxSpeed, a.prefVelocity,
                         sim.lp3BisectorWeight, s.projected);
}

} // namespace orca::detail
