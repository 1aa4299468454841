#pragma once
/// \file types.hpp
/// Handles and parameter structs of the ORCA simulator. Defaults equal RVO2's Circle example
/// (the product's reference scene), so a default-constructed agent behaves like one of its
/// agents.

#include <compare>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

#include "orca/detour.hpp"
#include "orca/geometry.hpp"

namespace orca {

/// Stable handle of an agent. Stays valid until the agent is removed; a removed agent's
/// handle never refers to another agent (the slot's generation changes).
struct AgentId {
    std::uint32_t slot = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t generation = 0;
    [[nodiscard]] bool isNull() const { return slot == std::numeric_limits<std::uint32_t>::max(); }
    friend auto operator<=>(const AgentId&, const AgentId&) = default;
};

/// Stable handle of an obstacle (same rules as AgentId).
struct ObstacleId {
    std::uint32_t slot = std::numeric_limits<std::uint32_t>::max();
    std::uint32_t generation = 0;
    [[nodiscard]] bool isNull() const { return slot == std::numeric_limits<std::uint32_t>::max(); }
    friend auto operator<=>(const ObstacleId&, const ObstacleId&) = default;
};

/// Per-agent parameters (RVO2's agent defaults plus goal seeking).
struct AgentParams {
    /// Radius of the agent's disk (world units, > 0).
    double radius = 1.5;
    /// Largest speed ORCA may choose (units/s, >= 0). |v_new| <= maxSpeed always.
    double maxSpeed = 2.0;
    /// Speed toward the goal: v_pref = goal - p clamped to this length (units/s, >= 0).
    double prefSpeed = 1.0;
    /// Agents closer than this (centre to centre, strictly) can be neighbours (world units, >= 0).
    double neighborDist = 15.0;
    /// At most this many nearest agents are considered (>= 0; 0 = ignore other agents).
    int maxNeighbors = 10;
    /// τ: the time window (s, > 0) within which collisions with agents are avoided.
    double timeHorizon = 10.0;
    /// τo: the time window (s, > 0) within which collisions with obstacles are avoided.
    double timeHorizonObst = 10.0;
    /// "At goal" when within this distance of the goal (world units, >= 0). Negative means
    /// "use the radius" (RVO2 Circle's rule).
    double goalRadius = -1.0;
    /// A waypoint counts as reached within this distance of it (world units, >= 0). Negative
    /// means "twice the radius" (docs/parameters.md, "Routes").
    double waypointRadius = -1.0;
    /// How much of the avoidance this agent takes on (>= 0; 1 = RVO2). In a pair of moving
    /// agents of weights w_A, w_B, A takes the share 2·responsibility·w_A / (w_A + w_B) of u,
    /// at most 1: with responsibility ½, w_A / (w_A + w_B). Equal weights (0 and 0 too) give
    /// `responsibility`, as RVO2; a weight of 0 never yields to an agent of positive weight.
    /// Toward a static agent, staticResponsibility applies whatever the weights.
    double avoidanceWeight = 1.0;

