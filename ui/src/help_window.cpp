#include "orca/ui/help_window.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/palette.hpp"
#include "orca/ui/world_renderer.hpp"

namespace orca::ui {

namespace {

constexpr float kHelpWidth = 600.0f;

/// A colour chip and what it stands for, on one line.
void legend(Rgba c, const char* text) {
    const float s = ImGui::GetTextLineHeight() * 0.8f;
    ImGui::ColorButton(text, opaque4(c), ImGuiColorEditFlags_NoTooltip, {s, s});
    ImGui::SameLine();
    ImGui::TextWrapped("%s", text);
}

void bindingsTable(const char* id, std::span<const HelpRow> rows) {
    constexpr ImGuiTableFlags tf =
        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingStretchProp;
    if (!ImGui::BeginTable(id, 3, tf)) return;
    ImGui::TableSetupColumn("Input", ImGuiTableColumnFlags_WidthStretch, 1.5f);
    ImGui::TableSetupColumn("Action", ImGuiTableColumnFlags_WidthStretch, 1.1f);
    ImGui::TableSetupColumn("Description", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    ImGui::TableHeadersRow();
    for (const HelpRow& r : rows) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", r.input.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", r.action.c_str());
        ImGui::TableNextColumn();
        ImGui::TextWrapped("%s", r.description.c_str());
    }
    ImGui::EndTable();
}

/// Two columns of colour chips: the world view on the left, the velocity panel on the right.
void colourLegend() {
    const Palette& p = palette();
    if (!ImGui::BeginTable("##legend", 2, ImGuiTableFlags_SizingStretchSame)) return;
    ImGui::TableNextColumn();
    ImGui::TextDisabled("World view: agents");
    legend(agentFill(AgentState::Active), "on the way to its goal");
    legend(agentFill(AgentState::AtGoal), "at its goal");
    legend(agentFill(AgentState::Lp3), "crowded: no velocity satisfied all");
    legend(agentFill(AgentState::Static), "static (never moves)");
    legend(p.kVelocity, "velocity arrow");
    legend(p.kObstacleOutline, "obstacle");
    ImGui::TableNextColumn();
    ImGui::TextDisabled("Velocity panel (selected agent)");
    legend(p.kVo, "velocity obstacle (VO) of a neighbour");
    legend(p.kLineAgent, "ORCA half-plane from an agent");
    legend(p.kLineObstacle, "half-plane from an obstacle");
    legend(p.kFeasibleOutline, "feasible region: allowed by all");
    legend(p.kArrowPref, "v_pref: where it wants to go");
    legend(p.kArrowNew, "v_new: the allowed velocity nearest v_pref");
    ImGui::EndTable();
}

} // namespace

