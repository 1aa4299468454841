// The tool table and the one dispatch from the frame to the active tool.

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

// One row per tool, in the order of the tool strip (and of the digit keys).
constexpr ToolInfo kToolTable[] = {
    {Tool::Inspect, "inspect", "Inspect", "1 Inspect", Action::ToolInspect, false, inspectTool},
    {Tool::Select, "select", "Select / move", "2 Select", Action::ToolSelect, true, selectTool},
    {Tool::AddAgent, "agent", "Add agent", "3 Agent", Action::ToolAddAgent, true, addAgentTool},
    {Tool::Goal, "goal", "Goal", "4 Goal", Action::ToolGoal, true, goalTool},
    {Tool::Obstacle, "obstacle", "Obstacle", "5 Obstacle", Action::ToolObstacle, true,
     obstacleTool},
};

const EditTool& activeTool(const SandboxContext& ctx) {
    return toolInfo(ctx.editor.tool).instance();
}

// Obstacles the simulation leaves out: red dashed outline and why (whatever the tool).
void drawSkippedObstacles(const SandboxContext& ctx, ImDrawList& dl) {
    const EditorState& e = ctx.editor;
    const ui::Camera& cam = ctx.view.camera;
    for (std::size_t k = 0; k < e.skippedObstacles.size(); ++k) {
        const std::size_t o = e.skippedObstacles[k];
        if (o >= ctx.doc.scene.obstacles.size()) continue;
        const std::vector<Vec2>& v = ctx.doc.scene.obstacles[o].vertices;
        std::vector<ImVec2> pts;
        for (const Vec2 p : v)
            pts.push_back(ui::toIm(cam.worldToScreen(p)));
        dl.AddPolyline(pts.data(), static_cast<int>(pts.size()),
                       ui::col(ui::palette().kEditInvalid), v.size() > 2 ? ImDrawFlags_Closed : 0,
                       2.0f);
        if (!v.empty()) {
            // The reason in full, wrapped (the linter panel has it too, with the fix).
            const std::string text = "left out of the simulation: " + e.skippedReasons[k];
            dl.AddText(nullptr, 0.0f, ui::toIm(cam.worldToScreen(v.front()) + Vec2{6.0, 4.0}),
                       ui::col(ui::palette().kEditInvalid), text.c_str(), nullptr, 260.0f);
        }
    }
}

// What every edit tool shows: obstacles' winding, normals (and vertex handles when the tool
// has them), the selected agents' goal handles, a hovered goal.
void drawEditingOverlay(SandboxContext& ctx, ImDrawList& dl, bool handles) {
    using ui::col;
    using ui::palette;
    using ui::toIm;
    const EditorState& e = ctx.editor;
    const ui::Camera& cam = ctx.view.camera;
    const ui::Rect view = cam.visibleWorld();
    for (std::size_t o = 0; o < ctx.doc.scene.obstacles.size(); ++o) {
        const std::vector<Vec2>& v = ctx.doc.scene.obstacles[o].vertices;
        ui::Rect bounds = ui::Rect::empty();
        for (const Vec2 p : v)
            bounds.include(p);
        if (!bounds.intersects(view)) continue;
        const bool selected = sortedContains(e.obstacles, o);
        if (selected) {
            std::vector<ImVec2> pts;
            for (const Vec2 p : v)
                pts.push_back(toIm(cam.worldToScreen(p)));
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), col(palette().kEditSelected),
                           v.size() > 2 ? ImDrawFlags_Closed : 0, 3.0f);
        }
        drawWindingAndNormals(dl, cam, v, col(palette().kObstacleWinding, selected ? 255 : 170),
                              col(palette().kObstacleNormal, selected ? 255 : 150));
        if (!handles) continue;
        for (std::size_t k = 0; k < v.size(); ++k) {
            const Vec2 s = cam.worldToScreen(v[k]);
            const bool isSel = e.vertex && e.vertex->obstacle == o && e.vertex->vertex == k;
            const bool hovered = e.hover && e.hover->kind == EditHit::Kind::Vertex &&
                                 e.hover->index == o && e.hover->sub == k;
            const float r = isSel || hovered ? 5.0f : 3.5f;
            dl.AddRectFilled(toIm(s - Vec2(r)), toIm(s + Vec2(r)),
                             col(isSel ? palette().kEditSelected : palette().kEditHandle));
            if (k == 0)
                dl.AddRect(toIm(s - Vec2(r + 2.5)), toIm(s + Vec2(r + 2.5)),
                           col(palette().kEditHandle), 0.0f, 0, 1.0f); // first vertex
        }
    }
    for (const std::size_t i : selectedAgents(ctx)) {
        const auto& g = ctx.doc.scene.agents[i].goal;
        if (!g) continue;
        const Vec2 s = cam.worldToScreen(*g);
        dl.AddLine(toIm(cam.worldToScreen(ctx.doc.scene.agents[i].position)), toIm(s),
                   col(palette().kEditSelected, 90), 1.0f);
        dl.AddCircle(toIm(s), 5.0f, col(palette().kEditSelected), 12, 1.5f);
    }
    if (e.hover && e.hover->kind == EditHit::Kind::Goal)
        dl.AddCircle(toIm(cam.worldToScreen(e.hover->point)), 6.0f, col(palette().kEditSelected),
                     12, 2.0f);
}

} // namespace

