// Lessons in the app (app/sandbox/lessons/lessons.cpp) without a window: the names a lesson file
// may use are the app's, lesson names resolve like --lesson takes them, and the bundled lessons
// list with their titles.

#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <string_view>

#include "orca/scene/lesson.hpp"
#include "orca/ui/lesson_panel.hpp"

#include "layers.hpp"
#include "lessons/lessons.hpp"
#include "sandbox.hpp"
#include "shell/panel_table.hpp"
#include "shell/settings.hpp"

namespace orca::app {
namespace {

TEST(LessonApp, LessonLayerAndPanelNamesAreTheApps) {
    for (const std::string_view name : lesson::layerNames())
        EXPECT_NE(findLayer(name), nullptr) << name;
    for (const std::string_view name : lesson::panelNames())
        EXPECT_NE(findPanel(name), nullptr) << name;
}

TEST(LessonApp, NamesResolveInTheLessonsFolder) {
    AppPaths paths;
    paths.lessonsDir = std::filesystem::path(ORCA_SOURCE_DIR) / "lessons";
    const auto full = resolveLessonArgument("03_u_and_the_half_plane", paths);
    EXPECT_EQ(full.filename(), "03_u_and_the_half_plane.json");
    EXPECT_EQ(resolveLessonArgument("03", paths), full);    // a unique prefix
    EXPECT_TRUE(resolveLessonArgument("0", paths).empty()); // ambiguous
    EXPECT_TRUE(resolveLessonArgument("no_such_lesson", paths).empty());
    EXPECT_EQ(resolveLessonArgument(full.string(), paths), full); // a path

    const std::vector<LessonListEntry> list = listLessons(paths.lessonsDir);
    ASSERT_GE(list.size(), 10u);
    EXPECT_EQ(list.front().name, "01_vo_one_neighbor");
    for (const LessonListEntry& e : list)
        EXPECT_FALSE(e.title.empty()) << e.file;
}

// Issue 25, item 5: a lesson's layers and windows are the lesson's. The user's stay in the
// settings (what is saved on exit) while it is open and come back when it closes.
TEST(LessonApp, LessonViewIsNeverTheUsers) {
    SandboxContext ctx;
    ctx.interactive = true;
    ctx.paths.lessonsDir = std::filesystem::path(ORCA_SOURCE_DIR) / "lessons";
    std::string error;
    ViewLayers user;
    ASSERT_TRUE(parseLayerList("all,-voCones,-halfPlanes", user, error)) << error;
    ctx.view.layers = user;
    ctx.windows.panels.metrics = true;
    ctx.windows.panels.events = false;
    const PanelVisibility userPanels = ctx.windows.panels;

    ASSERT_EQ(openLessonArgument(ctx, "03", 2, error), 0) << error;
    // Lesson 3 turns the obstacles and goal lines off and the VO cones on.
    EXPECT_FALSE(ctx.view.layers.world.obstacles);
    EXPECT_FALSE(ctx.view.layers.world.goalLines);
    EXPECT_TRUE(ctx.view.layers.overlay.voCones);
    EXPECT_EQ(layersToJson(ctx.settings.layers), layersToJson(user));
    ctx.view.layers.world.trails = false; // a toggle during the lesson is the lesson's too
    applyLessonPage(ctx, 0);
    EXPECT_EQ(layersToJson(ctx.settings.layers), layersToJson(user));

    closeLesson(ctx); // another scene opens, or Lessons > Close lesson
    EXPECT_EQ(layersToJson(ctx.view.layers), layersToJson(user));
    EXPECT_TRUE(ctx.windows.panels.metrics);
    EXPECT_FALSE(ctx.windows.panels.events);
    EXPECT_EQ(ctx.windows.panels.parameters, userPanels.parameters);
}

// Issue 26: a window a page opened closes on a page that does not name it (lesson 7 page 3
// opens the Inspector, lesson 8 page 4 the Parameters), so one page's windows do not pile up
// on the next's; one the user had open stays.
TEST(LessonApp, WindowsAPageOpenedCloseOnTheNextPage) {
    SandboxContext ctx;
    ctx.interactive = true;
    ctx.paths.lessonsDir = std::filesystem::path(ORCA_SOURCE_DIR) / "lessons";
    std::string error;
    ctx.windows.panels.parameters = false;
    ctx.windows.panels.inspector = false;
    ASSERT_EQ(openLessonArgument(ctx, "07", 3, error), 0) << error;
    EXPECT_TRUE(ctx.windows.panels.inspector);
    applyLessonPage(ctx, 3);
    EXPECT_FALSE(ctx.windows.panels.inspector);
    applyLessonPage(ctx, 2);
    EXPECT_TRUE(ctx.windows.panels.inspector);
    ASSERT_EQ(openLessonArgument(ctx, "08", 4, error), 0) << error; // the next lesson
    EXPECT_TRUE(ctx.windows.panels.parameters);
    EXPECT_FALSE(ctx.windows.panels.inspector);

    // The user's own window stays open.
    closeLesson(ctx);
    ctx.windows.panels.parameters = true;
    ASSERT_EQ(openLessonArgument(ctx, "08", 4, error), 0) << error;
    applyLessonPage(ctx, 0);
    EXPECT_TRUE(ctx.windows.panels.parameters);
}

// Issue 25, item 11: --lesson names that resolve to nothing and pages past the end are usage
// errors (exit 2, as --select 99), a lesson that does not load is bad input (1).
TEST(LessonApp, LessonArgumentExitCodes) {
    SandboxContext ctx;
    ctx.interactive = false;
    ctx.paths.lessonsDir = std::filesystem::path(ORCA_SOURCE_DIR) / "lessons";
    std::string error;
    EXPECT_EQ(openLessonArgument(ctx, "", 1, error), 2);
    EXPECT_NE(error.find("--lesson: no lesson \"\""), std::string::npos) << error;
    EXPECT_EQ(openLessonArgument(ctx, "99", 1, error), 2);
    EXPECT_NE(error.find("no lesson \"99\""), std::string::npos) << error;
    EXPECT_EQ(openLessonArgument(ctx, "03", 99, error), 2);
    EXPECT_NE(error.find("--lesson-page 99"), std::string::npos) << error;
    EXPECT_FALSE(ctx.lesson.lesson.has_value());
    EXPECT_EQ(
        openLessonArgument(ctx, std::string(ORCA_SOURCE_DIR) + "/scenes/crossing.json", 1, error),
        1); // a scene, not a lesson: the loader's message
    EXPECT_EQ(openLessonArgument(ctx, "03", 1, error), 0) << error;
}

TEST(LessonApp, PageTextSplitsIntoParagraphs) {
    EXPECT_EQ(ui::splitParagraphs("a\nb\n\n  \n- c\n- d\n\ne"),
              (std::vector<std::string>{"a\nb", "- c\n- d", "e"}));
    EXPECT_TRUE(ui::splitParagraphs("\n\n").empty());
}

} // namespace
} // namespace orca::app
