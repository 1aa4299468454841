#include "orca/ui/camera_input.hpp"

#include <cmath>

#include <imgui.h>

namespace orca::ui {

void handleCameraInput(Camera& camera, const ImGuiIO& io) {
    if (io.WantCaptureMouse) return;
    if (ImGui::IsMouseDragging(ImGuiMouseButton_Right, 0.0f) ||
        ImGui::IsMouseDragging(ImGuiMouseButton_Middle, 0.0f)) {
        camera.pan({io.MouseDelta.x, io.MouseDelta.y});
    }
    if (io.MouseWheel != 0.0f && camera.viewport().contains({io.MousePos.x, io.MousePos.y})) {
        constexpr double kZoomPerNotch = 1.15;
        camera.zoomAbout({io.MousePos.x, io.MousePos.y},
                         std::pow(kZoomPerNotch, static_cast<double>(io.MouseWheel)));
    }
}

} // namespace orca::ui
