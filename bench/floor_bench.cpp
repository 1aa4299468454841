// Where the floor of a circle agent-step lies: the step's unavoidable arithmetic, timed alone
// on the real data of the circle workload (10,000 agents after 20 steps), with no neighbour
// search, no grid and no bookkeeping around it. docs/performance.md sums these against the
// whole step.
//   floor/kernel  the agent-line kernel on each agent's neighbours (padded to quadruples, as
//                 the step runs it): square roots and divisions;
//   floor/solve   LP2 (and LP3 if needed) on each agent's lines, as the step solves them;
//   floor/move    v_pref toward the goal (a square root and a division), the move and the
//                 at-goal test: a stream over the agent arrays.
// Each reports ns per agent (one pass over all agents per iteration).
#if defined(__x86_64__)
#define ORCA_HAVE_AVX2_KERNEL 1
#endif
#include "agent_line_kernel.hpp"

#include <cmath>
#include <span>
#include <unordered_map>
#include <vector>

#include <benchmark/benchmark.h>

#include "orca/linear_program.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"

namespace {

struct FloorData {
    // Per agent: its lines in [lineBegin[i], lineBegin[i + 1]), padded to quadruples for the
    // kernel inputs; the solver's lines are unpadded.
    std::vector<std::size_t> kernelBegin;
    std::vector<double> rpx, rpy, rvx, rvy, radius;
    std::vector<std::size_t> lineBegin;
    std::vector<orca::Line> lines;
    std::vector<orca::Vec2> prefVelocity;
    std::vector<double> maxSpeed;
    double invTimeHorizon = 0.0;
    double invTimeStep = 0.0;
    // Agent arrays for the move.
    std::vector<orca::Vec2> pos, vel, goal;
    double prefSpeed = 1.0;
    double goalRadius = 1.0;
    double timeStep = 0.25;
};

const FloorData& circleData() {
    static const FloorData data = [] {
        FloorData d;
        const orca::scene::Scene sc = orca::scene::circleWorkload(10000);
        orca::Simulator sim = orca::scene::buildSimulator(sc);
        for (int k = 0; k < 20; ++k)
            sim.step();
        std::vector<orca::AgentId> ids;
        for (std::size_t i = 0; i < sim.agentCount(); ++i)
            ids.push_back(sim.agentIdAt(i));
        std::vector<orca::ExplainRecord> records;
        sim.step(ids, records); // the explain records describe the state before this step
        std::unordered_map<std::uint32_t, std::size_t> indexOfSlot;
        for (std::size_t i = 0; i < ids.size(); ++i)
            indexOfSlot[ids[i].slot] = i;
        const orca::AgentParams p = sim.agent(ids[0]).params;
        d.invTimeHorizon = 1.0 / p.timeHorizon;
        d.invTimeStep = 1.0 / sim.params().timeStep;
        d.prefSpeed = p.prefSpeed;
        d.goalRadius = p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
        d.timeStep = sim.params().timeStep;
        d.kernelBegin.push_back(0);
        d.lineBegin.push_back(0);
        for (const orca::ExplainRecord& r : records) {
            // Kernel inputs from the recorded pre-step state of the neighbours.
            std::size_t n = 0;
            for (const orca::ExplainAgentNeighbor& nb : r.agentNeighbors) {
                const orca::ExplainRecord& o = records[indexOfSlot.at(nb.id.slot)];
                d.rpx.push_back(o.position.x - r.position.x);
                d.rpy.push_back(o.position.y - r.position.y);
                d.rvx.push_back(r.velocity.x - o.velocity.x);
                d.rvy.push_back(r.velocity.y - o.velocity.y);
                d.radius.push_back(2.0 * p.radius);
                ++n;
            }
            for (; n % 4 != 0; ++n) {
                d.rpx.push_back(1.0);
                d.rpy.push_back(0.0);
                d.rvx.push_back(0.0);
                d.rvy.push_back(0.0);
                d.radius.push_back(0.5);
            }
            d.kernelBegin.push_back(d.rpx.size());
            for (const orca::ExplainLine& l : r.lines)
                d.lines.push_back(l.line);
            d.lineBegin.push_back(d.lines.size());
            d.prefVelocity.push_back(r.prefVelocity);
            d.maxSpeed.push_back(p.maxSpeed);
            d.pos.push_back(r.position);
            d.vel.push_back(r.newVelocity);
            d.goal.push_back(sim.agent(ids[d.pos.size() - 1]).goal);
        }
        return d;
    }();
    return data;
}

void perAgent(benchmark::State& state, std::size_t agents) {
    state.counters["ns_per_agent"] = benchmark::Counter(
        static_cast<double>(agents) * static_cast<double>(state.iterations()),
        benchmark::Counter::kIsRate | benchmark::Counter::kInvert, benchmark::Counter::kIs1000);
}

void kernelFloor(benchmark::State& state) {
    const FloorData& d = circleData();
    const std::size_t agents = d.pos.size();
    std::vector<double> dx(d.rpx.size()), dy(dx.size()), ux(dx.size()), uy(dx.size());
    std::vector<std::uint8_t> lineCase(dx.size());
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            const std::size_t b = d.kernelBegin[i];
            const orca::detail::AgentLineBatch batch{
                d.rpx.data() + b,    d.rpy.data() + b,   d.rvx.data() + b, d.rvy.data() + b,
                d.radius.data() + b, dx.data() + b,      dy.data() + b,    ux.data() + b,
                uy.data() + b,       lineCase.data() + b};
            const std::size_t n = d.kernelBegin[i + 1] - b;
            orca::detail::computeAgentLines(n, n, batch, d.invTimeHorizon, d.invTimeStep);
        }
        benchmark::DoNotOptimize(dx.data());
        benchmark::ClobberMemory();
    }
    perAgent(state, agents);
    state.counters["lines_per_agent"] =
        static_cast<double>(d.lines.size()) / static_cast<double>(agents);
}

