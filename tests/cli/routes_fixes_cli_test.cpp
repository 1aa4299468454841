// `orca diagnose --verify/--fix/--fix-out` (a fix proven by running it, then written as a scene)
// and `orca routes` (the routes and the roadmap), driven as real processes.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;

class RoutesFixesCli : public orca::testing::CliFixture {};

TEST_F(RoutesFixesCli, DoorwayJamFixIsVerifiedAndWrittenOut) {
    const std::string fixed = (m_dir / "fixed.json").string();
    const Result r = orca("diagnose " + scene("diag_bottleneck_jam.json") +
                          " --agent 0 --step 1500 --verify 3000 --fix-out " + fixed);
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["class"], "bottleneck-jam");
    ASSERT_GE(j["fixes"].size(), 2u);
    EXPECT_EQ(j["fixes"][0]["edits"][0]["kind"], "obstacle");
    EXPECT_EQ(j["chosenFix"], 0);
    EXPECT_EQ(j["verification"]["steps"], 3000);
    EXPECT_EQ(j["verification"]["before"]["agentsAtGoal"], 0);
    EXPECT_EQ(j["verification"]["after"]["agentsAtGoal"], 16);
    EXPECT_EQ(j["verification"]["improved"], true);
    EXPECT_EQ(j["fixOut"], fixed);
    // The written scene is the fix from step 0: run, everyone arrives.
    const Result run = orca("run " + fixed + " --steps 3000");
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(Json::parse(run.out)["agentsAtGoal"], 16);
}

TEST_F(RoutesFixesCli, ChosenFixAndFixErrors) {
    // --fix 1: deadlock breaking, verified on its own.
    Result r = orca("diagnose " + scene("diag_bottleneck_jam.json") +
                    " --agent 0 --step 1500 --verify 2000 --fix 1");
    ASSERT_EQ(r.code, 0) << r.err;
    Json j = Json::parse(r.out);
    EXPECT_EQ(j["chosenFix"], 1);
    ASSERT_EQ(j["tried"].size(), 1u);
    EXPECT_EQ(j["tried"][0]["label"], "Turn on deadlock breaking");
    // Out of range.
    r = orca("diagnose " + scene("diag_bottleneck_jam.json") + " --agent 0 --step 100 --fix 9");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--fix 9 is out of range"), std::string::npos) << r.err;
    // Nothing to fix: no file is written.
    r = orca("diagnose " + scene("diag_none.json") + " --agent 0 --step 20 --fix-out " +
             (m_dir / "none.json").string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("has no fix to apply"), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(m_dir / "none.json"));
}

TEST_F(RoutesFixesCli, RoutesPrintsWaypointsSteerPointsAndTheRoadmap) {
    // The U-pocket with roadmap routing: the route bends round the cup.
    std::string text = orca::test::readFile(scene("diag_obstacle_trap.json"));
    const std::string key = "\"timeStep\": 0.1";
    ASSERT_NE(text.find(key), std::string::npos);
    text.replace(text.find(key), key.size(), key + ", \"routing\": \"roadmap\"");
    const std::string file = write("cup.json", text).string();
    const Result r = orca("routes " + file);
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["routing"], "roadmap");
    EXPECT_GT(j["roadmap"]["nodes"].get<int>(), 4);
    EXPECT_GT(j["roadmap"]["edges"].get<int>(), 4);
    ASSERT_EQ(j["agents"].size(), 1u);
    const Json& a = j["agents"][0];
    EXPECT_EQ(a["reachable"], true);
    EXPECT_GT(a["path"].size(), 2u);            // corners in between
    EXPECT_GT(a["length"].get<double>(), 18.0); // longer than the straight 18
    EXPECT_NE(a["steer"], a["target"]);         // heading for a corner, not the goal
    // Straight routing: the planned route is the straight line.
    const Result s = orca("routes " + scene("diag_obstacle_trap.json"));
    ASSERT_EQ(s.code, 0) << s.err;
    const Json js = Json::parse(s.out);
    EXPECT_EQ(js["roadmap"], nullptr);
    EXPECT_EQ(js["agents"][0]["path"].size(), 2u);
    EXPECT_DOUBLE_EQ(js["agents"][0]["length"].get<double>(), 18.0);
    // A bad agent index.
    EXPECT_EQ(orca("routes " + file + " --agent 5").code, 1);
}

} // namespace
