#pragma once
/// \file label_style.hpp
/// What the labels and captions of the world view, the explain overlays and the velocity panel
/// say, in which colour, and which items get one; and the entries of the panel's legend — one
/// table for the screen (world_renderer.cpp, explain_overlay.cpp, velocity_panel.cpp) and the
/// SVG export (svg_*.cpp), so that changing a text, a format or a colour here changes both.
/// The screen lays the overlays' labels out (label_layout.hpp: the priority and preferred side
/// below are for that); the SVG export puts the world view's at fixed offsets from their
/// anchors and the panel's where the screen's layout put them. The axis values are
/// grid_style.hpp's.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/label_layout.hpp"
#include "orca/ui/line_style.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

/// One label of the overlays.
struct OverlayLabel {
    std::string text;
    const char* shortText = nullptr; ///< used when `text` fits nowhere on screen; null: none
    Rgba colour;
    int priority = 0;                  ///< the screen's layout: higher is placed first
    LabelSide side = LabelSide::Right; ///< the screen's layout: tried first
};

// ---- World view --------------------------------------------------------------------------------

/// Agents drawn at least this radius (screen units) get their id beside them.
inline constexpr float kAgentIdMinRadius = 7.0f;

/// An agent's id label: "#i", its index in agent order (as the inspector).
[[nodiscard]] std::string agentIdLabel(std::size_t index);

/// The shadow under agent ids (the text is the palette's kAgentLabel): black at alpha 180 on
/// screen, whatever the theme. The SVG export has always shadowed them like its other labels,
/// in the palette's kTextShadow; kept apart so that both outputs stay as they were — make
/// agentIdShadowSvg() return agentIdShadow() to unify them.
[[nodiscard]] inline Rgba agentIdShadow() {
    return {0, 0, 0, 180};
}
[[nodiscard]] inline Rgba agentIdShadowSvg() {
    return palette().kTextShadow;
}

// ---- Explain overlays --------------------------------------------------------------------------

/// Whether v_pref is the detour's (the agent detours and the detour layer is on): then v_pref
/// has the detour's colour and label, and the goal's v_pref is drawn beside it.
[[nodiscard]] bool showsDetour(const ExplainRecord& rec, const OverlayLayers& layers);

/// The labels at the tips of v, v_pref and v_new (first tried above-left, above-right and
/// below-right: the three often nearly coincide).
[[nodiscard]] OverlayLabel velocityLabel();
[[nodiscard]] OverlayLabel prefVelocityLabel(bool detouring);
[[nodiscard]] OverlayLabel newVelocityLabel();
/// v_new is labelled unless LP3 ran: LP3's label (lp3Label) then names the same point.
[[nodiscard]] bool newVelocityLabelled(const Lp3Marker& m);

/// "v_pref (goal)", the goal's v_pref beside the detour's (showsDetour).
[[nodiscard]] OverlayLabel goalPrefLabel();
/// The SVG export's alpha for goalPrefLabel(): 160 where the screen has 200, as it always had;
/// kept apart so that both outputs stay as they were — use goalPrefLabel().colour to unify.
inline constexpr std::uint8_t kGoalPrefLabelAlphaSvg = 160;

/// "LP3 depth 0.123" at v_new when LP2 failed.
[[nodiscard]] OverlayLabel lp3Label(double depth);

/// Which half-planes carry their index: all in the panel, the highlighted one in the world.
[[nodiscard]] bool lineLabelled(bool panel, bool highlighted);
/// Line `index`'s label in its case's colour (the highlight colour when highlighted); its side
/// (off the line, on its permitted side) is the caller's.
[[nodiscard]] OverlayLabel lineLabel(std::size_t index, LineCase lineCase, bool highlighted);

/// The detour's sample point: "detour sample", or "sample (leaving)" once the agent leaves it.
[[nodiscard]] OverlayLabel detourSampleLabel(DetourMode mode);

// ---- Velocity panel ----------------------------------------------------------------------------

/// The panel's window title (also its ImGui id).
inline constexpr const char* kVelocityPanelTitle = "Velocity space";
/// The canvas's caption in A's absolute velocity space (panelCaptionColour()).
inline constexpr const char* kAbsoluteSpaceCaption = "absolute velocity of A";
/// The canvas's second caption when LP2 failed (in kLp3): "INFEASIBLE: LP2 failed at line k".
[[nodiscard]] std::string lp2FailedCaption(std::size_t line);
/// Whether a line of summaryLines() is the infeasibility warning, drawn in kLp3 (the others are
/// in the text colour: ImGui's on screen, the palette's kText in the SVG export).
[[nodiscard]] bool isInfeasibleSummary(std::string_view line);

// ---- The panel's legend ------------------------------------------------------------------------

enum class Swatch { Arrow, DashedArrow, Line, DashedLine, DottedLine, Fill, Strip, Diamond, Ring };

/// A legend entry: the swatch drawn in `colour`, then the text.
struct LegendItem {
    Swatch swatch;
    Rgba colour;
    std::string text;
};

/// The dashes of the dashed swatches (screen units; solid for the others).
[[nodiscard]] Dash swatchDash(Swatch s);
/// The Strip swatch (a forbidden side) fades from this alpha under its line to 0.
inline constexpr std::uint8_t kSwatchStripAlpha = 110;

/// The legend of the normal overlays: only what `rec` shows with `layers` (v, v_pref, v_new,
/// LP3, the feasible region, max speed, VO, agent / obstacle lines, leg and colliding cases,
/// forbidden side, the u arrows with the record's share).
[[nodiscard]] std::vector<LegendItem> overlayLegend(const ExplainRecord& rec,
                                                    const OverlayLayers& layers);

/// The legend of construction mode's step `g`: the VO with v_A - v_B and u (phases 0-1), the
/// permitted side, the line through v_A + share·u, v_A, v_B and max speed (phase 2); obstacle
/// lines without v_B and with the whole u.
[[nodiscard]] std::vector<LegendItem> constructionLegend(const ConstructionGeometry& g);

/// The legend of Solve mode (solve_view.hpp).
[[nodiscard]] std::vector<LegendItem> solveLegend();

/// The caption at the canvas's top-left: which velocity space it shows (`construction`: the
/// construction step shown, null: the normal overlays or Solve mode).
[[nodiscard]] const char* panelSpaceCaption(const ConstructionGeometry* construction);

} // namespace orca::ui
