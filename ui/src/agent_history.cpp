#include "orca/ui/agent_history.hpp"

#include <algorithm>
#include <cmath>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/metrics_panel.hpp"

namespace orca::ui {

std::size_t historyIndexAt(double x, double x0, double width, std::size_t count) {
    if (count == 0 || width <= 0.0) return 0;
    const double t = std::clamp((x - x0) / width, 0.0, 1.0);
    return std::min(static_cast<std::size_t>(t * static_cast<double>(count)), count - 1);
}

std::optional<std::uint64_t> drawAgentHistory(const AgentHistoryView& v) {
    std::optional<std::uint64_t> clicked;
    const std::size_t n = v.samples.size();
    if (n == 0) {
        ImGui::TextDisabled("no history collected yet");
        return clicked;
    }
    float clearMin = 0.0f;
    float clearMax = 0.0f;
    bool any = false;
    for (const AgentHistorySample& s : v.samples) {
        if (!s.valid || !std::isfinite(s.clearance)) continue;
        clearMin = any ? std::min(clearMin, s.clearance) : s.clearance;
        clearMax = any ? std::max(clearMax, s.clearance) : s.clearance;
        any = true;
    }
    clearMin = std::min(clearMin, 0.0f);
    clearMax = std::max(clearMax, clearMin + 0.1f);
    ImGui::TextDisabled("steps %llu-%llu (%zu collected); click a plot to go to that step",
                        static_cast<unsigned long long>(v.first),
                        static_cast<unsigned long long>(v.first + n - 1), v.collected);
    const float width = std::max(ImGui::GetContentRegionAvail().x, 50.0f);
    struct Row {
        const char* name;
        float height;
    };
    const Row rows[] = {{"speed", 36.0f}, {"clearance", 36.0f}, {"LP3", 8.0f}, {"detour", 8.0f}};
    const float labelWidth = ImGui::CalcTextSize("clearance  ").x;
    const float startX = ImGui::GetCursorPosX();
    for (std::size_t r = 0; r < std::size(rows); ++r) {
        ImGui::TextUnformatted(rows[r].name);
        ImGui::SameLine(startX + labelWidth);
        const ImVec2 p0 = ImGui::GetCursorScreenPos();
        const float w = width - labelWidth;
        const float h = rows[r].height;
        ImGui::PushID(static_cast<int>(r));
        ImGui::InvisibleButton("##plot", {w, h});
        const bool hovered = ImGui::IsItemHovered();
        ImGui::PopID();
        ImDrawList& dl = *ImGui::GetWindowDrawList();
        dl.AddRectFilled(p0, {p0.x + w, p0.y + h}, col(palette().kPanelBackground));
        const float dx = w / static_cast<float>(n);
        auto xAt = [&](std::size_t i) { return p0.x + (static_cast<float>(i) + 0.5f) * dx; };
        if (r == 0 || r == 1) {
            const float lo = r == 0 ? 0.0f : clearMin;
            const float hi = r == 0 ? std::max(v.maxSpeed, 1e-3f) : clearMax;
            auto yAt = [&](float value) {
                return p0.y + h - (std::clamp(value, lo, hi) - lo) / (hi - lo) * (h - 2.0f) - 1.0f;
            };
            if (r == 1 && clearMin < 0.0f)
                dl.AddLine({p0.x, yAt(0.0f)}, {p0.x + w, yAt(0.0f)},
                           col(palette().kLintError, 120));
            const ImU32 c = r == 0 ? col(palette().kArrowV) : col(palette().kArrowNew);
            bool have = false;
            ImVec2 last{};
            for (std::size_t i = 0; i < n; ++i) {
                const AgentHistorySample& s = v.samples[i];
                if (!s.valid) {
                    have = false;
                    continue;
                }
                const ImVec2 p{xAt(i), yAt(r == 0 ? s.speed : s.clearance)};
                if (have) dl.AddLine(last, p, c, 1.5f);
                last = p;
                have = true;
            }
        } else {
            const ImU32 c = col(r == 2 ? palette().kAgentLp3 : palette().kAgentDetouring);
            for (std::size_t i = 0; i < n; ++i) {
                const AgentHistorySample& s = v.samples[i];
                if (s.valid && (r == 2 ? s.lp3 : s.detour))
                    dl.AddRectFilled({p0.x + static_cast<float>(i) * dx, p0.y},
                                     {p0.x + static_cast<float>(i + 1) * dx + 0.5f, p0.y + h}, c);
            }
        }
        if (v.current >= v.first && v.current < v.first + n) {
            const float x = xAt(static_cast<std::size_t>(v.current - v.first));
            dl.AddLine({x, p0.y}, {x, p0.y + h}, col(palette().kHighlight), 1.5f);
        }
        if (hovered) {
            const std::size_t i = historyIndexAt(ImGui::GetIO().MousePos.x, p0.x, w, n);
            const AgentHistorySample& s = v.samples[i];
            if (s.valid)
                ImGui::SetTooltip("step %llu: speed %.3f, clearance %s%s%s",
                                  static_cast<unsigned long long>(v.first + i), s.speed,
                                  formatClearance(s.clearance).c_str(), s.lp3 ? ", LP3" : "",
                                  s.detour ? ", detouring" : "");
            else
                ImGui::SetTooltip("step %llu: not collected yet",
                                  static_cast<unsigned long long>(v.first + i));
            if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) clicked = v.first + i;
        }
    }
    return clicked;
}

} // namespace orca::ui
