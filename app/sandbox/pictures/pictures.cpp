#include "pictures/pictures.hpp"

#include <imgui.h>

#include "orca/ui/style.hpp"

#include "orca/scene/atomic_write.hpp"
#include "sandbox.hpp"

namespace fs = std::filesystem;

namespace orca::app {

ui::Rect pictureFrame(const SandboxContext& ctx) {
    const ui::Rect& vp = ctx.view.camera.viewport();
    const double width =
        ctx.view.windowWidth > 0 ? static_cast<double>(ctx.view.windowWidth) : vp.max.x;
    return {{0.0, vp.min.y}, {width, vp.max.y}};
}

ui::SvgPicture svgPicture(const SandboxContext& ctx) {
    ui::SvgPicture p;
    p.sim = &ctx.session.sim;
    p.camera = ctx.view.camera;
    p.world = ctx.view.layers.world;
    p.lp3Flags = ctx.session.sim.lastStepLp3();
    p.selected = {};
    // The routes as the last frame drew them (cached per state and selection).
    p.routes.selected = &ctx.routes.selected;
    if (ctx.view.layers.world.routes) p.routes.all = &ctx.routes.all.value();
    p.record = primaryRecord(ctx.explain);
    p.layers = ctx.view.layers.overlay;
    p.style = ctx.view.overlayStyle;
    p.frame = pictureFrame(ctx);
    p.title = sceneTitle(ctx.doc) + " - step " + std::to_string(ctx.session.sim.stepCount());
    p.strokeScale = ui::uiScale();
    if (ImGui::GetCurrentContext()) p.fontSize = ImGui::GetFontSize();
    const ui::Rect& win = ctx.explain.velocityPanel.windowRect();
    if (p.record && ctx.view.layers.overlay.velocityPanel && !win.isEmpty()) {
        ui::SvgPanel panel;
        panel.window = win;
        panel.canvas = ctx.explain.velocityPanel.canvas();
        panel.transform = ctx.explain.velocityPanel.transform();
        panel.labels = &ctx.explain.velocityPanel.labels();
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
    const std::vector<std::size_t> selected = ctx.explain.selection.indices(ctx.session.sim);
    p.selected = selected;
    return scene::writeFileAtomic(file, ui::renderSvg(p), error);
}

fs::path defaultPicturePath(const SandboxContext& ctx, const std::string& extension) {
    const std::string stem =
        ctx.doc.sceneFile.empty() ? std::string("orca") : ctx.doc.sceneFile.stem().string();
    return defaultSaveDir(ctx.doc.sceneFile) /
           (stem + "-step" + std::to_string(ctx.session.sim.stepCount()) + extension);
}

} // namespace orca::app
