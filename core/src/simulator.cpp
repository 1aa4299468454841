#include "orca/simulator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "agent_decision.hpp"
#include "agent_grid.hpp"
#include "detour_policy.hpp"
#include "orca/parameters.hpp"
#include "thread_pool.hpp"

namespace orca {

namespace {

constexpr std::uint32_t kNoIndex = 0xffffffffu;

} // namespace

/// The step's machinery: nothing here is state a caller can observe (docs/core.md, "A step").
struct detail::StepWorkspace {
    detail::AgentGrid grid;
    // Per-step outputs, per agent, applied by the move.
    std::vector<Vec2> newVelocity;
    std::vector<std::uint8_t> nextDetourMode;
    std::vector<std::uint8_t> detourReason;
    std::vector<std::uint8_t> detouring;
    detail::DetourSources sources;        ///< this step's detour field sources
    std::vector<detail::Scratch> scratch; ///< one per worker
    /// The move's counts, one per worker (a cache line each), summed after it.
    struct alignas(64) WorkerStats {
        StepStats stats;
    };
    std::vector<WorkerStats> stats;
    std::unique_ptr<detail::ThreadPool> pool;

    explicit StepWorkspace(int threads) { resize(threads); }
    void resize(int threads) {
        pool = std::make_unique<detail::ThreadPool>(threads);
        scratch.resize(static_cast<std::size_t>(pool->size()));
        stats.resize(static_cast<std::size_t>(pool->size()));
    }
};

Simulator::Simulator(const SimulationParams& params)
    : m_work(std::make_unique<detail::StepWorkspace>(1)) {
    setParams(params);
}
Simulator::~Simulator() = default;
Simulator::Simulator(Simulator&&) noexcept = default;
Simulator& Simulator::operator=(Simulator&&) noexcept = default;

void Simulator::setParams(const SimulationParams& params) {
    // Ranges and messages: the parameter table (orca/parameters.hpp).
    if (std::string error = checkSimulationParams(params); !error.empty())
        throw InvalidArgument(error);
    m_params = params;
}

void Simulator::setThreadCount(int threads) {
    threads = std::clamp(threads, 1, 256);
    if (threads == m_threadCount) return;
    m_threadCount = threads;
    m_work->resize(threads);
}

// ---- Agents --------------------------------------------------------------------------------

void Simulator::validate(const AgentDef& def) const {
    const AgentParams& p = def.params;
    auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    if (!finite(def.position)) throw InvalidArgument("agent position is not finite");
    if (!finite(def.velocity)) throw InvalidArgument("agent velocity is not finite");
    if (!finite(def.goal)) throw InvalidArgument("agent goal is not finite");
    if (!finite(def.prefVelocity)) throw InvalidArgument("agent prefVelocity is not finite");
    if (std::string error = checkAgentParams(p); !error.empty()) throw InvalidArgument(error);
}

void Simulator::countCellSize(std::size_t i, int sign) {
    // Running sum behind the grid's cell size (the mean neighbour distance of the agents that
    // look for neighbours); the cell size affects speed only, never results.
    if (m_static[i] || m_agentParams[i].maxNeighbors <= 0) return;
    m_neighborDistSum += sign * m_agentParams[i].neighborDist;
    m_neighborDistCount =
        static_cast<std::size_t>(static_cast<std::ptrdiff_t>(m_neighborDistCount) + sign);
    if (m_neighborDistCount == 0) m_neighborDistSum = 0.0; // no rounding residue
}

void Simulator::storeAgent(std::size_t i, const AgentDef& def) {
    ++m_agentsVersion;
    countCellSize(i, -1); // the agent's previous parameters (a new slot counts nothing)
    m_radius[i] = def.params.radius;
    m_pos[i] = def.position;
    m_vel[i] = def.isStatic ? Vec2(0.0) : def.velocity;
    m_prefVel[i] = def.prefVelocity;
    m_goal[i] = def.goal;
    m_agentParams[i] = def.params;
    m_hasGoal[i] = def.hasGoal ? 1 : 0;
    m_static[i] = def.isStatic ? 1 : 0;
    countCellSize(i, +1);
}

void Simulator::reserveAgents(std::size_t agents) {
    m_pos.reserve(agents);
    m_vel.reserve(agents);
    m_prefVel.reserve(agents);
    m_goal.reserve(agents);
    m_agentParams.reserve(agents);
    m_radius.reserve(agents);
    m_hasGoal.reserve(agents);
    m_static.reserve(agents);
    m_detourMode.reserve(agents);
    m_detourReason.reserve(agents);
    m_stillSeconds.reserve(agents);
    m_ids.reserve(agents);
    m_agentSlots.reserve(agents);
}

AgentId Simulator::addAgent(const AgentDef& def) {
    validate(def);
    if (m_pos.size() >= kNoIndex - 1) throw InvalidArgument("too many agents");
    const std::size_t i = m_pos.size();
    const SlotTable::Handle h = m_agentSlots.acquire(static_cast<std::uint32_t>(i));
    const AgentId id{h.slot, h.generation};
    m_pos.emplace_back();
    m_vel.emplace_back();
    m_prefVel.emplace_back();
    m_goal.emplace_back();
    m_agentParams.emplace_back();
    m_agentParams.back().maxNeighbors = 0; // counts nothing until stored
    m_radius.push_back(0.0);
    m_hasGoal.push_back(0);
    m_static.push_back(0);
    m_detourMode.push_back(0);
    m_detourReason.push_back(0);
    m_stillSeconds.push_back(0.0);
    m_ids.push_back(id);
    storeAgent(i, def);
    m_lastLp3.clear(); // per-agent step outputs no longer line up
    return id;
}

bool Simulator::removeAgent(AgentId id) {
    const auto index = indexOf(id);
    if (!index) return false;
    const std::size_t i = *index;
    countCellSize(i, -1);
    ++m_agentsVersion;
    auto eraseAt = [i](auto& v) { v.erase(v.begin() + static_cast<std::ptrdiff_t>(i)); };
    eraseAt(m_radius);
    eraseAt(m_pos);
    eraseAt(m_vel);
    eraseAt(m_prefVel);
    eraseAt(m_goal);
    eraseAt(m_agentParams);
    eraseAt(m_hasGoal);
    eraseAt(m_static);
    eraseAt(m_detourMode);
    eraseAt(m_detourReason);
    eraseAt(m_stillSeconds);
    eraseAt(m_ids);
    m_lastLp3.clear(); // per-agent step outputs no longer line up
    // Agents after i moved down by one.
    for (std::size_t k = i; k < m_ids.size(); ++k)
        m_agentSlots.relocate(m_ids[k].slot, static_cast<std::uint32_t>(k));
    m_agentSlots.release(id.slot);
    return true;
}

void Simulator::clear() {
    while (!m_ids.empty())
        removeAgent(m_ids.back()); // O(1) each from the back
    for (ObstacleId id : m_obstacleIds)
        m_obstacleSlots.release(id.slot);
    m_obstacleIds.clear();
    m_obstacles.clear();
    rebuildObstacles();
    m_time = 0.0;
    m_stepCount = 0;
    m_lastStats = {};
}

std::optional<std::size_t> Simulator::indexOf(AgentId id) const {
    const auto index = m_agentSlots.find(id.slot, id.generation);
    if (!index) return std::nullopt;
    return *index;
}

bool Simulator::contains(AgentId id) const {
    return indexOf(id).has_value();
}

std::size_t Simulator::require(AgentId id) const {
    const auto index = indexOf(id);
    if (!index) throw InvalidArgument("invalid or removed agent id");
    return *index;
}

AgentDef Simulator::agent(AgentId id) const {
    const std::size_t i = require(id);
    AgentDef def;
    def.position = m_pos[i];
    def.velocity = m_vel[i];
    def.params = m_agentParams[i];
    def.hasGoal = m_hasGoal[i] != 0;
    def.goal = m_goal[i];
    def.prefVelocity = m_prefVel[i];
    def.isStatic = m_static[i] != 0;
    return def;
}

void Simulator::setAgent(AgentId id, const AgentDef& def) {
    const std::size_t i = require(id);
    validate(def);
    storeAgent(i, def);
}

void Simulator::setDetourState(AgentId id, DetourMode mode, double stillSeconds) {
    const std::size_t i = require(id);
    if (!(std::isfinite(stillSeconds) && stillSeconds >= 0.0))
        throw InvalidArgument("stillSeconds must be a finite number >= 0");
    m_detourMode[i] = static_cast<std::uint8_t>(mode);
    m_stillSeconds[i] = stillSeconds;
}

void Simulator::setPosition(AgentId id, Vec2 p) {
    const std::size_t i = require(id);
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
        throw InvalidArgument("agent position is not finite");
    m_pos[i] = p;
}

void Simulator::setVelocity(AgentId id, Vec2 v) {
    const std::size_t i = require(id);
    if (!std::isfinite(v.x) || !std::isfinite(v.y))
        throw InvalidArgument("agent velocity is not finite");
    if (!m_static[i]) m_vel[i] = v;
}

Vec2 Simulator::prefVelocityAt(std::size_t i) const {
    if (m_static[i]) return Vec2(0.0);
    if (!m_hasGoal[i]) return m_prefVel[i];
    // Toward the goal, clamped to prefSpeed (RVO2 Circle/Blocks: normalise when |g| > 1).
    Vec2 toGoal = m_goal[i] - m_pos[i];
    const double distSq = absSq(toGoal);
    const double prefSpeed = m_agentParams[i].prefSpeed;
    if (distSq > prefSpeed * prefSpeed) toGoal *= prefSpeed / std::sqrt(distSq);
    return toGoal;
}

bool Simulator::atGoalAt(std::size_t i) const {
    if (!m_hasGoal[i]) return false;
    const AgentParams& p = m_agentParams[i];
    const double r = p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
    return absSq(m_goal[i] - m_pos[i]) <= r * r;
}

std::size_t Simulator::goalAgentCount() const {
    return static_cast<std::size_t>(std::count(m_hasGoal.begin(), m_hasGoal.end(), 1));
}

std::size_t Simulator::atGoalCount() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < m_pos.size(); ++i)
        n += atGoalAt(i) ? 1 : 0;
    return n;
}