    friend bool operator==(const AgentParams&, const AgentParams&) = default;
};

/// The distance within which an agent with these parameters is at its goal.
[[nodiscard]] inline double effectiveGoalRadius(const AgentParams& p) {
    return p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
}
/// Whether an agent with these parameters at `position` is within its goal radius of `goal`
/// (Simulator::atGoalAt, once the agent's route has no waypoint left).
[[nodiscard]] inline bool withinGoalRadius(Vec2 position, Vec2 goal, const AgentParams& p) {
    const double r = effectiveGoalRadius(p);
    return absSq(goal - position) <= r * r;
}
/// The distance within which an agent with these parameters has reached a waypoint.
[[nodiscard]] inline double effectiveWaypointRadius(const AgentParams& p) {
    return p.waypointRadius >= 0.0 ? p.waypointRadius : 2.0 * p.radius;
}

/// Deadlock breaking: an agent is stalled while its speed along its preferred direction is
/// below this fraction of its preferred speed ...
inline constexpr double kDeadlockProgressRatio = 0.1;
/// ... and once stalled this long (s), its preferred velocity is turned clockwise by
/// kDeadlockTurnDegrees, plus kDeadlockTurnDegreesPerSecond for every further second stalled,
/// at most kDeadlockMaxTurnDegrees.
inline constexpr double kDeadlockStallSeconds = 1.0;
inline constexpr double kDeadlockTurnDegrees = 30.0;
inline constexpr double kDeadlockTurnDegreesPerSecond = 30.0;
inline constexpr double kDeadlockMaxTurnDegrees = 90.0;
/// A stall timer that reaches this (s) starts again from 0: the agent walks straight at its
/// target for kDeadlockStallSeconds before it turns again, so a turned agent that is free
/// again (nothing in its way any more) does not circle its goal.
inline constexpr double kDeadlockCycleSeconds = 4.0;

/// The most waypoints one agent may have (the scene loader and addAgent refuse more).
inline constexpr std::size_t kMaxWaypoints = 1000;

/// What the simulator needs to create an agent.
struct AgentDef {
    Vec2 position{0.0, 0.0}; ///< World position (world units).
    Vec2 velocity{0.0, 0.0}; ///< Initial velocity (units/s); forced to 0 for static agents.
    AgentParams params;
    bool hasGoal = false;        ///< When true, v_pref is recomputed from `goal` every step.
    Vec2 goal{0.0, 0.0};         ///< Goal position (world units), if hasGoal.
    Vec2 prefVelocity{0.0, 0.0}; ///< Constant preferred velocity when there is no goal.
    bool isStatic = false;       ///< Immovable: never moves, seen by others with velocity 0.
    /// Points visited in order before `goal` (only with hasGoal; at most kMaxWaypoints).
    std::vector<Vec2> waypoints;
    /// Waypoints already reached: the agent heads for waypoints[routeProgress], or for its goal
    /// once routeProgress == waypoints.size().
    std::uint32_t routeProgress = 0;
};

/// How agents with a goal choose the point their preferred velocity heads for.
enum class Routing : std::uint8_t {
    Straight, ///< straight at the next waypoint or the goal (RVO2's examples)
    Roadmap,  ///< along the shortest path over the obstacles' roadmap (roadmap.hpp)
};

/// Simulation-wide parameters.
struct SimulationParams {
    /// Δt: simulated seconds per step, at least 1e-6 (the collision response scales by 1/Δt).
    double timeStep = 0.25;
    /// Share of the avoidance `u` an agent takes toward another agent (RVO2: 0.5, i.e.
    /// reciprocal). Range (0, 1]; 1 = the agent does all the avoiding.
    double responsibility = 0.5;
    /// Share of u an agent takes toward a static neighbour (which never reciprocates). RVO2
    /// sees a static agent as one with maxSpeed 0 and still takes half: 0.5 (the default) is
    /// RVO2's behaviour; 1 avoids static agents fully (no grazing). Range (0, 1].
    double staticResponsibility = 0.5;
    /// Weight w in LP3's projected-line direction normalize(w*d_j - d_i) (RVO2: 1 = bisector).
    /// Range (0, inf).
    double lp3BisectorWeight = 1.0;
    /// Detour flow field around static agents (off by default: plain RVO2 behaviour).
    DetourParams detour;
    /// Route choice (the scene's "routing" key; not a parameter-table row).
    Routing routing = Routing::Straight;
    /// Deadlock breaking (the scene's "deadlockBreaking" key, "off" or "on"; not a row): an
    /// agent with a goal that has made almost no progress for kDeadlockStallSeconds turns its
    /// preferred velocity clockwise, a little more each second, until it makes progress again
    /// (docs/core.md, "Deadlock breaking"). Off = RVO2's behaviour.
    bool deadlockBreaking = false;

    friend bool operator==(const SimulationParams&, const SimulationParams&) = default;
};

} // namespace orca
