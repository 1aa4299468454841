// Geometry helpers and the feasible-region polygon.
#include <cmath>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "orca/geometry.hpp"

namespace orca {
namespace {

TEST(Geometry, BasicOperations) {
    EXPECT_EQ(det({1.0, 0.0}, {0.0, 1.0}), 1.0);
    EXPECT_EQ(perp({1.0, 2.0}), Vec2(-2.0, 1.0));
    EXPECT_EQ(absSq({3.0, 4.0}), 25.0);
    EXPECT_EQ(normalize({3.0, 4.0}), Vec2(0.6, 0.8));
    EXPECT_GT(leftOf({0.0, 0.0}, {1.0, 0.0}, {0.5, 1.0}), 0.0);
    EXPECT_LT(leftOf({0.0, 0.0}, {1.0, 0.0}, {0.5, -1.0}), 0.0);
}

TEST(Geometry, DistanceToSegment) {
    EXPECT_DOUBLE_EQ(distSqPointSegment({0.0, 0.0}, {4.0, 0.0}, {2.0, 3.0}), 9.0);   // interior
    EXPECT_DOUBLE_EQ(distSqPointSegment({0.0, 0.0}, {4.0, 0.0}, {-3.0, 4.0}), 25.0); // before a
    EXPECT_DOUBLE_EQ(distSqPointSegment({0.0, 0.0}, {4.0, 0.0}, {7.0, 4.0}), 25.0);  // after b
}

TEST(Geometry, ViolationSign) {
    const Line yAtLeastOne{{0.0, 1.0}, {1.0, 0.0}};
    EXPECT_DOUBLE_EQ(violation(yAtLeastOne, {5.0, 0.0}), 1.0);
    EXPECT_DOUBLE_EQ(violation(yAtLeastOne, {5.0, 3.0}), -2.0);
}

TEST(Geometry, SignedAreaAndWinding) {
    const std::vector<Vec2> ccw{{0.0, 0.0}, {2.0, 0.0}, {2.0, 1.0}, {0.0, 1.0}};
    EXPECT_DOUBLE_EQ(signedArea(ccw), 2.0);
    const std::vector<Vec2> cw(ccw.rbegin(), ccw.rend());
    EXPECT_DOUBLE_EQ(signedArea(cw), -2.0);
}

TEST(FeasibleRegion, FullDiskWithoutLines) {
    const auto poly = feasibleRegion({}, 2.0, 64);
    ASSERT_EQ(poly.size(), 64u);
    // Inscribed regular 64-gon: area = n/2 r² sin(2π/n).
    EXPECT_NEAR(signedArea(poly), 32.0 * 4.0 * std::sin(2.0 * std::numbers::pi / 64.0), 1e-12);
    for (Vec2 p : poly)
        EXPECT_LE(length(p), 2.0 + 1e-12);
}

TEST(FeasibleRegion, SquareCutFromTheDisk) {
    // |x| <= 0.5 and |y| <= 0.5 inside a radius-2 disk: exactly the unit square.
    const std::vector<Line> lines{{{0.5, 0.0}, {0.0, 1.0}},   // x <= 0.5
                                  {{-0.5, 0.0}, {0.0, -1.0}}, // x >= -0.5
                                  {{0.0, 0.5}, {-1.0, 0.0}},  // y <= 0.5
                                  {{0.0, -0.5}, {1.0, 0.0}}}; // y >= -0.5
    const auto poly = feasibleRegion(lines, 2.0);
    ASSERT_EQ(poly.size(), 4u);
    EXPECT_NEAR(signedArea(poly), 1.0, 1e-12); // counter-clockwise, area 1
    for (Vec2 p : poly) {
        EXPECT_NEAR(std::abs(p.x), 0.5, 1e-12);
        EXPECT_NEAR(std::abs(p.y), 0.5, 1e-12);
    }
}

TEST(FeasibleRegion, HalfDisk) {
    const std::vector<Line> lines{{{0.0, 0.0}, {1.0, 0.0}}}; // y >= 0
    const auto poly = feasibleRegion(lines, 1.0, 256);
    // Half of the inscribed 256-gon.
    EXPECT_NEAR(signedArea(poly), 0.5 * 128.0 * std::sin(2.0 * std::numbers::pi / 256.0), 1e-12);
    for (Vec2 p : poly)
        EXPECT_GE(p.y, -1e-12);
}

TEST(FeasibleRegion, EmptyWhenInfeasible) {
    const std::vector<Line> lines{{{0.0, 1.0}, {1.0, 0.0}}, {{0.0, 0.5}, {-1.0, 0.0}}};
    EXPECT_TRUE(feasibleRegion(lines, 2.0).empty());
    // A line that misses the disk entirely.
    EXPECT_TRUE(feasibleRegion(std::vector<Line>{{{0.0, 3.0}, {1.0, 0.0}}}, 2.0).empty());
}

TEST(ClipPolygon, KeepsOnlyThePermittedSide) {
    const std::vector<Vec2> square{{0.0, 0.0}, {2.0, 0.0}, {2.0, 2.0}, {0.0, 2.0}};
    const auto clipped = clipPolygon(square, {{1.0, 0.0}, {0.0, 1.0}}); // x <= 1
    EXPECT_NEAR(signedArea(clipped), 2.0, 1e-12);
    for (Vec2 p : clipped)
        EXPECT_LE(p.x, 1.0 + 1e-12);
}

} // namespace
} // namespace orca
