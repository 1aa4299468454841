#pragma once
/// \file element_colours.hpp
/// The colour (palette entry and alpha) of each element both the screen and the SVG export
/// draw, where it is more than a palette entry taken as it is: an agent's outline, a detour
/// cell's tint, the VO cones, the u arrows, v_pref while detouring, the LP2 and LP3 marks, the
/// labels' leader lines and the velocity panel's captions — one rule for the screen
/// (world_renderer.cpp, explain_overlay.cpp, velocity_panel.cpp) and the SVG export
/// (svg_*.cpp), so that changing a colour here changes both. The half-planes' colours and
/// dashes by case are line_style.hpp's, the grids' grid_style.hpp's, the labels' texts and
/// colours label_style.hpp's.

#include <algorithm>
#include <cstdint>

#include "orca/orca_lines.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

/// The colour with another alpha.
[[nodiscard]] inline Rgba withAlpha(Rgba c, std::uint8_t a) {
    c.a = a;
    return c;
}

/// The colour with its alpha scaled by `s` (clamped to 0..255, rounded down).
[[nodiscard]] inline Rgba scaledAlpha(Rgba c, float s) {
    c.a = static_cast<std::uint8_t>(std::clamp(static_cast<float>(c.a) * s, 0.0f, 255.0f));
    return c;
}

// ---- World view --------------------------------------------------------------------------------

/// An agent's outline: its fill blended halfway to white, so small agents keep their colour.
[[nodiscard]] inline Rgba agentOutline(Rgba fill) {
    auto mix = [](std::uint8_t v) { return static_cast<std::uint8_t>((v + 255) / 2); };
    return {mix(fill.r), mix(fill.g), mix(fill.b), 255};
}

/// A detour-field cell whose vector has length `magnitude`: the palette's kDetourCell, its
/// alpha rising from 20 to the palette's at magnitude 3 (one source gives 1; overlapping
/// circulations add up, or cancel).
[[nodiscard]] inline Rgba detourCellColour(double magnitude) {
    const double t = std::min(magnitude / 3.0, 1.0);
    const Rgba tint = palette().kDetourCell;
    return withAlpha(tint, static_cast<std::uint8_t>(20 + t * (tint.a - 20)));
}

/// A route's line (route_view.hpp): a selected agent's in the palette's kRoute, the Routes
/// layer's (every goal agent) in kRouteAll; a leg the roadmap cannot route in kRouteBlocked.
[[nodiscard]] inline Rgba routeLineColour(bool selected, bool blocked) {
    if (blocked)
        return selected ? palette().kRouteBlocked : scaledAlpha(palette().kRouteBlocked, 0.4f);
    return selected ? palette().kRoute : palette().kRouteAll;
}

/// A waypoint marker's fill: the route's colour; a waypoint already reached at 35 %.
[[nodiscard]] inline Rgba waypointColour(bool selected, bool reached) {
    const Rgba c = selected ? palette().kRoute : withAlpha(palette().kRouteAll, 170);
    return reached ? scaledAlpha(c, 0.35f) : c;
}

/// Route line widths (screen units at 100 %): a selected agent's, the Routes layer's.
inline constexpr float kRouteWidthSelected = 2.0f;
inline constexpr float kRouteWidthAll = 1.0f;

// ---- Explain overlays --------------------------------------------------------------------------

/// What a VO cone is drawn for.
enum class VoRole {
    Skipped,     ///< an obstacle segment that built no line (covered, foreign leg...): panel only
    World,       ///< a line's VO in the world view (many cones over the crowd: lighter)
    Panel,       ///< a line's VO in the velocity panel
    Highlighted, ///< the hovered line's VO, and the current one of construction mode
};

/// How a VO cone looks: outline and fill colours, outline width (screen units at 100 %), and
/// whether the legs are dashed.
struct VoLook {
    Rgba outline;
    Rgba fill;
    float width = 1.0f;
    bool dashedLegs = false;
};

[[nodiscard]] inline VoLook voLook(VoRole role) {
    const Palette& p = palette();
    switch (role) {
    case VoRole::Skipped:
        return {scaledAlpha(p.kVo, 0.35f), scaledAlpha(p.kVoFill, 0.5f), 1.0f, true};
    case VoRole::World:
        return {scaledAlpha(p.kVo, 0.4f), scaledAlpha(p.kVoFill, 0.5f), 1.0f};
    case VoRole::Panel:
        return {scaledAlpha(p.kVo, 0.6f), scaledAlpha(p.kVoFill, 1.0f), 1.0f};
    case VoRole::Highlighted:
        return {p.kVo, p.kVoFillHighlight, 2.0f};
    }
    return {p.kVo, p.kVoFill, 1.0f};
}

/// The u arrow of a line (from v to uArrowTip): the line's colour at 80 %; the marker at its
/// tip has the line's colour (lineColour).
[[nodiscard]] inline Rgba uArrowColour(LineCase c) {
    return scaledAlpha(lineColour(c), 0.8f);
}

/// The wide mark under the line at which LP2 failed.
[[nodiscard]] inline Rgba lp2FailColour() {
    return withAlpha(palette().kLp3, 150);
}

/// v_pref's arrow (and label): while the agent detours, ORCA's v_pref is the detour direction
/// and has the detour's colour.
[[nodiscard]] inline Rgba prefArrowColour(bool detouring) {
    return detouring ? palette().kDetourSample : palette().kArrowPref;
}

/// The goal's v_pref, drawn (dashed, thin) beside the detour's while the agent detours.
[[nodiscard]] inline Rgba goalPrefArrowColour() {
    return withAlpha(palette().kArrowPref, 120);
}

/// The outline of LP3's diamond at v_new: the palette's text shadow on screen. The SVG export
/// has always outlined it in black at alpha 200 whatever the theme (the same in the dark
/// theme, not in the light one); kept apart so that both outputs stay as they were — make
/// lp3MarkerOutlineSvg() return lp3MarkerOutline() to unify them.
[[nodiscard]] inline Rgba lp3MarkerOutline() {
    return palette().kTextShadow;
}
[[nodiscard]] inline Rgba lp3MarkerOutlineSvg() {
    return {0, 0, 0, 200};
}

// ---- Labels ------------------------------------------------------------------------------------

/// Alpha of the line from a label placed away from its anchor back to it (the label's colour);
/// a wider line in the palette's text shadow is drawn under it.
inline constexpr std::uint8_t kLabelLeaderAlpha = 190;

/// The plate behind a placed label (the screen's; the SVG export draws none).
[[nodiscard]] inline Rgba labelPlateColour() {
    return withAlpha(palette().kTextShadow, 120);
}

// ---- Velocity panel ----------------------------------------------------------------------------

/// The canvas's captions ("absolute velocity of A", the screen's hint).
[[nodiscard]] inline Rgba panelCaptionColour() {
    return withAlpha(palette().kText, 170);
}

/// Solve mode (solve_view.hpp): the earlier lines that clipped the LP1 interval (yellow) and
/// LP3's projected (bisector) lines (purple); the same in both themes.
inline constexpr Rgba kSolveClipColour{240, 228, 66, 255};
inline constexpr Rgba kSolveBisectorColour{204, 121, 220, 255};

} // namespace orca::ui
