#include "orca/ui/explain_overlay.hpp"

#include <algorithm>
#include <cmath>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/style.hpp"

namespace orca::ui {

namespace {

using ui::col; // beside the alpha-scaling overload below
ImU32 col(Rgba c, float alphaScale) {
    return col(scaledAlpha(c, alphaScale));
}
// Halfway to the highlight colour (white on dark, black on light): the emphasised version.
Rgba brighter(Rgba c) {
    const Rgba h = palette().kHighlight;
    auto mix = [](std::uint8_t v, std::uint8_t w) {
        return static_cast<std::uint8_t>((v + w) / 2);
    };
    return {mix(c.r, h.r), mix(c.g, h.g), mix(c.b, h.b), c.a};
}

// ---- Line styling ----------------------------------------------------------------------------

// familyOf, lineColour, Dash, dashOf: line_style.hpp.

// Thickness and dash lengths are given at 100 % UI scale.
void dashedLine(ImDrawList& dl, Vec2 a, Vec2 b, ImU32 c, float thickness, Dash dash) {
    thickness = stroke(thickness);
    dash.on = stroke(dash.on);
    dash.off = stroke(dash.off);
    if (dash.on <= 0.0f) {
        dl.AddLine(toIm(a), toIm(b), c, thickness);
        return;
    }
    const Vec2 d = b - a;
    const double len = length(d);
    if (len <= 0.0) return;
    const Vec2 u = d / len;
    const double period = static_cast<double>(dash.on + dash.off);
    // The dash count is bounded by the clipped length (callers clip to the view first).
    const int n = static_cast<int>(std::min(len / period, 4000.0));
    for (int i = 0; i <= n; ++i) {
        const double s = i * period;
        const double e = std::min(s + static_cast<double>(dash.on), len);
        if (s >= len) break;
        dl.AddLine(toIm(a + u * s), toIm(a + u * e), c, thickness);
    }
}

void arrow(ImDrawList& dl, Vec2 from, Vec2 to, ImU32 c, float thickness, Dash dash = {}) {
    const Vec2 d = to - from;
    const double len = length(d);
    if (len < 1.0) return;
    const Vec2 u = d / len;
    const double head = std::min(static_cast<double>(stroke(9.0f)), 0.45 * len);
    const Vec2 base = to - u * head;
    const Vec2 side = perp(u) * (head * 0.45);
    dashedLine(dl, from, base, c, thickness, dash);
    dl.AddTriangleFilled(toIm(to), toIm(base + side), toIm(base - side), c);
}

// Convex polygon fill; ImGui's anti-aliased fill wants clockwise order on screen (y down).
void fillConvex(ImDrawList& dl, std::vector<ImVec2>& pts, ImU32 c) {
    if (pts.size() < 3) return;
    double area = 0.0;
    for (std::size_t i = 0, j = pts.size() - 1; i < pts.size(); j = i++)
        area += static_cast<double>(pts[j].x) * pts[i].y - static_cast<double>(pts[i].x) * pts[j].y;
    if (area < 0.0) std::reverse(pts.begin(), pts.end());
    dl.AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), c);
}

// A quad from segment (a, b) towards `normal` (unit, screen) of `width`, alpha fading to 0:
// a cheap gradient strip on the forbidden side of a line.
void gradientStrip(ImDrawList& dl, Vec2 a, Vec2 b, Vec2 normal, double width, Rgba c,
                   std::uint8_t alpha) {
    const ImVec2 uv = ImGui::GetFontTexUvWhitePixel();
    dl.PrimReserve(6, 4);
    const auto base = static_cast<ImDrawIdx>(dl._VtxCurrentIdx);
    dl.PrimWriteVtx(toIm(a), uv, col(c, alpha));
    dl.PrimWriteVtx(toIm(b), uv, col(c, alpha));
    dl.PrimWriteVtx(toIm(b + normal * width), uv, col(c, std::uint8_t{0}));
    dl.PrimWriteVtx(toIm(a + normal * width), uv, col(c, std::uint8_t{0}));
    for (const int k : {0, 1, 2, 0, 2, 3})
        dl.PrimWriteIdx(static_cast<ImDrawIdx>(base + k));
}

