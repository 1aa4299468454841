// LP1 / LP2 / LP3 with hand-checked numbers (orca-spec section 6).
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "orca/linear_program.hpp"

namespace orca {
namespace {

constexpr double kTol = 1e-12;

// y >= c : permitted side is the left of direction (1, 0).
Line above(double c) {
    return {{0.0, c}, {1.0, 0.0}};
}
// y <= c : left of (-1, 0).
Line below(double c) {
    return {{0.0, c}, {-1.0, 0.0}};
}
// x >= c : left of (0, -1).
Line rightOf(double c) {
    return {{c, 0.0}, {0.0, -1.0}};
}

TEST(LinearProgram2, NoLinesKeepsPreferredInsideDisk) {
    Vec2 r;
    EXPECT_EQ(linearProgram2({}, 2.0, {0.5, -1.0}, false, r), 0u);
    EXPECT_EQ(r, Vec2(0.5, -1.0));
}

TEST(LinearProgram2, NoLinesClampsPreferredToDisk) {
    Vec2 r;
    // (3,4) has length 5; on the radius-2 circle it is (1.2, 1.6).
    EXPECT_EQ(linearProgram2({}, 2.0, {3.0, 4.0}, false, r), 0u);
    EXPECT_NEAR(r.x, 1.2, kTol);
    EXPECT_NEAR(r.y, 1.6, kTol);
}

TEST(LinearProgram2, DirectionOptimisationGoesToTheCircle) {
    Vec2 r;
    EXPECT_EQ(linearProgram2({}, 2.0, {0.0, 1.0}, true, r), 0u);
    EXPECT_EQ(r, Vec2(0.0, 2.0));
}

TEST(LinearProgram2, OneLineProjectsPreferredVelocity) {
    const std::vector<Line> lines{above(1.0)};
    Vec2 r;
    // Preferred (0.3, 0) violates y >= 1; the closest permitted point is (0.3, 1).
    EXPECT_EQ(linearProgram2(lines, 2.0, {0.3, 0.0}, false, r), 1u);
    EXPECT_NEAR(r.x, 0.3, kTol);
    EXPECT_NEAR(r.y, 1.0, kTol);
}

TEST(LinearProgram2, SatisfiedLineChangesNothing) {
    const std::vector<Line> lines{above(-1.0)};
    Vec2 r;
    EXPECT_EQ(linearProgram2(lines, 2.0, {0.3, 0.0}, false, r), 1u);
    EXPECT_EQ(r, Vec2(0.3, 0.0));
}

TEST(LinearProgram1, ClampsToTheDiskOnTheLine) {
    // On y = 1 the radius-2 disk spans x in [-sqrt(3), sqrt(3)].
    const std::vector<Line> lines{above(1.0)};
    Vec2 r{9.0, 9.0};
    ASSERT_TRUE(linearProgram1(lines, 0, 2.0, {5.0, 1.0}, false, r));
    EXPECT_NEAR(r.x, std::sqrt(3.0), kTol);
    EXPECT_NEAR(r.y, 1.0, kTol);
    ASSERT_TRUE(linearProgram1(lines, 0, 2.0, {-5.0, 0.0}, true, r));
    EXPECT_NEAR(r.x, -std::sqrt(3.0), kTol); // direction (-1,0): the left end
}

TEST(LinearProgram1, FailsWhenTheLineMissesTheDisk) {
    const std::vector<Line> lines{above(2.5)};
    Vec2 r{7.0, 7.0};
    EXPECT_FALSE(linearProgram1(lines, 0, 2.0, {0.0, 0.0}, false, r));
    EXPECT_EQ(r, Vec2(7.0, 7.0)); // untouched
}

TEST(LinearProgram1, EarlierLineBoundsTheSegment) {
    // Line 1: y >= 1 bounded by line 0: x >= 1  ->  segment x in [1, sqrt(3)].
    const std::vector<Line> lines{rightOf(1.0), above(1.0)};
    Vec2 r;
    ASSERT_TRUE(linearProgram1(lines, 1, 2.0, {0.0, 0.0}, false, r));
    EXPECT_NEAR(r.x, 1.0, kTol);
    EXPECT_NEAR(r.y, 1.0, kTol);
}

TEST(LinearProgram1, ParallelLineExcludesOrIsIgnored) {
    Vec2 r;
    // y >= 1 after y <= 0.5: parallel, opposite, disjoint -> fail.
    EXPECT_FALSE(linearProgram1(std::vector<Line>{below(0.5), above(1.0)}, 1, 2.0, {}, false, r));
    // y >= 1 after y >= 0: parallel, same direction, line 1 inside line 0's side -> ignored.
    ASSERT_TRUE(linearProgram1(std::vector<Line>{above(0.0), above(1.0)}, 1, 2.0, {}, false, r));
    EXPECT_NEAR(r.y, 1.0, kTol);
}

TEST(LinearProgram2, TwoLinesMeetAtTheCorner) {
    const std::vector<Line> lines{above(1.0), rightOf(1.0)};
    Vec2 r;
    EXPECT_EQ(linearProgram2(lines, 2.0, {0.0, 0.0}, false, r), 2u);
    EXPECT_NEAR(r.x, 1.0, kTol);
    EXPECT_NEAR(r.y, 1.0, kTol);
}

TEST(LinearProgram2, InfeasibleReportsTheFailingLineAndKeepsThePreviousResult) {
    const std::vector<Line> lines{above(1.0), below(0.5)};
    Vec2 r;
    EXPECT_EQ(linearProgram2(lines, 2.0, {0.0, 0.0}, false, r), 1u);
    EXPECT_NEAR(r.x, 0.0, kTol);
    EXPECT_NEAR(r.y, 1.0, kTol); // optimum over line 0 alone
}

TEST(LinearProgram3, ParallelOppositeLinesMeetHalfway) {
    // y >= 1 and y <= 0.5 cannot both hold. LP3 minimises the larger violation: y = 0.75
    // violates each by 0.25. Its projected line is the midline y >= 0.75 (point
    // (0, 0.75), direction normalize(d0 - d1) = (1, 0)); pushing along perp(d1) = (0, -1)
    // with no x preference ends at the left end of the chord (opt . d = 0 -> tLeft):
    // x = -sqrt(4 - 0.75^2).
    const std::vector<Line> lines{above(1.0), below(0.5)};
    std::vector<Line> scratch;
    Vec2 r{0.0, 1.0};
    const double depth = linearProgram3(lines, 0, 1, 2.0, 1.0, r, scratch);
    EXPECT_NEAR(r.y, 0.75, kTol);
    EXPECT_NEAR(r.x, -std::sqrt(4.0 - 0.5625), kTol);
    EXPECT_NEAR(depth, 0.25, kTol);
    EXPECT_NEAR(violation(lines[0], r), 0.25, kTol);
    EXPECT_NEAR(violation(lines[1], r), 0.25, kTol);
}

TEST(LinearProgram3, ObstacleLinesStayHard) {
    // Obstacle line x >= 1 (hard); agent lines y >= 1 and y <= 0.5 conflict. The result keeps
    // x >= 1 exactly and splits the agent violation: y = 0.75.
    const std::vector<Line> lines{rightOf(1.0), above(1.0), below(0.5)};
    std::vector<Line> scratch;
    Vec2 r;
    const std::size_t fail = linearProgram2(lines, 2.0, {0.0, 0.0}, false, r);
    ASSERT_EQ(fail, 2u);
    const double depth = linearProgram3(lines, 1, fail, 2.0, 1.0, r, scratch);
    EXPECT_GE(r.x, 1.0 - kTol);
    EXPECT_NEAR(r.y, 0.75, kTol);
    EXPECT_NEAR(depth, 0.25, kTol);
}

TEST(LinearProgram3, ThreeOutwardHalfPlanesGiveTheIncentre) {
    // The outward half-planes of an equilateral triangle (inradius 0.5, centred on the origin)
    // have no common point. Each is n.x >= 0.5 for an outward normal n at 90, 210, 330
    // degrees, i.e. a line through 0.5 n with direction (n.y, -n.x). The least-violation
    // point is the incentre (the origin), violating each line by the inradius 0.5.
    std::vector<Line> lines;
    for (double deg : {90.0, 210.0, 330.0}) {
        const double a = deg * 3.14159265358979323846 / 180.0;
        const Vec2 n{std::cos(a), std::sin(a)};
        lines.push_back({0.5 * n, {n.y, -n.x}});
    }
    std::vector<Line> scratch;
    Vec2 r;
    const std::size_t fail = linearProgram2(lines, 2.0, {0.0, 0.0}, false, r);
    ASSERT_LT(fail, lines.size());
    const double depth = linearProgram3(lines, 0, fail, 2.0, 1.0, r, scratch);
    EXPECT_NEAR(r.x, 0.0, 1e-9);
    EXPECT_NEAR(r.y, 0.0, 1e-9);
    EXPECT_NEAR(depth, 0.5, 1e-9);
    for (const Line& l : lines)
        EXPECT_NEAR(violation(l, r), 0.5, 1e-9);
}

TEST(LinearProgram3, BisectorWeightTiltsTheProjectedLine) {
    // With a weight w != 1 the projected direction is normalize(w*d_j - d_i); for opposite
    // parallel lines it is still (1,0) (the weight only scales), so the result is unchanged.
    const std::vector<Line> lines{above(1.0), below(0.5)};
    std::vector<Line> scratch;
    Vec2 r1{0.0, 1.0};
    Vec2 r2{0.0, 1.0};
    linearProgram3(lines, 0, 1, 2.0, 1.0, r1, scratch);
    linearProgram3(lines, 0, 1, 2.0, 3.0, r2, scratch);
    EXPECT_NEAR(r1.y, r2.y, kTol);
    // Non-parallel: y >= 1 and x <= -1.9 and y <= -1 ... weight changes the answer.
    const std::vector<Line> tilted{above(1.0), {{0.0, -1.0}, {-0.6, -0.8}}};
    Vec2 a;
    Vec2 b;
    ASSERT_LT(linearProgram2(tilted, 1.0, {0.0, 0.0}, false, a), tilted.size());
    b = a;
    linearProgram3(tilted, 0, 1, 1.0, 1.0, a, scratch);
    linearProgram3(tilted, 0, 1, 1.0, 0.2, b, scratch);
    EXPECT_GT(length(a - b), 1e-3);
}

TEST(SolveVelocity, NeverExceedsTheDiskOnNearParallelLines) {
    // Near-parallel lines far from the origin: RVO2's float LP1 (dot^2 + r^2 - |q|^2)
    // cancels catastrophically here. Ours must stay inside the disk, always.
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> angle(-3.14159, 3.14159);
    std::uniform_real_distribution<double> tiny(-1e-6, 1e-6);
    std::uniform_real_distribution<double> off(-3.0, 3.0);
    std::uniform_real_distribution<double> far(-1e4, 1e4);
    std::vector<Line> scratch;
    int lp3Runs = 0;
    for (int trial = 0; trial < 20000; ++trial) {
        const double radius = 2.0;
        const double a = angle(rng);
        std::vector<Line> lines;
        const int n = 2 + trial % 5;
        for (int k = 0; k < n; ++k) {
            const double ak = a + tiny(rng) + (k % 2 ? 3.14159265358979 : 0.0);
            const Vec2 d{std::cos(ak), std::sin(ak)};
            // Point on the line: within ~radius of the origin sideways, far along the line.
            const Vec2 q = perp(d) * off(rng) + d * far(rng);
            lines.push_back({q, d});
        }
        const SolveResult r = solveVelocity(lines, 0, radius, {off(rng), off(rng)}, 1.0, scratch);
        lp3Runs += r.lp3Ran ? 1 : 0;
        ASSERT_TRUE(std::isfinite(r.velocity.x) && std::isfinite(r.velocity.y));
        ASSERT_LE(length(r.velocity), radius) << "trial " << trial;
    }
    EXPECT_GT(lp3Runs, 1000); // the test does exercise LP3
}

TEST(ClampToDisk, NeverLeavesTheDisk) {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1e3, 1e3);
    for (int i = 0; i < 100000; ++i) {
        const double radius = std::abs(u(rng)) / 100.0 + 1e-3;
        const Vec2 v = clampToDisk({u(rng), u(rng)}, radius);
        ASSERT_LE(length(v), radius);
    }
    EXPECT_EQ(clampToDisk({3.0, 4.0}, 0.0), Vec2(0.0, 0.0));
}

} // namespace
} // namespace orca
