#include "pictures/pictures.hpp"

#include <algorithm>

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
        p.panel = panel;
    }
    // Construction and Solve mode as the panel and the world view show them (the same
    // geometry functions VelocityPanel::draw and the world overlay call).
    if (p.record && ctx.explain.construction.active)
        p.construction = ui::constructionGeometry(*p.record, ctx.explain.construction);
    else if (p.record && p.panel && ctx.explain.solve.active)
        p.solve = ui::solveFrame(*p.record, ctx.explain.solve.step);
    p.view = ctx.pictures.svgView;
    return p;
}

bool exportSvg(const SandboxContext& ctx, const fs::path& file, std::string& error) {
    ui::SvgPicture p = svgPicture(ctx);
    if (ui::pictureViewRect(p).isEmpty()) {
        error = pictureViewEmpty(p.view);
        return false;
    }
    const std::vector<std::size_t> selected = ctx.explain.selection.indices(ctx.session.sim);
    p.selected = selected;
    return scene::writeFileAtomic(file, ui::renderSvg(p), error);
}

std::string pictureViewEmpty(ui::PictureView view) {
    if (view == ui::PictureView::World) return "the world view shows nothing (an empty scene)";
    return "the " + std::string(ui::pictureViewName(view)) +
           " view shows nothing: select an agent (click, or --select) and show the velocity panel";
}

void pictureViewChoice(PicturesState& pictures, bool png) {
    int v = png ? (pictures.pngView ? static_cast<int>(*pictures.pngView) + 1 : 0)
                : static_cast<int>(pictures.svgView) + 1;
    ImGui::TextUnformatted("Show:");
    if (png) {
        ImGui::SameLine();
        ImGui::RadioButton("window", &v, 0);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("The whole window as it is on screen");
    }
    const char* tips[] = {"The world view and the velocity panel, without the window chrome",
                          "The world view, cropped to the scene",
                          "The velocity panel's canvas with its legend, as a figure"};
    for (const ui::PictureView view :
         {ui::PictureView::Both, ui::PictureView::World, ui::PictureView::Velocity}) {
        ImGui::SameLine();
        ImGui::RadioButton(std::string(ui::pictureViewName(view)).c_str(), &v,
                           static_cast<int>(view) + 1);
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tips[static_cast<int>(view)]);
    }
    if (png && v > 0) {
        ImGui::SameLine();
        ImGui::TextDisabled("(at 2x)");
    }
    if (png)
        pictures.pngView =
            v == 0 ? std::nullopt
                   : std::optional<ui::PictureView>(static_cast<ui::PictureView>(v - 1));
    else
        pictures.svgView = static_cast<ui::PictureView>(std::max(v, 1) - 1);
}

fs::path defaultPicturePath(const SandboxContext& ctx, const std::string& extension) {
    const std::string stem =
        ctx.doc.sceneFile.empty() ? std::string("orca") : ctx.doc.sceneFile.stem().string();
    return defaultSaveDir(ctx.doc.sceneFile) /
           (stem + "-step" + std::to_string(ctx.session.sim.stepCount()) + extension);
}

} // namespace orca::app
