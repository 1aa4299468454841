// `orca diagnose`, driven as a real process: the JSON it prints, that its binding lines are the
// explain record's lines, the thread count, and its errors.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;

using orca::testing::Result;

class DiagnoseCli : public orca::testing::CliFixture {
  protected:
    Json diagnose(const std::string& args) {
        const Result r = orca("diagnose " + args);
        EXPECT_EQ(r.code, 0) << r.err;
        EXPECT_TRUE(r.err.empty()) << r.err;
        return Json::parse(r.out);
    }
};

std::vector<std::string> keys(const Json& j) {
    std::vector<std::string> out;
    for (auto it = j.begin(); it != j.end(); ++it)
        out.push_back(it.key());
    return out;
}

TEST_F(DiagnoseCli, PrintsTheClassSentenceSuggestionAndBindingLines) {
    const Json j = diagnose(scene("diag_static_wall.json") + " --agent 0 --step 80");
    EXPECT_EQ(keys(j), (std::vector<std::string>{
                           "agent", "step", "class", "sentence", "suggestion", "binding",
                           "speedLimitBinding", "responsibleAgents", "responsibleObstacles",
                           "suggestedValue", "suggestedAgent", "suggestedGoal", "waypoints",
                           "suggestedParameter", "fixes", "measures"}));
    EXPECT_EQ(j["agent"], 0);
    EXPECT_EQ(j["step"], 80);
    EXPECT_EQ(j["class"], "static-wall");
    EXPECT_NE(j["sentence"].get<std::string>().find("static agents 5 and 6"), std::string::npos);
    EXPECT_NE(j["suggestion"].get<std::string>().find("detour"), std::string::npos);
    EXPECT_EQ(j["responsibleAgents"], Json::array({5, 6}));
    ASSERT_EQ(j["binding"].size(), 2u);
    for (const Json& b : j["binding"]) {
        EXPECT_EQ(keys(b),
                  (std::vector<std::string>{"line", "source", "agent", "static", "case", "slack",
                                            "point", "direction", "distance", "timeToCollision"}));
        EXPECT_EQ(b["source"], "agent");
        EXPECT_TRUE(b["static"].get<bool>());
        EXPECT_NEAR(b["slack"].get<double>(), 0.0, 1e-6);
    }
    for (const char* key : {"prefSpeed", "speed", "progress", "lp3Fraction", "neighborCount",
                            "maxNeighbors", "agentsInRange", "goalDistance", "newVelocity"})
        EXPECT_TRUE(j["measures"].contains(key)) << key;
    EXPECT_LT(j["measures"]["progress"].get<double>(), 0.5);
}

TEST_F(DiagnoseCli, BindingLinesAreTheExplainRecordsLines) {
    // Same scene, same step: each binding entry names a line of `orca explain` with the same
    // case, neighbour, point and direction.
    const Json d = diagnose(scene("diag_static_wall.json") + " --agent 0 --step 80");
    const Result e = orca("explain " + scene("diag_static_wall.json") + " --agent 0 --steps 80");
    ASSERT_EQ(e.code, 0) << e.err;
    const Json x = Json::parse(e.out);
    for (const Json& b : d["binding"]) {
        const Json& line = x["lines"][b["line"].get<std::size_t>()];
        EXPECT_EQ(b["case"], line["case"]);
        EXPECT_EQ(b["agent"], line["neighbor"]);
        EXPECT_EQ(b["point"], line["point"]);
        EXPECT_EQ(b["direction"], line["direction"]);
        EXPECT_DOUBLE_EQ(b["slack"].get<double>(), -line["violation"].get<double>());
    }
    EXPECT_EQ(d["measures"]["newVelocity"], x["newVelocity"]);
}

TEST_F(DiagnoseCli, ObstacleLinesNameObstacleAndSegmentAndWaypointsAreListed) {
    const Json j = diagnose(scene("diag_obstacle_trap.json") + " --agent 0 --step 160");
    EXPECT_EQ(j["class"], "obstacle-trap");
    EXPECT_EQ(j["responsibleObstacles"], Json::array({0}));
    ASSERT_FALSE(j["binding"].empty());
    const Json& b = j["binding"][0];
    EXPECT_EQ(keys(b),
              (std::vector<std::string>{"line", "source", "obstacle", "segment", "case", "slack",
                                        "point", "direction", "distance", "timeToCollision"}));
    EXPECT_EQ(b["source"], "obstacle");
    EXPECT_EQ(b["obstacle"], 0);
    EXPECT_EQ(b["case"].get<std::string>().rfind("obstacle-", 0), 0u);
    ASSERT_FALSE(j["waypoints"].empty());
    EXPECT_EQ(j["waypoints"][0].size(), 2u);
    EXPECT_NE(j["suggestion"].get<std::string>().find("waypoint"), std::string::npos);
}

