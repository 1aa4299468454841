// The velocity panel of the SVG export (svg_parts.hpp), as VelocityPanel::draw shows its canvas
// on screen, with the same colours, captions and legends (element_colours.hpp, grid_style.hpp,
// label_style.hpp): the canvas with its grid, the overlays (or construction / Solve mode's
// step), the legend and the labels where the screen's layout placed them.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "orca/ui/element_colours.hpp"
#include "orca/ui/explain_text.hpp"
#include "orca/ui/grid_style.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

void drawPanelGrid(Writer& w, const VelocityTransform& t, const Rect& canvas, bool labels) {
    const GridSteps steps = panelGridSteps(t.pixelsPerUnit);
    const double minor = steps.minor;
    const Rect v = t.toVelocity(canvas);
    std::string d[3]; // by GridLine: minor, major, axis
    auto kind = [&](double x) { return static_cast<int>(gridLineAt(x, steps)); };
    for (double x = std::floor(v.min.x / minor) * minor; x <= v.max.x; x += minor) {
        const double sx = std::floor(t.toScreen({x, 0.0}).x) + 0.5;
        gridSegment(d[kind(x)], 'V', sx, canvas.min.y, canvas.max.y);
    }
    for (double y = std::floor(v.min.y / minor) * minor; y <= v.max.y; y += minor) {
        const double sy = std::floor(t.toScreen({0.0, y}).y) + 0.5;
        gridSegment(d[kind(y)], 'H', sy, canvas.min.x, canvas.max.x);
    }
    w.raw("<g class=\"grid\">\n");
    for (int k = 0; k < 3; ++k)
        w.path(d[k], strokeAttr(gridColour(static_cast<GridLine>(k), GridView::Panel), 1.0));
    if (!labels) {
        w.raw("</g>\n");
        return;
    }
    const Vec2 o = t.toScreen({0.0, 0.0});
    const double ax = std::clamp(o.x, canvas.min.x + 2.0, canvas.max.x - 40.0);
    const double ay = std::clamp(o.y, canvas.min.y + 2.0, canvas.max.y - 16.0);
    const Rgba textCol = axisLabelColour();
    for (const double x : axisLabelValues(v.min.x, v.max.x, steps, t.pixelsPerUnit))
        w.text({t.toScreen({x, 0.0}).x + 2.0, ay + 1.0}, textCol, axisLabelText(x));
    for (const double y : axisLabelValues(v.min.y, v.max.y, steps, t.pixelsPerUnit))
        w.text({ax + 3.0, t.toScreen({0.0, y}).y + 1.0}, textCol, axisLabelText(y));
    w.raw("</g>\n");
}

// Swatch, LegendItem, swatchDash, overlayLegend: label_style.hpp (the screen's legend too).

void drawSwatch(Writer& w, Vec2 p, double sw, double h, const LegendItem& it) {
    const double my = p.y + h * 0.5;
    const Rgba c = it.colour;
    switch (it.swatch) {
    case Swatch::Arrow:
    case Swatch::DashedArrow: {
        w.line({p.x, my}, {p.x + sw - 6.0, my}, strokeAttr(c, 2.0, swatchDash(it.swatch)));
        const Vec2 tri[] = {{p.x + sw, my}, {p.x + sw - 7.0, my - 4.0}, {p.x + sw - 7.0, my + 4.0}};
        w.polygon(tri, fillAttr(c));
        break;
    }
    case Swatch::Line:
    case Swatch::DashedLine:
    case Swatch::DottedLine:
        w.line({p.x, my}, {p.x + sw, my}, strokeAttr(c, 2.0, swatchDash(it.swatch)));
        break;
    case Swatch::Fill:
        w.rect({{p.x, p.y + 2.0}, {p.x + sw, p.y + h - 2.0}}, fillAttr(c));
        break;
    case Swatch::Strip: {
        const std::string id = w.newId("legend");
        w.raw("<linearGradient id=\"" + id +
              "\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" stop-color=\"" + hex(c) +
              "\" stop-opacity=\"" + opacity(kSwatchStripAlpha) +
              "\"/><stop offset=\"1\" stop-color=\"" + hex(c) +
              "\" stop-opacity=\"0\"/></linearGradient>\n");
        w.rect({{p.x, p.y + 3.0}, {p.x + sw, p.y + h - 1.0}}, " fill=\"url(#" + id + ")\"");
        w.line({p.x, p.y + 3.0}, {p.x + sw, p.y + 3.0}, strokeAttr(withAlpha(c, 255), 1.5));
        break;
    }
    case Swatch::Diamond: {
        const double cx = p.x + sw * 0.5;
        const double r = h * 0.35;
        const Vec2 dia[] = {{cx, my - r}, {cx + r, my}, {cx, my + r}, {cx - r, my}};
        w.polygon(dia, fillAttr(c));
        break;
    }
    case Swatch::Ring:
        w.circle({p.x + sw * 0.5, my}, h * 0.4, strokeAttr(c, 1.5));
        break;
    }
}

