// Obstacle: clicks place the vertices of a polygon (snapped when snapping is on); a click on
// the first vertex, or Enter, closes it. Clockwise polygons are reversed so agents avoid them.
// The same drawing sets the random fill generator's region (EditorState::drawingRegion).

#include <algorithm>

#include <imgui.h>

#include "orca/geometry.hpp"
#include "orca/obstacles.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/palette.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

using ui::col;
using ui::palette;
using ui::toIm;

// Would the edge from the last point to `next` touch an earlier, non-adjacent edge?
bool selfIntersectsOpenPath(const std::vector<Vec2>& v, Vec2 next) {
    for (std::size_t k = 0; k + 2 < v.size(); ++k)
        if (segmentsTouch(v.back(), next, v[k], v[k + 1])) return true;
    return false;
}

class ObstacleTool final : public EditTool {
  public:
    [[nodiscard]] bool vertexHandles() const override { return true; }

    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        EditorState& e = ctx.editor;
        if (e.drawing.size() >= 3 && length(ctx.view.camera.worldToScreen(e.drawing.front()) -
                                            p.screen) <= kClosePickPixels) {
            closeDrawing(ctx);
            return;
        }
        const Vec2 q = snapPoint(e, ctx.view.camera.screenToWorld(p.screen));
        if (!e.drawing.empty() && e.drawing.back().x == q.x && e.drawing.back().y == q.y) return;
        e.drawing.push_back(q);
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const override {
        const EditorState& e = ctx.editor;
        const ui::Camera& cam = ctx.view.camera;
        if (!e.drawing.empty()) {
            const Vec2 next = snapPoint(e, cam.screenToWorld(p.screen));
            std::vector<Vec2> poly = e.drawing;
            const bool closing = poly.size() >= 3 && length(cam.worldToScreen(poly.front()) -
                                                            p.screen) <= kClosePickPixels;
            if (p.inWorld && !closing) poly.push_back(next);
            const bool crossing = p.inWorld && !closing && selfIntersectsOpenPath(e.drawing, next);
            const PolygonCheck check = poly.size() >= 3 ? checkPolygon(poly) : PolygonCheck{};
            const ImU32 c =
                col(crossing || !check.valid ? palette().kEditInvalid : palette().kEditPreview);
            std::vector<ImVec2> pts;
            for (const Vec2 q : poly)
                pts.push_back(toIm(cam.worldToScreen(q)));
            dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), c, 0, 2.0f);
            if (poly.size() >= 3)
                dl.AddLine(pts.back(), pts.front(), col(palette().kEditPreview, 80), 1.0f);
            drawWindingAndNormals(dl, cam, poly, col(palette().kObstacleWinding),
                                  col(palette().kObstacleNormal));
            for (std::size_t k = 0; k < e.drawing.size(); ++k) {
                const Vec2 s = cam.worldToScreen(e.drawing[k]);
                const float r = k == 0 && closing ? 7.0f : 4.0f;
                dl.AddRectFilled(toIm(s - Vec2(r)), toIm(s + Vec2(r)), col(palette().kEditPreview));
            }
            if (poly.size() >= 3) {
                const double area = signedArea(poly);
                const char* text = !check.valid ? "self-intersecting: cannot close"
                                   : area > 0.0 ? "counter-clockwise (agents stay outside)"
                                                : "clockwise: agents will ignore it (W reverses)";
                dl.AddText(toIm(p.screen + Vec2{14.0, 10.0}), c, text);
            }
        }
        drawSnapCross(ctx, dl, p);
    }
};

} // namespace

const EditTool& obstacleTool() {
    static const ObstacleTool tool;
    return tool;
}

bool closeDrawing(SandboxContext& ctx) {
    EditorState& e = ctx.editor;
    if (e.tool != Tool::Obstacle || e.drawing.empty()) return false;
    if (e.drawing.size() < 2) {
        // Enter after one click ends the drawing: the lone vertex goes, so the next clicks
        // start a new obstacle instead of joining it (two walls would become one triangle).
        e.drawing.clear();
        setNote(ctx.windows, "An obstacle needs at least 2 vertices (2 = a wall segment): the "
                             "lone vertex was discarded");
        return false;
    }
    const PolygonCheck check = checkPolygon(e.drawing);
    if (!check.valid) {
        setNote(ctx.windows, "Cannot close this polygon: " + check.error);
        return false;
    }
    if (e.drawingRegion) {
        // The random fill's region, not an obstacle.
        if (e.drawing.size() < 3) {
            setNote(ctx.windows, "A region needs at least 3 vertices");
            return false;
        }
        e.generator.fill.region = e.drawing;
        e.generator.regionIsRectangle = false;
        e.generator.kind = GeneratorKind::RandomFill;
        e.generator.dirty = true;
        e.generator.held = false;
        e.drawing.clear();
        e.drawingRegion = false;
        setTool(ctx, Tool::Select);
        setNote(ctx.windows, "Random fill region set (" +
                                 plural(e.generator.fill.region.size(), "vertex", "vertices") +
                                 ")");
        return true;
    }
    scene::Scene after = ctx.doc.scene;
    scene::SceneObstacle o;
    o.vertices = e.drawing;
    // ORCA only sees counter-clockwise polygons: clicks made clockwise are reversed (same
    // vertices, same first vertex). W still reverses on purpose (e.g. a loaded file's).
    const bool reversed = check.clockwise && o.vertices.size() >= 3;
    if (reversed) std::reverse(o.vertices.begin() + 1, o.vertices.end());
    after.obstacles.push_back(std::move(o));
    e.drawing.clear();
    if (!commitScene(ctx, std::move(after),
                     "Draw obstacle (" +
                         plural(after.obstacles.back().vertices.size(), "vertex", "vertices") +
                         ")"))
        return false;
    ctx.explain.selection.clear();
    e.obstacles = {ctx.doc.scene.obstacles.size() - 1};
    e.vertex.reset();
    if (reversed)
        setNote(ctx.windows,
                "Obstacle closed: drawn clockwise, reversed to counter-clockwise so agents "
                "avoid it (W reverses it again)");
    return true;
}

} // namespace orca::app
