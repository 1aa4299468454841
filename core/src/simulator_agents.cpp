// Simulator's agents: adding, removing and editing them (the step is simulator.cpp's).
#include <algorithm>
#include <cmath>
#include <string>

#include "orca/parameters.hpp"
#include "orca/simulator.hpp"
#include "step_workspace.hpp"

namespace orca {

// ---- Agents --------------------------------------------------------------------------------

void Simulator::validate(const AgentDef& def) const {
    const AgentParams& p = def.params;
    auto finite = [](Vec2 v) { return std::isfinite(v.x) && std::isfinite(v.y); };
    if (!finite(def.position)) throw InvalidArgument("agent position is not finite");
    if (!finite(def.velocity)) throw InvalidArgument("agent velocity is not finite");
    if (!finite(def.goal)) throw InvalidArgument("agent goal is not finite");
    if (!finite(def.prefVelocity)) throw InvalidArgument("agent prefVelocity is not finite");
    if (def.waypoints.size() > kMaxWaypoints)
        throw InvalidArgument("an agent has " + std::to_string(def.waypoints.size()) +
                              " waypoints; at most " + std::to_string(kMaxWaypoints) +
                              " are allowed");
    for (std::size_t k = 0; k < def.waypoints.size(); ++k)
        if (!finite(def.waypoints[k]))
            throw InvalidArgument("agent waypoint " + std::to_string(k) + " is not finite");
    if (def.routeProgress > def.waypoints.size())
        throw InvalidArgument("agent routeProgress " + std::to_string(def.routeProgress) +
                              " is beyond its " + std::to_string(def.waypoints.size()) +
                              " waypoints");
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
    touchConfig();
    m_agentDefsRevision = m_configRevision;
    ++m_agentsVersion;
    m_work->lists.invalidate();
    countCellSize(i, -1); // the agent's previous parameters (a new slot counts nothing)
    m_radius[i] = def.params.radius;
    m_weightedAgents -= m_weight[i] != 1.0 ? 1 : 0;
    m_weight[i] = def.params.avoidanceWeight;
    m_weightedAgents += m_weight[i] != 1.0 ? 1 : 0;
    m_pos[i] = def.position;
    m_vel[i] = def.isStatic ? Vec2(0.0) : def.velocity;
    m_prefVel[i] = def.prefVelocity;
    m_goal[i] = def.goal;
    m_waypointAgents -= m_waypoints[i].empty() ? 0 : 1;
    m_waypointAgents += def.waypoints.empty() ? 0 : 1;
    m_waypoints[i] = def.waypoints;
    m_routeProgress[i] = def.routeProgress;
    if (def.params.radius != m_agentParams[i].radius || def.hasGoal != (m_hasGoal[i] != 0) ||
        def.isStatic != (m_static[i] != 0))
        m_roadmapClearanceValid = false;
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
    m_waypoints.reserve(agents);
    m_routeProgress.reserve(agents);
    m_stallSeconds.reserve(agents);
    m_agentParams.reserve(agents);
    m_radius.reserve(agents);
    m_weight.reserve(agents);
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
    m_waypoints.emplace_back();
    m_routeProgress.push_back(0);
    m_stallSeconds.push_back(0.0);
    m_agentParams.emplace_back();
    m_agentParams.back().maxNeighbors = 0; // counts nothing until stored
    m_radius.push_back(0.0);
    m_weight.push_back(1.0);
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
    m_waypointAgents -= m_waypoints[i].empty() ? 0 : 1;
    touchConfig();
    m_agentDefsRevision = m_configRevision;
    ++m_agentsVersion;
    m_work->lists.invalidate();
    auto eraseAt = [i](auto& v) { v.erase(v.begin() + static_cast<std::ptrdiff_t>(i)); };
    m_weightedAgents -= m_weight[i] != 1.0 ? 1 : 0;
    eraseAt(m_radius);
    eraseAt(m_weight);
    eraseAt(m_pos);
    eraseAt(m_vel);
    eraseAt(m_prefVel);
    eraseAt(m_goal);
    eraseAt(m_waypoints);
    eraseAt(m_routeProgress);
    eraseAt(m_stallSeconds);
    eraseAt(m_agentParams);
    eraseAt(m_hasGoal);
    eraseAt(m_static);
    eraseAt(m_detourMode);
    eraseAt(m_detourReason);
    eraseAt(m_stillSeconds);
    eraseAt(m_ids);
    m_lastLp3.clear();               // per-agent step outputs no longer line up
    m_roadmapClearanceValid = false; // it follows the largest radius
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
    def.waypoints = m_waypoints[i];
    def.routeProgress = m_routeProgress[i];
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
    touch();
    m_detourMode[i] = static_cast<std::uint8_t>(mode);
    m_stillSeconds[i] = stillSeconds;
}

void Simulator::setPosition(AgentId id, Vec2 p) {
    const std::size_t i = require(id);
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
        throw InvalidArgument("agent position is not finite");
    touch();
    m_pos[i] = p;
    m_work->lists.invalidate();
}

void Simulator::setVelocity(AgentId id, Vec2 v) {
    const std::size_t i = require(id);
    if (!std::isfinite(v.x) || !std::isfinite(v.y))
        throw InvalidArgument("agent velocity is not finite");
    touch();
    if (!m_static[i]) m_vel[i] = v;
}

void Simulator::setPrefVelocity(AgentId id, Vec2 v) {
    const std::size_t i = require(id);
    if (!std::isfinite(v.x) || !std::isfinite(v.y))
        throw InvalidArgument("agent prefVelocity is not finite");
    touchConfig();
    m_prefVel[i] = v;
}

void Simulator::roundStateToFloat() {
    touch();
    auto toFloat = [](double x) {
        const auto f = static_cast<float>(x);
        return std::isfinite(f) ? static_cast<double>(f) : x;
    };
    double farthest = 0.0; // (not std::max: a NaN must expire the lists)
    for (std::size_t i = 0; i < m_pos.size(); ++i) {
        const Vec2 p(toFloat(m_pos[i].x), toFloat(m_pos[i].y));
        const double d = length(p - m_pos[i]);
        if (!(d <= farthest)) farthest = d;
        m_pos[i] = p;
        m_vel[i] = Vec2(toFloat(m_vel[i].x), toFloat(m_vel[i].y));
    }
    m_work->lists.displaced(farthest);
}

bool Simulator::atGoalAt(std::size_t i) const {
    if (!m_hasGoal[i] || (m_waypointAgents != 0 && m_routeProgress[i] < m_waypoints[i].size()))
        return false;
    return withinGoalRadius(m_pos[i], m_goal[i], m_agentParams[i]);
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

} // namespace orca
