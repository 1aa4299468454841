#pragma once
/// \file route_view.hpp
/// Agents' routes as the world view and the SVG export draw them: the polyline of
/// orca::plannedRoute (position -> remaining waypoints -> goal, bent round obstacles with
/// roadmap routing), numbered waypoint markers (reached ones faded), a leg the roadmap cannot
/// route in the "blocked" colour; and the roadmap's nodes and edges. The caller computes the
/// routes (computeRoutes) and keeps them while the simulator's state is unchanged: drawing is
/// then a few polylines per agent.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "orca/geometry.hpp"
#include "orca/ui/camera.hpp"

struct ImDrawList;

namespace orca {
class Simulator;
class Roadmap;
} // namespace orca

namespace orca::ui {

/// One agent's route.
struct AgentRoute {
    std::uint32_t agent = 0;  ///< agent index (agent order)
    std::vector<Vec2> points; ///< the polyline: position, every corner, the goal
    /// Index into `points` of each remaining waypoint (in route order), then of the goal.
    std::vector<std::uint32_t> stops;
    /// Waypoint number (0-based index in the agent's waypoints) of stops[0] = route progress.
    std::uint32_t firstWaypoint = 0;
    std::vector<Vec2> reached; ///< the waypoints already reached, in order (faded markers)
    /// The first leg the roadmap cannot route (0 = the leg to the current target): drawn
    /// straight, in the blocked colour, as every later leg it reaches.
    std::optional<std::uint32_t> blockedLeg;
    Rect bounds = Rect::empty(); ///< of points and reached (world)
};

struct RouteSet {
    std::vector<AgentRoute> routes;
    std::size_t points = 0; ///< total polyline points (for the status and performance checks)
};

/// The routes of `agents` (indices; out-of-range ones, agents without a goal and static agents
/// are skipped; an agent at its goal keeps a route only when it has waypoints).
[[nodiscard]] RouteSet computeRoutes(const Simulator& sim, std::span<const std::size_t> agents);
/// The Routes layer's: every goal agent not yet at its goal.
[[nodiscard]] RouteSet computeAllRoutes(const Simulator& sim);

/// What WorldRenderer::draw adds to the world (either may be null).
struct WorldRoutes {
    const RouteSet* all = nullptr;      ///< the Routes layer's, under the agents
    const RouteSet* selected = nullptr; ///< the selected agents', over them, numbered
};

/// Draws `routes` clipped to the camera's view: `emphasised` (the selected agents') thicker,
/// with numbered waypoint markers and reached waypoints faded; else thin lines with small
/// dots (numbers only when few routes are on screen and the markers are far apart).
void drawRoutes(ImDrawList& dl, const Camera& camera, const RouteSet& routes, bool emphasised);

/// The roadmap's edges and nodes inside the camera's view (nothing for an empty roadmap).
void drawRoadmap(ImDrawList& dl, const Camera& camera, const Roadmap& roadmap);

/// The label of waypoint `index` (0-based): "1", "2", ...
[[nodiscard]] std::string waypointLabel(std::uint32_t index);

/// The polyline of leg `leg` of `route` (0 = from the agent to the first stop), as a range of
/// `points` indices [first, last]; nullopt when out of range.
[[nodiscard]] std::optional<std::pair<std::uint32_t, std::uint32_t>>
routeLeg(const AgentRoute& route, std::size_t leg);

} // namespace orca::ui
