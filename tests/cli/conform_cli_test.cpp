// `orca conform`: our own trajectories and recordings conform exactly (every bundled scene),
// a nudged velocity is reported at its step and agent with the explain record of the decision,
// float-precision files get the float tolerance, and misuse is refused with a clear message.
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;

class ConformCli : public orca::testing::CliFixture {};

TEST_F(ConformCli, OurOwnTrajectoriesAndRecordingsConformExactly) {
    for (const char* name : {"crossing.json", "detour_field.json", "routes_doorway.json",
                             "diag_symmetric_deadlock.json", "blocks.json"}) {
        SCOPED_TRACE(name);
        const std::string sc = scene(name);
        const std::string csv = (m_dir / "t.csv").string();
        const std::string rec = (m_dir / "t.orcarec").string();
        const Result run = orca("run " + sc + " --steps 150 --no-metrics --trajectory " + csv +
                                " --recording " + rec);
        ASSERT_EQ(run.code, 0) << run.err;
        for (const std::string& args : {"conform " + sc + " " + csv, "conform " + rec}) {
            const Result r = orca(args + " --threads 2");
            ASSERT_EQ(r.code, 0) << r.err << r.out;
            const Json j = Json::parse(r.out);
            EXPECT_EQ(j.at("steps"), 150);
            EXPECT_EQ(j.at("deviatingAgentSteps"), 0);
            EXPECT_EQ(j.at("maxDifference"), 0.0);
            EXPECT_EQ(j.at("conforms"), true);
            EXPECT_EQ(j.at("precision"), "float64");
            EXPECT_EQ(j.at("tolerance"), 1e-9);
            EXPECT_TRUE(j.at("firstDeviation").is_null());
            EXPECT_EQ(j.at("prefVelocityMismatches").at("agentSteps"), 0);
            EXPECT_GT(j.at("checkedAgentSteps").get<int>(), 0);
        }
    }
}

TEST_F(ConformCli, ANudgedVelocityIsFoundAtItsStepAndAgent) {
    const std::string sc = scene("circle.json");
    const std::string csv = (m_dir / "t.csv").string();
    ASSERT_EQ(orca("run " + sc + " --steps 80 --no-metrics --trajectory " + csv).code, 0);
    // Change one number: agent 13's vx after step 57.
    std::ifstream in(csv);
    std::string text;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("57,13,", 0) == 0) {
            std::vector<std::string> f;
            std::size_t at = 0;
            for (std::size_t c; (c = line.find(',', at)) != std::string::npos; at = c + 1)
                f.push_back(line.substr(at, c - at));
            f.push_back(line.substr(at));
            char buf[64];
            std::snprintf(buf, sizeof buf, "%.17g", std::stod(f[4]) + 0.001);
            f[4] = buf;
            line = f[0];
            for (std::size_t k = 1; k < f.size(); ++k)
                line += "," + f[k];
        }
        text += line + "\n";
    }
    const std::string nudged = write("nudged.csv", text).string();
    const Result r = orca("conform " + sc + " " + nudged + " --all");
    EXPECT_EQ(r.code, 3) << r.err;
    const Json j = Json::parse(r.out);
    EXPECT_EQ(j.at("conforms"), false);
    const Json& d = j.at("firstDeviation");
    EXPECT_EQ(d.at("step"), 57);
    EXPECT_EQ(d.at("agent"), 13);
    EXPECT_NEAR(d.at("difference").get<double>(), 0.001, 1e-9);
    EXPECT_NEAR(d.at("recorded")[0].get<double>() - d.at("orca")[0].get<double>(), 0.001, 1e-9);
    // The explain record is of that decision: agent 13, from the state of step 56, and its
    // new velocity is ORCA's answer.
    const Json& e = d.at("explain");
    EXPECT_EQ(e.at("agent"), 13);
    EXPECT_EQ(e.at("step"), 56);
    EXPECT_EQ(e.at("newVelocity"), d.at("orca"));
    EXPECT_FALSE(e.at("lines").empty());
    ASSERT_TRUE(j.at("deviations").is_array());
    EXPECT_EQ(j.at("deviations").front(), [&] {
        Json x = d;
        x.erase("explain");
        return x;
    }());
    // A tolerance above the nudge accepts it: 0.001 < 1e-3 x max(1, maxSpeed 2).
    EXPECT_EQ(orca("conform " + sc + " " + nudged + " --tolerance 1e-3").code, 0);
}

