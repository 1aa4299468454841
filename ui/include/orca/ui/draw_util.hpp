#pragma once
/// \file draw_util.hpp
/// The sandbox's colours and points as Dear ImGui takes them, for code that draws into an
/// ImDrawList (the world renderer, the overlays, the panels, the app's editor).

#include <cstdint>

#include <imgui.h>

#include "orca/types.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

[[nodiscard]] inline ImU32 col(Rgba c) {
    return IM_COL32(c.r, c.g, c.b, c.a);
}
/// The colour with another alpha.
[[nodiscard]] inline ImU32 col(Rgba c, std::uint8_t alpha) {
    return IM_COL32(c.r, c.g, c.b, alpha);
}
/// The colour as ImGui's widgets take it (text, colour buttons), opaque.
[[nodiscard]] inline ImVec4 opaque4(Rgba c) {
    return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, 1.0f};
}
[[nodiscard]] inline ImVec2 toIm(Vec2 v) {
    return {static_cast<float>(v.x), static_cast<float>(v.y)};
}

} // namespace orca::ui
