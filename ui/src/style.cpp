#include "orca/ui/style.hpp"

#include <algorithm>

#include <imgui.h>

namespace orca::ui {

namespace {

float g_uiScale = 1.0f;

// ImGui's light style, with more contrast for projectors: black text, darker borders and
// frames, saturated selection.
void lightColours(ImGuiStyle& s) {
    ImGui::StyleColorsLight(&s);
    ImVec4* c = s.Colors;
    c[ImGuiCol_Text] = {0.02f, 0.02f, 0.04f, 1.0f};
    c[ImGuiCol_TextDisabled] = {0.30f, 0.30f, 0.34f, 1.0f};
    c[ImGuiCol_WindowBg] = {0.98f, 0.98f, 0.98f, 0.97f};
    c[ImGuiCol_PopupBg] = {1.0f, 1.0f, 1.0f, 0.98f};
    c[ImGuiCol_Border] = {0.0f, 0.0f, 0.0f, 0.45f};
    c[ImGuiCol_FrameBg] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_TitleBgActive] = {0.70f, 0.78f, 0.90f, 1.0f};
    c[ImGuiCol_MenuBarBg] = {0.90f, 0.90f, 0.92f, 1.0f};
    c[ImGuiCol_CheckMark] = {0.0f, 0.30f, 0.70f, 1.0f};
    c[ImGuiCol_SliderGrab] = {0.0f, 0.35f, 0.75f, 1.0f};
    c[ImGuiCol_PlotLines] = {0.0f, 0.30f, 0.65f, 1.0f};
}

} // namespace

void applyStyle(Theme theme, float scale) {
    scale = std::clamp(scale, kMinUiScalePercent / 100.0f, kMaxUiScalePercent / 100.0f);
    setTheme(theme);
    g_uiScale = scale;
    ImGuiStyle s;
    if (theme == Theme::Light) {
        lightColours(s);
        s.WindowBorderSize = 1.0f;
        s.FrameBorderSize = 1.0f;
    } else {
        ImGui::StyleColorsDark(&s);
        s.Colors[ImGuiCol_WindowBg].w = 0.94f;
    }
    s.WindowRounding = 4.0f;
    s.FrameRounding = 3.0f;
    s.PopupRounding = 3.0f;
    s.GrabRounding = 3.0f;
    s.WindowPadding = {10.0f, 8.0f};
    s.ItemSpacing = {8.0f, 5.0f};
    s.ScaleAllSizes(scale);
    ImGui::GetStyle() = s;
}

float uiScale() {
    return g_uiScale;
}

} // namespace orca::ui
