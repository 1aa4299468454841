#pragma once
/// \file explain_geometry.hpp
/// The geometry of the explain overlays, as pure functions on the core's explain records (no
/// ImGui): the velocity-space transform, VO outlines, half-planes clipped to a view, the
/// construction mode's shapes, hover hit-testing, the LP3 marker, the Focus box and where
/// labels are anchored. explain_text.hpp says in words what these shapes are;
/// explain_overlay.hpp draws them with ImGui.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/label_layout.hpp"

namespace orca::ui {

/// Which overlays are drawn. Toggled from the View menu and persisted between runs.
struct OverlayLayers {
    bool voCones = true;         ///< VO of each neighbour (agents and obstacle segments)
    bool halfPlanes = true;      ///< ORCA lines, forbidden side shaded, coloured by case
    bool uVectors = true;        ///< u drawn from v to the line (v + share·u, see uArrowTip)
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
    /// 2: the half-plane through v_A + share·u (ExplainLine::share: ½ by default for agents,
    ///    1 for obstacles) in A's absolute velocity space.
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

// ---- Half-planes and lines in a view -----------------------------------------------------------

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

/// Screen unit normal pointing to the forbidden (right) side of `line` (velocity space, drawn
/// with the y flip of VelocityTransform).
[[nodiscard]] Vec2 forbiddenNormalScreen(const Line& line);

/// Where to anchor a line's index label: its point when inside `clipVel` (velocity units),
/// else the middle of its visible part; nullopt when the line misses the view.
[[nodiscard]] std::optional<Vec2> lineLabelAt(const Line& line, const Rect& clipVel);

/// The side of an anchor that screen direction `dir` points to.
[[nodiscard]] LabelSide labelSideToward(Vec2 dir);

/// Length along which a ray from `start` surely leaves the rectangle `r` (same units).
[[nodiscard]] double rayLengthOut(Vec2 start, const Rect& r);

/// Where a line's u arrow from v ends: v + share·u, the line's point (agents), or v + u, the
/// nearest point of the line (obstacles).
[[nodiscard]] Vec2 uArrowTip(const ExplainRecord& rec, const ExplainLine& l);

// ---- Velocity obstacles ------------------------------------------------------------------------

/// True when the record's VO has geometry (cutoffRadius > 0).
[[nodiscard]] inline bool hasVo(const VelocityObstacle& vo) {
    return vo.cutoffRadius > 0.0;
}

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

/// Points per half circle so that arcs of `vo` stay round at `pixelsPerUnit` (about one per
/// 4 screen units, 6 to 128).
[[nodiscard]] int voArcPoints(const VelocityObstacle& vo, double pixelsPerUnit);

/// True when the relative velocity `x` is inside the truncated VO (on its boundary counts).
[[nodiscard]] bool voContains(const VelocityObstacle& vo, Vec2 x);

// ---- Hover ------------------------------------------------------------------------------------

/// The line under `mouse` (screen): the nearest drawn line within `hoverPixels`, else the first
/// line whose VO (absolute space) contains the mouse; -1 outside `clip` or over nothing.
[[nodiscard]] OverlayHover hitTest(const ExplainRecord& rec, const VelocityTransform& t,
                                   const Rect& clip, const OverlayLayers& layers, Vec2 mouse,
                                   double hoverPixels = 5.0);

// ---- LP3, Focus, the neighbours in the world ----------------------------------------------------

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

/// The velocity rectangle of A's decision, for the panel's Focus: v, v_pref, v_new, each line's
/// u arrow tip (uArrowTip) and v + u, and the feasible region's vertices that lie near the
/// decision (within about twice its size, at least 15 % of the max speed, of v), so that those
/// arrows are large enough to read. Never smaller than 2 % of the max speed across.
[[nodiscard]] Rect focusBox(const ExplainRecord& rec);

/// An agent neighbour in the world, recovered from its line's VO: the cut-off centre is rp/τ
/// (or rp/Δt when colliding), so rp = cutoffCenter · (distance / |cutoffCenter|), and
/// r_B = cutoffRadius · the same − r_A.
struct NeighborInWorld {
    Vec2 position{0.0, 0.0}; ///< world units
    double radius = 0.0;     ///< r_B (world units, >= 0)
};
/// nullopt when the line's VO has no cut-off centre (an empty record line).
[[nodiscard]] std::optional<NeighborInWorld> neighborInWorld(const ExplainRecord& rec,
                                                             const ExplainLine& l);

/// The obstacle segment of an obstacle line in the world (its vertices are the VO's cut-off
/// centres · τo); nullopt when the line has no VO.
[[nodiscard]] std::optional<std::array<Vec2, 2>> obstacleSegmentInWorld(const ExplainRecord& rec,
                                                                        const ExplainLine& l);

// ---- Construction mode
// ---------------------------------------------------------------------------

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
    bool obstacle = false;           ///< an obstacle line (share 1: obstacles do not move)
    bool relativeSpace = true;       ///< phases 0, 1: v_A − v_B space; phase 2: absolute
    VelocityObstacle vo;             ///< the VO, relative space (apex at origin)
    Vec2 relativeVelocity{0.0, 0.0}; ///< v_A − v_B (obstacles: v_A)
    Vec2 uEnd{0.0, 0.0};             ///< relativeVelocity + u (on the VO boundary / the line)
    Vec2 velocity{0.0, 0.0};         ///< v_A
    /// The line's share of u (ExplainLine::share): the half-plane goes through v_A + share·u.
    double share = 0.5;
    /// Absolute space, permitted = left: through v_A + share·u (agents: the solver's line) or
    /// v_A + u (obstacles: the solver's line through its nearest point to v_A).
    Line halfPlane;
    std::string caption; ///< what this phase shows (constructionCaption)
};
/// nullopt when `rec` has no lines to construct.
[[nodiscard]] std::optional<ConstructionGeometry> constructionGeometry(const ExplainRecord& rec,
                                                                       const ConstructionState& c);

/// Construction mode's hover: g.line when the mouse is inside the VO (phases 0–1) or within
/// `hoverPixels` of the half-plane's line (phase 2).
[[nodiscard]] OverlayHover hitTestConstruction(const ConstructionGeometry& g,
                                               const VelocityTransform& t, const Rect& clip,
                                               Vec2 mouse, double hoverPixels = 5.0);

} // namespace orca::ui
