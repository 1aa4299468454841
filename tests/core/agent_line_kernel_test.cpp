// The branch-free agent-line kernel gives bit-identical results on every lane width: one lane
// (explain), SSE2 pairs and AVX2 quadruples (the step), on random inputs and on the edge cases
// (colliding, w exactly zero, the cut-off/leg boundary).
#if defined(__x86_64__)
#define ORCA_HAVE_AVX2_KERNEL 1
#endif
#include "agent_line_kernel.hpp"

#include "agent_decision.hpp"

#include <cstring>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace orca::detail {
namespace {

struct Batch {
    std::vector<double> rpx, rpy, rvx, rvy, radius, dx, dy, ux, uy;
    std::vector<std::uint8_t> lineCase;
    explicit Batch(std::size_t n)
        : rpx(n), rpy(n), rvx(n), rvy(n), radius(n), dx(n), dy(n), ux(n), uy(n), lineCase(n) {}
    AgentLineBatch view(std::size_t offset = 0) {
        return {rpx.data() + offset,     rpy.data() + offset,    rvx.data() + offset,
                rvy.data() + offset,     radius.data() + offset, dx.data() + offset,
                dy.data() + offset,      ux.data() + offset,     uy.data() + offset,
                lineCase.data() + offset};
    }
};

bool sameBits(double a, double b) {
    return std::memcmp(&a, &b, sizeof a) == 0;
}

Batch randomInputs(std::size_t n, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> u(-20.0, 20.0);
    std::uniform_real_distribution<double> r(0.1, 6.0);
    Batch b(n);
    for (std::size_t k = 0; k < n; ++k) {
        b.rpx[k] = u(rng);
        b.rpy[k] = u(rng);
        b.rvx[k] = u(rng) / 4.0;
        b.rvy[k] = u(rng) / 4.0;
        b.radius[k] = r(rng);
    }
    // Edge cases (with Δt = 0.25, τ = 1): exactly colliding with w == 0 (rv == rp/Δt),
    // exactly touching, the cut-off/leg boundary of the 3-4-5 configuration.
    b.rpx[0] = 1.0, b.rpy[0] = 0.5, b.rvx[0] = 4.0, b.rvy[0] = 2.0, b.radius[0] = 3.0;
    b.rpx[1] = 3.0, b.rpy[1] = 0.0, b.rvx[1] = 0.5, b.rvy[1] = 0.0, b.radius[1] = 3.0;
    b.rpx[2] = 5.0, b.rpy[2] = 0.0, b.rvx[2] = 3.2, b.rvy[2] = 2.4, b.radius[2] = 3.0;
    return b;
}

TEST(AgentLineKernel, AllLaneWidthsAgreeBitForBit) {
    const double invTau = 1.0;
    const double invDt = 4.0;
    for (std::uint64_t seed = 0; seed < 50; ++seed) {
        const std::size_t n = 3 + seed % 13; // odd and even sizes, tails of every length
        Batch scalar = randomInputs(n, seed);
        Batch packed = scalar;
        for (std::size_t k = 0; k < n; ++k) { // one lane at a time
            AgentLineBatch one = scalar.view(k);
            lanes::computeLines(1, one, invTau, invDt);
        }
        AgentLineBatch all = packed.view();
        lanes::computeLines(n, all, invTau, invDt); // SSE2 pairs + tail
        for (std::size_t k = 0; k < n; ++k) {
            ASSERT_TRUE(sameBits(scalar.dx[k], packed.dx[k])) << seed << "/" << k;
            ASSERT_TRUE(sameBits(scalar.dy[k], packed.dy[k]));
            ASSERT_TRUE(sameBits(scalar.ux[k], packed.ux[k]));
            ASSERT_TRUE(sameBits(scalar.uy[k], packed.uy[k]));
            ASSERT_EQ(scalar.lineCase[k], packed.lineCase[k]);
        }
#if defined(ORCA_HAVE_AVX2_KERNEL)
        if (cpuHasAvx2()) {
            Batch wide = randomInputs(n, seed);
            AgentLineBatch view = wide.view();
            computeAgentLinesAvx2(n, view, invTau, invDt);
            for (std::size_t k = 0; k < n; ++k) {
                ASSERT_TRUE(sameBits(scalar.dx[k], wide.dx[k])) << seed << "/" << k;
                ASSERT_TRUE(sameBits(scalar.dy[k], wide.dy[k]));
                ASSERT_TRUE(sameBits(scalar.ux[k], wide.ux[k]));
                ASSERT_TRUE(sameBits(scalar.uy[k], wide.uy[k]));
                ASSERT_EQ(scalar.lineCase[k], wide.lineCase[k]);
            }
        }
#endif
    }
}

// The kernel skips a projection no lane of a pair/quadruple takes: batches where every lane
// is a cut-off line (with and without the w == 0 push-apart), or every lane a leg, give the
// same bits as one lane at a time.
TEST(AgentLineKernel, HomogeneousBatchesAgreeBitForBit) {
    const double invTau = 1.0;
    const double invDt = 4.0;
    Batch source = randomInputs(4000, 99);
    Batch scalar = source;
    for (std::size_t k = 0; k < scalar.rpx.size(); ++k) {
        AgentLineBatch one = scalar.view(k);
        lanes::computeLines(1, one, invTau, invDt);
    }
    auto isCutoff = [](std::uint8_t c) {
        return c == static_cast<std::uint8_t>(LineCase::AgentColliding) ||
               c == static_cast<std::uint8_t>(LineCase::AgentCutoffCircle);
    };
    for (const bool cutoff : {true, false}) {
        std::vector<std::size_t> pick;
        for (std::size_t k = 0; k < scalar.rpx.size(); ++k) {
            if (isCutoff(scalar.lineCase[k]) == cutoff) pick.push_back(k);
        }
        ASSERT_GE(pick.size(), 30U) << cutoff;
        if (cutoff) {
            ASSERT_EQ(pick[0], 0U); // the w == 0 lane is among them
        }
        Batch group(pick.size());
        for (std::size_t j = 0; j < pick.size(); ++j) {
            group.rpx[j] = source.rpx[pick[j]];
            group.rpy[j] = source.rpy[pick[j]];
            group.rvx[j] = source.rvx[pick[j]];
            group.rvy[j] = source.rvy[pick[j]];
            group.radius[j] = source.radius[pick[j]];
        }
        auto expectSame = [&](const Batch& got, const char* path) {
            for (std::size_t j = 0; j < pick.size(); ++j) {
                const std::size_t k = pick[j];
                ASSERT_TRUE(sameBits(scalar.dx[k], got.dx[j])) << path << " " << j;
                ASSERT_TRUE(sameBits(scalar.dy[k], got.dy[j])) << path << " " << j;
                ASSERT_TRUE(sameBits(scalar.ux[k], got.ux[j])) << path << " " << j;
                ASSERT_TRUE(sameBits(scalar.uy[k], got.uy[j])) << path << " " << j;
                ASSERT_EQ(scalar.lineCase[k], got.lineCase[j]) << path << " " << j;
            }
        };
        Batch pairs = group;
        AgentLineBatch pairsView = pairs.view();
        lanes::computeLines(pick.size(), pairsView, invTau, invDt);
        expectSame(pairs, "sse2");
#if defined(ORCA_HAVE_AVX2_KERNEL)
        if (cpuHasAvx2()) {
            Batch quads = group;
            AgentLineBatch quadsView = quads.view();
            computeAgentLinesAvx2(pick.size(), quadsView, invTau, invDt);
            expectSame(quads, "avx2");
        }
#endif
    }
}

// The step's kernel gathers its inputs from the agent arrays into AVX2 registers: each lane is
// exactly the one-lane kernel on rp = p_j - p (coincident centres split by agent order),
// rv = v - v_j, R = r + r_j.
TEST(AgentLineKernel, GatheredLanesAgreeWithOneLaneBitForBit) {
#if defined(ORCA_HAVE_AVX2_KERNEL)
    if (!cpuHasAvx2()) GTEST_SKIP() << "no AVX2 on this CPU";
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> u(-30.0, 30.0);
    std::uniform_real_distribution<double> r(0.1, 3.0);
    const std::size_t agents = 64;
    std::vector<Vec2> pos(agents), vel(agents);
    std::vector<double> radius(agents);
    for (std::size_t j = 0; j < agents; ++j) {
        pos[j] = {u(rng), u(rng)};
        vel[j] = {u(rng) / 10.0, u(rng) / 10.0};
        radius[j] = r(rng);
    }
    for (std::uint32_t self = 0; self + 1 < agents; self += 7) {
        // Coincident neighbours on either side of self's index, and one nearer than the
        // squared distance resolves (split the same way).
        pos[self + 1] = pos[self];
        if (self > 0) pos[self - 1] = pos[self];
        if (self + 2 < agents) pos[self + 2] = pos[self] + Vec2(1e-200, -1e-200);
        for (std::size_t n : {1u, 3u, 4u, 9u, 16u}) {
            std::vector<std::uint32_t> index;
            for (std::size_t k = 0; k < n; ++k)
                index.push_back(static_cast<std::uint32_t>((self + 1 + k * 5) % agents));
            if (self > 0) index[n / 2] = self - 1;
            if (n > 2 && self + 2 < agents) index[n - 1] = self + 2;
            const std::size_t padded = (n + 3) & ~std::size_t{3};
            while (index.size() < padded)
                index.push_back(index.back());
            Batch got(padded);
            const AgentLineSources src{pos.data(), vel.data(), radius.data(), index.data(),
                                       self,       pos[self],  vel[self],     radius[self]};
            computeAgentLinesGatheredAvx2(padded, src, got.view(), 0.4, 4.0);
            for (std::size_t k = 0; k < n; ++k) {
                const std::uint32_t j = index[k];
                Batch one(1);
                const Vec2 rp = relativePosition(pos[j], pos[self], j, self);
                one.rpx[0] = rp.x;
                one.rpy[0] = rp.y;
                one.rvx[0] = vel[self].x - vel[j].x;
                one.rvy[0] = vel[self].y - vel[j].y;
                one.radius[0] = radius[self] + radius[j];
                lanes::computeLines(1, one.view(), 0.4, 4.0);
                ASSERT_TRUE(sameBits(one.dx[0], got.dx[k])) << self << "/" << k;
                ASSERT_TRUE(sameBits(one.dy[0], got.dy[k])) << self << "/" << k;
                ASSERT_TRUE(sameBits(one.ux[0], got.ux[k])) << self << "/" << k;
                ASSERT_TRUE(sameBits(one.uy[0], got.uy[k])) << self << "/" << k;
                ASSERT_EQ(one.lineCase[0], got.lineCase[k]) << self << "/" << k;
            }
        }
    }
#else
    GTEST_SKIP() << "not x86-64";
#endif
}

TEST(AgentLineKernel, EdgeCasesTakeTheRightBranch) {
    Batch b = randomInputs(4, 1);
    AgentLineBatch view = b.view();
    lanes::computeLines(3, view, 1.0, 4.0);
    // w == 0 while colliding: pushed straight apart, d = perp of -rp/|rp| rotated: finite.
    EXPECT_EQ(b.lineCase[0], static_cast<std::uint8_t>(LineCase::AgentColliding));
    EXPECT_TRUE(std::isfinite(b.dx[0]) && std::isfinite(b.dy[0]));
    // Exactly touching (|rp| == R) counts as colliding.
    EXPECT_EQ(b.lineCase[1], static_cast<std::uint8_t>(LineCase::AgentColliding));
    // On the cut-off/leg boundary (w.rp)^2 == R^2|w|^2: the leg (not strictly beyond).
    EXPECT_EQ(b.lineCase[2], static_cast<std::uint8_t>(LineCase::AgentLeftLeg));
}

} // namespace
} // namespace orca::detail
