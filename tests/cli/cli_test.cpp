// The `orca` command line, driven as a real process: options, exit codes, outputs.
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
using Json = nlohmann::json;

using orca::testing::readFile;
using orca::testing::Result;
using Cli = orca::testing::CliFixture;

TEST_F(Cli, HelpListsCommandsAndOptions) {
    Result r = orca("--help");
    EXPECT_EQ(r.code, 0);
    for (const char* word : {"run", "explain", "validate", "Exit codes"})
        EXPECT_NE(r.out.find(word), std::string::npos) << word;
    r = orca("run --help");
    EXPECT_EQ(r.code, 0);
    for (const char* opt :
         {"--steps", "--until-goals", "--max-steps", "--threads", "--save-state", "--trajectory"})
        EXPECT_NE(r.out.find(opt), std::string::npos) << opt;
    EXPECT_EQ(orca("explain --help").code, 0);
    EXPECT_EQ(orca("validate --help").code, 0);
}

TEST_F(Cli, UsageErrorsExitWithTwo) {
    EXPECT_EQ(orca("").code, 2);
    EXPECT_EQ(orca("frobnicate").code, 2);
    EXPECT_EQ(orca("run").code, 2);
    EXPECT_EQ(orca("run " + scene("head_on.json") + " --steps -3").code, 2);
    EXPECT_EQ(orca("run " + scene("head_on.json") + " --steps 5 --until-goals").code, 2);
    EXPECT_EQ(orca("run " + scene("head_on.json") + " --max-steps 5").code, 2);
    EXPECT_EQ(orca("run " + scene("head_on.json") + " --threads 0").code, 2);
    EXPECT_EQ(orca("run " + scene("head_on.json") + " --bogus").code, 2);
    EXPECT_EQ(orca("explain " + scene("head_on.json")).code, 2); // --agent is required
}

TEST_F(Cli, RunPrintsTheSummary) {
    const Result r = orca("run " + scene("crossing.json") + " --steps 10");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    for (const char* key : {"steps", "time", "allAtGoal", "stepsToAllAtGoal", "minClearance",
                            "minObstacleClearance", "overlapPairSteps", "lp3AgentSteps",
                            "msPerStepMedian", "agentStepsPerSecond", "stateHash"})
        EXPECT_TRUE(j.contains(key)) << key;
    EXPECT_EQ(j["steps"], 10);
    const double dt =
        Json::parse(readFile(scene("crossing.json")))["simulation"].value("timeStep", 0.25);
    EXPECT_DOUBLE_EQ(j["time"].get<double>(), 10 * dt);
    EXPECT_FALSE(j["allAtGoal"].get<bool>());
    EXPECT_TRUE(j["stepsToAllAtGoal"].is_null());
    EXPECT_GT(j["agentStepsPerSecond"].get<double>(), 0.0);
    // The crossing flows move a fraction of their neighbour range per step: every step
    // searches candidate lists (built by the first, rebuilt every few steps).
    EXPECT_EQ(j["neighborListSteps"], 10);
}

TEST_F(Cli, RunUntilGoals) {
    const Result r = orca("run " + scene("crossing.json") + " --until-goals --max-steps 5000");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_TRUE(j["allAtGoal"].get<bool>());
    EXPECT_EQ(j["stepsToAllAtGoal"], j["steps"]);
    EXPECT_LT(j["steps"].get<int>(), 5000);
    EXPECT_GE(j["minClearance"].get<double>(), 0.0); // a small crossing never overlaps
    EXPECT_EQ(j["overlapPairSteps"], 0);
}

