// Bundled scenes and lessons are templates: Save (Ctrl+S, and Save in the unsaved-work prompt)
// never rewrites a file in the bundled folders; it asks for a new path in the user's folder.
// Save as to any path, and Save on the user's own files, write as before.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

#include "orca/scene/scene.hpp"

#include "paths.hpp"
#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

std::string bytes(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

struct Folders {
    fs::path root;
    fs::path scenes;
    Folders() {
        root = fs::temp_directory_path() / ("orca-bundled-test-" + std::to_string(::getpid()));
        fs::remove_all(root);
        scenes = root / "scenes";
        fs::create_directories(scenes);
        fs::create_directories(root / "scenes_mine");
        fs::create_directories(root / "lessons");
    }
    ~Folders() {
        std::error_code ec;
        fs::remove_all(root, ec);
    }
};

} // namespace

TEST(BundledScenes, AreRecognisedThroughLinksAndDotsNotByNamePrefix) {
    Folders f;
    AppPaths paths;
    paths.scenesDir = f.scenes;
    paths.lessonsDir = f.root / "lessons";
    EXPECT_TRUE(isBundledFile(paths, f.scenes / "head_on.json"));
    EXPECT_TRUE(isBundledFile(paths, f.root / "scenes_mine" / ".." / "scenes" / "x.json"));
    EXPECT_TRUE(isBundledFile(paths, f.root / "lessons" / "01.json"));
    EXPECT_FALSE(isBundledFile(paths, f.root / "scenes_mine" / "x.json")); // a prefix only
    EXPECT_FALSE(isBundledFile(paths, f.root / "x.json"));
    EXPECT_FALSE(isBundledFile(paths, {}));
    fs::create_directory_symlink(f.scenes, f.root / "link");
    EXPECT_TRUE(isBundledFile(paths, f.root / "link" / "x.json"));
    EXPECT_FALSE(isBundledFile(AppPaths{}, f.scenes / "x.json")); // no bundled folders found
}

TEST(BundledScenes, SaveAsksForANewPathInsteadOfRewritingTheTemplate) {
    Folders f;
    const fs::path bundled = f.scenes / "head_on.json";
    fs::copy_file(fs::path(ORCA_SOURCE_DIR) / "scenes" / "head_on.json", bundled);
    const std::string before = bytes(bundled);

    SandboxContext ctx;
    ctx.interactive = true;
    ctx.paths.scenesDir = f.scenes;
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, bundled, error)) << error;
    scene::Scene edited = ctx.doc.scene;
    edited.agents[0].position = {-9.0, 0.0};
    ASSERT_TRUE(commitScene(ctx, edited, "Move"));
    applyAction(ctx, Action::Save);
    EXPECT_EQ(bytes(bundled), before); // the template is untouched
    EXPECT_EQ(ctx.windows.dialog, Dialog::SaveAs);
    const fs::path proposed = ctx.windows.dialogPath;
    EXPECT_EQ(proposed.filename(), "head_on.json");
    EXPECT_FALSE(isBundledFile(ctx.paths, proposed)) << proposed;
    EXPECT_NE(ctx.windows.note.find("is a bundled scene"), std::string::npos) << ctx.windows.note;

    // The same file outside the bundled folders is the user's: Save writes it.
    ctx.windows.dialog = Dialog::None;
    const fs::path mine = f.root / "scenes_mine" / "head_on.json";
    ASSERT_TRUE(saveSceneAs(ctx, mine)); // (Save as may write anywhere)
    edited.agents[0].position = {-8.0, 0.0};
    ASSERT_TRUE(commitScene(ctx, edited, "Move"));
    applyAction(ctx, Action::Save);
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    EXPECT_EQ(scene::loadScene(mine).scene.agents[0].position, Vec2(-8.0, 0.0));
}
