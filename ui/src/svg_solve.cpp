// Solve mode in the SVG export (svg_parts.hpp), as solve_view.cpp's drawSolve draws it on
// screen, from the same SolveFrame (solveFrame): the region of the lines so far, every line of
// the record (inserted ones in their case colour, later ones faint), LP3's projected program
// and push, the lines that clipped the LP1 interval, the binding lines of the result, the line
// under test with its interval, and the optimum before and after the step.
#include <algorithm>
#include <string>
#include <vector>

#include "orca/geometry.hpp"
#include "orca/ui/palette.hpp"

#include "svg_parts.hpp"

namespace orca::ui::svg {

namespace {

Rgba caseColour(LineCase c) {
    return solveLineColour(c);
}

void segment(Writer& w, const VelocityTransform& t, Vec2 a, Vec2 b, Rgba c, double width,
             double dash = 0.0, const std::string& cls = {}) {
    const Dash d = dash > 0.0 ? Dash{static_cast<float>(dash), static_cast<float>(dash)} : Dash{};
    w.line(t.toScreen(a), t.toScreen(b),
           (cls.empty() ? std::string() : " class=\"" + cls + "\"") + strokeAttr(c, width, d));
}

void infiniteLine(Writer& w, const VelocityTransform& t, const Rect& clipVel, const Line& line,
                  Rgba c, double width, double dash = 0.0, const std::string& cls = {}) {
    if (const auto seg = clipLineToRect(line, clipVel))
        segment(w, t, (*seg)[0], (*seg)[1], c, width, dash, cls);
}

void text(Writer& w, Vec2 screen, Rgba c, const std::string& s) {
    w.label(screen, c, s);
}

void forbiddenStrip(Writer& w, const VelocityTransform& t, const Rect& clipVel, const Line& line,
                    Rgba c, double px) {
    const auto seg = clipLineToRect(line, clipVel);
    if (!seg) return;
    const Vec2 a = t.toScreen((*seg)[0]);
    const Vec2 b = t.toScreen((*seg)[1]);
    const Vec2 n{line.direction.y, line.direction.x}; // right normal, y flipped
    const Vec2 o = n * sc(px);
    const Vec2 quad[] = {a, b, b + o, a + o};
    w.polygon(quad, fillAttr(withAlpha(c, 70)));
}

void dot(Writer& w, const VelocityTransform& t, Vec2 v, Rgba c, double r, bool filled) {
    if (filled)
        w.circle(t.toScreen(v), sc(r), fillAttr(c));
    else
        w.circle(t.toScreen(v), sc(r), strokeAttr(c, 2.0));
}

} // namespace

void drawSolve(Writer& w, const VelocityTransform& t, const Rect& clip, const ExplainRecord& rec,
               const SolveFrame& f) {
    if (f.count == 0) return;
    const Palette& pal = palette();
    const Rect clipVel = t.toVelocity(clip);
    const double radius = rec.params.maxSpeed;
    const Vec2 o = t.toScreen({0.0, 0.0});
    const bool lp3 = f.kind == SolveStepKind::Lp3Line;
    w.raw("<g class=\"solve\" data-step=\"" + std::to_string(f.index) + "\" data-steps=\"" +
          std::to_string(f.count) + "\" data-line=\"" + std::to_string(f.line) + "\">\n");
    if (!f.title.empty()) w.raw("<desc>" + escapeXml(f.title + ": " + f.narration) + "</desc>\n");

    // The region so far (solveRegion).
    if (const auto region = solveRegion(rec, f)) {
        std::vector<Vec2> pts;
        for (const Vec2& p : *region)
            pts.push_back(t.toScreen(p));
        w.polygon(pts, " class=\"solve-region\"" + fillAttr(withAlpha(pal.kFeasibleFill, 38)) +
                           " stroke=\"" + hex(pal.kFeasibleOutline) + "\" stroke-opacity=\"" +
                           opacity(120) + "\" stroke-width=\"" + num(sc(1.0)) + "\"");
    }
    w.circle(o, radius * t.pixelsPerUnit, " class=\"max-speed\"" + strokeAttr(pal.kMaxSpeed, 1.5));

    // Every line of the record: inserted ones in their case colour, later ones faint.
    for (std::size_t k = 0; k < rec.lines.size(); ++k) {
        const SolveBackgroundLine b = solveBackgroundLine(f, k, lp3);
        if (!b.drawn) continue; // (drawn on top below)
        const ExplainLine& l = rec.lines[k];
        infiniteLine(w, t, clipVel, l.line, withAlpha(caseColour(l.lineCase), b.alpha), b.width,
                     b.dash);
    }

    // v_pref (dashed) for orientation.
    w.arrow(o, t.toScreen(rec.prefVelocity), withAlpha(pal.kArrowPref, 200), 1.5, {5.0f, 5.0f},
            "v-pref");

    // LP3: the projected program (bisector lines, obstacle lines copied), the push direction.
    if (lp3 && !f.held) {
        for (std::size_t k = 0; k < f.projected.size(); ++k) {
            const bool obst = f.projectedObstacle[k];
            const Rgba c = obst ? pal.kLineObstacle : kSolveBisectorColour;
            forbiddenStrip(w, t, clipVel, f.projected[k], c, 8.0);
            infiniteLine(w, t, clipVel, f.projected[k], c, obst ? 1.5 : 2.0, obst ? 0.0 : 6.0,
                         "lp3-line");
            if (!obst)
                if (const auto seg = clipLineToRect(f.projected[k], clipVel))
                    text(w, t.toScreen((*seg)[1]) + Vec2(-34.0, 2.0), c,
                         "\xE2\x8A\xA5" + std::to_string(f.projectedFrom[k]));
        }
        // The inner LP2's objective: as far as possible along perp(d_i), away from line i.
        const Vec2 pushEnd = f.before + f.push * (60.0 / t.pixelsPerUnit);
        w.arrow(t.toScreen(f.before), t.toScreen(pushEnd), kSolveBisectorColour, 2.5, {}, "push");
        text(w, t.toScreen(pushEnd) + Vec2(4.0, -16.0), kSolveBisectorColour, "push");
    }

    // Lines that clipped the LP1 interval, and the binding lines of the result.
    for (std::size_t k = 0; k < f.clipLines.size() && k < f.clipPoints.size(); ++k) {
        const auto i = static_cast<std::size_t>(f.clipLines[k]);
        if (i >= rec.lines.size()) continue;
        infiniteLine(w, t, clipVel, rec.lines[i].line, kSolveClipColour, 2.0, 0.0, "clip-line");
        dot(w, t, f.clipPoints[k], kSolveClipColour, 4.0, true);
        // Named where the line leaves the view (the clip points crowd around v_opt).
        if (const auto seg = clipLineToRect(rec.lines[i].line, clipVel)) {
            const Vec2 end = t.toScreen((*seg)[k % 2 == 0 ? 1 : 0]);
            const Vec2 in = clip.center() - end;
            text(w, end + in * (50.0 / std::max(length(in), 1.0)) + Vec2(-20.0, -8.0),
                 kSolveClipColour, "line " + std::to_string(i));
        }
    }
    for (std::size_t b = 0; b < f.binding.size(); ++b) {
        const std::size_t i = f.binding[b];
        if (i >= rec.lines.size()) continue;
        const Line& l = rec.lines[i].line;
        forbiddenStrip(w, t, clipVel, l, caseColour(rec.lines[i].lineCase), 10.0);
        infiniteLine(w, t, clipVel, l, pal.kWhy, 2.5, 0.0, "binding-line");
        if (const auto seg = clipLineToRect(l, clipVel))
            text(w,
                 t.toScreen((*seg)[0] +
                            ((*seg)[1] - (*seg)[0]) * (0.12 + 0.22 * static_cast<double>(b % 4))) +
                     Vec2(4.0, 2.0),
                 pal.kWhy, "line " + std::to_string(i));
    }

    // The line under test: bold, its forbidden side shaded, its name.
    if (f.line >= 0 && static_cast<std::size_t>(f.line) < rec.lines.size()) {
        const ExplainLine& l = rec.lines[static_cast<std::size_t>(f.line)];
        const Rgba c = lp3 ? pal.kLp3 : caseColour(l.lineCase);
        forbiddenStrip(w, t, clipVel, l.line, c, 14.0);
        // LP1: the chord of the disk (ticks) and the interval left after the clips.
        if (f.hasLp1 && !f.missesDisk) {
            const Vec2 n = perp(l.line.direction) * (sc(6.0) / t.pixelsPerUnit);
            for (const Vec2 e : {f.diskA, f.diskB})
                segment(w, t, e - n, e + n, pal.kHighlight, 2.0);
            if (!f.empty) {
                segment(w, t, f.from, f.to, pal.kFeasibleOutline, 7.0, 0.0, "lp1-interval");
            } else {
                segment(w, t, f.from, f.to, pal.kLp3, 7.0, 0.0, "lp1-interval");
                text(w, t.toScreen(f.from) + Vec2(10.0, 10.0), pal.kLp3, "interval empty");
            }
        }
        infiniteLine(w, t, clipVel, l.line, withAlpha(pal.kHighlight, 230), f.held ? 1.5 : 2.0, 0.0,
                     "line-under-test");
        if (const auto seg = clipLineToRect(l.line, clipVel)) {
            const Vec2 at = t.toScreen((*seg)[0] + ((*seg)[1] - (*seg)[0]) * 0.15);
            text(w, at + Vec2(6.0, 4.0), pal.kHighlight, "line " + std::to_string(f.line));
        }
        // LP3: the distance reached, from the new v to line i.
        if (lp3 && !f.held) {
            const Vec2 foot = f.after + f.distance * perp(l.line.direction);
            segment(w, t, f.after, foot, pal.kLp3, 2.0, 3.0);
        }
    }

    // The optimum: before (ring) → after (dot).
    const bool moved = f.before != f.after;
    if (f.kind == SolveStepKind::Result) {
        w.arrow(o, t.toScreen(f.after), pal.kArrowNew, 2.5, {}, "v-new");
        dot(w, t, f.after, pal.kArrowNew, 5.0, true);
        text(w, t.toScreen(f.after) + Vec2(8.0, -8.0), pal.kArrowNew, "v_new");
    } else {
        dot(w, t, f.before, pal.kArrowV, 6.0, false);
        if (moved) {
            w.arrow(t.toScreen(f.before), t.toScreen(f.after), pal.kHighlight, 2.0, {},
                    "v-opt-move");
            dot(w, t, f.after, pal.kArrowV, 5.0, true);
        }
        text(w, t.toScreen(moved ? f.after : f.before) + Vec2(8.0, -8.0), pal.kArrowV, "v_opt");
    }
    w.raw("</g>\n");
}

} // namespace orca::ui::svg