// Labels are laid out, not drawn here: see placeAndDrawLabels().
void label(LabelLayout& labels, Vec2 anchor, ImU32 c, const char* text, int priority,
           LabelSide side, const char* shortText = nullptr) {
    labels.add(labelRequest(anchor, text, c, priority, side, shortText));
}
// One of label_style.hpp's.
void label(LabelLayout& labels, Vec2 anchor, const OverlayLabel& l) {
    label(labels, anchor, col(l.colour), l.text.c_str(), l.priority, l.side, l.shortText);
}

// The style with a label layout: the caller's, or `local` (then placed and drawn by the
// caller of this helper when it is done).
OverlayStyle withLabels(const OverlayStyle& style, LabelLayout& local) {
    OverlayStyle s = style;
    if (!s.labels) {
        local.clear();
        s.labels = &local;
    }
    return s;
}

// Scratch buffers reused across frames (the UI thread is the only caller).
struct Scratch {
    std::vector<ImVec2> screen;
    VoOutline outline;
};
Scratch& scratch() {
    static Scratch s;
    return s;
}

// ---- VO drawing --------------------------------------------------------------------------------

struct VoStyle {
    ImU32 outline;
    ImU32 fill;
    float thickness;
    bool dashedOutline = false;
    bool apexLegs = false; // construction: the untruncated part of the legs from the apex
};
VoStyle voStyle(VoRole role, bool apexLegs = false) {
    const VoLook l = voLook(role);
    return {col(l.outline), col(l.fill), l.width, l.dashedLegs, apexLegs};
}

// Draws `vo` shifted by `offset` (relative → absolute when offset = vo.offset).
void drawVo(ImDrawList& dl, const VelocityTransform& t, const Rect& clipVel,
            const VelocityObstacle& vo, Vec2 offset, const VoStyle& st) {
    Scratch& s = scratch();
    const double ppu = t.pixelsPerUnit;
    voOutline(vo, voArcPoints(vo, ppu), s.outline);
    const VoOutline& o = s.outline;
    if (!o.valid) return;
    if (o.disk) {
        const ImVec2 c = toIm(t.toScreen(vo.cutoffCenter + offset));
        const auto r = static_cast<float>(vo.cutoffRadius * ppu);
        dl.AddCircleFilled(c, r, st.fill, 0);
        dl.AddCircle(c, r, st.outline, 0, stroke(st.thickness));
        return;
    }
    const Vec2 tl = o.leftTangent + offset;
    const Vec2 tr = o.rightTangent + offset;
    const Vec2 farL = tl + vo.leftLeg * rayLengthOut(tl, clipVel);
    const Vec2 farR = tr + vo.rightLeg * rayLengthOut(tr, clipVel);
    // Fill: near boundary, then out along the right leg and back along the left one. Convex
    // while the legs diverge (always for agents; foreign obstacle legs may not).
    s.screen.clear();
    for (const Vec2& p : o.nearBoundary)
        s.screen.push_back(toIm(t.toScreen(p + offset)));
    const bool diverge = det(vo.rightLeg, vo.leftLeg) > 1e-9;
    if (diverge) {
        s.screen.push_back(toIm(t.toScreen(farR)));
        s.screen.push_back(toIm(t.toScreen(farL)));
        fillConvex(dl, s.screen, st.fill);
        // fillConvex may have reversed the points: rebuild the near boundary for the outline.
        s.screen.clear();
        for (const Vec2& p : o.nearBoundary)
            s.screen.push_back(toIm(t.toScreen(p + offset)));
    }
    dl.AddPolyline(s.screen.data(), static_cast<int>(s.screen.size()), st.outline, ImDrawFlags_None,
                   stroke(st.thickness));
    const Dash legDash = st.dashedOutline ? Dash{6.0f, 4.0f} : Dash{};
    dashedLine(dl, t.toScreen(tl), t.toScreen(farL), st.outline, st.thickness, legDash);
    dashedLine(dl, t.toScreen(tr), t.toScreen(farR), st.outline, st.thickness, legDash);
    if (st.apexLegs) {
        const Vec2 apex = t.toScreen(offset);
        const ImU32 faint = (st.outline & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, 120);
        dashedLine(dl, apex, t.toScreen(tl), faint, 1.0f, {4.0f, 4.0f});
        dashedLine(dl, apex, t.toScreen(tr), faint, 1.0f, {4.0f, 4.0f});
        // The whole cut-off circle(s), dashed: the VO is truncated where the cone meets them.
        const auto r = static_cast<float>(vo.cutoffRadius * ppu);
        dl.AddCircle(toIm(t.toScreen(vo.cutoffCenter + offset)), r, faint, 0, stroke(1.0f));
    }
}

