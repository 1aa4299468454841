// One linter: a scene file opened in the app is the file as written, so the app's Linter lists
// exactly what `orca validate --lint` lists for it (a clockwise obstacle is a finding with its
// fix, not a silent repair), the file still opens and runs, and the fix brings the obstacle
// into the simulation.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

// One clockwise square (as a hand-written file might have it) beside two agents.
constexpr const char* kClockwiseScene = R"({
  "format": "orca-scene",
  "version": 1,
  "name": "clockwise",
  "agentDefaults": {"radius": 0.5, "neighborDist": 20},
  "agents": [
    {"position": [-6, 0], "goal": [6, 0.5]},
    {"position": [0, 5], "goal": [0, -5]}
  ],
  "obstacles": [
    {"vertices": [[-1, -1], [-1, 1], [1, 1], [1, -1]]}
  ]
})";

fs::path writeScene(const std::string& name, const char* text) {
    const fs::path d = fs::temp_directory_path() / "orca-linter-app-test";
    fs::create_directories(d);
    const fs::path file = d / name;
    std::ofstream(file) << text;
    return file;
}

// What `orca validate --lint` lints: the file loaded without the winding repair.
std::vector<scene::LintIssue> cliIssues(const fs::path& file) {
    scene::LoadOptions options;
    options.repairWinding = false;
    return scene::lintScene(scene::loadScene(file, options).scene);
}

TEST(OneLinter, ClockwiseObstacleOfAFileIsAFindingNotASilentRepair) {
    const fs::path file = writeScene("clockwise.json", kClockwiseScene);
    SandboxContext ctx;
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;

    // The file as written: the obstacle keeps its clockwise vertices and is left out of the
    // simulation (the view outlines it), the scene still runs.
    const std::vector<Vec2> written{{-1, -1}, {-1, 1}, {1, 1}, {1, -1}};
    ASSERT_EQ(ctx.doc.scene.obstacles.size(), 1u);
    EXPECT_EQ(ctx.doc.scene.obstacles[0].vertices, written);
    EXPECT_EQ(ctx.editor.skippedObstacles, std::vector<std::size_t>{0});
    EXPECT_EQ(ctx.session.sim.agentCount(), 2u);
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());

    // The Linter's findings are the CLI's, one for one.
    refreshLint(ctx);
    const std::vector<scene::LintIssue> want = cliIssues(file);
    const std::vector<scene::LintIssue>& got = ctx.editor.lint.issues;
    ASSERT_EQ(got.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) {
        EXPECT_EQ(got[i].rule, want[i].rule);
        EXPECT_EQ(got[i].jsonPath, want[i].jsonPath);
        EXPECT_EQ(got[i].message, want[i].message);
        EXPECT_EQ(got[i].fixLabel, want[i].fixLabel);
    }
    const auto it = std::find_if(got.begin(), got.end(), [](const scene::LintIssue& i) {
        return i.rule == "obstacle-clockwise";
    });
    ASSERT_NE(it, got.end());
    EXPECT_EQ(it->fixLabel, "Reverse winding");
    EXPECT_EQ(ctx.editor.lint.errors, 1u);

    // Its one-click fix reverses the obstacle, which then joins the simulation.
    ASSERT_TRUE(fixLintIssue(ctx, static_cast<std::size_t>(it - got.begin())));
    refreshLint(ctx);
    for (const scene::LintIssue& i : ctx.editor.lint.issues)
        EXPECT_NE(i.rule, "obstacle-clockwise");
    EXPECT_TRUE(ctx.editor.skippedObstacles.empty());
    EXPECT_GT(ctx.session.sim.obstacleCount(), 0u);
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
}

TEST(OneLinter, CounterClockwiseFilesAreUnchangedAndAgreeWithTheCli) {
    const fs::path file = fs::path(ORCA_SOURCE_DIR) / "scenes" / "concave_obstacle.json";
    SandboxContext ctx;
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;
    EXPECT_TRUE(ctx.editor.skippedObstacles.empty());
    EXPECT_EQ(ctx.session.sim.obstacleCount() > 0, !ctx.doc.scene.obstacles.empty());
    refreshLint(ctx);
    EXPECT_EQ(ctx.editor.lint.issues.size(), cliIssues(file).size());
}

} // namespace
