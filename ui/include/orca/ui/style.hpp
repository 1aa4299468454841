#pragma once
/// \file style.hpp
/// The sandbox's one ImGui style function.

namespace orca::ui {

/// Dark theme with the sandbox's rounding and spacing. Call after ImGui::CreateContext().
void applyStyle();

} // namespace orca::ui
