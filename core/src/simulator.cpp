#include "orca/simulator.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <numbers>
#include <string>

#include "agent_grid.hpp"
#include "agent_line_kernel.hpp"
#include "orca/linear_program.hpp"
#include "orca/orca_lines.hpp"
#include "orca/parameters.hpp"
#include "thread_pool.hpp"

namespace orca {

namespace {

constexpr std::uint32_t kNoIndex = 0xffffffffu;
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
    // Item ranges of the block of cells around the current cell.
    std::vector<detail::ItemRange> ranges;
    // Candidates of one agent within its range.
    std::vector<double> candDistSq;
    std::vector<std::uint32_t> candItem;
    std::vector<std::uint32_t> candAgent;
    std::vector<std::uint32_t> candOrder; ///< partial sort of many candidates
    // Agent-line kernel arrays (grow-only: resizing per agent costs more than the kernel).
    std::vector<double> rpx, rpy, rvx, rvy, radius, dx, dy, ux, uy;
    std::vector<std::uint8_t> lineCase;

    void reserveLines(std::size_t n) {
        if (rpx.size() >= n) return;
        for (auto* v : {&rpx, &rpy, &rvx, &rvy, &radius, &dx, &dy, &ux, &uy}) v->resize(n);
        lineCase.resize(n);
    }
    void reserveCandidates(std::size_t n) {
        if (candDistSq.size() >= n) return;
        candDistSq.resize(n);
        candItem.resize(n);
        candAgent.resize(n);
    }
};

/// Time until a point moving with velocity `v` from the origin enters the disk D(c, R)
/// (0 if inside, +inf if never).
double timeToDisk(Vec2 c, double radius, Vec2 v) {
    const double cSq = absSq(c);
    if (cSq <= radius * radius) return 0.0;
    const double a = absSq(v);
    if (a <= 0.0) return std::numeric_limits<double>::infinity();
    const double b = dot(c, v);
    const double disc = b * b - a * (cSq - radius * radius);
    if (b <= 0.0 || disc < 0.0) return std::numeric_limits<double>::infinity();
    return (b - std::sqrt(disc)) / a;
}

/// Time until a disk of radius r at the origin moving with `v` touches segment [a, b].
double timeToSegment(Vec2 a, Vec2 b, double radius, Vec2 v) {
    if (distSqPointSegment(a, b, Vec2(0.0)) <= radius * radius) return 0.0;
    double best = std::min(timeToDisk(a, radius, v), timeToDisk(b, radius, v));
    // The side of the capsule facing the origin: the segment offset by r toward the origin.
    const Vec2 dir = b - a;
    const double lenSq = absSq(dir);
    if (lenSq > 0.0) {
        Vec2 n = perp(dir) / std::sqrt(lenSq);
        if (dot(n, -a) < 0.0) n = -n; // point n toward the origin
        const double dist = dot(n, -a);
        const double speedToward = -dot(n, v);
        if (speedToward > 0.0) {
            const double t = (dist - radius) / speedToward;
            const Vec2 hit = v * t - n * radius; // contact point on the segment (relative)
            const double s = dot(hit - a, dir) / lenSq;
            if (t >= 0.0 && s >= 0.0 && s <= 1.0) best = std::min(best, t);
        }
    }
    return best;
}

} // namespace

struct Simulator::Impl {
    detail::AgentGrid grid;
    std::vector<Vec2> newVelocity;  ///< step output, per agent
    std::vector<std::uint8_t> lp3;  ///< step output, per agent
    std::vector<std::uint8_t> atGoal; ///< step output, per agent
    // Detour, per agent: step outputs and this step's field sources.
    std::vector<std::uint8_t> nextDetourMode;
    std::vector<std::uint8_t> detourReason;
    std::vector<std::uint8_t> detouring;
    std::vector<std::uint8_t> isSource;
    std::vector<std::uint32_t> sources;
    std::vector<Scratch> scratch;   ///< one per worker
    std::unique_ptr<detail::ThreadPool> pool;

    explicit Impl(int threads) { resize(threads); }
    void resize(int threads) {
        pool = std::make_unique<detail::ThreadPool>(threads);
        scratch.resize(static_cast<std::size_t>(pool->size()));
    }
};

Simulator::Simulator(const SimulationParams& params) : m_impl(std::make_unique<Impl>(1)) {
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
    m_impl->resize(threads);
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
    m_impl->lp3.clear(); // per-agent step outputs no longer line up
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
    m_impl->lp3.clear(); // per-agent step outputs no longer line up
    // Agents after i moved down by one.
    for (std::size_t k = i; k < m_ids.size(); ++k)
        m_agentSlots.relocate(m_ids[k].slot, static_cast<std::uint32_t>(k));
    m_agentSlots.release(id.slot);
    return true;
}

