#include "orca/ui/svg_export.hpp"

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string>

#include "orca/simulator.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

namespace {

// ---- Styling rules, as explain_overlay.cpp / world_renderer.cpp / velocity_panel.cpp draw ----
// (kept beside the SVG code rather than shared: those files draw into ImGui draw lists).

Rgba withAlpha(Rgba c, std::uint8_t a) {
    c.a = a;
    return c;
}
Rgba scaledAlpha(Rgba c, double s) {
    c.a = static_cast<std::uint8_t>(std::clamp(c.a * s, 0.0, 255.0));
    return c;
}
Rgba outlineOf(Rgba fill) {
    auto mix = [](std::uint8_t v) { return static_cast<std::uint8_t>((v + 255) / 2); };
    return {mix(fill.r), mix(fill.g), mix(fill.b), 255};
}

// familyOf, lineColour, Dash, dashOf: line_style.hpp (the screen's rule); forbiddenNormalScreen,
// rayLengthOut, lineLabelAt, voArcPoints, uArrowTip: explain_geometry.hpp (the screen's shapes).
double niceStep(double minStep) {
    const double decade = std::pow(10.0, std::floor(std::log10(minStep)));
    for (const double m : {1.0, 2.0, 5.0, 10.0})
        if (m * decade >= minStep) return m * decade;
    return 10.0 * decade;
}

// The UI scale of the picture being written (renderSvg sets it; the UI thread is the only
// caller): stroke widths, dash lengths and marker sizes are given at 100 %.
double g_stroke = 1.0;
double sc(double px) {
    return px * g_stroke;
}

// ---- The writer ------------------------------------------------------------------------------

std::string num(double v) {
    if (!std::isfinite(v)) v = 0.0;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", v);
    std::string s = buf;
    while (!s.empty() && s.back() == '0')
        s.pop_back();
    if (!s.empty() && s.back() == '.') s.pop_back();
    if (s == "-0") s = "0";
    return s;
}

std::string hex(Rgba c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

std::string opacity(std::uint8_t a) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "%.3g", a / 255.0);
    return buf;
}

std::string fillAttr(Rgba c) {
    std::string s = " fill=\"" + hex(c) + "\"";
    if (c.a != 255) s += " fill-opacity=\"" + opacity(c.a) + "\"";
    return s;
}

std::string strokeAttr(Rgba c, double width, Dash dash = {}) {
    std::string s =
        " fill=\"none\" stroke=\"" + hex(c) + "\" stroke-width=\"" + num(sc(width)) + "\"";
    if (c.a != 255) s += " stroke-opacity=\"" + opacity(c.a) + "\"";
    if (dash.on > 0.0)
        s += " stroke-dasharray=\"" + num(sc(dash.on)) + " " + num(sc(dash.off)) + "\"";
    return s;
}

std::string escapeXml(std::string_view text) {
    std::string out;
    for (const char ch : text) {
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        default:
            // Control characters are not allowed in XML 1.0.
            if (static_cast<unsigned char>(ch) >= 0x20 || ch == '\n' || ch == '\t') out += ch;
        }
    }
    return out;
}

// Rough advance width of a text in DejaVu Sans (the app's font): for layout of the legend only.
double textWidth(std::string_view s, double fontSize) {
    std::size_t glyphs = 0;
    for (const char ch : s)
        if ((static_cast<unsigned char>(ch) & 0xC0) != 0x80) ++glyphs;
    return static_cast<double>(glyphs) * 0.53 * fontSize;
}

class Writer {
  public:
    explicit Writer(double fontSize) : m_fontSize(fontSize) {}

    std::string& out() { return m_out; }

    void raw(std::string_view s) { m_out += s; }

    std::string points(std::span<const Vec2> pts, bool close) const {
        std::string d;
        for (std::size_t i = 0; i < pts.size(); ++i)
            d += (i == 0 ? "M" : " L") + num(pts[i].x) + " " + num(pts[i].y);
        if (close && pts.size() >= 3) d += " Z";
        return d;
    }

