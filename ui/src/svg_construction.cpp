// Construction mode in the SVG export (svg_parts.hpp), as explain_overlay.cpp's
// drawConstruction and drawConstructionInWorld draw it on screen, from the same
// ConstructionGeometry (explain_geometry.hpp): the neighbour's VO with v_A - v_B and u in
// relative space (phases 0-1), the half-plane through v_A + share·u with its permitted side in
// A's absolute space (phase 2).
#include <string>
#include <vector>

#include "orca/ui/explain_text.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

// A strip `width` wide on the side `normal` (unit, screen) of the segment a-b, fading away
// from it (explain_overlay.cpp's gradientStrip).
void strip(Writer& w, Vec2 a, Vec2 b, Vec2 normal, double width, Rgba c, std::uint8_t alpha) {
    const Vec2 n = normal * sc(width);
    const Vec2 m = (a + b) * 0.5;
    const std::string id = w.newId("strip");
    w.raw("<linearGradient id=\"" + id + "\" gradientUnits=\"userSpaceOnUse\" x1=\"" + num(m.x) +
          "\" y1=\"" + num(m.y) + "\" x2=\"" + num(m.x + n.x) + "\" y2=\"" + num(m.y + n.y) +
          "\"><stop offset=\"0\" stop-color=\"" + hex(c) + "\" stop-opacity=\"" + opacity(alpha) +
          "\"/><stop offset=\"1\" stop-color=\"" + hex(c) +
          "\" stop-opacity=\"0\"/></linearGradient>\n");
    const Vec2 quad[] = {a, b, b + n, a + n};
    w.polygon(quad, " fill=\"url(#" + id + ")\"");
}

void lineIn(Writer& w, const VelocityTransform& t, const Rect& clipVel, const Line& line,
            const std::string& attrs) {
    if (const auto seg = clipLineToRect(line, clipVel))
        w.line(t.toScreen((*seg)[0]), t.toScreen((*seg)[1]), attrs);
}

std::string lineAttr(const ConstructionGeometry& g) {
    return " data-line=\"" + std::to_string(g.line) + "\" data-phase=\"" + std::to_string(g.phase) +
           "\"";
}

} // namespace

