#pragma once
/// \file palette.hpp
/// The sandbox's colours, as plain RGBA so that tools without ImGui (the screenshot checker in
/// tests/gui) can look for them in rendered images. Two themes: dark (the default) and a light
/// high-contrast one for projectors; palette() is the active one, setTheme() switches (between
/// frames: the UI reads the colours while it builds a frame).

#include <cstdint>

namespace orca::ui {

struct Rgba {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
    std::uint8_t a = 255;
};

/// Every colour the world view, the overlays and the panels draw with. The in-class values are
/// the dark theme; member names keep the `k` of the constants they were.
struct Palette {
    Rgba kBackground{24, 26, 31, 255};
    Rgba kGridMinor{255, 255, 255, 12};
    Rgba kGridMajor{255, 255, 255, 28};
    Rgba kGridAxis{255, 255, 255, 60};

    // Agent fills are opaque so their exact colour appears in screenshots.
    Rgba kAgentActive{64, 140, 236, 255};     ///< Has somewhere to go, not at its goal.
    Rgba kAgentAtGoal{72, 186, 96, 255};      ///< Within its goal radius.
    Rgba kAgentStatic{138, 138, 146, 255};    ///< Immovable.
    Rgba kAgentLp3{244, 128, 24, 255};        ///< LP2 was infeasible this step.
    Rgba kAgentDetouring{180, 110, 230, 255}; ///< Following the detour field.

    Rgba kVelocity{255, 214, 90, 230};
    Rgba kGoal{230, 230, 235, 190};
    Rgba kGoalLine{230, 230, 235, 24};

    Rgba kObstacleFill{92, 80, 68, 255};
    Rgba kObstacleOutline{214, 186, 142, 255};

    // World-view extras.
    Rgba kSelection{255, 255, 255, 235};       ///< Ring around selected agents.
    Rgba kSelectionShadow{0, 0, 0, 160};       ///< Dark ring under it (contrast).
    Rgba kAgentLabel{230, 230, 235, 210};      ///< Agent ids next to agents.
    Rgba kTrail{150, 180, 230, 160};           ///< Newest trail sample (fades out).
    Rgba kObstacleWinding{214, 186, 142, 220}; ///< Arrows along obstacle edges.
    Rgba kObstacleNormal{255, 140, 110, 220};  ///< Outward edge normals.
    Rgba kNeighborLink{255, 255, 255, 70};     ///< Selected agent -> neighbours.
    Rgba kNeighborCircle{255, 255, 255, 55};   ///< neighborDist circle.
    Rgba kDetourCell{180, 110, 230, 90};       ///< Detour field cell, tinted by |v|.
    Rgba kDetourArrow{225, 190, 250, 200};     ///< Detour field vectors.
    Rgba kDetourSample{225, 190, 250, 230};    ///< Sample point/radius, direction.
    Rgba kRoute{110, 225, 200, 235};           ///< A selected agent's route, waypoint markers.
    Rgba kRouteAll{110, 225, 200, 80};         ///< Routes layer: every goal agent's route.
    Rgba kRouteBlocked{255, 90, 90, 235};      ///< A leg the roadmap cannot route (straight).
    Rgba kWaypointText{16, 40, 36, 255};       ///< The number on a waypoint marker.
    Rgba kRoadmapNode{235, 225, 160, 230};     ///< Roadmap layer: nodes.
    Rgba kRoadmapEdge{235, 225, 160, 85};      ///< Roadmap layer: edges.

