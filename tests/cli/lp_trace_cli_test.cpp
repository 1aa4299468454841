// `orca explain --lp-trace`: the linear programs step by step in the explain record.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::json;
using orca::testing::Result;
using Cli = orca::testing::CliFixture;

TEST_F(Cli, ExplainWithoutLpTraceHasNone) {
    const Result r = orca("explain " + scene("dense_convergence.json") + " --agent 34");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_FALSE(Json::parse(r.out).contains("lpTrace"));
}

TEST_F(Cli, ExplainLpTraceReplaysLp2AndLp3) {
    // Agent 34 of the dense convergence after 150 steps: LP2 fails, LP3 takes over.
    const Result r =
        orca("explain " + scene("dense_convergence.json") + " --agent 34 --steps 150 --lp-trace");
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    ASSERT_TRUE(j.contains("lpTrace"));
    const Json& t = j["lpTrace"];
    for (const char* key : {"lp2Start", "lp2", "lp2FailIndex", "lp2Result", "bisectorWeight", "lp3",
                            "lp3Distance", "binding", "result"})
        EXPECT_TRUE(t.contains(key)) << key;

    // The trace ends where the record does (JSON numbers round-trip exactly).
    EXPECT_EQ(t["result"], j["newVelocity"]);
    EXPECT_EQ(t["lp2Result"], j["lp2Velocity"]);
    EXPECT_EQ(t["lp2FailIndex"], j["lp2FailIndex"]);
    ASSERT_FALSE(t["lp2FailIndex"].is_null());
    EXPECT_TRUE(j["lp3"].get<bool>());

    // LP2: one entry per line in order, each starting where the previous ended, up to the
    // failing line whose LP1 says why it failed.
    const Json& lp2 = t["lp2"];
    const std::size_t fail = t["lp2FailIndex"];
    ASSERT_EQ(lp2.size(), fail + 1);
    Json cur = t["lp2Start"];
    for (std::size_t k = 0; k < lp2.size(); ++k) {
        const Json& s = lp2[k];
        EXPECT_EQ(s["line"], k);
        EXPECT_EQ(s["before"], cur);
        EXPECT_EQ(s["held"].get<bool>(), s["violation"].get<double>() <= 0.0);
        if (!s["held"].get<bool>()) {
            ASSERT_TRUE(s.contains("lp1"));
            for (const Json& c : s["lp1"]["clips"])
                EXPECT_LT(c["line"].get<std::size_t>(), k);
        }
        cur = s["after"];
    }
    EXPECT_FALSE(lp2.back()["lp1"]["failure"].is_null());

    // LP3: from the failing line on; rebuilt phases list the obstacle lines, then the
    // bisector (or midway) lines, and their inner LP2.
    const Json& lp3 = t["lp3"];
    ASSERT_FALSE(lp3.empty());
    EXPECT_EQ(lp3[0]["line"], fail);
    bool rebuilt = false;
    for (const Json& s : lp3) {
        EXPECT_EQ(s["before"], cur);
        if (s["rebuilt"].get<bool>()) {
            rebuilt = true;
            for (const Json& p : s["projected"]) {
                const std::string kind = p["kind"];
                EXPECT_TRUE(kind == "obstacle" || kind == "bisector" || kind == "midway");
            }
            EXPECT_TRUE(s["inner"].contains("steps"));
            EXPECT_GE(s["distance"].get<double>(), 0.0);
        }
        cur = s["after"];
    }
    EXPECT_TRUE(rebuilt);
    EXPECT_EQ(t["lp3Distance"], j["lp3Depth"]);

    // The binding lines are lines of the record.
    ASSERT_FALSE(t["binding"].empty());
    for (const Json& b : t["binding"])
        EXPECT_LT(b.get<std::size_t>(), j["lines"].size());
}

TEST_F(Cli, ExplainHelpMentionsLpTrace) {
    const Result r = orca("explain --help");
    EXPECT_EQ(r.code, 0);
    EXPECT_NE(r.out.find("--lp-trace"), std::string::npos);
}

} // namespace
