// ns per agent-step of Simulator::step() on the circle and uniform workloads, 1 and 2 threads,
// plus heap bytes per agent. Each benchmark starts from the workload, runs 20 untimed warm-up
// steps (agents get up to speed; the first steps, with everyone at rest, are cheaper), then
// times 100 consecutive steps (the crowd evolves as it would in a run).
//
// Degenerate crowds (coincident, dense): 20,000 agents all at one point, or uniform in a 1 x 1
// square (neighborDist 15, so every agent sees every other), walking to goals spread around
// them. One grid cell holds them all: these time the dense-cell search (docs/core.md). Fewer
// steps (2 warm-up, 10 timed): they are the workloads that used to take seconds per step.
#include <random>

#include <benchmark/benchmark.h>

#include "heap.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"

namespace {

using orca::bench::heapInUse;

/// Times `sim.step()` on the scene with `threads` workers after `warmUpSteps` untimed steps
/// (buffers sized, agents moving); reports ns per agent-step, heap bytes per agent (simulator
/// plus warm-up growth) and the agents that fell back to LP3 in the last step.
void timeSteps(benchmark::State& state, const orca::scene::Scene& sc, int threads,
               int warmUpSteps) {
    const std::size_t agents = sc.agents.size();
    const std::size_t heapBefore = heapInUse();
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    sim.setThreadCount(threads);
    for (int i = 0; i < warmUpSteps; ++i)
        sim.step();
    const std::size_t heapAfter = heapInUse();
    for (auto _ : state)
        sim.step();
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(agents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
    state.counters["bytes_per_agent"] =
        static_cast<double>(heapAfter - heapBefore) / static_cast<double>(agents);
    state.counters["lp3_agents_last_step"] = static_cast<double>(sim.lastStepStats().lp3Agents);
}

template <bool Uniform> void stepBenchmark(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    timeSteps(state,
              Uniform ? orca::scene::uniformWorkload(agents) : orca::scene::circleWorkload(agents),
              static_cast<int>(state.range(1)), 20);
}

enum class Degenerate { Coincident, Square };

orca::scene::Scene degenerateWorkload(std::size_t agents, Degenerate kind) {
    orca::scene::Scene sc;
    sc.name = kind == Degenerate::Coincident ? "Coincident" : "Dense square";
    std::mt19937 rng(7);
    auto unit = [&rng] { return static_cast<double>(rng()) / 4294967296.0; };
    sc.agents.reserve(agents);
    for (std::size_t k = 0; k < agents; ++k) {
        orca::scene::SceneAgent a;
        a.position =
            kind == Degenerate::Coincident ? orca::Vec2(3.0, 4.0) : orca::Vec2(unit(), unit());
        a.goal = orca::Vec2(200.0 * unit() - 100.0, 200.0 * unit() - 100.0);
        sc.agents.push_back(std::move(a));
    }
    return sc;
}

template <Degenerate Kind> void degenerateBenchmark(benchmark::State& state) {
    timeSteps(state, degenerateWorkload(static_cast<std::size_t>(state.range(0)), Kind),
              static_cast<int>(state.range(1)), 2);
}

void degenerateArgs(benchmark::internal::Benchmark* b) {
    for (int threads : {1, 2})
        b->Args({20000, threads});
    b->ArgNames({"agents", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(10)
        ->Repetitions(3)
        ->ReportAggregatesOnly(true);
}

void args(benchmark::internal::Benchmark* b) {
    for (int threads : {1, 2}) {
        for (int agents : {1000, 10000, 100000})
            b->Args({agents, threads});
    }
    // A fixed number of consecutive steps per run (the crowd evolves as in a real run), and
    // the median of 3 runs against the machine's noise.
    b->ArgNames({"agents", "threads"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(100)
        ->Repetitions(3)
        ->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(stepBenchmark<false>)->Name("circle")->Apply(args);
BENCHMARK(stepBenchmark<true>)->Name("uniform")->Apply(args);
BENCHMARK(degenerateBenchmark<Degenerate::Coincident>)->Name("coincident")->Apply(degenerateArgs);
BENCHMARK(degenerateBenchmark<Degenerate::Square>)->Name("dense_square")->Apply(degenerateArgs);
