#pragma once
/// \file window_placement.hpp
/// Where new windows open (over the part of the view with the fewest agents, beside the other
/// windows) and what a docked panel leaves of the view (Home fits the scene there). The choice
/// is a pure function of rectangles and a coarse agent-density grid, unit-tested; panels call
/// placeNewWindow() instead of ImGui::SetNextWindowPos(..., ImGuiCond_FirstUseEver).

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include <imgui.h>

#include "orca/ui/camera.hpp"

namespace orca::ui {

/// Agents per cell of a coarse grid over a screen rectangle.
struct CrowdDensity {
    Rect area;
    int cols = 0;
    int rows = 0;
    std::vector<std::uint32_t> counts; ///< row-major, cols × rows

    /// Counts the screen points inside `area` in cols × rows cells.
    [[nodiscard]] static CrowdDensity build(const Rect& area, std::span<const Vec2> screenPoints,
                                            int cols = 24, int rows = 16);
    /// Agents under `r`: each cell's count times the fraction of the cell `r` covers.
    [[nodiscard]] double covered(const Rect& r) const;
};

/// The top-left corner for a new window of `size` inside `area`: of the candidates (stacked
/// down the left edge, down the right edge, below or beside the `taken` windows, along the
/// bottom), the one that covers the fewest agents, then overlaps `taken` least; ties go to the
/// earlier candidate. `margin` keeps windows off the edges. A window larger than `area` goes
/// to its top-left corner.
[[nodiscard]] Vec2 chooseWindowPos(const Rect& area, Vec2 size, const CrowdDensity& crowd,
                                   std::span<const Rect> taken, double margin = 10.0);

/// What a docked panel leaves of `view`: when `panel` spans at least half the view's height
/// and reaches its left or right edge, the larger part of `view` beside it; else `view`.
[[nodiscard]] Rect uncoveredArea(const Rect& view, const Rect& panel);

/// The app, once per frame: the world view and how to count its agents (called only when a
/// window is about to open for the first time).
void setWindowPlacementView(const Rect& area, std::function<CrowdDensity()> crowd);

/// Instead of ImGui::SetNextWindowPos(fallback, ImGuiCond_FirstUseEver): a window `name` that
/// does not exist yet (and has no saved position) opens at chooseWindowPos() over the view set
/// with setWindowPlacementView(), avoiding the other visible windows; `fallback` without a
/// view. `size`: the size it opens with (a height of 0, auto-sized: about 300).
void placeNewWindow(const char* name, ImVec2 size, ImVec2 fallback);

} // namespace orca::ui
