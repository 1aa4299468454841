#include "orca/ui/solve_view.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "orca/lp_trace.hpp"
#include "orca/ui/draw_util.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/style.hpp"

namespace orca::ui {

namespace {

std::string fmt(const char* f, double a) {
    char buf[64];
    std::snprintf(buf, sizeof buf, f, a);
    return buf;
}

std::string vec(Vec2 v) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "(%.2f, %.2f)", v.x, v.y);
    return buf;
}

std::string interval(double a, double b) {
    char buf[80];
    std::snprintf(buf, sizeof buf, "[%.3f, %.3f]", a, b);
    return buf;
}

std::string lineList(const std::vector<int>& lines) {
    std::string s;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        if (k) s += ", ";
        s += std::to_string(lines[k]);
    }
    return s;
}

// "line 4, neighbour #7, cut-off circle"
std::string lineName(const ExplainRecord& rec, std::size_t line) {
    std::string s = "line " + std::to_string(line);
    if (line >= rec.lines.size()) return s;
    const ExplainLine& l = rec.lines[line];
    if (isObstacleCase(l.lineCase))
        s += ", obstacle #" + std::to_string(l.obstacle.slot) + " segment " +
             std::to_string(l.segment);
    else
        s += ", neighbour " + formatAgentId(l.otherAgent);
    s += ", ";
    s += caseName(l.lineCase);
    return s;
}

const Line& lineOf(const ExplainRecord& rec, std::size_t k) {
    return rec.lines[k].line;
}

void fillLp1(SolveFrame& f, const ExplainRecord& rec, const Lp2Step& s) {
    const Line& l = lineOf(rec, s.line);
    const Lp1Trace& p = s.lp1;
    f.hasLp1 = true;
    f.missesDisk = p.failure == Lp1Failure::Disk;
    if (!f.missesDisk) {
        f.diskA = l.point + p.diskLeft * l.direction;
        f.diskB = l.point + p.diskRight * l.direction;
        f.from = l.point + p.tLeft * l.direction;
        f.to = l.point + p.tRight * l.direction;
    }
    f.empty = !p.ok();
    for (const Lp1Clip& c : p.clips) {
        f.clipLines.push_back(static_cast<int>(c.line));
        f.clipPoints.push_back(c.parallel ? l.point : l.point + c.at * l.direction);
    }
}

std::string lp1Story(const Lp1Trace& p) {
    if (p.failure == Lp1Failure::Disk) return "the line misses the max-speed disk";
    std::vector<int> clips;
    for (const Lp1Clip& c : p.clips)
        clips.push_back(static_cast<int>(c.line));
    std::string s = "solve on the line: t \xE2\x88\x88 " + interval(p.tLeft, p.tRight);
    if (clips.empty())
        s += " (the disk)";
    else
        s += " (disk " + interval(p.diskLeft, p.diskRight) + ", clipped by line" +
             (clips.size() > 1 ? "s " : " ") + lineList(clips) + ")";
    if (p.failure == Lp1Failure::Parallel)
        s = "parallel line " + std::to_string(p.clips.back().line) + " excludes the whole line";
    else if (p.failure == Lp1Failure::Empty)
        s += " is empty";
    return s;
}

} // namespace

std::optional<std::vector<Vec2>> solveRegion(const ExplainRecord& rec, const SolveFrame& f) {
    const bool lp3 = f.kind == SolveStepKind::Lp3Line;
    if (lp3 && f.held) return std::nullopt;
    std::vector<Line> so;
    if (lp3) {
        so = f.projected;
    } else {
        for (int k = 0; k < f.inserted && k < static_cast<int>(rec.lines.size()); ++k)
            so.push_back(rec.lines[static_cast<std::size_t>(k)].line);
    }
    return feasibleRegion(so, rec.params.maxSpeed);
}

SolveBackgroundLine solveBackgroundLine(const SolveFrame& f, std::size_t k, bool lp3) {
    const int line = static_cast<int>(k);
    if (line == f.line ||
        std::find(f.clipLines.begin(), f.clipLines.end(), line) != f.clipLines.end() ||
        std::find(f.binding.begin(), f.binding.end(), k) != f.binding.end())
        return {};
    if (lp3) return {true, 60, 1.0, 0.0};
    if (line < f.inserted) return {true, 150, 1.2, 0.0};
    return {true, 45, 1.0, 3.0};
}

