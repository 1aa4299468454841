// Polygon checks and the obstacle segment grid (orca-spec sections 1 and 3).
#include <algorithm>
#include <cmath>
#include <cstdint>
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

TEST(CheckPolygon, CoordinatesOutOfTheExactRangeAreRefused) {
    for (double bad : {1e101, -3e150, 1e-101, 5e-324}) {
        const PolygonCheck r = checkPolygon(std::vector<Vec2>{{0.0, 0.0}, {bad, 0.0}, {1.0, 1.0}});
        EXPECT_FALSE(r.valid) << bad;
        EXPECT_NE(r.error.find("between 1e-100 and 1e100"), std::string::npos) << r.error;
    }
    EXPECT_TRUE(checkPolygon(std::vector<Vec2>{{0.0, 0.0}, {1e100, 0.0}, {0.0, 1e100}}).valid);
    EXPECT_TRUE(checkPolygon(std::vector<Vec2>{{0.0, 0.0}, {1e-100, 0.0}, {0.0, 1e-100}}).valid);
}

__extension__ typedef __int128 Int128; // GCC's 128-bit integer (-Wpedantic: an extension)

TEST(ExactOrientation, AgreesWithIntegerArithmeticOnNearlyCollinearPoints) {
    // Kettner et al.'s example: p = (0.5 + x u, 0.5 + y u), u = 2^-53, against the line from
    // (12, 12) to (24, 24). Scaled by 2^53 every coordinate is an integer below 2^58 and the
    // determinant fits in 128 bits: the exact sign to compare with. The plain floating-point
    // determinant gets many of these wrong.
    const double u = 0x1p-53;
    const Int128 scale = Int128(1) << 53;
    int wrongNaive = 0;
    for (int x = 0; x < 256; ++x) {
        for (int y = 0; y < 256; ++y) {
            const Vec2 p{0.5 + x * u, 0.5 + y * u};
            const Vec2 q{12.0, 12.0};
            const Vec2 r{24.0, 24.0};
            const Int128 px = scale / 2 + x, py = scale / 2 + y;
            const Int128 qx = 12 * scale, qy = 12 * scale, rx = 24 * scale, ry = 24 * scale;
            const Int128 exact = (qx - px) * (ry - py) - (qy - py) * (rx - px);
            const int want = (exact > 0) - (exact < 0);
            ASSERT_EQ(exactOrientation(p, q, r), want) << x << "," << y;
            ASSERT_EQ(exactOrientation(q, r, p), want) << x << "," << y; // cyclic: same sign
            ASSERT_EQ(exactOrientation(q, p, r), -want) << x << "," << y;
            const double naive = det(q - p, r - p);
            wrongNaive += ((naive > 0.0) - (naive < 0.0)) != want ? 1 : 0;
        }
    }
    EXPECT_GT(wrongNaive, 1000) << "the cases should be hard for plain floating point";

    // Random integer triples near a line, coordinates up to 2^49.
    std::mt19937_64 rng(31);
    for (int k = 0; k < 100000; ++k) {
        auto coord = [&] { return static_cast<std::int64_t>(rng() >> 15) - (1LL << 48); };
        const std::int64_t ax = coord(), ay = coord();
        const std::int64_t dx = static_cast<std::int64_t>(rng() % 4096) - 2048;
        const std::int64_t dy = static_cast<std::int64_t>(rng() % 4096) - 2048;
        const std::int64_t t = static_cast<std::int64_t>(rng() % 1000) + 1;
        const std::int64_t bx = ax + dx * 977, by = ay + dy * 977;
        const std::int64_t cx = ax + dx * t + static_cast<std::int64_t>(rng() % 3) - 1;
        const std::int64_t cy = ay + dy * t + static_cast<std::int64_t>(rng() % 3) - 1;
        const Int128 exact =
            static_cast<Int128>(bx - ax) * (cy - ay) - static_cast<Int128>(by - ay) * (cx - ax);
        const int want = (exact > 0) - (exact < 0);
        const Vec2 a{double(ax), double(ay)}, b{double(bx), double(by)}, c{double(cx), double(cy)};
        ASSERT_EQ(exactOrientation(a, b, c), want) << k;
        ASSERT_EQ(exactOrientation(b, a, c), -want) << k;
    }
}

/// The O(n²) check findSelfIntersection replaced: folds, then every pair of non-adjacent edges.
bool bruteForceIntersects(const std::vector<Vec2>& v) {
    const std::size_t n = v.size();
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = v[i], b = v[(i + 1) % n], c = v[(i + 2) % n];
        if (exactOrientation(a, b, c) == 0 && dot(b - a, c - b) < 0.0) return true;
        for (std::size_t j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue;
            if (segmentsTouch(a, b, v[j], v[(j + 1) % n])) return true;
        }
    }
    return false;
}

