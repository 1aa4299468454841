#pragma once
/// \file style.hpp
/// The sandbox's one ImGui style function, and the UI scale the drawing code reads.

#include "orca/ui/palette.hpp"

namespace orca::ui {

/// Smallest and largest UI scale (View > UI scale, --ui-scale, in percent).
inline constexpr int kMinUiScalePercent = 100;
inline constexpr int kMaxUiScalePercent = 250;

/// Sets the theme (ImGui's colours and the palette the world and the overlays draw with) and
/// the UI scale (1 = 100 %: ImGui's paddings, spacings and roundings, and uiScale()) with the
/// sandbox's rounding and spacing. Call after ImGui::CreateContext(), between frames; fonts are
/// the app's (rasterised at the scale's size).
void applyStyle(Theme theme = Theme::Dark, float scale = 1.0f);

/// The UI scale (1 = 100 %) last given to applyStyle(): stroke widths and marker sizes in the
/// world view, the overlays and the velocity panel are multiplied by it.
[[nodiscard]] float uiScale();

/// A stroke width or marker size given at 100 %, at the current UI scale.
[[nodiscard]] inline float stroke(float px) {
    return px * uiScale();
}

} // namespace orca::ui