std::string_view caseName(LineCase c) {
    switch (c) {
    case LineCase::AgentCutoffCircle:
        return "cut-off circle";
    case LineCase::AgentLeftLeg:
        return "left leg";
    case LineCase::AgentRightLeg:
        return "right leg";
    case LineCase::AgentColliding:
        return "colliding";
    case LineCase::ObstacleCollidingLeftVertex:
        return "colliding with left vertex";
    case LineCase::ObstacleCollidingRightVertex:
        return "colliding with right vertex";
    case LineCase::ObstacleCollidingSegment:
        return "colliding with segment";
    case LineCase::ObstacleLeftCutoffCircle:
        return "left cut-off circle";
    case LineCase::ObstacleRightCutoffCircle:
        return "right cut-off circle";
    case LineCase::ObstacleCutoffLine:
        return "cut-off line";
    case LineCase::ObstacleLeftLeg:
        return "left leg";
    case LineCase::ObstacleRightLeg:
        return "right leg";
    }
    return "line";
}

int solveStepCount(const ExplainRecord& rec) {
    if (!rec.lpTrace) return 0;
    return static_cast<int>(2 + rec.lpTrace->lp2.steps.size() + rec.lpTrace->lp3.size());
}

SolveFrame solveFrame(const ExplainRecord& rec, int step) {
    SolveFrame f;
    f.count = solveStepCount(rec);
    if (f.count == 0) return f;
    const LpTrace& t = *rec.lpTrace;
    f.index = std::clamp(step, 0, f.count - 1);
    const int n2 = static_cast<int>(t.lp2.steps.size());
    const int n3 = static_cast<int>(t.lp3.size());
    const int lines = static_cast<int>(rec.lines.size());

    if (f.index == 0) {
        f.kind = SolveStepKind::Start;
        f.title = "start";
        f.before = f.after = t.lp2.start;
        const bool clamped = t.lp2.start != rec.prefVelocity;
        f.narration =
            clamped ? "start: v_pref " + vec(rec.prefVelocity) + " is faster than max speed " +
                          fmt("%.2f", rec.params.maxSpeed) +
                          " \xE2\x86\x92 v_opt = its point on the disk " + vec(t.lp2.start)
                    : "start: v_opt = v_pref = " + vec(t.lp2.start) + "; " + std::to_string(lines) +
                          " lines to insert, obstacle lines "
                          "first";
        return f;
    }
    if (f.index == f.count - 1) {
        f.kind = SolveStepKind::Result;
        f.title = "result";
        f.before = t.unclamped;
        f.after = t.result;
        f.inserted = lines;
        f.binding = t.binding;
        std::vector<int> b(t.binding.begin(), t.binding.end());
        f.narration = "result: v_new = " + vec(t.result);
        if (!t.lp3.empty())
            f.narration += " (LP3: largest violation " + fmt("%.3g", t.lp3Distance) + ")";
        f.narration +=
            b.empty() ? "; no line binds"
                      : "; binding line" + std::string(b.size() > 1 ? "s " : " ") + lineList(b);
        return f;
    }
    if (f.index <= n2) {
        const Lp2Step& s = t.lp2.steps[static_cast<std::size_t>(f.index - 1)];
        f.line = static_cast<int>(s.line);
        f.inserted = f.line;
        f.before = s.before;
        f.after = s.after;
        f.violation = s.violation;
        f.held = s.held;
        const bool fails = s.line == t.lp2.failIndex;
        f.kind = fails ? SolveStepKind::Lp2Fail : SolveStepKind::Lp2Line;
        f.title =
            "LP2 \xC2\xB7 line " + std::to_string(s.line + 1) + " of " + std::to_string(lines);
        const std::string name = lineName(rec, s.line);
        if (s.held) {
            f.narration = name + ": v_opt satisfies it (margin " + fmt("%.3g", -s.violation) +
                          ") \xE2\x86\x92 keep v_opt = " + vec(s.before);
            return f;
        }
        fillLp1(f, rec, s);
        f.narration = name + ": v_opt violates it by " + fmt("%.3g", s.violation) +
                      " \xE2\x86\x92 " + lp1Story(s.lp1);
        if (fails)
            f.narration += " \xE2\x86\x92 LP2 fails; LP3 from line " + std::to_string(s.line);
        else
            f.narration += " \xE2\x86\x92 v_opt = " + vec(s.after);
        return f;
    }
    const Lp3Step& s = t.lp3[static_cast<std::size_t>(f.index - 1 - n2)];
    (void)n3;
    f.kind = SolveStepKind::Lp3Line;
    f.title = "LP3 \xC2\xB7 line " + std::to_string(s.line);
    f.line = static_cast<int>(s.line);
    f.inserted = lines;
    f.before = s.before;
    f.after = s.after;
    f.violation = s.violation;
    f.held = !s.rebuilt;
    f.distance = s.distance;
    const std::string name = "LP3, " + lineName(rec, s.line);
    if (!s.rebuilt) {
        f.narration = name + ": violated by " + fmt("%.3g", s.violation) +
                      " \xE2\x89\xA4 worst so far " + fmt("%.3g", s.distanceBefore) +
                      " \xE2\x86\x92 skip";
        return f;
    }
    int bisectors = 0;
    for (const Lp3ProjectedLine& p : s.projected) {
        f.projected.push_back(p.line);
        f.projectedFrom.push_back(static_cast<int>(p.source));
        f.projectedObstacle.push_back(p.obstacle);
        bisectors += p.obstacle ? 0 : 1;
    }
    f.push = perp(lineOf(rec, s.line).direction);
    f.narration = name + ": violated by " + fmt("%.3g", s.violation) + " > worst so far " +
                  fmt("%.3g", s.distanceBefore) + " \xE2\x86\x92 " + std::to_string(bisectors) +
                  " bisector line" + (bisectors == 1 ? "" : "s") +
                  " (w = " + fmt("%g", t.bisectorWeight) + ")";
    if (rec.numObstacleLines > 0)
        f.narration += " + " + std::to_string(rec.numObstacleLines) + " obstacle lines";
    f.narration += " \xE2\x86\x92 push away from line " + std::to_string(s.line) +
                   (s.innerFailed ? " (failed by rounding: keep v)" : "") +
                   " \xE2\x86\x92 v = " + vec(s.after) + ", distance " + fmt("%.3g", s.distance);
    return f;
}

