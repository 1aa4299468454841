// The pass that finishes a watched step's flags (step_watch.hpp, addWatchFlags) gives the same
// bits on AVX2 quadruples as one agent at a time, and one agent's bits are the detector's own
// tests (slowForWatch, flipForWatch): on random velocities and on the edge cases (zero, -0,
// tiny, NaN and infinite velocities, static agents, agents at their goal, every detour mode),
// for chunks of every length and offset.
#if defined(__x86_64__)
#define ORCA_HAVE_AVX2_KERNEL 1
#endif
#include "step_watch.hpp"

#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace orca::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

struct Agents {
    std::vector<Vec2> before, after;
    std::vector<double> slowSq, tinySq;
    std::vector<std::uint8_t> detourMode, moved, flags, lastLp3;
    // What the step's thresholds were taken from.
    std::vector<double> prefSpeed, maxSpeed;
    std::vector<std::uint8_t> hasGoal, isStatic;
    double ratio = 0.3;
    double cosFlip = 0.5;

    WatchFlagArrays arrays() {
        flags = moved;
        lastLp3.assign(moved.size(), 0xee);
        return {before.data(),     after.data(), slowSq.data(), tinySq.data(),
                detourMode.data(), cosFlip,      flags.data(),  lastLp3.data()};
    }
};

Agents randomAgents(std::size_t n, std::uint64_t seed, double cosFlip) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> speed(-2.0, 2.0);
    std::uniform_int_distribution<int> pick(0, 15);
    const double special[] = {0.0, -0.0, 1e-9, -1e-9, 1e-7, kNaN, kInf, -kInf, 1e200, 1e-200};
    auto component = [&] {
        const int k = pick(rng);
        return k < 10 && pick(rng) < 3 ? special[k] : speed(rng);
    };
    Agents a;
    a.cosFlip = cosFlip;
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 u{component(), component()};
        // Often a turn of the velocity before, so that flips are common.
        const bool turn = pick(rng) < 8;
        const Vec2 v = turn ? Vec2(-u.y * 0.9 - u.x * 0.3, u.x * 0.9 - u.y * 0.3)
                            : Vec2(component(), component());
        a.before.push_back(u);
        a.after.push_back(v);
        a.prefSpeed.push_back(pick(rng) < 2 ? 0.0 : std::abs(speed(rng)) * 2.0);
        a.maxSpeed.push_back(std::abs(speed(rng)) * 3.0 + 0.01);
        a.hasGoal.push_back(pick(rng) < 12 ? 1 : 0);
        a.isStatic.push_back(pick(rng) < 2 ? 1 : 0);
        // Normal, Detouring, and bytes no mode has (one differs from Detouring in bit 7 only).
        const std::uint8_t modes[] = {0, 0, 0, 1, 1, 2, 0x81, 0xff};
        a.detourMode.push_back(modes[pick(rng) % 8]);
        // The move's bits: kLp3, kAtGoal, kWaypoint in any combination.
        a.moved.push_back(
            static_cast<std::uint8_t>(pick(rng) & (step_flag::kLp3 | step_flag::kAtGoal)) |
            (pick(rng) < 2 ? step_flag::kWaypoint : 0));
        a.slowSq.push_back(a.isStatic[i] ? -kInf
                                         : slowSpeedSq(a.hasGoal[i] != 0, a.prefSpeed[i], a.ratio));
        a.tinySq.push_back(a.isStatic[i] ? kInf : flipTinySq(a.maxSpeed[i]));
    }
    return a;
}

TEST(WatchFlags, OneAgentsBitsAreTheDetectorsTests) {
    for (const double cosFlip : {0.5, 0.0, -0.5, -2.0}) {
        Agents a = randomAgents(4000, 7, cosFlip);
        const WatchFlagArrays arrays = a.arrays();
        std::size_t flips = 0;
        std::size_t slows = 0;
        for (std::size_t i = 0; i < a.before.size(); ++i) {
            const std::uint8_t got = finishedFlags(arrays, i);
            const bool atGoal = (a.moved[i] & step_flag::kAtGoal) != 0;
            const bool moving = a.isStatic[i] == 0;
            const bool slow = moving && slowForWatch(a.hasGoal[i] != 0, atGoal, a.prefSpeed[i],
                                                     absSq(a.after[i]), a.ratio);
            const bool flip =
                moving && flipForWatch(a.before[i], a.after[i], a.maxSpeed[i], a.cosFlip);
            const bool detouring = a.detourMode[i] == 1;
            const std::uint8_t expected = static_cast<std::uint8_t>(
                a.moved[i] | (detouring ? step_flag::kDetouring : 0) |
                (slow ? step_flag::kSlow : 0) | (flip ? step_flag::kFlip : 0));
            ASSERT_EQ(got, expected) << "cosFlip " << cosFlip << " agent " << i;
            flips += flip ? 1 : 0;
            slows += slow ? 1 : 0;
        }
        if (cosFlip > -1.0) {
            EXPECT_GT(flips, 100u) << "the inputs do not test the flip";
        }
        EXPECT_GT(slows, 100u) << "the inputs do not test the slow bit";
    }
}

TEST(WatchFlags, QuadruplesGiveTheBitsOfOneAgentAtATime) {
#if defined(ORCA_HAVE_AVX2_KERNEL)
    if (!cpuHasAvx2()) GTEST_SKIP() << "this CPU has no AVX2";
    for (const double cosFlip : {0.5, 0.0, -0.5, -2.0}) {
        for (std::uint64_t seed = 1; seed <= 6; ++seed) {
            const std::size_t n = 1000 + seed; // every remainder of 4
            Agents scalar = randomAgents(n, seed, cosFlip);
            Agents wide = randomAgents(n, seed, cosFlip);
            const WatchFlagArrays s = scalar.arrays();
            const WatchFlagArrays w = wide.arrays();
            // Chunks of every length from 0 to 12 at every offset, as the move's chunks come.
            std::size_t begin = 0;
            for (std::size_t len = 0; begin < n; len = (len + 1) % 13) {
                const std::size_t end = std::min(n, begin + len);
                addWatchFlagsScalar(begin, end, s);
                addWatchFlagsAvx2(begin, end, w);
                begin = end;
            }
            for (std::size_t i = 0; i < n; ++i) {
                ASSERT_EQ(scalar.flags[i], wide.flags[i]) << "seed " << seed << " agent " << i;
                ASSERT_EQ(scalar.lastLp3[i], wide.lastLp3[i]) << "seed " << seed << " agent " << i;
                ASSERT_EQ(scalar.lastLp3[i], scalar.moved[i] & step_flag::kLp3);
            }
            // One long chunk too (the quadruples' main loop).
            Agents whole = randomAgents(n, seed, cosFlip);
            addWatchFlagsAvx2(3, n, whole.arrays());
            for (std::size_t i = 3; i < n; ++i)
                ASSERT_EQ(scalar.flags[i], whole.flags[i]) << "seed " << seed << " agent " << i;
            EXPECT_EQ(whole.flags[0], whole.moved[0]) << "outside the chunk: untouched";
            EXPECT_EQ(whole.lastLp3[0], 0xee);
        }
    }
#else
    GTEST_SKIP() << "no AVX2 build on this architecture";
#endif
}

} // namespace
} // namespace orca::detail
