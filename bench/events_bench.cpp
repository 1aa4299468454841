// Cost of event detection next to the step it watches: ns per agent-step of Simulator::step()
// alone, of step() + EventDetector::observe(), and of observe() alone (the step excluded from
// the timing), on the circle and uniform workloads at 1k and 10k agents, one thread. Same
// protocol as step_bench.cpp: 20 untimed warm-up steps (observed), then 100 consecutive steps.
// events/pileup: observe() alone on 2k and 20k motionless agents piled up at one point (2e6 and
// 2e8 overlapping pairs): the overlap-flood path, which must stay O(agents + maxOverlapPairs).
// Run: build/bin/orca_bench --benchmark_filter=events
#include <algorithm>
#include <vector>

#include <benchmark/benchmark.h>

#include "orca/events.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"

namespace {

enum class Mode { Step, StepObserve, Observe };

template <bool Uniform, Mode M> void eventsBenchmark(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    const orca::scene::Scene sc =
        Uniform ? orca::scene::uniformWorkload(agents) : orca::scene::circleWorkload(agents);
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    orca::EventDetector detector;
    std::vector<orca::Event> events;
    detector.reset(sim, events);
    for (int i = 0; i < 20; ++i) { // warm-up: buffers sized, agents moving
        sim.step();
        detector.observe(sim, events);
    }
    std::size_t count = 0;
    for (auto _ : state) {
        if constexpr (M == Mode::Observe) state.PauseTiming();
        sim.step();
        if constexpr (M == Mode::Observe) state.ResumeTiming();
        if constexpr (M != Mode::Step) {
            events.clear();
            detector.observe(sim, events);
            count += events.size();
        } else {
            benchmark::DoNotOptimize(sim.positions().data());
        }
    }
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(agents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
    if constexpr (M != Mode::Step)
        state.counters["events_per_step"] =
            static_cast<double>(count) / static_cast<double>(state.iterations());
    state.counters["tracking_bytes_per_agent"] =
        static_cast<double>(detector.bytes()) / static_cast<double>(agents);
}

void pileupBenchmark(benchmark::State& state) {
    const auto agents = static_cast<std::size_t>(state.range(0));
    orca::Simulator sim;
    for (std::size_t i = 0; i < agents; ++i) {
        orca::AgentDef d;
        d.params.maxSpeed = 0.0;   // they stay piled up
        d.params.maxNeighbors = 0; // (and the step stays cheap)
        sim.addAgent(d);
    }
    orca::EventDetector detector;
    std::vector<orca::Event> events;
    detector.reset(sim, events); // the flood begins (one Simulator::clearance())
    for (auto _ : state) {
        state.PauseTiming();
        sim.step();
        state.ResumeTiming();
        events.clear();
        detector.observe(sim, events);
    }
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(agents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
    state.counters["flooded"] = detector.flooded() ? 1.0 : 0.0;
}

void args(benchmark::internal::Benchmark* b) {
    for (int agents : {1000, 10000})
        b->Args({agents});
    b->ArgNames({"agents"})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime()
        ->Iterations(100)
        ->Repetitions(5)
        ->ComputeStatistics(
            "min", // the fastest repetition: the machine is noisy
            [](const std::vector<double>& v) { return *std::min_element(v.begin(), v.end()); })
        ->ReportAggregatesOnly(true);
}

} // namespace

BENCHMARK(eventsBenchmark<false, Mode::Step>)->Name("events/circle/step")->Apply(args);
BENCHMARK(eventsBenchmark<false, Mode::StepObserve>)
    ->Name("events/circle/step+observe")
    ->Apply(args);
BENCHMARK(eventsBenchmark<false, Mode::Observe>)->Name("events/circle/observe")->Apply(args);
BENCHMARK(eventsBenchmark<true, Mode::Step>)->Name("events/uniform/step")->Apply(args);
BENCHMARK(eventsBenchmark<true, Mode::StepObserve>)
    ->Name("events/uniform/step+observe")
    ->Apply(args);
BENCHMARK(eventsBenchmark<true, Mode::Observe>)->Name("events/uniform/observe")->Apply(args);
BENCHMARK(pileupBenchmark)
    ->Name("events/pileup/observe")
    ->Args({2000})
    ->Args({20000})
    ->ArgNames({"agents"})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime()
    ->Iterations(50)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
