// Agent-agent ORCA lines (orca-spec section 5), every branch with hand-checked numbers.
//
// Set-up used throughout: B at rp = (5, 0) from A, combined radius R = 3, τ = 1, so the VO's
// cut-off circle is centred (5, 0) with radius 3 and the legs are tangent from the origin to
// that disk: a 3-4-5 triangle, leg length l = 4, left leg (0.8, 0.6), right leg (0.8, -0.6).
#include <cmath>

#include <gtest/gtest.h>

#include "orca/orca_lines.hpp"

namespace orca {
namespace {

constexpr double kTol = 1e-12;
const Vec2 kRelPos{5.0, 0.0};
constexpr double kR = 3.0;
constexpr double kInvTau = 1.0;
constexpr double kInvDt = 4.0; // Δt = 0.25

void expectVec(Vec2 actual, Vec2 expected, double tol = kTol) {
    EXPECT_NEAR(actual.x, expected.x, tol);
    EXPECT_NEAR(actual.y, expected.y, tol);
}

TEST(AgentLine, LeftLeg) {
    // v_A = (4, 5), v_B = 0. w = rv - rp/τ = (-1, 5); w.rp = -5 < 0 but 25 <= R²|w|² = 234,
    // so project on a leg; det(rp, w) = 25 > 0 -> left leg, d = (0.8, 0.6).
    // u = (rv.d) d - rv = 6.2 (0.8, 0.6) - (4, 5) = (0.96, -1.28); q = v_A + u/2.
    const AgentLine l = agentOrcaLine(kRelPos, {4.0, 5.0}, {4.0, 5.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentLeftLeg);
    expectVec(l.line.direction, {0.8, 0.6});
    expectVec(l.u, {0.96, -1.28});
    expectVec(l.line.point, {4.48, 4.36});
    // v_A is permitted (it is outside the VO); v_A + u lies on the VO's leg.
    EXPECT_LE(violation(l.line, {4.0, 5.0}), 0.0);
    EXPECT_NEAR(det({0.8, 0.6}, Vec2(4.0, 5.0) + l.u), 0.0, kTol);
}

TEST(AgentLine, RightLeg) {
    // Mirror image: v_A = (4, -5); right leg as a line points (-0.8, 0.6) so that the
    // permitted side (left) is away from the VO. u = (0.96, 1.28).
    const AgentLine l = agentOrcaLine(kRelPos, {4.0, -5.0}, {4.0, -5.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentRightLeg);
    expectVec(l.line.direction, {-0.8, 0.6});
    expectVec(l.u, {0.96, 1.28});
    expectVec(l.line.point, {4.48, -4.36});
}

TEST(AgentLine, CutoffCircleOutside) {
    // rv = (1, 0): w = (-4, 0), (w.rp)² = 400 > R²|w|² = 144 -> cut-off circle.
    // ŵ = (-1, 0), d = (ŵ.y, -ŵ.x) = (0, 1), u = (R/τ - |w|) ŵ = (3 - 4)(-1, 0) = (1, 0).
    // rv is 1 outside the circle, so u points into it; the line x <= 1.5 keeps A out.
    const AgentLine l = agentOrcaLine(kRelPos, {1.0, 0.0}, {1.0, 0.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentCutoffCircle);
    expectVec(l.line.direction, {0.0, 1.0});
    expectVec(l.u, {1.0, 0.0});
    expectVec(l.line.point, {1.5, 0.0});
    EXPECT_LT(violation(l.line, {1.6, 0.0}), 0.0 + 1.0); // sanity: finite
    EXPECT_GT(violation(l.line, {1.6, 0.0}), 0.0);       // x = 1.6 is forbidden
    EXPECT_LE(violation(l.line, {1.4, 0.0}), 0.0);       // x = 1.4 is permitted
}

TEST(AgentLine, CutoffCircleInside) {
    // rv = (3, 0) is inside the cut-off disk (2 from its centre): u = (3 - 2)(-1, 0) = (-1, 0)
    // pushes the relative velocity back to the circle at (2, 0). The half-plane x <= 2.5.
    const AgentLine l = agentOrcaLine(kRelPos, {3.0, 0.0}, {3.0, 0.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentCutoffCircle);
    expectVec(l.u, {-1.0, 0.0});
    expectVec(l.line.point, {2.5, 0.0});
    EXPECT_GT(violation(l.line, {3.0, 0.0}), 0.0); // the current velocity is forbidden
}

TEST(AgentLine, OtherAgentsVelocityShiftsTheLine) {
    // Same relative velocity as LeftLeg, but both agents move by (1, 1): v_A = (5, 6),
    // v_B = (1, 1). Only q moves (by v_B): q = (5, 6) + (0.48, -0.64).
    const AgentLine l = agentOrcaLine(kRelPos, {4.0, 5.0}, {5.0, 6.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentLeftLeg);
    expectVec(l.line.point, {5.48, 5.36});
}

TEST(AgentLine, Colliding) {
    // Overlap: rp = (1, 0), R = 3, Δt = 0.25, rv = 0. w = rv - rp/Δt = (-4, 0), |w| = 4,
    // ŵ = (-1, 0), d = (0, 1), u = (R/Δt - |w|) ŵ = (12 - 4)(-1, 0) = (-8, 0).
    // q = v_A + u/2 = (-4, 0): A must move left at >= 4 (B does the other half).
    const AgentLine l = agentOrcaLine({1.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, kR, kInvTau, kInvDt, 0.5);
    EXPECT_EQ(l.lineCase, LineCase::AgentColliding);
    expectVec(l.line.direction, {0.0, 1.0});
    expectVec(l.u, {-8.0, 0.0});
    expectVec(l.line.point, {-4.0, 0.0});
}

TEST(AgentLine, ResponsibilityScalesTheShare) {
    // Full responsibility: q = v_A + u.
    const AgentLine l = agentOrcaLine({1.0, 0.0}, {0.0, 0.0}, {0.0, 0.0}, kR, kInvTau, kInvDt, 1.0);
    expectVec(l.line.point, {-8.0, 0.0});
}

TEST(AgentLine, BoundaryBetweenCutoffAndLegs) {
    // rv on the ray where the cut-off circle meets the legs: the two formulas agree there.
    // Tangent point of the left leg: 4 * (0.8, 0.6) = (3.2, 2.4). Just inside / outside the
    // boundary the line direction must be (nearly) the same.
    const Vec2 t{3.2, 2.4};
    const AgentLine a =
        agentOrcaLine(kRelPos, t * (1.0 - 1e-9), t * (1.0 - 1e-9), kR, kInvTau, kInvDt, 0.5);
    const AgentLine b =
        agentOrcaLine(kRelPos, t * (1.0 + 1e-9), t * (1.0 + 1e-9), kR, kInvTau, kInvDt, 0.5);
    expectVec(a.line.direction, b.line.direction, 1e-6);
    expectVec(a.line.direction, {0.8, 0.6}, 1e-6);
}

TEST(AgentVelocityObstacle, GeometryForDisplay) {
    const VelocityObstacle vo = agentVelocityObstacle(kRelPos, {1.0, 2.0}, kR, 0.5, kInvDt);
    EXPECT_FALSE(vo.colliding);
    expectVec(vo.leftLeg, {0.8, 0.6});
    expectVec(vo.rightLeg, {0.8, -0.6});
    expectVec(vo.cutoffCenter, {2.5, 0.0}); // rp/τ with τ = 2
    EXPECT_NEAR(vo.cutoffRadius, 1.5, kTol);
    expectVec(vo.offset, {1.0, 2.0});
    const VelocityObstacle c = agentVelocityObstacle({1.0, 0.0}, {}, kR, 0.5, kInvDt);
    EXPECT_TRUE(c.colliding);
    expectVec(c.cutoffCenter, {4.0, 0.0}); // rp/Δt
    EXPECT_NEAR(c.cutoffRadius, 12.0, kTol);
}

TEST(AgentLine, NamesAreStable) {
    EXPECT_EQ(toString(LineCase::AgentLeftLeg), "agent-left-leg");
    EXPECT_EQ(toString(LineCase::ObstacleCutoffLine), "obstacle-cutoff-line");
    EXPECT_FALSE(isObstacleCase(LineCase::AgentColliding));
    EXPECT_TRUE(isObstacleCase(LineCase::ObstacleRightLeg));
}

} // namespace
} // namespace orca
