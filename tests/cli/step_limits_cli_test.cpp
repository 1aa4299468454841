// Step counts (issue 25, items 2 and 11): no buffer is sized from the number of steps asked
// for — a run until the goals capped at 10^12 steps ends on its own in a few MB (it reserved
// 8 TB and aborted) —, counts over the documented limit of 10^12 are usage errors that name
// it (never a 300-digit number), and a run that stops at its step cap says so.
#include <algorithm>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"
#include "cli/step_times.hpp"
#include "common/sanitized.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;

class StepLimitsCli : public orca::testing::CliFixture {
  protected:
    /// `orca ARGS` with its address space limited to `megabytes` and killed after 60 s. Not
    /// limited in a sanitizer build: ASan reserves terabytes of shadow address space at start
    /// (and aborts under ulimit -v); its allocator refuses an absurd reserve by itself.
    Result bounded(const std::string& args, int megabytes = 400) {
        const std::string limit =
            orca::test::kSanitized ? "" : "ulimit -v " + std::to_string(megabytes * 1024) + "; ";
        return capture(limit + "timeout -s KILL 60 " + orcaCommand() + " " + args);
    }
};

constexpr const char* kTrillion = "1000000000000"; // 10^12, the limit

// diag_none.json: three agents that reach their goals after 95 steps.
TEST_F(StepLimitsCli, AHugeCapRunsInBoundedMemoryAndEndsOnItsOwn) {
    const std::string file = scene("diag_none.json");
    for (const char* extra : {"", " --record --events", " --no-metrics"}) {
        SCOPED_TRACE(extra);
        const Result r = bounded("run " + file + " --until-goals --max-steps " + kTrillion + extra);
        ASSERT_EQ(r.code, 0) << r.err; // 134 (bad_alloc) before
        const Json j = Json::parse(r.out);
        EXPECT_EQ(j["steps"], 95);
        EXPECT_EQ(j["allAtGoal"], true);
        EXPECT_EQ(j["stepCapReached"], false);
        EXPECT_GT(j["msPerStepMedian"].get<double>(), 0.0);
    }
    const Result events = bounded("events " + file + " --until-goals --max-steps " + kTrillion);
    ASSERT_EQ(events.code, 0) << events.err;
    const Json list = Json::parse(events.out);
    ASSERT_FALSE(list.empty());
    EXPECT_EQ(list.back()["kind"], "arrived");
    EXPECT_EQ(events.err, "");
}

TEST_F(StepLimitsCli, CountsOverTheLimitAreUsageErrorsNamingIt) {
    const std::string file = scene("head_on.json");
    const std::vector<std::string> commands = {
        "run " + file + " --steps ",
        "run " + file + " --until-goals --max-steps ",
        "events " + file + " --steps ",
        "events " + file + " --until-goals --max-steps ",
        "compare " + file + " --set tau=2 --steps ",
        "compare " + file + " --set tau=2 --at ",
        "diagnose " + file + " --agent 0 --step ",
        "diagnose " + file + " --agent 0 --verify ",
        "explain " + file + " --agent 0 --steps ",
        "routes " + file + " --step ",
    };
    for (const std::string& command : commands) {
        for (const char* count :
             {"1000000000001", "9223372036854775807", "99999999999999999999999"}) {
            SCOPED_TRACE(command + count);
            const Result r = bounded(command + count);
            EXPECT_EQ(r.code, 2) << r.err;
            EXPECT_NE(r.err.find(std::string(count) +
                                 " is more than the 1000000000000 (10^12) steps orca takes at "
                                 "most"),
                      std::string::npos)
                << r.err;
            EXPECT_EQ(r.out, "");
        }
        SCOPED_TRACE(command + "-1");
        const Result negative = bounded(command + "-1");
        EXPECT_EQ(negative.code, 2) << negative.err;
        EXPECT_NE(negative.err.find("-1 is negative: a number of steps is 0 or more"),
                  std::string::npos)
            << negative.err;
        EXPECT_LT(negative.err.size(), 200u) << negative.err; // no 300-digit range
    }
}