void drawConstruction(Writer& w, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, const ConstructionGeometry& g,
                      const OverlayStyle& style, bool labels) {
    const Palette& pal = palette();
    const Rect clipVel = t.toVelocity(clip);
    const double th = style.lineThickness;
    const double fh = w.fontSize();
    const Vec2 o = t.toScreen({0.0, 0.0});
    w.raw("<g class=\"construction\"" + lineAttr(g) + ">\n");
    if (g.relativeSpace) {
        drawVo(w, t, clipVel, g.vo, {0.0, 0.0}, voLook(VoRole::Highlighted),
               " data-space=\"relative\"", true);
        w.marker(o, pal.kText, 3.0);
        const Vec2 rv = t.toScreen(g.relativeVelocity);
        w.arrow(o, rv, pal.kArrowRelative, th + 0.5, {}, "relative-velocity");
        if (labels) {
            w.label(o + Vec2(6.0, 4.0), pal.kText, "apex (0, 0)");
            w.label(rv + Vec2(6.0, -fh - 2.0), pal.kArrowRelative,
                    g.obstacle ? "v_A" : "v_A - v_B");
        }
        if (g.phase >= 1) {
            const Vec2 u = g.uEnd - g.relativeVelocity;
            const double len = length(u);
            if (len > 0.0)
                lineIn(w, t, clipVel, Line{g.uEnd, perp(u / len)},
                       strokeAttr(withAlpha(pal.kU, 110), 1.0, {6.0f, 4.0f}));
            const Vec2 ue = t.toScreen(g.uEnd);
            w.arrow(rv, ue, pal.kU, th + 1.0, {}, "u");
            w.marker(ue, pal.kU, 3.5);
            if (labels) w.label((rv + ue) * 0.5 + Vec2(6.0, -fh * 0.5), pal.kU, "u");
        }
        w.raw("</g>\n");
        return;
    }
    // Phase 2: A's absolute velocity space.
    const SmallPolygon permitted = clipRectToHalfPlane(clipVel, g.halfPlane, true);
    std::vector<Vec2> pts;
    for (int i = 0; i < permitted.count; ++i)
        pts.push_back(t.toScreen(permitted.points[static_cast<std::size_t>(i)]));
    w.polygon(pts, " class=\"permitted-side\"" + fillAttr(pal.kPermittedFill));
    const VoLook faint{withAlpha(pal.kVo, static_cast<std::uint8_t>(pal.kVo.a / 2)), pal.kVoFill,
                       1.0f, true};
    drawVo(w, t, clipVel, g.vo, g.vo.offset, faint, " data-space=\"absolute\"");
    w.circle(o, rec.params.maxSpeed * t.pixelsPerUnit,
             " class=\"max-speed\"" + strokeAttr(pal.kMaxSpeed, 1.0));
    lineIn(w, t, clipVel, g.halfPlane,
           " class=\"construction-line\"" +
               strokeAttr(g.obstacle ? pal.kLineObstacle : pal.kLineAgent, th + 0.5));
    if (!g.obstacle) { // an obstacle's velocity is zero: no v_B
        const Vec2 vb = t.toScreen(g.vo.offset);
        w.arrow(o, vb, withAlpha(pal.kArrowPref, 150), 1.0, {4.0f, 3.0f}, "v-b");
        if (labels) w.label(vb + Vec2(6.0, 4.0), pal.kArrowPref, "v_B");
    }
    const Vec2 va = t.toScreen(g.velocity);
    w.arrow(o, va, pal.kArrowV, th + 0.5, {}, "v");
    const Vec2 q = t.toScreen(g.halfPlane.point);
    w.arrow(va, q, pal.kU, th + 1.0, {}, "u");
    w.marker(q, pal.kU, 3.5);
    if (labels) {
        w.label(va + Vec2(6.0, -fh - 2.0), pal.kArrowV, "v_A");
        // "v_A + ½u" (agents at RVO2's share), "v_A + u" (obstacles): the recorded share.
        w.label(q + Vec2(8.0, -fh * 0.5), pal.kU, "v_A + " + shareOfU(g.share));
    }
    w.raw("</g>\n");
}

void drawConstructionInWorld(Writer& w, const VelocityTransform& t, const Rect& clip,
                             const ExplainRecord& rec, const ConstructionGeometry& g,
                             const OverlayStyle& style) {
    if (g.line < 0 || static_cast<std::size_t>(g.line) >= rec.lines.size()) return;
    const Palette& pal = palette();
    const Rect clipVel = t.toVelocity(clip);
    const double th = style.lineThickness;
    const LineCase lineCase = rec.lines[static_cast<std::size_t>(g.line)].lineCase;
    w.raw("<g class=\"construction\"" + lineAttr(g) + ">\n");
    drawVo(w, t, clipVel, g.vo, g.vo.offset, voLook(VoRole::Highlighted), {});
    const Vec2 o = t.toScreen({0.0, 0.0});
    const Vec2 va = t.toScreen(g.velocity);
    w.arrow(o, va, pal.kArrowV, th + 0.5, {}, "v");
    if (g.phase >= 2) {
        if (const auto seg = clipLineToRect(g.halfPlane, clipVel))
            strip(w, t.toScreen((*seg)[0]), t.toScreen((*seg)[1]),
                  -forbiddenNormalScreen(g.halfPlane), 12.0, pal.kPermittedFill, 140);
        lineIn(w, t, clipVel, g.halfPlane,
               " class=\"construction-line\"" + strokeAttr(lineColour(lineCase), th * 2.0));
    }
    if (g.phase >= 1) {
        // u from v_A in A's absolute space (relative + v_B = absolute), and the line's point.
        const Vec2 ue = t.toScreen(g.velocity + (g.uEnd - g.relativeVelocity));
        w.arrow(va, ue, pal.kU, th + 1.0, {}, "u");
        w.marker(ue, pal.kU, 3.5);
        w.label((va + ue) * 0.5 + Vec2(6.0, -w.fontSize() * 0.5), pal.kU, "u");
        if (g.phase >= 2 && !g.obstacle) w.marker(t.toScreen(g.halfPlane.point), pal.kU, 3.0);
    }
    w.raw("</g>\n");
}

} // namespace orca::ui::svg
