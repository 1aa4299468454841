#pragma once
/// \file explain_overlay.hpp
/// The overlays that teach ORCA, drawn from the core's explain records (never recomputed
/// here): VO cones, ORCA half-planes with their forbidden side shaded, u, the feasible region,
/// the v / v_pref / v_new arrows, the LP3 result — in the world view (anchored at the agent) and
/// in the velocity-space panel — plus the construction mode that builds one half-plane step
/// by step, and hover hit-testing shared by both views.
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

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <imgui.h>

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/label_layout.hpp"

namespace orca::ui {

/// Which overlays are drawn. Toggled from the View menu and persisted between runs.
struct OverlayLayers {
    bool voCones = true;         ///< VO of each neighbour (agents and obstacle segments)
    bool halfPlanes = true;      ///< ORCA lines, forbidden side shaded, coloured by case
    bool uVectors = true;        ///< u drawn from the relative velocity (and v + u/2 marked)
    bool feasibleRegion = true;  ///< half-planes ∩ max-speed disk, filled
    bool velocityArrows = true;  ///< v, v_pref, v_new (+ LP3 result and depth when infeasible)
    bool inWorld = true;         ///< draw the overlays in the world view around the agent
    bool velocityPanel = true;   ///< show the velocity-space panel
    bool neighborLinks = true;   ///< lines from the selected agent to its neighbours
    bool neighborCircle = false; ///< the neighborDist circle of the selected agent
    bool detour = true;          ///< detour: sample point and radius, chosen direction, and the
                                 ///< goal's v_pref beside the substituted one
};

/// Something the pointer is over (a half-plane, i.e. a line of the record, and the neighbour
/// or obstacle segment that built it). Reported by the views, highlighted in both.
struct OverlayHover {
    int line = -1; ///< index into ExplainRecord::lines, -1 = none
    [[nodiscard]] bool valid() const { return line >= 0; }
    friend bool operator==(const OverlayHover&, const OverlayHover&) = default;
};

/// Construction mode: walk through the record's lines one at a time, in the solver's order —
/// the obstacle lines first, then the agent neighbours (nearest first).
struct ConstructionState {
    static constexpr int kPhases = 3;
    bool active = false;
    /// Step of the walk (↑/↓ change it): obstacle line k for k < numObstacleLines, then agent
    /// neighbour k − numObstacleLines; equal to the index into ExplainRecord::lines.
    int neighbor = 0;
    /// 0: VO of the neighbour in relative velocity space with v_A − v_B (obstacles are
    ///    static: relative = absolute, with v_A);
    /// 1: + u (smallest change leaving the VO; obstacles: to the nearest point of the line);
    /// 2: the half-plane through v_A + ½u (agents) or v_A + u (obstacles) in A's absolute
    ///    velocity space.
    int phase = 0;
};

/// Everything the overlays need besides the record.
struct OverlayStyle {
    double worldSeconds = 2.0; ///< world view: velocity x drawn at p + x * worldSeconds
    float lineThickness = 1.5f;
    float hoverPixels = 5.0f; ///< a line is hovered within this distance (screen units)
    /// World view: the mouse inside a neighbour's VO also hovers its line. The cones reach
    /// the edge of the view, so the app may turn this off while the user picks agents.
    bool hoverInsideVo = true;
    /// Where the labels go. Null: each drawing call places and draws its own labels (they
    /// avoid each other). Set: they are added to this layout and the caller places and draws
    /// it (placeAndDrawLabels) once every drawing of the view added its labels.
    LabelLayout* labels = nullptr;
};

// ---- Labels ----------------------------------------------------------------------------------

/// A label request measured with the current ImGui font (`shortText`: the abbreviation used
/// when the full text fits nowhere, or null).
[[nodiscard]] LabelRequest labelRequest(Vec2 anchor, const char* text, ImU32 colour, int priority,
                                        LabelSide side, const char* shortText = nullptr);
/// The side of an anchor that screen direction `dir` points to.
[[nodiscard]] LabelSide labelSideToward(Vec2 dir);
/// Places `labels` inside `bounds` and draws them: text over a shadow in the palette's
/// text-shadow colour, and a thin line back to the anchor for labels placed away from it.
void placeAndDrawLabels(ImDrawList& dl, LabelLayout& labels, const Rect& bounds);

// ---- Text ------------------------------------------------------------------------------------

/// An agent id as shown in the UI: "#slot", or "#slot:generation" once the slot was reused.
[[nodiscard]] std::string formatAgentId(AgentId id);

/// A one-line description of a line for tooltips: neighbour (`neighborName` when not empty,
/// e.g. the scene's agent id, else formatAgentId / "obstacle #slot segment k"), case
/// (toString(LineCase)), distance, time to collision ("∞" when none), violation by v_new.
/// Empty for an out-of-range line.
[[nodiscard]] std::string describeLine(const ExplainRecord& rec, int line,
                                       std::string_view neighborName = {});

/// Shows describeLine() as an ImGui tooltip when `hover` is valid for `rec` (call once per
/// frame, inside the ImGui frame, after both views were drawn).
void showHoverTooltip(const ExplainRecord& rec, const OverlayHover& hover,
                      std::string_view neighborName = {});

/// The text lines of the panel's status block: agent, line counts, "feasible" or
/// "infeasible: LP2 failed at line k", LP3 depth. Static agents get one line saying so.
[[nodiscard]] std::vector<std::string> summaryLines(const ExplainRecord& rec);

/// Glyph ranges the overlay texts use beyond Latin-1 (∞, τ, Δ, −, →, ↑↓←→ in captions and
/// tooltips), zero-terminated, for ImFontAtlas::AddFontFromFileTTF (DejaVuSans has them all).
[[nodiscard]] const ImWchar* overlayGlyphRanges();

// ---- World view ------------------------------------------------------------------------------

struct ConstructionGeometry;

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

// ---- Building blocks (shared by both views; pure helpers are unit-tested) ---------------------

/// Maps one velocity space (A's absolute, or relative) to the screen: a similarity with the
/// y axis flipped. screen = origin + pixelsPerUnit * (x, -y).
struct VelocityTransform {
    Vec2 origin{0.0, 0.0};      ///< screen position of the velocity (0, 0)
    double pixelsPerUnit = 1.0; ///< screen units per velocity unit (> 0)