TEST_F(Cli, TrajectoryHasOneRowPerAgentAndStep) {
    const fs::path csv = m_dir / "t.csv";
    const Result r =
        orca("run " + scene("head_on.json") + " --steps 4 --trajectory " + csv.string());
    ASSERT_EQ(r.code, 0) << r.err;
    std::ifstream in(csv);
    std::string line;
    std::getline(in, line);
    EXPECT_EQ(line, "step,agent,x,y,vx,vy");
    const Json sceneJson = Json::parse(readFile(scene("head_on.json")));
    const std::size_t agents = sceneJson["agents"].size();
    std::size_t rows = 0;
    while (std::getline(in, line)) {
        if (rows == 0) {
            // Step 0 is the initial state, exactly as in the file.
            double x, y;
            int s, a;
            ASSERT_EQ(std::sscanf(line.c_str(), "%d,%d,%lf,%lf", &s, &a, &x, &y), 4);
            EXPECT_EQ(s, 0);
            EXPECT_EQ(a, 0);
            EXPECT_EQ(x, sceneJson["agents"][0]["position"][0].get<double>());
            EXPECT_EQ(y, sceneJson["agents"][0]["position"][1].get<double>());
        }
        ++rows;
    }
    EXPECT_EQ(rows, 5 * agents);
}

TEST_F(Cli, SaveStateResumesBitIdentically) {
    const fs::path state = m_dir / "state.json";
    const Result straight = orca("run " + scene("blocks.json") + " --steps 300 --threads 2");
    ASSERT_EQ(straight.code, 0) << straight.err;
    const Result first =
        orca("run " + scene("blocks.json") + " --steps 120 --save-state " + state.string());
    ASSERT_EQ(first.code, 0) << first.err;
    const Result rest = orca("run " + state.string() + " --steps 180");
    ASSERT_EQ(rest.code, 0) << rest.err;
    const Json a = Json::parse(straight.out);
    const Json b = Json::parse(rest.out);
    EXPECT_EQ(a["stateHash"], b["stateHash"]);
    EXPECT_DOUBLE_EQ(a["time"].get<double>(), b["time"].get<double>());
    // The saved state is a valid scene.
    EXPECT_EQ(orca("validate " + state.string()).code, 0);
}

TEST_F(Cli, ThreadCountDoesNotChangeTheResult) {
    const Result one =
        orca("run " + scene("circle.json") + " --steps 400 --no-metrics --threads 1");
    const Result two =
        orca("run " + scene("circle.json") + " --steps 400 --no-metrics --threads 2");
    ASSERT_EQ(one.code, 0);
    ASSERT_EQ(two.code, 0);
    EXPECT_EQ(Json::parse(one.out)["stateHash"], Json::parse(two.out)["stateHash"]);
    EXPECT_EQ(Json::parse(two.out)["threads"], 2);
}

TEST_F(Cli, ExplainPrintsTheRecord) {
    const Result r = orca("explain " + scene("circle.json") + " --agent 7 --steps 20");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["agent"], 7);
    EXPECT_EQ(j["step"], 20);
    ASSERT_TRUE(j["neighbors"].is_array());
    ASSERT_EQ(j["lines"].size(), j["neighbors"].size() + j["numObstacleLines"].get<std::size_t>());
    double last = 0.0;
    for (const Json& n : j["neighbors"]) { // nearest first
        EXPECT_GE(n["distance"].get<double>(), last);
        last = n["distance"].get<double>();
    }
    for (const Json& l : j["lines"]) {
        EXPECT_TRUE(l.contains("case"));
        EXPECT_TRUE(l.contains("point"));
        EXPECT_TRUE(l.contains("direction"));
        EXPECT_TRUE(l.contains("neighbor"));
    }
    EXPECT_TRUE(j.contains("lp2FailIndex"));
    EXPECT_TRUE(j.contains("lp3"));
    const double vx = j["newVelocity"][0], vy = j["newVelocity"][1];
    EXPECT_LE(std::hypot(vx, vy), j["params"]["maxSpeed"].get<double>());
}

TEST_F(Cli, ExplainShowsObstacleCases) {
    const Result r = orca("explain " + scene("blocks.json") + " --agent 0 --steps 250");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_FALSE(j["obstacleNeighbors"].empty());
    for (const Json& o : j["obstacleNeighbors"])
        EXPECT_TRUE(o.contains("outcome"));
}