SolveFrame solveControls(const ExplainRecord& rec, SolveState& state) {
    const int count = solveStepCount(rec);
    if (count == 0) {
        ImGui::TextWrapped(rec.isStatic ? "A static agent solves nothing."
                                        : "Computing the LP trace...");
        return {};
    }
    state.step = std::clamp(state.step, 0, count - 1);
    if (ImGui::ArrowButton("##solvePrev", ImGuiDir_Left)) state.step = std::max(state.step - 1, 0);
    ImGui::SameLine();
    if (ImGui::ArrowButton("##solveNext", ImGuiDir_Right))
        state.step = std::min(state.step + 1, count - 1);
    ImGui::SameLine();
    SolveFrame f = solveFrame(rec, state.step);
    ImGui::SetNextItemWidth(std::max(ImGui::GetContentRegionAvail().x * 0.45f, 80.0f));
    if (ImGui::SliderInt("##solveStep", &state.step, 0, count - 1, "step %d")) {
        state.step = std::clamp(state.step, 0, count - 1);
        f = solveFrame(rec, state.step);
    }
    ImGui::SameLine();
    ImGui::Text("/ %d \xC2\xB7 %s", count - 1, f.title.c_str());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(f.narration.c_str());
    ImGui::PopTextWrapPos();
    return f;
}

// ---- Drawing ---------------------------------------------------------------------------------

