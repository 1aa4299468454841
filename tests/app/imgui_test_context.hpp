#pragma once
// Shared by the GUI unit tests that draw with ImGui but open no window.

#include <imgui.h>

namespace orca::testing {

// An ImGui context with a built font atlas and a display, no window or backend.
class ImGuiContextScope {
  public:
    ImGuiContextScope() {
        m_ctx = ImGui::CreateContext();
        ImGuiIO& io = ImGui::GetIO();
        io.DisplaySize = {1280.0f, 800.0f};
        io.DeltaTime = 1.0f / 60.0f;
        io.IniFilename = nullptr;
        unsigned char* pixels = nullptr;
        int w = 0;
        int h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
    }
    ~ImGuiContextScope() { ImGui::DestroyContext(m_ctx); }
    ImGuiContextScope(const ImGuiContextScope&) = delete;
    ImGuiContextScope& operator=(const ImGuiContextScope&) = delete;

  private:
    ImGuiContext* m_ctx = nullptr;
};

} // namespace orca::testing
