#include "orca/ui/compare_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/metrics_panel.hpp"
#include "orca/ui/window_placement.hpp"

namespace orca::ui {

namespace {

constexpr Rgba kGhost{255, 150, 220, 210};
constexpr Rgba kGhostLink{255, 150, 220, 110};

void metricRow(const char* label, const std::string& a, const std::string& b, bool differ) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(label);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(a.c_str());
    ImGui::TableNextColumn();
    if (differ)
        ImGui::TextColored(ImVec4(1.0f, 0.6f, 0.85f, 1.0f), "%s", b.c_str());
    else
        ImGui::TextUnformatted(b.c_str());
}

std::string number(double v, const char* format = "%.3f") {
    if (!std::isfinite(v)) return "-";
    char buf[32];
    std::snprintf(buf, sizeof buf, format, v);
    return buf;
}

std::string count(std::size_t v) {
    return std::to_string(v);
}

} // namespace

std::vector<std::string> splitAssignments(const std::string& text) {
    std::vector<std::string> out;
    std::string part;
    auto flush = [&] {
        const auto b = part.find_first_not_of(" \t");
        const auto e = part.find_last_not_of(" \t");
        if (b != std::string::npos) out.push_back(part.substr(b, e - b + 1));
        part.clear();
    };
    for (char c : text) {
        if (c == ',' || c == ';')
            flush();
        else
            part += c;
    }
    flush();
    return out;
}

ComparePanelOutput drawComparePanel(CompareForm& form, const ComparePanelInput& in, bool* open) {
    ComparePanelOutput out;
    placeNewWindow("Compare", {430.0f, 0.0f}, {10.0f, 30.0f});
    if (!ImGui::Begin("Compare", open)) {
        ImGui::End();
        return out;
    }
    if (!in.active) {
        ImGui::TextWrapped("Branch from step %llu with changed parameters and run both in "
                           "lockstep (the branch is drawn as pink ghost outlines).",
                           static_cast<unsigned long long>(in.currentStep));
        char buf[256];
        std::snprintf(buf, sizeof buf, "%s", form.assignments.c_str());
        ImGui::SetNextItemWidth(-1);
        if (ImGui::InputTextWithHint("##assign", "timeHorizon=5, maxNeighbors=4", buf, sizeof buf))
            form.assignments = buf;
        ImGui::TextDisabled("agent: radius maxSpeed prefSpeed neighborDist maxNeighbors "
                            "timeHorizon (tau) timeHorizonObst goalRadius; simulation: timeStep "
                            "responsibility staticResponsibility lp3BisectorWeight");
        ImGui::BeginDisabled(in.selectedCount == 0);
        ImGui::Checkbox("Only the selected agents", &form.selectedOnly);
        ImGui::EndDisabled();
        if (in.selectedCount == 0) form.selectedOnly = false;
        if (ImGui::Button("Branch here")) {
            out.start = splitAssignments(form.assignments);
            out.selectedOnly = form.selectedOnly;
        }
        if (!in.error.empty())
            ImGui::TextColored(ImVec4(1.0f, 0.4f, 0.4f, 1.0f), "%s", in.error.c_str());
        ImGui::End();
        return out;
    }

    ImGui::Text("Branch from step %llu: %s", static_cast<unsigned long long>(in.fromStep),
                in.change.c_str());
    ImGui::SameLine();
    if (ImGui::SmallButton("Stop")) out.stop = true;
    if (in.currentStep < in.fromStep)
        ImGui::TextDisabled("(before the split: the branch waits at step %llu)",
                            static_cast<unsigned long long>(in.fromStep));
    const RunMetrics& a = in.original;
    const RunMetrics& b = in.branch;
    if (ImGui::BeginTable("cmp", 3, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV)) {
        ImGui::TableSetupColumn("at step");
        ImGui::TableSetupColumn("original");
        ImGui::TableSetupColumn("branch");
        ImGui::TableHeadersRow();
        metricRow("step", count(a.step), count(b.step), a.step != b.step);
        metricRow("at goal", count(a.agentsAtGoal) + " / " + count(a.goalAgents),
                  count(b.agentsAtGoal) + " / " + count(b.goalAgents),
                  a.agentsAtGoal != b.agentsAtGoal);
        metricRow("overlapping pairs", count(a.overlappingPairs), count(b.overlappingPairs),
                  a.overlappingPairs != b.overlappingPairs);
        metricRow("min clearance", formatClearance(a.minAgentClearance, 4),
                  formatClearance(b.minAgentClearance, 4),
                  a.minAgentClearance != b.minAgentClearance);
        metricRow("LP3 agents", count(a.lp3Agents), count(b.lp3Agents), a.lp3Agents != b.lp3Agents);
        metricRow("mean speed", number(a.meanSpeed), number(b.meanSpeed),
                  a.meanSpeed != b.meanSpeed);
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextDisabled("events since step %llu", static_cast<unsigned long long>(in.fromStep));
        for (std::size_t k = 0; k < kEventKindCount; ++k) {
            if (a.eventCounts[k] == 0 && b.eventCounts[k] == 0) continue;
            const std::string label = "  " + std::string(toString(static_cast<EventKind>(k)));
            metricRow(label.c_str(), count(a.eventCounts[k]), count(b.eventCounts[k]),
                      a.eventCounts[k] != b.eventCounts[k]);
        }
        ImGui::EndTable();
    }
    ImGui::TextDisabled("Pink: the branch differs. Ghost outlines: the branch's agents.");
    ImGui::End();
    return out;
}

void drawBranchGhosts(ImDrawList& dl, const Camera& camera, std::span<const Vec2> original,
                      std::span<const Vec2> branch, std::span<const double> radii) {
    const Rect view = camera.visibleWorld();
    const std::size_t n = std::min({original.size(), branch.size(), radii.size()});
    const double scale = camera.scale();
    for (std::size_t i = 0; i < n; ++i) {
        const double r = radii[i];
        if (!view.expanded(r).contains(branch[i]) && !view.expanded(r).contains(original[i]))
            continue;
        const Vec2 s = camera.worldToScreen(branch[i]);
        const float pr = static_cast<float>(std::max(r * scale, 1.5));
        if (length(branch[i] - original[i]) * scale > 1.0)
            dl.AddLine(toIm(camera.worldToScreen(original[i])), toIm(s), col(kGhostLink), 1.0f);
        // Dashes: every other of 16 arcs.
        constexpr int kArcs = 16;
        for (int k = 0; k < kArcs; k += 2) {
            const float a0 = static_cast<float>(k) * 6.2831853f / kArcs;
            dl.PathArcTo(toIm(s), pr, a0, a0 + 6.2831853f / kArcs, 4);
            dl.PathStroke(col(kGhost), 0, 1.5f);
        }
    }
}

} // namespace orca::ui
