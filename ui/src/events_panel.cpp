#include "orca/ui/events_panel.hpp"

#include <algorithm>
#include <cinttypes>
#include <cstdio>

#include <imgui.h>

#include "orca/ui/draw_util.hpp"
#include "orca/ui/timeline_bar.hpp"
#include "orca/ui/window_placement.hpp"

namespace orca::ui {

std::optional<std::uint32_t> EventFilter::agent(std::optional<std::size_t> selected) const {
    switch (agentMode) {
    case AgentMode::All:
        return std::nullopt;
    case AgentMode::Selected:
        if (!selected) return std::nullopt;
        return static_cast<std::uint32_t>(*selected);
    case AgentMode::Index:
        return static_cast<std::uint32_t>(std::max(agentIndex, 0));
    }
    return std::nullopt;
}

bool eventMatches(const Event& e, const std::array<bool, kShownEventKindCount>& kinds,
                  std::optional<std::uint32_t> agent) {
    if (!kinds[static_cast<std::size_t>(e.kind)]) return false;
    if (!agent) return true;
    return std::find(e.agents.begin(), e.agents.end(), *agent) != e.agents.end();
}

void filterEvents(std::span<const Event> events,
                  const std::array<bool, kShownEventKindCount>& kinds,
                  std::optional<std::uint32_t> agent, std::vector<std::uint32_t>& out) {
    out.clear();
    for (std::size_t i = 0; i < events.size(); ++i)
        if (eventMatches(events[i], kinds, agent)) out.push_back(static_cast<std::uint32_t>(i));
}

std::array<std::size_t, kShownEventKindCount> countByKind(std::span<const Event> events,
                                                          std::optional<std::uint32_t> agent) {
    std::array<std::size_t, kShownEventKindCount> counts{};
    for (const Event& e : events)
        if (!agent || std::find(e.agents.begin(), e.agents.end(), *agent) != e.agents.end())
            ++counts[static_cast<std::size_t>(e.kind)];
    return counts;
}

std::optional<std::size_t> adjacentEvent(std::span<const Event> events, std::uint64_t current,
                                         bool forward,
                                         const std::array<bool, kShownEventKindCount>& kinds,
                                         std::optional<std::uint32_t> agent) {
    if (forward) {
        const auto it =
            std::upper_bound(events.begin(), events.end(), current,
                             [](std::uint64_t s, const Event& e) { return s < e.step; });
        for (auto i = it; i != events.end(); ++i)
            if (eventMatches(*i, kinds, agent)) return static_cast<std::size_t>(i - events.begin());
        return std::nullopt;
    }
    const auto it = std::lower_bound(events.begin(), events.end(), current,
                                     [](const Event& e, std::uint64_t s) { return e.step < s; });
    std::optional<std::size_t> found;
    for (auto i = it; i != events.begin();) {
        --i;
        if (found && i->step != events[*found].step) break;
        if (eventMatches(*i, kinds, agent)) found = static_cast<std::size_t>(i - events.begin());
    }
    return found;
}

EventsPanelOutput EventsPanel::draw(const EventsPanelInput& in, bool* open) {
    EventsPanelOutput out;
    placeNewWindow("Events", {420.0f, 400.0f}, {10.0f, 30.0f});
    if (!ImGui::Begin("Events", open)) {
        ImGui::End();
        return out;
    }
    const std::optional<std::uint32_t> agent = filter.agent(in.selectedAgent);
    if (m_generation != in.generation || m_events != in.events.size() || !(m_filter == filter) ||
        m_agent != agent) {
        filterEvents(in.events, filter.kinds, agent, m_rows);
        m_counts = countByKind(in.events, agent);
        m_generation = in.generation;
        m_events = in.events.size();
        m_filter = filter;
        m_agent = agent;
    }

    // Kinds, with their counts (for the agent filter) and colours.
    if (ImGui::SmallButton("all")) filter.kinds.fill(true);
    ImGui::SameLine();
    if (ImGui::SmallButton("none")) filter.kinds.fill(false);
    ImGui::SameLine();
    ImGui::TextDisabled("kinds (count)");
    if (ImGui::BeginTable("##kinds", 2, ImGuiTableFlags_SizingStretchSame)) {
        for (std::size_t k = 0; k < kShownEventKindCount; ++k) {
            ImGui::TableNextColumn();
            const auto kind = static_cast<EventKind>(k);
            const Rgba c = eventColor(kind);
            ImGui::ColorButton("##c", opaque4(c), ImGuiColorEditFlags_NoTooltip, {10.0f, 10.0f});
            ImGui::SameLine();
            const std::string label = std::string(eventKindName(kind)) + " (" +
                                      std::to_string(m_counts[k]) + ")##" + std::to_string(k);
            bool on = filter.kinds[k];
            if (ImGui::Checkbox(label.c_str(), &on)) filter.kinds[k] = on;
        }
        ImGui::EndTable();
    }

    // Agent.
    int mode = static_cast<int>(filter.agentMode);
    ImGui::TextUnformatted("agent");
    ImGui::SameLine();
    ImGui::RadioButton("all", &mode, 0);
    ImGui::SameLine();
    ImGui::RadioButton("selected", &mode, 1);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip(in.selectedAgent ? "agent #%zu (the primary selection)"
                                           : "no agent selected: all agents",
                          in.selectedAgent.value_or(0));
    ImGui::SameLine();
    ImGui::RadioButton("#", &mode, 2);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(90.0f);
    if (ImGui::InputInt("##agent", &filter.agentIndex)) {
        filter.agentIndex =
            std::clamp(filter.agentIndex, 0, std::max(static_cast<int>(in.agentCount) - 1, 0));
        mode = 2;
    }
    filter.agentMode = static_cast<EventFilter::AgentMode>(mode);
    ImGui::TextDisabled("%zu of %zu events; double-click: go there", m_rows.size(),
                        in.events.size());
    ImGui::SameLine();
    ImGui::Checkbox("follow", &m_followCurrent);
    if (ImGui::IsItemHovered())
        ImGui::SetTooltip("Scroll the list to the current step when it changes");

    // The list: only the visible rows are laid out.
    constexpr ImGuiTableFlags flags = ImGuiTableFlags_ScrollY | ImGuiTableFlags_RowBg |
                                      ImGuiTableFlags_BordersInnerV |
                                      ImGuiTableFlags_SizingFixedFit | ImGuiTableFlags_Resizable;
    if (ImGui::BeginTable("##events", 4, flags, {0.0f, ImGui::GetContentRegionAvail().y})) {
        ImGui::TableSetupScrollFreeze(0, 1);
        ImGui::TableSetupColumn("step");
        // Wide enough for every kind's name from the start: a fitted width is measured once,
        // on the rows visible then, and later longer kinds were cut ("overlap-be").
        float kindWidth = 0.0f;
        for (std::size_t k = 0; k < kShownEventKindCount; ++k) {
            const std::string_view name = eventKindName(static_cast<EventKind>(k));
            kindWidth =
                std::max(kindWidth, ImGui::CalcTextSize(name.data(), name.data() + name.size()).x);
        }
        ImGui::TableSetupColumn("kind", ImGuiTableColumnFlags_WidthFixed, kindWidth);
        ImGui::TableSetupColumn("agents", ImGuiTableColumnFlags_WidthStretch);
        ImGui::TableSetupColumn("value");
        ImGui::TableHeadersRow();
        // The first row at or after the current step (the list follows the playhead).
        const auto currentRow =
            static_cast<std::size_t>(std::lower_bound(m_rows.begin(), m_rows.end(), in.current,
                                                      [&](std::uint32_t i, std::uint64_t s) {
                                                          return in.events[i].step < s;
                                                      }) -
                                     m_rows.begin());
        if (m_followCurrent && m_lastCurrent != in.current && currentRow < m_rows.size()) {
            const float rowHeight = ImGui::GetTextLineHeightWithSpacing();
            ImGui::SetScrollY(std::max(0.0f, static_cast<float>(currentRow) * rowHeight -
                                                 ImGui::GetWindowHeight() * 0.3f));
        }
        m_lastCurrent = in.current;
        ImGuiListClipper clipper;
        clipper.Begin(static_cast<int>(m_rows.size()));
        while (clipper.Step()) {
            for (int r = clipper.DisplayStart; r < clipper.DisplayEnd; ++r) {
                const std::uint32_t index = m_rows[static_cast<std::size_t>(r)];
                const Event& e = in.events[index];
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::PushID(static_cast<int>(index));
                // (A recording's events are at frames: the frame's recorded step is shown; a
                // deviation names the step after the frame its decision was made from.)
                const std::uint64_t at = e.step + namedStepOffset(e.kind);
                const std::uint64_t shown =
                    in.recordedSteps.empty()
                        ? at
                        : in.recordedSteps[std::min<std::size_t>(at, in.recordedSteps.size() - 1)];
                char step[32];
                std::snprintf(step, sizeof step, "%" PRIu64, shown);
                const bool atCurrent = e.step == in.current;
                if (ImGui::Selectable(step, atCurrent || m_selectedRow == index,
                                      ImGuiSelectableFlags_SpanAllColumns |
                                          ImGuiSelectableFlags_AllowDoubleClick)) {
                    m_selectedRow = index;
                    if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) out.focus = index;
                }
                if (ImGui::IsItemHovered() && in.recordedSteps.empty())
                    ImGui::SetTooltip("t = %.2f s; double-click: go to step %" PRIu64
                                      ", select and frame the agents",
                                      static_cast<double>(e.step) * in.timeStep, e.step);
                else if (ImGui::IsItemHovered())
                    ImGui::SetTooltip(e.kind == kDeviationEvent
                                          ? "the velocity recorded at step %" PRIu64
                                            " is not ORCA's decision from frame %" PRIu64
                                            "; double-click: go to that frame, select and frame "
                                            "the agent"
                                          : "step %" PRIu64 ", frame %" PRIu64
                                            "; double-click: go there, select and frame the "
                                            "agents",
                                      shown, e.step);
                ImGui::PopID();
                ImGui::TableNextColumn();
                const Rgba c = eventColor(e.kind);
                ImGui::TextColored(opaque4(c), "%.*s",
                                   static_cast<int>(eventKindName(e.kind).size()),
                                   eventKindName(e.kind).data());
                ImGui::TableNextColumn();
                std::string who = agentList(e.agents);
                if (e.obstacle) who += "  obstacle #" + std::to_string(*e.obstacle);
                ImGui::TextUnformatted(who.c_str());
                ImGui::TableNextColumn();
                if (e.value != 0.0) ImGui::Text("%.4g", e.value);
            }
        }
        ImGui::EndTable();
    }
    ImGui::End();
    return out;
}

} // namespace orca::ui
