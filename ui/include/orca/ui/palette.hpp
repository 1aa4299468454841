#pragma once
/// \file palette.hpp
/// The sandbox's colours, as plain RGBA so that tools without ImGui (the screenshot checker in
/// tests/gui) can look for them in rendered images.

#include <cstdint>

namespace orca::ui {

struct Rgba {
    std::uint8_t r = 0;
    std::uint8_t g = 0;
    std::uint8_t b = 0;
    std::uint8_t a = 255;
};

namespace palette {

inline constexpr Rgba kBackground{24, 26, 31, 255};
inline constexpr Rgba kGridMinor{255, 255, 255, 12};
inline constexpr Rgba kGridMajor{255, 255, 255, 28};
inline constexpr Rgba kGridAxis{255, 255, 255, 60};

// Agent fills are opaque so their exact colour appears in screenshots.
inline constexpr Rgba kAgentActive{64, 140, 236, 255};  ///< Has somewhere to go, not at its goal.
inline constexpr Rgba kAgentAtGoal{72, 186, 96, 255};   ///< Within its goal radius.
inline constexpr Rgba kAgentStatic{138, 138, 146, 255}; ///< Immovable.
inline constexpr Rgba kAgentLp3{244, 128, 24, 255};     ///< LP2 was infeasible this step.
inline constexpr Rgba kAgentDetouring{180, 110, 230, 255}; ///< Following the detour field.

inline constexpr Rgba kVelocity{255, 214, 90, 230};
inline constexpr Rgba kGoal{230, 230, 235, 190};
inline constexpr Rgba kGoalLine{230, 230, 235, 24};

inline constexpr Rgba kObstacleFill{92, 80, 68, 255};
inline constexpr Rgba kObstacleOutline{214, 186, 142, 255};

// World-view extras.
inline constexpr Rgba kSelection{255, 255, 255, 235};       ///< Ring around selected agents.
inline constexpr Rgba kSelectionShadow{0, 0, 0, 160};       ///< Dark ring under it (contrast).
inline constexpr Rgba kAgentLabel{230, 230, 235, 210};      ///< Agent ids next to agents.
inline constexpr Rgba kTrail{150, 180, 230, 160};           ///< Newest trail sample (fades out).
inline constexpr Rgba kObstacleWinding{214, 186, 142, 220}; ///< Arrows along obstacle edges.
inline constexpr Rgba kObstacleNormal{255, 140, 110, 220};  ///< Outward edge normals.
inline constexpr Rgba kNeighborLink{255, 255, 255, 70};     ///< Selected agent -> neighbours.
inline constexpr Rgba kNeighborCircle{255, 255, 255, 55};   ///< neighborDist circle.
inline constexpr Rgba kDetourCell{180, 110, 230, 90};       ///< Detour field cell, tinted by |v|.
inline constexpr Rgba kDetourArrow{225, 190, 250, 200};     ///< Detour field vectors.
inline constexpr Rgba kDetourSample{225, 190, 250, 230};    ///< Sample point/radius, direction.

// Explain overlays (velocity space). Hues from the Okabe-Ito colour-blind-safe set; builders
// differ in hue, geometric case families in dash pattern (solid cut-off, dashed leg, dotted
// colliding) so the cases stay apart without relying on colour alone.
inline constexpr Rgba kVo{204, 121, 167, 255};    ///< VO outline (reddish purple).
inline constexpr Rgba kVoFill{204, 121, 167, 30}; ///< VO fill.
inline constexpr Rgba kVoFillHighlight{204, 121, 167, 80};
inline constexpr Rgba kLineAgent{86, 180, 233, 255};     ///< Half-plane built by an agent.
inline constexpr Rgba kLineObstacle{230, 159, 0, 255};   ///< Half-plane built by an obstacle.
inline constexpr Rgba kLineColliding{240, 96, 40, 255};  ///< Colliding cases (vermillion).
inline constexpr std::uint8_t kForbiddenShadeAlpha = 16; ///< Whole forbidden side (panel).
inline constexpr std::uint8_t kForbiddenStripAlpha = 70; ///< Strip along the line.
inline constexpr Rgba kFeasibleFill{0, 158, 115, 70};    ///< Feasible region (bluish green).
inline constexpr Rgba kFeasibleOutline{0, 200, 145, 220};
inline constexpr Rgba kPermittedFill{0, 158, 115, 55};   ///< Construction: permitted side.
inline constexpr Rgba kMaxSpeed{255, 255, 255, 90};      ///< Max-speed circle.
inline constexpr Rgba kArrowV{255, 214, 90, 255};        ///< v (as the world's arrows).
inline constexpr Rgba kArrowPref{230, 230, 235, 230};    ///< v_pref (dashed).
inline constexpr Rgba kArrowNew{40, 225, 165, 255};      ///< v_new.
inline constexpr Rgba kArrowRelative{255, 214, 90, 255}; ///< Construction: v_A - v_B.
inline constexpr Rgba kU{255, 255, 255, 255};            ///< Construction: u, ½u.
inline constexpr Rgba kLp3{244, 128, 24, 255};           ///< LP3 result, depth, failing line.
inline constexpr Rgba kHighlight{255, 255, 255, 255};    ///< Hovered line / VO emphasis.
// Scene authoring (edit tools, linter).
inline constexpr Rgba kEditHandle{235, 235, 240, 230};     ///< Obstacle vertex handles.
inline constexpr Rgba kEditSelected{90, 220, 255, 255};    ///< Selected obstacle / vertex / box.
inline constexpr Rgba kEditPreview{90, 220, 255, 150};     ///< Shapes being drawn, ghosts.
inline constexpr Rgba kEditInvalid{255, 70, 70, 255};      ///< Left out by the simulation.
inline constexpr Rgba kLintError{255, 70, 70, 255};        ///< Linter: error.
inline constexpr Rgba kLintWarning{255, 196, 40, 255};     ///< Linter: warning.
inline constexpr Rgba kLintInfo{140, 200, 255, 255};       ///< Linter: info.
// Events on the timeline (LP3, arrived and detour use the agent colours above).
inline constexpr Rgba kEventOverlap{235, 64, 52, 255};       ///< Overlap (red).
inline constexpr Rgba kEventObstacle{220, 60, 180, 255};     ///< Obstacle penetration (magenta).
inline constexpr Rgba kEventStalled{240, 228, 66, 255};      ///< Stalled (yellow).
inline constexpr Rgba kEventOscillation{86, 180, 233, 255};  ///< Oscillation (sky blue).
inline constexpr Rgba kWhy{255, 80, 255, 255}; ///< "Why?": binding half-planes, responsible agents.
inline constexpr Rgba kPanelBackground{18, 20, 24, 255};
inline constexpr Rgba kLegendBackground{10, 12, 16, 210};
inline constexpr Rgba kText{230, 230, 235, 255};

} // namespace palette
} // namespace orca::ui