    void path(const std::string& d, const std::string& attrs) {
        if (d.empty()) return;
        m_out += "<path d=\"" + d + "\"" + attrs + "/>\n";
    }
    void polyline(std::span<const Vec2> pts, const std::string& attrs, bool close = false) {
        if (pts.size() < 2) return;
        path(points(pts, close), attrs);
    }
    void line(Vec2 a, Vec2 b, const std::string& attrs) {
        const Vec2 pts[] = {a, b};
        polyline(pts, attrs);
    }
    void polygon(std::span<const Vec2> pts, const std::string& attrs) {
        if (pts.size() < 3) return;
        path(points(pts, true), attrs);
    }
    void circle(Vec2 c, double r, const std::string& attrs) {
        m_out += "<circle cx=\"" + num(c.x) + "\" cy=\"" + num(c.y) + "\" r=\"" + num(r) + "\"" +
                 attrs + "/>\n";
    }
    void rect(const Rect& r, const std::string& attrs, double rounding = 0.0) {
        m_out += "<rect x=\"" + num(r.min.x) + "\" y=\"" + num(r.min.y) + "\" width=\"" +
                 num(r.size().x) + "\" height=\"" + num(r.size().y) + "\"";
        if (rounding > 0.0) m_out += " rx=\"" + num(rounding) + "\"";
        m_out += attrs + "/>\n";
    }
    /// ImGui's AddText: `topLeft` is the top-left corner of the text's line box.
    void text(Vec2 topLeft, Rgba c, std::string_view s, const std::string& attrs = {}) {
        m_out += "<text x=\"" + num(topLeft.x) + "\" y=\"" + num(topLeft.y + 0.93 * m_fontSize) +
                 "\"" + fillAttr(c) + attrs + ">" + escapeXml(s) + "</text>\n";
    }
    /// A label with the overlays' dark shadow.
    void label(Vec2 topLeft, Rgba c, std::string_view s) {
        text(topLeft + Vec2(1.0, 1.0), palette().kTextShadow, s);
        text(topLeft, c, s);
    }
    void arrow(Vec2 from, Vec2 to, Rgba c, double width, Dash dash = {},
               const std::string& cls = {}) {
        const Vec2 d = to - from;
        const double len = length(d);
        if (len < 1.0) return;
        const Vec2 u = d / len;
        const double head = std::min(sc(9.0), 0.45 * len);
        const Vec2 base = to - u * head;
        const Vec2 side = perp(u) * (head * 0.45);
        m_out += "<g" + (cls.empty() ? std::string() : " class=\"" + cls + "\"") + ">\n";
        line(from, base, strokeAttr(c, width, dash));
        const Vec2 tri[] = {to, base + side, base - side};
        polygon(tri, fillAttr(c));
        m_out += "</g>\n";
    }
    void marker(Vec2 s, Rgba c, double r) { circle(s, sc(r), fillAttr(c)); }

    std::string newId(const char* prefix) { return prefix + std::to_string(m_ids++); }

    [[nodiscard]] double fontSize() const { return m_fontSize; }

  private:
    std::string m_out;
    double m_fontSize;
    int m_ids = 0;
};

// ---- Velocity space (world view and panel) -----------------------------------------------------

struct VoStyle {
    Rgba outline;
    Rgba fill;
    double width;
    bool dashedOutline = false;
};

void drawVo(Writer& w, const VelocityTransform& t, const Rect& clipVel, const VelocityObstacle& vo,
            const VoStyle& st, const std::string& attrs) {
    const double ppu = t.pixelsPerUnit;
    const VoOutline o = voOutline(vo, voArcPoints(vo, ppu));
    if (!o.valid) return;
    const Vec2 offset = vo.offset;
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
    const Dash legDash = st.dashedOutline ? Dash{6.0f, 4.0f} : Dash{};
    w.line(t.toScreen(tl), t.toScreen(farL), strokeAttr(st.outline, st.width, legDash));
    w.line(t.toScreen(tr), t.toScreen(farR), strokeAttr(st.outline, st.width, legDash));
    w.raw("</g>\n");
}

std::string lineAttrs(const ExplainLine& l, std::size_t i) {
    return " data-line=\"" + std::to_string(i) + "\" data-case=\"" +
           std::string(toString(l.lineCase)) + "\"";
}

