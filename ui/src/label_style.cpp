// The label table of label_style.hpp: the overlays' labels, the panel's captions and the
// legend of the normal overlays, for the screen and the SVG export alike.
#include "orca/ui/label_style.hpp"

#include <cstdio>
#include <utility>

#include "orca/ui/element_colours.hpp"
#include "orca/ui/explain_text.hpp"

namespace orca::ui {

// ---- World view --------------------------------------------------------------------------------

std::string agentIdLabel(std::size_t index) {
    // Appending (not "#" + to_string) avoids a GCC 12 -Wrestrict false positive.
    std::string s(1, '#');
    s += std::to_string(index);
    return s;
}

// ---- Explain overlays --------------------------------------------------------------------------

bool showsDetour(const ExplainRecord& rec, const OverlayLayers& layers) {
    return layers.detour && rec.detour.enabled && rec.detour.mode == DetourMode::Detouring;
}

OverlayLabel velocityLabel() {
    return {"v", nullptr, palette().kArrowV, 90, LabelSide::AboveLeft};
}

OverlayLabel prefVelocityLabel(bool detouring) {
    return {detouring ? "v_pref (detour)" : "v_pref", detouring ? "v_pref" : nullptr,
            prefArrowColour(detouring), 85, LabelSide::AboveRight};
}

OverlayLabel newVelocityLabel() {
    return {"v_new", nullptr, palette().kArrowNew, 100, LabelSide::BelowRight};
}

bool newVelocityLabelled(const Lp3Marker& m) {
    return !m.valid;
}

OverlayLabel goalPrefLabel() {
    return {"v_pref (goal)", "goal", withAlpha(palette().kArrowPref, 200), 60,
            LabelSide::BelowRight};
}

OverlayLabel lp3Label(double depth) {
    char buf[48];
    std::snprintf(buf, sizeof buf, "LP3 depth %.3g", depth);
    return {buf, "LP3", palette().kLp3, 95, LabelSide::BelowRight};
}

bool lineLabelled(bool panel, bool highlighted) {
    return panel || highlighted;
}

OverlayLabel lineLabel(std::size_t index, LineCase lineCase, bool highlighted) {
    return {std::to_string(index), nullptr,
            highlighted ? palette().kHighlight : lineColour(lineCase), highlighted ? 70 : 40};
}

OverlayLabel detourSampleLabel(DetourMode mode) {
    return {mode == DetourMode::Detouring ? "detour sample" : "sample (leaving)", "sample",
            palette().kDetourSample, 50, LabelSide::BelowRight};
}

// ---- Velocity panel ----------------------------------------------------------------------------

std::string lp2FailedCaption(std::size_t line) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "INFEASIBLE: LP2 failed at line %zu", line);
    return buf;
}

bool isInfeasibleSummary(std::string_view line) {
    return line.rfind("infeasible", 0) == 0;
}

// ---- The panel's legend ------------------------------------------------------------------------

Dash swatchDash(Swatch s) {
    switch (s) {
    case Swatch::DashedArrow:
        return {4.0f, 3.0f};
    case Swatch::DashedLine:
        return {6.0f, 3.0f};
    case Swatch::DottedLine:
        return {2.0f, 3.0f};
    default:
        return {};
    }
}

