// Routes and the roadmap in the SVG export's world view, as route_view.cpp draws them on
// screen (the same colours from element_colours.hpp): the Routes layer's thin lines with dots,
// the selected agents' routes with numbered waypoint markers (reached ones faded), and the
// roadmap's edges and nodes.
#include <algorithm>
#include <string>
#include <vector>

#include <glm/common.hpp>

#include "orca/roadmap.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/route_view.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

void numberedMarker(Writer& w, Vec2 c, double r, Rgba fill, std::string_view label) {
    w.circle(c, r + 1.0, fillAttr(withAlpha(palette().kTextShadow, fill.a)));
    w.circle(c, r, fillAttr(fill));
    const double size = std::min(w.fontSize() * 0.8, r * 1.5);
    w.raw("<text x=\"" + num(c.x) + "\" y=\"" + num(c.y + 0.35 * size) + "\" font-size=\"" +
          num(size) + "\" text-anchor=\"middle\"" +
          fillAttr(withAlpha(palette().kWaypointText, fill.a)) + ">" + escapeXml(label) +
          "</text>\n");
}

} // namespace

void drawRoadmap(Writer& w, const Camera& camera, const Roadmap& roadmap) {
    const std::span<const Vec2> nodes = roadmap.nodes();
    if (nodes.empty()) return;
    const Rect world = camera.visibleWorld();
    std::string d;
    for (const auto& [a, b] : roadmap.edges()) {
        const Vec2 p = nodes[a];
        const Vec2 q = nodes[b];
        if (!world.intersects(Rect{glm::min(p, q), glm::max(p, q)})) continue;
        const Vec2 s = camera.worldToScreen(p);
        const Vec2 t = camera.worldToScreen(q);
        // Appended piece by piece (not "M" + string): GCC 12's -Wrestrict false positive.
        d += 'M';
        d += num(s.x);
        d += ' ';
        d += num(s.y);
        d += " L";
        d += num(t.x);
        d += ' ';
        d += num(t.y);
        d += ' ';
    }
    w.raw("<g class=\"roadmap\">\n");
    if (!d.empty()) w.path(d, " class=\"roadmap-edges\"" + strokeAttr(palette().kRoadmapEdge, 1.0));
    const double r = sc(3.0);
    for (const Vec2 n : nodes) {
        if (!world.contains(n)) continue;
        const Vec2 c = camera.worldToScreen(n);
        w.rect({c - Vec2(r), c + Vec2(r)},
               " class=\"roadmap-node\"" + fillAttr(palette().kRoadmapNode));
    }
    w.raw("</g>\n");
}

void drawRoutes(Writer& w, const Camera& camera, const RouteSet& routes, bool emphasised) {
    const double markerR = emphasised ? std::max(8.0, w.fontSize() * 0.6) : 2.5;
    const Rect world = camera.visibleWorld().expanded(markerR / camera.scale());
    std::size_t onScreen = 0;
    for (const AgentRoute& r : routes.routes)
        onScreen += r.bounds.intersects(world) ? 1 : 0;
    const bool numbers = emphasised || onScreen <= 12;
    const double width = emphasised ? kRouteWidthSelected : kRouteWidthAll;
    w.raw(emphasised ? "<g class=\"routes-selected\">\n" : "<g class=\"routes\">\n");
    std::vector<Vec2> screen;
    for (const AgentRoute& r : routes.routes) {
        if (!r.bounds.intersects(world)) continue;
        screen.resize(r.points.size());
        for (std::size_t k = 0; k < r.points.size(); ++k)
            screen[k] = camera.worldToScreen(r.points[k]);
        const std::string agent = " data-agent=\"" + std::to_string(r.agent) + "\"";
        if (screen.size() >= 2) {
            std::size_t split = screen.size() - 1;
            if (r.blockedLeg && *r.blockedLeg < r.stops.size())
                split = *r.blockedLeg == 0 ? 0 : r.stops[*r.blockedLeg - 1];
            const std::span<const Vec2> all(screen);
            if (split >= 1)
                w.polyline(all.first(split + 1),
                           " class=\"route\"" + agent +
                               strokeAttr(routeLineColour(emphasised, false), width));
            if (split + 1 < screen.size())
                w.polyline(all.subspan(split),
                           " class=\"route-blocked\"" + agent +
                               strokeAttr(routeLineColour(emphasised, true), width));
        }
        if (emphasised)
            for (std::size_t k = 0; k < r.reached.size(); ++k)
                numberedMarker(w, camera.worldToScreen(r.reached[k]), markerR * 0.8,
                               waypointColour(true, true),
                               waypointLabel(static_cast<std::uint32_t>(k)));
        for (std::size_t j = 0; j + 1 < r.stops.size(); ++j) {
            const Vec2 c = screen[r.stops[j]];
            const auto index = static_cast<std::uint32_t>(r.firstWaypoint + j);
            if (numbers)
                numberedMarker(w, c, emphasised ? markerR : 6.0, waypointColour(emphasised, false),
                               waypointLabel(index));
            else
                w.circle(c, markerR, fillAttr(waypointColour(false, false)));
        }
        if (emphasised && !r.stops.empty())
            w.circle(screen[r.stops.back()], 6.0, strokeAttr(routeLineColour(true, false), 1.5));
    }
    w.raw("</g>\n");
}

} // namespace orca::ui::svg
