#include "orca/ui/metrics_panel.hpp"
#include "orca/ui/window_placement.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include <imgui.h>

namespace orca::ui {

MetricsHistory::MetricsHistory(std::size_t capacity) : m_buffer(capacity == 0 ? 1 : capacity) {}

void MetricsHistory::clear() {
    m_start = 0;
    m_size = 0;
}

void MetricsHistory::push(const MetricsSample& s) {
    const std::size_t cap = m_buffer.size();
    if (m_size < cap) {
        m_buffer[(m_start + m_size) % cap] = s;
        ++m_size;
    } else {
        m_buffer[m_start] = s;
        m_start = (m_start + 1) % cap;
    }
}

const MetricsSample& MetricsHistory::at(std::size_t i) const {
    return m_buffer[(m_start + i) % m_buffer.size()];
}

std::string formatClearance(double v, int decimals) {
    if (!std::isfinite(v)) return "-";
    char buf[48];
    // Below half a unit of the last decimal, "%.*f" would print zero.
    if (v != 0.0 && std::abs(v) < 0.5 * std::pow(10.0, -decimals))
        std::snprintf(buf, sizeof buf, "%.2g", v);
    else
        std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

namespace {

void plot(const char* label, const std::vector<float>& values, const char* overlay) {
    if (values.empty()) {
        ImGui::TextDisabled("%s: no samples yet (run or step)", label);
        return;
    }
    ImGui::PlotLines(label, values.data(), static_cast<int>(values.size()), 0, overlay, FLT_MAX,
                     FLT_MAX, {0.0f, 50.0f});
}

} // namespace

void drawMetricsPanel(const MetricsSample& current, const MetricsHistory& history, bool* open) {
    const ImGuiIO& io = ImGui::GetIO();
    // Default place: bottom left, under the parameters panel.
    placeNewWindow("Metrics", {340.0f, 270.0f},
                   {10.0f, std::max(io.DisplaySize.y - 310.0f, 40.0f)});
    if (!ImGui::Begin("Metrics", open)) {
        ImGui::End();
        return;
    }
    if (std::isfinite(current.minClearance))
        ImGui::Text("min clearance %s%s", formatClearance(current.minClearance, 4).c_str(),
                    current.minClearance < 0.0 ? "  (overlap)" : "");
    else
        ImGui::Text("min clearance: no agent pair in range");
    ImGui::Text("overlapping pairs %zu", current.overlappingPairs);
    if (current.goalAgents > 0)
        ImGui::Text("at goal %zu / %zu", current.agentsAtGoal, current.goalAgents);
    else
        ImGui::TextDisabled("no agent has a goal");
    ImGui::Text("LP3 agents (last step) %zu", current.lp3Agents);
    ImGui::Separator();
    ImGui::TextDisabled("Last %zu steps (clearance only while this panel is open)", history.size());

    std::vector<float> clearance;
    std::vector<float> overlaps;
    std::vector<float> atGoal;
    std::vector<float> lp3;
    for (std::size_t i = 0; i < history.size(); ++i) {
        const MetricsSample& s = history.at(i);
        if (s.hasClearance && std::isfinite(s.minClearance)) {
            clearance.push_back(static_cast<float>(s.minClearance));
            overlaps.push_back(static_cast<float>(s.overlappingPairs));
        }
        atGoal.push_back(static_cast<float>(s.agentsAtGoal));
        lp3.push_back(static_cast<float>(s.lp3Agents));
    }
    ImGui::PushItemWidth(-110.0f);
    char overlay[64];
    std::snprintf(overlay, sizeof overlay, "%s",
                  formatClearance(clearance.empty() ? 0.0 : clearance.back()).c_str());
    plot("min clearance", clearance, overlay);
    std::snprintf(overlay, sizeof overlay, "%.0f", overlaps.empty() ? 0.0 : overlaps.back());
    plot("overlaps", overlaps, overlay);
    std::snprintf(overlay, sizeof overlay, "%.0f", atGoal.empty() ? 0.0 : atGoal.back());
    plot("at goal", atGoal, overlay);
    std::snprintf(overlay, sizeof overlay, "%.0f", lp3.empty() ? 0.0 : lp3.back());
    plot("LP3 agents", lp3, overlay);
    ImGui::PopItemWidth();
    ImGui::End();
}

} // namespace orca::ui