void Simulator::clear() {
    while (!m_ids.empty()) removeAgent(m_ids.back()); // O(1) each from the back
    for (ObstacleId id : m_obstacleIds) m_obstacleSlots.release(id.slot);
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

bool Simulator::contains(AgentId id) const { return indexOf(id).has_value(); }

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

Vec2 Simulator::prefVelocity(AgentId id) const { return prefVelocityAt(require(id)); }

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

bool Simulator::atGoalIndex(std::size_t i) const {
    if (!m_hasGoal[i]) return false;
    const AgentParams& p = m_agentParams[i];
    const double r = p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
    return absSq(m_goal[i] - m_pos[i]) <= r * r;
}

std::size_t Simulator::goalAgentCount() const {
    return static_cast<std::size_t>(std::count(m_hasGoal.begin(), m_hasGoal.end(), 1));
}

std::size_t Simulator::agentsAtGoal() const {
    std::size_t n = 0;
    for (std::size_t i = 0; i < m_pos.size(); ++i) n += atGoalIndex(i) ? 1 : 0;
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
    for (const std::vector<Vec2>& polygon : polygons) requireUsablePolygon(polygon);
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

/// Everything one agent's decision reads, gathered once.
struct AgentView {
    Vec2 position;
    Vec2 velocity;
    Vec2 prefVelocity;
    const AgentParams* params;
};

/// Obstacle lines (built first; orca-spec section 4), optionally with explain records.
void addObstacleLines(const AgentView& a, std::span<const ObstacleVertex> vertices,
                      const ObstacleGrid& obstGrid, Scratch& s, bool record) {
    const AgentParams& p = *a.params;
    if (record) s.obstacleRecords.clear();
    if (vertices.empty()) {
        s.segments.clear();
        return;
    }
    const double range = p.timeHorizonObst * p.maxSpeed + p.radius;
    obstGrid.query(vertices, a.position, range, s.segments, s.segmentDistSq);
    if (s.segments.empty()) return;
    obstacleOrcaLines(vertices, s.segments, s.segmentDistSq, a.position, a.velocity, p.radius,
                      1.0 / p.timeHorizonObst, s.lines, record ? &s.obstacleRecords : nullptr);
}

/// Agent lines for s.neighbors (orca-spec section 5), appended in neighbour order.
void addAgentLines(const AgentView& a, std::uint32_t self, const SimulationParams& sim,
                   const detail::AgentGrid& grid, std::span<const std::uint8_t> staticFlags,
                   Scratch& s) {
    const std::size_t n = s.neighborCount;
    if (n == 0) return;
    s.reserveLines(n);
    for (std::size_t k = 0; k < n; ++k) {
        const detail::Neighbor& nb = s.neighbors[k];
        Vec2 relPos = grid.itemPosition(nb.item) - a.position;
        if (relPos.x == 0.0 && relPos.y == 0.0) {
            // Coincident centres have no separating direction; split them deterministically
            // by agent order (RVO2 produces NaN here).
            relPos.x = nb.agent > self ? 1e-9 : -1e-9;
        }
        const Vec2 relVel = a.velocity - grid.itemVelocity(nb.item);
        s.rpx[k] = relPos.x;
        s.rpy[k] = relPos.y;
        s.rvx[k] = relVel.x;
        s.rvy[k] = relVel.y;
        s.radius[k] = a.params->radius + grid.itemRadius(nb.item);
    }
    const detail::AgentLineBatch batch{s.rpx.data(), s.rpy.data(), s.rvx.data(),
                                       s.rvy.data(), s.radius.data(), s.dx.data(),
                                       s.dy.data(), s.ux.data(), s.uy.data(),
                                       s.lineCase.data()};
    detail::computeAgentLines(n, batch, 1.0 / a.params->timeHorizon, 1.0 / sim.timeStep);
    for (std::size_t k = 0; k < n; ++k) {
        const Vec2 u{s.ux[k], s.uy[k]};
        const double share = staticFlags[s.neighbors[k].agent] ? sim.staticResponsibility
                                                                : sim.responsibility;
        s.lines.push_back({a.velocity + share * u, {s.dx[k], s.dy[k]}});
    }
}

/// The `maxNeighbors` nearest agents of `p` (strictly within the range, excluding `self`)
/// among the items of s.ranges, sorted by (distSq, agent index): the same set and order as
/// AgentGrid::nearest.
void selectNeighbors(Vec2 p, std::uint32_t self, double rangeSq, std::size_t maxNeighbors,
                     const detail::AgentGrid& grid, Scratch& s) {
    const std::span<const Vec2> pos = grid.itemPositions();
    const std::span<const std::uint32_t> agents = grid.itemAgents();
    std::size_t total = 0;
    for (const detail::ItemRange& r : s.ranges) total += r.end - r.begin;
    s.reserveCandidates(total);
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
        // O(count²) branch-free compares beat a sort's unpredictable branches.
        for (std::size_t a = 0; a < count; ++a) {
            std::size_t rank = 0;
            for (std::size_t b = 0; b < count; ++b) rank += before(b, a);
            if (rank < keep) s.neighbors[rank] = {dist[a], agent[a], item[a]};
        }
        return;
    }
    std::vector<std::uint32_t>& order = s.candOrder;
    order.resize(count);
    for (std::size_t a = 0; a < count; ++a) order[a] = static_cast<std::uint32_t>(a);
    std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(keep),
                      order.end(), [&](std::uint32_t a, std::uint32_t b) { return before(a, b); });
    for (std::size_t r = 0; r < keep; ++r) {
        const std::uint32_t a = order[r];
        s.neighbors[r] = {dist[a], agent[a], item[a]};
    }
}

} // namespace

