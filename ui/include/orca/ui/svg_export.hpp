#pragma once
/// \file svg_export.hpp
/// The world view and the velocity-space panel as an SVG picture: vector paths for agents,
/// obstacles, goals, VO cones, half-planes, the feasible region and the arrows, and real
/// <text> labels, in the palette's colours and at the positions the screen shows them (the
/// camera's and the panel's transforms). Colours, label texts, which items get labels, grid
/// steps and the legend come from the tables the screen draws with (line_style.hpp,
/// element_colours.hpp, grid_style.hpp, label_style.hpp).
///
/// Drawn from the same data as the ImGui renderer (the Simulator and the primary agent's
/// ExplainRecord), not from the draw lists, so the file has one element per thing: every
/// half-plane of the record is one <path class="half-plane" data-line="k"> in the world view's
/// group (id "world-view") and one in the panel's (id "velocity-panel"); its shaded forbidden
/// side is a separate path (class "forbidden-side"). Routes are <polyline class="route"> (a
/// leg the roadmap cannot route: "route-blocked") in groups "routes" (the Routes layer) and
/// "routes-selected", the roadmap a group "roadmap". Not exported: trails, the edit tools'
/// overlays, construction mode, the "Why?" highlight and ImGui windows other than the panel.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/label_layout.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/world_renderer.hpp"

namespace orca {
class Simulator;
}

namespace orca::ui {

/// The velocity-space panel as it was on screen.
struct SvgPanel {
    Rect window;                 ///< the panel window (screen units)
    Rect canvas;                 ///< its canvas (screen units)
    VelocityTransform transform; ///< velocity -> screen of the canvas (VelocityPanel::transform)
    bool legend = true;
    /// The panel's placed labels (VelocityPanel::labels()): drawn where the screen has them.
    /// Null: the picture places the panel's labels itself, as the world view's.
    const LabelLayout* labels = nullptr;
    Rgba windowBackground{15, 15, 15, 240}; ///< ImGui's WindowBg
    Rgba titleBackground{41, 74, 122, 255}; ///< ImGui's TitleBgActive
    Rgba border{110, 110, 128, 128};        ///< ImGui's Border
    Rgba titleText{255, 255, 255, 255};     ///< ImGui's Text
};

/// Everything the picture shows. Screen units are ImGui's (window points, y down).
struct SvgPicture {
    const Simulator* sim = nullptr;
    Camera camera; ///< its viewport is the world view's rectangle
    WorldViewOptions world;
    std::span<const std::uint8_t> lp3Flags; ///< as for WorldRenderer::draw
    std::span<const std::size_t> selected;  ///< agent indices to ring
    /// Routes to draw (route_view.hpp): the Routes layer's when world.routes is on, the selected
    /// agents' always; the roadmap when world.roadmap is on (roadmap routing).
    WorldRoutes routes;
    const ExplainRecord* record = nullptr; ///< the primary agent's, drawn when not null
    OverlayLayers layers;
    OverlayStyle style;
    std::optional<SvgPanel> panel; ///< drawn when set and `record` is not null
    Rect frame;                    ///< the part of the screen the picture shows
    float fontSize = 15.0f;        ///< as ImGui::GetFontSize()
    float strokeScale = 1.0f;      ///< the UI scale: stroke widths and marker sizes (uiScale())
    std::string title;             ///< <title> of the document
};

/// The SVG document (UTF-8, standalone).
[[nodiscard]] std::string renderSvg(const SvgPicture& picture);

} // namespace orca::ui