std::span<const ToolInfo> toolTable() {
    return kToolTable;
}

const ToolInfo& toolInfo(Tool tool) {
    for (const ToolInfo& t : kToolTable)
        if (t.tool == tool) return t;
    return kToolTable[0];
}

const ToolInfo* findTool(std::string_view name) {
    for (const ToolInfo& t : kToolTable)
        if (name == t.name) return &t;
    return nullptr;
}

const ToolInfo* toolForAction(Action action) {
    for (const ToolInfo& t : kToolTable)
        if (t.action == action) return &t;
    return nullptr;
}

std::string toolNameList() {
    std::string list;
    for (const ToolInfo& t : kToolTable)
        list += std::string(list.empty() ? "" : ", ") + t.name;
    return list;
}

const char* toolName(Tool tool) {
    return toolInfo(tool).label;
}

bool editing(const SandboxContext& ctx) {
    return toolInfo(ctx.editor.tool).edits;
}

bool toolEarlyInput(SandboxContext& ctx, const ToolPointer& p) {
    return activeTool(ctx).earlyInput(ctx, p);
}

void drawToolOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) {
    drawSkippedObstacles(ctx, dl);
    const EditTool& tool = activeTool(ctx);
    if (editing(ctx)) drawEditingOverlay(ctx, dl, tool.vertexHandles());
    tool.drawOverlay(ctx, dl, p);
}

void toolWorldInput(SandboxContext& ctx, const ToolPointer& p) {
    const EditTool& tool = activeTool(ctx);
    EditorState& e = ctx.editor;
    e.hover.reset();
    if (p.inWorld && e.drag.kind == EditDrag::Kind::None && tool.picksHover())
        e.hover = pickForEdit(ctx, p.screen);
    if (p.inWorld && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        if (editing(ctx)) beginEditing(ctx);
        tool.press(ctx, p);
    }
    if (e.drag.kind == EditDrag::Kind::None) return;
    e.drag.currentWorld = p.world;
    tool.drag(ctx, p);
    if (!ImGui::IsMouseReleased(ImGuiMouseButton_Left) && ImGui::IsMouseDown(ImGuiMouseButton_Left))
        return;
    tool.release(ctx, p);
    e.drag = {};
    sealEdits(ctx);
}

std::string toolStatusText(const SandboxContext& ctx) {
    return activeTool(ctx).statusText(ctx.editor);
}

const char* toolAgentHint(const SandboxContext& ctx) {
    return activeTool(ctx).agentHint();
}

} // namespace orca::app
