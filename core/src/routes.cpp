// plannedRoute (routes.hpp): the legs of an agent's route, straight or along the roadmap.
#include "orca/routes.hpp"

#include <cmath>

namespace orca {

PlannedRoute plannedRoute(const Simulator& sim, std::size_t index) {
    PlannedRoute route;
    if (!sim.hasGoalAt(index) || sim.isStaticAt(index)) return route;
    const std::span<const Vec2> waypoints = sim.waypointsAt(index);
    std::vector<Vec2> stops(waypoints.begin() + sim.routeProgressAt(index), waypoints.end());
    stops.push_back(sim.goalAt(index));

    const bool roadmap = sim.params().routing == Routing::Roadmap && sim.obstacleCount() > 0 &&
                         !sim.roadmap().empty();
    const double radius = sim.agentParams()[index].radius;
    Vec2 from = sim.positions()[index];
    route.points.push_back(from);
    for (std::size_t leg = 0; leg < stops.size(); ++leg) {
        const Vec2 to = stops[leg];
        if (roadmap) {
            const std::vector<Vec2> path = sim.roadmap().path(from, radius, to);
            if (path.size() >= 2) {
                // path = from, corners..., to: append all but its first point.
                route.points.insert(route.points.end(), path.begin() + 1, path.end());
            } else {
                if (!route.unreachableLeg) route.unreachableLeg = leg;
                route.points.push_back(to);
            }
        } else {
            route.points.push_back(to);
        }
        route.stops.push_back(route.points.size() - 1);
        from = to;
    }
    for (std::size_t k = 1; k < route.points.size(); ++k)
        route.length += std::sqrt(absSq(route.points[k] - route.points[k - 1]));
    return route;
}

} // namespace orca
