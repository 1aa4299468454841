#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "orca/ui/triangulate.hpp"

using orca::Vec2;
using orca::ui::triangulatePolygon;

namespace {

// Sum of the (absolute) triangle areas and a check that every triangle is non-degenerate.
double triangulatedArea(const std::vector<Vec2>& poly, const std::vector<std::uint32_t>& tri) {
    double area = 0.0;
    for (std::size_t i = 0; i + 2 < tri.size(); i += 3) {
        const Vec2 a = poly[tri[i]];
        const Vec2 b = poly[tri[i + 1]];
        const Vec2 c = poly[tri[i + 2]];
        const double t = 0.5 * orca::det(b - a, c - a);
        EXPECT_GT(t, 0.0) << "triangle " << i / 3 << " is not counter-clockwise";
        area += std::abs(t);
    }
    return area;
}

} // namespace

TEST(Triangulate, ConvexSquare) {
    const std::vector<Vec2> sq{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    const auto tri = triangulatePolygon(sq);
    ASSERT_EQ(tri.size(), 6u);
    EXPECT_DOUBLE_EQ(triangulatedArea(sq, tri), 4.0);
}

TEST(Triangulate, ConcaveCupFromScenes) {
    // scenes/concave_obstacle.json: a U open to +x, area 16*12 - 10*12 = 72 (outer 12x16 minus
    // the 10x12 notch).
    const std::vector<Vec2> cup{{6, 8},  {-6, 8},  {-6, -8}, {6, -8},
                                {6, -6}, {-4, -6}, {-4, 6},  {6, 6}};
    const auto tri = triangulatePolygon(cup);
    ASSERT_EQ(tri.size(), 3u * 6u);
    EXPECT_NEAR(triangulatedArea(cup, tri), std::abs(orca::signedArea(cup)), 1e-12);
    EXPECT_NEAR(triangulatedArea(cup, tri), 72.0, 1e-12);
}

TEST(Triangulate, ClockwiseInputGivesSameArea) {
    std::vector<Vec2> l{{0, 0}, {0, 3}, {1, 3}, {1, 1}, {3, 1}, {3, 0}}; // clockwise L, area 5
    const auto tri = triangulatePolygon(l);
    ASSERT_EQ(tri.size(), 12u);
    EXPECT_NEAR(triangulatedArea(l, tri), 5.0, 1e-12);
}

TEST(Triangulate, CollinearVerticesAreSkipped) {
    const std::vector<Vec2> sq{{0, 0}, {1, 0}, {2, 0}, {2, 2}, {0, 2}};
    const auto tri = triangulatePolygon(sq);
    EXPECT_NEAR(triangulatedArea(sq, tri), 4.0, 1e-12);
}

TEST(Triangulate, StarShape) {
    std::vector<Vec2> star;
    for (int k = 0; k < 10; ++k) {
        const double a = M_PI / 2 + k * M_PI / 5;
        const double r = k % 2 == 0 ? 10.0 : 4.0;
        star.emplace_back(r * std::cos(a), r * std::sin(a));
    }
    const auto tri = triangulatePolygon(star);
    ASSERT_EQ(tri.size(), 3u * 8u);
    EXPECT_NEAR(triangulatedArea(star, tri), orca::signedArea(star), 1e-9);
}

TEST(Triangulate, LargeStarOutlineIsFilledExactly) {
    // 100,000 vertices (a scene's obstacle once froze the app for minutes here: every ear was
    // tested against every vertex and clipped out of an array).
    const std::size_t n = 100000;
    std::vector<Vec2> star;
    for (std::size_t k = 0; k < n; ++k) {
        const double a = 2.0 * M_PI * static_cast<double>(k) / static_cast<double>(n);
        const double r = k % 2 == 0 ? 1000.0 : 990.0;
        star.emplace_back(r * std::cos(a), r * std::sin(a));
    }
    const auto tri = triangulatePolygon(star);
    ASSERT_EQ(tri.size(), 3u * (n - 2));
    EXPECT_NEAR(triangulatedArea(star, tri), orca::signedArea(star), 1e-9 * orca::signedArea(star));
}

TEST(Triangulate, DegenerateInputs) {
    EXPECT_TRUE(triangulatePolygon(std::vector<Vec2>{}).empty());
    EXPECT_TRUE(triangulatePolygon(std::vector<Vec2>{{0, 0}, {1, 0}}).empty());
    EXPECT_TRUE(triangulatePolygon(std::vector<Vec2>{{0, 0}, {1, 0}, {2, 0}}).empty());
}
