// What the tools share: the interface's defaults, starting a drag, drawing helpers.

#include <algorithm>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

using ui::col;
using ui::palette;
using ui::toIm;

bool EditTool::earlyInput(SandboxContext&, const ToolPointer&) const {
    return false;
}

void EditTool::drag(SandboxContext&, const ToolPointer&) const {}

void EditTool::release(SandboxContext&, const ToolPointer&) const {}

void EditTool::drawOverlay(SandboxContext&, ImDrawList&, const ToolPointer&) const {}

std::string EditTool::statusText(const EditorState& editor) const {
    char snap[48] = "";
    if (editor.snap) std::snprintf(snap, sizeof snap, " (snap %g)", editor.snapStep);
    return std::string(toolName(editor.tool)) + snap;
}

const char* EditTool::agentHint() const {
    return "click: select, Shift+click: add";
}

EditDrag& startDrag(SandboxContext& ctx, const ToolPointer& p) {
    EditDrag& d = ctx.editor.drag;
    d = {};
    d.kind = EditDrag::Kind::Pending;
    d.hit = pickForEdit(ctx, p.screen);
    d.pressScreen = p.screen;
    d.pressWorld = p.world;
    d.currentWorld = p.world;
    d.additive = ImGui::GetIO().KeyShift;
    return d;
}

bool movedPastThreshold(const EditDrag& d, const ToolPointer& p) {
    return length(p.screen - d.pressScreen) > kDragThresholdPixels;
}

void drawArrow(ImDrawList& dl, Vec2 a, Vec2 b, unsigned int c, float thickness) {
    dl.AddLine(toIm(a), toIm(b), c, thickness);
    const Vec2 d = b - a;
    const double len = length(d);
    if (len < 4.0) return;
    const Vec2 u = d * (1.0 / len);
    const Vec2 n{-u.y, u.x};
    const double h = std::min(8.0, len * 0.4);
    dl.AddTriangleFilled(toIm(b), toIm(b - u * h + n * (h * 0.45)),
                         toIm(b - u * h - n * (h * 0.45)), c);
}

// The outward side of a counter-clockwise polygon is the right of each edge.
void drawWindingAndNormals(ImDrawList& dl, const ui::Camera& cam, const std::vector<Vec2>& v,
                           unsigned int edgeColour, unsigned int normalColour) {
    if (v.size() < 2) return;
    const std::size_t edges = v.size() == 2 ? 1 : v.size();
    for (std::size_t k = 0; k < edges; ++k) {
        const Vec2 a = cam.worldToScreen(v[k]);
        const Vec2 b = cam.worldToScreen(v[(k + 1) % v.size()]);
        const Vec2 d = b - a;
        const double len = length(d);
        if (len < 12.0) continue;
        const Vec2 u = d * (1.0 / len);
        const Vec2 mid = (a + b) * 0.5;
        drawArrow(dl, mid - u * std::min(14.0, len * 0.25), mid + u * std::min(14.0, len * 0.25),
                  edgeColour, 2.0f);
        // The outward normal is the edge's right-hand side in world space (y up).
        const Vec2 wd = v[(k + 1) % v.size()] - v[k];
        const Vec2 wn = normalize(Vec2{wd.y, -wd.x});
        const Vec2 wm = (v[k] + v[(k + 1) % v.size()]) * 0.5;
        const Vec2 sm = cam.worldToScreen(wm);
        const Vec2 sn = cam.worldToScreen(wm + wn) - sm;
        const double snl = length(sn);
        if (snl > 0.0) drawArrow(dl, sm, sm + sn * (16.0 / snl), normalColour, 1.5f);
    }
}

void drawSnapCross(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) {
    const EditorState& e = ctx.editor;
    if (!p.inWorld || !e.snap || e.drag.kind != EditDrag::Kind::None) return;
    const ui::Camera& cam = ctx.view.camera;
    const Vec2 s = cam.worldToScreen(snapPoint(e, cam.screenToWorld(p.screen)));
    dl.AddLine(toIm(s - Vec2{6.0, 0.0}), toIm(s + Vec2{6.0, 0.0}), col(palette().kEditPreview),
               1.0f);
    dl.AddLine(toIm(s - Vec2{0.0, 6.0}), toIm(s + Vec2{0.0, 6.0}), col(palette().kEditPreview),
               1.0f);
}

bool sortedContains(const std::vector<std::size_t>& sorted, std::size_t i) {
    return std::binary_search(sorted.begin(), sorted.end(), i);
}

void toggleSorted(std::vector<std::size_t>& sorted, std::size_t i) {
    const auto it = std::lower_bound(sorted.begin(), sorted.end(), i);
    if (it != sorted.end() && *it == i)
        sorted.erase(it);
    else
        sorted.insert(it, i);
}

std::string plural(std::size_t n, const char* one, const char* many) {
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace orca::app