HelpResult drawHelpWindow(bool* open, const HelpContent& content, float top, float bottom) {
    HelpResult out;
    if (!*open) return out;
    const ImGuiIO& io = ImGui::GetIO();
    const float margin = 10.0f;
    // On the first launch (tables folded) at most a third of the window: the scene and the
    // selected agent's overlays are fitted beside it, left of the velocity panel.
    const float room = content.tablesOpen ? io.DisplaySize.x - 2.0f * margin
                                          : std::floor(io.DisplaySize.x * 0.34f) - margin;
    const float width = std::min(kHelpWidth * ImGui::GetFontSize() / 13.0f, room);
    const float maxHeight = std::max(bottom - top - 2.0f * margin, 120.0f);
    // Bottom left of the world view: the menu bar, the scene's hint at the top and the docked
    // velocity panel at the right stay visible.
    ImGui::SetNextWindowPos({margin, bottom - margin}, ImGuiCond_Appearing, {0.0f, 1.0f});
    ImGui::SetNextWindowSizeConstraints({width, 0.0f}, {width, maxHeight});
    constexpr ImGuiWindowFlags flags =
        ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_AlwaysAutoResize;
    if (ImGui::Begin("Help", open, flags)) {
        // Keep the window inside the band when it grows (a table unfolds) or the display shrinks.
        const ImVec2 at = ImGui::GetWindowPos();
        if (at.y < top || at.y + ImGui::GetWindowHeight() > bottom + 1.0f)
            ImGui::SetWindowPos({at.x, std::clamp(bottom - ImGui::GetWindowHeight(), top, at.y)});
        ImGui::PushTextWrapPos(0.0f);
        ImGui::TextColored({0.55f, 0.80f, 1.0f, 1.0f}, "Start here");
        ImGui::TextUnformatted(
            "Every agent picks a new velocity each step. Each neighbour forbids a half-plane of "
            "velocities (its ORCA half-plane); the agent takes the allowed velocity closest to the "
            "one it prefers.");
        ImGui::Bullet();
        ImGui::TextUnformatted("Click an agent to see its choice in the velocity panel (right). "
                               "Space pauses, O steps, comma steps back.");
        ImGui::Bullet();
        ImGui::TextUnformatted("C builds its half-planes one neighbour at a time; V walks "
                               "through the linear program that picks v_new; Y says what holds "
                               "it back.");
        ImGui::Bullet();
        ImGui::TextUnformatted("Scene > Open for more scenes; tools 1-5 (top bar) edit them.");
        ImGui::PopTextWrapPos();
        ImGui::Spacing();
        colourLegend();
        ImGui::Spacing();
        if (!content.firstLesson.empty()) {
            ImGui::TextUnformatted("Ten short lessons, one idea per page (Lessons menu):");
            out.startHere =
                ImGui::Button(("Start here: " + shownLine(content.firstLesson)).c_str());
            ImGui::Spacing();
        }
        const ImGuiCond cond = ImGuiCond_Appearing;
        ImGui::SetNextItemOpen(content.tablesOpen, cond);
        if (ImGui::CollapsingHeader("Keys (when no window has keyboard focus)"))
            bindingsTable("##keys", content.keys);
        ImGui::SetNextItemOpen(content.tablesOpen, cond);
        if (ImGui::CollapsingHeader("Mouse (over the world view)"))
            bindingsTable("##mouse", content.mouse);
        const ImVec2 pos = ImGui::GetWindowPos();
        const ImVec2 size = ImGui::GetWindowSize();
        out.rect[0] = pos.x;
        out.rect[1] = pos.y;
        out.rect[2] = pos.x + size.x;
        out.rect[3] = pos.y + size.y;
    }
    ImGui::End();
    return out;
}

void drawSceneHint(std::string& hint, float left, float right, float top) {
    if (hint.empty() || right - left < 80.0f) return;
    const std::string shown = shownLine(hint); // a file's text: one line, cut
    const float pad = 8.0f;
    const float maxWidth = std::min(right - left - 2.0f * pad, 820.0f);
    const float textWidth = std::min(ImGui::CalcTextSize(shown.c_str()).x,
                                     maxWidth - ImGui::GetFrameHeight() - 4.0f * pad);
    const float width = textWidth + ImGui::GetFrameHeight() + 3.0f * pad;
    ImGui::SetNextWindowPos({0.5f * (left + right - width), top + pad}, ImGuiCond_Always);
    ImGui::SetNextWindowSize({width, 0.0f}, ImGuiCond_Always);
    ImGui::SetNextWindowBgAlpha(0.88f);
    constexpr ImGuiWindowFlags flags = ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove |
                                       ImGuiWindowFlags_NoSavedSettings |
                                       ImGuiWindowFlags_NoFocusOnAppearing |
                                       ImGuiWindowFlags_NoNav | ImGuiWindowFlags_AlwaysAutoResize;
    if (ImGui::Begin("##scene-hint", nullptr, flags)) {
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + textWidth);
        ImGui::TextUnformatted(shown.c_str());
        ImGui::PopTextWrapPos();
        ImGui::SameLine();
        if (ImGui::SmallButton("x")) hint.clear();
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("Hide this hint");
    }
    ImGui::End();
}

} // namespace orca::ui