// The forbidden side: the whole side (panel) and a strip fading away from the line.
void drawShade(Writer& w, const VelocityTransform& t, const Rect& clipVel, const ExplainLine& l,
               std::size_t i, bool wholeSide) {
    const Rgba c = lineColour(l.lineCase);
    std::string body;
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

void drawVelocitySpace(Writer& w, const VelocityTransform& t, const Rect& clip,
                       const ExplainRecord& rec, const OverlayLayers& layers,
                       const OverlayStyle& style, bool panel, bool labels) {
    if (rec.isStatic) return;
    const Rect clipVel = t.toVelocity(clip);
    const double th = style.lineThickness;
    const double ppu = t.pixelsPerUnit;

    if (layers.voCones) {
        w.raw("<g class=\"vo-cones\">\n");
        const VoStyle dim{scaledAlpha(palette().kVo, 0.35), scaledAlpha(palette().kVoFill, 0.5),
                          1.0, true};
        if (panel)
            for (const ExplainObstacleNeighbor& on : rec.obstacleNeighbors)
                if (on.hasVo && on.lineIndex < 0)
                    drawVo(w, t, clipVel, on.vo, dim, " data-skipped=\"true\"");
        const VoStyle normal{scaledAlpha(palette().kVo, panel ? 0.6 : 0.4),
                             scaledAlpha(palette().kVoFill, panel ? 1.0 : 0.5), 1.0};
        for (std::size_t i = 0; i < rec.lines.size(); ++i)
            drawVo(w, t, clipVel, rec.lines[i].vo, normal, lineAttrs(rec.lines[i], i));
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
                w.line(a, b,
                       " class=\"lp2-fail\"" +
                           strokeAttr(withAlpha(palette().kLp3, 150), th + 4.0));
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
            const Rgba c = lineColour(l.lineCase);
            const Vec2 ts = t.toScreen(target);
            w.arrow(vS, ts, scaledAlpha(c, 0.8), 1.0);
            w.marker(ts, c, 2.5);
        }
        w.raw("</g>\n");
    }

    if (layers.halfPlanes && panel && labels) {
        w.raw("<g class=\"line-labels\" font-size=\"" + num(w.fontSize()) + "\">\n");
        for (std::size_t i = 0; i < rec.lines.size(); ++i) {
            const Line& l = rec.lines[i].line;
            const auto at = lineLabelAt(l, clipVel);
            if (!at) continue;
            const Vec2 s = t.toScreen(*at) - forbiddenNormalScreen(l) * 9.0 - Vec2(3.0, 7.0);
            w.label(s, lineColour(rec.lines[i].lineCase), std::to_string(i));
        }
        w.raw("</g>\n");
    }

    const bool detouring =
        layers.detour && rec.detour.enabled && rec.detour.mode == DetourMode::Detouring;
    if (layers.velocityArrows) {
        w.raw("<g class=\"velocities\">\n");
        const double at = th + 0.5;
        if (detouring) {
            w.arrow(o, t.toScreen(rec.detour.goalPrefVelocity),
                    withAlpha(palette().kArrowPref, 120), 1.0, {3.0, 4.0}, "v-pref-goal");
            if (labels)
                w.label(t.toScreen(rec.detour.goalPrefVelocity) + Vec2(6.0, 2.0),
                        withAlpha(palette().kArrowPref, 160), "v_pref (goal)");
        }
        const Rgba prefCol = detouring ? palette().kDetourSample : palette().kArrowPref;
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
            w.polygon(dia, " class=\"lp3\"" + fillAttr(palette().kLp3) + " stroke=\"#000000\"" +
                               " stroke-opacity=\"0.784\" stroke-width=\"1\"");
            char buf[48];
            std::snprintf(buf, sizeof buf, "LP3 depth %.3g", m.depth);
            if (labels) w.label(nS + Vec2(8.0, 4.0), palette().kLp3, buf);
        }
        const double fh = w.fontSize();
        if (labels) {
            w.label(vS + Vec2(-12.0, -fh - 2.0), palette().kArrowV, "v");
            w.label(t.toScreen(rec.prefVelocity) + Vec2(6.0, -fh - 2.0), prefCol,
                    detouring ? "v_pref (detour)" : "v_pref");
            if (!m.valid) w.label(nS + Vec2(7.0, 3.0), palette().kArrowNew, "v_new");
        }
        w.raw("</g>\n");
    }
}

// A vertical ('V': at x = `at` from y = `from` to `to`) or horizontal ('H') grid line.
void gridSegment(std::string& d, char dir, double at, double from, double to) {
    char buf[96];
    if (dir == 'V')
        std::snprintf(buf, sizeof buf, "M%.1f %.1f V%.1f ", at, from, to);
    else
        std::snprintf(buf, sizeof buf, "M%.1f %.1f H%.1f ", from, at, to);
    d += buf;
}

// ---- World view ------------------------------------------------------------------------------

void drawGrid(Writer& w, const Camera& camera) {
    const double minor = niceStep(24.0 / camera.scale());
    const double major = std::pow(10.0, std::ceil(std::log10(minor * 1.0001)));
    const Rect world = camera.visibleWorld();
    const Rect& vp = camera.viewport();
    std::string d[3]; // minor, major, axis
    auto kind = [&](double v) {
        if (std::abs(v) < 0.5 * minor) return 2;
        return std::abs(std::remainder(v, major)) < 0.5 * minor ? 1 : 0;
    };
    for (double x = std::floor(world.min.x / minor) * minor; x <= world.max.x; x += minor) {
        const double sx = std::floor(camera.worldToScreen({x, 0.0}).x) + 0.5;
        gridSegment(d[kind(x)], 'V', sx, vp.min.y, vp.max.y);
    }
    for (double y = std::floor(world.min.y / minor) * minor; y <= world.max.y; y += minor) {
        const double sy = std::floor(camera.worldToScreen({0.0, y}).y) + 0.5;
        gridSegment(d[kind(y)], 'H', sy, vp.min.x, vp.max.x);
    }
    const Rgba colours[3] = {palette().kGridMinor, palette().kGridMajor, palette().kGridAxis};
    w.raw("<g class=\"grid\">\n");
    for (int k = 0; k < 3; ++k)
        w.path(d[k], strokeAttr(colours[k], 1.0));
    w.raw("</g>\n");
}