// ---- Half-plane drawing ------------------------------------------------------------------------

void drawHalfPlaneShade(ImDrawList& dl, const VelocityTransform& t, const Rect& clipVel,
                        const Line& line, Rgba c, bool wholeSide, bool permitted,
                        std::uint8_t wholeAlpha, std::uint8_t stripAlpha) {
    if (wholeSide) {
        const SmallPolygon poly = clipRectToHalfPlane(clipVel, line, permitted);
        Scratch& s = scratch();
        s.screen.clear();
        for (int i = 0; i < poly.count; ++i)
            s.screen.push_back(toIm(t.toScreen(poly.points[static_cast<std::size_t>(i)])));
        fillConvex(dl, s.screen, col(c, wholeAlpha));
    }
    if (stripAlpha == 0) return;
    const auto seg = clipLineToRect(line, clipVel);
    if (!seg) return;
    Vec2 n = forbiddenNormalScreen(line);
    if (permitted) n = -n;
    gradientStrip(dl, t.toScreen((*seg)[0]), t.toScreen((*seg)[1]), n, stroke(12.0f), c,
                  stripAlpha);
}

void drawLine(ImDrawList& dl, const VelocityTransform& t, const Rect& clipVel, const Line& line,
              ImU32 c, float thickness, Dash dash) {
    const auto seg = clipLineToRect(line, clipVel);
    if (!seg) return;
    dashedLine(dl, t.toScreen((*seg)[0]), t.toScreen((*seg)[1]), c, thickness, dash);
}

void marker(ImDrawList& dl, Vec2 s, ImU32 c, float r) {
    dl.AddCircleFilled(toIm(s), stroke(r), c, 12);
}
void diamond(ImDrawList& dl, Vec2 s, ImU32 c, float r) {
    r = stroke(r);
    const ImVec2 p = toIm(s);
    dl.AddQuadFilled({p.x, p.y - r}, {p.x + r, p.y}, {p.x, p.y + r}, {p.x - r, p.y}, c);
    dl.AddQuad({p.x, p.y - r}, {p.x + r, p.y}, {p.x, p.y + r}, {p.x - r, p.y},
               col(lp3MarkerOutline()), stroke(1.0f));
}

} // namespace

// ---- Labels -----------------------------------------------------------------------------------

LabelRequest labelRequest(Vec2 anchor, const char* text, ImU32 colour, int priority, LabelSide side,
                          const char* shortText) {
    LabelRequest r;
    r.anchor = anchor;
    r.text = text;
    const ImVec2 ts = ImGui::CalcTextSize(text);
    r.size = {static_cast<double>(ts.x), static_cast<double>(ts.y)};
    if (shortText) {
        r.shortText = shortText;
        const ImVec2 ss = ImGui::CalcTextSize(shortText);
        r.shortSize = {static_cast<double>(ss.x), static_cast<double>(ss.y)};
    }
    r.priority = priority;
    r.side = side;
    r.colour = colour;
    return r;
}

