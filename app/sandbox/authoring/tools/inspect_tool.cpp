// Inspect: click selects the agent under the pointer (Shift adds or removes), a click on
// nothing clears the selection; while paused, the selected agent's handles drag a what-if
// (what_if.hpp). It changes nothing in the scene.

#include <imgui.h>

#include "authoring/tools/edit_tool.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

class InspectTool final : public EditTool {
  public:
    bool earlyInput(SandboxContext& ctx, const ToolPointer& p) const override {
        return whatIfWorldInput(ctx, p.screen, p.inWorld);
    }

    void press(SandboxContext& ctx, const ToolPointer& p) const override {
        if (p.tookEarly) return; // the press grabbed a what-if handle
        const bool shift = ImGui::GetIO().KeyShift;
        Selection& selection = ctx.explain.selection;
        if (const auto hit = pickAgent(ctx.session.sim, ctx.view.camera, p.screen))
            selection.click(ctx.session.sim.agentIdAt(*hit), shift);
        else if (!p.overOverlay)
            selection.clickEmpty(shift);
        ctx.explain.recordsStamp.invalidate();
    }

    void drawOverlay(SandboxContext& ctx, ImDrawList& dl, const ToolPointer& p) const override {
        drawWhatIf(ctx, dl, p.screen, p.inWorld);
    }

    [[nodiscard]] std::string statusText(const EditorState&) const override { return {}; }
};

} // namespace

const EditTool& inspectTool() {
    static const InspectTool tool;
    return tool;
}

} // namespace orca::app