void drawEdgeMarks(Writer& w, const std::vector<Vec2>& screen, bool winding, bool normals) {
    const std::size_t n = screen.size();
    const std::size_t edges = n >= 3 ? n : (n == 2 ? 1 : 0);
    for (std::size_t k = 0; k < edges; ++k) {
        const Vec2 a = screen[k];
        const Vec2 b = screen[(k + 1) % n];
        const double len = length(b - a);
        if (len < 28.0) continue;
        const Vec2 u = (b - a) / len;
        const Vec2 m = (a + b) * 0.5;
        const Vec2 out{-u.y, u.x};
        if (winding) {
            const double h = 6.0;
            const Vec2 tri[] = {m + u * h, m - u * h + out * (h * 0.6),
                                m - u * h - out * (h * 0.6)};
            w.polygon(tri, fillAttr(palette().kObstacleWinding));
        }
        if (normals) {
            const double l = std::min(14.0, 0.3 * len);
            const Vec2 base = m + u * (winding ? 8.0 : 0.0);
            w.line(base, base + out * l, strokeAttr(palette().kObstacleNormal, 1.5));
            if (n == 2) w.line(base, base - out * l, strokeAttr(palette().kObstacleNormal, 1.5));
        }
    }
}

void drawWorld(Writer& w, const SvgPicture& p) {
    const Simulator& sim = *p.sim;
    const Camera& camera = p.camera;
    const WorldViewOptions& opt = p.world;
    const Rect world = camera.visibleWorld();
    const double scale = camera.scale();
    constexpr double kDetailRadius = 2.0; // as the renderer, at one pixel per point
    const auto positions = sim.positions();
    const auto velocities = sim.velocities();
    const auto params = sim.agentParams();

    if (opt.grid) drawGrid(w, camera);

    if (opt.goals || opt.goalLines) {
        w.raw("<g class=\"goals\">\n");
        for (std::size_t i = 0; i < positions.size(); ++i) {
            if (!sim.hasGoalAt(i) || sim.isStaticAt(i) || params[i].radius * scale < kDetailRadius)
                continue;
            const Vec2 g = sim.goalAt(i);
            if (opt.goalLines && !sim.atGoalAt(i)) {
                Rect seg = Rect::empty();
                seg.include(g);
                seg.include(positions[i]);
                if (seg.intersects(world))
                    w.line(camera.worldToScreen(positions[i]), camera.worldToScreen(g),
                           strokeAttr(palette().kGoalLine, 1.0));
            }
            if (opt.goals && world.expanded(4.0 / scale).contains(g)) {
                const Vec2 s = camera.worldToScreen(g);
                w.path("M" + num(s.x - 4) + " " + num(s.y - 4) + " L" + num(s.x + 4) + " " +
                           num(s.y + 4) + " M" + num(s.x - 4) + " " + num(s.y + 4) + " L" +
                           num(s.x + 4) + " " + num(s.y - 4),
                       " class=\"goal\" data-agent=\"" + std::to_string(i) + "\"" +
                           strokeAttr(palette().kGoal, 1.5));
            }
        }
        w.raw("</g>\n");
    }

    if (opt.obstacles) {
        w.raw("<g class=\"obstacles\">\n");
        for (std::size_t i = 0; i < sim.obstacleCount(); ++i) {
            const auto verts = sim.obstacleVertices(sim.obstacleIdAt(i));
            std::vector<Vec2> screen;
            Rect bounds = Rect::empty();
            for (const Vec2& v : verts) {
                screen.push_back(camera.worldToScreen(v));
                bounds.include(v);
            }
            if (!bounds.intersects(world)) continue;
            const std::string attrs =
                " class=\"obstacle\" data-obstacle=\"" + std::to_string(i) + "\"";
            if (screen.size() >= 3)
                w.polygon(screen, attrs + fillAttr(palette().kObstacleFill) + " stroke=\"" +
                                      hex(palette().kObstacleOutline) +
                                      "\" stroke-width=\"1.5\" stroke-linejoin=\"round\"");
            else
                w.polyline(screen, attrs + strokeAttr(palette().kObstacleOutline, 1.5));
            if (opt.obstacleWinding || opt.obstacleNormals)
                drawEdgeMarks(w, screen, opt.obstacleWinding, opt.obstacleNormals);
        }
        w.raw("</g>\n");
    }

    if (opt.detourField && !sim.detourField().empty()) {
        const DetourField& field = sim.detourField();
        const double cell = field.cellSize();
        const double cellPx = cell * scale;
        const int stride = std::max(1, static_cast<int>(std::ceil(3.0 / std::max(cellPx, 1e-9))));
        if (stride <= 64) {
            w.raw("<g class=\"detour-field\">\n");
            const bool arrows = cellPx * stride >= 9.0;
            const double drawn = cell * stride;
            field.forEachCellIn(
                field.coord(world.min.x), field.coord(world.min.y), field.coord(world.max.x),
                field.coord(world.max.y), [&](const DetourField::Cell& c) {
                    if (stride > 1 && ((c.cx % stride) != 0 || (c.cy % stride) != 0)) return;
                    const double magnitude = length(c.vector);
                    if (magnitude <= 1e-12) return;
                    const double tt = std::min(magnitude / 3.0, 1.0);
                    const Rgba tint = palette().kDetourCell;
                    const Rgba shade =
                        withAlpha(tint, static_cast<std::uint8_t>(20 + tt * (tint.a - 20)));
                    const Vec2 lo{c.cx * cell, c.cy * cell};
                    const Vec2 a = camera.worldToScreen(lo);
                    const Vec2 b = camera.worldToScreen(lo + Vec2(drawn, drawn));
                    w.rect({{std::min(a.x, b.x), std::min(a.y, b.y)},
                            {std::max(a.x, b.x), std::max(a.y, b.y)}},
                           fillAttr(shade));
                    if (!arrows) return;
                    const Vec2 centre = lo + Vec2(0.5 * drawn, 0.5 * drawn);
                    const Vec2 dir = c.vector / magnitude;
                    w.line(camera.worldToScreen(centre - dir * (0.35 * drawn)),
                           camera.worldToScreen(centre + dir * (0.35 * drawn)),
                           strokeAttr(palette().kDetourArrow, 1.0));
                });
            w.raw("</g>\n");
        }
    }

    // Agents, then their velocity arrows on top.
    const bool haveLp3 = p.lp3Flags.size() == positions.size();
    std::vector<std::size_t> detailed;
    w.raw("<g class=\"agents\">\n");
    for (std::size_t i = 0; i < positions.size(); ++i) {
        const double radius = params[i].radius;
        const Vec2 pos = positions[i];
        if (pos.x + radius < world.min.x || pos.x - radius > world.max.x ||
            pos.y + radius < world.min.y || pos.y - radius > world.max.y)
            continue;
        AgentState state = AgentState::Active;
        const char* stateName = "active";
        if (sim.isStaticAt(i)) {
            state = AgentState::Static;
            stateName = "static";
        } else if (haveLp3 && p.lp3Flags[i] != 0) {
            state = AgentState::Lp3;
            stateName = "lp3";
        } else if (sim.detourModeAt(i) == DetourMode::Detouring) {
            state = AgentState::Detouring;
            stateName = "detouring";
        } else if (sim.atGoalAt(i)) {
            state = AgentState::AtGoal;
            stateName = "at-goal";
        }
        const Rgba fill = agentFill(state);
        const Vec2 c = camera.worldToScreen(pos);
        const double r = radius * scale;
        const std::string attrs = " class=\"agent\" data-agent=\"" + std::to_string(i) +
                                  "\" data-state=\"" + stateName + "\"";
        if (r < kDetailRadius) {
            const double h = std::max(r, 1.0);
            w.rect({c - Vec2(h), c + Vec2(h)}, attrs + fillAttr(fill));
            continue;
        }
        w.circle(c, r,
                 attrs + fillAttr(fill) + " stroke=\"" + hex(outlineOf(fill)) +
                     "\" stroke-width=\"1\"");
        detailed.push_back(i);
    }
    w.raw("</g>\n");
    if (opt.velocities) {
        w.raw("<g class=\"velocity-arrows\">\n");
        for (const std::size_t i : detailed) {
            const Vec2 c = camera.worldToScreen(positions[i]);
            const Vec2 tip =
                camera.worldToScreen(positions[i] + velocities[i] * opt.velocityArrowSeconds);
            const double len = length(tip - c);
            if (len < 2.0) continue;
            const Vec2 u = (tip - c) / len;
            const double head = std::min(6.0, 0.4 * len);
            const Vec2 base = tip - u * head;
            const Vec2 side{-u.y * head * 0.5, u.x * head * 0.5};
            w.line(c, base, strokeAttr(palette().kVelocity, 1.5));
            const Vec2 tri[] = {tip, base + side, base - side};
            w.polygon(tri, fillAttr(palette().kVelocity));
        }
        w.raw("</g>\n");
    }
    if (opt.agentIds) {
        w.raw("<g class=\"agent-ids\">\n");
        for (const std::size_t i : detailed) {
            const double r = params[i].radius * scale;
            if (r < 7.0) continue;
            const Vec2 c = camera.worldToScreen(positions[i]);
            const Vec2 at{c.x + r * 0.72, c.y - r * 0.72 - w.fontSize() * 0.8};
            const std::string id = "#" + std::to_string(i);
            w.text(at + Vec2(1.0, 1.0), palette().kTextShadow, id);
            w.text(at, palette().kAgentLabel, id);
        }
        w.raw("</g>\n");
    }
    if (opt.selectionRings && !p.selected.empty()) {
        w.raw("<g class=\"selection\">\n");
        for (const std::size_t i : p.selected) {
            if (i >= positions.size()) continue;
            const double r = std::max(params[i].radius * scale, 5.0) + 3.0;
            const Vec2 c = camera.worldToScreen(positions[i]);
            w.circle(c, r, strokeAttr(palette().kSelectionShadow, 4.0));
            w.circle(c, r, strokeAttr(palette().kSelection, 2.0));
        }
        w.raw("</g>\n");
    }

    // The primary agent's explain record around it.
    if (p.record && p.layers.inWorld) {
        const ExplainRecord& rec = *p.record;
        const Vec2 centre = camera.worldToScreen(rec.position);
        w.raw("<g class=\"explain\" data-agent-slot=\"" + std::to_string(rec.agent.slot) +
              "\" data-step=\"" + std::to_string(rec.step) + "\">\n");
        if (p.layers.neighborCircle)
            w.circle(centre, rec.params.neighborDist * scale,
                     " class=\"neighbor-circle\"" + strokeAttr(palette().kNeighborCircle, 1.0));
        if (p.layers.neighborLinks && !rec.isStatic) {
            for (std::size_t i = rec.numObstacleLines; i < rec.lines.size(); ++i) {
                const ExplainLine& l = rec.lines[i];
                const double cl = length(l.vo.cutoffCenter);
                if (cl <= 0.0) continue;
                const Vec2 other =
                    camera.worldToScreen(rec.position + l.vo.cutoffCenter * (l.distance / cl));
                w.line(centre, other,
                       " class=\"neighbor-link\"" + strokeAttr(palette().kNeighborLink, 1.0));
            }
        }
        if (p.layers.detour && rec.detour.enabled && rec.detour.sampleRadius > 0.0) {
            const Vec2 sp = camera.worldToScreen(rec.detour.samplePoint);
            w.circle(sp, rec.detour.sampleRadius * scale, strokeAttr(palette().kDetourSample, 1.5));
            w.marker(sp, palette().kDetourSample, 3.0);
            if (absSq(rec.detour.sampledDirection) > 0.0) {
                const double len = 2.0 * rec.params.radius + rec.detour.sampleRadius;
                w.arrow(centre,
                        camera.worldToScreen(rec.position + rec.detour.sampledDirection * len),
                        palette().kDetourSample, 2.0);
            }
            w.label(sp + Vec2(6.0, 6.0), palette().kDetourSample,
                    rec.detour.mode == DetourMode::Detouring ? "detour sample"
                                                             : "sample (leaving)");
        }
        const VelocityTransform t =
            VelocityTransform::forWorld(camera, rec.position, p.style.worldSeconds);
        drawVelocitySpace(w, t, camera.viewport(), rec, p.layers, p.style, false, true);
        w.raw("</g>\n");
    }
}

