#include "orca/ui/inspector.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <imgui.h>

#include "orca/simulator.hpp"
#include "orca/ui/long_text.hpp"
#include "orca/ui/window_placement.hpp"

namespace orca::ui {

namespace {

std::string agentLabel(const Simulator& sim, AgentId id, std::span<const std::string> names) {
    const auto i = sim.indexOf(id);
    if (!i) return "(removed)";
    // Appending (not "#" + to_string) avoids a GCC 12 -Wrestrict false positive.
    std::string s(1, '#');
    s += std::to_string(*i);
    if (*i < names.size() && !names[*i].empty()) {
        s += ' ';
        s += shownLine(names[*i]); // a file's id: one line, cut
    }
    return s;
}

std::string obstacleLabel(const Simulator& sim, ObstacleId id, std::uint32_t segment) {
    for (std::size_t k = 0; k < sim.obstacleCount(); ++k)
        if (sim.obstacleIdAt(k) == id)
            return "obstacle #" + std::to_string(k) + " seg " + std::to_string(segment);
    return "obstacle (removed)";
}

void vecRow(const char* name, Vec2 v, bool showLength = true) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(name);
    ImGui::TableNextColumn();
    ImGui::Text("(%.3f, %.3f)", v.x, v.y);
    ImGui::TableNextColumn();
    if (showLength) ImGui::Text("|%.3f|", std::hypot(v.x, v.y));
}

void drawRecord(const Simulator& sim, const ExplainRecord& rec,
                std::span<const std::string> names) {
    if (ImGui::BeginTable("##state", 3, ImGuiTableFlags_SizingFixedFit)) {
        vecRow("position", rec.position, false);
        vecRow("velocity v", rec.velocity);
        vecRow("v_pref", rec.prefVelocity);
        vecRow("v_new", rec.newVelocity);
        ImGui::EndTable();
    }
    const AgentParams& p = rec.params;
    ImGui::TextDisabled("r %.3g  maxSpeed %.3g  prefSpeed %.3g  neighborDist %.3g", p.radius,
                        p.maxSpeed, p.prefSpeed, p.neighborDist);
    ImGui::TextDisabled("maxNeighbors %d  tau %.3g  tau_o %.3g  goalRadius %.3g%s", p.maxNeighbors,
                        p.timeHorizon, p.timeHorizonObst, p.goalRadius,
                        rec.isStatic ? "  static" : "");

    // LP result.
    if (rec.isStatic)
        ImGui::TextDisabled("static: decides nothing (v_new = 0)");
    else if (!rec.lp2Failed())
        ImGui::TextColored({0.5f, 0.85f, 0.5f, 1.0f}, "LP2 feasible (%zu half-planes)",
                           rec.lines.size());
    else
        ImGui::TextColored({1.0f, 0.6f, 0.25f, 1.0f}, "LP2 failed at line %zu -> LP3%s, depth %.4g",
                           rec.lp2Fail, rec.lp3Ran ? "" : " (did not run?)", rec.lp3Depth);

    constexpr ImGuiTableFlags tf = ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV |
                                   ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_ScrollY;
    const float rowH = ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::TreeNodeEx("neighbours", ImGuiTreeNodeFlags_DefaultOpen,
                          "Neighbours (%zu agents, %zu obstacle segments)",
                          rec.agentNeighbors.size(), rec.obstacleNeighbors.size())) {
        const float h =
            rowH * static_cast<float>(std::min<std::size_t>(
                       rec.agentNeighbors.size() + rec.obstacleNeighbors.size() + 1, 8)) +
            4.0f;
        if (ImGui::BeginTable("##nb", 3, tf, {0.0f, h})) {
            ImGui::TableSetupScrollFreeze(0, 1);
            ImGui::TableSetupColumn("neighbour");
            ImGui::TableSetupColumn("distance");
            ImGui::TableSetupColumn("outcome");
            ImGui::TableHeadersRow();
            for (const ExplainAgentNeighbor& n : rec.agentNeighbors) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(agentLabel(sim, n.id, names).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", std::sqrt(n.distSq));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted("line");
            }
            for (const ExplainObstacleNeighbor& n : rec.obstacleNeighbors) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(obstacleLabel(sim, n.obstacle, n.segment).c_str());
                ImGui::TableNextColumn();
                ImGui::Text("%.3f", std::sqrt(n.distSq));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(std::string(toString(n.outcome)).c_str());
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
    if (ImGui::TreeNodeEx("lines", ImGuiTreeNodeFlags_DefaultOpen, "Half-planes (%zu)",
                          rec.lines.size())) {
        const float h =
            rowH * static_cast<float>(std::min<std::size_t>(rec.lines.size() + 1, 10)) + 4.0f;
        if (ImGui::BeginTable("##lines", 5, tf, {0.0f, h})) {
            ImGui::TableSetupScrollFreeze(0, 1);
            ImGui::TableSetupColumn("#");
            ImGui::TableSetupColumn("case");
            ImGui::TableSetupColumn("source");
            ImGui::TableSetupColumn("ttc (s)");
            ImGui::TableSetupColumn("violation");
            ImGui::TableHeadersRow();
            for (std::size_t i = 0; i < rec.lines.size(); ++i) {
                const ExplainLine& l = rec.lines[i];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                if (rec.lp2Failed() && i == rec.lp2Fail)
                    ImGui::TextColored({1.0f, 0.6f, 0.25f, 1.0f}, "%zu LP2", i);
                else
                    ImGui::Text("%zu", i);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(std::string(toString(l.lineCase)).c_str());
                ImGui::TableNextColumn();
                const std::string src = isObstacleCase(l.lineCase)
                                            ? obstacleLabel(sim, l.obstacle, l.segment)
                                            : agentLabel(sim, l.otherAgent, names);
                ImGui::TextUnformatted(src.c_str());
                ImGui::TableNextColumn();
                if (std::isfinite(l.timeToCollision))
                    ImGui::Text("%.2f", l.timeToCollision);
                else
                    ImGui::TextDisabled("never");
                ImGui::TableNextColumn();
                if (l.violation > 1e-9)
                    ImGui::TextColored({1.0f, 0.45f, 0.4f, 1.0f}, "%.4g", l.violation);
                else
                    ImGui::TextDisabled("ok");
            }
            ImGui::EndTable();
        }
        ImGui::TreePop();
    }
}

} // namespace

std::optional<std::uint64_t> drawInspector(const Simulator& sim,
                                           std::span<const ExplainRecord> records, AgentId primary,
                                           std::span<const std::string> names, bool* open,
                                           const AgentHistoryView* history) {
    std::optional<std::uint64_t> clicked;
    const ImGuiIO& io = ImGui::GetIO();
    // Default place: top, just left of where the velocity panel docks (right third).
    placeNewWindow("Inspector", {460.0f, std::min(440.0f, io.DisplaySize.y - 80.0f)},
                   {std::max(io.DisplaySize.x * 2.0f / 3.0f - 470.0f, 350.0f), 30.0f});
    if (!ImGui::Begin("Inspector", open)) {
        ImGui::End();
        return clicked;
    }
    if (records.empty()) {
        ImGui::TextDisabled("No agent selected: click one in the world view.");
        ImGui::End();
        return clicked;
    }
    ImGui::TextDisabled("What the next step will decide (dry run, step %llu)",
                        static_cast<unsigned long long>(records.front().step));
    for (const ExplainRecord& rec : records) {
        const std::string title = "Agent " + agentLabel(sim, rec.agent, names) +
                                  (rec.agent == primary ? "  (primary)" : "") + "###agent" +
                                  std::to_string(rec.agent.slot) + "_" +
                                  std::to_string(rec.agent.generation);
        ImGui::SetNextItemOpen(rec.agent == primary, ImGuiCond_Appearing);
        if (ImGui::CollapsingHeader(title.c_str())) {
            ImGui::PushID(static_cast<int>(rec.agent.slot));
            if (history && rec.agent == primary &&
                ImGui::TreeNodeEx("History", ImGuiTreeNodeFlags_DefaultOpen)) {
                clicked = drawAgentHistory(*history);
                ImGui::TreePop();
            }
            drawRecord(sim, rec, names);
            ImGui::PopID();
        }
    }
    ImGui::End();
    return clicked;
}

} // namespace orca::ui
