// renderSvg (svg_export.hpp): the SVG document — its root element, title and background, the
// world view clipped to its viewport and the velocity panel. The writer is svg_writer.cpp; the
// parts are svg_world.cpp, svg_velocity_space.cpp and svg_panel.cpp (svg_parts.hpp).
#include "orca/ui/svg_export.hpp"

#include <string>

#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"
#include "svg_writer.hpp"

namespace orca::ui {

std::string renderSvg(const SvgPicture& p) {
    using svg::escapeXml;
    using svg::fillAttr;
    using svg::num;
    svg::Writer w(p.fontSize);
    svg::setStrokeScale(p.strokeScale > 0.0f ? static_cast<double>(p.strokeScale) : 1.0);
    const Rect& f = p.frame;
    std::string& out = w.out();
    out += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out += "<svg xmlns=\"http://www.w3.org/2000/svg\" version=\"1.1\" width=\"" + num(f.size().x) +
           "\" height=\"" + num(f.size().y) + "\" viewBox=\"" + num(f.min.x) + " " + num(f.min.y) +
           " " + num(f.size().x) + " " + num(f.size().y) +
           "\" font-family=\"DejaVu Sans, Verdana, sans-serif\" font-size=\"" + num(p.fontSize) +
           "\" stroke-linecap=\"round\" stroke-linejoin=\"round\">\n";
    if (!p.title.empty()) out += "<title>" + escapeXml(p.title) + "</title>\n";
    w.rect(f, " id=\"background\"" + fillAttr(palette().kBackground));
    if (p.sim) {
        const Rect& vp = p.camera.viewport();
        out += "<clipPath id=\"clip-world\"><rect x=\"" + num(vp.min.x) + "\" y=\"" +
               num(vp.min.y) + "\" width=\"" + num(vp.size().x) + "\" height=\"" +
               num(vp.size().y) + "\"/></clipPath>\n";
        out += "<g id=\"world-view\" clip-path=\"url(#clip-world)\" data-scale=\"" +
               num(p.camera.scale()) + "\">\n";
        svg::drawWorld(w, p);
        out += "</g>\n";
    }
    if (p.panel && p.record) svg::drawPanel(w, p, *p.panel, *p.record);
    out += "</svg>\n";
    return out;
}

} // namespace orca::ui