// ---- Velocity panel ---------------------------------------------------------------------------

void drawPanelGrid(Writer& w, const VelocityTransform& t, const Rect& canvas, bool labels) {
    const double upp = 1.0 / t.pixelsPerUnit;
    const double minorMin = 16.0 * upp;
    const double decade = std::pow(10.0, std::floor(std::log10(minorMin)));
    double minor = 10.0 * decade;
    double major = 50.0 * decade;
    for (const double m : {1.0, 2.0, 5.0, 10.0}) {
        if (m * decade >= minorMin) {
            minor = m * decade;
            major = m * decade * (m == 5.0 ? 2.0 : 5.0);
            break;
        }
    }
    const Rect v = t.toVelocity(canvas);
    std::string d[3];
    auto kind = [&](double x) {
        if (std::abs(x) < 0.5 * minor) return 2;
        return std::abs(std::remainder(x, major)) < 0.5 * minor ? 1 : 0;
    };
    for (double x = std::floor(v.min.x / minor) * minor; x <= v.max.x; x += minor) {
        const double sx = std::floor(t.toScreen({x, 0.0}).x) + 0.5;
        gridSegment(d[kind(x)], 'V', sx, canvas.min.y, canvas.max.y);
    }
    for (double y = std::floor(v.min.y / minor) * minor; y <= v.max.y; y += minor) {
        const double sy = std::floor(t.toScreen({0.0, y}).y) + 0.5;
        gridSegment(d[kind(y)], 'H', sy, canvas.min.x, canvas.max.x);
    }
    const Rgba colours[3] = {palette().kGridMinor, palette().kGridMajor,
                             withAlpha(palette().kGridAxis, 110)};
    w.raw("<g class=\"grid\">\n");
    for (int k = 0; k < 3; ++k)
        w.path(d[k], strokeAttr(colours[k], 1.0));
    if (!labels) {
        w.raw("</g>\n");
        return;
    }
    const Vec2 o = t.toScreen({0.0, 0.0});
    const double ax = std::clamp(o.x, canvas.min.x + 2.0, canvas.max.x - 40.0);
    const double ay = std::clamp(o.y, canvas.min.y + 2.0, canvas.max.y - 16.0);
    const Rgba textCol = withAlpha(palette().kText, 140);
    double labelStep = major;
    while (labelStep * t.pixelsPerUnit < 60.0)
        labelStep *= 2.0;
    char buf[32];
    for (double x = std::ceil(v.min.x / labelStep) * labelStep; x <= v.max.x; x += labelStep) {
        if (std::abs(x) < 0.5 * minor) continue;
        std::snprintf(buf, sizeof buf, "%g", x);
        w.text({t.toScreen({x, 0.0}).x + 2.0, ay + 1.0}, textCol, buf);
    }
    for (double y = std::ceil(v.min.y / labelStep) * labelStep; y <= v.max.y; y += labelStep) {
        if (std::abs(y) < 0.5 * minor) continue;
        std::snprintf(buf, sizeof buf, "%g", y);
        w.text({ax + 3.0, t.toScreen({0.0, y}).y + 1.0}, textCol, buf);
    }
    w.raw("</g>\n");
}

