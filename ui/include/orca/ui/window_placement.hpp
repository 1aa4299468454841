#pragma once
/// \file window_placement.hpp
/// Where new windows open (over the part of the view with the fewest agents, beside the other
/// windows) and what a docked panel leaves of the view (Home fits the scene there). The choice
/// is a pure function of rectangles and a coarse agent-density grid, unit-tested; panels call
/// placeNewWindow() instead of ImGui::SetNextWindowPos(..., ImGuiCond_FirstUseEver).

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
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

/// The rectangle for a new window that would like `size` inside `area`: windows opened
/// together never cover each other, so a place where the whole window fits beside the `taken`
/// windows (`margin` apart, off the area's edges) wins, the one covering the fewest agents
/// (ties: the earlier candidate, as chooseWindowPos). When no such place exists the window
/// shrinks, down to `minSize`, into the largest free place; when even that fails, the size is
/// clamped to `area` and chooseWindowPos() decides (then it may overlap). The returned size
/// never exceeds the area's.
[[nodiscard]] Rect chooseWindowRect(const Rect& area, Vec2 size, Vec2 minSize,
                                    const CrowdDensity& crowd, std::span<const Rect> taken,
                                    double margin = 10.0);

/// The UI scale factor windows are sized with (ui::uiScale(): 1 at 100 %).
[[nodiscard]] float uiScaleFactor();

/// The rectangles of the visible top-level windows (no child windows, popups, tooltips or the
/// fallback "Debug" window), except `except`: what a new window should not cover.
[[nodiscard]] std::vector<Rect> visibleWindowRects(const char* except = nullptr);

/// A top-level ImGui window as the state dump lists it.
struct WindowInfo {
    std::string name;  ///< its title ("Lesson" of "Lesson###lesson"; "##status" as is)
    bool open = false; ///< drawn in the last frame
    Rect rect;         ///< screen rectangle when last drawn
};
/// Every top-level window ImGui knows of (drawn or not), without child windows, tooltips,
/// menus and combo lists, and the fallback "Debug" window.
[[nodiscard]] std::vector<WindowInfo> listWindows();

/// What a docked panel leaves of `view`: when `panel` spans at least half the view's height
/// and reaches its left or right edge, the larger part of `view` beside it; else `view`.
[[nodiscard]] Rect uncoveredArea(const Rect& view, const Rect& panel);

/// The largest of the four parts of `view` left of, right of, above and below `window` (the
/// part no window covers, for fitting the scene beside a window that floats over the view);
/// `view` when they do not meet.
[[nodiscard]] Rect largestPartBeside(const Rect& view, const Rect& window);

/// The rectangle of the top-level window `name` when it was drawn in the last frame.
[[nodiscard]] std::optional<Rect> shownWindowRect(const char* name);

/// The app, once per frame: the world view and how to count its agents (called only when a
/// window is about to open for the first time).
void setWindowPlacementView(const Rect& area, std::function<CrowdDensity()> crowd);

/// Instead of ImGui::SetNextWindowPos/Size(..., ImGuiCond_FirstUseEver): a window `name` that
/// does not exist yet (and has no saved position) opens at chooseWindowRect() over the view set
/// with setWindowPlacementView(), beside the other visible windows; at `fallback` without a
/// view. `size` is the size it would like at 100 % UI scale (a height of 0: auto-sized, about
/// 300 px, then kept inside the view); it is scaled with uiScaleFactor() and shrinks to fit
/// the view. Every frame the window's size is kept within the view (no window larger than
/// the screen), so call this for existing windows too.
void placeNewWindow(const char* name, ImVec2 size, ImVec2 fallback);

} // namespace orca::ui
