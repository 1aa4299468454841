#pragma once
/// \file picture_view.hpp
/// Which view a picture (the SVG export, a PNG view) shows: the world view and the velocity
/// panel's canvas together, or one of them, each cropped to its content (svg_export.hpp's
/// pictureViewRect).

#include <optional>
#include <string>
#include <string_view>

namespace orca::ui {

/// What a picture shows: the world view and the velocity panel's canvas (`Both`), or one of
/// them.
enum class PictureView { Both, World, Velocity };

/// "both", "world", "velocity" (the names of --svg-view and --png-view).
[[nodiscard]] std::string_view pictureViewName(PictureView v);
/// The view named `name` (pictureViewName), nullopt for any other text.
[[nodiscard]] std::optional<PictureView> parsePictureView(std::string_view name);
/// "both, world, velocity" (for messages).
[[nodiscard]] std::string pictureViewNames();

} // namespace orca::ui