// ---- Obstacles -----------------------------------------------------------------------------

namespace {

void requireUsablePolygon(std::span<const Vec2> vertices) {
    const PolygonCheck check = checkPolygon(vertices);
    if (!check.valid) throw InvalidArgument("invalid obstacle: " + check.error);
    if (check.clockwise)
        throw InvalidArgument("invalid obstacle: vertices are clockwise; obstacles must be "
                              "counter-clockwise (reverse the vertex list)");
}

} // namespace

ObstacleId Simulator::addObstacle(std::span<const Vec2> vertices) {
    return addObstacles(std::span<const std::vector<Vec2>>(
                            std::vector<std::vector<Vec2>>{{vertices.begin(), vertices.end()}}))
        .front();
}

std::vector<ObstacleId> Simulator::addObstacles(std::span<const std::vector<Vec2>> polygons) {
    for (const std::vector<Vec2>& polygon : polygons)
        requireUsablePolygon(polygon);
    std::vector<ObstacleId> ids;
    ids.reserve(polygons.size());
    for (const std::vector<Vec2>& polygon : polygons) {
        const SlotTable::Handle h =
            m_obstacleSlots.acquire(static_cast<std::uint32_t>(m_obstacles.size()));
        ids.push_back({h.slot, h.generation});
        m_obstacles.push_back(polygon);
        m_obstacleIds.push_back(ids.back());
    }
    rebuildObstacles(); // once for the whole batch
    return ids;
}

