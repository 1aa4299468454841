#pragma once
// One view of the frame as a PNG at twice its size, for slides (--png-view, the screenshot
// dialog's view choice).

#include <filesystem>
#include <string>

#include "orca/ui/picture_view.hpp"

namespace orca::app {

struct SandboxContext;

/// The scale of the PNG views: pixels per screen unit.
inline constexpr int kViewPngScale = 2;

/// Renders the last frame's draw lists for `view` again, at kViewPngScale times its size, into
/// an offscreen framebuffer and writes the rectangle the SVG of that view shows
/// (ui::pictureViewRect) as a PNG: the world view is the background draw list, the velocity
/// panel its window's list clipped to its canvas (no title bar, summary lines or other
/// windows). Call after a frame was rendered and before the next one starts (the draw data
/// must still be valid). `width`, `height`: the PNG's size. False with `error` on failure.
bool writeViewPng(const SandboxContext& ctx, ui::PictureView view,
                  const std::filesystem::path& file, int& width, int& height, std::string& error);

} // namespace orca::app
