#include "routes/routes.hpp"

#include <chrono>
#include <string>

#include <imgui.h>

#include "orca/geometry.hpp"
#include "orca/routes.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "sandbox.hpp"

namespace orca::app {

namespace {

constexpr double kWaypointPickPixels = 8.0;
constexpr double kLegPickPixels = 5.0;

std::string waypointName(WaypointRef r) {
    return "waypoint " + std::to_string(r.index + 1) + " of agent #" + std::to_string(r.agent);
}

bool commitRouteEdit(SandboxContext& ctx, scene::Scene after, bool ok, const std::string& error,
                     std::string label) {
    if (!ok) {
        setNote(ctx.windows, "Waypoint: " + error);
        return false;
    }
    return commitScene(ctx, std::move(after), std::move(label));
}

} // namespace

ui::WorldRoutes refreshRoutes(SandboxContext& ctx) {
    RoutesState& r = ctx.routes;
    const Simulator& sim = ctx.session.sim;
    const std::uint64_t version = ctx.session.stateVersion;
    std::vector<std::size_t> selected = ctx.explain.selection.indices(sim);
    if (r.selectedStamp.stale(version) || selected != r.selectedFor) {
        r.selected = ui::computeRoutes(sim, selected);
        r.selectedFor = std::move(selected);
        r.selectedStamp.refresh(version);
    }
    ui::WorldRoutes out;
    out.selected = &r.selected;
    if (ctx.view.layers.world.routes) {
        out.all = &r.all.get(version, [&] {
            const auto t0 = std::chrono::steady_clock::now();
            ui::RouteSet set = ui::computeAllRoutes(sim);
            r.allMs =
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0)
                    .count();
            return set;
        });
    }
    return out;
}

void drawRoadmapNote(SandboxContext& ctx, ImDrawList& dl) {
    if (!ctx.view.layers.world.roadmap) return;
    const Simulator& sim = ctx.session.sim;
    const char* note = nullptr;
    if (sim.params().routing != Routing::Roadmap)
        note = "Roadmap layer: this scene routes straight, so there is no roadmap "
               "(Simulation > Roadmap routing)";
    else if (sim.obstacleCount() == 0)
        note = "Roadmap layer: no obstacles, so the roadmap is empty";
    else if (sim.roadmap().nodes().empty())
        note = "Roadmap layer: the roadmap has no nodes";
    if (!note) return;
    const ui::Rect& vp = ctx.view.camera.viewport();
    const ImVec2 at{static_cast<float>(vp.min.x) + 10.0f, static_cast<float>(vp.min.y) + 8.0f};
    for (const ImVec2 d : {ImVec2{1, 0}, ImVec2{-1, 0}, ImVec2{0, 1}, ImVec2{0, -1}})
        dl.AddText({at.x + d.x, at.y + d.y}, ui::col(ui::palette().kTextShadow), note);
    dl.AddText(at, ui::col(ui::palette().kRoadmapNode, 255), note);
}

RouteHit pickRoute(const SandboxContext& ctx, Vec2 screen) {
    const ui::Camera& cam = ctx.view.camera;
    const std::vector<std::size_t> agents = selectedAgents(ctx);
    RouteHit hit;
    double best = kWaypointPickPixels;
    for (const std::size_t i : agents) {
        const std::vector<Vec2>& w = ctx.doc.scene.agents[i].waypoints;
        for (std::size_t k = 0; k < w.size(); ++k) {
            const double d = length(cam.worldToScreen(w[k]) - screen);
            if (d <= best) {
                best = d;
                hit = {RouteHit::Kind::Waypoint, {i, k}, w[k]};
            }
        }
    }
    if (hit.kind != RouteHit::Kind::None) return hit;
    const Simulator& sim = ctx.session.sim;
    const Vec2 world = cam.screenToWorld(screen);
    best = kLegPickPixels;
    for (const std::size_t i : agents) {
        if (i >= sim.agentCount() || !sim.hasGoalAt(i) || sim.isStaticAt(i)) continue;
        const PlannedRoute route = plannedRoute(sim, i);
        for (std::size_t leg = 0; leg < route.stops.size(); ++leg) {
            const std::size_t first = leg == 0 ? 0 : route.stops[leg - 1];
            for (std::size_t k = first; k < route.stops[leg]; ++k) {
                const Vec2 q = closestPointOnSegment(route.points[k], route.points[k + 1], world);
                const double d = length(world - q) * cam.scale();
                if (d <= best) {
                    best = d;
                    hit = {RouteHit::Kind::Leg, {i, sim.routeProgressAt(i) + leg}, q};
                }
            }
        }
    }
    return hit;
}

bool insertWaypointEdit(SandboxContext& ctx, WaypointRef at, Vec2 point) {
    scene::Scene after = ctx.doc.scene;
    std::string error;
    const bool ok = insertWaypoint(after, at.agent, at.index, point, error);
    if (!commitRouteEdit(ctx, std::move(after), ok, error, "Insert " + waypointName(at)))
        return false;
    ctx.routes.waypoint = at;
    return true;
}

bool moveWaypointEdit(SandboxContext& ctx, WaypointRef ref, Vec2 point) {
    scene::Scene after = ctx.doc.scene;
    std::string error;
    const bool ok = moveWaypoint(after, ref.agent, ref.index, point, error);
    if (!commitRouteEdit(ctx, std::move(after), ok, error, "Move " + waypointName(ref)))
        return false;
    ctx.routes.waypoint = ref;
    return true;
}

bool removeWaypointEdit(SandboxContext& ctx, WaypointRef ref) {
    scene::Scene after = ctx.doc.scene;
    std::string error;
    const bool ok = removeWaypoint(after, ref.agent, ref.index, error);
    if (!commitRouteEdit(ctx, std::move(after), ok, error, "Delete " + waypointName(ref)))
        return false;
    ctx.routes.waypoint.reset();
    return true;
}

bool appendWaypointEdit(SandboxContext& ctx, Vec2 point) {
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    if (!primary || *primary >= ctx.doc.scene.agents.size()) {
        setNote(ctx.windows, "Waypoint: select an agent first (click it)");
        return false;
    }
    const std::size_t count = ctx.doc.scene.agents[*primary].waypoints.size();
    return insertWaypointEdit(ctx, {*primary, count}, point);
}

} // namespace orca::app
