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

} // namespace orca::ui
