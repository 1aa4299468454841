// renderSvg (svg_export.hpp): the SVG document — its root element, title and background, the
// world view clipped to its viewport and the velocity panel's canvas, cropped to the view the
// picture shows (pictureViewRect). The writer is svg_writer.cpp; the parts are svg_world.cpp,
// svg_velocity_space.cpp, svg_panel.cpp, svg_construction.cpp and svg_solve.cpp
// (svg_parts.hpp).
#include "orca/ui/svg_export.hpp"

#include <algorithm>
#include <string>

#include "orca/simulator.hpp"
#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"
#include "svg_writer.hpp"

namespace orca::ui {

namespace {

// Room around the content of a cropped world view (screen units): the agents' outlines, the
// labels beside them.
constexpr double kCropMargin = 24.0;

Rect intersect(const Rect& a, const Rect& b) {
    return {{std::max(a.min.x, b.min.x), std::max(a.min.y, b.min.y)},
            {std::min(a.max.x, b.max.x), std::min(a.max.y, b.max.y)}};
}

// The world view's content on screen: agents, goals, obstacles, and the primary agent's
// overlays (its max-speed disk and velocities at worldSeconds), plus the margin, inside the
// viewport.
Rect worldContent(const SvgPicture& p) {
    const Camera& camera = p.camera;
    const Simulator& sim = *p.sim;
    Rect world = Rect::empty(); // world units
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        world.include(
            Rect{positions[i] - Vec2(params[i].radius), positions[i] + Vec2(params[i].radius)});
        if ((p.world.goals || p.world.goalLines) && sim.hasGoalAt(i) && !sim.isStaticAt(i))
            world.include(sim.goalAt(i));
    }
    if (p.world.obstacles)
        for (std::size_t i = 0; i < sim.obstacleCount(); ++i)
            for (const Vec2& v : sim.obstacleVertices(sim.obstacleIdAt(i)))
                world.include(v);
    if (p.record && p.layers.inWorld && !p.record->isStatic) {
        const ExplainRecord& rec = *p.record;
        const double r = std::max({rec.params.maxSpeed, length(rec.velocity),
                                   length(rec.prefVelocity), length(rec.newVelocity)}) *
                         p.style.worldSeconds;
        world.include(Rect{rec.position - Vec2(r), rec.position + Vec2(r)});
        if (p.layers.neighborCircle)
            world.include(Rect{rec.position - Vec2(rec.params.neighborDist),
                               rec.position + Vec2(rec.params.neighborDist)});
    }
    if (world.isEmpty()) return Rect::empty();
    Rect screen = Rect::empty();
    screen.include(camera.worldToScreen(world.min));
    screen.include(camera.worldToScreen(world.max));
    const Rect r = intersect(screen.expanded(kCropMargin), camera.viewport());
    return r.isEmpty() ? Rect::empty() : r;
}

} // namespace

std::string_view pictureViewName(PictureView v) {
    switch (v) {
    case PictureView::World:
        return "world";
    case PictureView::Velocity:
        return "velocity";
    case PictureView::Both:
        break;
    }
    return "both";
}

std::optional<PictureView> parsePictureView(std::string_view name) {
    for (const PictureView v : {PictureView::Both, PictureView::World, PictureView::Velocity})
        if (name == pictureViewName(v)) return v;
    return std::nullopt;
}

std::string pictureViewNames() {
    return "both, world, velocity";
}

Rect pictureViewRect(const SvgPicture& p) {
    const bool panel = p.panel && p.record;
    const Rect world = p.sim ? worldContent(p) : Rect::empty();
    switch (p.view) {
    case PictureView::World:
        return world;
    case PictureView::Velocity:
        return panel ? p.panel->canvas : Rect::empty();
    case PictureView::Both:
        break;
    }
    Rect r = world;
    if (panel) r.include(p.panel->canvas);
    if (r.isEmpty()) return r;
    const Rect inFrame = intersect(r, p.frame);
    return inFrame.isEmpty() ? r : inFrame;
}

std::string renderSvg(const SvgPicture& p) {
    using svg::escapeXml;
    using svg::fillAttr;
    using svg::num;
    svg::Writer w(p.fontSize);
    svg::setStrokeScale(p.strokeScale > 0.0f ? static_cast<double>(p.strokeScale) : 1.0);
    Rect f = pictureViewRect(p);
    if (f.isEmpty()) f = p.frame; // nothing to show: the frame's background
    const bool world = p.sim && p.view != PictureView::Velocity;
    const bool panel = p.panel && p.record && p.view != PictureView::World;
    std::string& out = w.out();
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(f.size().x) +
           "\" height=\"" + num(f.size().y) + "\" viewBox=\"" + num(f.min.x) + " " + num(f.min.y) +
           " " + num(f.size().x) + " " + num(f.size().y) +
           "\" font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"" + num(p.fontSize) +
           "\" stroke-linecap=\"round\" stroke-linejoin=\"round\" data-view=\"" +
           std::string(pictureViewName(p.view)) + "\">\n";
    if (!p.title.empty()) out += "<title>" + escapeXml(p.title) + "</title>\n";
    w.rect(f, " id=\"background\"" + fillAttr(palette().kBackground));
    if (world) {
        const Rect& vp = p.camera.viewport();
        out += "<clipPath id=\"clip-world\"><rect x=\"" + num(vp.min.x) + "\" y=\"" +
               num(vp.min.y) + "\" width=\"" + num(vp.size().x) + "\" height=\"" +
               num(vp.size().y) + "\"/></clipPath>\n";
        out += "<g id=\"world-view\" clip-path=\"url(#clip-world)\" data-scale=\"" +
               num(p.camera.scale()) + "\">\n";
        svg::drawWorld(w, p);
        out += "</g>\n";
    }
    if (panel) svg::drawPanel(w, p, *p.panel, *p.record);
    out += "</svg>\n";
    return out;
}

} // namespace orca::ui
