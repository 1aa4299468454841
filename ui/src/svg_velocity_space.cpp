// The explain overlays in velocity space for the SVG export (svg_parts.hpp), as
// explain_overlay.cpp draws them on screen, with the same colours and labels
// (element_colours.hpp, line_style.hpp, label_style.hpp): VO cones, forbidden sides, the
// feasible region, half-planes, u, v / v_pref / v_new and LP3, in the world view and the panel.
#include <string>
#include <vector>

#include "orca/ui/element_colours.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

// forbiddenNormalScreen, rayLengthOut, lineLabelAt, voArcPoints, uArrowTip: explain_geometry.hpp
// (the screen's shapes).

std::string lineAttrs(const ExplainLine& l, std::size_t i) {
    return " data-line=\"" + std::to_string(i) + "\" data-case=\"" +
           std::string(toString(l.lineCase)) + "\"";
}

// The forbidden side: the whole side (panel) and a strip fading away from the line.
void drawShade(Writer& w, const VelocityTransform& t, const Rect& clipVel, const ExplainLine& l,
               std::size_t i, bool wholeSide) {
    const Rgba c = lineColour(l.lineCase);
    if (wholeSide) {
        const SmallPolygon poly = clipRectToHalfPlane(clipVel, l.line, false);
        std::vector<Vec2> pts;
        for (int k = 0; k < poly.count; ++k)
            pts.push_back(t.toScreen(poly.points[static_cast<std::size_t>(k)]));
        if (pts.size() >= 3)
            w.polygon(pts, " class=\"forbidden-side\"" + lineAttrs(l, i) +
                               fillAttr(withAlpha(c, palette().kForbiddenShadeAlpha)));
    }
    const auto seg = clipLineToRect(l.line, clipVel);
    if (!seg) return;
    const Vec2 a = t.toScreen((*seg)[0]);
    const Vec2 b = t.toScreen((*seg)[1]);
    const Vec2 n = forbiddenNormalScreen(l.line) * 12.0;
    const Vec2 m = (a + b) * 0.5;
    const std::string id = w.newId("strip");
    w.raw("<linearGradient id=\"" + id + "\" gradientUnits=\"userSpaceOnUse\" x1=\"" + num(m.x) +
          "\" y1=\"" + num(m.y) + "\" x2=\"" + num(m.x + n.x) + "\" y2=\"" + num(m.y + n.y) +
          "\"><stop offset=\"0\" stop-color=\"" + hex(c) + "\" stop-opacity=\"" +
          opacity(palette().kForbiddenStripAlpha) + "\"/><stop offset=\"1\" stop-color=\"" +
          hex(c) + "\" stop-opacity=\"0\"/></linearGradient>\n");
    const Vec2 quad[] = {a, b, b + n, a + n};
    w.polygon(quad, " class=\"forbidden-side\"" + lineAttrs(l, i) + " fill=\"url(#" + id + ")\"");
}

} // namespace

void drawVo(Writer& w, const VelocityTransform& t, const Rect& clipVel, const VelocityObstacle& vo,
            Vec2 offset, const VoLook& st, const std::string& attrs, bool apexLegs) {
    const double ppu = t.pixelsPerUnit;
    const VoOutline o = voOutline(vo, voArcPoints(vo, ppu));
    if (!o.valid) return;
    w.raw("<g class=\"vo\"" + attrs + ">\n");
    if (o.disk) {
        const Vec2 c = t.toScreen(vo.cutoffCenter + offset);
        w.circle(c, vo.cutoffRadius * ppu, fillAttr(st.fill));
        w.circle(c, vo.cutoffRadius * ppu, strokeAttr(st.outline, st.width));
        w.raw("</g>\n");
        return;
    }
    const Vec2 tl = o.leftTangent + offset;
    const Vec2 tr = o.rightTangent + offset;
    const Vec2 farL = tl + vo.leftLeg * rayLengthOut(tl, clipVel);
    const Vec2 farR = tr + vo.rightLeg * rayLengthOut(tr, clipVel);
    std::vector<Vec2> near;
    for (const Vec2& p : o.nearBoundary)
        near.push_back(t.toScreen(p + offset));
    if (det(vo.rightLeg, vo.leftLeg) > 1e-9) {
        std::vector<Vec2> fill = near;
        fill.push_back(t.toScreen(farR));
        fill.push_back(t.toScreen(farL));
        w.polygon(fill, fillAttr(st.fill));
    }
    w.polyline(near, strokeAttr(st.outline, st.width));
    const Dash legDash = st.dashedLegs ? Dash{6.0f, 4.0f} : Dash{};
    w.line(t.toScreen(tl), t.toScreen(farL), strokeAttr(st.outline, st.width, legDash));
    w.line(t.toScreen(tr), t.toScreen(farR), strokeAttr(st.outline, st.width, legDash));
    if (apexLegs) {
        // Construction: the untruncated legs from the apex and the whole cut-off circle, faint.
        const Rgba faint = withAlpha(st.outline, 120);
        const Vec2 apex = t.toScreen(offset);
        w.line(apex, t.toScreen(tl), strokeAttr(faint, 1.0, {4.0f, 4.0f}));
        w.line(apex, t.toScreen(tr), strokeAttr(faint, 1.0, {4.0f, 4.0f}));
        w.circle(t.toScreen(vo.cutoffCenter + offset), vo.cutoffRadius * ppu,
                 strokeAttr(faint, 1.0));
    }
    w.raw("</g>\n");
}

