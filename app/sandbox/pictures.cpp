#include "pictures.hpp"

#include <imgui.h>

#include "orca/ui/style.hpp"

#include "orca/scene/atomic_write.hpp"
#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace orca::app {

ui::Rect pictureFrame(const SandboxContext& ctx) {
    const ui::Rect& vp = ctx.camera.viewport();
    const double width = ctx.windowWidth > 0 ? static_cast<double>(ctx.windowWidth) : vp.max.x;
    return {{0.0, vp.min.y}, {width, vp.max.y}};
}

ui::SvgPicture svgPicture(const SandboxContext& ctx) {
    ui::SvgPicture p;
    p.sim = &ctx.sim;
    p.camera = ctx.camera;
    p.world = ctx.layers.world;
    p.lp3Flags = ctx.sim.lastStepLp3();
    p.selected = {};
    p.record = primaryRecord(ctx);
    p.layers = ctx.layers.overlay;
    p.style = ctx.overlayStyle;
    p.frame = pictureFrame(ctx);
    p.title = sceneTitle(ctx) + " - step " + std::to_string(ctx.sim.stepCount());
    p.strokeScale = ui::uiScale();
    if (ImGui::GetCurrentContext()) p.fontSize = ImGui::GetFontSize();
    const ui::Rect& win = ctx.velocityPanel.windowRect();
    if (p.record && ctx.layers.overlay.velocityPanel && !win.isEmpty()) {
        ui::SvgPanel panel;
        panel.window = win;
        panel.canvas = ctx.velocityPanel.canvas();
        panel.transform = ctx.velocityPanel.transform();
        panel.labels = &ctx.velocityPanel.labels();
        if (ImGui::GetCurrentContext()) {
            auto rgba = [](const ImVec4& c) {
                auto u = [](float v) { return static_cast<std::uint8_t>(v * 255.0f + 0.5f); };
                return ui::Rgba{u(c.x), u(c.y), u(c.z), u(c.w)};
            };
            const ImGuiStyle& st = ImGui::GetStyle();
            panel.windowBackground = rgba(st.Colors[ImGuiCol_WindowBg]);
            panel.titleBackground = rgba(st.Colors[ImGuiCol_TitleBgActive]);
            panel.border = rgba(st.Colors[ImGuiCol_Border]);
            panel.titleText = rgba(st.Colors[ImGuiCol_Text]);
        }
        p.panel = panel;
    }
    return p;
}

bool exportSvg(const SandboxContext& ctx, const fs::path& file, std::string& error) {
    ui::SvgPicture p = svgPicture(ctx);
    const std::vector<std::size_t> selected = ctx.selection.indices(ctx.sim);
    p.selected = selected;
    return scene::writeFileAtomic(file, ui::renderSvg(p), error);
}

fs::path defaultPicturePath(const SandboxContext& ctx, const std::string& extension) {
    const std::string stem =
        ctx.sceneFile.empty() ? std::string("orca") : ctx.sceneFile.stem().string();
    return defaultSaveDir(ctx.sceneFile) /
           (stem + "-step" + std::to_string(ctx.sim.stepCount()) + extension);
}

} // namespace orca::app