Rgba solveLineColour(LineCase c) {
    if (c == LineCase::AgentColliding || c == LineCase::ObstacleCollidingLeftVertex ||
        c == LineCase::ObstacleCollidingRightVertex || c == LineCase::ObstacleCollidingSegment)
        return palette().kLineColliding;
    return isObstacleCase(c) ? palette().kLineObstacle : palette().kLineAgent;
}

namespace {

Rgba caseColour(LineCase c) {
    return solveLineColour(c);
}

constexpr Rgba kClip = kSolveClipColour;
constexpr Rgba kBisector = kSolveBisectorColour;

void polyline(ImDrawList& dl, const VelocityTransform& t, Vec2 a, Vec2 b, ImU32 c, float w,
              float dash = 0.0f) {
    const Vec2 sa = t.toScreen(a);
    const Vec2 sb = t.toScreen(b);
    if (dash <= 0.0f) {
        dl.AddLine(toIm(sa), toIm(sb), c, w);
        return;
    }
    const double len = length(sb - sa);
    if (len <= 0.0) return;
    const Vec2 u = (sb - sa) / len;
    const double period = 2.0 * static_cast<double>(dash);
    for (double s = 0.0; s < len && s < 20000.0; s += period)
        dl.AddLine(toIm(sa + u * s), toIm(sa + u * std::min(s + static_cast<double>(dash), len)), c,
                   w);
}

void infiniteLine(ImDrawList& dl, const VelocityTransform& t, const Rect& clipVel, const Line& line,
                  ImU32 c, float w, float dash = 0.0f) {
    const auto seg = clipLineToRect(line, clipVel);
    if (seg) polyline(dl, t, (*seg)[0], (*seg)[1], c, w, dash);
}

void arrowTo(ImDrawList& dl, const VelocityTransform& t, Vec2 from, Vec2 to, ImU32 c, float w,
             float dash = 0.0f) {
    const Vec2 a = t.toScreen(from);
    const Vec2 b = t.toScreen(to);
    const double len = length(b - a);
    if (len < 2.0) return;
    const Vec2 u = (b - a) / len;
    const double head = std::min(static_cast<double>(stroke(10.0f)), 0.45 * len);
    const Vec2 base = b - u * head;
    const Vec2 side = perp(u) * (head * 0.45);
    polyline(dl, t, from, t.toVelocity(base), c, w, dash);
    dl.AddTriangleFilled(toIm(b), toIm(base + side), toIm(base - side), c);
}

void text(ImDrawList& dl, Vec2 screen, ImU32 c, const std::string& s) {
    const ImVec2 p = toIm(screen);
    dl.AddText({p.x + 1.0f, p.y + 1.0f}, col(palette().kTextShadow), s.c_str());
    dl.AddText(p, c, s.c_str());
}

void fillPolygon(ImDrawList& dl, const VelocityTransform& t, const std::vector<Vec2>& poly,
                 ImU32 fill, ImU32 outline) {
    if (poly.size() < 3) return;
    std::vector<ImVec2> pts;
    pts.reserve(poly.size());
    // Counter-clockwise in velocity space is clockwise on screen (y flipped): what ImGui wants.
    for (Vec2 p : poly)
        pts.push_back(toIm(t.toScreen(p)));
    dl.AddConvexPolyFilled(pts.data(), static_cast<int>(pts.size()), fill);
    dl.AddPolyline(pts.data(), static_cast<int>(pts.size()), outline, ImDrawFlags_Closed,
                   stroke(1.0f));
}

// The forbidden side of `line`, shaded near the line (a strip `px` wide on screen).
void forbiddenStrip(ImDrawList& dl, const VelocityTransform& t, const Rect& clipVel,
                    const Line& line, Rgba c, float px) {
    const auto seg = clipLineToRect(line, clipVel);
    if (!seg) return;
    const Vec2 a = t.toScreen((*seg)[0]);
    const Vec2 b = t.toScreen((*seg)[1]);
    const Vec2 n{line.direction.y, line.direction.x}; // right normal, y flipped
    const Vec2 o = n * static_cast<double>(stroke(px));
    dl.AddQuadFilled(toIm(a), toIm(b), toIm(b + o), toIm(a + o), col(c, std::uint8_t{70}));
}

void dot(ImDrawList& dl, const VelocityTransform& t, Vec2 v, ImU32 c, float r, bool filled) {
    if (filled)
        dl.AddCircleFilled(toIm(t.toScreen(v)), stroke(r), c, 16);
    else
        dl.AddCircle(toIm(t.toScreen(v)), stroke(r), c, 16, stroke(2.0f));
}

} // namespace

