#pragma once
/// \file help_window.hpp
/// The Help window: "Start here" (what the colours mean, what to click first, where the
/// lessons are) above the key and mouse tables, which fold away. It opens on the first launch,
/// so it must fit between the menu bar and the timeline without covering either.

#include <span>
#include <string>

#include "orca/ui/panels.hpp"

namespace orca::ui {

/// What the Help window shows.
struct HelpContent {
    std::span<const HelpRow> keys;
    std::span<const HelpRow> mouse;
    std::string firstLesson; ///< the first lesson's title ("" when there are no lessons)
    bool tablesOpen = false; ///< the key and mouse tables start unfolded (Help menu / F1)
};

/// What the Help window did this frame.
struct HelpResult {
    bool startHere = false;                   ///< "Start here" (the first lesson) was clicked
    float rect[4] = {0.0f, 0.0f, 0.0f, 0.0f}; ///< x0, y0, x1, y1 on screen (zero when closed)
};

/// Draws the Help window inside the band [top, bottom] of the display (the menu bar above,
/// the timeline and status bar below stay visible), at the bottom left of the world view.
/// `open` is cleared when the user closes it.
HelpResult drawHelpWindow(bool* open, const HelpContent& content, float top, float bottom);

/// The scene's one-line hint (a "view" block's "hint"), centred at the top of the world view
/// between `left` and `right` just below `top`, with a button that dismisses it: `hint` is
/// cleared then.
void drawSceneHint(std::string& hint, float left, float right, float top);

} // namespace orca::ui