void solveFloor(benchmark::State& state) {
    const FloorData& d = circleData();
    const std::size_t agents = d.pos.size();
    std::vector<orca::Line> scratch;
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            const std::span<const orca::Line> lines(d.lines.data() + d.lineBegin[i],
                                                    d.lineBegin[i + 1] - d.lineBegin[i]);
            const orca::SolveResult r =
                orca::solveVelocity(lines, 0, d.maxSpeed[i], d.prefVelocity[i], 1.0, scratch);
            benchmark::DoNotOptimize(r);
        }
    }
    perAgent(state, agents);
}

void moveFloor(benchmark::State& state) {
    const FloorData& d = circleData();
    const std::size_t agents = d.pos.size();
    std::vector<orca::Vec2> pos = d.pos;
    std::vector<orca::Vec2> pref(agents);
    std::vector<std::uint8_t> atGoal(agents);
    for (auto _ : state) {
        for (std::size_t i = 0; i < agents; ++i) {
            orca::Vec2 toGoal = d.goal[i] - pos[i];
            const double distSq = orca::absSq(toGoal);
            if (distSq > d.prefSpeed * d.prefSpeed) toGoal *= d.prefSpeed / std::sqrt(distSq);
            pref[i] = toGoal;
        }
        for (std::size_t i = 0; i < agents; ++i) {
            pos[i] += d.vel[i] * d.timeStep;
            atGoal[i] = orca::absSq(d.goal[i] - pos[i]) <= d.goalRadius * d.goalRadius ? 1 : 0;
        }
        benchmark::DoNotOptimize(pref.data());
        benchmark::DoNotOptimize(atGoal.data());
        benchmark::ClobberMemory();
    }
    perAgent(state, agents);
}

} // namespace

BENCHMARK(kernelFloor)
    ->Name("floor/kernel")
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(solveFloor)
    ->Name("floor/solve")
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
BENCHMARK(moveFloor)
    ->Name("floor/move")
    ->Unit(benchmark::kMicrosecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);
