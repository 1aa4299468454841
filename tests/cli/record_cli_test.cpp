// `orca run --record [--history-budget BYTES] --events`: the sandbox's loop without a window.
// The recording's summary must describe the run (keyframes cover it, the budget thins them),
// its events must be `orca events`'s, the loop must not change the simulation, and bad budgets
// are usage errors.
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

namespace {

using Json = nlohmann::ordered_json;
using orca::testing::Result;

class RecordCli : public orca::testing::CliFixture {
  protected:
    /// `orca ARGS` parsed as JSON (fails the test on a non-zero exit).
    Json run(const std::string& args) {
        const Result r = orca(args);
        EXPECT_EQ(r.code, 0) << r.err;
        return r.code == 0 ? Json::parse(r.out) : Json::object();
    }
    /// Counts per kind of `orca events ARGS`.
    std::map<std::string, std::size_t> eventKinds(const std::string& args) {
        std::map<std::string, std::size_t> kinds;
        for (const Json& e : run("events " + args))
            ++kinds[e.at("kind").get<std::string>()];
        return kinds;
    }
};

/// Expects `j["events"]` to count exactly `kinds` (byKind lists every kind, zeros included).
void expectEvents(const Json& j, const std::map<std::string, std::size_t>& kinds) {
    ASSERT_TRUE(j.contains("events"));
    std::size_t total = 0;
    for (const auto& [kind, n] : kinds)
        total += n;
    EXPECT_EQ(j["events"]["count"], total);
    const Json& byKind = j["events"]["byKind"];
    EXPECT_EQ(byKind.size(), 13u);
    for (const auto& [kind, n] : byKind.items()) {
        const auto it = kinds.find(kind);
        EXPECT_EQ(n.get<std::size_t>(), it == kinds.end() ? 0u : it->second) << kind;
    }
}

TEST_F(RecordCli, RecordingDescribesTheRunAndKeepsTheResult) {
    const std::string file = scene("dense_convergence.json");
    const Json plain = run("run " + file + " --steps 100");
    const Json j = run("run " + file + " --steps 100 --record --events");
    // The loop watches the simulation, it does not change it.
    EXPECT_EQ(j["stateHash"], plain["stateHash"]);
    EXPECT_EQ(j["firstOverlapStep"], plain["firstOverlapStep"]);
    EXPECT_EQ(j["stalledAgents"], plain["stalledAgents"]);

    ASSERT_TRUE(j.contains("history"));
    const Json& h = j["history"];
    EXPECT_EQ(h["firstStep"], 0);
    EXPECT_EQ(h["lastStep"], 100);
    EXPECT_EQ(h["budget"], 256u << 20);  // the app's default
    EXPECT_EQ(h["keyframeInterval"], 8); // nothing to thin: the initial interval
    // Keyframes at 0, 8, ..., 96: they cover the run, one interval apart.
    EXPECT_EQ(h["keyframes"], 13);
    EXPECT_GT(h["keyframes"].get<std::uint64_t>() * h["keyframeInterval"].get<std::uint64_t>(),
              100u);
    EXPECT_GT(h["keyframeBytes"].get<std::uint64_t>(), 0u);
    EXPECT_GE(h["bytes"], h["keyframeBytes"]);

    const Json& loop = j["loopMs"];
    for (const char* part : {"step", "record", "events"}) {
        ASSERT_TRUE(loop.contains(part)) << part;
        EXPECT_GE(loop[part].get<double>(), 0.0) << part;
    }
    EXPECT_EQ(loop["step"], j["msPerStepMean"]);
    expectEvents(j, eventKinds(file + " --steps 100"));
}

TEST_F(RecordCli, EventsWithoutRecordingMatchOrcaEvents) {
    const std::string file = scene("routes_doorway.json");
    // Until the goals, as both commands run by default; also without the metrics' detector.
    for (const char* extra : {"", " --no-metrics"}) {
        const Json j = run("run " + file + " --events" + extra);
        EXPECT_FALSE(j.contains("history"));
        EXPECT_FALSE(j["loopMs"].contains("record"));
        EXPECT_TRUE(j["loopMs"].contains("events"));
        expectEvents(j, eventKinds(file));
    }
    // Recording alone: no events, no detection time.
    const Json r = run("run " + file + " --steps 30 --record");
    EXPECT_FALSE(r.contains("events"));
    EXPECT_FALSE(r["loopMs"].contains("events"));
    EXPECT_EQ(r["history"]["lastStep"], 30);
}

TEST_F(RecordCli, ASmallBudgetThinsTheKeyframes) {
    // 1,000 agents: ~130 kB per keyframe, so 1 MiB holds a handful of 26 (200 steps / 8).
    ASSERT_EQ(orca("generate uniform --agents 1000 -o " + (m_dir / "u.json").string()).code, 0);
    const std::string file = (m_dir / "u.json").string();
    const Json wide = run("run " + file + " --steps 200 --no-metrics --record --events");
    const Json tight =
        run("run " + file + " --steps 200 --no-metrics --record --events --history-budget 1M");
    EXPECT_EQ(tight["stateHash"], wide["stateHash"]);
    EXPECT_EQ(tight["events"], wide["events"]); // thinning drops keyframes, never events
    const Json& w = wide["history"];
    const Json& t = tight["history"];
    EXPECT_EQ(w["keyframeInterval"], 8);
    EXPECT_EQ(w["keyframes"], 26);
    EXPECT_EQ(t["budget"], 1u << 20);
    EXPECT_GT(t["keyframeInterval"], w["keyframeInterval"]);
    EXPECT_LT(t["keyframes"], w["keyframes"]);
    EXPECT_LE(t["keyframeBytes"], t["budget"]);
    EXPECT_LT(t["bytes"], w["bytes"]);
    EXPECT_GT(t["keyframes"].get<std::uint64_t>() * t["keyframeInterval"].get<std::uint64_t>(),
              200u);
    // Suffixes: 1M = 1048576 = 1024K.
    const Json k = run("run " + file + " --steps 20 --no-metrics --record --history-budget 1024K");
    EXPECT_EQ(k["history"]["budget"], 1u << 20);
}

TEST_F(RecordCli, BadBudgetsAreUsageErrors) {
    const std::string file = scene("crossing.json");
    struct Case {
        const char* args;
        const char* message;
    };
    for (const Case& c : {
             Case{"--record --history-budget 1000", "below the recording's minimum of 1 MiB"},
             Case{"--record --history-budget 512K", "below the recording's minimum of 1 MiB"},
             Case{"--record --history-budget 0", "below the recording's minimum of 1 MiB"},
             Case{"--record --history-budget -5", "must be positive"},
             Case{"--record --history-budget lots", "--history-budget"},
             Case{"--history-budget 64M", "--history-budget requires --record"},
         }) {
        const Result r = orca("run " + file + " --steps 5 " + c.args);
        EXPECT_EQ(r.code, 2) << c.args;
        EXPECT_NE(r.err.find(c.message), std::string::npos) << c.args << ": " << r.err;
        EXPECT_TRUE(r.out.empty()) << c.args;
    }
}

} // namespace