TEST_F(Cli, ExplainRejectsAnAgentOutOfRange) {
    const Result r = orca("explain " + scene("head_on.json") + " --agent 99");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("out of range"), std::string::npos) << r.err;
}

TEST_F(Cli, ValidateAcceptsEveryBundledScene) {
    std::string files;
    for (const auto& e : fs::directory_iterator(std::string(ORCA_SOURCE_DIR) + "/scenes"))
        if (e.path().extension() == ".json") files += " " + e.path().string();
    const Result r = orca("validate" + files);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find(": ok:"), std::string::npos);
}

TEST_F(Cli, ValidateReportsErrorsWithFileAndPath) {
    const fs::path bad = write("bad.json", R"({"format":"orca-scene","version":1,
        "agents":[{"position":[0,0]},{"position":[1,2],"radius":-1}]})");
    const fs::path good = write("good.json", R"({"format":"orca-scene","version":1,"agents":[]})");
    const Result r = orca("validate " + good.string() + " " + bad.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(bad.string()), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("agents[1].radius"), std::string::npos) << r.err;
    EXPECT_NE(r.out.find(good.string() + ": ok"), std::string::npos) << r.out;

    const fs::path syntax =
        write("syntax.json", "{\n  \"agents\": [\n    {\"position\": [1, 2]\n  ]\n}\n");
    const Result s = orca("validate " + syntax.string());
    EXPECT_EQ(s.code, 1);
    EXPECT_NE(s.err.find(syntax.string() + ":4:"), std::string::npos) << s.err; // line 4
}

TEST_F(Cli, ValidateWarnsAboutClockwiseObstaclesButAcceptsThem) {
    const fs::path cw = write("cw.json", R"({"format":"orca-scene","version":1,"agents":[],
        "obstacles":[{"vertices":[[0,0],[0,4],[4,4],[4,0]]}]})");
    const Result r = orca("validate " + cw.string());
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.err.find("warning"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("obstacles[0]"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("clockwise"), std::string::npos) << r.err;
}

