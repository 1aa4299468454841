#pragma once
/// \file routes.hpp
/// The route an agent is expected to walk from its current state: its position, then each leg
/// to its remaining waypoints and its goal, every leg straight (straight routing) or along the
/// roadmap's shortest path (roadmap routing). For drawing (the app's route and Routes layer),
/// `orca routes` and the linter; the simulator itself only ever needs the next steer point
/// (Simulator::steerPointAt).

#include <cstddef>
#include <optional>
#include <vector>

#include "orca/simulator.hpp"

namespace orca {

struct PlannedRoute {
    /// The polyline: the agent's position, every corner of every leg, the goal. Empty for an
    /// agent without a goal (and for a static agent).
    std::vector<Vec2> points;
    /// Index into `points` of each remaining waypoint (in route order), then of the goal.
    std::vector<std::size_t> stops;
    /// The first leg the roadmap cannot route (0 = the leg to the current target), or none.
    /// That leg is drawn straight. Always none with straight routing.
    std::optional<std::size_t> unreachableLeg;
    /// Length of the polyline (world units).
    double length = 0.0;
};

/// Agent `index`'s route from its current state (agent order). Roadmap legs start from the
/// previous stop (the first from the agent's position) and use the agent's radius; a leg the
/// roadmap cannot route is a straight segment and is reported in unreachableLeg. Cost: one
/// Roadmap::path per leg (the distance field of each stop, computed if not cached).
[[nodiscard]] PlannedRoute plannedRoute(const Simulator& sim, std::size_t index);

} // namespace orca