void drawVelocitySpace(Writer& w, const VelocityTransform& t, const Rect& clip,
                       const ExplainRecord& rec, const OverlayLayers& layers,
                       const OverlayStyle& style, bool panel, bool labels) {
    if (rec.isStatic) return;
    const Rect clipVel = t.toVelocity(clip);
    const double th = style.lineThickness;
    const double ppu = t.pixelsPerUnit;

    if (layers.voCones) {
        w.raw("<g class=\"vo-cones\">\n");
        const VoLook dim = voLook(VoRole::Skipped);
        if (panel)
            for (const ExplainObstacleNeighbor& on : rec.obstacleNeighbors)
                if (on.hasVo && on.lineIndex < 0)
                    drawVo(w, t, clipVel, on.vo, on.vo.offset, dim, " data-skipped=\"true\"");
        const VoLook normal = voLook(panel ? VoRole::Panel : VoRole::World);
        for (std::size_t i = 0; i < rec.lines.size(); ++i)
            drawVo(w, t, clipVel, rec.lines[i].vo, rec.lines[i].vo.offset, normal,
                   lineAttrs(rec.lines[i], i));
        w.raw("</g>\n");
    }

    if (layers.halfPlanes) {
        w.raw("<g class=\"forbidden-sides\">\n");
        for (std::size_t i = 0; i < rec.lines.size(); ++i)
            drawShade(w, t, clipVel, rec.lines[i], i, panel);
        w.raw("</g>\n");
    }

    if (layers.feasibleRegion && !rec.feasibleRegion.empty()) {
        std::vector<Vec2> pts;
        for (const Vec2& p : rec.feasibleRegion)
            pts.push_back(t.toScreen(p));
        w.polygon(pts, " class=\"feasible-region\"" + fillAttr(palette().kFeasibleFill));
        w.polygon(pts, strokeAttr(palette().kFeasibleOutline, 1.0));
    }
    const Vec2 o = t.toScreen({0.0, 0.0});
    if (layers.feasibleRegion || layers.velocityArrows)
        w.circle(o, rec.params.maxSpeed * ppu,
                 " class=\"max-speed\"" + strokeAttr(palette().kMaxSpeed, 1.0));

    if (layers.halfPlanes) {
        w.raw("<g class=\"half-planes\">\n");
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const ExplainLine& l = rec.lines[i];
            const auto seg = clipLineToRect(l.line, clipVel);
            const Vec2 a = seg ? t.toScreen((*seg)[0]) : t.toScreen(l.line.point);
            const Vec2 b = seg ? t.toScreen((*seg)[1]) : t.toScreen(l.line.point);
            if (rec.lp2Failed() && i == rec.lp2Fail && seg)
                w.line(a, b, " class=\"lp2-fail\"" + strokeAttr(lp2FailColour(), th + 4.0));
            // One path per line of the record, also when the line misses the view (then a
            // zero-length path at its point), so readers can count and look up lines.
            w.line(a, b,
                   " class=\"half-plane\"" + lineAttrs(l, i) +
                       strokeAttr(lineColour(l.lineCase), th, dashOf(familyOf(l.lineCase))));
        }
        w.raw("</g>\n");
    }

    const Vec2 vS = t.toScreen(rec.velocity);
    if (layers.uVectors) {
        w.raw("<g class=\"u-vectors\">\n");
        for (const ExplainLine& l : rec.lines) {
            const Vec2 target = uArrowTip(rec, l);
            const Vec2 ts = t.toScreen(target);
            w.arrow(vS, ts, uArrowColour(l.lineCase), 1.0);
            w.marker(ts, lineColour(l.lineCase), 2.5);
        }
        w.raw("</g>\n");
    }

    if (layers.halfPlanes && labels && lineLabelled(panel, false)) {
        w.raw("<g class=\"line-labels\" font-size=\"" + num(w.fontSize()) + "\">\n");
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const Line& l = rec.lines[i].line;
            const auto at = lineLabelAt(l, clipVel);
            if (!at) continue;
            const Vec2 s = t.toScreen(*at) - forbiddenNormalScreen(l) * 9.0 - Vec2(3.0, 7.0);
            const OverlayLabel ll = lineLabel(i, rec.lines[i].lineCase, false);
            w.label(s, ll.colour, ll.text);
        }
        w.raw("</g>\n");
    }

    const bool detouring = showsDetour(rec, layers);
    if (layers.velocityArrows) {
        w.raw("<g class=\"velocities\">\n");
        const double at = th + 0.5;
        if (detouring) {
            w.arrow(o, t.toScreen(rec.detour.goalPrefVelocity), goalPrefArrowColour(), 1.0,
                    {3.0, 4.0}, "v-pref-goal");
            if (labels) {
                const OverlayLabel gl = goalPrefLabel();
                w.label(t.toScreen(rec.detour.goalPrefVelocity) + Vec2(6.0, 2.0),
                        withAlpha(gl.colour, kGoalPrefLabelAlphaSvg), gl.text);
            }
        }
        const Rgba prefCol = prefArrowColour(detouring);
        w.arrow(o, t.toScreen(rec.prefVelocity), prefCol, at, {6.0, 4.0}, "v-pref");
        w.arrow(o, vS, palette().kArrowV, at, {}, "v");
        const Vec2 nS = t.toScreen(rec.newVelocity);
        w.arrow(o, nS, palette().kArrowNew, at, {}, "v-new");
        w.circle(nS, 5.0, strokeAttr(palette().kArrowNew, 1.5));
        const Lp3Marker m = lp3Marker(rec);
        if (m.valid) {
            const Vec2 fS = t.toScreen(m.foot);
            if (m.depth > 0.0) {
                w.line(nS, fS, strokeAttr(palette().kLp3, 2.0));
                const Vec2 d = fS - nS;
                const double len = length(d);
                if (len > 1e-6) {
                    const Vec2 tick = perp(d / len) * 4.0;
                    w.line(fS - tick, fS + tick, strokeAttr(palette().kLp3, 2.0));
                }
            }
            const Vec2 dia[] = {nS + Vec2(0.0, -6.0), nS + Vec2(6.0, 0.0), nS + Vec2(0.0, 6.0),
                                nS + Vec2(-6.0, 0.0)};
            const Rgba outline = lp3MarkerOutlineSvg();
            w.polygon(dia, " class=\"lp3\"" + fillAttr(palette().kLp3) + " stroke=\"" +
                               hex(outline) + "\" stroke-opacity=\"" + opacity(outline.a) +
                               "\" stroke-width=\"1\"");
            if (labels) {
                const OverlayLabel ll = lp3Label(m.depth);
                w.label(nS + Vec2(8.0, 4.0), ll.colour, ll.text);
            }
        }
        const double fh = w.fontSize();
        if (labels) {
            const OverlayLabel vl = velocityLabel();
            const OverlayLabel pl = prefVelocityLabel(detouring);
            w.label(vS + Vec2(-12.0, -fh - 2.0), vl.colour, vl.text);
            w.label(t.toScreen(rec.prefVelocity) + Vec2(6.0, -fh - 2.0), pl.colour, pl.text);
            if (newVelocityLabelled(m)) {
                const OverlayLabel nl = newVelocityLabel();
                w.label(nS + Vec2(7.0, 3.0), nl.colour, nl.text);
            }
        }
        w.raw("</g>\n");
    }
}

} // namespace orca::ui::svg
