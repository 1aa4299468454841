// The agents' routes and deadlock breaking (docs/core.md, "Routes", "Deadlock breaking"): the
// point each agent steers at (its next waypoint or goal, or a roadmap node), its preferred
// velocity, deadlock breaking's turn and yield, and the simulator's roadmap cache.
#include <algorithm>
#include <cmath>
#include <string>

#include "agent_grid.hpp"
#include "orca/simulator.hpp"

namespace orca {

void Simulator::setRouteProgress(AgentId id, std::uint32_t progress) {
    const std::size_t i = require(id);
    if (progress > m_waypoints[i].size())
        throw InvalidArgument("routeProgress " + std::to_string(progress) + " is beyond the " +
                              std::to_string(m_waypoints[i].size()) + " waypoints");
    touch();
    m_routeProgress[i] = progress;
}

Vec2 Simulator::steerPointAt(std::size_t i) const {
    const Vec2 target = targetAt(i);
    if (m_params.routing != Routing::Roadmap || m_obstacles.empty()) return target;
    ensureRoadmap();
    if (m_roadmap.empty()) return target;
    return m_roadmap.steer(m_pos[i], m_agentParams[i].radius, target).point;
}

void Simulator::setStallSeconds(AgentId id, double seconds) {
    const std::size_t i = require(id);
    if (!(std::isfinite(seconds) && seconds >= 0.0))
        throw InvalidArgument("stallSeconds must be a finite number >= 0");
    touch();
    m_stallSeconds[i] = seconds;
}

Vec2 Simulator::prefVelocityAt(std::size_t i) const {
    return turnedPrefVelocity(i, basePrefVelocityAt(i));
}

Vec2 Simulator::turnedPrefVelocity(std::size_t i, Vec2 base) const {
    if (!m_params.deadlockBreaking || m_stallSeconds[i] < kDeadlockStallSeconds) return base;
    // Deadlock breaking: turn clockwise (every agent to the same side, so two facing agents
    // step aside in opposite directions), more the longer it stays stalled.
    const double degrees =
        std::min(kDeadlockTurnDegrees +
                     kDeadlockTurnDegreesPerSecond * (m_stallSeconds[i] - kDeadlockStallSeconds),
                 kDeadlockMaxTurnDegrees);
    const double a = -degrees * (3.14159265358979323846 / 180.0);
    const double c = std::cos(a);
    const double s = std::sin(a);
    return {base.x * c - base.y * s, base.x * s + base.y * c};
}

Vec2 Simulator::yieldedPrefVelocity(std::size_t i, Vec2 pref,
                                    std::span<const detail::Neighbor> neighbors) const {
    if (!m_params.deadlockBreaking || m_stallSeconds[i] < kDeadlockStallSeconds) return pref;
    // Give way to a stalled neighbour earlier in the agent order that is in contact range (the
    // lowest index of a knot keeps walking; the others let it through, then go themselves).
    const double ri = m_agentParams[i].radius;
    for (const detail::Neighbor& n : neighbors) {
        const std::uint32_t j = n.agent;
        if (j >= i || m_static[j] || m_stallSeconds[j] < kDeadlockStallSeconds) continue;
        const double rj = m_agentParams[j].radius;
        const double reach = ri + rj + std::max(ri, rj);
        if (n.distSq < reach * reach) return Vec2(0.0);
    }
    return pref;
}

Vec2 Simulator::basePrefVelocityAt(std::size_t i) const {
    if (m_static[i]) return Vec2(0.0);
    if (!m_hasGoal[i]) return m_prefVel[i];
    // Straight to the goal: the same operations as below with point = goal (not passing).
    if (straightToGoals()) return straightPrefVelocityAt(i);
    // Toward the goal, clamped to prefSpeed (RVO2 Circle/Blocks: normalise when |g| > 1).
    // Toward a waypoint or a roadmap node, always at prefSpeed: the agent passes it rather
    // than slowing down to stop there (docs/core.md, "Routes").
    const Vec2 point = steerPointAt(i);
    const bool passing = m_routeProgress[i] < m_waypoints[i].size() || point.x != m_goal[i].x ||
                         point.y != m_goal[i].y;
    Vec2 toPoint = point - m_pos[i];
    const double distSq = absSq(toPoint);
    const double prefSpeed = m_agentParams[i].prefSpeed;
    if (distSq > prefSpeed * prefSpeed || (passing && distSq > 0.0))
        toPoint *= prefSpeed / std::sqrt(distSq);
    return toPoint;
}

double Simulator::roadmapClearance() const {
    // The largest radius of an agent that routes, plus a tenth: a node sits clear of the
    // corners for every agent (docs/core.md, "Routes").
    double largest = 0.0;
    for (std::size_t i = 0; i < m_pos.size(); ++i)
        if (m_hasGoal[i] && !m_static[i]) largest = std::max(largest, m_agentParams[i].radius);
    return largest > 0.0 ? largest * 1.1 : 0.0;
}

void Simulator::ensureRoadmap() const {
    if (m_params.routing != Routing::Roadmap) return;
    if (m_roadmapValid && m_roadmapClearanceValid) return;
    const double clearance = roadmapClearance();
    m_roadmapClearanceValid = true;
    if (m_roadmapValid && clearance == m_roadmapClearance) return;
    m_roadmapValid = true;
    m_roadmapClearance = clearance;
    if (clearance <= 0.0 || m_obstacles.empty()) {
        m_roadmap.clear();
        return;
    }
    if (!m_roadmap.build(m_obstacles, clearance)) m_roadmap.clear(); // beyond its limits
}

const Roadmap& Simulator::roadmap() const {
    ensureRoadmap();
    return m_roadmap;
}

} // namespace orca