void placeAndDrawLabels(ImDrawList& dl, LabelLayout& labels, const Rect& bounds) {
    labels.gap = stroke(6.0f);
    labels.padding = stroke(1.0f);
    labels.place(bounds);
    const ImU32 shadow = col(palette().kTextShadow);
    const ImU32 plate = col(labelPlateColour());
    const float off = stroke(1.0f);
    for (const PlacedLabel& p : labels.placed()) {
        const LabelRequest& r = labels.requests()[p.request];
        if (p.leader) {
            // From the anchor to the nearest point of the label's rectangle.
            const Vec2 q{std::clamp(r.anchor.x, p.rect.min.x, p.rect.max.x),
                         std::clamp(r.anchor.y, p.rect.min.y, p.rect.max.y)};
            dl.AddLine(toIm(r.anchor), toIm(q), shadow, stroke(2.5f));
            dl.AddLine(toIm(r.anchor), toIm(q),
                       (r.colour & ~IM_COL32_A_MASK) | IM_COL32(0, 0, 0, kLabelLeaderAlpha),
                       stroke(1.0f));
        }
        const char* text = labels.textOf(p).c_str();
        const ImVec2 at = toIm(p.rect.min);
        // A translucent plate in the shadow colour: labels stay legible over lines and fills.
        dl.AddRectFilled({at.x - off, at.y}, toIm(p.rect.max + Vec2(off, 0.0)), plate,
                         stroke(2.0f));
        dl.AddText({at.x + off, at.y + off}, shadow, text);
        dl.AddText(at, r.colour, text);
    }
}

// ---- Text -------------------------------------------------------------------------------------

