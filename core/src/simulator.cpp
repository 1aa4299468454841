#include "orca/simulator.hpp"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <utility>

#include "agent_decision.hpp"
#include "orca/parameters.hpp"
#include "step_watch.hpp"
#include "step_workspace.hpp"

namespace orca {

namespace {

/// Simulator::revision()'s numbers: one counter for every simulator of the process.
std::uint64_t nextRevision() {
    static std::atomic<std::uint64_t> counter{1};
    return counter.fetch_add(1, std::memory_order_relaxed);
}

/// "(x, y)" with nan / inf spelled out.
std::string formatVec(Vec2 v) {
    auto one = [](double x) {
        if (std::isnan(x)) return std::string("nan");
        if (std::isinf(x)) return std::string(x > 0 ? "inf" : "-inf");
        char buf[32];
        std::snprintf(buf, sizeof buf, "%.17g", x);
        return std::string(buf);
    };
    return one(v.x) + ", " + one(v.y);
}

} // namespace

Simulator::Simulator(const SimulationParams& params)
    : m_work(std::make_unique<detail::StepWorkspace>(1)) {
    setParams(params);
    m_agentDefsRevision = m_configRevision;
}

void Simulator::touch() {
    m_revision = nextRevision();
    m_lastChangeStep = false;
}

void Simulator::touchConfig() {
    touch();
    m_configRevision = m_revision;
}

std::span<const std::uint8_t> Simulator::lastStepFlags() const {
    if (!m_lastChangeStep || !m_lastWatched || m_stepFlags.size() != m_pos.size()) return {};
    return m_stepFlags;
}

std::span<const Vec2> Simulator::previousVelocities() const {
    if (!m_lastChangeStep || m_work->newVelocity.size() != m_pos.size()) return {};
    return m_work->newVelocity;
}

std::span<const std::pair<std::uint32_t, std::uint32_t>> Simulator::lastStepContacts() const {
    if (!m_lastChangeStep || !m_lastWatched || m_lastWatch.contactReach < 0.0) return {};
    return m_work->contacts;
}

bool Simulator::lastStepContactsComplete() const {
    return m_lastChangeStep && m_lastWatched && m_work->contactsComplete;
}

Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

void Simulator::setParams(const SimulationParams& params) {
    // Ranges and messages: the parameter table (orca/parameters.hpp).
    if (std::string error = checkSimulationParams(params); !error.empty())
        throw InvalidArgument(error);
    m_params = params;
    touchConfig();
}

void Simulator::setThreadCount(int threads) {
    threads = std::clamp(threads, 1, 256);
    if (threads == m_threadCount) return;
    m_threadCount = threads;
    m_work->resize(threads);
}

void Simulator::parallelChunks(
    std::size_t n, std::size_t grain,
    const std::function<void(std::size_t, std::size_t, int)>& body) const {
    m_work->pool->parallelFor(n, grain, body);
}

// ---- Stepping ------------------------------------------------------------------------------

namespace {
/// The grid search's cell size as a share of the k-th neighbour's distance: 3x3 cells then
/// hold about the k nearest (0.7-0.9 measured best on the dense real scenes; 0.55 is 1.3x
/// and 1.3 1.3x slower on them).
constexpr double kSearchCellShare = 0.8;
/// ... within [neighborDist / kSearchCellFloor, neighborDist] (docs/core.md: a floor of 8
/// made a crowd spreading from one point 3x slower).
constexpr double kSearchCellFloor = 16.0;
} // namespace

void Simulator::step() {
    std::vector<ExplainRecord> none;
    step({}, none);
}

void Simulator::stepWithVelocities(std::span<const Vec2> velocities) {
    if (velocities.size() != m_pos.size())
        throw InvalidArgument("stepWithVelocities: " + std::to_string(velocities.size()) +
                              " velocities for " + std::to_string(m_pos.size()) + " agents");
    for (const Vec2& v : velocities)
        if (!std::isfinite(v.x) || !std::isfinite(v.y))
            throw InvalidArgument("stepWithVelocities: a velocity is not finite");
    struct Reset {
        detail::StepWorkspace& ws;
        ~Reset() { ws.forced = {}; }
    } reset{*m_work};
    m_work->forced = velocities;
    step();
}

void Simulator::step(std::span<const AgentId> explainFor, std::vector<ExplainRecord>& out,
                     const ExplainOptions& options) {
    detail::StepWorkspace& ws = *m_work;
    const std::size_t n = m_pos.size();

    fitObstacleGrid(); // cells sized for these agents' obstacle queries (speed only)

    // 1. The neighbour search of the state before the step: the candidate lists while they
    //    hold; otherwise a grid, and new lists from it when they would last (docs/core.md,
    //    "Candidate lists"). Either way the same neighbours.
    ws.pool->prepare(); // wake the workers while the search is prepared
    const double meanRange = meanCellSize();
    const double skin = detail::NeighborLists::kSkinShare * meanRange;
    const detail::NeighborLists::Plan plan = ws.lists.plan(skin);
    if (plan != detail::NeighborLists::Plan::Use) {
        const bool build = plan == detail::NeighborLists::Plan::Build;
        // The lists' build needs cells of their reach; the grid search alone is fastest with
        // cells about as wide as the k-th neighbour's distance (nearestFrom), which the last
        // grid search measured.
        // (Clamped again: the agents' ranges may have changed since it was measured.)
        const double searchCell =
            ws.searchCell > 0.0 ? std::clamp(ws.searchCell, meanRange / kSearchCellFloor, meanRange)
                                : meanRange;
        ws.grid.build(m_pos, build ? meanRange + skin : searchCell, ws.pool.get());
        if (build)
            ws.lists.build(ws.grid, skin, m_pos, m_agentParams, m_static, *ws.pool, ws.scratch);
    }
    const bool useLists = ws.lists.usable();

    // Detour field from this state's sources (rebuilt only when they changed).
    const bool detourOn = m_params.detour.enabled;
    if (detourOn) {
        ws.sources.find(*this, m_agentsVersion);
        if (ws.sources.stale(m_detourField, m_detourSignature)) {
            detail::buildDetourField(*this, ws.sources.indices, m_detourField);
            m_detourSignature = ws.sources.signature;
        }
    } else {
        ws.sources.none(n);
        if (!m_detourField.empty()) {
            m_detourField.clear();
            m_detourSignature = 0;
        }
    }
    const detail::DetourPolicy detour(*this, m_detourField, ws.sources.isSource);

    // Roadmap routing: the distance fields of this step's targets, before the parallel part
    // (steer() is then read-only).
    if (m_params.routing == Routing::Roadmap && !m_obstacles.empty()) {
        ensureRoadmap();
        if (!m_roadmap.empty()) {
            // Only targets the agent does not see need a distance field (steer() walks
            // straight at a visible one; its own test is at least as lenient as visible()).
            ws.targets.clear();
            for (std::size_t i = 0; i < n; ++i) {
                if (!m_hasGoal[i] || m_static[i]) continue;
                const Vec2 target = targetAt(i);
                if (!m_roadmap.visible(m_pos[i], target, m_agentParams[i].radius))
                    ws.targets.push_back(target);
            }
            m_roadmap.prepare(ws.targets);
        }
    }

    // Explain records first, from the same pre-step state (dry-run path of the same code).
    out.clear();
    for (AgentId id : explainFor) {
        const auto index = indexOf(id);
        if (!index) continue;
        explainAgent(*index, ws.grid, useLists ? &ws.lists : nullptr, detour, options,
                     out.emplace_back());
    }

    // 2. Every agent decides independently (parallel-safe: reads only pre-step state).
    ws.newVelocity.resize(n);
    ws.lp3.resize(n);
    ws.nextDetourMode.resize(n);
    ws.detourReason.resize(n);
    ws.detouring.resize(n);
    const auto vertices = std::span<const ObstacleVertex>(m_vertices);
    const detail::AgentArrays agents = agentArrays();
    // Agent i's decision, its neighbours chosen into s.neighbors.
    // Agent i's v_pref for this step; with deadlock breaking the v_pref before the turn is kept
    // for the move's stall test (computed once: with roadmap routing it is a roadmap query).
    const bool breaking = m_params.deadlockBreaking;
    if (breaking) ws.basePref.resize(n);
    // Without routes, v_pref inline (a call per agent cost 6 % of a circle step).
    const bool straight = !breaking && straightToGoals();
    auto prefFor = [&](std::uint32_t i) {
        if (straight && m_hasGoal[i]) return straightPrefVelocityAt(i);
        const Vec2 base = basePrefVelocityAt(i);
        if (!breaking) return base;
        ws.basePref[i] = base;
        return turnedPrefVelocity(i, base);
    };
    auto decideOne = [&](std::uint32_t i, detail::AgentView a, detail::Scratch& s) {
        ExplainDetour info;
        if (m_params.deadlockBreaking)
            a.prefVelocity = yieldedPrefVelocity(
                i, a.prefVelocity,
                std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount));
        const bool detours = detourOn && m_hasGoal[i];
        if (detours) {
            a.prefVelocity = detour.prefVelocity(
                i, a.prefVelocity,
                std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount), info);
        }
        const SolveResult r =
            detail::decide(a, i, m_params, vertices, m_obstacleGrid, agents, s, false);
        ws.newVelocity[i] = r.velocity;
        ws.lp3[i] = r.lp3Ran ? 1 : 0;
        if (!(std::isfinite(r.velocity.x) && std::isfinite(r.velocity.y)))
            s.nonFinite = std::min(s.nonFinite, i);
        if (detours) {
            detour.afterSolve(i, r.velocity, info);
        } else {
            detour.notApplied(i, info);
        }
        ws.detouring[i] = detours && info.mode == DetourMode::Detouring ? 1 : 0;
        ws.nextDetourMode[i] = static_cast<std::uint8_t>(info.nextMode);
        ws.detourReason[i] = static_cast<std::uint8_t>(info.reason);
    };
    auto stayStatic = [&](std::uint32_t i) {
        ws.newVelocity[i] = Vec2(0.0);
        ws.lp3[i] = 0;
        ws.nextDetourMode[i] = static_cast<std::uint8_t>(DetourMode::Normal);
        ws.detourReason[i] = static_cast<std::uint8_t>(DetourReason::None);
        ws.detouring[i] = 0;
    };
    // An observer's watch (watchSteps): each moving agent's contacts once it has decided, and
    // every agent's step_flag bits in the move.
    const bool watching = m_watching;
    const StepWatch watch = m_watch;
    // With a contact watch, the pairs closer than r_i + r_j + contactReach before the move
    // (lastStepContacts), found among each moving agent's chosen neighbours: they are sorted by
    // distance, so the look stops at the first beyond the farthest reach a pair of the agent
    // can have. They hold every such pair when they reach past it, or when the list was not
    // full (then it holds every agent within neighborDist, which must reach as far). An agent
    // of a dense crowd, whose maxNeighbors nearest are all closer, looks at every agent within
    // that reach instead: in the cells of this step's grid around it, or in its candidate
    // list (every agent within its neighborDist). Otherwise the contacts are incomplete.
    const bool contacts = watching && watch.contactReach >= 0.0 &&
                          watch.contactReach <= std::numeric_limits<double>::max() &&
                          watch.contactRadius >= 0.0;
    for (detail::Scratch& s : ws.scratch) {
        s.contactCount = 0;
        s.contactsShort = false;
    }
    // Most agents have no agent within r_i + contactRadius + contactReach: their nearest chosen
    // neighbour says so (or a list that is not full within a neighborDist that reaches as far),
    // with one bound for every agent (r_i <= contactRadius, else the contacts are incomplete
    // anyway), before any per-agent look.
    const double farAll = 2.0 * watch.contactRadius + watch.contactReach;
    const double farAllSq = contacts ? farAll * farAll * (1.0 + 1e-9) : 0.0;
    auto noContacts = [&](double rangeSq, std::size_t maxNeighbors, const detail::Scratch& s) {
        const std::size_t count = s.neighborCount;
        return maxNeighbors > 0 && (count == 0 || s.neighbors[0].distSq >= farAllSq) &&
               (count == maxNeighbors || rangeSq >= farAllSq);
    };
    // Pair (i, j), at squared distance distSq, is a contact when closer than r_i + r_j +
    // contactReach (with a margin for rounding).
    auto withinContact = [&](double ri, std::uint32_t j, double distSq) {
        const double reach = ri + m_radius[j] + watch.contactReach;
        return distSq < reach * reach * (1.0 + 1e-9);
    };
    auto offerContact = [&](std::uint32_t i, double ri, std::uint32_t j, double distSq,
                            detail::Scratch& s) {
        s.noteContact(i, j, withinContact(ri, j, distSq));
    };
    // Radii change only with the agents' definitions: their extremes once per revision (not
    // again after setPrefVelocity, which programs call for every agent before every step). When
    // every agent has the same radius r, every pair's bound is the same number, (r + r +
    // contactReach)² x (1 + 1e-9), computed as withinContact computes it.
    if (contacts && ws.maxRadiusRevision != m_agentDefsRevision) {
        ws.maxRadius = 0.0;
        ws.minRadius = std::numeric_limits<double>::infinity();
        for (const double r : m_radius) {
            ws.maxRadius = std::max(ws.maxRadius, r);
            ws.minRadius = std::min(ws.minRadius, r);
        }
        ws.maxRadiusRevision = m_agentDefsRevision;
    }
    const bool sameRadius = contacts && ws.minRadius == ws.maxRadius;
    const double pairReach = ws.maxRadius + ws.maxRadius + watch.contactReach;
    const double pairReachSq = pairReach * pairReach * (1.0 + 1e-9);
    auto noteContacts = [&](std::uint32_t i, double rangeSq, std::size_t maxNeighbors,
                            const detail::AgentGrid* grid, detail::Scratch& s) {
        const double ri = m_radius[i];
        const Vec2 pi = m_pos[i];
        const double far = ri + watch.contactRadius + watch.contactReach;
        const double farSq = far * far * (1.0 + 1e-9);
        auto offer = [&](std::uint32_t j, double distSq) { offerContact(i, ri, j, distSq, s); };
        const std::size_t count = s.neighborCount;
        const detail::Neighbor* nb = s.neighbors.data();
        const bool full = count == maxNeighbors;
        if (full ? count > 0 && nb[count - 1].distSq >= farSq : rangeSq >= farSq) {
            for (std::size_t k = 0; k < count && nb[k].distSq < farSq; ++k)
                offer(nb[k].agent, nb[k].distSq);
        } else if (grid) {
            grid->rangesNear(pi, far * (1.0 + 1e-9), s.contactRanges);
            const Vec2* itemPos = grid->itemPositions().data();
            const std::uint32_t* itemAgent = grid->itemAgents().data();
            for (const detail::ItemRange& r : s.contactRanges)
                for (std::uint32_t k = r.begin; k < r.end; ++k)
                    if (itemAgent[k] != i) offer(itemAgent[k], absSq(itemPos[k] - pi));
        } else if (maxNeighbors > 0 && rangeSq >= farSq) {
            for (const std::uint32_t j : ws.lists.candidates(i))
                offer(j, absSq(m_pos[j] - pi));
        } else {
            s.contactsShort = true;
        }
    };
    // A moving agent's contacts once it has decided (the decision's code stays inlined), from
    // the neighbours it chose. In a sparse crowd most agents are ruled out by noContacts' one
    // compare. In a crowd where many agents have one (the last step listed a contact for at
    // least one agent in 16), whether an agent has one is a coin toss that the branch
    // predictor loses, throwing away the decision's long-latency work in flight: there the
    // usual agent, whose list reaches past every pair it can have (full with its farthest
    // beyond the bound above, or not full within a neighborDist that reaches as far) and holds
    // at most its nearest within that bound, offers its nearest without a branch on whether
    // it is a contact. Other agents are ruled out by noContacts or looked at by noteContacts.
    // (Either way the same pairs in the same order.)
    const bool crowded = contacts && ws.contacts.size() * 16 >= n;
    auto contactsOf = [&](std::uint32_t i, double rangeSq, std::size_t maxNeighbors,
                          const detail::AgentGrid* grid, detail::Scratch& s) {
        const std::size_t count = s.neighborCount;
        const detail::Neighbor* nb = s.neighbors.data();
        if (crowded && count > 0 &&
            (count == maxNeighbors ? nb[count - 1].distSq >= farAllSq : rangeSq >= farAllSq) &&
            (count == 1 || nb[1].distSq >= farAllSq)) {
            const std::uint32_t j = nb[0].agent;
            const double distSq = nb[0].distSq;
            s.noteContactInRoom(
                i, j, sameRadius ? distSq < pairReachSq : withinContact(m_radius[i], j, distSq));
        } else if (!noContacts(rangeSq, maxNeighbors, s)) {
            noteContacts(i, rangeSq, maxNeighbors, grid, s);
            s.keepContactRoom();
        }
    };
    const int threads = ws.pool->size();
    // Chunks of at least kMinDecisionChunk agents: the decisions write one byte per agent to
    // several arrays (64 agents per cache line), by agent index, and a chunk of nearby agents
    // holds nearby indices; with chunks about one line long, two threads wrote the same lines
    // all the time and a 1,000-agent step was slower with two threads than with one (79 vs
    // 76 us; 60 us with chunks of 250).
    constexpr std::size_t kMinDecisionChunk = 256;
    if (useLists) {
        // Agent by agent, in the lists' (cell) order: each picks its neighbours from its list.
        const std::span<const std::uint32_t> order = ws.lists.order();
        const std::size_t grain = std::clamp<std::size_t>(
            n / (static_cast<std::size_t>(threads) * 8), kMinDecisionChunk, 1024);
        ws.pool->parallelFor(n, grain, [&](std::size_t begin, std::size_t end, int worker) {
            detail::Scratch& s = ws.scratch[static_cast<std::size_t>(worker)];
            if (contacts) {
                s.contactRoom = end - begin;
                s.keepContactRoom();
            }
            for (std::size_t k = begin; k < end; ++k) {
                const std::uint32_t i = order[k];
                if (m_static[i]) {
                    stayStatic(i);
                    continue;
                }
                const AgentParams& p = m_agentParams[i];
                const detail::AgentView a{m_pos[i], m_vel[i], prefFor(i), &p};
                const double rangeSq = p.neighborDist * p.neighborDist;
                const auto maxNeighbors = static_cast<std::size_t>(std::max(p.maxNeighbors, 0));
                s.neighborCount = 0;
                if (maxNeighbors > 0) {
                    detail::selectFromList(a.position, rangeSq, maxNeighbors, m_pos.data(),
                                           ws.lists.candidates(i), s);
                }
                decideOne(i, a, s);
                if (contacts) contactsOf(i, rangeSq, maxNeighbors, nullptr, s);
            }
        });
    } else {
        // Cell by cell: the agents of a cell share the block of cells around it, where each
        // starts its search for its nearest neighbours (AgentGrid::nearestFrom).
        const detail::AgentGrid& grid = ws.grid;
        const std::size_t cells = grid.occupiedCount();
        const std::size_t cellGrain =
            std::clamp<std::size_t>(cells / (static_cast<std::size_t>(threads) * 8), 4, 512);
        ws.pool->parallelFor(cells, cellGrain, [&](std::size_t begin, std::size_t end, int worker) {
            detail::Scratch& s = ws.scratch[static_cast<std::size_t>(worker)];
            for (std::size_t c = begin; c < end; ++c) {
                const detail::AgentGrid::CellView cell = grid.occupied(c);
                grid.blockRanges(cell.cx, cell.cy, 1, s.ranges);
                const detail::ItemRange own{cell.start, cell.start + cell.count};
                // A block of few items (no more than the rank's room, and no dense cell) has
                // its candidates ranked branch-free (neighbor_select.hpp) before the search
                // goes beyond it: 18 % faster on forest500 and gathering2000; a longer block
                // is offered item by item to the bounded insertion (nearestFrom), which
                // rejects most items with one compare once the list is full.
                std::size_t blockItems = 0;
                for (const detail::ItemRange& r : s.ranges)
                    blockItems += r.end - r.begin;
                const bool plainBlock =
                    blockItems <= detail::kMinCandidateRoom && !grid.touchesDenseCell(s.ranges);
                if (contacts) {
                    s.contactRoom = cell.count;
                    s.keepContactRoom();
                }
                for (std::uint32_t k = cell.start; k < cell.start + cell.count; ++k) {
                    const std::uint32_t i = grid.itemAgent(k);
                    if (m_static[i]) {
                        stayStatic(i);
                        continue;
                    }
                    const AgentParams& p = m_agentParams[i];
                    const detail::AgentView a{m_pos[i], m_vel[i], prefFor(i), &p};
                    const double rangeSq = p.neighborDist * p.neighborDist;
                    const auto maxNeighbors = static_cast<std::size_t>(std::max(p.maxNeighbors, 0));
                    s.neighborCount = 0;
                    if (maxNeighbors > 0) {
                        if (plainBlock) {
                            detail::selectFromRanges(a.position, i, rangeSq, maxNeighbors, grid, s);
                            s.neighbors.resize(s.neighborCount);
                            grid.nearestBeyond(a.position, i, rangeSq, maxNeighbors, cell.cx,
                                               cell.cy, 1, s.neighbors, s.moreRanges);
                        } else {
                            grid.nearestFrom(a.position, i, rangeSq, maxNeighbors, own, cell.cx,
                                             cell.cy, 1, s.ranges, s.neighbors, s.moreRanges);
                        }
                        s.neighborCount = s.neighbors.size();
                        if (s.neighborCount == maxNeighbors) {
                            s.kthDistSqSum += s.neighbors.back().distSq;
                            ++s.kthCount;
                        }
                    }
                    decideOne(i, a, s);
                    if (contacts) contactsOf(i, rangeSq, maxNeighbors, &grid, s);
                }
            }
        });
        // The next grid search's cell size: about the k-th neighbour's distance (root mean
        // square over the agents whose list was full), within [range / 16, range]; the range
        // when no list was full (a sparse crowd). Speed only: any cell size finds the same.
        double kthSum = 0.0;
        std::size_t kthCount = 0;
        for (detail::Scratch& s : ws.scratch) {
            kthSum += std::exchange(s.kthDistSqSum, 0.0);
            kthCount += std::exchange(s.kthCount, std::size_t{0});
        }
        const double kth =
            std::sqrt(kthSum / static_cast<double>(std::max<std::size_t>(kthCount, 1)));
        ws.searchCell = kthCount > 0 ? std::clamp(kSearchCellShare * kth,
                                                  meanRange / kSearchCellFloor, meanRange)
                                     : meanRange;
    }

    // A decision that is not finite stops the step before anything changes (the guard of
    // docs/core.md, "Finite always"). The smallest such agent index: the same message for
    // any thread count.
    std::uint32_t nonFinite = detail::Scratch::kNoAgent;
    for (detail::Scratch& s : ws.scratch)
        nonFinite = std::min(nonFinite, std::exchange(s.nonFinite, detail::Scratch::kNoAgent));
    if (nonFinite != detail::Scratch::kNoAgent) {
        const Vec2 v = ws.newVelocity[nonFinite];
        throw NonFiniteState("step " + std::to_string(m_stepCount + 1) + ": agent " +
                             std::to_string(nonFinite) + "'s new velocity is not finite (" +
                             formatVec(v) +
                             "); the step was not applied (the simulation cannot continue "
                             "from such a state)");
    }

    ws.contacts.clear();
    bool contactsShort = false;
    if (contacts) {
        for (detail::Scratch& s : ws.scratch) {
            ws.contacts.insert(ws.contacts.end(), s.contacts.begin(),
                               s.contacts.begin() + static_cast<std::ptrdiff_t>(s.contactCount));
            contactsShort = contactsShort || s.contactsShort;
        }
    }

    // stepWithVelocities: the given velocities replace the decisions (static agents keep none).
    if (!ws.forced.empty())
        for (std::size_t i = 0; i < n; ++i)
            if (!m_static[i]) ws.newVelocity[i] = ws.forced[i];

    // 3. Move (static agents stay where they are, with velocity zero), and count the step's
    //    statistics while the agent's data is in cache (whole-number sums per worker: the
    //    total does not depend on who counted what). The largest speed and coordinate bound
    //    how far the agents moved, for the candidate lists.
    const double dt = m_params.timeStep;
    for (auto& w : ws.stats)
        w = {};
    m_lastLp3.resize(n);
    // The velocities before the move go to ws.newVelocity (previousVelocities), and with an
    // observer's watch (watchSteps) each agent's step_flag bits, both while the agent's data is
    // in cache.
    if (watching) m_stepFlags.resize(n);
    // Chunks of 256 to 8,192 agents, a few per worker (one chunk of 8,192 and one of 1,808
    // left two workers of a 10,000-agent move unbalanced; a 1,000-agent move in one chunk of
    // at least 1,024 kept the second thread idle for a sixth of the step).
    const std::size_t moveGrain =
        std::clamp<std::size_t>(n / (static_cast<std::size_t>(threads) * 4), 256, 8192);
    // The move with and without the watch: two copies of the loop, so that the unwatched one
    // carries none of the watch's tests.
    auto move = [&](auto watched, std::size_t begin, std::size_t end, int worker) {
        constexpr bool kWatched = decltype(watched)::value;
        // The arrays as local pointers: a byte store may alias any object, so the compiler
        // would otherwise reload every vector's data pointer after each one.
        Vec2* const pos = m_pos.data();
        Vec2* const vel = m_vel.data();
        Vec2* const newVelocity = ws.newVelocity.data();
        const std::uint8_t* const isStatic = m_static.data();
        const std::uint8_t* const hasGoal = m_hasGoal.data();
        const AgentParams* const params = m_agentParams.data();
        const Vec2* const goal = m_goal.data();
        double* const stallSeconds = m_stallSeconds.data();
        const std::uint8_t* const lp3 = ws.lp3.data();
        const std::uint8_t* const nextMode = ws.nextDetourMode.data();
        const std::uint8_t* const nextReason = ws.detourReason.data();
        const std::uint8_t* const detouring = ws.detouring.data();
        std::uint8_t* const detourMode = m_detourMode.data();
        std::uint8_t* const detourReason = m_detourReason.data();
        double* const stillSeconds = m_stillSeconds.data();
        std::uint8_t* const lastLp3 = m_lastLp3.data();
        std::uint8_t* const stepFlags = kWatched ? m_stepFlags.data() : nullptr;
        const bool routes = m_waypointAgents != 0;
        const double stillSpeedSq = m_params.detour.stillSpeed * m_params.detour.stillSpeed;
        detail::StepWorkspace::WorkerStats w = ws.stats[static_cast<std::size_t>(worker)];
        for (std::size_t i = begin; i < end; ++i) {
            const bool moving = isStatic[i] == 0;
            const AgentParams& p = params[i];
            bool reached = false;
            // kLp3 (lp3 is 0 or 1).
            const std::uint8_t decided = lp3[i];
            if (moving) {
                if (breaking) {
                    // Stalled while the step's move makes less than a tenth of the preferred
                    // progress (v_pref before the turn, as the decision computed it).
                    const Vec2 base = ws.basePref[i];
                    const double baseSpeed = std::sqrt(absSq(base));
                    const bool stalled =
                        hasGoal[i] && baseSpeed > 0.0 &&
                        dot(newVelocity[i], base) < kDeadlockProgressRatio * baseSpeed * baseSpeed;
                    const double next = stallSeconds[i] + dt;
                    stallSeconds[i] = stalled && next < kDeadlockCycleSeconds - 1e-9 ? next : 0.0;
                } else {
                    stallSeconds[i] = 0.0;
                }
                const Vec2 before = vel[i];
                const Vec2 v = newVelocity[i];
                vel[i] = v;
                pos[i] += v * dt;
                // Waypoints reached by the move (several when they lie close together).
                if (routes && hasGoal[i] && m_routeProgress[i] < m_waypoints[i].size()) {
                    const std::vector<Vec2>& route = m_waypoints[i];
                    const double r = effectiveWaypointRadius(p);
                    std::uint32_t& k = m_routeProgress[i];
                    const std::uint32_t from = k;
                    while (k < route.size() && absSq(route[k] - pos[i]) <= r * r)
                        ++k;
                    reached = k != from;
                }
                newVelocity[i] = before; // (previousVelocities)
                // Not std::max: a NaN must reach the bound (and expire the lists).
                const double speedSq = absSq(v);
                if (!(speedSq <= w.maxSpeedSq)) w.maxSpeedSq = speedSq;
                const double coordinate = std::max(std::abs(pos[i].x), std::abs(pos[i].y));
                if (!(coordinate <= w.maxAbsCoordinate)) w.maxAbsCoordinate = coordinate;
            } else {
                newVelocity[i] = vel[i];
            }
            detail::advanceDetourState(nextMode[i], nextReason[i], vel[i], dt, stillSpeedSq,
                                       detourMode[i], detourReason[i], stillSeconds[i]);
            if constexpr (!kWatched) lastLp3[i] = decided & step_flag::kLp3;
            // (atGoalAt, on the local pointers.)
            const bool atGoal = hasGoal[i] &&
                                !(routes && m_routeProgress[i] < m_waypoints[i].size()) &&
                                withinGoalRadius(pos[i], goal[i], p);
            w.stats.lp3Agents += decided & step_flag::kLp3;
            w.stats.movingAgents += moving ? 1 : 0;
            w.stats.goalAgents += hasGoal[i];
            w.stats.agentsAtGoal += atGoal ? 1 : 0;
            w.stats.detouringAgents += detouring[i];
            if constexpr (kWatched) {
                // The move's bits, as shifts of 0 or 1 (no selects); kLp3 goes to lastLp3 and
                // the other bits are added after the chunk's move (addWatchFlags).
                static_assert(step_flag::kLp3 == 1 && step_flag::kAtGoal == 1 << 1 &&
                              step_flag::kWaypoint == 1 << 5);
                stepFlags[i] = static_cast<std::uint8_t>(decided | (atGoal ? 1u : 0u) << 1 |
                                                         (reached ? 1u : 0u) << 5);
            }
        }
        ws.stats[static_cast<std::size_t>(worker)] = w;
    };
    // A watched step's flags are finished by a pass over each chunk after its move, on data
    // still in cache, four agents at a time: kDetouring, kFlip and kSlow, with per-agent
    // thresholds taken once per revision of the agents' definitions (static agents never get
    // kFlip or kSlow). In the move's loop they cost three times the instructions
    // (docs/performance.md, stop 40).
    detail::WatchFlagArrays finish{};
    if (watching) {
        if (ws.motionRevision != m_agentDefsRevision || !(ws.motionRatio == watch.slowSpeedRatio)) {
            ws.slowSq.resize(n);
            ws.tinySq.resize(n);
            for (std::size_t i = 0; i < n; ++i) {
                const AgentParams& p = m_agentParams[i];
                ws.slowSq[i] = m_static[i] ? -std::numeric_limits<double>::infinity()
                                           : detail::slowSpeedSq(m_hasGoal[i] != 0, p.prefSpeed,
                                                                 watch.slowSpeedRatio);
                ws.tinySq[i] = m_static[i] ? std::numeric_limits<double>::infinity()
                                           : detail::flipTinySq(p.maxSpeed);
            }
            ws.motionRevision = m_agentDefsRevision;
            ws.motionRatio = watch.slowSpeedRatio;
        }
        finish.before = ws.newVelocity.data(); // (previousVelocities after the move)
        finish.after = m_vel.data();
        finish.slowSq = ws.slowSq.data();
        finish.tinySq = ws.tinySq.data();
        finish.detourMode = m_detourMode.data();
        finish.cosFlip = watch.cosFlip;
        finish.flags = m_stepFlags.data();
        finish.lastLp3 = m_lastLp3.data();
    }
    ws.pool->parallelFor(n, moveGrain, [&](std::size_t begin, std::size_t end, int worker) {
        if (watching) {
            move(std::true_type{}, begin, end, worker);
            detail::addWatchFlags(begin, end, finish);
        } else {
            move(std::false_type{}, begin, end, worker);
        }
    });
    StepStats stats;
    double maxSpeedSq = 0.0;
    double maxAbsCoordinate = 0.0;
    for (const auto& w : ws.stats) {
        stats.lp3Agents += w.stats.lp3Agents;
        stats.movingAgents += w.stats.movingAgents;
        stats.goalAgents += w.stats.goalAgents;
        stats.agentsAtGoal += w.stats.agentsAtGoal;
        stats.detouringAgents += w.stats.detouringAgents;
        if (!(w.maxSpeedSq <= maxSpeedSq)) maxSpeedSq = w.maxSpeedSq;
        if (!(w.maxAbsCoordinate <= maxAbsCoordinate)) maxAbsCoordinate = w.maxAbsCoordinate;
    }
    stats.maxMove = ws.lists.moved(maxSpeedSq, dt, maxAbsCoordinate);
    stats.neighborLists = useLists;
    // A pair that overlaps after the move was closer than r_i + r_j + 2 x maxMove before it.
    ws.contactsComplete = contacts && !contactsShort && ws.maxRadius <= watch.contactRadius &&
                          2.0 * stats.maxMove <= watch.contactReach;
    m_lastStats = stats;
    m_time += dt;
    ++m_stepCount;
    m_revisionBeforeStep = m_revision;
    m_revision = nextRevision();
    m_lastChangeStep = true;
    m_lastWatched = watching;
    m_lastWatch = watch;
    // Finite velocities move finite positions to finite ones, unless a coordinate was already
    // near the largest double.
    if (!(maxAbsCoordinate <= std::numeric_limits<double>::max())) {
        std::size_t i = 0;
        while (i < n && std::isfinite(m_pos[i].x) && std::isfinite(m_pos[i].y))
            ++i;
        throw NonFiniteState("step " + std::to_string(m_stepCount) + ": agent " +
                             std::to_string(i) + "'s position overflowed (" +
                             (i < n ? formatVec(m_pos[i]) : std::string("?")) +
                             "): coordinates must stay far below 1.8e308");
    }
}

double Simulator::meanCellSize() const {
    // Cells of about the mean neighbour distance: a typical query scans 3x3 cells.
    if (m_neighborDistCount == 0) return 1.0;
    return std::max(m_neighborDistSum / static_cast<double>(m_neighborDistCount), 1e-3);
}

void Simulator::buildGrid(detail::AgentGrid& grid, detail::ThreadPool* pool) const {
    grid.build(m_pos, meanCellSize(), pool);
}

void Simulator::invalidateNeighborLists() {
    m_work->lists.invalidate();
}

detail::AgentArrays Simulator::agentArrays() const {
    return {m_pos.data(), m_vel.data(), m_radius.data(), m_static.data(),
            m_weightedAgents != 0 ? m_weight.data() : nullptr};
}

void Simulator::setClock(double time, std::uint64_t stepCount) {
    touch();
    m_time = time;
    m_stepCount = stepCount;
}

} // namespace orca
