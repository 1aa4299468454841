// Detour flow field costs (issue 4): rebuilding the field from 1,000 and 10,000 static agents,
// sampling it, and a whole step of a crowd among static agents with detour on and off.
#include <cmath>
#include <random>
#include <vector>

#include <benchmark/benchmark.h>

#include "orca/detour.hpp"
#include "orca/simulator.hpp"

namespace {

/// Static agents (radius 1) on a jittered grid with spacing 4; returns their centres.
std::vector<orca::Vec2> staticLayout(std::size_t n) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> jitter(-0.8, 0.8);
    const auto side = static_cast<std::size_t>(std::ceil(std::sqrt(static_cast<double>(n))));
    std::vector<orca::Vec2> out;
    for (std::size_t k = 0; k < n; ++k)
        out.push_back({4.0 * static_cast<double>(k % side) + jitter(rng),
                       4.0 * static_cast<double>(k / side) + jitter(rng)});
    return out;
}

void fieldBuild(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const std::vector<orca::Vec2> centers = staticLayout(n);
    const std::vector<double> influence(n, 3.0); // radius 1 + 2 × radius 1 (the default)
    orca::DetourField field;
    for (auto _ : state) {
        field.build(centers, influence, 0.4); // 0.4 × radius (the default)
        benchmark::DoNotOptimize(field.cellCount());
    }
    state.counters["cells"] = static_cast<double>(field.cellCount());
    state.counters["ns_per_static_agent"] = benchmark::Counter(
        static_cast<double>(n) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

void fieldSample(benchmark::State& state) {
    const auto n = static_cast<std::size_t>(state.range(0));
    const std::vector<orca::Vec2> centers = staticLayout(n);
    const std::vector<double> influence(n, 3.0);
    orca::DetourField field;
    field.build(centers, influence, 0.4);
    std::mt19937 rng(3);
    const double extent = 4.0 * std::ceil(std::sqrt(static_cast<double>(n)));
    std::uniform_real_distribution<double> pos(0.0, extent);
    std::vector<orca::Vec2> points(4096);
    for (orca::Vec2& p : points)
        p = {pos(rng), pos(rng)};
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(field.sample(points[k++ & 4095], 1.0)); // radius 1 (default)
    }
    state.counters["ns_per_sample"] = benchmark::Counter(
        static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

/// A step of `statics` static agents and as many moving agents crossing them, detour on/off.
void stepAmongStatics(benchmark::State& state) {
    const auto statics = static_cast<std::size_t>(state.range(0));
    const bool detour = state.range(1) != 0;
    orca::SimulationParams p;
    p.detour.enabled = detour;
    p.staticResponsibility = 1.0;
    orca::Simulator sim(p);
    sim.reserveAgents(2 * statics);
    for (const orca::Vec2& c : staticLayout(statics)) {
        orca::AgentDef d;
        d.position = c;
        d.params.radius = 1.0;
        d.isStatic = true;
        sim.addAgent(d);
    }
    const double extent = 4.0 * std::ceil(std::sqrt(static_cast<double>(statics)));
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> pos(0.0, extent);
    for (std::size_t k = 0; k < statics; ++k) {
        orca::AgentDef d;
        d.position = {-10.0 - pos(rng) * 0.2, pos(rng)};
        d.params.radius = 0.5;
        d.hasGoal = true;
        d.goal = {extent + 10.0, pos(rng)};
        sim.addAgent(d);
    }
    for (int s = 0; s < 20; ++s)
        sim.step();
    for (auto _ : state)
        sim.step();
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(sim.agentCount()) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
    state.counters["detouring"] = static_cast<double>(sim.lastStepStats().detouringAgents);
}

} // namespace

BENCHMARK(fieldBuild)
    ->Name("detour/field_build")
    ->Arg(1000)
    ->Arg(10000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(fieldSample)->Name("detour/field_sample")->Arg(1000)->Arg(10000);
BENCHMARK(stepAmongStatics)
    ->Name("detour/step_among_statics")
    ->ArgNames({"statics", "detour"})
    ->Args({1000, 0})
    ->Args({1000, 1})
    ->Args({10000, 0})
    ->Args({10000, 1})
    ->Unit(benchmark::kMillisecond)
    ->Iterations(100)
    ->UseRealTime();
