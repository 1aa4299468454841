// Add agent: click places an agent made from the new-agent template (N); a drag from the
// press sets its goal.

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

class AddAgentTool final : public EditTool {
  public:
    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        EditDrag& d = startDrag(ctx, p);
        d.kind = EditDrag::Kind::NewAgent;
        d.anchor = snapPoint(ctx.editor, p.world);
    }

    void release(SandboxContext& ctx, const ToolPointer& p) const override {
        const EditDrag& d = ctx.editor.drag;
        if (d.kind != EditDrag::Kind::NewAgent) return;
        scene::Scene after = ctx.doc.scene;
        scene::SceneAgent a = agentFromTemplate(ctx.editor, d.anchor);
        const bool withGoal = movedPastThreshold(d, p);
        if (withGoal && !a.isStatic) a.goal = snapPoint(ctx.editor, p.world);
        after.agents.push_back(std::move(a));
        if (commitScene(ctx, std::move(after), withGoal ? "Add agent with goal" : "Add agent")) {
            clearEditSelection(ctx);
            selectAgents(ctx, {ctx.doc.scene.agents.size() - 1});
        }
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const override {
        const EditorState& e = ctx.editor;
        const EditDrag& d = e.drag;
        const ui::Camera& cam = ctx.view.camera;
        if (d.kind == EditDrag::Kind::NewAgent) {
            const scene::SceneAgent a = agentFromTemplate(e, d.anchor);
            const double r = ctx.doc.scene.resolvedParams(a).radius * cam.scale();
            const Vec2 s = cam.worldToScreen(d.anchor);
            dl.AddCircle(toIm(s), static_cast<float>(std::max(r, 3.0)), col(palette().kEditPreview),
                         32, 2.0f);
            if (movedPastThreshold(d, p) && !a.isStatic) {
                const Vec2 g = cam.worldToScreen(snapPoint(e, d.currentWorld));
                drawArrow(dl, s, g, col(palette().kEditPreview), 1.5f);
                dl.AddCircle(toIm(g), 5.0f, col(palette().kEditPreview), 12, 2.0f);
            }
        }
        drawSnapCross(ctx, dl, p);
    }
};

} // namespace

const EditTool& addAgentTool() {
    static const AddAgentTool tool;
    return tool;
}

} // namespace orca::app
