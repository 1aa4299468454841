// `orca import` (app/cli/import_cmd.cpp, docs/import.md): the report, the written scene, and
// the exit codes (0 ok, 1 bad input, 2 usage).
#include <filesystem>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli_fixture.hpp"

namespace {

using orca::testing::CliFixture;
namespace fs = std::filesystem;

class ImportCli : public CliFixture {
  protected:
    static std::string fixture(const std::string& name) {
        return std::string(ORCA_SOURCE_DIR) + "/tests/scene/import/" + name;
    }
};

TEST_F(ImportCli, SteerSuiteWritesTheSceneAndPrintsTheReport) {
    const std::string out = (m_dir / "basic.json").string();
    const auto r = orca("import " + fixture("steersuite_basic.xml") + " -o " + out);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j.at("format"), "steersuite");
    EXPECT_EQ(j.at("seed"), 1);
    EXPECT_EQ(j.at("agents"), 7);
    EXPECT_EQ(j.at("obstacles"), 7);
    EXPECT_EQ(j.at("output"), out);
    ASSERT_TRUE(j.at("dropped").is_array());
    EXPECT_EQ(j.at("dropped").size(), 4u);
    for (const auto& d : j.at("dropped")) {
        EXPECT_TRUE(d.at("what").is_string());
        EXPECT_FALSE(d.at("why").get<std::string>().empty());
    }
    EXPECT_TRUE(j.at("notes").is_array());
    // What was written is a valid scene that simulates.
    const auto v = orca("validate " + out);
    EXPECT_EQ(v.code, 0) << v.out << v.err;
    const auto run = orca("run " + out + " --steps 20");
    EXPECT_EQ(run.code, 0) << run.err;
}

TEST_F(ImportCli, MengeProjectAloneAndScenePlusBehaviour) {
    const auto project =
        orca("import " + fixture("menge_project.xml") + " -o " + (m_dir / "p.json").string());
    ASSERT_EQ(project.code, 0) << project.err;
    const auto files = orca("import " + fixture("menge_behaviour.xml") + " " +
                            fixture("menge_scene.xml") + " -o " + (m_dir / "f.json").string());
    ASSERT_EQ(files.code, 0) << files.err;
    EXPECT_EQ(nlohmann::json::parse(project.out).at("agents"), 7);
    EXPECT_EQ(nlohmann::json::parse(files.out).at("format"), "menge");
    // The same scene but for its name and description.
    auto agents = [](const std::string& path) {
        return nlohmann::json::parse(orca::test::readFile(path)).at("agents");
    };
    EXPECT_EQ(agents(m_dir / "p.json"), agents(m_dir / "f.json"));
}

TEST_F(ImportCli, WithoutOutputOnlyTheReport) {
    const auto r = orca("import " + fixture("steersuite_basic.xml"));
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(nlohmann::json::parse(r.out).at("output").is_null());
}

TEST_F(ImportCli, SeedChangesRandomPlacementOnly) {
    const std::string a = (m_dir / "a.json").string();
    const std::string b = (m_dir / "b.json").string();
    const std::string c = (m_dir / "c.json").string();
    ASSERT_EQ(orca("import " + fixture("steersuite_basic.xml") + " --seed 9 -o " + a).code, 0);
    ASSERT_EQ(orca("import " + fixture("steersuite_basic.xml") + " --seed 9 -o " + b).code, 0);
    ASSERT_EQ(orca("import " + fixture("steersuite_basic.xml") + " --seed 10 -o " + c).code, 0);
    EXPECT_EQ(orca::test::readFile(a), orca::test::readFile(b));
    EXPECT_NE(orca::test::readFile(a), orca::test::readFile(c));
}

TEST_F(ImportCli, BadInputIsExit1WithFileLineColumn) {
    const auto bad = write("bad.xml", "<SteerBenchTestCase>\n  <agent>\n</SteerBenchTestCase>\n");
    const auto r = orca("import " + bad.string() + " -o " + (m_dir / "o.json").string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(bad.string() + ":3:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("malformed XML"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(m_dir / "o.json"));

    const auto value =
        write("value.xml", "<Experiment>\n  <Common time_step=\"abc\"/>\n</Experiment>\n");
    const auto v = orca("import " + value.string());
    EXPECT_EQ(v.code, 1);
    EXPECT_NE(v.err.find(":2:3: error: at Experiment/Common@time_step: expected a number, got "
                         "\"abc\""),
              std::string::npos)
        << v.err;

    const auto missing = orca("import " + (m_dir / "nope.xml").string());
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("cannot open"), std::string::npos) << missing.err;

    const auto json = orca("import " + scene("welcome.json"));
    EXPECT_EQ(json.code, 1);
    EXPECT_NE(json.err.find("malformed XML"), std::string::npos) << json.err;
}

TEST_F(ImportCli, UsageErrorsAreExit2) {
    EXPECT_EQ(orca("import").code, 2);
    const auto two =
        orca("import " + fixture("steersuite_basic.xml") + " " + fixture("steersuite_basic.xml"));
    EXPECT_EQ(two.code, 2);
    EXPECT_NE(two.err.find("orca import: "), std::string::npos) << two.err;
    EXPECT_EQ(orca("import " + fixture("menge_behaviour.xml")).code, 2);
    EXPECT_EQ(orca("import " + fixture("steersuite_basic.xml") + " --seed x").code, 2);
}

TEST_F(ImportCli, OutputIsWrittenAtomically) {
    // A failed write leaves the old file as it was: the target is a directory here.
    fs::create_directories(m_dir / "dir.json");
    const auto r =
        orca("import " + fixture("steersuite_basic.xml") + " -o " + (m_dir / "dir.json").string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("cannot save"), std::string::npos) << r.err;
    // An existing scene is replaced whole, with no temporary file left beside it.
    const auto old = write("old.json", "old");
    ASSERT_EQ(orca("import " + fixture("steersuite_basic.xml") + " -o " + old.string()).code, 0);
    EXPECT_NE(orca::test::readFile(old).find("\"orca-scene\""), std::string::npos);
    for (const auto& e : fs::directory_iterator(m_dir))
        EXPECT_EQ(e.path().filename().string().find(".tmp-"), std::string::npos);
}

} // namespace