void showHoverTooltip(const ExplainRecord& rec, const OverlayHover& hover,
                      std::string_view neighborName) {
    if (!hover.valid() || static_cast<std::size_t>(hover.line) >= rec.lines.size()) return;
    const std::string text = describeLine(rec, hover.line, neighborName);
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 30.0f);
    ImGui::TextUnformatted(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

const ImWchar* overlayGlyphRanges() {
    static const ImWchar ranges[] = {
        0x0020, 0x00FF, // Basic Latin + Latin-1 (·, ¼, ½, ¾, ²)
        0x0370, 0x03FF, // Greek (τ, Δ)
        0x2010, 0x205E, // punctuation (–, —, …)
        0x2190, 0x21FF, // arrows
        0x2200, 0x22FF, // mathematical operators (∞, −, ∩)
        0,
    };
    return ranges;
}

// ---- Drawing ----------------------------------------------------------------------------------

void drawVelocitySpace(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                       const ExplainRecord& rec, const OverlayLayers& layers,
                       const OverlayStyle& style, const OverlayHover& highlight, OverlayView view) {
    if (rec.isStatic) return;
    LabelLayout localLabels;
    LabelLayout& labels = *withLabels(style, localLabels).labels;
    const Rect clipVel = t.toVelocity(clip);
    const float th = style.lineThickness;
    const bool panel = view == OverlayView::Panel;
    const int hl =
        highlight.line >= 0 && static_cast<std::size_t>(highlight.line) < rec.lines.size()
            ? highlight.line
            : -1;
    const double ppu = t.pixelsPerUnit;

    // 1. VO cones: skipped obstacle segments (dim), then every line's VO, highlighted last.
    if (layers.voCones) {
        // Obstacle segments that built no line (covered, foreign leg...): dim, panel only.
        const VoStyle dim = voStyle(VoRole::Skipped);
        if (panel)
            for (const ExplainObstacleNeighbor& on : rec.obstacleNeighbors)
                if (on.hasVo && on.lineIndex < 0) drawVo(dl, t, clipVel, on.vo, on.vo.offset, dim);
        // The world view has many cones over the crowd: lighter there.
        const VoStyle normal = voStyle(panel ? VoRole::Panel : VoRole::World);
        for (std::size_t i = 0; i < rec.lines.size(); ++i)
            if (static_cast<int>(i) != hl)
                drawVo(dl, t, clipVel, rec.lines[i].vo, rec.lines[i].vo.offset, normal);
        if (hl >= 0) {
            const VoStyle emph = voStyle(VoRole::Highlighted);
            const VelocityObstacle& vo = rec.lines[static_cast<std::size_t>(hl)].vo;
            drawVo(dl, t, clipVel, vo, vo.offset, emph);
        }
    }

    // 2. Forbidden sides of the half-planes.
    if (layers.halfPlanes) {
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const ExplainLine& l = rec.lines[i];
            const bool h = static_cast<int>(i) == hl;
            drawHalfPlaneShade(dl, t, clipVel, l.line, lineColour(l.lineCase), panel, false,
                               palette().kForbiddenShadeAlpha,
                               h ? std::uint8_t{140} : palette().kForbiddenStripAlpha);
        }
    }

    // 3. Feasible region and the max-speed disk.
    if (layers.feasibleRegion && !rec.feasibleRegion.empty()) {
        Scratch& s = scratch();
        s.screen.clear();
        for (const Vec2& p : rec.feasibleRegion)
            s.screen.push_back(toIm(t.toScreen(p)));
        fillConvex(dl, s.screen, col(palette().kFeasibleFill));
        dl.AddPolyline(s.screen.data(), static_cast<int>(s.screen.size()),
                       col(palette().kFeasibleOutline), ImDrawFlags_Closed, stroke(1.0f));
    }
    const Vec2 o = t.toScreen({0.0, 0.0});
    if (layers.feasibleRegion || layers.velocityArrows)
        dl.AddCircle(toIm(o), static_cast<float>(rec.params.maxSpeed * ppu),
                     col(palette().kMaxSpeed), 0, stroke(1.0f));

    // 4. The lines, by case, the LP2 failure marked, the highlighted one on top.
    if (layers.halfPlanes) {
        auto drawOne = [&](std::size_t i, bool h) {
            const ExplainLine& l = rec.lines[i];
            const Rgba c = lineColour(l.lineCase);
            const Dash dash = dashOf(familyOf(l.lineCase));
            if (rec.lp2Failed() && i == rec.lp2Fail)
                drawLine(dl, t, clipVel, l.line, col(lp2FailColour()), th + 4.0f, {});
            if (h) drawLine(dl, t, clipVel, l.line, IM_COL32(0, 0, 0, 160), th * 2.0f + 3.0f, {});
            drawLine(dl, t, clipVel, l.line, col(h ? brighter(c) : c), h ? th * 2.0f : th, dash);
        };
        for (std::size_t i = 0; i < rec.lines.size(); ++i)
            if (static_cast<int>(i) != hl) drawOne(i, false);
        if (hl >= 0) drawOne(static_cast<std::size_t>(hl), true);
    }

    // 5. u: v -> uArrowTip, the line's point v + share·u (agents) or v + u (obstacles).
    const Vec2 vS = t.toScreen(rec.velocity);
    if (layers.uVectors) {
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const ExplainLine& l = rec.lines[i];
            const bool h = static_cast<int>(i) == hl;
            const Vec2 target = uArrowTip(rec, l);
            const Rgba c = lineColour(l.lineCase);
            const Vec2 ts = t.toScreen(target);
            arrow(dl, vS, ts, h ? col(brighter(c)) : col(uArrowColour(l.lineCase)),
                  h ? 2.0f : 1.0f);
            marker(dl, ts, col(c), h ? 4.0f : 2.5f);
        }
    }

    // 6. Line indices (panel: all; world: the highlighted one).
    if (layers.halfPlanes) {
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const bool h = static_cast<int>(i) == hl;
            if (!lineLabelled(panel, h)) continue;
            const Line& l = rec.lines[i].line;
            const auto at = lineLabelAt(l, clipVel);
            if (!at) continue;
            // Off the line on its permitted side, if there is room.
            OverlayLabel ll = lineLabel(i, rec.lines[i].lineCase, h);
            ll.side = labelSideToward(-forbiddenNormalScreen(l));
            label(labels, t.toScreen(*at), ll);
        }
    }

    // 7. v, v_pref, v_new and LP3. While the agent detours, ORCA's v_pref is the detour
    //    direction (drawn in the detour colour) and the goal's v_pref is shown beside it.
    const bool detouring = showsDetour(rec, layers);
    if (layers.velocityArrows) {
        const float at = th + 0.5f;
        if (detouring) {
            arrow(dl, o, t.toScreen(rec.detour.goalPrefVelocity), col(goalPrefArrowColour()), 1.0f,
                  {3.0f, 4.0f});
            label(labels, t.toScreen(rec.detour.goalPrefVelocity), goalPrefLabel());
        }
        arrow(dl, o, t.toScreen(rec.prefVelocity), col(prefArrowColour(detouring)), at,
              {6.0f, 4.0f});
        arrow(dl, o, vS, col(palette().kArrowV), at);
        const Vec2 nS = t.toScreen(rec.newVelocity);
        arrow(dl, o, nS, col(palette().kArrowNew), at);
        dl.AddCircle(toIm(nS), stroke(5.0f), col(palette().kArrowNew), 12, stroke(1.5f));
        const Lp3Marker m = lp3Marker(rec);
        if (m.valid) {
            const Vec2 fS = t.toScreen(m.foot);
            if (m.depth > 0.0) {
                dl.AddLine(toIm(nS), toIm(fS), col(palette().kLp3), stroke(2.0f));
                const Vec2 d = fS - nS;
                const double len = length(d);
                if (len > 1e-6) {
                    const Vec2 tick = perp(d / len) * static_cast<double>(stroke(4.0f));
                    dl.AddLine(toIm(fS - tick), toIm(fS + tick), col(palette().kLp3), stroke(2.0f));
                }
            }
            diamond(dl, nS, col(palette().kLp3), 6.0f);
            label(labels, nS, lp3Label(m.depth));
        }
        // Labels at the tips, first tried v above-left, v_pref above-right, v_new below-right
        // (the three often nearly coincide; the layout moves them apart).
        label(labels, vS, velocityLabel());
        label(labels, t.toScreen(rec.prefVelocity), prefVelocityLabel(detouring));
        if (newVelocityLabelled(m)) label(labels, nS, newVelocityLabel());
    }
    if (!style.labels) placeAndDrawLabels(dl, localLabels, clip);
}

