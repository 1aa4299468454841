// Obstacle ORCA lines (orca-spec section 4): every branch with hand-checked numbers.
//
// Fixtures:
//  * Wall: the thin segment (-5, 2) -> (5, 2) (a 2-vertex obstacle: two directed segments).
//    An agent below it (y < 2) sees segment 0 (direction (1, 0)) from its right.
//  * Square (0,0), (4,0), (4,4), (0,4), counter-clockwise.
//  * L shape (0,0), (6,0), (6,2), (2,2), (2,6), (0,6): vertex 3 = (2, 2) is concave.
// Agent radius 1 and τo = 1 unless stated, so the cut-off centres are the vertices relative
// to the agent and the cut-off radius is 1.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "orca/obstacles.hpp"
#include "orca/orca_lines.hpp"

namespace orca {
namespace {

constexpr double kTol = 1e-12;

void expectVec(Vec2 actual, Vec2 expected, double tol = kTol) {
    EXPECT_NEAR(actual.x, expected.x, tol);
    EXPECT_NEAR(actual.y, expected.y, tol);
}

struct Fixture {
    std::vector<ObstacleVertex> vertices;
    explicit Fixture(std::vector<std::vector<Vec2>> polys) {
        buildObstacleVertices(polys, vertices);
    }

    struct Out {
        std::vector<Line> lines;
        std::vector<ObstacleLineRecord> records;
    };
    Out run(std::vector<std::uint32_t> segments, Vec2 p, Vec2 v, double r = 1.0,
            double invTau = 1.0) const {
        Out out;
        std::vector<double> dist(segments.size(), 0.0);
        obstacleOrcaLines(vertices, segments, dist, p, v, r, invTau, out.lines, &out.records);
        return out;
    }
};

const std::vector<Vec2> kWall{{-5.0, 2.0}, {5.0, 2.0}};
const std::vector<Vec2> kSquare{{0.0, 0.0}, {4.0, 0.0}, {4.0, 4.0}, {0.0, 4.0}};
const std::vector<Vec2> kL{{0.0, 0.0}, {6.0, 0.0}, {6.0, 2.0}, {2.0, 2.0}, {2.0, 6.0}, {0.0, 6.0}};

// Leg formulas of the spec, written out independently for the expectations.
Vec2 leftLeg(Vec2 rp, double r) {
    const double d = absSq(rp), l = std::sqrt(d - r * r);
    return Vec2(rp.x * l - rp.y * r, rp.x * r + rp.y * l) / d;
}
Vec2 rightLeg(Vec2 rp, double r) {
    const double d = absSq(rp), l = std::sqrt(d - r * r);
    return Vec2(rp.x * l + rp.y * r, -rp.x * r + rp.y * l) / d;
}

TEST(ObstacleVertices, LinksAndConvexity) {
    const Fixture f({kWall, kL});
    ASSERT_EQ(f.vertices.size(), 8u);
    // Thin segment: both vertices convex, linked to each other, opposite directions.
    EXPECT_TRUE(f.vertices[0].convex);
    EXPECT_TRUE(f.vertices[1].convex);
    EXPECT_EQ(f.vertices[0].next, 1u);
    EXPECT_EQ(f.vertices[1].next, 0u);
    expectVec(f.vertices[0].unitDir, {1.0, 0.0});
    expectVec(f.vertices[1].unitDir, {-1.0, 0.0});
    // L: only (2, 2) is concave; links wrap within the polygon.
    for (std::uint32_t k = 0; k < 6; ++k)
        EXPECT_EQ(f.vertices[2 + k].convex, k != 3) << k;
    EXPECT_EQ(f.vertices[2].prev, 7u);
    EXPECT_EQ(f.vertices[7].next, 2u);
    EXPECT_EQ(f.vertices[5].obstacle, 1u);
    EXPECT_EQ(f.vertices[5].localIndex, 3u);
}

TEST(ObstacleLines, CutoffLine) {
    // Agent at the origin heading up at the wall 2 away: v = (0, 3). t = 0.5 (middle of the
    // cut-off segment), both legs project behind their cut-off centres -> cut-off line:
    // d = -unitDir = (-1, 0), q = cL + r/τo perp(d) = (-5, 2) + (0, -1) = (-5, 1): y <= 1.
    const Fixture f({kWall});
    const auto out = f.run({0}, {0.0, 0.0}, {0.0, 3.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCutoffLine);
    expectVec(out.lines[0].direction, {-1.0, 0.0});
    expectVec(out.lines[0].point, {-5.0, 1.0});
    EXPECT_GT(violation(out.lines[0], {0.0, 1.1}), 0.0);
    EXPECT_LE(violation(out.lines[0], {0.0, 0.9}), 0.0);
    // The record carries the VO: legs from each vertex, cut-off centres at the vertices.
    const VelocityObstacle& vo = out.records[0].vo;
    expectVec(vo.leftLeg, leftLeg({-5.0, 2.0}, 1.0));
    expectVec(vo.rightLeg, rightLeg({5.0, 2.0}, 1.0));
    expectVec(vo.cutoffCenter, {-5.0, 2.0});
    expectVec(vo.cutoffCenter2, {5.0, 2.0});
    EXPECT_NEAR(vo.cutoffRadius, 1.0, kTol);
}

TEST(ObstacleLines, CutoffLineScalesWithTimeHorizon) {
    // τo = 2: cut-off segment at half the distance; line y <= 2/2 - 1/2 = 0.5.
    const Fixture f({kWall});
    const auto out = f.run({0}, {0.0, 0.0}, {0.0, 3.0}, 1.0, 0.5);
    ASSERT_EQ(out.lines.size(), 1u);
    expectVec(out.lines[0].point, {-2.5, 0.5});
}

TEST(ObstacleLines, LeftCutoffCircle) {
    // v - cL = (-0.1, -1): t = -0.01 < 0 and tL = (v - cL).leftLeg < 0 -> left cut-off
    // circle: ŵ = normalize(v - cL), d = (ŵ.y, -ŵ.x), q = cL + r/τo ŵ.
    const Fixture f({kWall});
    const Vec2 v{-5.1, 1.0};
    const auto out = f.run({0}, {0.0, 0.0}, v);
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleLeftCutoffCircle);
    const Vec2 w = Vec2(-0.1, -1.0) / std::sqrt(1.01);
    expectVec(out.lines[0].direction, {w.y, -w.x});
    expectVec(out.lines[0].point, Vec2(-5.0, 2.0) + w);
}

TEST(ObstacleLines, RightCutoffCircle) {
    const Fixture f({kWall});
    const Vec2 v{5.1, 1.0}; // v - cR = (0.1, -1): t > 1, tR < 0
    const auto out = f.run({0}, {0.0, 0.0}, v);
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleRightCutoffCircle);
    const Vec2 w = Vec2(0.1, -1.0) / std::sqrt(1.01);
    expectVec(out.lines[0].direction, {w.y, -w.x});
    expectVec(out.lines[0].point, Vec2(5.0, 2.0) + w);
}

TEST(ObstacleLines, LeftLeg) {
    // v = (-10, 3): t < 0 but tL > 0 (no circle); the right leg projects behind cR and the
    // cut-off line is out of range, so the left leg is nearest: d = leftLeg,
    // q = cL + r/τo perp(d).
    const Fixture f({kWall});
    const auto out = f.run({0}, {0.0, 0.0}, {-10.0, 3.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleLeftLeg);
    const Vec2 d = leftLeg({-5.0, 2.0}, 1.0);
    expectVec(out.lines[0].direction, d);
    expectVec(out.lines[0].point, Vec2(-5.0, 2.0) + perp(d));
}

TEST(ObstacleLines, RightLeg) {
    const Fixture f({kWall});
    const auto out = f.run({0}, {0.0, 0.0}, {10.0, 3.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleRightLeg);
    const Vec2 d = -rightLeg({5.0, 2.0}, 1.0);
    expectVec(out.lines[0].direction, d);
    expectVec(out.lines[0].point, Vec2(5.0, 2.0) + perp(d));
}

TEST(ObstacleLines, AlreadyCovered) {
    // The near wall's line y <= 1 already keeps the agent 1 away (r/τo) from a second wall
    // (-3, 5) -> (3, 5): det(rp/τo - q, d) - r/τo = 4 - 1 = 3 >= 0 for both endpoints.
    const Fixture f({kWall, {{-3.0, 5.0}, {3.0, 5.0}}});
    const auto out = f.run({0, 2}, {0.0, 0.0}, {0.0, 3.0});
    ASSERT_EQ(out.lines.size(), 1u);
    ASSERT_EQ(out.records.size(), 2u);
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::Line);
    EXPECT_EQ(out.records[1].outcome, ObstacleOutcome::AlreadyCovered);
}

TEST(ObstacleLines, NotCoveredWhenCloserThanTheExistingLine) {
    // A second wall (-3, 1.9) -> (3, 1.9), listed after the first: its endpoints are only 0.9
    // inside the line y <= 1, less than r/τo = 1 (0.9 - 1 = -0.1 < -EPS): not covered, so
    // it gets a line of its own.
    const Fixture f({kWall, {{-3.0, 1.9}, {3.0, 1.9}}});
    const auto out = f.run({0, 2}, {0.0, 0.0}, {0.0, 3.0});
    EXPECT_EQ(out.records[1].outcome, ObstacleOutcome::Line);
    EXPECT_EQ(out.lines.size(), 2u);
}

TEST(ObstacleLines, CollidingWithSegment) {
    // Agent at (0, 1.5), radius 1: 0.5 from the wall's interior (s = 0.5). The line passes
    // through the origin with d = -unitDir = (-1, 0): no velocity toward the wall (vy <= 0).
    const Fixture f({kWall});
    const auto out = f.run({0}, {0.0, 1.5}, {0.0, 1.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCollidingSegment);
    expectVec(out.lines[0].point, {0.0, 0.0});
    expectVec(out.lines[0].direction, {-1.0, 0.0});
    EXPECT_FALSE(out.records[0].hasVo);
}

TEST(ObstacleLines, CollidingWithLeftVertex) {
    // Agent at (-5.6, 1.5): rp1 = (0.6, 0.5), |rp1|² = 0.61 <= 1, s = -0.06 < 0.
    // d = normalize(perp(rp1)) = (-0.5, 0.6)/sqrt(0.61): velocities away from the vertex.
    const Fixture f({kWall});
    const auto out = f.run({0}, {-5.6, 1.5}, {0.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCollidingLeftVertex);
    expectVec(out.lines[0].direction, Vec2(-0.5, 0.6) / std::sqrt(0.61));
    expectVec(out.lines[0].point, {0.0, 0.0});
    EXPECT_LE(violation(out.lines[0], {-0.6, -0.5}), 0.0); // straight away: permitted
    EXPECT_GT(violation(out.lines[0], {0.6, 0.5}), 0.0);   // into the vertex: forbidden
}

TEST(ObstacleLines, CollidingWithRightVertex) {
    // Agent at (5.6, 1.5): rp2 = (-0.6, 0.5), s = 1.06 > 1; the thin wall's far vertex is
    // convex and det(rp2, unitDir2 = (-1, 0)) = 0.5 >= 0 -> line d = normalize(perp(rp2)).
    const Fixture f({kWall});
    const auto out = f.run({0}, {5.6, 1.5}, {0.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCollidingRightVertex);
    expectVec(out.lines[0].direction, Vec2(-0.5, -0.6) / std::sqrt(0.61));
}

TEST(ObstacleLines, CollidingRightVertexLeftToTheNextSegment) {
    // Square corner (4, 0), agent at (4.5, -0.3): for segment 0, s = 1.125 and |rp2|² = 0.34,
    // but det(rp2, unitDir (0, 1)) = -0.5 < 0: segment 1 handles it (as its left vertex).
    const Fixture f({kSquare});
    const auto out = f.run({0, 1}, {4.5, -0.3}, {0.0, 0.0});
    ASSERT_EQ(out.records.size(), 2u);
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::CollidingVertexOfNextSegment);
    EXPECT_EQ(out.records[1].outcome, ObstacleOutcome::Line);
    EXPECT_EQ(out.records[1].lineCase, LineCase::ObstacleCollidingLeftVertex);
    expectVec(out.lines[0].direction, normalize(perp(Vec2(-0.5, 0.3))));
}

TEST(ObstacleLines, CollidingWithConcaveVertexIsIgnored) {
    // L, segment 3 starts at the concave vertex (2, 2). Agent at (2.5, 1.8): rp1 = (-0.5, 0.2),
    // s = -0.05 < 0, |rp1|² = 0.29 <= 1 -> ignored (the neighbouring segment handles it).
    const Fixture f({kL});
    const auto out = f.run({3}, {2.5, 1.8}, {0.0, 0.0});
    EXPECT_TRUE(out.lines.empty());
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::CollidingConcaveVertex);
}

TEST(ObstacleLines, ObliqueViewOfLeftVertex) {
    // Agent at (-8, 1.5) looks along the wall: s = -0.3 < 0 and the wall's line is 0.5 away
    // (<= r): both legs come from the left vertex, rp1 = (3, 0.5). With v = 0 both legs
    // project behind the vertex -> left cut-off circle around cL = rp1.
    const Fixture f({kWall});
    const auto out = f.run({0}, {-8.0, 1.5}, {0.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleLeftCutoffCircle);
    const VelocityObstacle& vo = out.records[0].vo;
    expectVec(vo.leftLeg, leftLeg({3.0, 0.5}, 1.0));
    expectVec(vo.rightLeg, rightLeg({3.0, 0.5}, 1.0));
    expectVec(vo.cutoffCenter, vo.cutoffCenter2); // a single vertex
    const Vec2 w = normalize(Vec2(-3.0, -0.5));
    expectVec(out.lines[0].direction, {w.y, -w.x});
    expectVec(out.lines[0].point, Vec2(3.0, 0.5) + w);
}

TEST(ObstacleLines, ObliqueViewOfRightVertex) {
    const Fixture f({kWall});
    const auto out = f.run({0}, {8.0, 1.5}, {0.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    const VelocityObstacle& vo = out.records[0].vo;
    expectVec(vo.leftLeg, leftLeg({-3.0, 0.5}, 1.0));
    expectVec(vo.rightLeg, rightLeg({-3.0, 0.5}, 1.0));
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleLeftCutoffCircle);
}

TEST(ObstacleLines, ObliqueViewPastConcaveVertexIsSkipped) {
    // L segment 3 from the concave (2, 2), agent at (2.5, 0.5): s = -0.375, line 0.5 away.
    const Fixture f({kL});
    const auto out = f.run({3}, {2.5, 0.5}, {0.0, 0.0});
    EXPECT_TRUE(out.lines.empty());
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::ObliqueConcaveVertex);
}

TEST(ObstacleLines, ConcaveLeftVertexExtendsTheCutoffLine) {
    // L segment 3 (2,2)->(2,6), agent at (4, 4) moving left at 1: s = 0.5, 2 away.
    // The left vertex is concave, so the left leg is -unitDir = (0, -1) (it extends the
    // cut-off line); the right vertex (2, 6) is convex. v projects on the cut-off line:
    // d = (0, -1), q = cL + perp(d) = (-2, -2) + (1, 0): vx >= -1.
    const Fixture f({kL});
    const auto out = f.run({3}, {4.0, 4.0}, {-1.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCutoffLine);
    expectVec(out.records[0].vo.leftLeg, {0.0, -1.0});
    expectVec(out.records[0].vo.rightLeg, rightLeg({-2.0, 2.0}, 1.0));
    expectVec(out.lines[0].direction, {0.0, -1.0});
    expectVec(out.lines[0].point, {-1.0, -2.0});
}

TEST(ObstacleLines, ConcaveRightVertexExtendsTheCutoffLine) {
    // L segment 2 (6,2)->(2,2) ends at the concave vertex: right leg = unitDir = (-1, 0).
    const Fixture f({kL});
    const auto out = f.run({2}, {4.0, 4.0}, {0.0, -1.0});
    ASSERT_EQ(out.records.size(), 1u);
    expectVec(out.records[0].vo.rightLeg, {-1.0, 0.0});
    EXPECT_FALSE(out.records[0].rightLegForeign);
}

TEST(ObstacleLines, ForeignLeftLegGivesNoConstraint) {
    // Square, agent at (-3, -1), radius 0.5, seeing segment 0 (0,0)->(4,0). The tangent from
    // the agent to vertex (0, 0), leftLeg(rp1 = (3, 1)), would point into the left edge
    // (det(leftLeg, -prev.unitDir = (0, 1)) >= 0), so the leg becomes (0, 1) and is foreign.
    // v = (2, 3) projects on that foreign leg -> no line.
    const Fixture f({kSquare});
    const auto out = f.run({0}, {-3.0, -1.0}, {2.0, 3.0}, 0.5);
    ASSERT_EQ(out.records.size(), 1u);
    EXPECT_TRUE(out.records[0].leftLegForeign);
    expectVec(out.records[0].vo.leftLeg, {0.0, 1.0});
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::ForeignLeftLeg);
    EXPECT_TRUE(out.lines.empty());
}

TEST(ObstacleLines, ForeignRightLegGivesNoConstraint) {
    // Mirror image at the other corner: agent at (7, -1); rightLeg from rp2 = (-3, 1) points
    // into the right edge, becomes unitDir of (4,0) = (0, 1), foreign; v = (-2, 3) projects
    // on it.
    const Fixture f({kSquare});
    const auto out = f.run({0}, {7.0, -1.0}, {-2.0, 3.0}, 0.5);
    ASSERT_EQ(out.records.size(), 1u);
    EXPECT_TRUE(out.records[0].rightLegForeign);
    expectVec(out.records[0].vo.rightLeg, {0.0, 1.0});
    EXPECT_EQ(out.records[0].outcome, ObstacleOutcome::ForeignRightLeg);
    EXPECT_TRUE(out.lines.empty());
}

TEST(ObstacleLines, ForeignLegStillAllowsACutoffLine) {
    // Same agent as ForeignLeftLeg, v = (3.5, 0.9): t = ((0.5, -0.1).(4, 0))/16 = 0.125 and
    // tL = (v - cL).(0, 1) = -0.1 < 0, so the cut-off line is nearest (distance² 0.01):
    // d = (-1, 0), q = cL + r/τo perp(d) = (3, 1) + 0.5 (0, -1).
    const Fixture f({kSquare});
    const auto out = f.run({0}, {-3.0, -1.0}, {3.5, 0.9}, 0.5);
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCutoffLine);
    expectVec(out.lines[0].direction, {-1.0, 0.0});
    expectVec(out.lines[0].point, Vec2(3.0, 1.0) + 0.5 * Vec2(0.0, -1.0));
}

TEST(ObstacleLines, ExactlyAbreastOfTheRightVertexCountsAsColliding) {
    // Agent at (4, -0.5), radius 1, below the square's corner (4, 0): for segment 0, s == 1
    // exactly and the vertex is 0.5 away. RVO2 falls through to the legs and takes
    // sqrt(0.25 - 1) (NaN); here it is the right-vertex collision, which segment 1 handles
    // (det(rp2, (0, 1)) = 0 >= 0 keeps it on this segment: line d = normalize(perp(rp2))).
    const Fixture f({kSquare});
    const auto out = f.run({0}, {4.0, -0.5}, {0.0, 0.0});
    ASSERT_EQ(out.lines.size(), 1u);
    EXPECT_EQ(out.records[0].lineCase, LineCase::ObstacleCollidingRightVertex);
    expectVec(out.lines[0].direction, {-1.0, 0.0});
}

TEST(ObstacleLines, NeverNaNOnDegenerateInput) {
    // Agent centred exactly on a vertex; velocity exactly on a cut-off centre.
    const Fixture f({kSquare});
    for (Vec2 p : {Vec2(0.0, 0.0), Vec2(4.0, 0.0)}) {
        const auto out = f.run({0, 1, 2, 3}, p, {0.0, 0.0});
        for (const Line& l : out.lines) {
            EXPECT_TRUE(std::isfinite(l.direction.x) && std::isfinite(l.direction.y));
            EXPECT_TRUE(std::isfinite(l.point.x) && std::isfinite(l.point.y));
        }
    }
    const auto out = f.run({0}, {-3.0, -1.0}, {3.0, 1.0}, 0.5); // v == cL
    for (const Line& l : out.lines)
        EXPECT_TRUE(std::isfinite(l.direction.x));
}

} // namespace
} // namespace orca