/// The decision of one agent given its neighbours in s.neighbors (explain path: the caller
/// fills the record from the scratch buffers afterwards).
static SolveResult decide(const AgentView& a, std::uint32_t self, const SimulationParams& sim,
                          std::span<const ObstacleVertex> vertices, const ObstacleGrid& obstGrid,
                          const detail::AgentGrid& grid, std::span<const std::uint8_t> staticFlags,
                          Scratch& s, bool record, LpTrace* trace = nullptr) {
    s.lines.clear();
    addObstacleLines(a, vertices, obstGrid, s, record);
    const std::size_t numObstLines = s.lines.size();
    addAgentLines(a, self, sim, grid, staticFlags, s);
    // The traced solve is a separate instantiation (explain path only); same operations.
    if (trace)
        return solveVelocity(s.lines, numObstLines, a.params->maxSpeed, a.prefVelocity,
                             sim.lp3BisectorWeight, s.projected, *trace);
    return solveVelocity(s.lines, numObstLines, a.params->maxSpeed, a.prefVelocity,
                         sim.lp3BisectorWeight, s.projected);
}

// ---- Detour ---------------------------------------------------------------------------------

namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

void mixBits(std::uint64_t& h, double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    h = (h ^ bits) * 0x100000001b3ull;
}

} // namespace

std::uint64_t Simulator::detourSources(std::vector<std::uint32_t>& sources) const {
    // Sources: agents marked static, and agents with no goal (or at it) that have been still
    // for a while. Agents still heading for their goal never feed the field: a stalled agent
    // is the one that needs to detour, and its own field would send followers around it.
    const DetourParams& d = m_params.detour;
    sources.clear();
    std::uint64_t h = 0xcbf29ce484222325ull ^ m_agentsVersion;
    for (double v : {d.cellSize, d.influenceRadius}) mixBits(h, v);
    for (std::size_t i = 0; i < m_pos.size(); ++i) {
        const bool still = (!m_hasGoal[i] || atGoalIndex(i)) && m_stillSeconds[i] >= d.stillSeconds;
        if (!m_static[i] && !still) continue;
        sources.push_back(static_cast<std::uint32_t>(i));
        h = (h ^ i) * 0x100000001b3ull;
        mixBits(h, m_pos[i].x);
        mixBits(h, m_pos[i].y);
    }
    return h;
}

void Simulator::buildDetourField(DetourField& field, std::span<const std::uint32_t> sources) const {
    const DetourParams& d = m_params.detour;
    if (sources.empty()) {
        field.clear();
        return;
    }
    std::vector<double> sourceRadii;
    sourceRadii.reserve(sources.size());
    for (std::uint32_t i : sources) sourceRadii.push_back(m_radius[i]);
    const double typical = median(m_radius);
    const double cell = d.cellSize > 0.0 ? d.cellSize : 0.4 * median(sourceRadii);
    std::vector<Vec2> centers;
    std::vector<double> influence;
    centers.reserve(sources.size());
    influence.reserve(sources.size());
    for (std::uint32_t i : sources) {
        centers.push_back(m_pos[i]);
        influence.push_back(d.influenceRadius > 0.0 ? d.influenceRadius
                                                    : m_radius[i] + 2.0 * typical);
    }
    field.build(centers, influence, cell);
}

Vec2 Simulator::detourPrefVelocity(std::size_t i, Vec2 goalPref,
                                   std::span<const detail::Neighbor> nbs,
                                   const DetourField& field, std::span<const std::uint8_t> isSource,
                                   ExplainDetour& info) const {
    const DetourParams& d = m_params.detour;
    const double r = m_radius[i];
    info.enabled = true;
    info.goalPrefVelocity = goalPref;
    info.mode = static_cast<DetourMode>(m_detourMode[i]);
    if (info.mode != DetourMode::Detouring) return goalPref;

    auto leave = [&](DetourReason why) {
        info.mode = DetourMode::Normal;
        info.reason = why;
        return goalPref;
    };
    // Leave when the goal is near.
    const double goalDistance = length(m_goal[i] - m_pos[i]);
    const double exitGoal = d.exitGoalDistance > 0.0 ? d.exitGoalDistance : 2.0 * r;
    const double prefSpeed = length(goalPref);
    if (goalDistance <= exitGoal || prefSpeed <= 0.0) return leave(DetourReason::GoalNear);

    // Sample the field around a point moved toward the goal (one distance drives both).
    const Vec2 toGoal = goalPref / prefSpeed;
    const double distance =
        std::max(d.sampleDistance > 0.0 ? d.sampleDistance : r, field.cellSize());
    info.samplePoint = m_pos[i] + toGoal * distance;
    info.sampleRadius = distance;
    Vec2 dir = field.sample(info.samplePoint, distance);
    if (absSq(dir) <= 1e-18 && d.neighborFallback) {
        // Estimate from nearby static neighbours with the same rotation rule, keeping only
        // directions counter-clockwise of v_pref (single-direction rule).
        Vec2 sum(0.0);
        for (const detail::Neighbor& nb : nbs) {
            if (!isSource[nb.agent]) continue;
            const Vec2 toNeighbor = m_pos[nb.agent] - m_pos[i];
            const double lenSq = absSq(toNeighbor);
            if (lenSq <= 0.0) continue;
            const Vec2 around = perp(toNeighbor) / std::sqrt(lenSq);
            if (isCounterClockwiseOf(goalPref, around)) sum += around;
        }
        dir = sum;
        info.usedFallback = absSq(sum) > 1e-18;
    }
    if (absSq(dir) <= 1e-18) return leave(DetourReason::EmptySample);
    dir = normalize(dir);
    info.sampledDirection = dir;
    // Single-direction rule: a direction clockwise of v_pref ends the detour.
    if (!isCounterClockwiseOf(goalPref, dir)) return leave(DetourReason::Clockwise);
    if (dot(dir, toGoal) >= std::cos(d.exitAlignedDegrees * std::numbers::pi / 180.0))
        return leave(DetourReason::Aligned);
    return dir * prefSpeed;
}