    [[nodiscard]] Vec2 toScreen(Vec2 v) const {
        return {origin.x + v.x * pixelsPerUnit, origin.y - v.y * pixelsPerUnit};
    }
    [[nodiscard]] Vec2 toVelocity(Vec2 s) const {
        return {(s.x - origin.x) / pixelsPerUnit, (origin.y - s.y) / pixelsPerUnit};
    }
    /// The velocity rectangle seen through the screen rectangle `screen`.
    [[nodiscard]] Rect toVelocity(const Rect& screen) const;
    /// World view: velocity x at camera.worldToScreen(position + x * seconds).
    [[nodiscard]] static VelocityTransform forWorld(const Camera& camera, Vec2 position,
                                                    double seconds);
};

/// A convex polygon of at most 8 vertices, counter-clockwise (y up).
struct SmallPolygon {
    std::array<Vec2, 8> points{};
    int count = 0;
};

/// The part of `rect` on the permitted (left, `permittedSide` = true) or forbidden (right)
/// side of `line`. Empty (count 0) when none of it is.
[[nodiscard]] SmallPolygon clipRectToHalfPlane(const Rect& rect, const Line& line,
                                               bool permittedSide);

/// The part of the infinite line inside `rect` as two points (in direction order), or nullopt.
[[nodiscard]] std::optional<std::array<Vec2, 2>> clipLineToRect(const Line& line, const Rect& rect);

/// The drawable outline of a VO (relative velocity space) — see voOutline().
struct VoOutline {
    bool valid = false;          ///< false when the record has no geometry (cutoffRadius <= 0)
    bool disk = false;           ///< colliding agents: the VO is the disk of time Δt
    Vec2 leftTangent{0.0, 0.0};  ///< where the left leg leaves the cut-off circle
    Vec2 rightTangent{0.0, 0.0}; ///< where the right leg leaves the (right) cut-off circle
    /// Near boundary from leftTangent to rightTangent (arcs, and the cut-off line of a
    /// segment), counter-clockwise, `arcPoints` points per arc.
    std::vector<Vec2> nearBoundary;
};

/// Builds the outline of `vo` (relative space; add vo.offset for A's absolute space): the legs
/// start at the tangent points cutoffCenter + R·perp(leftLeg) and cutoffCenter2 − R·perp(rightLeg)
/// and run outward along leftLeg / rightLeg.
[[nodiscard]] VoOutline voOutline(const VelocityObstacle& vo, int arcPoints = 24);
/// The same into `out`, reusing its storage (no allocation once warm).
void voOutline(const VelocityObstacle& vo, int arcPoints, VoOutline& out);

/// True when the relative velocity `x` is inside the truncated VO (on its boundary counts).
[[nodiscard]] bool voContains(const VelocityObstacle& vo, Vec2 x);

/// The line under `mouse` (screen): the nearest drawn line within `hoverPixels`, else the first
/// line whose VO (absolute space) contains the mouse; -1 outside `clip` or over nothing.
[[nodiscard]] OverlayHover hitTest(const ExplainRecord& rec, const VelocityTransform& t,
                                   const Rect& clip, const OverlayLayers& layers, Vec2 mouse,
                                   double hoverPixels = 5.0);

/// What to draw for LP3 (valid only when LP2 failed): v_new and the foot of the perpendicular
/// from it on the most violated line (the penetration depth).
struct Lp3Marker {
    bool valid = false;
    int line = -1;           ///< the most violated line
    Vec2 velocity{0.0, 0.0}; ///< v_new (LP3's result)
    Vec2 foot{0.0, 0.0};     ///< v_new + depth·perp(d): the nearest point of that line
    double depth = 0.0;      ///< its violation (≈ rec.lp3Depth)
};
[[nodiscard]] Lp3Marker lp3Marker(const ExplainRecord& rec);

/// Number of steps of the construction walk: the obstacle lines, then the agent neighbours
/// that built a line.
[[nodiscard]] int constructionCount(const ExplainRecord& rec);

/// Index into rec.lines of construction step `c.neighbor` (clamped into the walk), -1 when
/// the record has no lines to construct.
[[nodiscard]] int constructionLine(const ExplainRecord& rec, const ConstructionState& c);

/// What construction mode shows for one line (an obstacle segment's or an agent neighbour's).
struct ConstructionGeometry {
    int line = -1;                   ///< index into rec.lines
    int neighbor = 0;                ///< clamped step of the walk (== line)
    int phase = 0;                   ///< clamped phase
    bool obstacle = false;           ///< an obstacle line (no ½: obstacles do not move)
    bool relativeSpace = true;       ///< phases 0, 1: v_A − v_B space; phase 2: absolute
    VelocityObstacle vo;             ///< the VO, relative space (apex at origin)
    Vec2 relativeVelocity{0.0, 0.0}; ///< v_A − v_B (obstacles: v_A)
    Vec2 uEnd{0.0, 0.0};             ///< relativeVelocity + u (on the VO boundary / the line)
    Vec2 velocity{0.0, 0.0};         ///< v_A
    /// Absolute space, permitted = left: through v_A + ½u (agents) or v_A + u (obstacles).
    Line halfPlane;
    std::string caption;             ///< what this phase shows
};
/// nullopt when `rec` has no lines to construct.
[[nodiscard]] std::optional<ConstructionGeometry> constructionGeometry(const ExplainRecord& rec,
                                                                       const ConstructionState& c);

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

/// Construction mode's hover: g.line when the mouse is inside the VO (phases 0–1) or within
/// `hoverPixels` of the half-plane's line (phase 2).
[[nodiscard]] OverlayHover hitTestConstruction(const ConstructionGeometry& g,
                                               const VelocityTransform& t, const Rect& clip,
                                               Vec2 mouse, double hoverPixels = 5.0);

/// The velocity rectangle of A's decision, for the panel's Focus: v, v_pref, v_new, each line's
/// v + ½u and v + u (the u arrows' tips; obstacle lines: v + u) and the feasible region's
/// vertices that lie near the decision (within about twice its size, at least 15 % of the max
/// speed, of v), so that those arrows are large enough to read. Never smaller than 2 % of the
/// max speed across.
[[nodiscard]] Rect focusBox(const ExplainRecord& rec);

// ---- Velocity panel --------------------------------------------------------------------------

/// The velocity-space panel: an ImGui window ("Velocity space") with a canvas, axes, grid and
/// its own pan (right/middle drag) and zoom (wheel about the cursor); fits the max-speed disk
/// when the record's agent changes. Shows the selected agent's record (or a hint when none),
/// a legend, LP2's failing line, and the construction mode when active.
class VelocityPanel {
  public:
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

    /// The labels of the last draw (placed rectangles, for the state dump and tests).
    [[nodiscard]] const LabelLayout& labels() const { return m_labels; }
    /// The panel window's rectangle (screen) at the last draw.
    [[nodiscard]] const Rect& windowRect() const { return m_windowRect; }

  private:
    Vec2 m_center{0.0, 0.0};
    double m_unitsPerPixel = 0.02;
    std::optional<AgentId> m_fittedFor;
    int m_fittedSpace = -1; ///< construction space last fitted (-1 normal, 0 rel, 1 abs)
    int m_fittedNeighbor = -1;
    Rect m_canvas{{0.0, 0.0}, {400.0, 400.0}};
    Rect m_windowRect = Rect::empty();
    bool m_showLegend = true;
    LabelLayout m_labels;
};

} // namespace orca::ui
