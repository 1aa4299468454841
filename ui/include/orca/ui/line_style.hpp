#pragma once
/// \file line_style.hpp
/// How a half-plane is drawn, by the geometric case that built it — one rule for the screen
/// (explain_overlay.cpp, velocity_panel.cpp) and the SVG export: cut-off cases solid, legs
/// dashed, colliding cases dotted in vermillion; agent lines blue, obstacle lines orange. The
/// other choices both share are element_colours.hpp's, grid_style.hpp's and label_style.hpp's.

#include "orca/orca_lines.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

enum class CaseFamily { Cutoff, Leg, Colliding };

[[nodiscard]] inline CaseFamily familyOf(LineCase c) {
    switch (c) {
    case LineCase::AgentCutoffCircle:
    case LineCase::ObstacleLeftCutoffCircle:
    case LineCase::ObstacleRightCutoffCircle:
    case LineCase::ObstacleCutoffLine:
        return CaseFamily::Cutoff;
    case LineCase::AgentLeftLeg:
    case LineCase::AgentRightLeg:
    case LineCase::ObstacleLeftLeg:
    case LineCase::ObstacleRightLeg:
        return CaseFamily::Leg;
    case LineCase::AgentColliding:
    case LineCase::ObstacleCollidingLeftVertex:
    case LineCase::ObstacleCollidingRightVertex:
    case LineCase::ObstacleCollidingSegment:
        return CaseFamily::Colliding;
    }
    return CaseFamily::Cutoff;
}

[[nodiscard]] inline Rgba lineColour(LineCase c) {
    if (familyOf(c) == CaseFamily::Colliding) return palette().kLineColliding;
    return isObstacleCase(c) ? palette().kLineObstacle : palette().kLineAgent;
}

/// Dash pattern at 100 % UI scale (screen units); on = 0 means solid.
struct Dash {
    float on = 0.0f;
    float off = 0.0f;
};
[[nodiscard]] inline Dash dashOf(CaseFamily f) {
    switch (f) {
    case CaseFamily::Cutoff:
        return {};
    case CaseFamily::Leg:
        return {10.0f, 5.0f};
    case CaseFamily::Colliding:
        return {2.5f, 3.5f};
    }
    return {};
}

} // namespace orca::ui
