// Roadmap router costs (roadmap.hpp) on a field of N unit boxes (a jittered grid of spacing 3,
// clearance 0.55 = 1.1 x radius 0.5): the build (N = 500 is a full visibility graph of 2,000
// nodes; 5,000 boxes = 20,000 vertices is octant-bounded), one distance field, prepare() for
// 5,000 agents, and steer() for 5,000 agents whose targets are in sight (direct) or not
// (routed). Run: build/bin/orca_bench --benchmark_filter=Roadmap
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <span>
#include <vector>

#include <benchmark/benchmark.h>

#include "orca/roadmap.hpp"

namespace {

using orca::Vec2;
using Polygons = std::vector<std::vector<Vec2>>;

constexpr double kClearance = 0.55;
constexpr double kRadius = 0.5;
constexpr std::size_t kAgents = 5000;

int sideOf(std::size_t boxes) {
    return static_cast<int>(std::ceil(std::sqrt(static_cast<double>(boxes))));
}

/// N unit boxes (counter-clockwise) around the points of a square grid of spacing 3, jittered.
Polygons boxField(std::size_t boxes) {
    std::mt19937 rng(3);
    std::uniform_real_distribution<double> jitter(-0.4, 0.4);
    const int side = sideOf(boxes);
    Polygons out;
    for (std::size_t k = 0; k < boxes; ++k) {
        const double cx = 3.0 * static_cast<double>(static_cast<int>(k) % side) + jitter(rng);
        const double cy = 3.0 * static_cast<double>(static_cast<int>(k) / side) + jitter(rng);
        out.push_back({{cx - 0.5, cy - 0.5},
                       {cx + 0.5, cy - 0.5},
                       {cx + 0.5, cy + 0.5},
                       {cx - 0.5, cy + 0.5}});
    }
    return out;
}

/// A random point of the field clear of the boxes by the agent radius (outside them: boxes lie
/// within 0.9 of their grid point, the free band between them is 1.2 wide).
Vec2 freePoint(const orca::Roadmap& rm, std::mt19937& rng, int side) {
    std::uniform_real_distribution<double> u(-2.0, 3.0 * side - 1.0);
    for (;;) {
        const Vec2 q{u(rng), u(rng)};
        const double i = std::round(q.x / 3.0);
        const double j = std::round(q.y / 3.0);
        if (std::abs(q.x - 3.0 * i) < 1.0 && std::abs(q.y - 3.0 * j) < 1.0) continue;
        if (rm.visible(q, q, kRadius)) return q;
    }
}

/// One built roadmap per field size, shared by the benchmarks.
const orca::Roadmap& roadmapFor(std::size_t boxes) {
    static std::map<std::size_t, std::unique_ptr<orca::Roadmap>> built;
    auto& slot = built[boxes];
    if (!slot) {
        slot = std::make_unique<orca::Roadmap>();
        slot->build(boxField(boxes), kClearance);
    }
    return *slot;
}

struct Agents {
    std::vector<Vec2> positions;
    std::vector<Vec2> targets;
};

/// kAgents agents; `routed`: each target is hidden from its agent (8 shared goals), else each
/// target is a visible point 1 to 3 away.
Agents agentsFor(const orca::Roadmap& rm, std::size_t boxes, bool routed) {
    std::mt19937 rng(routed ? 17u : 29u);
    const int side = sideOf(boxes);
    Agents a;
    std::vector<Vec2> goals;
    for (int k = 0; k < 8; ++k)
        goals.push_back(freePoint(rm, rng, side));
    std::uniform_real_distribution<double> angle(0.0, 6.283185307179586);
    std::uniform_real_distribution<double> dist(1.0, 3.0);
    while (a.positions.size() < kAgents) {
        const Vec2 p = freePoint(rm, rng, side);
        Vec2 t;
        if (routed) {
            t = goals[a.positions.size() % goals.size()];
            if (rm.visible(p, t, kRadius)) continue;
        } else {
            const double th = angle(rng);
            t = p + dist(rng) * Vec2(std::cos(th), std::sin(th));
            if (!rm.visible(p, t, kRadius)) continue;
        }
        a.positions.push_back(p);
        a.targets.push_back(t);
    }
    return a;
}

void build(benchmark::State& state) {
    const auto boxes = static_cast<std::size_t>(state.range(0));
    const Polygons field = boxField(boxes);
    orca::Roadmap rm;
    for (auto _ : state) {
        if (!rm.build(field, kClearance)) state.SkipWithError("build refused");
        benchmark::DoNotOptimize(rm.nodes().data());
    }
    state.counters["vertices"] = static_cast<double>(4 * boxes);
    state.counters["nodes"] = static_cast<double>(rm.nodes().size());
    state.counters["edges"] = static_cast<double>(rm.edges().size());
    state.counters["full_graph"] = rm.fullGraph() ? 1.0 : 0.0;
    state.counters["MB"] = static_cast<double>(rm.bytes()) / 1e6;
}

void field(benchmark::State& state) {
    const auto boxes = static_cast<std::size_t>(state.range(0));
    const orca::Roadmap& built = roadmapFor(boxes);
    orca::Roadmap::Limits noCache;
    noCache.maxCacheBytes = 0; // every prepare() computes its field
    orca::Roadmap rm(noCache);
    rm.build(boxField(boxes), kClearance);
    std::mt19937 rng(5);
    std::vector<Vec2> targets;
    for (int k = 0; k < 64; ++k)
        targets.push_back(freePoint(built, rng, sideOf(boxes)));
    std::size_t k = 0;
    for (auto _ : state) {
        rm.prepare(std::span<const Vec2>(&targets[k++ % targets.size()], 1));
    }
}

void prepare(benchmark::State& state) {
    const auto boxes = static_cast<std::size_t>(state.range(0));
    orca::Roadmap rm;
    rm.build(boxField(boxes), kClearance);
    const Agents a = agentsFor(roadmapFor(boxes), boxes, true);
    rm.prepare(a.targets);
    for (auto _ : state) // every field cached: the per-step cost of prepare()
        rm.prepare(a.targets);
    state.counters["fields"] = static_cast<double>(rm.cachedFields());
}

void steer(benchmark::State& state, bool routed) {
    const auto boxes = static_cast<std::size_t>(state.range(0));
    orca::Roadmap rm;
    rm.build(boxField(boxes), kClearance);
    const Agents a = agentsFor(rm, boxes, routed);
    rm.prepare(a.targets);
    std::size_t direct = 0;
    for (auto _ : state) {
        direct = 0;
        for (std::size_t i = 0; i < kAgents; ++i) {
            const orca::Roadmap::Steer s = rm.steer(a.positions[i], kRadius, a.targets[i]);
            direct += s.direct ? 1 : 0;
            benchmark::DoNotOptimize(s.point);
        }
    }
    state.counters["direct_fraction"] = static_cast<double>(direct) / static_cast<double>(kAgents);
    state.counters["ns_per_agent"] = benchmark::Counter(
        static_cast<double>(kAgents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

void steerDirect(benchmark::State& state) {
    steer(state, false);
}
void steerRouted(benchmark::State& state) {
    steer(state, true);
}

} // namespace

BENCHMARK(build)
    ->Name("Roadmap/build")
    ->Arg(50)
    ->Arg(500)
    ->Arg(5000)
    ->Arg(20000)
    ->Unit(benchmark::kMillisecond);
BENCHMARK(field)->Name("Roadmap/field")->Arg(500)->Arg(5000)->Unit(benchmark::kMillisecond);
BENCHMARK(prepare)->Name("Roadmap/prepare5000")->Arg(5000)->Unit(benchmark::kMicrosecond);
BENCHMARK(steerDirect)
    ->Name("Roadmap/steer5000/direct")
    ->Arg(500)
    ->Arg(5000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(steerRouted)
    ->Name("Roadmap/steer5000/routed")
    ->Arg(500)
    ->Arg(5000)
    ->Unit(benchmark::kMicrosecond);
