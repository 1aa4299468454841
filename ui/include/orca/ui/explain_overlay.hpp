#pragma once
/// \file explain_overlay.hpp
/// The overlays that teach ORCA, drawn from the core's explain records (never recomputed
/// here): VO cones, ORCA half-planes with their forbidden side shaded, u, the feasible region,
/// the v / v_pref / v_new arrows, the LP3 result — in the world view (anchored at the agent) and
/// in the velocity-space panel — plus the construction mode that builds one half-plane step
/// by step, and hover hit-testing shared by both views.
///
/// Three layers: explain_geometry.hpp builds the shapes (pure functions, no ImGui),
/// explain_text.hpp the words (captions, tooltips, legend entries), and this header draws them
/// with ImGui draw lists. It includes the other two (and velocity_panel.hpp), so the app needs
/// only this one.
///
/// Velocity space in the world view: a velocity x of agent A is drawn at the world point
/// p_A + x * seconds (`OverlayStyle::worldSeconds`), so arrows and regions keep their meaning
/// ("where A would be after that many seconds").
///
/// Conventions of the drawing: the *forbidden* side of every half-plane is shaded (the unshaded
/// part of the max-speed disk is the feasible region, also filled green); agent lines are sky
/// blue, obstacle lines orange, colliding lines vermillion; solid = cut-off circle / cut-off
/// line, dashed = leg, dotted = colliding. Construction phase 2 shades the *permitted* side
/// green (the ORCA half-plane of the articles) and says so in its caption.
///
/// Per frame, the app: (1) gets the record of the selected agent (Simulator::explain, or the
/// record of the last step), (2) calls drawExplainInWorld and VelocityPanel::draw with last
/// frame's hover as `highlight`, (3) keeps whichever returned a valid hover (the panel's wins,
/// it is on top) as next frame's highlight and (4) calls showHoverTooltip with it.

#include <string_view>

#include <imgui.h>

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/explain_text.hpp"
#include "orca/ui/label_layout.hpp"
#include "orca/ui/velocity_panel.hpp"

namespace orca::ui {

// ---- Labels ----------------------------------------------------------------------------------

/// A label request measured with the current ImGui font (`shortText`: the abbreviation used
/// when the full text fits nowhere, or null).
[[nodiscard]] LabelRequest labelRequest(Vec2 anchor, const char* text, ImU32 colour, int priority,
                                        LabelSide side, const char* shortText = nullptr);
/// Places `labels` inside `bounds` and draws them: text over a shadow in the palette's
/// text-shadow colour, and a thin line back to the anchor for labels placed away from it.
void placeAndDrawLabels(ImDrawList& dl, LabelLayout& labels, const Rect& bounds);

// ---- Text on screen ----------------------------------------------------------------------------

/// Shows describeLine() as an ImGui tooltip when `hover` is valid for `rec` (call once per
/// frame, inside the ImGui frame, after both views were drawn).
void showHoverTooltip(const ExplainRecord& rec, const OverlayHover& hover,
                      std::string_view neighborName = {});

/// Glyph ranges the overlay texts use beyond Latin-1 (∞, τ, Δ, −, →, ↑↓←→ in captions and
/// tooltips), zero-terminated, for ImFontAtlas::AddFontFromFileTTF (DejaVuSans has them all).
[[nodiscard]] const ImWchar* overlayGlyphRanges();

// ---- World view ------------------------------------------------------------------------------

/// Draws the record's overlays in the world view (clipped to the camera viewport) and returns
/// what the mouse (screen position `mouse`, when `mouseActive`) is over. `highlight` is drawn
/// emphasised (hover from either view). Honours every layer except `velocityPanel`; does
/// nothing when `layers.inWorld` is false. With `construction` (construction mode is on) the
/// other lines' overlays are dimmed and unlabelled, and the current line's VO (and, from its
/// phase on, u and the half-plane) is drawn bright over them.
OverlayHover drawExplainInWorld(ImDrawList& dl, const Camera& camera, const ExplainRecord& rec,
                                const OverlayLayers& layers, const OverlayStyle& style,
                                const OverlayHover& highlight, Vec2 mouse, bool mouseActive,
                                const ConstructionGeometry* construction = nullptr);

// ---- Velocity space (both views) ---------------------------------------------------------------

/// Where the overlay is drawn: changes only styling (the world view shades a strip along each
/// line instead of the whole forbidden side, and labels less).
enum class OverlayView { World, Panel };

/// Draws the normal (non-construction) overlays of `rec` in A's absolute velocity space.
void drawVelocitySpace(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                       const ExplainRecord& rec, const OverlayLayers& layers,
                       const OverlayStyle& style, const OverlayHover& highlight, OverlayView view);

/// Draws one phase of construction mode (relative velocity space in phases 0–1 — the panel's
/// transform then maps v_A − v_B — and A's absolute space in phase 2).
void drawConstruction(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, const ConstructionGeometry& g,
                      const OverlayStyle& style);

} // namespace orca::ui
