// History (history.hpp): recording overhead per step, seek latency to a random recorded step,
// and history bytes per agent-step, on the uniform workload.
//   history_record/agents:N/events:E   ns per agent-step of step() + record()
//   history_step/agents:N              the same steps without a recording (the baseline)
//   history_seek/agents:N              one seek to a random step of a 2,000-step recording
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

} // namespace

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
