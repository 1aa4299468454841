#pragma once
/// \file camera_input.hpp
/// Mouse control of the world camera from ImGui's input state (no SDL needed).

#include "orca/ui/camera.hpp"

struct ImGuiIO;

namespace orca::ui {

/// Pans with a right or middle drag and zooms about the cursor with the wheel. Does nothing
/// while ImGui wants the mouse (io.WantCaptureMouse), so windows and menus keep their input.
/// Call between ImGui::NewFrame() and ImGui::Render().
void handleCameraInput(Camera& camera, const ImGuiIO& io);

} // namespace orca::ui
