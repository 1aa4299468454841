// Select / move: click selects agents, obstacles (edge or inside) or a vertex, Shift adds or
// removes; a drag from a selected element moves the selection (a goal or a vertex alone), a
// drag from nothing selects by box; double-click on an edge inserts a vertex.

#include <algorithm>

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

void pressSelect(SandboxContext& ctx, EditDrag& d) {
    EditorState& e = ctx.editor;
    Selection& selection = ctx.explain.selection;
    const EditHit& h = d.hit;
    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && h.kind == EditHit::Kind::Edge) {
        scene::Scene after = ctx.doc.scene;
        std::vector<Vec2>& v = after.obstacles[h.index].vertices;
        v.insert(v.begin() + static_cast<std::ptrdiff_t>(h.sub + 1), snapPoint(e, h.point));
        if (commitScene(ctx, std::move(after), "Insert vertex")) {
            selection.clear();
            e.obstacles.clear();
            e.vertex = VertexRef{h.index, h.sub + 1};
        }
        d = {};
        return;
    }
    switch (h.kind) {
    case EditHit::Kind::Vertex:
        if (!d.additive) {
            selection.clear();
            e.obstacles.clear();
        }
        e.vertex = VertexRef{h.index, h.sub};
        d.anchor = h.point;
        break;
    case EditHit::Kind::Agent: {
        const AgentId id = ctx.session.sim.agentIdAt(h.index);
        if (d.additive && selection.contains(id)) {
            d.deselectOnRelease = true; // unless it is dragged with the rest
        } else if (d.additive) {
            selection.click(id, true);
        } else if (!selection.contains(id)) {
            clearEditSelection(ctx);
            selection.click(id, false);
        }
        d.anchor = ctx.doc.scene.agents[h.index].position;
        ctx.explain.recordsStamp.invalidate();
        break;
    }
    case EditHit::Kind::Goal:
        d.anchor = h.point;
        break;
    case EditHit::Kind::Edge:
    case EditHit::Kind::Obstacle:
        if (d.additive && sortedContains(e.obstacles, h.index)) {
            d.deselectOnRelease = true;
        } else if (d.additive) {
            toggleSorted(e.obstacles, h.index);
        } else if (!sortedContains(e.obstacles, h.index)) {
            clearEditSelection(ctx);
            e.obstacles = {h.index};
        }
        e.vertex.reset();
        d.anchor = ctx.doc.scene.obstacles[h.index].vertices.front();
        break;
    case EditHit::Kind::None:
        break;
    }
}

void releaseSelect(SandboxContext& ctx, const EditDrag& d) {
    EditorState& e = ctx.editor;
    const Simulator& sim = ctx.session.sim;
    // Shift+click on something selected: it leaves the selection (Shift+drag moved it instead).
    if (d.kind == EditDrag::Kind::Pending && d.deselectOnRelease) {
        if (d.hit.kind == EditHit::Kind::Agent && d.hit.index < sim.agentCount())
            ctx.explain.selection.click(sim.agentIdAt(d.hit.index), true);
        else if (d.hit.kind == EditHit::Kind::Edge || d.hit.kind == EditHit::Kind::Obstacle)
            toggleSorted(e.obstacles, d.hit.index);
        ctx.explain.recordsStamp.invalidate();
    }
    if (d.kind == EditDrag::Kind::Pending && d.hit.kind == EditHit::Kind::None && !d.additive)
        clearEditSelection(ctx);
    if (d.kind == EditDrag::Kind::Box) {
        const Vec2 a = d.pressWorld;
        const Vec2 b = d.currentWorld;
        const ui::Rect box{{std::min(a.x, b.x), std::min(a.y, b.y)},
                           {std::max(a.x, b.x), std::max(a.y, b.y)}};
        const scene::Scene& s = ctx.doc.scene;
        std::vector<std::size_t> agents;
        for (std::size_t i = 0; i < s.agents.size(); ++i)
            if (box.contains(s.agents[i].position)) agents.push_back(i);
        if (!d.additive) clearEditSelection(ctx);
        selectAgents(ctx, agents, d.additive);
        for (std::size_t o = 0; o < s.obstacles.size(); ++o) {
            const std::vector<Vec2>& v = s.obstacles[o].vertices;
            if (std::all_of(v.begin(), v.end(), [&](Vec2 q) { return box.contains(q); }))
                selectObstacle(e, o);
        }
    }
}

