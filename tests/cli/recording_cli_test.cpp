// `orca run --recording FILE` and `orca recording FILE [--csv OUT]`: a run's recording holds
// every state exactly (its CSV equals `orca run --trajectory`'s rows), with the preferred
// velocities each step was given; a file that is not a recording is refused with its name.
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;

std::vector<std::string> lines(const std::filesystem::path& path) {
    std::ifstream in(path);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);)
        out.push_back(line);
    return out;
}

class RecordingCli : public orca::testing::CliFixture {};

TEST_F(RecordingCli, ARunsRecordingHoldsEveryStateExactly) {
    const std::string scene = std::string(ORCA_SOURCE_DIR) + "/scenes/circle.json";
    const std::string rec = (m_dir / "run.orcarec").string();
    const std::string traj = (m_dir / "run.csv").string();
    const std::string csv = (m_dir / "rec.csv").string();
    const Result r = orca("run " + scene + " --steps 25 --no-metrics --recording " + rec +
                          " --trajectory " + traj);
    ASSERT_EQ(r.code, 0) << r.err;

    const Result info = orca("recording " + rec + " --csv " + csv);
    ASSERT_EQ(info.code, 0) << info.err;
    const Json j = Json::parse(info.out);
    EXPECT_EQ(j.at("encoding"), "float64");
    EXPECT_EQ(j.at("scenes"), 1);
    EXPECT_EQ(j.at("frames"), 26);
    EXPECT_EQ(j.at("firstStep"), 0);
    EXPECT_EQ(j.at("lastStep"), 25);
    EXPECT_EQ(j.at("truncated"), false);
    const std::size_t agents = j.at("agents").get<std::size_t>();
    ASSERT_GT(agents, 0u);

    // The recording's rows are the trajectory's, plus the preferred velocity of each step.
    const std::vector<std::string> a = lines(traj);
    const std::vector<std::string> b = lines(csv);
    ASSERT_EQ(a.size(), 1 + 26 * agents);
    ASSERT_EQ(b.size(), a.size());
    EXPECT_EQ(b[0], "step,agent,x,y,vx,vy,pvx,pvy");
    for (std::size_t k = 1; k < a.size(); ++k) {
        ASSERT_EQ(b[k].rfind(a[k] + ",", 0), 0u) << "row " << k << ": " << b[k];
    }
    // The circle's agents head for their goals at prefSpeed: no preferred velocity is zero
    // before they arrive.
    EXPECT_EQ(b[1].find(",0,0", b[1].size() - 4), std::string::npos) << b[1];
}

TEST_F(RecordingCli, WhatIsNotARecordingIsRefusedWithItsName) {
    const std::string scene = std::string(ORCA_SOURCE_DIR) + "/scenes/head_on.json";
    const Result r = orca("recording " + scene);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(scene + ": error: at byte 0: not an ORCA Sandbox recording"),
              std::string::npos)
        << r.err;
    const Result missing = orca("recording " + (m_dir / "none.orcarec").string());
    EXPECT_EQ(missing.code, 1);
    EXPECT_NE(missing.err.find("none.orcarec"), std::string::npos) << missing.err;
    // A recording that cannot be written: the run says so, nothing is left behind.
    const Result bad = orca("run " + scene + " --steps 2 --recording " +
                            (m_dir / "no/such/dir/x.orcarec").string());
    EXPECT_EQ(bad.code, 1);
    EXPECT_NE(bad.err.find("x.orcarec"), std::string::npos) << bad.err;
}

} // namespace