std::vector<LegendItem> overlayLegend(const ExplainRecord& rec, const OverlayLayers& layers) {
    bool colliding = false;
    bool legs = false;
    for (const ExplainLine& l : rec.lines) {
        colliding = colliding || familyOf(l.lineCase) == CaseFamily::Colliding;
        legs = legs || familyOf(l.lineCase) == CaseFamily::Leg;
    }
    const Palette& p = palette();
    std::vector<LegendItem> items;
    auto add = [&](bool on, Swatch swatch, Rgba colour, std::string text) {
        if (on) items.push_back({swatch, colour, std::move(text)});
    };
    add(layers.velocityArrows, Swatch::Arrow, p.kArrowV, "v");
    add(layers.velocityArrows, Swatch::DashedArrow, p.kArrowPref, "v_pref");
    add(layers.velocityArrows, Swatch::Arrow, p.kArrowNew, "v_new");
    add(layers.velocityArrows && rec.lp2Failed(), Swatch::Diamond, p.kLp3, "LP3 result, depth");
    add(layers.feasibleRegion && !rec.feasibleRegion.empty(), Swatch::Fill, p.kFeasibleFill,
        "feasible");
    add(layers.feasibleRegion || layers.velocityArrows, Swatch::Ring, p.kMaxSpeed, "max speed");
    add(layers.voCones, Swatch::Fill, p.kVoFillHighlight, "VO");
    add(layers.halfPlanes, Swatch::Line, p.kLineAgent, "agent line");
    add(layers.halfPlanes && rec.numObstacleLines > 0, Swatch::Line, p.kLineObstacle,
        "obstacle line");
    add(layers.halfPlanes && legs, Swatch::DashedLine, p.kText, "leg case");
    add(layers.halfPlanes && colliding, Swatch::DottedLine, p.kLineColliding, "colliding");
    add(layers.halfPlanes, Swatch::Strip, p.kLineAgent, "forbidden side");
    // The u arrows in the agent lines' colour, with their share of u ("v -> v+½u").
    add(layers.uVectors, Swatch::Arrow, p.kLineAgent, uArrowLegend(rec));
    return items;
}

std::vector<LegendItem> constructionLegend(const ConstructionGeometry& g) {
    const Palette& pal = palette();
    if (g.relativeSpace && g.obstacle)
        return {{Swatch::Fill, pal.kVoFillHighlight, "VO of A induced by the segment"},
                {Swatch::Line, pal.kVo, "legs, cut-off (dashed: whole)"},
                {Swatch::Arrow, pal.kArrowRelative, "v_A"},
                {Swatch::Arrow, pal.kU, "u"}};
    if (g.relativeSpace)
        return {{Swatch::Fill, pal.kVoFillHighlight, "VO of A induced by B"},
                {Swatch::Line, pal.kVo, "legs, cut-off circle (dashed: whole)"},
                {Swatch::Arrow, pal.kArrowRelative, "v_A - v_B"},
                {Swatch::Arrow, pal.kU, "u"}};
    // The line's recorded share of u: "½u" at RVO2's responsibility, "u" for obstacles.
    const std::string su = shareOfU(g.share);
    const std::string lineThrough = "line through v_A + " + su;
    if (g.obstacle) // static: v_A itself, the whole u and no v_B
        return {{Swatch::Fill, pal.kPermittedFill, "permitted side"},
                {Swatch::Line, pal.kLineObstacle, lineThrough},
                {Swatch::Arrow, pal.kArrowV, "v_A"},
                {Swatch::Arrow, pal.kU, "u (whole: obstacles do not move)"},
                {Swatch::Ring, pal.kMaxSpeed, "max speed"}};
    return {{Swatch::Fill, pal.kPermittedFill, "permitted side of ORCA_A|B"},
            {Swatch::Line, pal.kLineAgent, "ORCA " + lineThrough},
            {Swatch::Arrow, pal.kArrowV, "v_A"},
            {Swatch::Arrow, pal.kU, su},
            {Swatch::DashedArrow, pal.kArrowPref, "v_B (VO offset)"},
            {Swatch::Ring, pal.kMaxSpeed, "max speed"}};
}

std::vector<LegendItem> solveLegend() {
    const Palette& pal = palette();
    return {{Swatch::Ring, pal.kArrowV, "v_opt before (ring), after"},
            {Swatch::Line, pal.kHighlight, "line under test"},
            {Swatch::Strip, pal.kLineAgent, "its forbidden side"},
            {Swatch::Line, pal.kFeasibleOutline, "LP1 interval left"},
            {Swatch::Line, kSolveClipColour, "earlier line that clipped it"},
            {Swatch::Fill, pal.kFeasibleFill, "region of the lines so far"},
            {Swatch::DashedLine, kSolveBisectorColour, "LP3 bisector line"},
            {Swatch::Line, pal.kWhy, "binding line (result)"}};
}

const char* panelSpaceCaption(const ConstructionGeometry* construction) {
    if (!construction || !construction->relativeSpace) return kAbsoluteSpaceCaption;
    return construction->obstacle ? "velocity of A (obstacles are static: relative = absolute)"
                                  : "relative velocity v_A - v_B";
}

} // namespace orca::ui