void drawLegend(Writer& w, const Rect& canvas, const std::vector<LegendItem>& items) {
    if (items.empty()) return;
    const double lineH = w.fontSize() * 1.16 + 1.0;
    const double sw = 24.0;
    const double pad = 5.0;
    // Two columns when long, so it covers little; one when two would not fit the canvas (the
    // figure must show every entry whole).
    std::size_t columns = items.size() > 6 ? 2 : 1;
    std::size_t rows = 0;
    double colW[2] = {0.0, 0.0};
    double width = pad;
    for (;;) {
        rows = (items.size() + columns - 1) / columns;
        colW[0] = colW[1] = 0.0;
        for (std::size_t k = 0; k < items.size(); ++k)
            colW[k / rows] = std::max(colW[k / rows], textWidth(items[k].text, w.fontSize()));
        width = pad;
        for (std::size_t c = 0; c < columns; ++c)
            width += sw + pad + colW[c] + pad * 2.0;
        if (columns == 1 || width <= canvas.size().x - 12.0) break;
        columns = 1;
    }
    const double h = pad * 2.0 + lineH * static_cast<double>(rows);
    const Vec2 p0{canvas.min.x + 6.0, canvas.max.y - 6.0 - h};
    w.raw("<g class=\"legend\">\n");
    w.rect({p0, p0 + Vec2(width, h)}, fillAttr(palette().kLegendBackground), 4.0);
    for (std::size_t k = 0; k < items.size(); ++k) {
        const std::size_t c = k / rows;
        const double x = p0.x + pad + (c == 0 ? 0.0 : sw + pad + colW[0] + pad * 2.0);
        const double y = p0.y + pad + lineH * static_cast<double>(k % rows);
        drawSwatch(w, {x, y}, sw, lineH, items[k]);
        w.text({x + sw + pad, y}, palette().kText, items[k].text);
    }
    w.raw("</g>\n");
}

} // namespace

void drawPanel(Writer& w, const SvgPicture& p, const SvgPanel& panel, const ExplainRecord& rec) {
    const VelocityTransform& t = panel.transform;
    const Rect& canvas = panel.canvas;
    const double fs = w.fontSize();
    // The canvas only, a figure on its own: the window's frame, title bar, summary lines and
    // controls are left out (the legend is inside the canvas).
    w.raw("<g id=\"velocity-panel\" data-origin-x=\"" + num(t.origin.x) + "\" data-origin-y=\"" +
          num(t.origin.y) + "\" data-pixels-per-unit=\"" + num(t.pixelsPerUnit) + "\">\n");
    w.raw("<clipPath id=\"clip-panel\"><rect x=\"" + num(canvas.min.x) + "\" y=\"" +
          num(canvas.min.y) + "\" width=\"" + num(canvas.size().x) + "\" height=\"" +
          num(canvas.size().y) + "\"/></clipPath>\n");
    w.raw("<g class=\"canvas\" clip-path=\"url(#clip-panel)\">\n");
    w.rect(canvas, fillAttr(palette().kPanelBackground));
    const bool ownLabels = panel.labels == nullptr;
    drawPanelGrid(w, t, canvas, ownLabels);
    // As VelocityPanel::draw: Solve mode's step, else construction mode's, else the overlays.
    const SolveFrame* solve = p.solve && p.solve->count > 0 ? &*p.solve : nullptr;
    const ConstructionGeometry* construction =
        !solve && p.construction ? &*p.construction : nullptr;
    if (solve)
        drawSolve(w, t, canvas, rec, *solve);
    else if (construction)
        drawConstruction(w, t, canvas, rec, *construction, p.style, ownLabels);
    else
        drawVelocitySpace(w, t, canvas, rec, p.layers, p.style, true, ownLabels);
    w.text(canvas.min + Vec2(6.0, 4.0), panelCaptionColour(), panelSpaceCaption(construction));
    if (rec.lp2Failed() && !solve && !construction)
        w.text(canvas.min + Vec2(6.0, 6.0 + fs * 1.16), palette().kLp3,
               lp2FailedCaption(rec.lp2Fail));
    if (panel.legend)
        drawLegend(w, canvas,
                   solve          ? solveLegend()
                   : construction ? constructionLegend(*construction)
                                  : overlayLegend(rec, p.layers));
    if (panel.labels) {
        // As placeAndDrawLabels draws them: leader line, shadow, text.
        w.raw("<g class=\"labels\">\n");
        const LabelLayout& layout = *panel.labels;
        for (const PlacedLabel& pl : layout.placed()) {
            const LabelRequest& r = layout.requests()[pl.request];
            const Rgba c{static_cast<std::uint8_t>(r.colour & 0xffu),
                         static_cast<std::uint8_t>((r.colour >> 8) & 0xffu),
                         static_cast<std::uint8_t>((r.colour >> 16) & 0xffu),
                         static_cast<std::uint8_t>((r.colour >> 24) & 0xffu)};
            if (pl.leader) {
                const Vec2 q{std::clamp(r.anchor.x, pl.rect.min.x, pl.rect.max.x),
                             std::clamp(r.anchor.y, pl.rect.min.y, pl.rect.max.y)};
                w.line(r.anchor, q, strokeAttr(palette().kTextShadow, 2.5));
                w.line(r.anchor, q, strokeAttr(withAlpha(c, kLabelLeaderAlpha), 1.0));
            }
            w.label(pl.rect.min, c, layout.textOf(pl));
        }
        w.raw("</g>\n");
    }
    w.raw("</g>\n</g>\n");
}

} // namespace orca::ui::svg
