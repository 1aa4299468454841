// History (history.hpp): recording overhead per step, seek latency to a random recorded step,
// and history bytes per agent-step, on the uniform workload.
//   history_record/agents:N/events:E   ns per agent-step of step() + record()
//   history_step/agents:N              the same steps without a recording (the baseline)
//   history_seek/agents:N              one seek to a random step of a 2,000-step recording
//   loop/WORKLOAD/agents:N/threads:T   the sandbox's loop against the bare step, paired: two
//       simulators of the same scene step the same trajectory, one bare (no History, no
//       watch), one as the app's loop (a History with the app's parameters, events on, records
//       every step). They take turns in blocks of kBlock steps; each block's first step is not
//       timed (it wakes the thread pool and reloads the caches the other simulator evicted),
//       and with two threads a pause before each block lets the other simulator's idle workers
//       stop spinning. Each goes first in every other turn.
//       Counters in ns per agent-step (means): bare, step (the watched step), events
//       (History::recordEvents), record (History::recordState); overhead_pct: the median over
//       the turns of (loop block / bare block - 1), each block of one keyframe interval of
//       timed steps (8) holding one keyframe: a turn that the machine disturbed (a preemption costs
//       a 1,000-agent step many times over) does not move it, as it moves the means;
//       overhead_mean_pct = (step + events + record - bare) / bare; history_bytes_per_agent_step,
//       keyframe_interval, keyframe_bytes_per_agent. Compare the "median" rows.
//   loop/bare/WORKLOAD/agents:N/threads:T   the bare step alone, steadily (no pauses): for the
//       scaling from one thread to two.
//       Run: build/bin/orca_bench --benchmark_filter=loop/
#include <algorithm>
#include <chrono>
#include <random>
#include <thread>

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

/// Steps of one simulator's turn in loop<>: the first is not timed, the others (the History's
/// interval at the start) hold one keyframe.
constexpr int kBlock = static_cast<int>(orca::HistoryParams{}.initialInterval) + 1;

template <bool Uniform> void loop(benchmark::State& state) {
    using Clock = std::chrono::steady_clock;
    const auto agents = static_cast<std::size_t>(state.range(0));
    const int threads = static_cast<int>(state.range(1));
    const orca::scene::Scene sc =
        Uniform ? orca::scene::uniformWorkload(agents) : orca::scene::circleWorkload(agents);
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    orca::Simulator bare = orca::scene::buildSimulator(sc);
    bare.setThreadCount(threads);
    sim.setThreadCount(threads);
    orca::History history; // the app's: default parameters, events on
    history.start(sim);
    for (int i = 0; i < 20; ++i) { // warm-up (recorded, as the app would)
        bare.step();
        sim.step();
        history.record(sim);
    }
    const auto seconds = [](Clock::time_point a, Clock::time_point b) {
        return std::chrono::duration<double>(b - a).count();
    };
    // Longer than the thread pool's idle spin (300 µs), so the other simulator's workers sleep
    // (one thread: no workers, no pause).
    const auto pause = [threads] {
        if (threads > 1) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    };
    double tBare = 0.0, tStep = 0.0, tEvents = 0.0, tRecord = 0.0;
    std::vector<double> ratios; // per turn: loop block / bare block
    int turn = 0;
    for (auto _ : state) {
        double tBareBlock = 0.0, tLoopBlock = 0.0;
        const auto bareBlock = [&] {
            pause();
            for (int i = 0; i < kBlock; ++i) {
                const auto t0 = Clock::now();
                bare.step();
                if (i > 0) tBareBlock += seconds(t0, Clock::now());
            }
        };
        const auto loopBlock = [&] {
            pause();
            for (int i = 0; i < kBlock; ++i) {
                const auto t0 = Clock::now();
                sim.step();
                const auto t1 = Clock::now();
                history.recordEvents(sim);
                const auto t2 = Clock::now();
                history.recordState(sim);
                const auto t3 = Clock::now();
                if (i == 0) continue;
                tStep += seconds(t0, t1);
                tEvents += seconds(t1, t2);
                tRecord += seconds(t2, t3);
                tLoopBlock += seconds(t0, t3);
            }
        };
        // Each side goes first in every other turn: neither always follows the other.
        if (turn++ % 2 == 0) {
            bareBlock();
            loopBlock();
        } else {
            loopBlock();
            bareBlock();
        }
        tBare += tBareBlock;
        state.SetIterationTime(tLoopBlock);
        ratios.push_back(tLoopBlock / tBareBlock);
    }
    const double agentSteps =
        static_cast<double>(agents) * static_cast<double>(state.iterations()) * (kBlock - 1);
    state.counters["bare"] = 1e9 * tBare / agentSteps;
    state.counters["step"] = 1e9 * tStep / agentSteps;
    state.counters["events"] = 1e9 * tEvents / agentSteps;
    state.counters["record"] = 1e9 * tRecord / agentSteps;
    std::nth_element(ratios.begin(),
                     ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2), ratios.end());
    state.counters["overhead_pct"] = 100.0 * (ratios[ratios.size() / 2] - 1.0);
    state.counters["overhead_mean_pct"] = 100.0 * (tStep + tEvents + tRecord - tBare) / tBare;
    state.counters["history_bytes_per_agent_step"] =
        static_cast<double>(history.bytes()) /
        (static_cast<double>(agents) *
         static_cast<double>(history.lastStep() - history.firstStep()));
    state.counters["keyframe_interval"] = history.keyframeInterval();
    state.counters["keyframe_bytes_per_agent"] =
        static_cast<double>(history.keyframeBytes()) /
        (static_cast<double>(agents) * static_cast<double>(history.keyframeCount()));
}

/// The bare step of loop<>'s workloads, stepped steadily (no pauses, no second simulator): for
/// the scaling from one thread to two.
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

void loopArgsWith(benchmark::internal::Benchmark* b, int iterations) {
    for (int agents : {1000, 10000, 100000})
        for (int threads : {1, 2})
            b->Args({agents, threads});
    // (The median over the repetitions comes with mean, median and stddev.)
    b->ArgNames({"agents", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseManualTime()
        ->Iterations(iterations)
        ->Repetitions(3)
        ->ComputeStatistics(
            "min",
            [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
        ->ReportAggregatesOnly(true);
}
/// loop<>: 21 turns of each simulator, 168 timed steps each (of the workload's steps 21-209);
/// loop/bare: 100 steps (21-120).
void loopArgs(benchmark::internal::Benchmark* b) {
    loopArgsWith(b, 21);
}
void loopBareArgs(benchmark::internal::Benchmark* b) {
    loopArgsWith(b, 100);
}

} // namespace

BENCHMARK(loop<false>)->Name("loop/circle")->Apply(loopArgs);
BENCHMARK(loop<true>)->Name("loop/uniform")->Apply(loopArgs);
BENCHMARK(loopBare<false>)->Name("loop/bare/circle")->Apply(loopBareArgs);
BENCHMARK(loopBare<true>)->Name("loop/bare/uniform")->Apply(loopBareArgs);
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