TEST(CheckPolygon, SweepLineFindsACrossingExactlyWhenBruteForceDoes) {
    // Random polygons on coarse lattices (vertical edges, shared x coordinates, collinear
    // runs, vertices on other edges: every degenerate case of a sweep) and star-shaped simple
    // ones with a vertex moved; the verdict must be brute force's, and a reported pair must
    // really touch (or fold).
    std::mt19937_64 rng(77);
    int invalid = 0;
    int valid = 0;
    for (int round = 0; round < 20000; ++round) {
        const std::size_t n = 3 + rng() % (round % 2 == 0 ? 8 : 40);
        std::vector<Vec2> v;
        if (round % 3 == 0) {
            // Star-shaped: angles sorted around the origin, radii on a lattice.
            std::vector<double> angles(n);
            for (double& a : angles)
                a = 6.283185307179586 * static_cast<double>(rng() % 360) / 360.0;
            std::sort(angles.begin(), angles.end());
            for (double a : angles) {
                const double r = 1.0 + static_cast<double>(rng() % 4);
                v.push_back({std::round(8.0 * r * std::cos(a)), std::round(8.0 * r * std::sin(a))});
            }
            if (rng() % 2 == 0) v[rng() % n] = {static_cast<double>(rng() % 9) - 4.0, 0.0};
        } else {
            const int side = round % 3 == 1 ? 4 : 16;
            for (std::size_t k = 0; k < n; ++k)
                v.push_back({static_cast<double>(rng() % side), static_cast<double>(rng() % side)});
        }
        // findSelfIntersection's precondition: no repeated vertex.
        std::vector<Vec2> sorted = v;
        std::sort(sorted.begin(), sorted.end(),
                  [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
        if (std::adjacent_find(sorted.begin(), sorted.end()) != sorted.end()) continue;
        const bool want = bruteForceIntersects(v);
        const auto got = findSelfIntersection(v);
        ASSERT_EQ(got.has_value(), want) << "round " << round << " n " << n;
        if (got) {
            ++invalid;
            const std::size_t i = got->first, j = got->second;
            if (got->foldBack) {
                ASSERT_EQ(j, (i + 1) % n);
            } else {
                ASSERT_LT(i, j);
                ASSERT_TRUE(segmentsTouch(v[i], v[(i + 1) % n], v[j], v[(j + 1) % n]));
                ASSERT_FALSE(j == i + 1 || (i == 0 && j == n - 1)) << "adjacent edges";
            }
        } else {
            ++valid;
        }
    }
    EXPECT_GT(valid, 500);
    EXPECT_GT(invalid, 500);
}

TEST(CheckPolygon, LargeStarPolygonIsValidatedAndACrossingInItFound) {
    // 100,000 vertices: the old pairwise check took 36 s; the sweep, a few milliseconds
    // (bench/obstacles_bench.cpp times it).
    const std::size_t n = 100000;
    std::vector<Vec2> v(n);
    for (std::size_t k = 0; k < n; ++k) {
        const double a = 6.283185307179586 * static_cast<double>(k) / static_cast<double>(n);
        const double r = k % 2 == 0 ? 1000.0 : 990.0;
        v[k] = {r * std::cos(a), r * std::sin(a)};
    }
    EXPECT_TRUE(checkPolygon(v).valid) << checkPolygon(v).error;
    v[n / 2] = {2000.0, 3.0}; // vertex n/2 (at angle pi) pulled through the far side
    const PolygonCheck bad = checkPolygon(v);
    EXPECT_FALSE(bad.valid);
    EXPECT_NE(bad.error.find("intersects edge"), std::string::npos) << bad.error;
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
            grid.query(p, range, a, da);
            bruteForce(v, p, range, b, db);
            ASSERT_EQ(a, b) << "query " << q << " cell " << cell;
            ASSERT_EQ(da, db);
        }
    }
}

// Segments on and across cell boundaries (end points at whole cells, slopes from flat to
// steep), queried from points a hair inside their range and at several cell sizes (a segment
// then passes through many cells): every segment in range is found exactly once, in order.
TEST(ObstacleGrid, GrazingQueriesOnCellBoundaries) {
    std::mt19937_64 rng(7);
    std::uniform_int_distribution<int> cellPick(-20, 20);
    std::uniform_real_distribution<double> unit(0.0, 1.0);
    const double tiny[] = {0.0, 1e-13, -1e-13, 1e-7};
    std::vector<std::vector<Vec2>> polys;
    for (int k = 0; k < 80; ++k) {
        const Vec2 a{cellPick(rng) + tiny[k % 4], cellPick(rng) * 1.0};
        // Slopes from exactly flat through 1e-9 and 1e-3 to steep and vertical.
        const double dy[] = {0.0, 1e-9, 1e-3, 0.5, 7.0, 40.0};
        const double dx = k % 7 == 0 ? 0.0 : 1.0 + 9.0 * unit(rng);
        const Vec2 b = a + Vec2(dx, dy[k % 6] == 0.0 && dx == 0.0 ? 3.0 : dy[k % 6]);
        polys.push_back({a, b});
    }
    std::vector<ObstacleVertex> v;
    buildObstacleVertices(polys, v);
    std::vector<std::uint32_t> a, b;
    std::vector<double> da, db;
    for (double cell : {0.25, 1.0, 3.0}) {
        ObstacleGrid grid;
        grid.build(v, cell);
        for (int q = 0; q < 4000; ++q) {
            // A point at distance just under (or exactly at) `range` from a random segment's
            // random point, on either side.
            const ObstacleVertex& s = v[static_cast<std::size_t>(rng() % v.size())];
            const Vec2 from = s.point + unit(rng) * (v[s.next].point - s.point);
            const double range = 0.5 + 4.0 * unit(rng);
            const double angle = 6.283185307179586 * unit(rng);
            const double reach = q % 2 == 0 ? range * (1.0 - 1e-12) : range;
            const Vec2 p = from + reach * Vec2(std::cos(angle), std::sin(angle));
            grid.query(p, range, a, da);
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
    grid.query({0.0, 0.0}, 100.0, s, d);
    EXPECT_TRUE(s.empty());
    EXPECT_TRUE(d.empty());
}

} // namespace
} // namespace orca
