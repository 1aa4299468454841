// History (history.hpp): recording overhead per step, seek latency to a random recorded step,
// and history bytes per agent-step, on the uniform workload.
//   history_record/agents:N/events:E   ns per agent-step of step() + record()
//   history_step/agents:N              the same steps without a recording (the baseline)
//   history_seek/agents:N              one seek to a random step of a 2,000-step recording
//   loop/WORKLOAD/agents:N/threads:T   the sandbox's loop: per iteration the simulator steps
//       and a History with the app's parameters (events on) records it. Counters in ns per
//       agent-step: step, events (History::recordEvents), record (History::recordState);
//       overhead_pct = (events + record) / step; history_bytes_per_agent_step,
//       keyframe_interval. Compare the "min" rows (fastest of the repetitions): the machine
//       is noisy.
//   loop/bare/WORKLOAD/agents:N/threads:T   the same steps without a History: the bare step
//       (no watch), for the overhead of the whole loop against it.
//       Run: build/bin/orca_bench --benchmark_filter=loop/
#include <algorithm>
#include <chrono>
#include <random>

#include <benchmark/benchmark.h>

#include "orca/history.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"

namespace {

constexpr int kRecordedSteps = 2000;

orca::Simulator warmed(std::size_t agents) {
    orca::Simulator sim = orca::scene::buildSimulator(orca::scene::uniformWorkload(agents));
    for (int i = 0; i < 20; ++i)
        sim.step();
    return sim;
}

void perAgentStep(benchmark::State& state, std::size_t agents) {
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(agents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

void stepOnly(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    orca::Simulator sim = warmed(agents);
    for (auto _ : state)
        sim.step();
    perAgentStep(state, agents);
}

void stepAndRecord(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    orca::Simulator sim = warmed(agents);
    orca::HistoryParams p;
    p.detectEvents = state.range(1) != 0;
    orca::History history(p);
    history.start(sim);
    for (auto _ : state) {
        sim.step();
        history.record(sim);
    }
    perAgentStep(state, agents);
    state.counters["history_bytes_per_agent_step"] =
        static_cast<double>(history.bytes()) /
        (static_cast<double>(agents) *
         static_cast<double>(history.lastStep() - history.firstStep()));
    state.counters["keyframe_interval"] = history.keyframeInterval();
}

void seek(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    orca::Simulator sim = warmed(agents);
    orca::History history;
    history.start(sim);
    for (int s = 0; s < kRecordedSteps; ++s) {
        sim.step();
        history.record(sim);
    }
    std::mt19937 rng(1);
    const std::uint64_t first = history.firstStep();
    for (auto _ : state) {
        history.seek(sim, first + rng() % (kRecordedSteps + 1));
        benchmark::DoNotOptimize(sim.stateHash());
    }
    state.counters["keyframe_interval"] = history.keyframeInterval();
    state.counters["history_MB"] = static_cast<double>(history.bytes()) / 1e6;
    state.counters["bytes_per_agent_step"] =
        static_cast<double>(history.bytes()) / (static_cast<double>(agents) * kRecordedSteps);
}

template <bool Uniform> void loop(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    const auto agents = static_cast<std::size_t>(state.range(0));
    const int threads = static_cast<int>(state.range(1));
    const orca::scene::Scene sc =
        Uniform ? orca::scene::uniformWorkload(agents) : orca::scene::circleWorkload(agents);
    // One simulator, as in the app: a second one stepping in between (a "bare" twin) left its
    // idle worker spinning on the second core while this one's threads ran, which made two
    // threads look slower than one.
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    sim.setThreadCount(threads);
    orca::History history; // the app's: default parameters, events on
    history.start(sim);
    for (int i = 0; i < 20; ++i) { // warm-up (recorded, as the app would)
        sim.step();
        history.record(sim);
    }
    double tStep = 0.0, tEvents = 0.0, tRecord = 0.0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        sim.step();
        const auto t1 = Clock::now();
        history.recordEvents(sim);
        const auto t2 = Clock::now();
        history.recordState(sim);
        const auto t3 = Clock::now();
        tStep += std::chrono::duration<double>(t1 - t0).count();
        tEvents += std::chrono::duration<double>(t2 - t1).count();
        tRecord += std::chrono::duration<double>(t3 - t2).count();
        state.SetIterationTime(std::chrono::duration<double>(t3 - t0).count());
    }
    const double agentSteps = static_cast<double>(agents) * static_cast<double>(state.iterations());
    state.counters["step"] = 1e9 * tStep / agentSteps;
    state.counters["events"] = 1e9 * tEvents / agentSteps;
    state.counters["record"] = 1e9 * tRecord / agentSteps;
    state.counters["overhead_pct"] = 100.0 * (tEvents + tRecord) / tStep;
    state.counters["history_bytes_per_agent_step"] =
        static_cast<double>(history.bytes()) /
        (static_cast<double>(agents) *
         static_cast<double>(history.lastStep() - history.firstStep()));
    state.counters["keyframe_interval"] = history.keyframeInterval();
    state.counters["keyframe_bytes_per_agent"] =
        static_cast<double>(history.keyframeBytes()) /
        (static_cast<double>(agents) * static_cast<double>(history.keyframeCount()));
}

/// The bare step of loop<>: the same workload, warm-up and steps without a History (no watch,
/// no recording, no detection), for the loop's overhead against the bare step.
template <bool Uniform> void loopBare(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    const auto agents = static_cast<std::size_t>(state.range(0));
    const orca::scene::Scene sc =
        Uniform ? orca::scene::uniformWorkload(agents) : orca::scene::circleWorkload(agents);
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    sim.setThreadCount(static_cast<int>(state.range(1)));
    for (int i = 0; i < 20; ++i)
        sim.step();
    double tStep = 0.0;
    for (auto _ : state) {
        const auto t0 = Clock::now();
        sim.step();
        const double t = std::chrono::duration<double>(Clock::now() - t0).count();
        tStep += t;
        state.SetIterationTime(t);
    }
    state.counters["step"] =
        1e9 * tStep / (static_cast<double>(agents) * static_cast<double>(state.iterations()));
}

void loopArgs(benchmark::internal::Benchmark* b) {
    for (int agents : {1000, 10000, 100000})
        for (int threads : {1, 2})
            b->Args({agents, threads});
    b->ArgNames({"agents", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(100)
        ->Repetitions(3)
        ->ComputeStatistics(
            "min",
            [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
        ->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(loop<false>)->Name("loop/circle")->Apply(loopArgs);
BENCHMARK(loop<true>)->Name("loop/uniform")->Apply(loopArgs);
BENCHMARK(loopBare<false>)->Name("loop/bare/circle")->Apply(loopArgs);
BENCHMARK(loopBare<true>)->Name("loop/bare/uniform")->Apply(loopArgs);
BENCHMARK(stepOnly)
    ->Name("history_step")
    ->ArgNames({"agents"})
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(300)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(stepAndRecord)
    ->Name("history_record")
    ->ArgNames({"agents", "events"})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(300)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(seek)
    ->Name("history_seek")
    ->ArgNames({"agents"})
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(30);
