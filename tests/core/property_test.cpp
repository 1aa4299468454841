// Properties over thousands of random configurations (agents with random parameters, some
// overlapping, static or speeding; random convex, concave and thin obstacles):
//  * every velocity is finite and |v| <= maxSpeed, positions stay finite;
//  * when LP2 succeeds, the chosen velocity satisfies every half-plane;
//  * explain() changes nothing and predicts exactly what the step applies;
//  * the result does not depend on the thread count;
//  * the LP trace replays the solve: its result is the velocity the step applies, bit for bit.
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "orca/simulator.hpp"

namespace orca {
namespace {

class RandomScene {
  public:
    explicit RandomScene(std::uint64_t seed) : m_rng(seed) {}

    double uniform(double a, double b) {
        return std::uniform_real_distribution<double>(a, b)(m_rng);
    }
    int integer(int a, int b) { return std::uniform_int_distribution<int>(a, b)(m_rng); }
    bool chance(double p) { return uniform(0.0, 1.0) < p; }
    Vec2 inBox(double half) { return {uniform(-half, half), uniform(-half, half)}; }

    Simulator build() {
        SimulationParams sp;
        sp.timeStep = uniform(0.02, 1.0);
        sp.responsibility = chance(0.7) ? 0.5 : uniform(0.05, 1.0);
        sp.lp3BisectorWeight = chance(0.7) ? 1.0 : uniform(0.1, 5.0);
        Simulator sim(sp);
        const double half = uniform(3.0, 40.0);
        const int obstacles = integer(0, 4);
        for (int o = 0; o < obstacles; ++o)
            addObstacle(sim, half);
        const int agents = integer(1, 40);
        for (int a = 0; a < agents; ++a) {
            AgentDef d;
            d.position = inBox(half);
            d.params.radius = uniform(0.1, 3.0);
            d.params.maxSpeed = chance(0.05) ? 0.0 : uniform(0.1, 5.0);
            d.params.prefSpeed = uniform(0.0, 6.0);
            d.params.neighborDist = uniform(0.0, 30.0);
            d.params.maxNeighbors = integer(0, 15);
            d.params.timeHorizon = uniform(0.05, 20.0);
            d.params.timeHorizonObst = uniform(0.05, 20.0);
            // Velocities up to twice the max speed: the solver must still return <= maxSpeed.
            d.velocity = inBox(2.0 * d.params.maxSpeed);
            const int kind = integer(0, 3);
            if (kind == 0) {
                d.hasGoal = true;
                d.goal = inBox(half);
            } else if (kind == 1) {
                d.prefVelocity = inBox(3.0);
            } else if (kind == 2 && chance(0.3)) {
                d.isStatic = true;
            }
            // Sometimes stack agents exactly on top of each other or of an existing agent.
            if (a > 0 && chance(0.05))
                d.position = sim.positions()[static_cast<std::size_t>(integer(0, a - 1))];
            sim.addAgent(d);
        }
        return sim;
    }

  private:
    void addObstacle(Simulator& sim, double half) {
        const Vec2 c = inBox(half);
        const double s = uniform(0.5, half / 2.0 + 1.0);
        std::vector<Vec2> v;
        switch (integer(0, 3)) {
        case 0:
            v = {c, c + Vec2(uniform(-s, s), uniform(-s, s))};
            break; // thin segment
        case 1:
            v = {c, c + Vec2(s, 0.0), c + Vec2(s, s), c + Vec2(0.0, s)};
            break;
        case 2:
            v = {c, c + Vec2(s, 0.2 * s), c + Vec2(0.3 * s, s)};
            break;
        default: // concave L
            v = {c,
                 c + Vec2(3 * s, 0),
                 c + Vec2(3 * s, s),
                 c + Vec2(s, s),
                 c + Vec2(s, 3 * s),
                 c + Vec2(0, 3 * s)};
        }
        if (v.size() == 2 && v[0] == v[1]) return;
        sim.addObstacle(v);
    }