bool Simulator::contains(ObstacleId id) const {
    return m_obstacleSlots.find(id.slot, id.generation).has_value();
}

bool Simulator::removeObstacle(ObstacleId id) {
    const auto index = m_obstacleSlots.find(id.slot, id.generation);
    if (!index) return false;
    const std::size_t i = *index;
    m_obstacles.erase(m_obstacles.begin() + static_cast<std::ptrdiff_t>(i));
    m_obstacleIds.erase(m_obstacleIds.begin() + static_cast<std::ptrdiff_t>(i));
    for (std::size_t k = i; k < m_obstacleIds.size(); ++k)
        m_obstacleSlots.relocate(m_obstacleIds[k].slot, static_cast<std::uint32_t>(k));
    m_obstacleSlots.release(id.slot);
    rebuildObstacles();
    return true;
}

std::span<const Vec2> Simulator::obstacleVertices(ObstacleId id) const {
    const auto index = m_obstacleSlots.find(id.slot, id.generation);
    if (!index) throw InvalidArgument("invalid or removed obstacle id");
    return m_obstacles[*index];
}

void Simulator::rebuildObstacles() {
    buildObstacleVertices(m_obstacles, m_vertices);
    // Cells about one obstacle query range (τo·maxSpeed + r) of a default agent.
    const AgentParams d;
    m_obstacleGrid.build(m_vertices, d.timeHorizonObst * d.maxSpeed + d.radius);
}