class SelectTool final : public EditTool {
  public:
    [[nodiscard]] bool picksHover() const override { return true; }
    [[nodiscard]] bool vertexHandles() const override { return true; }

    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        pressSelect(ctx, startDrag(ctx, p));
    }

    void drag(SandboxContext& ctx, const ToolPointer& p) const override {
        EditDrag& d = ctx.editor.drag;
        if (d.kind == EditDrag::Kind::Pending && movedPastThreshold(d, p)) {
            if (d.hit.kind == EditHit::Kind::None) {
                d.kind = EditDrag::Kind::Box;
            } else {
                d.kind = EditDrag::Kind::Move;
                d.before = ctx.doc.scene;
            }
        }
        if (d.kind != EditDrag::Kind::Move || !ImGui::IsMouseDown(ImGuiMouseButton_Left)) return;
        const Vec2 delta = snapPoint(ctx.editor, d.anchor + (p.world - d.pressWorld)) - d.anchor;
        const bool single =
            d.hit.kind == EditHit::Kind::Goal || d.hit.kind == EditHit::Kind::Vertex;
        scene::Scene after = movedSelection(ctx, d.before, delta, single ? &d.hit : nullptr);
        const char* what = d.hit.kind == EditHit::Kind::Goal     ? "Move goal"
                           : d.hit.kind == EditHit::Kind::Vertex ? "Move vertex"
                                                                 : "Move selection";
        commitScene(ctx, std::move(after), what, "move");
    }

    void release(SandboxContext& ctx, const ToolPointer&) const override {
        const EditDrag& d = ctx.editor.drag;
        if (d.kind == EditDrag::Kind::Pending || d.kind == EditDrag::Kind::Box)
            releaseSelect(ctx, d);
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer&) const override {
        const EditorState& e = ctx.editor;
        const ui::Camera& cam = ctx.view.camera;
        const scene::Scene& s = ctx.doc.scene;
        // Hovered edge (double-click inserts a vertex there).
        if (e.hover && e.hover->kind == EditHit::Kind::Edge &&
            e.hover->index < s.obstacles.size() &&
            e.hover->sub < s.obstacles[e.hover->index].vertices.size()) {
            const std::vector<Vec2>& v = s.obstacles[e.hover->index].vertices;
            const Vec2 a = cam.worldToScreen(v[e.hover->sub]);
            const Vec2 b = cam.worldToScreen(v[(e.hover->sub + 1) % v.size()]);
            dl.AddLine(toIm(a), toIm(b), col(palette().kEditSelected, 200), 3.0f);
            dl.AddCircle(toIm(cam.worldToScreen(e.hover->point)), 4.0f,
                         col(palette().kEditSelected));
        }
        // Box selection.
        const EditDrag& d = e.drag;
        if (d.kind == EditDrag::Kind::Box) {
            const Vec2 a = cam.worldToScreen(d.pressWorld);
            const Vec2 b = cam.worldToScreen(d.currentWorld);
            const Vec2 lo{std::min(a.x, b.x), std::min(a.y, b.y)};
            const Vec2 hi{std::max(a.x, b.x), std::max(a.y, b.y)};
            dl.AddRectFilled(toIm(lo), toIm(hi), col(palette().kEditSelected, 30));
            dl.AddRect(toIm(lo), toIm(hi), col(palette().kEditSelected), 0.0f, 0, 1.0f);
        }
    }

    [[nodiscard]] const char* agentHint() const override {
        return "click: select, Shift+click: add, drag: move (with the selection)";
    }
};

} // namespace

const EditTool& selectTool() {
    static const SelectTool tool;
    return tool;
}

} // namespace orca::app
