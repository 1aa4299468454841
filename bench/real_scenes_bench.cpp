// The real-scene benchmark set (workloads.hpp: hallway, concentric rings, office, forest,
// bottleneck, gathering, space; 50 to 5,000 agents, up to 5,004 obstacles, Δt 0.05): ns per
// agent-step of Simulator::step(), one and two threads, after 10 untimed warm-up steps, and the
// heap bytes per agent of building the simulator and those steps. RVO2 on the same scenes is
// timed outside the repository (docs/performance.md, "Real scenes").
#include <string>

#include <benchmark/benchmark.h>

#include "heap.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"

namespace {

void realScene(benchmark::State& state, const std::string& name) {
    const orca::scene::Scene sc = orca::scene::realSceneWorkload(name);
    const std::size_t heapBefore = orca::bench::heapInUse();
    orca::Simulator sim = orca::scene::buildSimulator(sc);
    sim.setThreadCount(static_cast<int>(state.range(0)));
    for (int i = 0; i < 10; ++i)
        sim.step();
    state.counters["bytes_per_agent"] = static_cast<double>(orca::bench::heapInUse() - heapBefore) /
                                        static_cast<double>(sc.agents.size());
    for (auto _ : state)
        sim.step();
    state.counters["ns_per_agent_step"] = benchmark::Counter(
        static_cast<double>(sc.agents.size()) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

const bool kRegistered = [] {
    for (const std::string& name : orca::scene::realSceneNames())
        benchmark::RegisterBenchmark(("RealScene/" + name).c_str(), realScene, name)
            ->Arg(1)
            ->Arg(2)
            ->Unit(benchmark::kMillisecond);
    return true;
}();

} // namespace
