#pragma once
/// \file velocity_panel.hpp
/// The velocity-space panel: the explain overlays of the selected agent on a canvas of their
/// own (drawn with explain_overlay.hpp's functions, which include this header).

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/label_layout.hpp"

namespace orca::ui {

/// The canvas's caption naming the space and the agent it is about (`agent` as
/// VelocityPanel::agentLabel; empty: "A"): "absolute velocity of T (#1)", the obstacle
/// construction's "velocity of T (#1) (obstacles are static: relative = absolute)", or the
/// agent construction's "relative velocity v_A - v_B, A = T (#1)".
[[nodiscard]] std::string velocitySpaceCaption(bool relativeSpace, bool obstacle,
                                               const std::string& agent);

/// VelocityPanel::agentLabel for the agent at `index` (nullopt: removed, "") with the app's
/// agent names (the files' ids, by index; may be shorter): "T (#1)", or "#4" without a name.
[[nodiscard]] std::string captionAgentLabel(std::optional<std::size_t> index,
                                            std::span<const std::string> names);

/// The velocity-space panel: an ImGui window ("Velocity space") with a canvas, axes, grid and
/// its own pan (right/middle drag) and zoom (wheel about the cursor); fits the max-speed disk
/// when the record's agent changes. Shows the selected agent's record (or a hint when none),
/// a legend, LP2's failing line, and the construction mode when active.
class VelocityPanel {
  public:
    /// The window's size when it first appears (no saved settings) and the app set none.
    static constexpr float kDefaultWidth = 460.0f;
    static constexpr float kDefaultHeight = 720.0f;
    /// The smallest canvas drawn (px, each side): in a smaller window the text scrolls, and
    /// when even that leaves less, the panel says so instead (plotReason()).
    static constexpr float kMinPlotSide = 150.0f;

    /// Draws the panel; returns what the mouse is over inside it. `open` as in ImGui::Begin.
    /// Clamps construction.neighbor / phase into range; its buttons change them too.
    OverlayHover draw(const ExplainRecord* rec, const OverlayLayers& layers,
                      const OverlayHover& highlight, ConstructionState& construction, bool* open);

    /// Velocity units per pixel and centre (for tests and for fitting).
    [[nodiscard]] double unitsPerPixel() const { return m_unitsPerPixel; }
    [[nodiscard]] Vec2 center() const { return m_center; }

    /// The canvas rectangle (screen) of the last draw (tests may set it).
    [[nodiscard]] const Rect& canvas() const { return m_canvas; }
    void setCanvas(const Rect& canvas) { m_canvas = canvas; }
    /// The canvas's velocity → screen map.
    [[nodiscard]] VelocityTransform transform() const;
    /// Moves the view with a drag of `screenDelta`.
    void pan(Vec2 screenDelta);
    /// Zooms by `factor` (> 1 = in), keeping the velocity under `screenPoint` fixed.
    void zoomAbout(Vec2 screenPoint, double factor);
    /// Centres `center` and fits a disk of `radius` (velocity units) in the canvas.
    void fit(Vec2 center, double radius);

    /// Lines (indices into the record's lines) drawn emphasised as binding ("Why?"); set by
    /// the app before draw().
    std::vector<std::size_t> bindingLines;
    /// Set when the panel's "Why?" button was pressed (the app clears it).
    bool whyRequested = false;
    /// Solve mode (solve_view.hpp), owned by the app; null: no Solve toggle. While active the
    /// canvas replays the record's LP trace (the app requests it) instead of the overlays.
    struct SolveState* solve = nullptr;
    /// Set by the app (key F) to zoom to the decision (focusBox) on the next draw, as the
    /// panel's Focus button does.
    bool focusRequested = false;
    /// Frame a newly selected agent's decision (Focus) instead of its max-speed disk (Fit).
    bool focusOnSelect = true;
    /// A velocity marked beside the record's own, e.g. the velocity a recording holds for the
    /// step the record decides: a cross labelled `label` on the canvas (when `velocity` is
    /// set) and `caption` as a line of text above it. Set by the app before draw() (nullopt:
    /// none).
    struct Mark {
        std::optional<Vec2> velocity;
        std::string label;
        std::string caption;
        /// The mark deviates from the record's v_new (a recording's conformance check): a
        /// segment joins them and `caption` is drawn in the warning colour.
        bool deviates = false;
        /// Lines (indices into the record's lines) the marked velocity lies outside of, drawn
        /// emphasised in the warning colour and labelled "xk".
        std::vector<std::size_t> violatedLines;
    };
    std::optional<Mark> mark;
    /// The record's agent as the captions name it, e.g. "T (#1)" or "#4"; set by the app
    /// before draw(). Empty: "A".
    std::string agentLabel;

    /// The labels of the last draw (placed rectangles, for the state dump and tests).
    [[nodiscard]] const LabelLayout& labels() const { return m_labels; }
    /// The canvas's caption at the last draw (velocitySpaceCaption), for the state dump.
    [[nodiscard]] const std::string& caption() const { return m_caption; }
    /// The panel window's rectangle (screen) at the last draw.
    [[nodiscard]] const Rect& windowRect() const { return m_windowRect; }
    /// The plot (canvas) as last drawn; empty when the last draw showed none (no record, the
    /// window closed, or too small: then plotReason() says why, as the panel does).
    [[nodiscard]] const Rect& plotRect() const { return m_plotRect; }
    [[nodiscard]] const std::string& plotReason() const { return m_plotReason; }

  private:
    Vec2 m_center{0.0, 0.0};
    double m_unitsPerPixel = 0.02;
    std::optional<AgentId> m_fittedFor;
    int m_fittedSpace = -1; ///< construction space last fitted (-1 normal, 0 rel, 1 abs)
    int m_fittedNeighbor = -1;
    Rect m_canvas{{0.0, 0.0}, {400.0, 400.0}};
    Rect m_windowRect = Rect::empty();
    Rect m_plotRect = Rect::empty();
    std::string m_plotReason;
    float m_textHeight = 0.0f; ///< height of the text above the canvas at the last draw
    bool m_showLegend = true;
    /// Window size when the window appeared (cleared once it no longer appears or resized).
    std::optional<Vec2> m_appearedSize;
    int m_refitFrames = 0; ///< frames left that fit the view again (after the default size)
    LabelLayout m_labels;
    std::string m_caption;
};

} // namespace orca::ui
