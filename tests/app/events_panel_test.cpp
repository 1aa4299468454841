// The Events window drawn headless: its kind column fits every kind's name even when the
// first rows it showed were short ones (a fitted width was measured once and cut later rows
// to "overlap-be").
#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include <imgui.h>
#include <imgui_internal.h>

#include "orca/events.hpp"
#include "orca/ui/event_kinds.hpp"
#include "orca/ui/events_panel.hpp"

#include "app/imgui_test_context.hpp"

namespace orca::ui {
namespace {

Event event(std::uint64_t step, EventKind kind, std::vector<std::uint32_t> agents) {
    Event e;
    e.step = step;
    e.kind = kind;
    e.agents = std::move(agents);
    return e;
}

// The width the "##events" table gave its kind column in the last frame.
float kindColumnWidth() {
    ImGuiWindow* window = ImGui::FindWindowByName("Events");
    if (window == nullptr) return -1.0f;
    ImGuiTable* table = ImGui::TableFindByID(ImHashStr("##events", 0, window->ID));
    if (table == nullptr || table->ColumnsCount < 2) return -1.0f;
    return table->Columns[1].WidthGiven;
}

void frame(EventsPanel& panel, const EventsPanelInput& in) {
    ImGui::NewFrame();
    bool open = true;
    (void)panel.draw(in, &open);
    ImGui::Render();
}

TEST(EventsPanel, KindColumnFitsEveryKindFromTheFirstFrame) {
    testing::ImGuiContextScope imgui;
    EventsPanel panel;
    // First the short kinds only, then an overlap-flood-begin arrives.
    std::vector<Event> events = {event(1, EventKind::Arrived, {0}),
                                 event(2, EventKind::Lp3End, {1})};
    EventsPanelInput in;
    in.agentCount = 2;
    in.events = events;
    for (int i = 0; i < 3; ++i)
        frame(panel, in);
    events.push_back(event(3, EventKind::OverlapBegin, {0, 1}));
    events.push_back(event(4, EventKind::OverlapFloodBegin, {}));
    in.events = events;
    in.generation = 1;
    for (int i = 0; i < 3; ++i)
        frame(panel, in);

    float widest = 0.0f;
    for (std::size_t k = 0; k < kShownEventKindCount; ++k) {
        const std::string_view name = eventKindName(static_cast<EventKind>(k));
        widest = std::max(widest, ImGui::CalcTextSize(name.data(), name.data() + name.size()).x);
    }
    EXPECT_GE(widest, ImGui::CalcTextSize("overlap-flood-begin").x);
    EXPECT_GE(kindColumnWidth(), widest);
}

} // namespace
} // namespace orca::ui