// ---- Stepping ------------------------------------------------------------------------------

namespace {

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

/// The `maxNeighbors` nearest agents of `p` (strictly within the range, excluding `self`)
/// among the items of s.ranges, sorted by (distSq, agent index): the same set and order as
/// AgentGrid::nearest.
void selectNeighbors(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                     const detail::AgentGrid& grid, detail::Scratch& s) {
    const std::span<const Vec2> pos = grid.itemPositions();
    const std::span<const std::uint32_t> agents = grid.itemAgents();
    std::size_t total = 0;
    for (const detail::ItemRange& r : s.ranges)
        total += r.end - r.begin;
    s.reserveCandidates(std::max<std::size_t>(total, 24)); // rankByDistance's padding
    double* dist = s.candDistSq.data();
    std::uint32_t* item = s.candItem.data();
    std::uint32_t* agent = s.candAgent.data();
    std::size_t count = 0;
    for (const detail::ItemRange& r : s.ranges) {
        for (std::uint32_t k = r.begin; k < r.end; ++k) {
            const double dx = pos[k].x - p.x;
            const double dy = pos[k].y - p.y;
            const double d = dx * dx + dy * dy;
            dist[count] = d;
            item[count] = k;
            agent[count] = agents[k];
            count += (d < rangeSq) & (agents[k] != self);
        }
    }
    s.neighborCount = 0;
    if (count == 0) return;
    // Candidate a comes before b: nearer, or as near and earlier in agent order.
    auto before = [dist, agent](std::size_t a, std::size_t b) {
        return (dist[a] < dist[b]) | ((dist[a] == dist[b]) & (agent[a] < agent[b]));
    };
    const std::size_t keep = std::min(count, maxNeighbors);
    if (s.neighbors.size() < keep) s.neighbors.resize(keep);
    s.neighborCount = keep;
    if (count <= 24) {
        // Rank of each candidate = number of candidates before it: few candidates, so
        // O(count²) branch-free compares beat a sort's unpredictable branches. Distances
        // alone first (the cheap compare); when two are equal their ranks collide, and only
        // then the full order with its agent-index tie-break.
        std::uint32_t rank[24];
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
            if (rank[a] < keep) s.neighbors[rank[a]] = {dist[a], agent[a], item[a]};
        }
        if (taken == (1u << count) - 1u) return; // all distinct: the order is by distance
        for (std::size_t a = 0; a < count; ++a) {
            std::size_t place = 0;
            for (std::size_t b = 0; b < count; ++b)
                place += before(b, a);
            if (place < keep) s.neighbors[place] = {dist[a], agent[a], item[a]};
        }
        return;
    }
    std::vector<std::uint32_t>& order = s.candOrder;
    order.resize(count);
    for (std::size_t a = 0; a < count; ++a)
        order[a] = static_cast<std::uint32_t>(a);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep), order.end(),
                      [&](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    for (std::size_t r = 0; r < keep; ++r) {
        const std::uint32_t a = order[r];
        s.neighbors[r] = {dist[a], agent[a], item[a]};
    }
}

} // namespace

