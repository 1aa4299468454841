// EventDetector's overlap detection (overlap-begin, overlap-end and the flood events): pairs
// of agents whose disks overlap, found through a candidate list with a skin (a Verlet list)
// over the agents radix-sorted by grid cell, or by a direct sweep of the cells when the list
// would overflow its budget.
#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <utility>

#include "orca/events.hpp"

namespace orca {

namespace {

/// Grid cell coordinate of x: floor(x / cell) clamped to [-2^30, 2^30] (positions are finite
/// but may be huge for the cell size). Clamping is monotonic, so agents in adjacent cells stay
/// in the same or adjacent cells and no pair is missed; far-apart agents that share a clamped
/// cell are only tested, never reported.
double cellCoord(double x, double invCell) {
    constexpr double kClamp = 1073741824.0; // 2^30
    return std::clamp(std::floor(x * invCell), -kClamp, kClamp);
}

bool finite(Vec2 p) {
    return std::isfinite(p.x) && std::isfinite(p.y);
}

/// Sweeps agents sorted by cell (row-major keys, `width` cells per row, at least one empty
/// column at the right): each agent meets the rest of its row from its own cell to the next,
/// and the three cells above it, found by a pointer that only moves forward, so every pair in
/// the same or adjacent cells is offered once to test(k, m) (sorted positions k, m). Stops
/// when test returns false; returns false then.
/// sweepCells() for the agents [k0, k1) only (their pairs with any later agent): the sweeps
/// of consecutive ranges together offer exactly the pairs of the whole sweep.
template <class Test>
bool sweepCellRange(const std::uint64_t* keys, std::size_t placed, std::uint64_t width,
                    std::size_t k0, std::size_t k1, Test&& test) {
    // First agent at or after the cell up-left of the current one: where the whole sweep's
    // forward-only pointer stands once it reaches agent k0.
    std::size_t above =
        k0 < placed ? static_cast<std::size_t>(
                          std::lower_bound(keys, keys + placed, keys[k0] + width - 1) - keys)
                    : placed;
    for (std::size_t k = k0; k < k1; ++k) {
        const std::uint64_t key = keys[k];
        for (std::size_t m = k + 1; m < placed && keys[m] <= key + 1; ++m)
            if (!test(k, m)) return false;
        const std::uint64_t first = key + width - 1; // (cx - 1, cy + 1)
        while (above < placed && keys[above] < first)
            ++above;
        for (std::size_t m = above; m < placed && keys[m] <= first + 2; ++m)
            if (!test(k, m)) return false;
    }
    return true;
}

template <class Test>
bool sweepCells(const std::uint64_t* keys, std::size_t placed, std::uint64_t width, Test&& test) {
    return sweepCellRange(keys, placed, width, 0, placed, test);
}

/// Clearance of agents i < j as Simulator::clearance() writes it (bit for bit), or +inf when
/// the squared distance already rules the overlap out (the relative 1e-9 dwarfs the rounding,
/// so such a pair's clearance is positive). The pair counts as overlapping when the result is
/// negative and the agents are not both static.
double pairClearance(const Vec2* p, const double* radius, std::uint32_t i, std::uint32_t j) {
    const Vec2 d = p[j] - p[i];
    const double reach = radius[i] + radius[j];
    if (absSq(d) >= reach * reach * (1.0 + 1e-9)) return std::numeric_limits<double>::infinity();
    return length(d) - radius[i] - radius[j];
}

bool pairLess(std::uint32_t ai, std::uint32_t aj, std::uint32_t bi, std::uint32_t bj) {
    return ai != bi ? ai < bi : aj < bj;
}

} // namespace

std::uint64_t EventDetector::sortByCell(std::span<const Vec2> pos, double invCell) {
    // Agents sorted by cell, row-major (LSD radix sort, O(n)), with their positions: the
    // sweeps then read memory in order, and their cost does not depend on the crowd's spread.
    Scratch& s = m_scratch;
    const std::size_t n = pos.size();
    double minX = std::numeric_limits<double>::infinity();
    double minY = minX;
    double maxX = -minX;
    double maxY = -minX;
    std::vector<std::uint32_t>& order = s.sortItems;
    order.clear();
    for (std::size_t i = 0; i < n; ++i) {
        if (!finite(pos[i])) continue; // no position, no overlap (until it moves)
        order.push_back(static_cast<std::uint32_t>(i));
        const double cx = cellCoord(pos[i].x, invCell);
        const double cy = cellCoord(pos[i].y, invCell);
        minX = std::min(minX, cx);
        maxX = std::max(maxX, cx);
        minY = std::min(minY, cy);
        maxY = std::max(maxY, cy);
    }
    const std::size_t placed = order.size();
    s.sortKeys.resize(placed);
    // Row width: one spare column, so that "the next cell" of a row's last cell is empty.
    const std::uint64_t width = placed == 0 ? 2 : static_cast<std::uint64_t>(maxX - minX) + 2;
    for (std::size_t k = 0; k < placed; ++k) {
        const Vec2 p = pos[order[k]];
        s.sortKeys[k] = static_cast<std::uint64_t>(cellCoord(p.y, invCell) - minY) * width +
                        static_cast<std::uint64_t>(cellCoord(p.x, invCell) - minX);
    }
    const std::uint64_t maxKey =
        placed == 0 ? 0 : static_cast<std::uint64_t>(maxY - minY) * width + width;
    s.sortKeysTmp.resize(placed);
    s.sortItemsTmp.resize(placed);
    if (maxKey < 4 * static_cast<std::uint64_t>(placed) + 1024) {
        // Few cells for the agents (a crowd spread evenly): one counting sort by cell, stable
        // like the radix passes below, so the same order in one pass instead of several.
        std::vector<std::uint32_t>& count = s.cellCount;
        count.assign(static_cast<std::size_t>(maxKey) + 2, 0);
        for (std::size_t k = 0; k < placed; ++k)
            ++count[static_cast<std::size_t>(s.sortKeys[k]) + 1];
        for (std::size_t c = 0; c + 1 < count.size(); ++c)
            count[c + 1] += count[c];
        for (std::size_t k = 0; k < placed; ++k) {
            const std::uint32_t at = count[static_cast<std::size_t>(s.sortKeys[k])]++;
            s.sortKeysTmp[at] = s.sortKeys[k];
            s.sortItemsTmp[at] = order[k];
        }
        s.sortKeys.swap(s.sortKeysTmp);
        order.swap(s.sortItemsTmp);
    } else {
        for (int shift = 0; shift < 64 && (maxKey >> shift) != 0; shift += 8) {
            std::array<std::uint32_t, 257> count{};
            for (std::size_t k = 0; k < placed; ++k)
                ++count[((s.sortKeys[k] >> shift) & 0xff) + 1];
            for (std::size_t d = 0; d < 256; ++d)
                count[d + 1] += count[d];
            for (std::size_t k = 0; k < placed; ++k) {
                const std::uint32_t at = count[(s.sortKeys[k] >> shift) & 0xff]++;
                s.sortKeysTmp[at] = s.sortKeys[k];
                s.sortItemsTmp[at] = order[k];
            }
            s.sortKeys.swap(s.sortKeysTmp);
            order.swap(s.sortItemsTmp);
        }
    }
    s.sortPos.resize(placed);
    for (std::size_t k = 0; k < placed; ++k)
        s.sortPos[k] = pos[order[k]];
    return width;
}

bool EventDetector::buildOverlapCandidates(const Simulator& sim, double maxRadius) {
    Scratch& s = m_scratch;
    const auto pos = sim.positions();
    const auto params = sim.agentParams();
    const std::size_t n = pos.size();
    // The skin: wide enough that agents at full speed need about 8 steps to use it up (a
    // rebuild costs several times a step's candidate tests), within [2, 8] x the max radius
    // (a wider one only multiplies the candidates of dense crowds).
    double maxStep = 0.0;
    s.builtRadius.resize(n);
    for (std::size_t i = 0; i < n; ++i) {
        maxStep = std::max(maxStep, params[i].maxSpeed);
        s.builtRadius[i] = params[i].radius;
    }
    maxStep *= sim.params().timeStep;
    const double skin = std::clamp(16.0 * maxStep, 2.0 * maxRadius, 8.0 * maxRadius);
    s.candidates.clear();
    s.candidateNext.clear();
    s.builtPos.assign(pos.begin(), pos.end());
    s.skinLimitSq = 0.25 * skin * skin * (1.0 - 1e-9);
    s.candidatesValid = false;

    // Uniform grid, cell = 2 x max radius + skin: a candidate pair (distance < r_i + r_j +
    // skin <= cell) lies in the same or adjacent cells.
    const std::uint64_t width = sortByCell(pos, 1.0 / (2.0 * maxRadius + skin));

    // Candidates: closer than r_i + r_j + skin, widened by a relative 1e-9 for rounding. At
    // most `budget` of them: a crowd piled up at one point has n(n-1)/2 (the build gives up,
    // and the overlaps are swept directly, see detectOverlaps()). The list grows by hand so
    // that its capacity never exceeds the budget either.
    constexpr std::size_t kNoBudget = std::numeric_limits<std::size_t>::max();
    const std::size_t perAgent = kCandidatesPerAgent * n;
    const std::size_t budget = m_params.maxOverlapPairs > kNoBudget - perAgent
                                   ? kNoBudget // (a cap near the maximum: no budget)
                                   : perAgent + m_params.maxOverlapPairs;
    // On the simulator's threads, in chunks of the sorted agents, each worker's candidates
    // apart (each list at most the budget; over it in all, the build gives up whoever found
    // them). Their order does not matter: the exact test's overlapping pairs are sorted. The
    // build is this observation's exact test too: each candidate's clearance gives its wait
    // (detectOverlaps) and its overlap.
    const std::uint32_t* items = s.sortItems.data();
    const Vec2* sorted = s.sortPos.data();
    const std::uint64_t* keys = s.sortKeys.data();
    const std::size_t placed = s.sortItems.size();
    s.sortRadius.resize(placed); // (the radii in sorted order: read in sweep order)
    for (std::size_t k = 0; k < placed; ++k)
        s.sortRadius[k] = s.builtRadius[items[k]];
    const double* radius = s.sortRadius.data();
    const std::size_t cap = m_params.maxOverlapPairs;
    s.workers.resize(static_cast<std::size_t>(sim.threadCount()));
    for (Scratch::Worker& w : s.workers) {
        w.candidates.clear();
        w.next.clear();
        w.pairs.clear();
        w.overBudget = false;
    }
    sim.parallelChunks(placed, kAgentGrain, [&](std::size_t k0, std::size_t k1, int worker) {
        Scratch::Worker& w = s.workers[static_cast<std::size_t>(worker)];
        if (w.overBudget) return;
        // The pairs within reach (sorted positions), gathered without a branch: whether a pair
        // is one is a coin toss the branch predictor loses. The buffer holds at most what the
        // budget leaves, plus one slot for a write that does not count.
        std::vector<std::pair<std::uint32_t, std::uint32_t>>& near = w.near;
        std::size_t count = 0;
        w.overBudget =
            !sweepCellRange(keys, placed, width, k0, k1, [&](std::size_t k, std::size_t m) {
                if (count == near.size()) {
                    const std::size_t room = budget - std::min(budget, w.candidates.size()) + 1;
                    if (near.size() >= room) return false; // more than the budget leaves
                    near.resize(std::min(room, std::max<std::size_t>(1024, 2 * near.size())));
                }
                const double reach = radius[k] + radius[m] + skin;
                near[count] = {static_cast<std::uint32_t>(k), static_cast<std::uint32_t>(m)};
                count += absSq(sorted[m] - sorted[k]) < reach * reach * (1.0 + 1e-9) ? 1 : 0;
                return true;
            });
        if (w.overBudget) return;
        w.candidates.reserve(w.candidates.size() + count);
        w.next.reserve(w.candidates.size() + count);
        for (std::size_t f = 0; f < count; ++f) {
            const auto [k, m] = near[f];
            // pairClearance's value for i < j (the same operations: the distance does not
            // depend on the direction, the radii are subtracted i's first).
            const bool first = items[k] < items[m];
            const std::uint32_t i = first ? items[k] : items[m];
            const std::uint32_t j = first ? items[m] : items[k];
            const double ri = first ? radius[k] : radius[m];
            const double rj = first ? radius[m] : radius[k];
            const double dist = length(sorted[m] - sorted[k]);
            const double c = dist - ri - rj;
            w.candidates.emplace_back(i, j);
            w.next.push_back(0.5 * (c - 1e-9 * (dist + ri + rj)));
            if (c < 0.0 && !(sim.isStaticAt(i) && sim.isStaticAt(j)) && w.pairs.size() <= cap)
                w.pairs.push_back({i, j, -c});
        }
    });
    std::size_t total = 0;
    bool over = false;
    for (const Scratch::Worker& w : s.workers) {
        total += w.candidates.size();
        over = over || w.overBudget;
    }
    if (over || total > budget) return false;
    s.candidates.reserve(total);
    s.candidateNext.reserve(total);
    for (const Scratch::Worker& w : s.workers) {
        s.candidates.insert(s.candidates.end(), w.candidates.begin(), w.candidates.end());
        s.candidateNext.insert(s.candidateNext.end(), w.next.begin(), w.next.end());
    }
    s.moved = 0.0;
    s.candidatesValid = true;
    return true;
}

bool EventDetector::testContacts(const Simulator& sim) {
    // The exact test of pairClearance's sign and value (i < j) on each contact, on the
    // simulator's threads, each worker's overlaps apart; a pair may come twice (from both
    // agents' neighbours): sorted, then one of each. A pile-up has at most maxNeighbors
    // contacts per agent, so memory stays bounded.
    Scratch& s = m_scratch;
    const auto contacts = sim.lastStepContacts();
    const Vec2* p = sim.positions().data();
    const double* radius = sim.radii().data();
    s.workers.resize(static_cast<std::size_t>(sim.threadCount()));
    for (Scratch::Worker& w : s.workers)
        w.pairs.clear();
    sim.parallelChunks(contacts.size(), kContactGrain, [&](std::size_t b, std::size_t e, int k) {
        std::vector<OpenOverlap>& found = s.workers[static_cast<std::size_t>(k)].pairs;
        for (std::size_t c = b; c < e; ++c) {
            // The step lists a pair either way round: i < j here, as pairClearance takes it
            // (by mask: as a branch, a coin toss mispredicted, 10 cycles a contact).
            const auto [first, second] = contacts[c];
            const std::uint32_t swap =
                (first ^ second) & (0u - static_cast<std::uint32_t>(second < first));
            const std::uint32_t i = first ^ swap;
            const std::uint32_t j = second ^ swap;
            const double d = length(p[j] - p[i]) - radius[i] - radius[j];
            if (d < 0.0 && !(sim.isStaticAt(i) && sim.isStaticAt(j))) found.push_back({i, j, -d});
        }
    });
    for (const Scratch::Worker& w : s.workers)
        s.pairs.insert(s.pairs.end(), w.pairs.begin(), w.pairs.end());
    std::sort(s.pairs.begin(), s.pairs.end(), [](const OpenOverlap& x, const OpenOverlap& y) {
        return pairLess(x.i, x.j, y.i, y.j);
    });
    s.pairs.erase(std::unique(s.pairs.begin(), s.pairs.end(),
                              [](const OpenOverlap& x, const OpenOverlap& y) {
                                  return x.i == y.i && x.j == y.j;
                              }),
                  s.pairs.end());
    if (s.pairs.size() <= m_params.maxOverlapPairs) return true;
    const auto radii = sim.radii(); // (the flood's test reads the current radii there)
    s.builtRadius.assign(radii.begin(), radii.end());
    return false;
}

bool EventDetector::sweepOverlaps(const Simulator& sim, double maxRadius) {
    // The overlaps themselves, without a list: cell = 2 x max radius holds every overlapping
    // pair in the same or adjacent cells. Each pair is tested once, with the exact test of
    // pairClearance (i < j), and the sweep stops at maxOverlapPairs + 1 overlaps, so a pile-up
    // costs O(n + maxOverlapPairs) time and memory however many pairs overlap.
    Scratch& s = m_scratch;
    const auto pos = sim.positions();
    const auto params = sim.agentParams();
    s.builtRadius.resize(params.size()); // (the radii for pairClearance)
    for (std::size_t i = 0; i < params.size(); ++i)
        s.builtRadius[i] = params[i].radius;
    // (Widened by a relative 1e-6: far more than the rounding of the cell coordinates, so a
    // pair closer than the cell never lands two cells apart.)
    const std::uint64_t width = sortByCell(pos, 1.0 / (2.0 * maxRadius * (1.0 + 1e-6)));
    const std::size_t cap = m_params.maxOverlapPairs;
    const std::uint32_t* items = s.sortItems.data();
    const Vec2* p = pos.data();
    const double* radius = s.builtRadius.data();
    const bool complete =
        sweepCells(s.sortKeys.data(), s.sortItems.size(), width, [&](std::size_t k, std::size_t m) {
            const std::uint32_t i = std::min(items[k], items[m]);
            const std::uint32_t j = std::max(items[k], items[m]);
            const double c = pairClearance(p, radius, i, j);
            if (c < 0.0 && !(sim.isStaticAt(i) && sim.isStaticAt(j))) {
                if (s.pairs.size() >= cap) return false;
                s.pairs.push_back({i, j, -c});
            }
            return true;
        });
    if (!complete) return false;
    std::sort(s.pairs.begin(), s.pairs.end(), [](const OpenOverlap& x, const OpenOverlap& y) {
        return pairLess(x.i, x.j, y.i, y.j);
    });
    return true;
}

void EventDetector::detectOverlaps(const Simulator& sim, double maxRadius, std::uint64_t step,
                                   double stepBound) {
    Scratch& s = m_scratch;
    s.pairs.clear();
    const auto pos = sim.positions();
    const std::size_t n = pos.size();
    const std::size_t cap = m_params.maxOverlapPairs;
    bool flooded = false; // more than `cap` pairs overlap (s.pairs is then incomplete)
    if (n >= 2 && maxRadius > 0.0 && stepBound >= 0.0 && sim.lastStepContactsComplete()) {
        // One watched step since the last observation, and its contacts hold every pair that
        // can overlap now (Simulator::lastStepContacts): only they are tested. The candidate
        // list below is left behind (rebuilt when it is needed again).
        s.candidatesValid = false;
        flooded = !testContacts(sim);
    } else if (n >= 2 && maxRadius > 0.0) {
        // A candidate list with a skin (a Verlet list): pairs closer than r_i + r_j + skin when
        // it was built. While every agent stays within skin / 2 of where it was then (and
        // keeps its radius), a pair missing from the list is still farther apart than
        // r_i + r_j, so only the candidates need the exact test. Otherwise, rebuild. When a
        // build overflows its budget (a pile-up), the overlaps are swept directly for a while
        // (the result is the same; only the cost differs).
        bool useList = s.buildBackoff == 0;
        if (!useList) --s.buildBackoff;
        bool testAll = true; // else only the candidates whose clearance may be used up
        bool built = false;  // the build tested the candidates (workers' pairs)
        if (useList) {
            bool rebuild = !s.candidatesValid || s.radiusChanged || s.builtPos.size() != n;
            if (!rebuild && stepBound >= 0.0) {
                // One step since the last observation, nothing edited: no agent moved farther
                // than the step's bound (NaN compares false: rebuild).
                s.moved += stepBound;
                rebuild = !(s.moved * s.moved < s.skinLimitSq);
                testAll = false;
            } else if (!rebuild) {
                // The state may have been edited: how far did the agents move? (On the
                // simulator's threads; NaN compares false: rebuild.)
                for (Scratch::Worker& w : s.workers)
                    w.farthestSq = 0.0;
                sim.parallelChunks(n, kAgentGrain, [&](std::size_t b, std::size_t e, int w) {
                    double far = 0.0;
                    for (std::size_t i = b; i < e; ++i) {
                        const double d = absSq(pos[i] - s.builtPos[i]);
                        if (!(d <= far)) far = d;
                    }
                    double& worst = s.workers[static_cast<std::size_t>(w)].farthestSq;
                    if (!(far <= worst)) worst = far;
                });
                double far = 0.0;
                for (const Scratch::Worker& w : s.workers)
                    if (!(w.farthestSq <= far)) far = w.farthestSq;
                rebuild = !(far < s.skinLimitSq);
                s.moved = std::sqrt(far);
            }
            if (rebuild) {
                built = buildOverlapCandidates(sim, maxRadius);
                if (!built) {
                    useList = false;
                    s.buildBackoff = 15; // retried at the 16th observation from now
                }
            }
        } else {
            s.candidatesValid = false;
        }
        if (useList) {
            // The exact test on the candidates. Two static agents are fixed scenery. (Radii:
            // the build's, equal to the current ones.) A pair tested with clearance c cannot
            // overlap before its agents moved c / 2 each: it waits until `moved` reached that
            // (unless the state may have been edited: then every pair is tested).
            // On the simulator's threads, each worker's overlaps apart; more than `cap` in all
            // is a flood (each worker stops at cap + 1: memory stays bounded).
            const Vec2* p = pos.data();
            const double* radius = s.builtRadius.data();
            if (!built)
                for (Scratch::Worker& w : s.workers)
                    w.pairs.clear();
            const auto* candidates = s.candidates.data();
            double* next = s.candidateNext.data();
            const double moved = s.moved;
            if (!built)
                sim.parallelChunks(
                    s.candidates.size(), kAgentGrain,
                    [&](std::size_t b, std::size_t e, int worker) {
                        Scratch::Worker& w = s.workers[static_cast<std::size_t>(worker)];
                        std::vector<OpenOverlap>& found = w.pairs;
                        // The candidates due, gathered without a branch (whether one is due
                        // is a coin toss the branch predictor loses), then tested.
                        w.due.resize(e - b);
                        std::uint32_t* due = w.due.data();
                        std::size_t count = 0;
                        for (std::size_t k = b; k < e; ++k) {
                            due[count] = static_cast<std::uint32_t>(k);
                            count += testAll || !(moved < next[k]) ? 1 : 0;
                        }
                        for (std::size_t d = 0; d < count && found.size() <= cap; ++d) {
                            const std::uint32_t k = due[d];
                            const auto [i, j] = candidates[k];
                            // (pairClearance's sign and value, without its shortcut: the
                            // clearance sets the wait.)
                            const double dist = length(p[j] - p[i]);
                            const double c = dist - radius[i] - radius[j];
                            next[k] = moved + 0.5 * (c - 1e-9 * (dist + radius[i] + radius[j]));
                            if (c < 0.0 && !(sim.isStaticAt(i) && sim.isStaticAt(j)))
                                found.push_back({i, j, -c});
                        }
                    });
            std::size_t total = 0;
            for (const Scratch::Worker& w : s.workers)
                total += w.pairs.size();
            flooded = total > cap;
            if (!flooded)
                for (const Scratch::Worker& w : s.workers)
                    s.pairs.insert(s.pairs.end(), w.pairs.begin(), w.pairs.end());
            // (The candidates are in cell order: the merge below needs the pairs by (i, j).)
            if (!flooded)
                std::sort(s.pairs.begin(), s.pairs.end(),
                          [](const OpenOverlap& x, const OpenOverlap& y) {
                              return pairLess(x.i, x.j, y.i, y.j);
                          });
        } else {
            flooded = !sweepOverlaps(sim, maxRadius);
        }
    }

    // (The new list is built exactly sized: bytes() counts capacity, and a copy's equals its
    // size.)
    std::vector<OpenOverlap> next;
    if (flooded) {
        // Flooded: no overlap-begin. The flood is reported once, with the exact number of
        // overlapping pairs (Simulator::clearance() counts them without listing them, in
        // O(n log n) even for a pile-up). The spells already open (at most `cap`) are still
        // followed, with the same test, to their overlap-end.
        if (!m_flooded) {
            Event e;
            e.step = step;
            e.kind = EventKind::OverlapFloodBegin;
            e.value = static_cast<double>(sim.clearance(0.0).overlappingPairs);
            s.events.push_back(std::move(e));
            m_flooded = true;
            m_floodSince = step;
        }
        const Vec2* p = pos.data();
        const double* radius = s.builtRadius.data(); // (the current radii, see above)
        next.reserve(m_overlaps.size());
        for (const OpenOverlap& o : m_overlaps) {
            const double c = pairClearance(p, radius, o.i, o.j);
            if (c < 0.0 && !(sim.isStaticAt(o.i) && sim.isStaticAt(o.j))) {
                next.push_back({o.i, o.j, std::max(o.deepest, -c)});
                continue;
            }
            Event e;
            e.step = step;
            e.kind = EventKind::OverlapEnd;
            e.agents = {o.i, o.j};
            e.value = o.deepest;
            s.events.push_back(std::move(e));
        }
        if (next.size() != m_overlaps.size()) next.shrink_to_fit();
        m_overlaps = std::move(next);
        return;
    }
    if (m_flooded) {
        // The flood is over; the merge below reports, as overlap-begin at this step, every pair
        // overlapping now that was not followed.
        Event e;
        e.step = step;
        e.kind = EventKind::OverlapFloodEnd;
        e.value = static_cast<double>(step - m_floodSince);
        s.events.push_back(std::move(e));
        m_flooded = false;
    }

    // Merge with the overlaps in progress (both sorted by (i, j)).
    next.reserve(s.pairs.size());
    std::size_t a = 0;
    std::size_t b = 0;
    auto key = [](const OpenOverlap& o) { return std::pair(o.i, o.j); };
    while (a < m_overlaps.size() || b < s.pairs.size()) {
        if (b == s.pairs.size() ||
            (a < m_overlaps.size() && key(m_overlaps[a]) < key(s.pairs[b]))) {
            const OpenOverlap& ended = m_overlaps[a++];
            Event e;
            e.step = step;
            e.kind = EventKind::OverlapEnd;
            e.agents = {ended.i, ended.j};
            e.value = ended.deepest;
            s.events.push_back(std::move(e));
        } else if (a == m_overlaps.size() || key(s.pairs[b]) < key(m_overlaps[a])) {
            const OpenOverlap& begun = s.pairs[b++];
            Event e;
            e.step = step;
            e.kind = EventKind::OverlapBegin;
            e.agents = {begun.i, begun.j};
            e.value = begun.deepest;
            s.events.push_back(std::move(e));
            next.push_back(begun);
        } else {
            OpenOverlap going = m_overlaps[a++];
            going.deepest = std::max(going.deepest, s.pairs[b++].deepest);
            next.push_back(going);
        }
    }
    m_overlaps = std::move(next);
}

} // namespace orca
