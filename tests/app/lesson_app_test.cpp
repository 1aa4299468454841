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
#include "shell/panel_table.hpp"

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

TEST(LessonApp, PageTextSplitsIntoParagraphs) {
    EXPECT_EQ(ui::splitParagraphs("a\nb\n\n  \n- c\n- d\n\ne"),
              (std::vector<std::string>{"a\nb", "- c\n- d", "e"}));
    EXPECT_TRUE(ui::splitParagraphs("\n\n").empty());
}

} // namespace
} // namespace orca::app