void drawConstruction(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, const ConstructionGeometry& g,
                      const OverlayStyle& style) {
    LabelLayout localLabels;
    LabelLayout& labels = *withLabels(style, localLabels).labels;
    const Rect clipVel = t.toVelocity(clip);
    const float th = style.lineThickness;
    const Vec2 o = t.toScreen({0.0, 0.0});
    if (g.relativeSpace) {
        drawVo(dl, t, clipVel, g.vo, {0.0, 0.0}, voStyle(VoRole::Highlighted, true));
        marker(dl, o, col(palette().kText), 3.0f);
        label(labels, o, col(palette().kText), "apex (0, 0)", 50, LabelSide::BelowRight, "apex");
        const Vec2 rv = t.toScreen(g.relativeVelocity);
        arrow(dl, o, rv, col(palette().kArrowRelative), th + 0.5f);
        label(labels, rv, col(palette().kArrowRelative), g.obstacle ? "v_A" : "v_A - v_B", 90,
              LabelSide::AboveRight);
        if (g.phase >= 1) {
            const Vec2 u = g.uEnd - g.relativeVelocity;
            const double len = length(u);
            if (len > 0.0) {
                drawLine(dl, t, clipVel, Line{g.uEnd, perp(u / len)},
                         col(palette().kU, std::uint8_t{110}), 1.0f, {6.0f, 4.0f});
            }
            const Vec2 ue = t.toScreen(g.uEnd);
            arrow(dl, rv, ue, col(palette().kU), th + 1.0f);
            marker(dl, ue, col(palette().kU), 3.5f);
            label(labels, (rv + ue) * 0.5, col(palette().kU), "u", 80,
                  labelSideToward(perp(ue - rv)));
        }
        if (!style.labels) placeAndDrawLabels(dl, localLabels, clip);
        return;
    }
    // Phase 2: A's absolute velocity space.
    const SmallPolygon permitted = clipRectToHalfPlane(clipVel, g.halfPlane, true);
    Scratch& s = scratch();
    s.screen.clear();
    for (int i = 0; i < permitted.count; ++i)
        s.screen.push_back(toIm(t.toScreen(permitted.points[static_cast<std::size_t>(i)])));
    fillConvex(dl, s.screen, col(palette().kPermittedFill));
    const VoStyle faint{col(palette().kVo, 0.5f), col(palette().kVoFill), 1.0f, true};
    drawVo(dl, t, clipVel, g.vo, g.vo.offset, faint);
    dl.AddCircle(toIm(o), static_cast<float>(rec.params.maxSpeed * t.pixelsPerUnit),
                 col(palette().kMaxSpeed), 0, stroke(1.0f));
    drawLine(dl, t, clipVel, g.halfPlane,
             col(g.obstacle ? palette().kLineObstacle : palette().kLineAgent), th + 0.5f, {});
    if (!g.obstacle) { // an obstacle's velocity is zero: no v_B
        const Vec2 vb = t.toScreen(g.vo.offset);
        arrow(dl, o, vb, col(palette().kArrowPref, std::uint8_t{150}), 1.0f, {4.0f, 3.0f});
        label(labels, vb, col(palette().kArrowPref), "v_B", 70, LabelSide::BelowRight);
    }
    const Vec2 va = t.toScreen(g.velocity);
    arrow(dl, o, va, col(palette().kArrowV), th + 0.5f);
    label(labels, va, col(palette().kArrowV), "v_A", 90, LabelSide::AboveRight);
    const Vec2 q = t.toScreen(g.halfPlane.point);
    arrow(dl, va, q, col(palette().kU), th + 1.0f);
    marker(dl, q, col(palette().kU), 3.5f);
    // "v_A + ½u" (agents at RVO2's share), "v_A + u" (obstacles): the recorded share.
    const std::string su = shareOfU(g.share);
    const std::string vaPlusU = "v_A + " + su;
    label(labels, q, col(palette().kU), vaPlusU.c_str(), 80, LabelSide::Right, su.c_str());
    if (!style.labels) placeAndDrawLabels(dl, localLabels, clip);
}

