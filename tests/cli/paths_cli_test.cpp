// Paths are bytes (issue 25, item 3): a file whose name is not UTF-8 ("a\xFF\xFE.json", as a
// Linux file name may be) is read, written and named by every command — in messages and in
// the JSON reports in its display form (path_text.hpp: `a\xFF\xFE.json`) — where `orca run`
// aborted with nlohmann's type_error.316.
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "orca/scene/path_text.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using orca::testing::Result;

class PathsCli : public orca::testing::CliFixture {
  protected:
    void SetUp() override {
        CliFixture::SetUp();
        m_scene = m_dir / "a\xFF\xFE.json";
        fs::copy_file(scene("diag_none.json"), m_scene);
    }
    /// `p` in single quotes for the shell (the bytes go through as they are).
    static std::string quoted(const fs::path& p) { return "'" + p.string() + "'"; }
    /// The display form of the test folder's `name`.
    std::string shown(const std::string& name) const {
        return orca::scene::displayPath((m_dir / name).string());
    }
    /// Expects the command's output to be valid UTF-8 and its stdout, when not empty, JSON.
    static Json parsed(const Result& r) {
        EXPECT_TRUE(orca::scene::isValidUtf8(r.out)) << r.out;
        EXPECT_TRUE(orca::scene::isValidUtf8(r.err)) << r.err;
        return r.out.empty() ? Json() : Json::parse(r.out);
    }
    fs::path m_scene;
};

TEST_F(PathsCli, ReportsNameTheFileInItsDisplayForm) {
    const std::string shownScene = shown("a\xFF\xFE.json");
    EXPECT_NE(shownScene.find("a\\xFF\\xFE.json"), std::string::npos);

    Result r = orca("run " + quoted(m_scene) + " --steps 3");
    ASSERT_EQ(r.code, 0) << r.err; // 134 before: type_error.316
    EXPECT_EQ(parsed(r)["file"], shownScene);

    r = orca("compare " + quoted(m_scene) + " --set tau=2 --steps 3");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(parsed(r)["file"], shownScene);

    for (const std::string& command :
         {"events " + quoted(m_scene) + " --steps 3",
          "explain " + quoted(m_scene) + " --agent 0 --steps 1",
          "diagnose " + quoted(m_scene) + " --agent 0 --step 3", "routes " + quoted(m_scene)}) {
        SCOPED_TRACE(command);
        r = orca(command);
        EXPECT_EQ(r.code, 0) << r.err;
        parsed(r);
    }

    r = orca("validate " + quoted(m_scene));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out, shownScene + ": ok: 3 agents, 0 obstacles\n");
}

TEST_F(PathsCli, OutputsWithSuchNamesAreWrittenAndNamed) {
    const fs::path fixed = m_dir / "fixed\xFF.json";
    Result r = orca("diagnose " + scene("diag_static_wall.json") + " --agent 0 --step 40 " +
                    "--fix-out " + quoted(fixed));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(parsed(r)["fixOut"], shown("fixed\xFF.json"));
    EXPECT_TRUE(fs::exists(fixed));

    const fs::path rec = m_dir / "run\xFE.orcarec";
    const fs::path csv = m_dir / "t\xFF.csv";
    r = orca("run " + quoted(m_scene) + " --steps 3 --recording " + quoted(rec) + " --trajectory " +
             quoted(csv) + " --save-state " + quoted(m_dir / "s\xFF.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(csv));
    EXPECT_TRUE(fs::exists(m_dir / "s\xFF.json"));
    r = orca("recording " + quoted(rec) + " --csv " + quoted(m_dir / "frames\xFF.csv"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(parsed(r)["file"], shown("run\xFE.orcarec"));
    r = orca("conform " + quoted(rec));
    EXPECT_EQ(r.code, 0) << r.err;
    parsed(r);
    r = orca("conform " + quoted(m_scene) + " " + quoted(csv));
    EXPECT_EQ(r.code, 0) << r.err;
    parsed(r);

    const fs::path xml = m_dir / "case\xFF.xml";
    fs::copy_file(std::string(ORCA_SOURCE_DIR) + "/tests/scene/import/steersuite_basic.xml", xml);
    r = orca("import " + quoted(xml) + " -o " + quoted(m_dir / "imported\xFF.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    const Json report = parsed(r);
    EXPECT_EQ(report["files"][0], shown("case\xFF.xml"));
    EXPECT_EQ(report["output"], shown("imported\xFF.json"));
}

TEST_F(PathsCli, ErrorsNameTheFileInItsDisplayForm) {
    const fs::path broken = m_dir / "broken\xFF\n.json";
    write("broken\xFF\n.json", "{");
    Result r = orca("run " + quoted(broken));
    EXPECT_EQ(r.code, 1);
    parsed(r);
    // The invalid byte and the newline as \xNN: one line that says which file.
    EXPECT_EQ(r.err.rfind(shown("broken\xFF\n.json") + ":1:2: error: ", 0), 0u) << r.err;
    EXPECT_NE(r.err.find("broken\\xFF\\x0A.json"), std::string::npos) << r.err;

    r = orca("explain " + quoted(m_scene) + " --agent 7");
    EXPECT_EQ(r.code, 1);
    parsed(r);
    EXPECT_EQ(r.err, shown("a\xFF\xFE.json") +
                         ": error: --agent 7 is out of range: the scene has 3 agents (indices "
                         "0..2)\n");

    // A trajectory that cannot be written names it too.
    r = orca("run " + quoted(m_scene) + " --steps 1 --trajectory " +
             quoted(m_dir / "no\xFF" / "t.csv"));
    EXPECT_EQ(r.code, 1);
    parsed(r);
    EXPECT_NE(r.err.find("no\\xFF"), std::string::npos) << r.err;
}

} // namespace
