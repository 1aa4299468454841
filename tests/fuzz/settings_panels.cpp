// The panel table for the settings fuzz target (settings_fuzz.cpp): the rows of
// app/sandbox/shell/panel_table.cpp with the columns settings.cpp reads (name, alias, default
// open, settings member) and no drawing. The real table's draw functions need the whole app
// (SDL, ImGui, the sandbox context); settings.cpp needs only these columns.
// check_panel_table.py (ctest fuzz.settings_panel_table) fails when the two tables differ.
#include <span>

#include "shell/panel_table.hpp"

namespace orca::app {

namespace {

using P = PanelVisibility;

const PanelInfo kPanelTable[] = {
    // name, alias, View menu label, toggle action, default open, settings member, visibility,
    // by name (--panels, lessons), in the dump, draw
    {"parameters", nullptr, nullptr, std::nullopt, false, &P::parameters, nullptr, true, true,
     nullptr},
    {"inspector", nullptr, nullptr, std::nullopt, false, &P::inspector, nullptr, true, true,
     nullptr},
    {"metrics", nullptr, nullptr, std::nullopt, false, &P::metrics, nullptr, true, true, nullptr},
    {"events", nullptr, nullptr, std::nullopt, false, &P::events, nullptr, true, true, nullptr},
    {"why", nullptr, nullptr, std::nullopt, false, nullptr, nullptr, true, false, nullptr},
    {"compare", nullptr, nullptr, std::nullopt, false, &P::compare, nullptr, true, true, nullptr},
    {"timeline", nullptr, nullptr, std::nullopt, true, &P::timeline, nullptr, false, true, nullptr},
    {"agentDefaults", "defaults", nullptr, std::nullopt, false, &P::agentDefaults, nullptr, true,
     false, nullptr},
    {"generators", nullptr, nullptr, std::nullopt, false, &P::generators, nullptr, true, false,
     nullptr},
    {"linter", nullptr, nullptr, std::nullopt, false, &P::linter, nullptr, true, false, nullptr},
};

} // namespace

PanelVisibility::PanelVisibility() {
    for (const PanelInfo& p : kPanelTable)
        if (p.setting) this->*p.setting = p.defaultOpen;
}

std::span<const PanelInfo> panelTable() {
    return kPanelTable;
}

} // namespace orca::app
