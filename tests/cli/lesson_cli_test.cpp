// `orca validate` on lesson files, as a real process: every bundled lesson passes, a broken one
// is reported like a scene (file, JSON path, message), and scenes and lessons mix.
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using orca::testing::Result;

class LessonCli : public orca::testing::CliFixture {};

std::vector<fs::path> bundledLessons() {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(fs::path(ORCA_SOURCE_DIR) / "lessons"))
        if (e.path().extension() == ".json") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    return files;
}

TEST_F(LessonCli, EveryBundledLessonValidates) {
    const std::vector<fs::path> files = bundledLessons();
    ASSERT_GE(files.size(), 10u);
    std::string args = "validate";
    for (const fs::path& f : files) {
        args += ' '; // (" " + string trips GCC 12's -Wrestrict false positive)
        args += f.string();
    }
    const Result r = orca(args);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(r.err.empty()) << r.err;
    for (const fs::path& f : files)
        EXPECT_NE(r.out.find(f.string() + ": ok: lesson with "), std::string::npos) << r.out;
}

TEST_F(LessonCli, ErrorsNameTheFileAndPathAndScenesStillValidate) {
    const fs::path bad = write("bad.json", R"({"format": "orca-lesson", "version": 1,
        "title": "T", "scene": {"agents": [{"position": [0, 0]}]},
        "pages": [{"title": "P", "text": "t", "select": [3]}]})");
    const Result r = orca("validate " + bad.string() + " " + scene("head_on.json"));
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, bad.string() +
                         ": error: at pages[0].select[0]: agent index 3 is out of range (the "
                         "scene has 1 agent)\n");
    EXPECT_NE(r.out.find("head_on.json: ok: 2 agents, 0 obstacles"), std::string::npos) << r.out;
}

TEST_F(LessonCli, InlineSceneErrorsAndLintUseTheScenePath) {
    const fs::path bad = write("bad.json", R"({"format": "orca-lesson", "version": 1,
        "title": "T", "scene": {"agents": [{"position": [0, 0], "radius": -1}]},
        "pages": [{"title": "P", "text": "t"}]})");
    Result r = orca("validate " + bad.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(": error: at scene.agents[0].radius: expected a number > 0"),
              std::string::npos)
        << r.err;

    const fs::path lesson = (fs::path(ORCA_SOURCE_DIR) / "lessons" / "08_symmetric_deadlock.json");
    r = orca("validate --lint " + lesson.string());
    EXPECT_NE(r.out.find("at scene.agents"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("[head-on-symmetric]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("; lint: "), std::string::npos) << r.out;
}

} // namespace
