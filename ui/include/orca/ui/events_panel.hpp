#pragma once
/// \file events_panel.hpp
/// The events panel: the recording's events (orca::History::events()) filtered by kind and by
/// agent, counts per kind, and a list that stays fast at 100k rows (ImGuiListClipper); a
/// double-click goes to the event. The filter also drives the transport's previous / next
/// event. The filtering is a pure function, unit-tested without a window.

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/events.hpp"
#include "orca/ui/event_kinds.hpp"

namespace orca::ui {

/// Which events pass.
struct EventFilter {
    [[nodiscard]] static constexpr std::array<bool, kShownEventKindCount> allKinds() {
        std::array<bool, kShownEventKindCount> on{};
        on.fill(true);
        return on;
    }
    std::array<bool, kShownEventKindCount> kinds = allKinds(); ///< every kind on
    enum class AgentMode : std::uint8_t {
        All,      ///< every agent
        Selected, ///< events of the primary selected agent (all when none is selected)
        Index,    ///< events of agent `agentIndex`
    };
    AgentMode agentMode = AgentMode::All;
    int agentIndex = 0;

    /// The agent the filter asks for, given the primary selected agent (index), or nullopt.
    [[nodiscard]] std::optional<std::uint32_t> agent(std::optional<std::size_t> selected) const;
    friend bool operator==(const EventFilter&, const EventFilter&) = default;
};

/// Whether `e` is of an allowed kind and, when `agent` is set, involves it.
[[nodiscard]] bool eventMatches(const Event& e, const std::array<bool, kShownEventKindCount>& kinds,
                                std::optional<std::uint32_t> agent);
/// Indices (ascending) of the events that match, into `out` (cleared first).
void filterEvents(std::span<const Event> events,
                  const std::array<bool, kShownEventKindCount>& kinds,
                  std::optional<std::uint32_t> agent, std::vector<std::uint32_t>& out);
/// Events per kind that involve `agent` (every event when nullopt).
[[nodiscard]] std::array<std::size_t, kShownEventKindCount>
countByKind(std::span<const Event> events, std::optional<std::uint32_t> agent);
/// The event the transport goes to from step `current`: forward, the first match after
/// `current`; backward, the first match of the latest step before `current`. nullopt at the
/// end. `events` ordered by step.
[[nodiscard]] std::optional<std::size_t>
adjacentEvent(std::span<const Event> events, std::uint64_t current, bool forward,
              const std::array<bool, kShownEventKindCount>& kinds,
              std::optional<std::uint32_t> agent);

struct EventsPanelInput {
    std::span<const Event> events;
    /// Changes whenever the events change other than by appending (see TimelineInput).
    std::uint64_t generation = 0;
    std::uint64_t current = 0;                ///< the simulator's step
    std::optional<std::size_t> selectedAgent; ///< the primary selected agent (index)
    std::size_t agentCount = 0;
    double timeStep = 0.1;
    /// A recording being played: events are at frames, and the list shows frame k's recorded
    /// step `recordedSteps[k]` (see TimelineInput::recordedSteps; empty: steps).
    std::span<const std::uint64_t> recordedSteps;
};

struct EventsPanelOutput {
    std::optional<std::size_t> focus; ///< an event was double-clicked (index into events)
};

class EventsPanel {
  public:
    /// The "Events" window. `open` as in ImGui::Begin.
    EventsPanelOutput draw(const EventsPanelInput& in, bool* open);

    EventFilter filter;
    /// The rows of the last draw (indices into the events).
    [[nodiscard]] const std::vector<std::uint32_t>& rows() const { return m_rows; }

  private:
    std::vector<std::uint32_t> m_rows;
    std::array<std::size_t, kShownEventKindCount> m_counts{};
    // Cache key of m_rows / m_counts.
    std::uint64_t m_generation = ~std::uint64_t{0};
    std::size_t m_events = ~std::size_t{0};
    EventFilter m_filter;
    std::optional<std::uint32_t> m_agent;
    std::optional<std::size_t> m_selectedRow; ///< event index last clicked
    bool m_followCurrent = true;
    std::uint64_t m_lastCurrent = ~std::uint64_t{0};
};

} // namespace orca::ui
