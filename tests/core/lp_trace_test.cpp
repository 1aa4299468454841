// The LP trace (lp_trace.hpp) with hand-checked numbers: LP2 inserting lines one by one, LP1
// intervals clipped by earlier lines, LP2's failure, and LP3 with seed 002's bisector weight.
#include <cmath>
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "orca/linear_program.hpp"
#include "orca/lp_trace.hpp"

namespace orca {
namespace {

constexpr double kTol = 1e-12;
const double kSqrt2 = std::sqrt(2.0);

Line above(double c) {
    return {{0.0, c}, {1.0, 0.0}};
} // y >= c
Line below(double c) {
    return {{0.0, c}, {-1.0, 0.0}};
} // y <= c
Line rightOf(double c) {
    return {{c, 0.0}, {0.0, -1.0}};
} // x >= c
Line leftOf(double c) {
    return {{c, 0.0}, {0.0, 1.0}};
} // x <= c

// y >= 1, x <= 0.5, x + y <= 1.2, y <= 1.5 in a disk of radius 2, v_pref = (1.5, 0).
std::vector<Line> fourLines() {
    return {above(1.0), leftOf(0.5), {{0.6, 0.6}, Vec2(-1.0, 1.0) / kSqrt2}, below(1.5)};
}

TEST(LpTrace, Lp2InsertsLinesAndLp1IntervalsAreClipped) {
    const std::vector<Line> lines = fourLines();
    std::vector<Line> scratch;
    LpTrace tr;
    const SolveResult r = solveVelocity(lines, 0, 2.0, {1.5, 0.0}, 1.0, scratch, tr);
    ASSERT_FALSE(r.lp3Ran);
    EXPECT_EQ(tr.lp2.start, Vec2(1.5, 0.0));
    ASSERT_EQ(tr.lp2.steps.size(), 4u);
    EXPECT_EQ(tr.lp2.failIndex, 4u);

    // Line 0, y >= 1: (1.5, 0) violates it by 1. On the line the disk leaves t in
    // [-sqrt(3), sqrt(3)]; the projection of v_pref is t = 1.5, inside: (1.5, 1).
    const Lp2Step& s0 = tr.lp2.steps[0];
    EXPECT_FALSE(s0.held);
    EXPECT_NEAR(s0.violation, 1.0, kTol);
    EXPECT_NEAR(s0.lp1.diskLeft, -std::sqrt(3.0), kTol);
    EXPECT_NEAR(s0.lp1.diskRight, std::sqrt(3.0), kTol);
    EXPECT_TRUE(s0.lp1.clips.empty());
    EXPECT_NEAR(s0.lp1.t, 1.5, kTol);
    EXPECT_NEAR(s0.after.x, 1.5, kTol);
    EXPECT_NEAR(s0.after.y, 1.0, kTol);

    // Line 1, x <= 0.5 (q = (0.5, 0), d = (0, 1)): violated by 1. Disk: t in ±sqrt(3.75).
    // Line 0 crosses it at t = 1 and bounds it on the left: [1, sqrt(3.75)]. The projection
    // t = 0 is clamped to 1: (0.5, 1).
    const Lp2Step& s1 = tr.lp2.steps[1];
    EXPECT_FALSE(s1.held);
    EXPECT_NEAR(s1.violation, 1.0, kTol);
    EXPECT_NEAR(s1.lp1.diskRight, std::sqrt(3.75), kTol);
    ASSERT_EQ(s1.lp1.clips.size(), 1u);
    EXPECT_EQ(s1.lp1.clips[0].line, 0u);
    EXPECT_FALSE(s1.lp1.clips[0].right);
    EXPECT_NEAR(s1.lp1.clips[0].at, 1.0, kTol);
    EXPECT_NEAR(s1.lp1.tLeft, 1.0, kTol);
    EXPECT_NEAR(s1.lp1.tRight, std::sqrt(3.75), kTol);
    EXPECT_NEAR(s1.lp1.tProjected, 0.0, kTol);
    EXPECT_NEAR(s1.lp1.t, 1.0, kTol);
    EXPECT_NEAR(s1.after.x, 0.5, kTol);
    EXPECT_NEAR(s1.after.y, 1.0, kTol);

    // Line 2, x + y <= 1.2 (q = (0.6, 0.6), d = (-1, 1)/sqrt2): (0.5, 1) violates it by
    // 0.3/sqrt2. Disk: t in ±sqrt(4 - 0.72). Line 0 bounds it on the left at t = 0.4 sqrt2
    // (the point (0.2, 1)); line 1 (left bound at 0.1 sqrt2) is looser and not listed.
    // v_pref projects to t = -1.5/sqrt2, clamped to 0.4 sqrt2: (0.2, 1).
    const Lp2Step& s2 = tr.lp2.steps[2];
    EXPECT_NEAR(s2.violation, 0.3 / kSqrt2, kTol);
    EXPECT_NEAR(s2.lp1.diskLeft, -std::sqrt(3.28), kTol);
    ASSERT_EQ(s2.lp1.clips.size(), 1u);
    EXPECT_EQ(s2.lp1.clips[0].line, 0u);
    EXPECT_NEAR(s2.lp1.clips[0].at, 0.4 * kSqrt2, kTol);
    EXPECT_NEAR(s2.lp1.tProjected, -1.5 / kSqrt2, kTol);
    EXPECT_NEAR(s2.lp1.t, 0.4 * kSqrt2, kTol);
    EXPECT_NEAR(s2.after.x, 0.2, kTol);
    EXPECT_NEAR(s2.after.y, 1.0, kTol);

    // Line 3, y <= 1.5: holds (violation -0.5), nothing changes.
    const Lp2Step& s3 = tr.lp2.steps[3];
    EXPECT_TRUE(s3.held);
    EXPECT_NEAR(s3.violation, -0.5, kTol);
    EXPECT_EQ(s3.after, s2.after);

    // Result and the lines it lies on: y = 1 and x + y = 1.2.
    EXPECT_EQ(tr.result, r.velocity);
    EXPECT_EQ(tr.lp2.result, r.lp2Velocity);
    EXPECT_EQ(tr.binding, (std::vector<std::size_t>{0, 2}));
}

TEST(LpTrace, Lp2FailureRecordsTheCrossedInterval) {
    // Adding x >= 0.3 (q = (0.3, 0), d = (0, -1)) makes the program infeasible: on that line
    // line 0 (y >= 1) bounds t on the right at -1, line 1 (x <= 0.5) is parallel and harmless,
    // line 2 (x + y <= 1.2) bounds it on the left at -0.9 > -1: empty.
    std::vector<Line> lines = fourLines();
    lines.push_back(rightOf(0.3));
    Vec2 result;
    Lp2Trace tr;
    ASSERT_EQ(linearProgram2(lines, 2.0, {1.5, 0.0}, false, result, tr), 4u);
    EXPECT_EQ(tr.failIndex, 4u);
    ASSERT_EQ(tr.steps.size(), 5u);
    const Lp2Step& s = tr.steps[4];
    EXPECT_NEAR(s.violation, 0.1, kTol);
    EXPECT_EQ(s.lp1.failure, Lp1Failure::Empty);
    ASSERT_EQ(s.lp1.clips.size(), 2u);
    EXPECT_EQ(s.lp1.clips[0].line, 0u);
    EXPECT_TRUE(s.lp1.clips[0].right);
    EXPECT_NEAR(s.lp1.clips[0].at, -1.0, kTol);
    EXPECT_EQ(s.lp1.clips[1].line, 2u);
    EXPECT_FALSE(s.lp1.clips[1].right);
    EXPECT_NEAR(s.lp1.clips[1].at, -0.9, kTol);
    EXPECT_NEAR(s.lp1.tLeft, -0.9, kTol);
    EXPECT_NEAR(s.lp1.tRight, -1.0, kTol);
    EXPECT_TRUE(std::isnan(s.lp1.t));
    // The result is the optimum before the failing line.
    EXPECT_EQ(s.after, s.before);
    EXPECT_EQ(tr.result, s.before);
    Vec2 plain;
    EXPECT_EQ(linearProgram2(lines, 2.0, {1.5, 0.0}, false, plain), 4u);
    EXPECT_EQ(plain, result);
}

TEST(LpTrace, Lp1ParallelFailureAndDiskMiss) {
    // y <= 0.5 then y >= 1: parallel, opposite, and line 0 excludes all of line 1.
    const std::vector<Line> lines{below(0.5), above(1.0), above(3.0)};
    Vec2 r{0.0, 0.0};
    Lp1Trace t;
    EXPECT_FALSE(linearProgram1(lines, 1, 2.0, {0.0, 0.0}, false, r, t));
    EXPECT_EQ(t.failure, Lp1Failure::Parallel);
    ASSERT_EQ(t.clips.size(), 1u);
    EXPECT_TRUE(t.clips[0].parallel);
    EXPECT_EQ(t.clips[0].line, 0u);
    // y >= 3 misses the radius-2 disk.
    EXPECT_FALSE(linearProgram1(lines, 2, 2.0, {0.0, 0.0}, false, r, t));
    EXPECT_EQ(t.failure, Lp1Failure::Disk);
    EXPECT_TRUE(std::isnan(t.diskLeft));
}

// y >= 1 and x >= 0.5 in the unit disk: each alone touches the disk, together they do not.
// LP2: line 0 is a tangent (t = 0, result (0, 1)); line 1's interval [-sqrt(.75), sqrt(.75)]
// is cut on the right by line 0 at t = -1: empty, LP2 fails at line 1 with (0, 1).
// LP3 at line 1 (violated by 0.5): one projected line through the corner (0.5, 1) with
// direction normalize(w d_0 - d_1) = normalize(w, 1); the inner LP2 pushes along
// perp(d_1) = (1, 0) to where that line leaves the disk.
struct Lp3Case {
    double weight;
    Vec2 expected;
    double depth;
};

class LpTraceLp3 : public ::testing::TestWithParam<Lp3Case> {};

TEST_P(LpTraceLp3, ProjectedLineUsesTheBisectorWeight) {
    const Lp3Case& c = GetParam();
    const std::vector<Line> lines{above(1.0), rightOf(0.5)};
    std::vector<Line> scratch;
    LpTrace tr;
    const SolveResult r = solveVelocity(lines, 0, 1.0, {0.0, 0.0}, c.weight, scratch, tr);
    ASSERT_TRUE(r.lp3Ran);
    EXPECT_EQ(tr.lp2.failIndex, 1u);
    EXPECT_EQ(tr.lp2.steps[1].lp1.failure, Lp1Failure::Empty);
    EXPECT_NEAR(tr.lp2.result.x, 0.0, kTol);
    EXPECT_NEAR(tr.lp2.result.y, 1.0, kTol);
    EXPECT_EQ(tr.bisectorWeight, c.weight);

    ASSERT_EQ(tr.lp3.size(), 1u);
    const Lp3Step& s = tr.lp3[0];
    EXPECT_EQ(s.line, 1u);
    EXPECT_TRUE(s.rebuilt);
    EXPECT_NEAR(s.violation, 0.5, kTol);
    EXPECT_EQ(s.distanceBefore, 0.0);
    ASSERT_EQ(s.projected.size(), 1u);
    EXPECT_EQ(s.projected[0].source, 0u);
    EXPECT_FALSE(s.projected[0].obstacle);
    EXPECT_NEAR(s.projected[0].line.point.x, 0.5, kTol);
    EXPECT_NEAR(s.projected[0].line.point.y, 1.0, kTol);
    const Vec2 d = Vec2(c.weight, 1.0) / std::sqrt(c.weight * c.weight + 1.0);
    EXPECT_NEAR(s.projected[0].line.direction.x, d.x, kTol);
    EXPECT_NEAR(s.projected[0].line.direction.y, d.y, kTol);
    EXPECT_EQ(s.inner.optVelocity, Vec2(1.0, 0.0));
    EXPECT_TRUE(s.inner.directionOpt);
    ASSERT_EQ(s.inner.steps.size(), 1u);
    EXPECT_FALSE(s.inner.steps[0].held);
    EXPECT_FALSE(s.innerFailed);
    EXPECT_NEAR(s.after.x, c.expected.x, 1e-12);
    EXPECT_NEAR(s.after.y, c.expected.y, 1e-12);
    EXPECT_NEAR(s.distance, c.depth, 1e-12);
    EXPECT_EQ(tr.lp3Distance, r.lp3Depth);
    EXPECT_EQ(tr.result, r.velocity);
    // w = 1 splits the violation evenly (both lines bind); w = 2 leaves line 1 twice as
    // violated as line 0, so only line 1 binds.
    if (c.weight == 1.0)
        EXPECT_EQ(tr.binding, (std::vector<std::size_t>{0, 1}));
    else
        EXPECT_EQ(tr.binding, (std::vector<std::size_t>{1}));
}

// w = 1: t = -1.5/sqrt2 + sqrt(0.875) along (1, 1)/sqrt2 from (0.5, 1).
// w = 2: t = -2/sqrt5 + sqrt(0.55) along (2, 1)/sqrt5: (-0.3 + 2 sqrt(.11), 0.6 + sqrt(.11)).
INSTANTIATE_TEST_SUITE_P(
    Weights, LpTraceLp3,
    ::testing::Values(Lp3Case{1.0,
                              Vec2(0.5, 1.0) + (-1.5 / std::sqrt(2.0) + std::sqrt(0.875)) *
                                                   Vec2(1.0, 1.0) / std::sqrt(2.0),
                              0.5 - (0.5 +
                                     (-1.5 / std::sqrt(2.0) + std::sqrt(0.875)) / std::sqrt(2.0))},
                      Lp3Case{2.0, Vec2(-0.3 + 2.0 * std::sqrt(0.11), 0.6 + std::sqrt(0.11)),
                              0.8 - 2.0 * std::sqrt(0.11)}));

TEST(LpTrace, TracedAndPlainSolvesAgreeBitForBit) {
    const std::vector<Line> lines{above(1.0), rightOf(0.5), leftOf(0.8), below(1.1)};
    std::vector<Line> scratch;
    for (double w : {0.2, 1.0, 5.0}) {
        LpTrace tr;
        const SolveResult a = solveVelocity(lines, 1, 1.0, {-0.3, 0.2}, w, scratch, tr);
        const SolveResult b = solveVelocity(lines, 1, 1.0, {-0.3, 0.2}, w, scratch);
        EXPECT_EQ(std::memcmp(&a.velocity, &b.velocity, sizeof(Vec2)), 0);
        EXPECT_EQ(std::memcmp(&tr.result, &b.velocity, sizeof(Vec2)), 0);
        EXPECT_EQ(a.lp2Fail, b.lp2Fail);
    }
}

} // namespace
} // namespace orca