    // Explain overlays (velocity space). Hues from the Okabe-Ito colour-blind-safe set; builders
    // differ in hue, geometric case families in dash pattern (solid cut-off, dashed leg, dotted
    // colliding) so the cases stay apart without relying on colour alone.
    Rgba kVo{204, 121, 167, 255};    ///< VO outline (reddish purple).
    Rgba kVoFill{204, 121, 167, 30}; ///< VO fill.
    Rgba kVoFillHighlight{204, 121, 167, 80};
    Rgba kLineAgent{86, 180, 233, 255};    ///< Half-plane built by an agent.
    Rgba kLineObstacle{230, 159, 0, 255};  ///< Half-plane built by an obstacle.
    Rgba kLineColliding{240, 96, 40, 255}; ///< Colliding cases (vermillion).
    std::uint8_t kForbiddenShadeAlpha{16}; ///< Whole forbidden side (panel).
    std::uint8_t kForbiddenStripAlpha{70}; ///< Strip along the line.
    Rgba kFeasibleFill{0, 158, 115, 70};   ///< Feasible region (bluish green).
    Rgba kFeasibleOutline{0, 200, 145, 220};
    Rgba kPermittedFill{0, 158, 115, 55};   ///< Construction: permitted side.
    Rgba kMaxSpeed{255, 255, 255, 90};      ///< Max-speed circle.
    Rgba kArrowV{255, 214, 90, 255};        ///< v (as the world's arrows).
    Rgba kArrowPref{230, 230, 235, 230};    ///< v_pref (dashed).
    Rgba kArrowNew{40, 225, 165, 255};      ///< v_new.
    Rgba kArrowRelative{255, 214, 90, 255}; ///< Construction: v_A - v_B.
    Rgba kU{255, 255, 255, 255};            ///< Construction: u, ½u.
    Rgba kLp3{244, 128, 24, 255};           ///< LP3 result, depth, failing line.
    Rgba kHighlight{255, 255, 255, 255};    ///< Hovered line / VO emphasis.
    // Scene authoring (edit tools, linter).
    Rgba kEditHandle{235, 235, 240, 230};  ///< Obstacle vertex handles.
    Rgba kEditSelected{90, 220, 255, 255}; ///< Selected obstacle / vertex / box.
    Rgba kEditPreview{90, 220, 255, 150};  ///< Shapes being drawn, ghosts.
    Rgba kEditInvalid{255, 70, 70, 255};   ///< Left out by the simulation.
    Rgba kLintError{255, 70, 70, 255};     ///< Linter: error.
    Rgba kLintWarning{255, 196, 40, 255};  ///< Linter: warning.
    Rgba kLintInfo{140, 200, 255, 255};    ///< Linter: info.
    // Events on the timeline (LP3, arrived and detour use the agent colours above).
    Rgba kEventOverlap{235, 64, 52, 255};      ///< Overlap (red).
    Rgba kEventObstacle{220, 60, 180, 255};    ///< Obstacle penetration (magenta).
    Rgba kEventStalled{240, 228, 66, 255};     ///< Stalled (yellow).
    Rgba kEventOscillation{86, 180, 233, 255}; ///< Oscillation (sky blue).
    Rgba kWhy{255, 80, 255, 255};              ///< "Why?": binding half-planes, responsible agents.
    Rgba kPanelBackground{18, 20, 24, 255};
    Rgba kLegendBackground{10, 12, 16, 210};
    Rgba kText{230, 230, 235, 255};
    Rgba kTextShadow{0, 0, 0, 200}; ///< Shadow under overlay labels (contrast on any fill).
};

inline constexpr Palette kDarkPalette{};

/// Light, high contrast: near-white background, dark text and strokes, the overlay hues
/// darkened (Okabe-Ito's darker members) so thin lines still read on a projector.
constexpr Palette makeLightPalette() {
    Palette p;
    p.kBackground = {250, 250, 248, 255};
    p.kGridMinor = {0, 0, 0, 16};
    p.kGridMajor = {0, 0, 0, 40};
    p.kGridAxis = {0, 0, 0, 110};
    p.kAgentActive = {0, 96, 200, 255};
    p.kAgentAtGoal = {20, 140, 60, 255};
    p.kAgentStatic = {110, 110, 118, 255};
    p.kAgentLp3 = {215, 95, 0, 255};
    p.kAgentDetouring = {130, 60, 190, 255};
    p.kVelocity = {150, 95, 0, 240};
    p.kGoal = {40, 40, 50, 210};
    p.kGoalLine = {0, 0, 0, 34};
    p.kObstacleFill = {120, 104, 88, 255};
    p.kObstacleOutline = {55, 40, 25, 255};
    p.kSelection = {0, 0, 0, 240};
    p.kSelectionShadow = {255, 255, 255, 220};
    p.kAgentLabel = {20, 20, 25, 235};
    p.kTrail = {40, 90, 170, 170};
    p.kObstacleWinding = {90, 70, 40, 230};
    p.kObstacleNormal = {200, 60, 30, 230};
    p.kNeighborLink = {0, 0, 0, 100};
    p.kNeighborCircle = {0, 0, 0, 80};
    p.kDetourCell = {130, 60, 190, 70};
    p.kDetourArrow = {100, 40, 160, 220};
    p.kDetourSample = {110, 40, 170, 245};
    p.kRoute = {0, 120, 105, 240};
    p.kRouteAll = {0, 120, 105, 90};
    p.kRouteBlocked = {210, 30, 30, 240};
    p.kWaypointText = {255, 255, 255, 255};
    p.kRoadmapNode = {120, 95, 0, 220};
    p.kRoadmapEdge = {120, 95, 0, 95};
    p.kVo = {170, 60, 130, 255};
    p.kVoFill = {170, 60, 130, 30};
    p.kVoFillHighlight = {170, 60, 130, 75};
    p.kLineAgent = {0, 114, 178, 255};
    p.kLineObstacle = {185, 115, 0, 255};
    p.kLineColliding = {213, 70, 0, 255};
    p.kForbiddenShadeAlpha = 18;
    p.kForbiddenStripAlpha = 80;
    p.kFeasibleFill = {0, 158, 115, 80};
    p.kFeasibleOutline = {0, 115, 80, 240};
    p.kPermittedFill = {0, 158, 115, 60};
    p.kMaxSpeed = {0, 0, 0, 120};
    p.kArrowV = {170, 110, 0, 255};
    p.kArrowPref = {55, 55, 65, 240};
    p.kArrowNew = {0, 145, 90, 255};
    p.kArrowRelative = {170, 110, 0, 255};
    p.kU = {0, 0, 0, 255};
    p.kLp3 = {215, 95, 0, 255};
    p.kHighlight = {0, 0, 0, 255};
    p.kEditHandle = {40, 40, 50, 235};
    p.kEditSelected = {0, 120, 200, 255};
    p.kEditPreview = {0, 120, 200, 150};
    p.kEditInvalid = {210, 30, 30, 255};
    p.kLintError = {210, 30, 30, 255};
    p.kLintWarning = {200, 140, 0, 255};
    p.kLintInfo = {30, 110, 200, 255};
    p.kEventOverlap = {210, 40, 30, 255};
    p.kEventObstacle = {190, 30, 150, 255};
    p.kEventStalled = {165, 145, 0, 255};
    p.kEventOscillation = {0, 114, 178, 255};
    p.kWhy = {200, 0, 200, 255};
    p.kPanelBackground = {255, 255, 255, 255};
    p.kLegendBackground = {240, 240, 244, 235};
    p.kText = {15, 15, 20, 255};
    p.kTextShadow = {255, 255, 255, 220};
    return p;
}
inline constexpr Palette kLightPalette = makeLightPalette();

enum class Theme { Dark, Light };

namespace detail {
inline const Palette* activePalette = &kDarkPalette;
} // namespace detail

/// The active theme's colours.
[[nodiscard]] inline const Palette& palette() {
    return *detail::activePalette;
}
[[nodiscard]] inline Theme theme() {
    return detail::activePalette == &kLightPalette ? Theme::Light : Theme::Dark;
}
/// Switches the colours of the world, the overlays and the panels (the ImGui style is
/// applyStyle()'s). Call between frames.
inline void setTheme(Theme t) {
    detail::activePalette = t == Theme::Light ? &kLightPalette : &kDarkPalette;
}

} // namespace orca::ui