void Simulator::detourAfterSolve(std::size_t i, Vec2 newVelocity, ExplainDetour& info) const {
    const DetourParams& d = m_params.detour;
    info.nextMode = info.mode;
    // Still detouring, or just left in this decision (re-entering waits for the next one).
    if (info.mode == DetourMode::Detouring || info.reason != DetourReason::None) return;
    // Enter when ORCA's speed fell below the threshold far from the goal.
    const double prefSpeed = length(info.goalPrefVelocity);
    const double r = m_radius[i];
    const double enterGoal = d.enterGoalDistance > 0.0 ? d.enterGoalDistance : 4.0 * r;
    if (prefSpeed > 0.0 && length(newVelocity) < d.enterSpeedRatio * prefSpeed &&
        length(m_goal[i] - m_pos[i]) > enterGoal) {
        info.nextMode = DetourMode::Detouring;
        info.reason = DetourReason::Stalled;
    }
}

void Simulator::step() {
    std::vector<ExplainRecord> none;
    step({}, none);
}

void Simulator::step(std::span<const AgentId> explainFor, std::vector<ExplainRecord>& out,
                     const ExplainOptions& options) {
    Impl& im = *m_impl;
    const std::size_t n = m_pos.size();

    // 1. Spatial index of the state before the step.
    im.pool->prepare(); // wake the workers while the grid is built
    buildGrid(im.grid, im.pool.get());

    // Detour field from this state's sources (rebuilt only when they changed).
    const bool detourOn = m_params.detour.enabled;
    im.isSource.assign(n, 0);
    if (detourOn) {
        const std::uint64_t signature = detourSources(im.sources);
        for (std::uint32_t i : im.sources) im.isSource[i] = 1;
        if (signature != m_detourSignature || m_detourField.empty() != im.sources.empty()) {
            buildDetourField(m_detourField, im.sources);
            m_detourSignature = signature;
        }
    } else if (!m_detourField.empty()) {
        m_detourField.clear();
        m_detourSignature = 0;
    }

    // Explain records first, from the same pre-step state (dry-run path of the same code).
    out.clear();
    for (AgentId id : explainFor) {
        const auto index = indexOf(id);
        if (!index) continue;
        explainAgent(*index, im.grid, m_detourField, im.isSource, options, out.emplace_back());
    }

    // 2. Every agent decides independently (parallel-safe: reads only pre-step state). Work
    //    goes cell by cell: the agents of a cell share the block of cells around it, located
    //    once, from which each picks its nearest neighbours.
    im.newVelocity.resize(n);
    im.lp3.resize(n);
    im.nextDetourMode.resize(n);
    im.detourReason.resize(n);
    im.detouring.assign(n, 0);
    const auto vertices = std::span<const ObstacleVertex>(m_vertices);
    const detail::AgentGrid& grid = im.grid;
    const std::size_t cells = grid.occupiedCount();
    const double invCell = 1.0 / grid.cellSize();
    const int threads = im.pool->size();
    const std::size_t cellGrain =
        std::clamp<std::size_t>(cells / (static_cast<std::size_t>(threads) * 8), 4, 512);
    im.pool->parallelFor(cells, cellGrain, [&](std::size_t begin, std::size_t end, int worker) {
        Scratch& s = im.scratch[static_cast<std::size_t>(worker)];
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
                    im.newVelocity[i] = Vec2(0.0);
                    im.lp3[i] = 0;
                    im.nextDetourMode[i] = static_cast<std::uint8_t>(DetourMode::Normal);
                    im.detourReason[i] = static_cast<std::uint8_t>(DetourReason::None);
                    continue;
                }
                const AgentParams& p = m_agentParams[i];
                AgentView a{m_pos[i], m_vel[i], prefVelocityAt(i), &p};
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
                ExplainDetour detour;
                const bool detours = detourOn && m_hasGoal[i];
                if (detours) {
                    a.prefVelocity = detourPrefVelocity(
                        i, a.prefVelocity,
                        std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount),
                        m_detourField, im.isSource, detour);
                }
                const SolveResult r =
                    decide(a, i, m_params, vertices, m_obstacleGrid, grid, m_static, s, false);
                im.newVelocity[i] = r.velocity;
                im.lp3[i] = r.lp3Ran ? 1 : 0;
                if (detours) {
                    detourAfterSolve(i, r.velocity, detour);
                    im.nextDetourMode[i] = static_cast<std::uint8_t>(detour.nextMode);
                    im.detourReason[i] = static_cast<std::uint8_t>(detour.reason);
                    im.detouring[i] = detour.mode == DetourMode::Detouring ? 1 : 0;
                } else {
                    im.nextDetourMode[i] = static_cast<std::uint8_t>(DetourMode::Normal);
                    im.detourReason[i] = static_cast<std::uint8_t>(
                        m_detourMode[i] != 0 ? DetourReason::Disabled : DetourReason::None);
                }
            }
        }
    });

    // 3. Move (static agents stay where they are, with velocity zero), and note who is at
    //    the goal while the agent's data is in cache (saves callers a pass over all agents).
    const double dt = m_params.timeStep;
    im.atGoal.resize(n);
    im.pool->parallelFor(n, 8192, [&](std::size_t begin, std::size_t end, int) {
        const double stillSpeedSq = m_params.detour.stillSpeed * m_params.detour.stillSpeed;
        for (std::size_t i = begin; i < end; ++i) {
            if (!m_static[i]) {
                m_vel[i] = im.newVelocity[i];
                m_pos[i] += m_vel[i] * dt;
            }
            im.atGoal[i] = atGoalIndex(i) ? 1 : 0;
            // Detour bookkeeping: the mode for the next step, the last transition's reason,
            // and how long the agent has been still (for field sources).
            m_detourMode[i] = im.nextDetourMode[i];
            if (im.detourReason[i] != 0) m_detourReason[i] = im.detourReason[i];
            m_stillSeconds[i] = absSq(m_vel[i]) < stillSpeedSq ? m_stillSeconds[i] + dt : 0.0;
        }
    });
    StepStats stats;
    for (std::size_t i = 0; i < n; ++i) {
        stats.lp3Agents += im.lp3[i];
        stats.movingAgents += m_static[i] ? 0 : 1;
        stats.goalAgents += m_hasGoal[i];
        stats.agentsAtGoal += im.atGoal[i];
        stats.detouringAgents += im.detouring[i];
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

ExplainRecord Simulator::explain(AgentId id, const ExplainOptions& options) const {
    const std::size_t i = require(id);
    std::vector<ExplainRecord> records = explain(std::span<const AgentId>(&id, 1), options);
    (void)i;
    return std::move(records.front());
}

std::vector<ExplainRecord> Simulator::explain(std::span<const AgentId> ids,
                                             const ExplainOptions& options) const {
    std::vector<ExplainRecord> out;
    if (ids.empty()) return out;
    // A private index (and detour field, if the stored one is stale) of the current state;
    // the simulator itself is not touched.
    detail::AgentGrid grid;
    buildGrid(grid);
    std::vector<std::uint8_t> isSource(m_pos.size(), 0);
    DetourField localField;
    const DetourField* field = &m_detourField;
    if (m_params.detour.enabled) {
        std::vector<std::uint32_t> sources;
        const std::uint64_t signature = detourSources(sources);
        for (std::uint32_t i : sources) isSource[i] = 1;
        if (signature != m_detourSignature || m_detourField.empty() != sources.empty()) {
            buildDetourField(localField, sources);
            field = &localField;
        }
    }
    for (AgentId id : ids) {
        const auto index = indexOf(id);
        if (index) explainAgent(*index, grid, *field, isSource, options, out.emplace_back());
    }
    return out;
}

void Simulator::explainAgent(std::size_t i, const detail::AgentGrid& grid,
                             const DetourField& field, std::span<const std::uint8_t> isSource,
                             const ExplainOptions& options, ExplainRecord& rec) const {
    rec = ExplainRecord{};
    rec.agent = m_ids[i];
    rec.step = m_stepCount;
    rec.isStatic = m_static[i] != 0;
    rec.position = m_pos[i];
    rec.velocity = m_vel[i];
    rec.prefVelocity = prefVelocityAt(i);
    rec.params = m_agentParams[i];
    if (rec.isStatic) return; // static agents decide nothing

    Scratch s;
    const AgentParams& p = m_agentParams[i];
    AgentView a{m_pos[i], m_vel[i], rec.prefVelocity, &p};
    if (p.maxNeighbors > 0) {
        grid.nearest(a.position, static_cast<std::uint32_t>(i), p.neighborDist * p.neighborDist,
                     static_cast<std::size_t>(p.maxNeighbors), s.neighbors, s.ranges);
        s.neighborCount = s.neighbors.size();
    }
    const bool detours = m_params.detour.enabled && m_hasGoal[i];
    if (detours) {
        // Same order as the step: neighbours, then the detour substitution of v_pref.
        a.prefVelocity = detourPrefVelocity(
            i, a.prefVelocity, std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount),
            field, isSource, rec.detour);
        rec.prefVelocity = a.prefVelocity;
    }
    if (options.lpTrace) rec.lpTrace.emplace();
    const SolveResult r = decide(a, static_cast<std::uint32_t>(i), m_params, m_vertices,
                                 m_obstacleGrid, grid, m_static, s, true,
                                 rec.lpTrace ? &*rec.lpTrace : nullptr);
    if (detours) detourAfterSolve(i, r.velocity, rec.detour);

    // Obstacle neighbours and their lines.
    rec.numObstacleLines = 0;
    rec.lines.resize(s.lines.size());
    for (const ObstacleLineRecord& orec : s.obstacleRecords) {
        const ObstacleVertex& v1 = m_vertices[orec.vertex];
        const ObstacleVertex& v2 = m_vertices[v1.next];
        ExplainObstacleNeighbor& on = rec.obstacleNeighbors.emplace_back();
        on.obstacle = m_obstacleIds[v1.obstacle];
        on.segment = v1.localIndex;
        on.distSq = orec.distSq;
        on.outcome = orec.outcome;
        on.hasVo = orec.hasVo;
        on.vo = orec.vo;
        if (orec.outcome != ObstacleOutcome::Line) continue;
        on.lineIndex = static_cast<int>(orec.lineIndex);
        ExplainLine& el = rec.lines[orec.lineIndex];
        el.line = s.lines[orec.lineIndex];
        el.lineCase = orec.lineCase;
        el.obstacle = on.obstacle;
        el.segment = on.segment;
        el.relativeVelocity = a.velocity;
        // The change from v to the nearest point of the line.
        const Vec2 onLine = el.line.point + dot(a.velocity - el.line.point, el.line.direction) *
                                                el.line.direction;
        el.u = onLine - a.velocity;
        el.share = 1.0; // obstacles do not move: A takes the whole u
        el.vo = orec.vo;
        el.distance = std::sqrt(orec.distSq);
        el.timeToCollision = timeToSegment(v1.point - a.position, v2.point - a.position,
                                           p.radius, a.velocity);
        ++rec.numObstacleLines;
    }

    // Agent neighbours and their lines (recomputed: agentOrcaLine is a pure function of the
    // same inputs, so the line is the one the solver used).
    const double invTimeHorizon = 1.0 / p.timeHorizon;
    const double invTimeStep = 1.0 / m_params.timeStep;
    for (std::size_t k = 0; k < s.neighborCount; ++k) {
        const detail::Neighbor& nb = s.neighbors[k];
        rec.agentNeighbors.push_back({m_ids[nb.agent], nb.distSq});
        Vec2 relPos = grid.itemPosition(nb.item) - a.position;
        if (relPos.x == 0.0 && relPos.y == 0.0) relPos.x = nb.agent > i ? 1e-9 : -1e-9;
        const Vec2 otherVelocity = grid.itemVelocity(nb.item);
        const double combinedRadius = p.radius + grid.itemRadius(nb.item);
        const double share =
            m_static[nb.agent] ? m_params.staticResponsibility : m_params.responsibility;
        const AgentLine al = agentOrcaLine(relPos, a.velocity - otherVelocity, a.velocity,
                                           combinedRadius, invTimeHorizon, invTimeStep, share);
        ExplainLine& el = rec.lines[rec.numObstacleLines + k];
        el.line = al.line;
        el.lineCase = al.lineCase;
        el.otherAgent = m_ids[nb.agent];
        el.u = al.u;
        el.share = share;
        el.otherStatic = m_static[nb.agent] != 0;
        el.relativeVelocity = a.velocity - otherVelocity;
        el.vo = agentVelocityObstacle(relPos, otherVelocity, combinedRadius, invTimeHorizon,
                                      invTimeStep);
        el.distance = std::sqrt(nb.distSq);
        el.timeToCollision = timeToDisk(relPos, combinedRadius, el.relativeVelocity);
    }

    rec.lp2Fail = r.lp2Fail;
    rec.lp2Velocity = r.lp2Velocity;
    rec.lp3Ran = r.lp3Ran;
    rec.lp3Depth = r.lp3Depth;
    rec.newVelocity = r.velocity;
    for (ExplainLine& el : rec.lines) el.violation = violation(el.line, r.velocity);
    rec.feasibleRegion = feasibleRegion(s.lines, p.maxSpeed);
}

