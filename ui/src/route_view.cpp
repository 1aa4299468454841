#include "orca/ui/route_view.hpp"

#include <algorithm>
#include <cmath>

#include <glm/common.hpp>
#include <imgui.h>

#include "orca/roadmap.hpp"
#include "orca/routes.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/style.hpp"

namespace orca::ui {

namespace {

AgentRoute routeOf(const Simulator& sim, std::size_t i) {
    AgentRoute r;
    r.agent = static_cast<std::uint32_t>(i);
    PlannedRoute planned = plannedRoute(sim, i);
    r.points = std::move(planned.points);
    r.stops.reserve(planned.stops.size());
    for (const std::size_t s : planned.stops)
        r.stops.push_back(static_cast<std::uint32_t>(s));
    if (planned.unreachableLeg) r.blockedLeg = static_cast<std::uint32_t>(*planned.unreachableLeg);
    const std::span<const Vec2> waypoints = sim.waypointsAt(i);
    r.firstWaypoint = std::min<std::uint32_t>(sim.routeProgressAt(i),
                                              static_cast<std::uint32_t>(waypoints.size()));
    r.reached.assign(waypoints.begin(), waypoints.begin() + r.firstWaypoint);
    for (const Vec2 p : r.points)
        r.bounds.include(p);
    for (const Vec2 p : r.reached)
        r.bounds.include(p);
    return r;
}

bool wanted(const Simulator& sim, std::size_t i) {
    if (!sim.hasGoalAt(i) || sim.isStaticAt(i)) return false;
    return !sim.atGoalAt(i) || !sim.waypointsAt(i).empty();
}

void addRoute(RouteSet& set, const Simulator& sim, std::size_t i) {
    AgentRoute r = routeOf(sim, i);
    if (r.points.size() < 2 && r.reached.empty()) return;
    set.points += r.points.size();
    set.routes.push_back(std::move(r));
}

// A filled marker with its number centred in it (the font scaled to fit).
void numberedMarker(ImDrawList& dl, ImVec2 c, float r, Rgba fill, Rgba text, const char* label) {
    dl.AddCircleFilled(c, r + 1.0f, col(palette().kTextShadow, fill.a));
    dl.AddCircleFilled(c, r, col(fill));
    ImFont* font = ImGui::GetFont();
    const float size = std::min(ImGui::GetFontSize() * 0.8f, r * 1.5f);
    const ImVec2 ts = font->CalcTextSizeA(size, 1e9f, 0.0f, label);
    dl.AddText(font, size, {c.x - 0.5f * ts.x, c.y - 0.5f * ts.y}, col(text, fill.a), label);
}

} // namespace

std::string waypointLabel(std::uint32_t index) {
    return std::to_string(index + 1);
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> routeLeg(const AgentRoute& route,
                                                                std::size_t leg) {
    if (leg >= route.stops.size()) return std::nullopt;
    const std::uint32_t first = leg == 0 ? 0 : route.stops[leg - 1];
    return std::pair{first, route.stops[leg]};
}

RouteSet computeRoutes(const Simulator& sim, std::span<const std::size_t> agents) {
    RouteSet set;
    for (const std::size_t i : agents)
        if (i < sim.agentCount() && wanted(sim, i)) addRoute(set, sim, i);
    return set;
}

RouteSet computeAllRoutes(const Simulator& sim) {
    RouteSet set;
    for (std::size_t i = 0; i < sim.agentCount(); ++i)
        if (wanted(sim, i)) addRoute(set, sim, i);
    return set;
}

void drawRoutes(ImDrawList& dl, const Camera& camera, const RouteSet& routes, bool emphasised) {
    const Rect& vp = camera.viewport();
    const double scale = camera.scale();
    const float markerR = emphasised ? std::max(8.0f, ImGui::GetFontSize() * 0.6f) : 2.5f;
    const Rect world = camera.visibleWorld().expanded(static_cast<double>(markerR) / scale);
    dl.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    // The Routes layer numbers its markers only when few routes are on screen.
    std::size_t onScreen = 0;
    for (const AgentRoute& r : routes.routes)
        onScreen += r.bounds.intersects(world) ? 1 : 0;
    const bool numbers = emphasised || onScreen <= 12;
    const float width = stroke(emphasised ? kRouteWidthSelected : kRouteWidthAll);
    std::vector<ImVec2> screen;
    for (const AgentRoute& r : routes.routes) {
        if (!r.bounds.intersects(world)) continue;
        screen.resize(r.points.size());
        for (std::size_t k = 0; k < r.points.size(); ++k)
            screen[k] = toIm(camera.worldToScreen(r.points[k]));
        // The legs the roadmap routes, then the blocked ones (straight) in their own colour.
        if (screen.size() >= 2) {
            std::size_t split = screen.size() - 1;
            if (r.blockedLeg && *r.blockedLeg < r.stops.size())
                split = *r.blockedLeg == 0 ? 0 : r.stops[*r.blockedLeg - 1];
            if (split >= 1)
                dl.AddPolyline(screen.data(), static_cast<int>(split + 1),
                               col(routeLineColour(emphasised, false)), ImDrawFlags_None, width);
            if (split + 1 < screen.size())
                dl.AddPolyline(screen.data() + split, static_cast<int>(screen.size() - split),
                               col(routeLineColour(emphasised, true)), ImDrawFlags_None, width);
        }
        // Reached waypoints (faded; the selected agents' only), then the remaining ones.
        if (emphasised) {
            for (std::size_t k = 0; k < r.reached.size(); ++k) {
                numberedMarker(dl, toIm(camera.worldToScreen(r.reached[k])), markerR * 0.8f,
                               waypointColour(true, true), palette().kWaypointText,
                               waypointLabel(static_cast<std::uint32_t>(k)).c_str());
            }
        }
        for (std::size_t j = 0; j + 1 < r.stops.size(); ++j) {
            const ImVec2 c = screen[r.stops[j]];
            const auto index = static_cast<std::uint32_t>(r.firstWaypoint + j);
            if (numbers) {
                numberedMarker(dl, c, emphasised ? markerR : 6.0f,
                               waypointColour(emphasised, false), palette().kWaypointText,
                               waypointLabel(index).c_str());
            } else {
                dl.AddCircleFilled(c, markerR, col(waypointColour(false, false)));
            }
        }
        if (emphasised && !r.stops.empty())
            dl.AddCircle(screen[r.stops.back()], 6.0f, col(routeLineColour(true, false)), 16,
                         stroke(1.5f));
    }
    dl.PopClipRect();
}

void drawRoadmap(ImDrawList& dl, const Camera& camera, const Roadmap& roadmap) {
    const std::span<const Vec2> nodes = roadmap.nodes();
    if (nodes.empty()) return;
    const Rect& vp = camera.viewport();
    const Rect world = camera.visibleWorld();
    dl.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    const ImU32 edgeCol = col(palette().kRoadmapEdge);
    for (const auto& [a, b] : roadmap.edges()) {
        const Vec2 p = nodes[a];
        const Vec2 q = nodes[b];
        if (!world.intersects(Rect{glm::min(p, q), glm::max(p, q)})) continue;
        dl.AddLine(toIm(camera.worldToScreen(p)), toIm(camera.worldToScreen(q)), edgeCol,
                   stroke(1.0f));
    }
    const ImU32 nodeCol = col(palette().kRoadmapNode);
    const float r = stroke(3.0f);
    for (const Vec2 n : nodes) {
        if (!world.contains(n)) continue;
        const ImVec2 c = toIm(camera.worldToScreen(n));
        dl.AddRectFilled({c.x - r, c.y - r}, {c.x + r, c.y + r}, nodeCol);
    }
    dl.PopClipRect();
}

} // namespace orca::ui