TEST_F(DiagnoseCli, EveryDiagnosisSceneGivesItsClass) {
    const std::pair<const char*, const char*> cases[] = {
        {"diag_none.json --agent 0 --step 20", "none"},
        {"diag_symmetric_deadlock.json --agent 0 --step 80", "symmetric-deadlock"},
        {"diag_static_wall.json --agent 0 --step 80", "static-wall"},
        {"diag_obstacle_trap.json --agent 0 --step 160", "obstacle-trap"},
        {"diag_crowd_pressure.json --agent 0 --step 60", "crowd-pressure"},
        {"diag_neighbor_truncation.json --agent 0 --step 32", "neighbor-truncation"},
        {"diag_short_horizon.json --agent 0 --step 32", "short-horizon"},
        {"diag_goal_circling.json --agent 0 --step 6", "goal-circling"},
    };
    for (const auto& [args, cls] : cases) {
        SCOPED_TRACE(args);
        const Json j = diagnose(scene(args));
        EXPECT_EQ(j["class"], cls);
    }
    // Step 0 (the default) of the deadlock scene: nothing is wrong yet.
    EXPECT_EQ(diagnose(scene("diag_symmetric_deadlock.json") + " --agent 1")["class"], "none");
}

TEST_F(DiagnoseCli, ResultDoesNotDependOnTheThreadCount) {
    const Result one =
        orca("diagnose " + scene("diag_crowd_pressure.json") + " --agent 3 --step 60 --threads 1");
    const Result two =
        orca("diagnose " + scene("diag_crowd_pressure.json") + " --agent 3 --step 60 --threads 2");
    ASSERT_EQ(one.code, 0) << one.err;
    EXPECT_EQ(one.out, two.out);
}

TEST_F(DiagnoseCli, ErrorsLikeExplain) {
    // A file that cannot be read: exit 1 with the loader's message.
    const std::string missing = (m_dir / "missing.json").string();
    Result r = orca("diagnose " + missing + " --agent 0");
    EXPECT_EQ(r.code, 1);
    EXPECT_TRUE(r.out.empty());
    EXPECT_NE(r.err.find(missing + ": error: cannot open the file"), std::string::npos) << r.err;
    // A file with an error: the loader's message with the JSON path.
    const fs::path bad = m_dir / "bad.json";
    std::ofstream(bad)
        << R"({"format":"orca-scene","version":1,"agents":[{"position":[0,0],"radius":-1}]})";
    r = orca("diagnose " + bad.string() + " --agent 0");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("agents[0].radius"), std::string::npos) << r.err;
    // An agent out of range: exit 1 naming the range.
    r = orca("diagnose " + scene("diag_static_wall.json") + " --agent 10");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--agent 10 is out of range: the scene has 10 agents (indices 0..9)"),
              std::string::npos)
        << r.err;
    // Usage errors: exit 2 (a negative index is one, naming the option).
    r = orca("diagnose " + scene("diag_static_wall.json") + " --agent -1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("--agent: -1 is negative"), std::string::npos) << r.err;
    EXPECT_EQ(orca("diagnose " + scene("diag_static_wall.json") + " --agent 0 --fix -1").code, 2);
    EXPECT_EQ(orca("diagnose " + scene("diag_static_wall.json") + " --agent 0 --verify -1").code,
              2);
    EXPECT_EQ(orca("diagnose " + scene("diag_static_wall.json")).code, 2); // --agent required
    EXPECT_EQ(orca("diagnose " + scene("diag_static_wall.json") + " --agent 0 --step -1").code, 2);
    const Result help = orca("diagnose --help");
    EXPECT_EQ(help.code, 0);
    for (const char* opt : {"--agent", "--step", "--threads", "docs/diagnosis.md"})
        EXPECT_NE(help.out.find(opt), std::string::npos) << opt;
}

} // namespace
