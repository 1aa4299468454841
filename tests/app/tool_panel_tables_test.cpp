// The tool table (app/sandbox/authoring/tools/) and the panel table
// (app/sandbox/shell/panel_table.hpp): every tool and panel is found by the names the command line,
// lessons and settings files use, old names included.

#include <gtest/gtest.h>

#include <string>

#include "authoring/tools/edit_tool.hpp"
#include "shell/panel_table.hpp"
#include "shell/settings.hpp"

namespace orca::app {
namespace {

TEST(ToolTable, EveryToolHasOneRow) {
    for (const Tool t : {Tool::Inspect, Tool::Select, Tool::AddAgent, Tool::Goal, Tool::Obstacle}) {
        EXPECT_EQ(toolInfo(t).tool, t);
        const ToolInfo* byName = findTool(toolInfo(t).name);
        ASSERT_NE(byName, nullptr);
        EXPECT_EQ(byName->tool, t);
        const ToolInfo* byAction = toolForAction(toolInfo(t).action);
        ASSERT_NE(byAction, nullptr);
        EXPECT_EQ(byAction->tool, t);
    }
    EXPECT_EQ(toolTable().size(), 5u);
    EXPECT_EQ(toolNameList(), "inspect, select, agent, goal, obstacle"); // --tool
    EXPECT_STREQ(toolName(Tool::Select), "Select / move");
    EXPECT_EQ(findTool("bogus"), nullptr);
    EXPECT_FALSE(toolInfo(Tool::Inspect).edits);
    EXPECT_TRUE(toolInfo(Tool::Obstacle).edits);
    EXPECT_EQ(toolForAction(Action::Undo), nullptr);
}

TEST(ToolTable, StatusTextAndAgentHints) {
    EditorState e;
    e.tool = Tool::Inspect;
    EXPECT_EQ(toolInfo(e.tool).instance().statusText(e), "");
    e.tool = Tool::Goal;
    e.snap = true;
    e.snapStep = 0.5;
    EXPECT_EQ(toolInfo(e.tool).instance().statusText(e),
              "Goal (snap 0.5)  (waypoints: Shift+click adds, click a leg inserts, drag moves, "
              "right-click removes)");
    EXPECT_STREQ(toolInfo(Tool::Obstacle).instance().agentHint(),
                 "click: select, Shift+click: add");
}

TEST(PanelTable, NamesOldNamesAndDefaults) {
    // --panels and lessons: the old name "defaults" still opens the new-agent defaults.
    const PanelInfo* defaults = findPanel("defaults");
    ASSERT_NE(defaults, nullptr);
    EXPECT_EQ(defaults, findPanel("agentDefaults"));
    EXPECT_STREQ(defaults->name, "agentDefaults");
    for (const char* name :
         {"parameters", "inspector", "metrics", "linter", "generators", "events", "why", "compare"})
        EXPECT_NE(findPanel(name), nullptr) << name;
    EXPECT_EQ(findPanel("timeline"), nullptr); // the bar is not a window --panels opens
    EXPECT_EQ(findPanel("bogus"), nullptr);
    EXPECT_EQ(panelForAction(Action::ToggleWhy), findPanel("why"));
    EXPECT_EQ(panelForAction(Action::Undo), nullptr);

    const PanelVisibility first; // first launch: only the timeline bar
    EXPECT_TRUE(first.timeline);
    EXPECT_FALSE(first.parameters || first.inspector || first.metrics || first.events ||
                 first.compare || first.linter || first.generators || first.agentDefaults);
}

TEST(PanelTable, SettingsKeepTheirKeys) {
    Settings s;
    s.panels.agentDefaults = true;
    s.panels.timeline = false;
    const std::string text = settingsToText(s);
    EXPECT_NE(text.find("\"agentDefaults\": true"), std::string::npos) << text;
    EXPECT_NE(text.find("\"timeline\": false"), std::string::npos) << text;
    EXPECT_EQ(text.find("\"why\""), std::string::npos) << text; // not kept in the settings
    Settings back;
    std::string error;
    ASSERT_TRUE(settingsFromText(text, back, error)) << error;
    EXPECT_TRUE(back.panels.agentDefaults);
    EXPECT_FALSE(back.panels.timeline);
    // The --panels name read as a settings key too.
    ASSERT_TRUE(settingsFromText(R"({"panels": {"defaults": true}})", back, error)) << error;
    EXPECT_TRUE(back.panels.agentDefaults);
}

} // namespace
} // namespace orca::app
