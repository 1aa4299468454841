// `orca compare`: a branch with changed parameters beside the original run, as a process.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "orca/events.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;
using CompareCli = orca::testing::CliFixture;

TEST_F(CompareCli, PrintsBothRunsSideBySide) {
    const Result r = orca("compare " + scene("dense_convergence.json") +
                          " --at 20 --steps 100 --set tau=1 --set maxNeighbors=4");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j["at"], 20);
    EXPECT_EQ(j["to"], 120);
    EXPECT_EQ(j["change"], "maxNeighbors=4, timeHorizon=1");
    EXPECT_EQ(j["firstDivergingStep"], 21); // the first step decided with the new parameters
    for (const char* run : {"base", "branch"}) {
        for (const char* key :
             {"step", "goalAgents", "agentsAtGoal", "allAtGoalStep", "minClearance",
              "maxOverlapDepth", "overlapPairSteps", "lp3AgentSteps", "events", "stateHash"})
            EXPECT_TRUE(j[run].contains(key)) << run << '.' << key;
        EXPECT_EQ(j[run]["step"], 120);
        EXPECT_EQ(j[run]["events"].size(), orca::kEventKindCount);
    }
    EXPECT_NE(j["base"]["stateHash"], j["branch"]["stateHash"]);
    // The original is exactly `orca run --steps 120`.
    const Result run = orca("run " + scene("dense_convergence.json") + " --steps 120");
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_EQ(Json::parse(run.out)["stateHash"], j["base"]["stateHash"]);
}

TEST_F(CompareCli, AChangeThatChangesNothingNeverDiverges) {
    // head_on.json already uses timeHorizon 5 (agentDefaults).
    const Result r =
        orca("compare " + scene("head_on.json") + " --steps 50 --set tau=5 --threads 2");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_TRUE(j["firstDivergingStep"].is_null());
    EXPECT_EQ(j["base"]["stateHash"], j["branch"]["stateHash"]);
}

TEST_F(CompareCli, OnlyTheListedAgentsChange) {
    const std::string file = scene("dense_convergence.json");
    const Json all = Json::parse(orca("compare " + file + " --steps 60 --set radius=0.5").out);
    const Json some =
        Json::parse(orca("compare " + file + " --steps 60 --set radius=0.5 --agents 3,5").out);
    EXPECT_EQ(some["change"], "radius=0.5 on agents 3, 5");
    EXPECT_NE(all["branch"]["stateHash"], some["branch"]["stateHash"]);
    EXPECT_NE(some["branch"]["stateHash"], some["base"]["stateHash"]);
}

TEST_F(CompareCli, BadInputAndUsage) {
    const std::string file = scene("crossing.json");
    Result r = orca("compare " + file + " --set speed=2");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown parameter \"speed\""), std::string::npos) << r.err;
    r = orca("compare " + file + " --set maxNeighbors=2.5");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("maxNeighbors must be an integer"), std::string::npos) << r.err;
    r = orca("compare " + file); // --set is required
    EXPECT_EQ(r.code, 2);
    // Outside the range a scene file accepts: a usage error naming the range.
    r = orca("compare " + file + " --set radius=-1");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("radius must be in (0, 1e7]"), std::string::npos) << r.err;
    r = orca("compare " + file + " --set tau=2 --agents 999");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("--agents 999 is out of range"), std::string::npos) << r.err;
    r = orca("compare " + (m_dir / "missing.json").string() + " --set tau=2");
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("missing.json"), std::string::npos) << r.err;
}

// Issue 25, items 6 and 11: values set on the command line pass the scene file's ranges, usage
// errors are exit 2 naming the option (not exit 1 blaming the scene), and a metric that is not
// finite is named in "nonFinite" instead of vanishing as a bare null.
TEST_F(CompareCli, HostileValuesAreUsageErrorsNamingTheOption) {
    const std::string file = scene("head_on.json");
    struct Case {
        std::string args;
        std::string message;
    };
    for (const Case& c : {
             Case{"--set radius=1e308", "orca compare: error: --set radius=1e308: radius: 1e308 "
                                        "is out of range: radius must be in (0, 1e7] units"},
             Case{"--set timeStep=1e308", "timeStep must be in [1e-6, 1e7] s"},
             Case{"--set maxNeighbors=-1", "maxNeighbors must be in [0, 2147483647]"},
             Case{"--set radius=1 --agents -1", "--agents: -1 is negative"},
             Case{"--set radius=1 --agents 0,-1", "--agents: -1 is negative"},
             Case{"--set radius=1 --at -1", "--at: -1 is negative: a number of steps is 0 or more"},
             Case{"--set radius=1 --steps x", "--steps: \"x\" is not a whole number"},
         }) {
        SCOPED_TRACE(c.args);
        const Result r = orca("compare " + file + " " + c.args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_EQ(r.err.find(file), std::string::npos) << r.err; // the scene is not to blame
        EXPECT_LT(r.err.size(), 300u) << r.err;                  // no 300-digit range
        EXPECT_EQ(r.out, "");
    }
}

TEST_F(CompareCli, NonFiniteMetricsAreNamed) {
    // One agent: no pair is ever near, so the smallest clearance is +inf.
    const std::string lonely = write("lonely.json", R"({"format": "orca-scene", "version": 1,
            "agents": [{"position": [0, 0], "goal": [5, 0]}]})")
                                   .string();
    Result r = orca("compare " + lonely + " --set tau=2 --steps 5");
    ASSERT_EQ(r.code, 0) << r.err;
    Json j = Json::parse(r.out);
    for (const char* run : {"base", "branch"}) {
        EXPECT_TRUE(j[run]["minClearance"].is_null());
        EXPECT_EQ(j[run]["maxOverlapDepth"], 0.0);
        EXPECT_EQ(j[run]["nonFinite"], Json::parse(R"({"minClearance": "inf"})")) << run;
    }
    r = orca("compare " + scene("head_on.json") + " --set tau=2 --steps 5");
    ASSERT_EQ(r.code, 0) << r.err;
    j = Json::parse(r.out);
    EXPECT_TRUE(j["base"]["minClearance"].is_number());
    EXPECT_EQ(j["base"]["nonFinite"], Json::object());
}

// The base run's events counted as they come equal `orca events` over the same steps.
TEST_F(CompareCli, EventCountsAreTheEventsCommands) {
    const std::string file = scene("dense_convergence.json");
    const Result r = orca("compare " + file + " --steps 150 --set tau=1");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    const Result ev = orca("events " + file + " --steps 150");
    ASSERT_EQ(ev.code, 0) << ev.err;
    Json counts = Json::object();
    for (auto it = j["base"]["events"].begin(); it != j["base"]["events"].end(); ++it)
        counts[it.key()] = 0;
    for (const Json& e : Json::parse(ev.out))
        counts[e["kind"].get<std::string>()] = counts[e["kind"].get<std::string>()].get<int>() + 1;
    EXPECT_EQ(j["base"]["events"], counts);
}

} // namespace