// Other numeric options: said as typed, never clamped or printed as a 300-digit range.
TEST_F(StepLimitsCli, IndicesAndTolerancesAreCheckedAsTyped) {
    const std::string file = scene("head_on.json");
    struct Case {
        std::string args;
        std::string message;
    };
    for (const Case& c : {
             Case{"explain " + file + " --agent 99999999999999999999",
                  "--agent: 99999999999999999999 is too large for an index"},
             Case{"explain " + file + " --agent -1", "--agent: -1 is negative"},
             Case{"events " + file + " --agent 1e3", "--agent: \"1e3\" is not a whole number"},
             Case{"routes " + file + " --agent -2", "--agent: -2 is negative"},
             Case{"conform " + file + " x.csv --tolerance -1",
                  "--tolerance: -1 is negative: it must be 0 or more"},
             Case{"conform " + file + " x.csv --tolerance 1e400",
                  "--tolerance: \"1e400\" is not a finite number"},
         }) {
        SCOPED_TRACE(c.args);
        const Result r = orca(c.args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << r.err;
        EXPECT_LT(r.err.size(), 200u) << r.err;
    }
}

TEST_F(StepLimitsCli, ARunThatStopsAtItsCapSaysSo) {
    const std::string file = scene("diag_none.json");
    // events: the array ends with a step-cap-reached element, whatever the filters.
    Result r = orca("events " + file + " --until-goals --max-steps 50 --kinds arrived");
    ASSERT_EQ(r.code, 0) << r.err;
    Json list = Json::parse(r.out);
    ASSERT_EQ(list.size(), 1u) << r.out; // nobody arrived by step 50
    EXPECT_EQ(list.back(), Json::parse(R"({"step": 50, "kind": "step-cap-reached",
                                           "agents": [], "obstacle": null, "value": 3})"));
    EXPECT_EQ(r.err, "orca events: note: stopped at the step cap (50 steps, --max-steps) with 3 "
                     "of 3 goal agents not at their goal\n");
    // Not when the goals are reached first, nor with --steps (an exact count, not a cap).
    r = orca("events " + file + " --until-goals --max-steps 1000");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(Json::parse(r.out).back()["kind"], "step-cap-reached");
    EXPECT_EQ(r.err, "");
    r = orca("events " + file + " --steps 50");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("step-cap-reached"), std::string::npos);
    EXPECT_EQ(r.err, "");

    // run: "stepCapReached" and the same note; the default cap is named as such.
    r = orca("run " + file + " --until-goals --max-steps 50");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["stepCapReached"], true);
    EXPECT_NE(r.err.find("orca run: note: stopped at the step cap (50 steps, --max-steps)"),
              std::string::npos)
        << r.err;
    r = orca("run " + scene("diag_symmetric_deadlock.json") + " --no-metrics");
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(Json::parse(r.out)["steps"], 10000);
    EXPECT_EQ(Json::parse(r.out)["stepCapReached"], true);
    EXPECT_NE(r.err.find("(10000 steps, the default; --max-steps N)"), std::string::npos) << r.err;
}

// The step-time policy behind msPerStepMedian / msPerStepMean: the mean over every step, the
// median over at most kCapacity evenly spaced samples.
TEST(StepTimes, MemoryIsBoundedAndTheSamplesStayEvenlySpaced) {
    using orca::cli::StepTimes;
    StepTimes t;
    EXPECT_EQ(t.median(), 0.0);
    EXPECT_EQ(t.mean(), 0.0);
    const std::uint64_t n = 5 * StepTimes::kCapacity + 123;
    for (std::uint64_t k = 0; k < n; ++k)
        t.add(static_cast<double>(k)); // a ramp: the median is n / 2
    EXPECT_EQ(t.count(), n);
    EXPECT_LE(t.kept(), StepTimes::kCapacity);
    EXPECT_GE(t.kept(), StepTimes::kCapacity / 2);
    EXPECT_EQ(t.stride(), 8u);
    EXPECT_DOUBLE_EQ(t.mean(), static_cast<double>(n - 1) / 2.0);
    EXPECT_NEAR(t.median(), static_cast<double>(n) / 2.0, static_cast<double>(t.stride()));

    // Up to kCapacity times, every one is kept: the exact median.
    StepTimes few;
    for (double ms : {5.0, 1.0, 3.0, 2.0})
        few.add(ms);
    EXPECT_EQ(few.kept(), 4u);
    EXPECT_EQ(few.median(), 2.5);
    EXPECT_EQ(few.mean(), 2.75);
}

} // namespace