enum class Swatch { Arrow, DashedArrow, Line, DashedLine, DottedLine, Fill, Strip, Diamond, Ring };
struct LegendItem {
    Swatch swatch;
    Rgba colour;
    const char* text;
};

void drawSwatch(Writer& w, Vec2 p, double sw, double h, const LegendItem& it) {
    const double my = p.y + h * 0.5;
    const Rgba c = it.colour;
    switch (it.swatch) {
    case Swatch::Arrow:
    case Swatch::DashedArrow: {
        w.line({p.x, my}, {p.x + sw - 6.0, my},
               strokeAttr(c, 2.0, it.swatch == Swatch::Arrow ? Dash{} : Dash{4.0f, 3.0f}));
        const Vec2 tri[] = {{p.x + sw, my}, {p.x + sw - 7.0, my - 4.0}, {p.x + sw - 7.0, my + 4.0}};
        w.polygon(tri, fillAttr(c));
        break;
    }
    case Swatch::Line:
        w.line({p.x, my}, {p.x + sw, my}, strokeAttr(c, 2.0));
        break;
    case Swatch::DashedLine:
        w.line({p.x, my}, {p.x + sw, my}, strokeAttr(c, 2.0, {6.0, 3.0}));
        break;
    case Swatch::DottedLine:
        w.line({p.x, my}, {p.x + sw, my}, strokeAttr(c, 2.0, {2.0, 3.0}));
        break;
    case Swatch::Fill:
        w.rect({{p.x, p.y + 2.0}, {p.x + sw, p.y + h - 2.0}}, fillAttr(c));
        break;
    case Swatch::Strip: {
        const std::string id = w.newId("legend");
        w.raw("<linearGradient id=\"" + id +
              "\" x1=\"0\" y1=\"0\" x2=\"0\" y2=\"1\"><stop offset=\"0\" stop-color=\"" + hex(c) +
              "\" stop-opacity=\"" + opacity(110) + "\"/><stop offset=\"1\" stop-color=\"" +
              hex(c) + "\" stop-opacity=\"0\"/></linearGradient>\n");
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
    const std::size_t columns = items.size() > 6 ? 2 : 1;
    const std::size_t rows = (items.size() + columns - 1) / columns;
    double colW[2] = {0.0, 0.0};
    for (std::size_t k = 0; k < items.size(); ++k)
        colW[k / rows] = std::max(colW[k / rows], textWidth(items[k].text, w.fontSize()));
    double width = pad;
    for (std::size_t c = 0; c < columns; ++c)
        width += sw + pad + colW[c] + pad * 2.0;
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

void drawPanel(Writer& w, const SvgPicture& p, const SvgPanel& panel, const ExplainRecord& rec) {
    const VelocityTransform& t = panel.transform;
    const Rect& win = panel.window;
    const Rect& canvas = panel.canvas;
    const double fs = w.fontSize();
    w.raw("<g id=\"velocity-panel\" data-origin-x=\"" + num(t.origin.x) + "\" data-origin-y=\"" +
          num(t.origin.y) + "\" data-pixels-per-unit=\"" + num(t.pixelsPerUnit) + "\">\n");
    // The window: ImGui's dark style (WindowBg 0.06 grey at 94 %, TitleBg 0.04 grey).
    w.rect(win,
           fillAttr(panel.windowBackground) + " stroke=\"" + hex(panel.border) +
               "\" stroke-opacity=\"" + opacity(panel.border.a) + "\"",
           4.0);
    const double titleH = fs + 6.0;
    w.rect({win.min, {win.max.x, win.min.y + titleH}}, fillAttr(panel.titleBackground), 4.0);
    w.text({win.min.x + 8.0 + fs, win.min.y + 3.0}, panel.titleText, "Velocity space");
    // The summary lines above the canvas (the panel's checkboxes are left out).
    double y = win.min.y + titleH + 8.0;
    for (const std::string& s : summaryLines(rec)) {
        if (y + fs > canvas.min.y) break;
        w.text({win.min.x + 10.0, y},
               s.rfind("infeasible", 0) == 0 ? palette().kLp3 : palette().kText, s);
        y += fs * 1.16 + 5.0;
    }

    w.raw("<clipPath id=\"clip-panel\"><rect x=\"" + num(canvas.min.x) + "\" y=\"" +
          num(canvas.min.y) + "\" width=\"" + num(canvas.size().x) + "\" height=\"" +
          num(canvas.size().y) + "\"/></clipPath>\n");
    w.raw("<g class=\"canvas\" clip-path=\"url(#clip-panel)\">\n");
    w.rect(canvas, fillAttr(palette().kPanelBackground));
    const bool ownLabels = panel.labels == nullptr;
    drawPanelGrid(w, t, canvas, ownLabels);
    drawVelocitySpace(w, t, canvas, rec, p.layers, p.style, true, ownLabels);
    const Rgba dim = withAlpha(palette().kText, 170);
    w.text(canvas.min + Vec2(6.0, 4.0), dim, "absolute velocity of A");
    if (rec.lp2Failed()) {
        char buf[64];
        std::snprintf(buf, sizeof buf, "INFEASIBLE: LP2 failed at line %zu", rec.lp2Fail);
        w.text(canvas.min + Vec2(6.0, 6.0 + fs * 1.16), palette().kLp3, buf);
    }
    if (panel.legend) {
        const OverlayLayers& layers = p.layers;
        bool colliding = false;
        bool legs = false;
        for (const ExplainLine& l : rec.lines) {
            colliding = colliding || familyOf(l.lineCase) == CaseFamily::Colliding;
            legs = legs || familyOf(l.lineCase) == CaseFamily::Leg;
        }
        std::vector<LegendItem> items;
        auto add = [&](bool on, LegendItem it) {
            if (on) items.push_back(it);
        };
        add(layers.velocityArrows, {Swatch::Arrow, palette().kArrowV, "v"});
        add(layers.velocityArrows, {Swatch::DashedArrow, palette().kArrowPref, "v_pref"});
        add(layers.velocityArrows, {Swatch::Arrow, palette().kArrowNew, "v_new"});
        add(layers.velocityArrows && rec.lp2Failed(),
            {Swatch::Diamond, palette().kLp3, "LP3 result, depth"});
        add(layers.feasibleRegion && !rec.feasibleRegion.empty(),
            {Swatch::Fill, palette().kFeasibleFill, "feasible"});
        add(layers.feasibleRegion || layers.velocityArrows,
            {Swatch::Ring, palette().kMaxSpeed, "max speed"});
        add(layers.voCones, {Swatch::Fill, palette().kVoFillHighlight, "VO"});
        add(layers.halfPlanes, {Swatch::Line, palette().kLineAgent, "agent line"});
        add(layers.halfPlanes && rec.numObstacleLines > 0,
            {Swatch::Line, palette().kLineObstacle, "obstacle line"});
        add(layers.halfPlanes && legs, {Swatch::DashedLine, palette().kText, "leg case"});
        add(layers.halfPlanes && colliding,
            {Swatch::DottedLine, palette().kLineColliding, "colliding"});
        add(layers.halfPlanes, {Swatch::Strip, palette().kLineAgent, "forbidden side"});
        const std::string uArrow = uArrowLegend(rec); // the agent lines' share of u
        add(layers.uVectors, {Swatch::Arrow, palette().kLineAgent, uArrow.c_str()});
        drawLegend(w, canvas, items);
    }
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
                w.line(r.anchor, q, strokeAttr(withAlpha(c, 190), 1.0));
            }
            w.label(pl.rect.min, c, layout.textOf(pl));
        }
        w.raw("</g>\n");
    }
    w.raw("</g>\n</g>\n");
}

} // namespace

std::string renderSvg(const SvgPicture& p) {
    Writer w(p.fontSize);
    g_stroke = p.strokeScale > 0.0f ? static_cast<double>(p.strokeScale) : 1.0;
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
        drawWorld(w, p);
        out += "</g>\n";
    }
    if (p.panel && p.record) drawPanel(w, p, *p.panel, *p.record);
    out += "</svg>\n";
    return out;
}

} // namespace orca::ui