void Simulator::step() {
    std::vector<ExplainRecord> none;
    step({}, none);
}

void Simulator::step(std::span<const AgentId> explainFor, std::vector<ExplainRecord>& out,
                     const ExplainOptions& options) {
    detail::StepWorkspace& ws = *m_work;
    const std::size_t n = m_pos.size();

    // 1. Spatial index of the state before the step.
    ws.pool->prepare(); // wake the workers while the grid is built
    buildGrid(ws.grid, ws.pool.get());

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

    // Explain records first, from the same pre-step state (dry-run path of the same code).
    out.clear();
    for (AgentId id : explainFor) {
        const auto index = indexOf(id);
        if (!index) continue;
        explainAgent(*index, ws.grid, detour, options, out.emplace_back());
    }

    // 2. Every agent decides independently (parallel-safe: reads only pre-step state). Work
    //    goes cell by cell: the agents of a cell share the block of cells around it, located
    //    once, from which each picks its nearest neighbours.
    ws.newVelocity.resize(n);
    m_lastLp3.resize(n);
    ws.nextDetourMode.resize(n);
    ws.detourReason.resize(n);
    ws.detouring.resize(n);
    const auto vertices = std::span<const ObstacleVertex>(m_vertices);
    const detail::AgentGrid& grid = ws.grid;
    const std::size_t cells = grid.occupiedCount();
    const double invCell = 1.0 / grid.cellSize();
    const int threads = ws.pool->size();
    const std::size_t cellGrain =
        std::clamp<std::size_t>(cells / (static_cast<std::size_t>(threads) * 8), 4, 512);
    ws.pool->parallelFor(cells, cellGrain, [&](std::size_t begin, std::size_t end, int worker) {
        detail::Scratch& s = ws.scratch[static_cast<std::size_t>(worker)];
        for (std::size_t c = begin; c < end; ++c) {
            const detail::AgentGrid::CellView cell = grid.occupied(c);
            // Block radius (in cells) that covers every agent's neighbour range.
            int blockRadius = 0;
            for (std::uint32_t k = cell.start; k < cell.start + cell.count; ++k) {
                const std::uint32_t i = grid.itemAgent(k);
                const AgentParams& p = m_agentParams[i];
                if (m_static[i] || p.maxNeighbors <= 0) continue;
                // ceil(neighborDist / cell), at most 4 (beyond that the block is not used).
                const double cellsNeeded = std::min(p.neighborDist * invCell, 4.0);
                const int whole = static_cast<int>(cellsNeeded);
                blockRadius = std::max(blockRadius, whole + (cellsNeeded > whole ? 1 : 0));
            }
            const bool useBlock = blockRadius > 0 && blockRadius <= 3;
            if (useBlock) grid.blockRanges(cell.cx, cell.cy, blockRadius, s.ranges);
            // A block with a dense cell: its tree, not a scan of every item (docs/core.md).
            const bool denseBlock = useBlock && grid.touchesDenseCell(s.ranges);
            for (std::uint32_t k = cell.start; k < cell.start + cell.count; ++k) {
                const std::uint32_t i = grid.itemAgent(k);
                if (m_static[i]) {
                    ws.newVelocity[i] = Vec2(0.0);
                    m_lastLp3[i] = 0;
                    ws.nextDetourMode[i] = static_cast<std::uint8_t>(DetourMode::Normal);
                    ws.detourReason[i] = static_cast<std::uint8_t>(DetourReason::None);
                    ws.detouring[i] = 0;
                    continue;
                }
                const AgentParams& p = m_agentParams[i];
                detail::AgentView a{m_pos[i], m_vel[i], prefVelocityAt(i), &p};
                const double rangeSq = p.neighborDist * p.neighborDist;
                const auto maxNeighbors = static_cast<std::size_t>(std::max(p.maxNeighbors, 0));
                if (maxNeighbors == 0) {
                    s.neighborCount = 0;
                } else if (useBlock && !denseBlock) {
                    selectNeighbors(a.position, i, rangeSq, maxNeighbors, grid, s);
                } else if (useBlock) {
                    grid.nearestIn(a.position, i, rangeSq, maxNeighbors, s.ranges, s.neighbors);
                    s.neighborCount = s.neighbors.size();
                } else {
                    grid.nearest(a.position, i, rangeSq, maxNeighbors, s.neighbors, s.ranges);
                    s.neighborCount = s.neighbors.size();
                }
                ExplainDetour info;
                const bool detours = detourOn && m_hasGoal[i];
                if (detours) {
                    a.prefVelocity = detour.prefVelocity(
                        i, a.prefVelocity,
                        std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount),
                        info);
                }
                const SolveResult r = detail::decide(a, i, m_params, vertices, m_obstacleGrid, grid,
                                                     m_static, s, false);
                ws.newVelocity[i] = r.velocity;
                m_lastLp3[i] = r.lp3Ran ? 1 : 0;
                if (detours) {
                    detour.afterSolve(i, r.velocity, info);
                } else {
                    detour.notApplied(i, info);
                }
                ws.detouring[i] = detours && info.mode == DetourMode::Detouring ? 1 : 0;
                ws.nextDetourMode[i] = static_cast<std::uint8_t>(info.nextMode);
                ws.detourReason[i] = static_cast<std::uint8_t>(info.reason);
            }
        }
    });

    // 3. Move (static agents stay where they are, with velocity zero), and count the step's
    //    statistics while the agent's data is in cache (whole-number sums per worker: the
    //    total does not depend on who counted what).
    const double dt = m_params.timeStep;
    for (auto& w : ws.stats)
        w.stats = {};
    ws.pool->parallelFor(n, 8192, [&](std::size_t begin, std::size_t end, int worker) {
        const double stillSpeedSq = m_params.detour.stillSpeed * m_params.detour.stillSpeed;
        StepStats counts = ws.stats[static_cast<std::size_t>(worker)].stats;
        for (std::size_t i = begin; i < end; ++i) {
            if (!m_static[i]) {
                m_vel[i] = ws.newVelocity[i];
                m_pos[i] += m_vel[i] * dt;
            }
            detail::advanceDetourState(ws.nextDetourMode[i], ws.detourReason[i], m_vel[i], dt,
                                       stillSpeedSq, m_detourMode[i], m_detourReason[i],
                                       m_stillSeconds[i]);
            counts.lp3Agents += m_lastLp3[i];
            counts.movingAgents += m_static[i] ? 0 : 1;
            counts.goalAgents += m_hasGoal[i];
            counts.agentsAtGoal += atGoalAt(i) ? 1 : 0;
            counts.detouringAgents += ws.detouring[i];
        }
        ws.stats[static_cast<std::size_t>(worker)].stats = counts;
    });
    StepStats stats;
    for (const auto& w : ws.stats) {
        stats.lp3Agents += w.stats.lp3Agents;
        stats.movingAgents += w.stats.movingAgents;
        stats.goalAgents += w.stats.goalAgents;
        stats.agentsAtGoal += w.stats.agentsAtGoal;
        stats.detouringAgents += w.stats.detouringAgents;
    }
    m_lastStats = stats;
    m_time += dt;
    ++m_stepCount;
}

double Simulator::meanCellSize() const {
    // Cells of about the mean neighbour distance: a typical query scans 3x3 cells.
    if (m_neighborDistCount == 0) return 1.0;
    return std::max(m_neighborDistSum / static_cast<double>(m_neighborDistCount), 1e-3);
}

void Simulator::buildGrid(detail::AgentGrid& grid, detail::ThreadPool* pool) const {
    grid.build(m_pos, m_vel, m_radius, meanCellSize(), pool);
}

void Simulator::setClock(double time, std::uint64_t stepCount) {
    m_time = time;
    m_stepCount = stepCount;
}

} // namespace orca
