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
/// "routes-selected", the roadmap a group "roadmap". Construction mode's step is a group
/// "construction" in the panel's canvas and in the world view (the other overlays there in a
/// faded group "faded"), Solve mode's step a group "solve" in the panel's canvas, each with
/// the legend the panel shows. The panel is its canvas only (the figure: grid, overlays,
/// caption, legend inside): no window frame, title bar or summary lines. Not exported: trails,
/// the edit tools' overlays, the "Why?" highlight and ImGui windows other than the panel.
///
/// `view` picks what the picture shows (picture_view.hpp), cropped to it (pictureViewRect).

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
#include "orca/ui/picture_view.hpp"
#include "orca/ui/solve_view.hpp"
#include "orca/ui/world_renderer.hpp"

namespace orca {
class Simulator;
}

namespace orca::ui {

/// The velocity-space panel as it was on screen.
struct SvgPanel {
    Rect window;                 ///< the panel window (screen units; not drawn)
    Rect canvas;                 ///< its canvas (screen units)
    VelocityTransform transform; ///< velocity -> screen of the canvas (VelocityPanel::transform)
    bool legend = true;
    /// The panel's placed labels (VelocityPanel::labels()): drawn where the screen has them.
    /// Null: the picture places the panel's labels itself, as the world view's.
    const LabelLayout* labels = nullptr;
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
    /// Construction mode's step as the panel shows it (constructionGeometry of the record and
    /// the app's ConstructionState), when construction mode is on.
    std::optional<ConstructionGeometry> construction;
    /// Solve mode's step as the panel shows it (solveFrame), when Solve mode is on.
    std::optional<SolveFrame> solve;
    /// The part of the screen `Both` may show: the world view and the panel between the menu
    /// bar and the status bar. The picture is cropped inside it (pictureViewRect).
    Rect frame;
    PictureView view = PictureView::Both;
    float fontSize = 15.0f;   ///< as ImGui::GetFontSize()
    float strokeScale = 1.0f; ///< the UI scale: stroke widths and marker sizes (uiScale())
    std::string title;        ///< <title> of the document
};

/// The rectangle (screen units) the picture of `picture.view` shows: World — the bounding box
/// of the scene's agents, obstacles and goals and of the primary agent's overlays, plus a
/// margin, inside the world view; Velocity — the panel's canvas; Both — the two together,
/// inside `frame`. Empty when the view has nothing to show (no panel, no scene). The PNG views
/// (--png-view) capture the same rectangle.
[[nodiscard]] Rect pictureViewRect(const SvgPicture& picture);

/// The SVG document (UTF-8, standalone).
[[nodiscard]] std::string renderSvg(const SvgPicture& picture);

} // namespace orca::ui