namespace {

// Scales the alpha of the vertices added to `dl` since vertex `from` (dims what they drew).
void fadeVertices(ImDrawList& dl, int from, float factor) {
    for (int i = from; i < dl.VtxBuffer.Size; ++i) {
        ImU32& c = dl.VtxBuffer[i].col;
        const auto a = static_cast<ImU32>(
            static_cast<float>((c & IM_COL32_A_MASK) >> IM_COL32_A_SHIFT) * factor + 0.5f);
        c = (c & ~IM_COL32_A_MASK) | (std::min(a, ImU32{255}) << IM_COL32_A_SHIFT);
    }
}

// World view in construction mode: the current line's VO (A's absolute space), v, and from
// phase 1 on u, from phase 2 on its half-plane (permitted side marked), drawn bright.
void drawConstructionInWorld(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                             const ExplainRecord& rec, const ConstructionGeometry& g,
                             const OverlayStyle& style) {
    LabelLayout& labels = *style.labels;
    const Rect clipVel = t.toVelocity(clip);
    const float th = style.lineThickness;
    const LineCase lineCase = rec.lines[static_cast<std::size_t>(g.line)].lineCase;
    drawVo(dl, t, clipVel, g.vo, g.vo.offset, voStyle(VoRole::Highlighted));
    const Vec2 o = t.toScreen({0.0, 0.0});
    const Vec2 va = t.toScreen(g.velocity);
    arrow(dl, o, va, col(palette().kArrowV), th + 0.5f);
    if (g.phase >= 2) {
        drawHalfPlaneShade(dl, t, clipVel, g.halfPlane, palette().kPermittedFill, false, true, 0,
                           std::uint8_t{140});
        drawLine(dl, t, clipVel, g.halfPlane, col(lineColour(lineCase)), th * 2.0f, {});
    }
    if (g.phase >= 1) {
        // u from v_A in A's absolute space (relative + v_B = absolute), and the line's point.
        const Vec2 ue = t.toScreen(g.velocity + (g.uEnd - g.relativeVelocity));
        arrow(dl, va, ue, col(palette().kU), th + 1.0f);
        marker(dl, ue, col(palette().kU), 3.5f);
        label(labels, (va + ue) * 0.5, col(palette().kU), "u", 80, labelSideToward(perp(ue - va)));
        if (g.phase >= 2 && !g.obstacle)
            marker(dl, t.toScreen(g.halfPlane.point), col(palette().kU), 3.0f);
    }
}

} // namespace