TEST_F(Cli, ValidateLintPrintsIssuesAndCounts) {
    const Result r = orca("validate --lint " + scene("head_on.json"));
    EXPECT_EQ(r.code, 0) << r.err; // warnings alone do not fail
    const std::string file = scene("head_on.json");
    EXPECT_NE(r.out.find(file + ": warning: at agents[1].position: agents[0] and agents[1] head "
                                "straight for each other"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(" [head-on-symmetric] (fix: Perturb)\n"), std::string::npos) << r.out;
    EXPECT_NE(
        r.out.find(file + ": ok: 2 agents, 0 obstacles; lint: 0 errors, 1 warning, 0 infos\n"),
        std::string::npos)
        << r.out;
    // Without --lint, validate is unchanged.
    const Result plain = orca("validate " + scene("head_on.json"));
    EXPECT_EQ(plain.out, file + ": ok: 2 agents, 0 obstacles\n");
}

TEST_F(Cli, ValidateLintFailsOnLintErrors) {
    const fs::path overlap = write("overlap.json", R"({"format":"orca-scene","version":1,
        "agentDefaults": {"radius": 1, "neighborDist": 20},
        "agents":[{"position":[0,0]},{"position":[1.5,0]},{"position":[9,9],"goal":[9.5,9]}]})");
    const fs::path good = write("good.json", R"({"format":"orca-scene","version":1,"agents":[]})");
    const Result r = orca("validate --lint " + good.string() + " " + overlap.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.out.find(overlap.string() + ": error: at agents[1].position: agents[0] and "
                                            "agents[1] overlap by 0.5 at the start"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[agents-overlap] (fix: Nudge apart)"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(overlap.string() + ": info: at agents[2].goal: "), std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[starts-at-goal]\n"), std::string::npos) << r.out; // no fix, no label
    EXPECT_NE(r.out.find(overlap.string() + ": ok: 3 agents, 0 obstacles; lint: 1 error, 0 "
                                            "warnings, 1 info\n"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(good.string() + ": ok: 0 agents, 0 obstacles; lint: 0 errors"),
              std::string::npos);
    // The good file alone passes; a file that does not load fails as before.
    EXPECT_EQ(orca("validate --lint " + good.string()).code, 0);
    const fs::path broken = write("broken.json", "{\"format\": \"orca-scene\",");
    const Result b = orca("validate --lint " + broken.string());
    EXPECT_EQ(b.code, 1);
    EXPECT_NE(b.err.find(broken.string() + ":"), std::string::npos) << b.err;
}

TEST_F(Cli, ValidateLintSeesClockwiseObstaclesAsWritten) {
    const fs::path cw = write("cw.json", R"({"format":"orca-scene","version":1,"agents":[],
        "obstacles":[{"vertices":[[0,0],[0,4],[4,4],[4,0]]}]})");
    const Result r = orca("validate --lint " + cw.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, ""); // no repair, so no loader warning
    EXPECT_NE(r.out.find(cw.string() + ": error: at obstacles[0]: obstacle obstacles[0] is "
                                       "clockwise"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find("[obstacle-clockwise] (fix: Reverse winding)"), std::string::npos);
}

TEST_F(Cli, ValidateLintAcceptsEveryBundledScene) {
    std::string files;
    for (const auto& e : fs::directory_iterator(std::string(ORCA_SOURCE_DIR) + "/scenes"))
        if (e.path().extension() == ".json") files += " " + e.path().string();
    const Result r = orca("validate --lint" + files);
    EXPECT_EQ(r.code, 0) << r.out << r.err;
    EXPECT_EQ(r.out.find(": error:"), std::string::npos) << r.out;
    const Result help = orca("validate --help");
    EXPECT_NE(help.out.find("--lint"), std::string::npos);
    EXPECT_NE(help.out.find("Exit 1 when a file fails to load or has lint errors"),
              std::string::npos)
        << help.out;
}

TEST_F(Cli, DetourCanBeSwitchedFromTheCommandLine) {
    const std::string wall = scene("detour_wall.json");
    const Result on = orca("run " + wall + " --until-goals --max-steps 1500 --no-metrics");
    ASSERT_EQ(on.code, 0) << on.err;
    const Json jon = Json::parse(on.out);
    EXPECT_TRUE(jon["detour"].get<bool>()); // the scene's own setting
    EXPECT_TRUE(jon["allAtGoal"].get<bool>());
    EXPECT_GT(jon["detourAgentSteps"].get<int>(), 0);
    const Result off = orca("run " + wall + " --steps 1500 --no-metrics --detour off");
    ASSERT_EQ(off.code, 0) << off.err;
    const Json joff = Json::parse(off.out);
    EXPECT_FALSE(joff["detour"].get<bool>());
    EXPECT_FALSE(joff["allAtGoal"].get<bool>()); // stalls in front of the wall
    EXPECT_EQ(joff["detourAgentSteps"], 0);
    const Result forced = orca("run " + scene("crossing.json") + " --steps 5 --detour on");
    EXPECT_EQ(Json::parse(forced.out)["detour"], true);
    EXPECT_EQ(orca("run " + wall + " --detour maybe").code, 2);
}

TEST_F(Cli, ExplainReportsTheDetourState) {
    const Result r = orca("explain " + scene("detour_wall.json") + " --agent 0 --steps 60");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_TRUE(j.contains("detour"));
    for (const char* key : {"mode", "nextMode", "reason", "goalPrefVelocity"})
        EXPECT_TRUE(j["detour"].contains(key)) << key;
    // Without detour in the scene there is no detour entry.
    const Result plain = orca("explain " + scene("crossing.json") + " --agent 0");
    EXPECT_FALSE(Json::parse(plain.out).contains("detour"));
}

TEST_F(Cli, MissingFilesAreBadInput) {
    const Result r = orca("run " + (m_dir / "nope.json").string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("nope.json"), std::string::npos);
    const Result w = orca("run " + scene("head_on.json") + " --steps 1 --trajectory " +
                          (m_dir / "no" / "such" / "dir.csv").string());
    EXPECT_EQ(w.code, 1);
}

} // namespace
