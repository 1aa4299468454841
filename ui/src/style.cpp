#include "orca/ui/style.hpp"

#include <imgui.h>

namespace orca::ui {

void applyStyle() {
    ImGui::StyleColorsDark();
    ImGuiStyle& s = ImGui::GetStyle();
    s.WindowRounding = 4.0f;
    s.FrameRounding = 3.0f;
    s.PopupRounding = 3.0f;
    s.GrabRounding = 3.0f;
    s.WindowPadding = {10.0f, 8.0f};
    s.ItemSpacing = {8.0f, 5.0f};
    s.Colors[ImGuiCol_WindowBg].w = 0.94f;
}

} // namespace orca::ui