TEST_F(ConformCli, FloatPrecisionFilesGetTheFloatTolerance) {
    // Two agents written with 9 significant digits at most, as a float program prints them: an
    // agent alone moves by its preferred velocity, exactly representable here; the recorded
    // velocity is off by 0.01 m/s (within 0.02 x max(1, 2)).
    const std::string sc = write("two.json", R"({"format": "orca-scene", "version": 1,
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 0.5, "maxSpeed": 2},
        "agents": [{"position": [0, 0], "prefVelocity": [0, 0]},
                   {"position": [100, 0], "prefVelocity": [0, 0]}]})")
                               .string();
    const std::string csv = write("f.csv", "step,agent,x,y,vx,vy,pvx,pvy\n"
                                           "0,0,0,0,0,0,0,0\n"
                                           "0,1,100,0,0,0,0,0\n"
                                           "1,0,0.25,0,1.01,0,1,0\n"
                                           "1,1,100,0.125,0,0.5,0,0.5\n")
                                .string();
    Result r = orca("conform " + sc + " " + csv);
    EXPECT_EQ(r.code, 0) << r.err;
    Json j = Json::parse(r.out);
    EXPECT_EQ(j.at("precision"), "float32");
    EXPECT_EQ(j.at("tolerance"), 0.02);
    EXPECT_NEAR(j.at("maxDifference").get<double>(), 0.01, 1e-6); // (1.01 read as its float)
    EXPECT_EQ(j.at("uncheckedFrames"), 1);
    // The same numbers with 17 digits are double precision: exact tolerance, a deviation.
    const std::string exact = write("d.csv", "step,agent,x,y,vx,vy,pvx,pvy\n"
                                             "0,0,0,0,0,0,0,0\n"
                                             "0,1,100,0,0,0,0,0\n"
                                             "1,0,0.25,0,1.0100000000000001,0,1,0\n"
                                             "1,1,100,0.125,0,0.5,0,0.5\n")
                                  .string();
    r = orca("conform " + sc + " " + exact);
    EXPECT_EQ(r.code, 3) << r.err;
    j = Json::parse(r.out);
    EXPECT_EQ(j.at("precision"), "float64");
    EXPECT_EQ(j.at("firstDeviation").at("agent"), 0);
    EXPECT_EQ(j.at("firstDeviation").at("step"), 1);
}

TEST_F(ConformCli, MisuseAndBrokenFilesAreRefusedWithTheirNames) {
    const std::string sc = scene("head_on.json");
    const std::string rec = (m_dir / "r.orcarec").string();
    ASSERT_EQ(orca("run " + sc + " --steps 5 --no-metrics --recording " + rec).code, 0);
    Result r = orca("conform " + sc + " " + rec);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("a recording carries its own scenes"), std::string::npos) << r.err;

    const std::string csv =
        write("bad.csv", "step,agent,x,y,vx,vy\n0,0,1,2,3,4\n0,2,1,2,3,4\n").string();
    r = orca("conform " + csv);
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("needs the scene it ran"), std::string::npos) << r.err;

    r = orca("conform " + sc + " " + csv);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find(csv + ":3:"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("expected agent 1, found agent 2"), std::string::npos) << r.err;

    const std::string three = write("three.csv", "step,agent,x,y,vx,vy\n0,0,1,2,3,4\n0,1,1,2,3,4\n"
                                                 "0,2,5,6,7,8\n")
                                  .string();
    r = orca("conform " + sc + " " + three);
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("3 agents per step, the scene"), std::string::npos) << r.err;

    r = orca("conform " + sc + " " + csv + " --tolerance -1");
    EXPECT_EQ(r.code, 2) << r.err;
}

} // namespace
