// The velocity panel's caption names the agent whose velocity space it shows: lesson 7's page 4
// selects T (#1), and the caption said "velocity of A" (the panel's generic letter, which is
// also the name of the lesson's other agent).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "orca/ui/velocity_panel.hpp"

#include "lessons/lessons.hpp"
#include "sandbox.hpp"

namespace orca::app {
namespace {

TEST(VelocityCaption, NamesTheSelectedAgent) {
    const std::vector<std::string> names = {"A", "T", ""};
    EXPECT_EQ(ui::captionAgentLabel(1, names), "T (#1)");
    EXPECT_EQ(ui::captionAgentLabel(0, names), "A (#0)");
    EXPECT_EQ(ui::captionAgentLabel(2, names), "#2");          // no id in the file
    EXPECT_EQ(ui::captionAgentLabel(7, names), "#7");          // names may be shorter
    EXPECT_EQ(ui::captionAgentLabel(std::nullopt, names), ""); // removed

    EXPECT_EQ(ui::velocitySpaceCaption(false, false, "T (#1)"), "absolute velocity of T (#1)");
    EXPECT_EQ(ui::velocitySpaceCaption(true, true, "T (#1)"),
              "velocity of T (#1) (obstacles are static: relative = absolute)");
    EXPECT_EQ(ui::velocitySpaceCaption(true, false, "T (#1)"),
              "relative velocity v_A - v_B, A = T (#1)");
    // Without a name for the agent the panel keeps its generic letter.
    EXPECT_EQ(ui::velocitySpaceCaption(false, false, ""), "absolute velocity of A");
}

TEST(VelocityCaption, LessonSevenPageFourIsAboutT) {
    SandboxContext ctx;
    ctx.paths.lessonsDir = std::filesystem::path(ORCA_SOURCE_DIR) / "lessons";
    std::string error;
    ASSERT_EQ(openLessonArgument(ctx, "07", 4, error), 0) << error;
    const auto primary = ctx.explain.selection.primaryIndex(ctx.session.sim);
    ASSERT_TRUE(primary.has_value());
    EXPECT_EQ(*primary, 1u);
    EXPECT_EQ(ui::captionAgentLabel(primary, ctx.doc.agentNames), "T (#1)");
}

} // namespace
} // namespace orca::app
