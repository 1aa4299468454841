// Polygon checks and the obstacle segment grid (orca-spec sections 1 and 3).
#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "orca/obstacles.hpp"

namespace orca {
namespace {

TEST(CheckPolygon, AcceptsValidPolygonsAndReportsWinding) {
    const std::vector<Vec2> ccw{{0.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}, {0.0, 4.0}};
    PolygonCheck c = checkPolygon(ccw);
    EXPECT_TRUE(c.valid) << c.error;
    EXPECT_FALSE(c.clockwise);
    const std::vector<Vec2> cw(ccw.rbegin(), ccw.rend());
    c = checkPolygon(cw);
    EXPECT_TRUE(c.valid);
    EXPECT_TRUE(c.clockwise);
    // A segment and a concave L are fine; a vertex in the middle of an edge too.
    EXPECT_TRUE(checkPolygon(std::vector<Vec2>{{0.0, 0.0}, {1.0, 1.0}}).valid);
    EXPECT_TRUE(
        checkPolygon(std::vector<Vec2>{
                         {0.0, 0.0}, {6.0, 0.0}, {6.0, 2.0}, {2.0, 2.0}, {2.0, 6.0}, {0.0, 6.0}})
            .valid);
    EXPECT_TRUE(
        checkPolygon(std::vector<Vec2>{{0.0, 0.0}, {2.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}}).valid);
}

struct BadCase {
    std::vector<Vec2> vertices;
    const char* fragment;
};

TEST(CheckPolygon, RejectsBrokenPolygonsWithAReason) {
    const std::vector<BadCase> cases{
        {{}, "at least 2 vertices, got 0"},
        {{{1.0, 1.0}}, "at least 2 vertices, got 1"},
        {{{1.0, 1.0}, {1.0, 1.0}}, "vertices 0 and 1 are the same point"},
        {{{0.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}, {4.0, 0.0}}, "are the same point"},
        {{{0.0, 0.0}, {1.0, 1.0}, {2.0, 2.0}}, "collinear"},
        {{{0.0, 0.0}, {4.0, 4.0}, {4.0, 0.0}, {0.0, 4.0}}, "intersects edge"}, // bow tie
        {{{0.0, 0.0}, {4.0, 0.0}, {2.0, 0.0}, {2.0, 3.0}}, "fold back"},       // spike
        {{{0.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}, {2.0, 0.0}, {0.0, 4.0}},
         "intersects edge"}, // touching
        {{{0.0, 0.0}, {std::nan(""), 0.0}, {1.0, 1.0}}, "not finite"},
    };
    for (const BadCase& c : cases) {
        const PolygonCheck r = checkPolygon(c.vertices);
        EXPECT_FALSE(r.valid) << c.fragment;
        EXPECT_NE(r.error.find(c.fragment), std::string::npos) << r.error;
    }
}

// Brute-force version of the obstacle neighbour query for comparison.
void bruteForce(const std::vector<ObstacleVertex>& v, Vec2 p, double range,
                std::vector<std::uint32_t>& segs, std::vector<double>& dist) {
    segs.clear();
    dist.clear();
    std::vector<std::pair<double, std::uint32_t>> found;
    for (std::uint32_t i = 0; i < v.size(); ++i) {
        const Vec2 a = v[i].point, b = v[v[i].next].point;
        if (leftOf(a, b, p) >= 0.0) continue;
        const double d = distSqPointSegment(a, b, p);
        if (d < range * range) found.push_back({d, i});
    }
    std::sort(found.begin(), found.end());
    for (auto& [d, i] : found) {
        segs.push_back(i);
        dist.push_back(d);
    }
}

TEST(ObstacleGrid, MatchesBruteForceOnRandomObstacles) {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> pos(-200.0, 200.0);
    std::uniform_real_distribution<double> size(0.5, 30.0);
    std::vector<std::vector<Vec2>> polys;
    for (int k = 0; k < 60; ++k) {
        const Vec2 c{pos(rng), pos(rng)};
        const double w = size(rng), h = size(rng);
        if (k % 3 == 0) {
            polys.push_back({c, c + Vec2(w, h)}); // thin segment
        } else {
            polys.push_back({c, c + Vec2(w, 0.0), c + Vec2(w, h), c + Vec2(0.0, h)});
        }
    }
    std::vector<ObstacleVertex> v;
    buildObstacleVertices(polys, v);
    for (double cell : {5.0, 21.5, 400.0}) {
        ObstacleGrid grid;
        grid.build(v, cell);
        std::vector<std::uint32_t> a, b;
        std::vector<double> da, db;
        for (int q = 0; q < 2000; ++q) {
            const Vec2 p{pos(rng) * 1.2, pos(rng) * 1.2};
            const double range = 1.0 + size(rng);
            grid.query(v, p, range, a, da);
            bruteForce(v, p, range, b, db);
            ASSERT_EQ(a, b) << "query " << q << " cell " << cell;
            ASSERT_EQ(da, db);
        }
    }
}

TEST(ObstacleGrid, EmptyGridFindsNothing) {
    ObstacleGrid grid;
    std::vector<ObstacleVertex> none;
    grid.build(none, 10.0);
    std::vector<std::uint32_t> s{1, 2};
    std::vector<double> d{1.0};
    grid.query(none, {0.0, 0.0}, 100.0, s, d);
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(d.empty());
}

} // namespace
} // namespace orca
