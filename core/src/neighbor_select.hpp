#pragma once
/// \file neighbor_select.hpp
/// Choosing an agent's `maxNeighbors` nearest neighbours from its candidates, for the step
/// (simulator.cpp) and the candidate lists (neighbor_lists.cpp): the candidates come either
/// from the grid's items around the agent's cell or from the agent's candidate list, and the
/// choice — the nearest within neighborDist, sorted by (distSq, agent index) — depends on
/// their distances and agent indices only, never on the order they are offered in. Internal to
/// core/src.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "agent_decision.hpp"
#include "agent_grid.hpp"

namespace orca::detail {

/// rank[a] = how many of dist[0, count) are below dist[a], for count <= Pad (a multiple of
/// 2). dist has room for Pad values: the padding is +infinity, which is below nothing. All of
/// dist sits in registers and the ranks are independent of each other, so they overlap.
template <std::size_t Pad>
inline void rankByDistance(double* dist, std::size_t count, std::uint32_t* rank) {
    for (std::size_t k = count; k < Pad; ++k)
        dist[k] = std::numeric_limits<double>::infinity();
#if defined(__SSE2__)
    // Two 8-byte loads per register, not one 16-byte load: the scan has just stored the
    // distances one by one, and a load spanning two pending stores cannot be forwarded.
    __m128d v[Pad / 2];
    for (std::size_t j = 0; j < Pad / 2; ++j)
        v[j] = _mm_loadh_pd(_mm_load_sd(dist + 2 * j), dist + 2 * j + 1);
    for (std::size_t a = 0; a < count; ++a) {
        const __m128d x = _mm_set1_pd(dist[a]);
        __m128i n = _mm_setzero_si128(); // a true compare is all ones: -1 per lane
        for (std::size_t j = 0; j < Pad / 2; ++j)
            n = _mm_sub_epi64(n, _mm_castpd_si128(_mm_cmplt_pd(v[j], x)));
        rank[a] = static_cast<std::uint32_t>(_mm_cvtsi128_si64(n) +
                                             _mm_cvtsi128_si64(_mm_unpackhi_epi64(n, n)));
    }
#else
    for (std::size_t a = 0; a < count; ++a) {
        std::uint32_t n = 0;
        for (std::size_t b = 0; b < Pad; ++b)
            n += dist[b] < dist[a];
        rank[a] = n;
    }
#endif
}

/// The candidates are s.candDistSq / s.candAgent [0, count), all within range, self excluded
/// (room for at least kMinCandidateRoom of them): puts the `maxNeighbors` nearest in
/// s.neighbors[0, s.neighborCount), sorted by (distSq, agent index).
constexpr std::size_t kMinCandidateRoom = 24;
inline void pickNearest(std::size_t count, std::size_t maxNeighbors, Scratch& s) {
    s.neighborCount = 0;
    if (count == 0) return;
    double* dist = s.candDistSq.data();
    const std::uint32_t* agent = s.candAgent.data();
    // Candidate a comes before b: nearer, or as near and earlier in agent order.
    auto before = [dist, agent](std::size_t a, std::size_t b) {
        return (dist[a] < dist[b]) | ((dist[a] == dist[b]) & (agent[a] < agent[b]));
    };
    const std::size_t keep = std::min(count, maxNeighbors);
    if (s.neighbors.size() < keep) s.neighbors.resize(keep);
    s.neighborCount = keep;
    if (count <= kMinCandidateRoom) {
        // Rank of each candidate = number of candidates before it: few candidates, so
        // O(count²) branch-free compares beat a sort's unpredictable branches. Distances
        // alone first (the cheap compare); when two are equal their ranks collide, and only
        // then the full order with its agent-index tie-break.
        std::uint32_t rank[kMinCandidateRoom];
        if (count <= 8) {
            rankByDistance<8>(dist, count, rank);
        } else if (count <= 16) {
            rankByDistance<16>(dist, count, rank);
        } else {
            rankByDistance<24>(dist, count, rank);
        }
        std::uint32_t taken = 0;
        for (std::size_t a = 0; a < count; ++a) {
            taken |= 1u << rank[a];
            if (rank[a] < keep) s.neighbors[rank[a]] = {dist[a], agent[a]};
        }
        if (taken == (1u << count) - 1u) return; // all distinct: the order is by distance
        // Equal distances share a rank r; each of them goes to r + the number of them with a
        // lower agent index. Only the tied ones are recounted (a crowd on a lattice has many
        // ties, and a full recount of every candidate cost it a fifth of its step).
        std::uint8_t sharing[kMinCandidateRoom] = {};
        for (std::size_t a = 0; a < count; ++a)
            ++sharing[rank[a]];
        for (std::size_t a = 0; a < count; ++a) {
            if (sharing[rank[a]] < 2) continue;
            std::size_t place = rank[a];
            for (std::size_t b = 0; b < count; ++b)
                place += (dist[b] == dist[a]) & (agent[b] < agent[a]);
            if (place < keep) s.neighbors[place] = {dist[a], agent[a]};
        }
        return;
    }
    // The `keep` best so far, in order (insertion): a candidate that is not before the worst
    // of them is rejected with one compare, which is what almost every candidate of a dense
    // crowd gets (partial_sort's heap cost a third of such steps). Same strict order, so the
    // same neighbours in the same order.
    std::vector<std::uint32_t>& best = s.candOrder;
    best.resize(keep);
    std::size_t filled = 0;
    for (std::size_t a = 0; a < count; ++a) {
        if (filled == keep && !before(a, best[keep - 1])) continue;
        std::size_t at = filled < keep ? filled++ : keep - 1;
        while (at > 0 && before(a, best[at - 1])) {
            best[at] = best[at - 1];
            --at;
        }
        best[at] = static_cast<std::uint32_t>(a);
    }
    for (std::size_t r = 0; r < keep; ++r) {
        const std::uint32_t a = best[r];
        s.neighbors[r] = {dist[a], agent[a]};
    }
}

/// The items of s.ranges strictly within the range of `p`, agent `self` excluded, into
/// s.candDistSq / s.candAgent [0, count) in item order (with room for pickNearest): returns
/// count.
inline std::size_t gatherCandidates(Vec2 p, std::uint32_t self, double rangeSq,
                                    const AgentGrid& grid, Scratch& s) {
    const std::span<const Vec2> pos = grid.itemPositions();
    const std::span<const std::uint32_t> agents = grid.itemAgents();
    std::size_t total = 0;
    for (const ItemRange& r : s.ranges)
        total += r.end - r.begin;
    s.reserveCandidates(std::max(total, kMinCandidateRoom));
    double* dist = s.candDistSq.data();
    std::uint32_t* agent = s.candAgent.data();
    std::size_t count = 0;
    for (const ItemRange& r : s.ranges) {
        for (std::uint32_t k = r.begin; k < r.end; ++k) {
            const double dx = pos[k].x - p.x;
            const double dy = pos[k].y - p.y;
            const double d = dx * dx + dy * dy;
            dist[count] = d;
            agent[count] = agents[k];
            count += (d < rangeSq) & (agents[k] != self);
        }
    }
    return count;
}

/// The `maxNeighbors` nearest agents of `p` (strictly within the range, excluding `self`)
/// among the items of s.ranges: the same set and order as AgentGrid::nearest.
inline void selectFromRanges(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                             const AgentGrid& grid, Scratch& s) {
    pickNearest(gatherCandidates(p, self, rangeSq, grid, s), maxNeighbors, s);
}

/// Lists of at most this many candidates are chosen from by insertion, longer ones by rank.
constexpr std::size_t kInsertionCandidates = 8;

/// The `maxNeighbors` nearest agents of `p` strictly within the range among `candidates`
/// (agent indices, `p`'s own agent not among them), whose positions are `pos`, into
/// s.neighbors sorted by (distSq, agent index). The candidates come nearly sorted (a list is
/// sorted when built and the agents have moved little since), so for a few of them an
/// insertion sort inserts most at the end after one compare: exact whatever their order,
/// cheap in this one. Longer lists reorder more as a crowd mixes, and the insertion's
/// mispredicted branches would cost more than ranking them (pickNearest, branch-free).
inline void selectFromList(Vec2 p, double rangeSq, std::size_t maxNeighbors, const Vec2* pos,
                           std::span<const std::uint32_t> candidates, Scratch& s) {
    if (candidates.size() > kInsertionCandidates) {
        s.reserveCandidates(std::max(candidates.size(), kMinCandidateRoom));
        double* dist = s.candDistSq.data();
        std::uint32_t* agent = s.candAgent.data();
        std::size_t count = 0;
        for (const std::uint32_t j : candidates) {
            const double dx = pos[j].x - p.x;
            const double dy = pos[j].y - p.y;
            const double d = dx * dx + dy * dy;
            dist[count] = d;
            agent[count] = j;
            count += d < rangeSq;
        }
        pickNearest(count, maxNeighbors, s);
        return;
    }
    const std::size_t room = std::min(maxNeighbors, candidates.size());
    s.neighborCount = 0;
    if (room == 0) return;
    if (s.neighbors.size() < room) s.neighbors.resize(std::max(room, 2 * s.neighbors.size()));
    Neighbor* const kept = s.neighbors.data();
    std::size_t count = 0;
    for (const std::uint32_t j : candidates) {
        const double dx = pos[j].x - p.x;
        const double dy = pos[j].y - p.y;
        const double d = dx * dx + dy * dy;
        if (!(d < rangeSq)) continue;
        // Bounded insertion by (distSq, agent index).
        auto before = [d, j](const Neighbor& n) {
            return d < n.distSq || (d == n.distSq && j < n.agent);
        };
        std::size_t at = count;
        if (count == room) {
            if (!before(kept[count - 1])) continue;
            --at; // the last kept one drops out
        } else {
            ++count;
        }
        while (at > 0 && before(kept[at - 1])) {
            kept[at] = kept[at - 1];
            --at;
        }
        kept[at] = {d, j};
    }
    s.neighborCount = count;
}

} // namespace orca::detail