void drawSolve(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
               const ExplainRecord& rec, const SolveFrame& f) {
    if (f.count == 0) return;
    const Palette& pal = palette();
    const Rect clipVel = t.toVelocity(clip);
    const double radius = rec.params.maxSpeed;
    const Vec2 o = t.toScreen({0.0, 0.0});
    const float px = static_cast<float>(radius * t.pixelsPerUnit);
    const bool lp3 = f.kind == SolveStepKind::Lp3Line;

    // The region so far (solveRegion).
    if (const auto region = solveRegion(rec, f))
        fillPolygon(dl, t, *region, col(pal.kFeasibleFill, std::uint8_t{38}),
                    col(pal.kFeasibleOutline, std::uint8_t{120}));
    dl.AddCircle(toIm(o), px, col(pal.kMaxSpeed), 96, stroke(1.5f));

    // Every line of the record: inserted ones in their case colour, later ones faint.
    for (std::size_t k = 0; k < rec.lines.size(); ++k) {
        const SolveBackgroundLine b = solveBackgroundLine(f, k, lp3);
        if (!b.drawn) continue; // (drawn on top below)
        const ExplainLine& l = rec.lines[k];
        infiniteLine(dl, t, clipVel, l.line, col(caseColour(l.lineCase), b.alpha),
                     stroke(static_cast<float>(b.width)), stroke(static_cast<float>(b.dash)));
    }

    // v_pref (dashed) for orientation.
    arrowTo(dl, t, {0.0, 0.0}, rec.prefVelocity, col(pal.kArrowPref, 200), stroke(1.5f),
            stroke(5.0f));

    // LP3: the projected program (bisector lines, obstacle lines copied), the push direction.
    if (lp3 && !f.held) {
        for (std::size_t k = 0; k < f.projected.size(); ++k) {
            const bool obst = f.projectedObstacle[k];
            const Rgba c = obst ? pal.kLineObstacle : kBisector;
            forbiddenStrip(dl, t, clipVel, f.projected[k], c, 8.0f);
            infiniteLine(dl, t, clipVel, f.projected[k], col(c), stroke(obst ? 1.5f : 2.0f),
                         obst ? 0.0f : stroke(6.0f));
            if (!obst) {
                const auto seg = clipLineToRect(f.projected[k], clipVel);
                if (seg)
                    text(dl, t.toScreen((*seg)[1]) + Vec2(-34.0, 2.0), col(c),
                         "\xE2\x8A\xA5" + std::to_string(f.projectedFrom[k]));
            }
        }
        // The inner LP2's objective: as far as possible along perp(d_i), away from line i.
        const Vec2 pushEnd = f.before + f.push * (60.0 / t.pixelsPerUnit);
        arrowTo(dl, t, f.before, pushEnd, col(kBisector), stroke(2.5f));
        text(dl, t.toScreen(pushEnd) + Vec2(4.0, -16.0), col(kBisector), "push");
    }

    // Lines that clipped the LP1 interval, and the binding lines of the result.
    for (std::size_t k = 0; k < f.clipLines.size(); ++k) {
        const auto i = static_cast<std::size_t>(f.clipLines[k]);
        if (i >= rec.lines.size()) continue;
        infiniteLine(dl, t, clipVel, rec.lines[i].line, col(kClip), stroke(2.0f));
        dot(dl, t, f.clipPoints[k], col(kClip), 4.0f, true);
        // Named where the line leaves the view (the clip points crowd around v_opt).
        const auto seg = clipLineToRect(rec.lines[i].line, clipVel);
        if (seg) {
            const Vec2 end = t.toScreen((*seg)[k % 2 == 0 ? 1 : 0]);
            const Vec2 in = clip.center() - end;
            text(dl, end + in * (50.0 / std::max(length(in), 1.0)) + Vec2(-20.0, -8.0), col(kClip),
                 "line " + std::to_string(i));
        }
    }
    for (std::size_t b = 0; b < f.binding.size(); ++b) {
        const std::size_t i = f.binding[b];
        if (i >= rec.lines.size()) continue;
        const Line& l = rec.lines[i].line;
        forbiddenStrip(dl, t, clipVel, l, caseColour(rec.lines[i].lineCase), 10.0f);
        infiniteLine(dl, t, clipVel, l, col(pal.kWhy), stroke(2.5f));
        const auto seg = clipLineToRect(l, clipVel);
        if (seg)
            text(dl,
                 t.toScreen((*seg)[0] +
                            ((*seg)[1] - (*seg)[0]) * (0.12 + 0.22 * static_cast<double>(b % 4))) +
                     Vec2(4.0, 2.0),
                 col(pal.kWhy), "line " + std::to_string(i));
    }

    // The line under test: bold, its forbidden side shaded, its name.
    if (f.line >= 0 && static_cast<std::size_t>(f.line) < rec.lines.size()) {
        const ExplainLine& l = rec.lines[static_cast<std::size_t>(f.line)];
        const Rgba c = lp3 ? pal.kLp3 : caseColour(l.lineCase);
        forbiddenStrip(dl, t, clipVel, l.line, c, 14.0f);
        // LP1: the chord of the disk (ticks) and the interval left after the clips.
        if (f.hasLp1 && !f.missesDisk) {
            const ImU32 tick = col(pal.kHighlight);
            const Vec2 n =
                perp(l.line.direction) * (static_cast<double>(stroke(6.0f)) / t.pixelsPerUnit);
            for (Vec2 e : {f.diskA, f.diskB})
                polyline(dl, t, e - n, e + n, tick, stroke(2.0f));
            if (!f.empty) {
                polyline(dl, t, f.from, f.to, col(pal.kFeasibleOutline), stroke(7.0f));
            } else {
                polyline(dl, t, f.from, f.to, col(pal.kLp3), stroke(7.0f));
                text(dl, t.toScreen(f.from) + Vec2(10.0, 10.0), col(pal.kLp3), "interval empty");
            }
        }
        infiniteLine(dl, t, clipVel, l.line, col(pal.kHighlight, std::uint8_t{230}),
                     stroke(f.held ? 1.5f : 2.0f));
        const auto seg = clipLineToRect(l.line, clipVel);
        if (seg) {
            const Vec2 at = t.toScreen((*seg)[0] + ((*seg)[1] - (*seg)[0]) * 0.15);
            text(dl, at + Vec2(6.0, 4.0), col(pal.kHighlight), "line " + std::to_string(f.line));
        }
        // LP3: the distance reached, from the new v to line i.
        if (lp3 && !f.held) {
            const Vec2 foot = f.after + f.distance * perp(l.line.direction);
            polyline(dl, t, f.after, foot, col(pal.kLp3), stroke(2.0f), stroke(3.0f));
        }
    }

    // The optimum: before (ring) → after (dot).
    const bool moved = f.before != f.after;
    if (f.kind == SolveStepKind::Result) {
        arrowTo(dl, t, {0.0, 0.0}, f.after, col(pal.kArrowNew), stroke(2.5f));
        dot(dl, t, f.after, col(pal.kArrowNew), 5.0f, true);
        text(dl, t.toScreen(f.after) + Vec2(8.0, -8.0), col(pal.kArrowNew), "v_new");
        return;
    }
    dot(dl, t, f.before, col(pal.kArrowV), 6.0f, false);
    if (moved) {
        arrowTo(dl, t, f.before, f.after, col(pal.kHighlight), stroke(2.0f));
        dot(dl, t, f.after, col(pal.kArrowV), 5.0f, true);
        text(dl, t.toScreen(f.after) + Vec2(8.0, -8.0), col(pal.kArrowV), "v_opt");
    } else {
        text(dl, t.toScreen(f.before) + Vec2(8.0, -8.0), col(pal.kArrowV), "v_opt");
    }
}

} // namespace orca::ui
