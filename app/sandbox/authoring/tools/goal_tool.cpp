// Goal: press on an agent and drag to where it (and the other selected agents, by the same
// offset) should go; with Alt, the drag is a constant preferred velocity instead. With an agent
// selected, its route is edited here too: Shift+click adds a waypoint (before the goal), a
// press on a leg inserts one there (drag to place it), a waypoint is dragged to move it,
// right-click (or Delete once clicked) removes it. Each is one undoable scene edit.

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

using ui::col;
using ui::palette;
using ui::toIm;

void setGoals(SandboxContext& ctx, const EditDrag& d, bool prefVelocity) {
    const std::size_t pressed = d.hit.index;
    if (pressed >= ctx.doc.scene.agents.size()) return;
    std::vector<std::size_t> targets = selectedAgents(ctx);
    if (!std::binary_search(targets.begin(), targets.end(), pressed)) targets = {pressed};
    scene::Scene after = ctx.doc.scene;
    const Vec2 from = ctx.doc.scene.agents[pressed].position;
    const Vec2 to = snapPoint(ctx.editor, d.currentWorld);
    std::size_t skipped = 0;
    for (const std::size_t i : targets) {
        scene::SceneAgent& a = after.agents[i];
        if (a.isStatic) {
            ++skipped;
            continue;
        }
        if (prefVelocity) {
            const double seconds = std::max(ctx.view.layers.world.velocityArrowSeconds, 1e-3);
            a.goal.reset();
            a.waypoints.clear(); // a route needs a goal
            a.routeProgress = 0;
            a.prefVelocity = (to - from) * (1.0 / seconds);
        } else {
            a.prefVelocity.reset();
            a.goal = a.position + (to - from);
        }
    }
    const std::string what = prefVelocity ? "Set preferred velocity of " : "Set goal of ";
    commitScene(ctx, std::move(after), what + plural(targets.size() - skipped, "agent", "agents"));
    if (skipped)
        setNote(ctx.windows,
                plural(skipped, "static agent", "static agents") + " left as they are");
}

// Where a dragged (or inserted) waypoint goes: its press point moved with the pointer.
Vec2 waypointTarget(const SandboxContext& ctx, const EditDrag& d, const ToolPointer& p) {
    const Vec2 moved = movedPastThreshold(d, p) ? d.currentWorld - d.pressWorld : Vec2{0.0, 0.0};
    return snapPoint(ctx.editor, d.anchor + moved);
}

void startWaypointDrag(SandboxContext& ctx, const ToolPointer& p, EditDrag::Kind kind,
                       WaypointRef ref, Vec2 anchor) {
    EditDrag& d = startDrag(ctx, p);
    d.kind = kind;
    d.hit = {EditHit::Kind::None, ref.agent, ref.index, anchor};
    d.anchor = anchor;
}

// The preview of a waypoint being moved or inserted: the neighbouring stops joined to it.
void drawWaypointPreview(SandboxContext& ctx, ImDrawList& dl, const EditDrag& d, Vec2 at) {
    if (d.hit.index >= ctx.doc.scene.agents.size()) return;
    const scene::SceneAgent& a = ctx.doc.scene.agents[d.hit.index];
    if (!a.goal) return;
    std::vector<Vec2> stops{a.position};
    stops.insert(stops.end(), a.waypoints.begin(), a.waypoints.end());
    stops.push_back(*a.goal);
    // Stop k + 1 is waypoint k: the new point sits between stops[sub] and stops[sub + 1 or 2].
    const std::size_t before = d.hit.sub;
    const std::size_t after = d.kind == EditDrag::Kind::Waypoint ? d.hit.sub + 2 : d.hit.sub + 1;
    if (after >= stops.size()) return;
    const ui::Camera& cam = ctx.view.camera;
    const Vec2 s = cam.worldToScreen(at);
    const ImU32 c = col(palette().kEditPreview);
    dl.AddLine(toIm(cam.worldToScreen(stops[before])), toIm(s), c, 2.0f);
    dl.AddLine(toIm(s), toIm(cam.worldToScreen(stops[after])), c, 2.0f);
    dl.AddCircleFilled(toIm(s), 6.0f, col(palette().kEditSelected));
}

class GoalTool final : public EditTool {
  public:
    [[nodiscard]] bool picksHover() const override { return true; }