OverlayHover drawExplainInWorld(ImDrawList& dl, const Camera& camera, const ExplainRecord& rec,
                                const OverlayLayers& layers, const OverlayStyle& style,
                                const OverlayHover& highlight, Vec2 mouse, bool mouseActive,
                                const ConstructionGeometry* construction) {
    if (!layers.inWorld) return {};
    LabelLayout localLabels;
    const OverlayStyle st = withLabels(style, localLabels);
    LabelLayout& labels = *st.labels;
    const Rect& vp = camera.viewport();
    dl.PushClipRect(toIm(vp.min), toIm(vp.max), true);
    const Vec2 centre = camera.worldToScreen(rec.position);
    const double scale = camera.scale();

    if (layers.neighborCircle)
        dl.AddCircle(toIm(centre), static_cast<float>(rec.params.neighborDist * scale),
                     col(palette().kNeighborCircle), 0, stroke(1.0f));
    if (construction && (construction->line < 0 ||
                         static_cast<std::size_t>(construction->line) >= rec.lines.size()))
        construction = nullptr;
    // In construction mode the current line's neighbour (or segment) is the one marked.
    const int hl = construction ? construction->line : highlight.line;
    if (layers.neighborLinks && !rec.isStatic) {
        for (std::size_t i = rec.numObstacleLines; i < rec.lines.size(); ++i) {
            // Where the neighbour is, recovered from its VO (neighborInWorld).
            const auto nb = neighborInWorld(rec, rec.lines[i]);
            if (!nb) continue;
            const Vec2 other = camera.worldToScreen(nb->position);
            const bool h = static_cast<int>(i) == hl;
            dl.AddLine(toIm(centre), toIm(other),
                       h ? col(palette().kHighlight) : col(palette().kNeighborLink),
                       stroke(h ? 2.0f : 1.0f));
            if (h)
                dl.AddCircle(toIm(other), static_cast<float>(nb->radius * scale) + 3.0f,
                             col(palette().kHighlight), 0, stroke(2.0f));
        }
    }
    // The obstacle segment of a highlighted obstacle line.
    if (hl >= 0 && static_cast<std::size_t>(hl) < rec.numObstacleLines) {
        if (const auto seg = obstacleSegmentInWorld(rec, rec.lines[static_cast<std::size_t>(hl)]))
            dl.AddLine(toIm(camera.worldToScreen((*seg)[0])), toIm(camera.worldToScreen((*seg)[1])),
                       col(palette().kHighlight), stroke(4.0f));
    }

    // Detour: where the field was sampled (world units) and the direction it gave.
    if (layers.detour && rec.detour.enabled && rec.detour.sampleRadius > 0.0) {
        const Vec2 sp = camera.worldToScreen(rec.detour.samplePoint);
        dl.AddCircle(toIm(sp), static_cast<float>(rec.detour.sampleRadius * scale),
                     col(palette().kDetourSample), 0, stroke(1.5f));
        marker(dl, sp, col(palette().kDetourSample), 3.0f);
        if (absSq(rec.detour.sampledDirection) > 0.0) {
            const double len = 2.0 * rec.params.radius + rec.detour.sampleRadius;
            arrow(dl, centre,
                  camera.worldToScreen(rec.position + rec.detour.sampledDirection * len),
                  col(palette().kDetourSample), 2.0f);
        }
        label(labels, sp, detourSampleLabel(rec.detour.mode));
    }

    const VelocityTransform t =
        VelocityTransform::forWorld(camera, rec.position, style.worldSeconds);
    if (construction && !rec.isStatic) {
        // Construction mode: everything else faint and unlabelled, the current line on top.
        LabelLayout discarded;
        OverlayStyle faint = st;
        faint.labels = &discarded;
        const int from = dl.VtxBuffer.Size;
        drawVelocitySpace(dl, t, vp, rec, layers, faint, {}, OverlayView::World);
        fadeVertices(dl, from, 0.25f);
        drawConstructionInWorld(dl, t, vp, rec, *construction, st);
    } else {
        drawVelocitySpace(dl, t, vp, rec, layers, st, highlight, OverlayView::World);
    }
    if (!style.labels) placeAndDrawLabels(dl, localLabels, vp);
    dl.PopClipRect();
    if (!mouseActive) return {};
    OverlayLayers hoverLayers = layers;
    hoverLayers.voCones = layers.voCones && style.hoverInsideVo;
    return hitTest(rec, t, vp, hoverLayers, mouse, style.hoverPixels);
}

} // namespace orca::ui