std::span<const std::uint8_t> Simulator::lastStepLp3() const {
    if (m_impl->lp3.size() != m_pos.size()) return {};
    return m_impl->lp3;
}

void Simulator::setLastStepLp3(std::span<const std::uint8_t> lp3) {
    m_impl->lp3.assign(lp3.begin(), lp3.end());
}

void Simulator::setClock(double time, std::uint64_t stepCount) {
    m_time = time;
    m_stepCount = stepCount;
}

// ---- Analysis ------------------------------------------------------------------------------

std::uint64_t Simulator::stateHash() const {
    std::uint64_t h = 0xcbf29ce484222325ull;
    auto mix = [&h](double v) {
        std::uint64_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        for (int b = 0; b < 8; ++b) {
            h ^= (bits >> (8 * b)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    };
    for (std::size_t i = 0; i < m_pos.size(); ++i) {
        mix(m_pos[i].x);
        mix(m_pos[i].y);
        mix(m_vel[i].x);
        mix(m_vel[i].y);
    }
    return h;
}

namespace {

/// Simulator::clearance() over a grid with dense cells, where scanning every pair of a cell
/// would be quadratic. The minimum clearance walks a cell's tree pruning the nodes that cannot
/// hold a pair below the best so far (exact: bounds use the same rounded operations as the
/// pair's own formula, see detail::boxDistSqLower). The overlap count takes whole nodes at
/// once when every pair in them surely overlaps, which cannot be done for "j > i" alone (the
/// indices in a node are mixed), so it counts ordered pairs, each from both sides, and halves
/// the total. That needs a test that is symmetric in i and j: a pair is *clearly in* when
/// |d|² < (r_i + r_j)² (1 - 1e-9) and *clearly out* when |d|² >= (r_i + r_j)² (1 + 1e-9)
/// (both symmetric bit for bit, and far from the rounding of c = |d| - r_i - r_j, so clearly in
/// means c < 0 and clearly out c > 0); only the pairs in between are decided by c itself, from
/// the lower index's side, and count twice.
struct DenseClearance {
    const detail::AgentGrid& grid;
    const std::vector<Vec2>& pos;
    const std::vector<double>& radius;
    const std::vector<std::uint8_t>& isStatic;
    const std::vector<std::uint32_t>& itemOf; ///< agent -> item
    /// Per tree node: radius bounds, largest agent index, number of static agents.
    std::vector<double> minRadius{}, maxRadius{};
    std::vector<std::uint32_t> maxAgent{}, statics{};
    double minClearance = std::numeric_limits<double>::infinity();
    std::uint64_t halfOverlaps = 0; ///< ordered overlapping pairs (each pair twice)

    static constexpr double kIn = 1.0 - 1e-9;
    static constexpr double kOut = 1.0 + 1e-9;

    void prepare() {
        const std::span<const detail::TreeNode> nodes = grid.treeNodes();
        minRadius.resize(nodes.size());
        maxRadius.resize(nodes.size());
        maxAgent.resize(nodes.size());
        statics.resize(nodes.size());
        // Children follow their parent: going backwards, a node's children are done first.
        for (std::size_t x = nodes.size(); x-- > 0;) {
            const detail::TreeNode& node = nodes[x];
            if (node.right == 0) {
                minRadius[x] = std::numeric_limits<double>::infinity();
                maxRadius[x] = 0.0;
                maxAgent[x] = 0;
                statics[x] = 0;
                for (std::uint32_t k = node.begin; k < node.end; ++k) {
                    const std::uint32_t j = grid.itemAgent(k);
                    minRadius[x] = std::min(minRadius[x], radius[j]);
                    maxRadius[x] = std::max(maxRadius[x], radius[j]);
                    maxAgent[x] = std::max(maxAgent[x], j);
                    statics[x] += isStatic[j] ? 1u : 0u;
                }
            } else {
                const std::size_t l = x + 1;
                const std::size_t r = node.right;
                minRadius[x] = std::min(minRadius[l], minRadius[r]);
                maxRadius[x] = std::max(maxRadius[l], maxRadius[r]);
                maxAgent[x] = std::max(maxAgent[l], maxAgent[r]);
                statics[x] = statics[l] + statics[r];
            }
        }
    }

    void visitPair(std::size_t i, std::uint32_t item) {
        const std::uint32_t j = grid.itemAgent(item);
        if (j == i || (isStatic[i] && isStatic[j])) return;
        const Vec2 d = pos[j] - pos[i];
        const double reach = radius[i] + radius[j];
        const double dSq = absSq(d);
        if (dSq < reach * reach * kIn) {
            ++halfOverlaps;
        } else if (!(dSq >= reach * reach * kOut) && j > i) {
            if (length(d) - radius[i] - radius[j] < 0.0) halfOverlaps += 2;
        }
        if (j > i) minClearance = std::min(minClearance, length(d) - radius[i] - radius[j]);
    }

    void walk(std::size_t i, const detail::DenseCell& cell) {
        const std::span<const detail::TreeNode> nodes = grid.treeNodes();
        const Vec2 p = pos[i];
        const double ri = radius[i];
        const bool si = isStatic[i] != 0;
        std::array<std::uint32_t, 64> stack; // depth <= 29, one pending sibling per level
        std::size_t top = 0;
        stack[top++] = cell.root;
        while (top > 0) {
            const std::uint32_t x = stack[--top];
            const detail::TreeNode& node = nodes[x];
            const std::uint32_t count = node.end - node.begin;
            // Partners j != i in the node (not both static).
            const std::uint32_t self = itemOf[i] >= node.begin && itemOf[i] < node.end ? 1 : 0;
            const std::uint32_t partners = si ? count - statics[x] : count - self;
            if (partners == 0) continue;
            const double lowSq = detail::boxDistSqLower(node.lo, node.hi, p);
            // May it lower the minimum? (Needs a partner j > i; c >= the bound below.)
            const bool forMin = maxAgent[x] > i &&
                                std::sqrt(lowSq) - ri - maxRadius[x] < minClearance;
            if (!forMin) {
                const double far = ri + maxRadius[x];
                if (lowSq >= far * far * kOut) continue; // every pair clearly out
                const double near = ri + minRadius[x];
                if (detail::boxDistSqUpper(node.lo, node.hi, p) < near * near * kIn) {
                    halfOverlaps += partners; // every pair clearly in
                    continue;
                }
            }
            if (node.right == 0) {
                for (std::uint32_t k = node.begin; k < node.end; ++k) visitPair(i, k);
                continue;
            }
            stack[top++] = node.right;
            stack[top++] = x + 1;
        }
    }
};

} // namespace

ClearanceStats Simulator::clearance(double range) const {
    ClearanceStats out;
    const std::size_t n = m_pos.size();
    if (n == 0) return out;
    const std::vector<double>& radius = m_radius;
    const double maxRadius = *std::max_element(radius.begin(), radius.end());
    // Agent pairs: every pair closer than r_i + r_j + range is examined once (j > i).
    detail::AgentGrid grid;
    grid.build(m_pos, m_vel, radius, 2.0 * maxRadius + range);
    std::vector<detail::ItemRange> ranges;
    // Pair (i, j), i < j: c = |p_j - p_i| - r_i - r_j, exactly as written here (bit for bit the
    // EventDetector's test).
    auto plainPairs = [&](std::size_t i, std::uint32_t begin, std::uint32_t end) {
        const Vec2 p = m_pos[i];
        for (std::uint32_t k = begin; k < end; ++k) {
            const std::uint32_t j = grid.itemAgent(k);
            // Each pair once; pairs of static agents are fixed scenery (static clusters
            // may overlap on purpose), not something the simulation did.
            if (j <= i || (m_static[i] && m_static[j])) continue;
            const double c = length(m_pos[j] - p) - radius[i] - radius[j];
            out.minAgentClearance = std::min(out.minAgentClearance, c);
            if (c < 0.0) ++out.overlappingPairs;
        }
    };
    const std::span<const detail::DenseCell> dense = grid.denseCells();
    if (dense.empty()) {
        for (std::size_t i = 0; i < n; ++i) {
            grid.rangesNear(m_pos[i], radius[i] + maxRadius + range, ranges);
            for (const detail::ItemRange& r : ranges) plainPairs(i, r.begin, r.end);
        }
    } else {
        // Dense cells: their trees (see denseClearance()). Every pair goes through its scheme
        // then, plain cells included, so that each pair is counted consistently.
        std::vector<std::uint32_t> itemOf(n);
        for (std::uint32_t k = 0; k < n; ++k) itemOf[grid.itemAgent(k)] = k;
        DenseClearance dc{grid, m_pos, radius, m_static, itemOf};
        dc.prepare();
        for (std::size_t i = 0; i < n; ++i) {
            grid.rangesNear(m_pos[i], radius[i] + maxRadius + range, ranges);
            for (const detail::ItemRange& r : ranges) {
                grid.splitRange(
                    r,
                    [&](std::uint32_t b, std::uint32_t e) {
                        for (std::uint32_t k = b; k < e; ++k) dc.visitPair(i, k);
                    },
                    [&](const detail::DenseCell& cell) { dc.walk(i, cell); });
            }
        }
        out.minAgentClearance = dc.minClearance;
        out.overlappingPairs = static_cast<std::size_t>(dc.halfOverlaps / 2);
    }
    // Agents against obstacle segments (either side); a centre inside a polygon counts as
    // negative clearance.
    if (!m_vertices.empty()) {
        std::vector<std::uint32_t> segments;
        std::vector<double> distSq;
        for (std::size_t i = 0; i < n; ++i) {
            const Vec2 p = m_pos[i];
            m_obstacleGrid.query(m_vertices, p, radius[i] + range, segments, distSq, false);
            if (segments.empty()) continue;
            const double dist = std::sqrt(distSq.front());
            const ObstacleVertex& nearest = m_vertices[segments.front()];
            const std::vector<Vec2>& poly = m_obstacles[nearest.obstacle];
            bool inside = false;
            if (poly.size() >= 3) {
                // Crossing-number test.
                for (std::size_t a = 0, b = poly.size() - 1; a < poly.size(); b = a++) {
                    if ((poly[a].y > p.y) != (poly[b].y > p.y) &&
                        p.x < (poly[b].x - poly[a].x) * (p.y - poly[a].y) /
                                      (poly[b].y - poly[a].y) +
                                  poly[a].x)
                        inside = !inside;
                }
            }
            const double c = inside ? -(dist + radius[i]) : dist - radius[i];
            out.minObstacleClearance = std::min(out.minObstacleClearance, c);
        }
    }
    return out;
}

} // namespace orca