    std::mt19937_64 m_rng;
};

constexpr int kScenes = 3000;
constexpr int kSteps = 4;

TEST(Properties, VelocitiesAreFiniteAndWithinMaxSpeed) {
    std::size_t lp3Seen = 0;
    std::size_t obstacleLinesSeen = 0;
    for (int seed = 0; seed < kScenes; ++seed) {
        RandomScene rs(static_cast<std::uint64_t>(seed));
        Simulator sim = rs.build();
        for (int step = 0; step < kSteps; ++step) {
            // Explain a few agents before stepping: a dry run that must change nothing.
            const std::uint64_t before = sim.stateHash();
            std::vector<AgentId> ids;
            std::vector<ExplainRecord> dry;
            for (std::size_t i = 0; i < sim.agentCount(); i += 3) {
                ids.push_back(sim.agentIdAt(i));
                dry.push_back(sim.explain(sim.agentIdAt(i)));
            }
            ASSERT_EQ(sim.stateHash(), before) << "seed " << seed;

            for (const ExplainRecord& r : dry) {
                lp3Seen += r.lp3Ran ? 1 : 0;
                obstacleLinesSeen += r.numObstacleLines;
                ASSERT_TRUE(std::isfinite(r.newVelocity.x) && std::isfinite(r.newVelocity.y))
                    << "seed " << seed;
                ASSERT_LE(length(r.newVelocity), r.params.maxSpeed * (1.0 + 1e-12))
                    << "seed " << seed;
                for (const ExplainLine& l : r.lines) {
                    ASSERT_TRUE(std::isfinite(l.line.point.x) && std::isfinite(l.line.point.y) &&
                                std::isfinite(l.line.direction.x) &&
                                std::isfinite(l.line.direction.y))
                        << "seed " << seed;
                    ASSERT_NEAR(length(l.line.direction), 1.0, 1e-9) << "seed " << seed;
                    if (!r.lp2Failed()) {
                        // LP2 succeeded: every half-plane holds (up to rounding).
                        const double scale = 1.0 + length(l.line.point) + r.params.maxSpeed;
                        ASSERT_LE(l.violation, 1e-9 * scale)
                            << "seed " << seed << " case " << toString(l.lineCase);
                    }
                }
                if (r.lp3Ran) {
                    // Obstacle lines stay hard in LP3 whenever they are jointly feasible.
                    ASSERT_GE(r.lp3Depth, 0.0);
                }
            }

            sim.step();
            for (std::size_t k = 0; k < ids.size(); ++k) {
                // The step applied exactly what explain predicted.
                ASSERT_EQ(sim.velocity(ids[k]), dry[k].newVelocity) << "seed " << seed;
            }
            for (std::size_t i = 0; i < sim.agentCount(); ++i) {
                const Vec2 v = sim.velocities()[i];
                const Vec2 p = sim.positions()[i];
                ASSERT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(p.x) &&
                            std::isfinite(p.y))
                    << "seed " << seed;
                ASSERT_LE(length(v), sim.agentParams()[i].maxSpeed * (1.0 + 1e-5))
                    << "seed " << seed;
            }
        }
    }
    // The random scenes do reach the interesting branches.
    EXPECT_GT(lp3Seen, 100u);
    EXPECT_GT(obstacleLinesSeen, 100u);
}

TEST(Properties, ThreadCountNeverChangesTheResult) {
    for (int seed = 0; seed < 300; ++seed) {
        RandomScene a(static_cast<std::uint64_t>(seed) + 100000);
        RandomScene b(static_cast<std::uint64_t>(seed) + 100000);
        Simulator one = a.build();
        Simulator many = b.build();
        many.setThreadCount(3);
        for (int s = 0; s < 6; ++s) {
            one.step();
            many.step();
        }
        ASSERT_EQ(one.stateHash(), many.stateHash()) << "seed " << seed;
    }
}

bool sameBits(Vec2 a, Vec2 b) {
    return std::bit_cast<std::uint64_t>(a.x) == std::bit_cast<std::uint64_t>(b.x) &&
           std::bit_cast<std::uint64_t>(a.y) == std::bit_cast<std::uint64_t>(b.y);
}

// The trace is internally consistent: each LP2 step starts where the previous one ended, an
// LP1 that succeeded put the optimum at q + t d (the same operations, so the same bits), and
// LP3 continues from LP2's result and ends at the unclamped velocity.
void checkTraceChain(const ExplainRecord& r, int seed) {
    const LpTrace& t = *r.lpTrace;
    Vec2 cur = t.lp2.start;
    for (const Lp2Step& s : t.lp2.steps) {
        ASSERT_TRUE(sameBits(s.before, cur)) << "seed " << seed;
        if (!s.held && s.lp1.ok()) {
            const Line& l = r.lines[s.line].line;
            ASSERT_TRUE(sameBits(s.after, l.point + s.lp1.t * l.direction)) << "seed " << seed;
            ASSERT_GE(s.lp1.t, s.lp1.tLeft);
            ASSERT_LE(s.lp1.t, s.lp1.tRight);
        }
        cur = s.after;
    }
    ASSERT_TRUE(sameBits(t.lp2.result, r.lp2Velocity)) << "seed " << seed;
    ASSERT_EQ(t.lp2.failIndex, r.lp2Fail);
    ASSERT_EQ(t.lp3.empty(), !r.lp3Ran);
    for (const Lp3Step& s : t.lp3) {
        ASSERT_TRUE(sameBits(s.before, cur)) << "seed " << seed;
        cur = s.after;
    }
    ASSERT_TRUE(sameBits(t.unclamped, cur)) << "seed " << seed;
    ASSERT_EQ(t.lp3Distance, r.lp3Depth);
}

TEST(Properties, LpTraceResultIsTheAppliedVelocityBitForBit) {
    ExplainOptions traced;
    traced.lpTrace = true;
    std::size_t traces = 0;
    std::size_t lp3Traces = 0;
    std::size_t clipsSeen = 0;
    for (int seed = 0; seed < kScenes; ++seed) {
        RandomScene rs(static_cast<std::uint64_t>(seed) + 500000);
        Simulator sim = rs.build();
        if (seed % 2) sim.setThreadCount(2);
        for (int step = 0; step < kSteps; ++step) {
            std::vector<AgentId> ids;
            for (std::size_t i = 0; i < sim.agentCount(); i += 2)
                ids.push_back(sim.agentIdAt(i));
            // Dry run with the trace, and the step's own records with the trace.
            const std::vector<ExplainRecord> dry = sim.explain(ids, traced);
            std::vector<ExplainRecord> records;
            sim.step(ids, records, traced);
            ASSERT_EQ(records.size(), ids.size());
            for (std::size_t k = 0; k < ids.size(); ++k) {
                const Vec2 applied = sim.velocity(ids[k]);
                const std::array<const ExplainRecord*, 2> both{&dry[k], &records[k]};
                for (const ExplainRecord* r : both) {
                    if (r->isStatic) {
                        ASSERT_FALSE(r->lpTrace.has_value());
                        continue;
                    }
                    ASSERT_TRUE(r->lpTrace.has_value()) << "seed " << seed;
                    ASSERT_TRUE(sameBits(r->lpTrace->result, applied))
                        << "seed " << seed << " step " << step << " agent " << k;
                    ASSERT_TRUE(sameBits(r->newVelocity, applied)) << "seed " << seed;
                    checkTraceChain(*r, seed);
                }
                if (!records[k].isStatic) {
                    ++traces;
                    lp3Traces += records[k].lp3Ran ? 1 : 0;
                    for (const Lp2Step& s : records[k].lpTrace->lp2.steps)
                        clipsSeen += s.lp1.clips.size();
                }
            }
        }
    }
    EXPECT_GT(traces, 10000u);
    EXPECT_GT(lp3Traces, 100u);
    EXPECT_GT(clipsSeen, 1000u);
}

} // namespace
} // namespace orca
