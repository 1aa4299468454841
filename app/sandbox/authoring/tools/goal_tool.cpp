// Goal: press on an agent and drag to where it (and the other selected agents, by the same
// offset) should go; with Alt, the drag is a constant preferred velocity instead.

#include <algorithm>
#include <cstdio>

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

class GoalTool final : public EditTool {
  public:
    [[nodiscard]] bool picksHover() const override { return true; }

    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        EditDrag& d = startDrag(ctx, p);
        if (d.hit.kind != EditHit::Kind::Agent) {
            d = {};
            setNote(ctx.windows, "Goal tool: press on an agent and drag to where it should go");
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
        if ((d.kind == EditDrag::Kind::Goal || d.kind == EditDrag::Kind::PrefVelocity) &&
            movedPastThreshold(d, p))
            setGoals(ctx, d, d.kind == EditDrag::Kind::PrefVelocity);
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const override {
        const EditorState& e = ctx.editor;
        const EditDrag& d = e.drag;
        const ui::Camera& cam = ctx.view.camera;
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
        return "drag: set the goal, Alt+drag: a constant preferred velocity";
    }
};

} // namespace

const EditTool& goalTool() {
    static const GoalTool tool;
    return tool;
}

} // namespace orca::app