    // Right-click on a waypoint of a selected agent removes it (a right drag still pans).
    bool earlyInput(SandboxContext& ctx, const ToolPointer& p) const override {
        const ImGuiIO& io = ImGui::GetIO();
        const float moved = io.MouseDragMaxDistanceSqr[ImGuiMouseButton_Right];
        if (!p.inWorld || !ImGui::IsMouseReleased(ImGuiMouseButton_Right) ||
            moved >= io.MouseDragThreshold * io.MouseDragThreshold)
            return false;
        const RouteHit r = pickRoute(ctx, p.screen);
        return r.kind == RouteHit::Kind::Waypoint && removeWaypointEdit(ctx, r.ref);
    }

    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        const RouteHit route = pickRoute(ctx, p.screen);
        if (route.kind == RouteHit::Kind::Waypoint) {
            ctx.routes.waypoint = route.ref;
            startWaypointDrag(ctx, p, EditDrag::Kind::Waypoint, route.ref, route.point);
            return;
        }
        EditDrag& d = startDrag(ctx, p);
        if (d.hit.kind != EditHit::Kind::Agent) {
            d = {};
            if (route.kind == RouteHit::Kind::Leg) {
                startWaypointDrag(ctx, p, EditDrag::Kind::NewWaypoint, route.ref, route.point);
                return;
            }
            const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
            if (ImGui::GetIO().KeyShift && primary && *primary < ctx.doc.scene.agents.size()) {
                const std::size_t n = ctx.doc.scene.agents[*primary].waypoints.size();
                startWaypointDrag(ctx, p, EditDrag::Kind::NewWaypoint, {*primary, n}, p.world);
                return;
            }
            ctx.routes.waypoint.reset();
            setNote(ctx.windows, primary ? "Goal tool: drag from an agent to set its goal; "
                                           "Shift+click adds a waypoint to its route"
                                         : "Goal tool: press on an agent and drag to where it "
                                           "should go");
            return;
        }
        const AgentId id = ctx.session.sim.agentIdAt(d.hit.index);
        if (!ctx.explain.selection.contains(id)) {
            clearEditSelection(ctx);
            ctx.explain.selection.click(id, false);
        }
        d.kind = ImGui::GetIO().KeyAlt ? EditDrag::Kind::PrefVelocity : EditDrag::Kind::Goal;
    }

    void release(SandboxContext& ctx, const ToolPointer& p) const override {
        const EditDrag& d = ctx.editor.drag;
        const WaypointRef ref{d.hit.index, d.hit.sub};
        if (d.kind == EditDrag::Kind::NewWaypoint) {
            insertWaypointEdit(ctx, ref, waypointTarget(ctx, d, p));
            return;
        }
        if (d.kind == EditDrag::Kind::Waypoint) {
            if (movedPastThreshold(d, p))
                moveWaypointEdit(ctx, ref, waypointTarget(ctx, d, p));
            else
                setNote(ctx.windows, "Waypoint " + std::to_string(ref.index + 1) +
                                         " selected: drag to move it, Delete or right-click "
                                         "removes it");
            return;
        }
        if ((d.kind == EditDrag::Kind::Goal || d.kind == EditDrag::Kind::PrefVelocity) &&
            movedPastThreshold(d, p))
            setGoals(ctx, d, d.kind == EditDrag::Kind::PrefVelocity);
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const override {
        const EditorState& e = ctx.editor;
        const EditDrag& d = e.drag;
        const ui::Camera& cam = ctx.view.camera;
        drawRouteHandles(ctx, dl, p);
        if (d.kind == EditDrag::Kind::Waypoint || d.kind == EditDrag::Kind::NewWaypoint) {
            drawWaypointPreview(ctx, dl, d, waypointTarget(ctx, d, p));
            return;
        }
        if ((d.kind != EditDrag::Kind::Goal && d.kind != EditDrag::Kind::PrefVelocity) ||
            d.hit.index >= ctx.doc.scene.agents.size())
            return;
        const Vec2 from = ctx.doc.scene.agents[d.hit.index].position;
        const Vec2 to = snapPoint(e, d.currentWorld);
        const bool pref = d.kind == EditDrag::Kind::PrefVelocity;
        for (const std::size_t i : selectedAgents(ctx)) {
            const Vec2 a = ctx.doc.scene.agents[i].position;
            drawArrow(dl, cam.worldToScreen(a), cam.worldToScreen(a + (to - from)),
                      col(pref ? palette().kArrowPref : palette().kEditPreview), 2.0f);
            if (!pref)
                dl.AddCircle(toIm(cam.worldToScreen(a + (to - from))), 5.0f,
                             col(palette().kEditPreview), 12, 2.0f);
        }
        if (pref) {
            const double seconds = std::max(ctx.view.layers.world.velocityArrowSeconds, 1e-3);
            char text[96];
            std::snprintf(text, sizeof text, "v_pref %.2f m/s (arrow = %.2g s)",
                          length(to - from) / seconds, seconds);
            dl.AddText(toIm(p.screen + Vec2{14.0, 10.0}), col(palette().kText), text);
        }
    }

    [[nodiscard]] const char* agentHint() const override {
        return "drag: set the goal, Alt+drag: a constant preferred velocity; selected: "
               "Shift+click adds a waypoint";
    }

    [[nodiscard]] std::string statusText(const EditorState& editor) const override {
        return EditTool::statusText(editor) +
               "  (waypoints: Shift+click adds, click a leg inserts, drag moves, right-click "
               "removes)";
    }

  private:
    // The selected waypoint ringed; under the pointer: a waypoint ringed, or on a leg the "+"
    // where a click inserts one.
    static void drawRouteHandles(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) {
        const ui::Camera& cam = ctx.view.camera;
        if (const auto& w = ctx.routes.waypoint;
            w && w->agent < ctx.doc.scene.agents.size() &&
            w->index < ctx.doc.scene.agents[w->agent].waypoints.size()) {
            const Vec2 s = cam.worldToScreen(ctx.doc.scene.agents[w->agent].waypoints[w->index]);
            dl.AddCircle(toIm(s), 11.0f, col(palette().kEditSelected), 20, 2.5f);
        }
        if (!p.inWorld || ctx.editor.drag.kind != EditDrag::Kind::None) return;
        const RouteHit h = pickRoute(ctx, p.screen);
        const Vec2 s = cam.worldToScreen(h.point);
        if (h.kind == RouteHit::Kind::Waypoint) {
            dl.AddCircle(toIm(s), 10.0f, col(palette().kEditHandle), 20, 2.0f);
        } else if (h.kind == RouteHit::Kind::Leg) {
            const ImU32 c = col(palette().kEditSelected);
            dl.AddCircleFilled(toIm(s), 6.0f, col(palette().kTextShadow));
            dl.AddLine(toIm(s - Vec2{4.0, 0.0}), toIm(s + Vec2{4.0, 0.0}), c, 2.0f);
            dl.AddLine(toIm(s - Vec2{0.0, 4.0}), toIm(s + Vec2{0.0, 4.0}), c, 2.0f);
        }
    }
};

} // namespace

const EditTool& goalTool() {
    static const GoalTool tool;
    return tool;
}

} // namespace orca::app
