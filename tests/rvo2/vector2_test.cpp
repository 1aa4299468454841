// RVO::Vector2 and RVO::Line (core/rvo2/include): RVO2's float vector, operation by operation.
#include <cmath>
#include <sstream>

#include <gtest/gtest.h>

#include <RVO.h>

namespace {

using RVO::Vector2;

TEST(Rvo2Vector2, ConstructionAndAccessors) {
    const Vector2 zero;
    EXPECT_EQ(zero.x(), 0.0F);
    EXPECT_EQ(zero.y(), 0.0F);
    const Vector2 v(1.5F, -2.0F);
    EXPECT_EQ(v.x(), 1.5F);
    EXPECT_EQ(v.y(), -2.0F);
}

TEST(Rvo2Vector2, Arithmetic) {
    const Vector2 a(1.0F, 2.0F);
    const Vector2 b(3.0F, -4.0F);
    EXPECT_EQ(-a, Vector2(-1.0F, -2.0F));
    EXPECT_EQ(a * b, 1.0F * 3.0F + 2.0F * -4.0F); // dot product: -5
    EXPECT_EQ(a * 2.0F, Vector2(2.0F, 4.0F));
    EXPECT_EQ(2.0F * a, Vector2(2.0F, 4.0F));
    EXPECT_EQ(b / 2.0F, Vector2(1.5F, -2.0F));
    EXPECT_EQ(a + b, Vector2(4.0F, -2.0F));
    EXPECT_EQ(a - b, Vector2(-2.0F, 6.0F));
    EXPECT_TRUE(a == Vector2(1.0F, 2.0F));
    EXPECT_FALSE(a != Vector2(1.0F, 2.0F));
    EXPECT_TRUE(a != b);
    const Vector2 nan(std::nanf(""), 0.0F);
    EXPECT_FALSE(nan == nan); // coordinate-wise float comparison
    EXPECT_TRUE(nan != nan);
}

TEST(Rvo2Vector2, CompoundAssignmentReturnsItself) {
    Vector2 v(1.0F, 2.0F);
    EXPECT_EQ(&(v *= 3.0F), &v);
    EXPECT_EQ(v, Vector2(3.0F, 6.0F));
    EXPECT_EQ(&(v /= 3.0F), &v);
    EXPECT_EQ(v, Vector2(1.0F, 2.0F));
    EXPECT_EQ(&(v += Vector2(1.0F, 1.0F)), &v);
    EXPECT_EQ(v, Vector2(2.0F, 3.0F));
    EXPECT_EQ(&(v -= Vector2(2.0F, 1.0F)), &v);
    EXPECT_EQ(v, Vector2(0.0F, 2.0F));
}

TEST(Rvo2Vector2, DivisionMultipliesByTheRoundedReciprocal) {
    // 3/7 rounds to 0.428571433 in float; 3 * float(1/7) is 0.428571463. RVO2 programs see
    // the second (RVO2 divides that way), so normalised vectors keep RVO2's bits.
    const Vector2 v = Vector2(3.0F, 0.0F) / 7.0F;
    EXPECT_EQ(v.x(), 0.428571463F);
    EXPECT_NE(v.x(), 3.0F / 7.0F);
    Vector2 w(3.0F, 0.0F);
    w /= 7.0F;
    EXPECT_EQ(w.x(), 0.428571463F);
}

TEST(Rvo2Vector2, FreeFunctions) {
    const Vector2 v(3.0F, 4.0F);
    EXPECT_EQ(RVO::abs(v), 5.0F);
    EXPECT_EQ(RVO::absSq(v), 25.0F);
    EXPECT_EQ(RVO::det(Vector2(1.0F, 0.0F), Vector2(0.0F, 1.0F)), 1.0F);  // counter-clockwise
    EXPECT_EQ(RVO::det(Vector2(0.0F, 1.0F), Vector2(1.0F, 0.0F)), -1.0F); // clockwise
    EXPECT_EQ(RVO::det(v, Vector2(1.0F, 2.0F)), 3.0F * 2.0F - 4.0F * 1.0F);
    // (0, 1) is left of the line from (0, 0) to (1, 0): det((0,0)-(0,1), (1,0)-(0,0)) = 1.
    EXPECT_EQ(RVO::leftOf(Vector2(), Vector2(1.0F, 0.0F), Vector2(0.0F, 1.0F)), 1.0F);
    EXPECT_EQ(RVO::leftOf(Vector2(), Vector2(1.0F, 0.0F), Vector2(0.0F, -2.0F)), -2.0F);
    EXPECT_EQ(RVO::leftOf(Vector2(), Vector2(1.0F, 0.0F), Vector2(5.0F, 0.0F)), 0.0F);
    EXPECT_EQ(RVO::normalize(v), Vector2(3.0F * (1.0F / 5.0F), 4.0F * (1.0F / 5.0F)));
    const Vector2 n = RVO::normalize(Vector2(0.0F, 0.0F)); // RVO2's NaN, not a crash
    EXPECT_TRUE(std::isnan(n.x()));
    EXPECT_FLOAT_EQ(RVO::RVO_EPSILON, 1e-5F);
}

TEST(Rvo2Vector2, StreamsAsParenthesisedPair) {
    std::ostringstream out;
    out << Vector2(1.5F, -2.0F) << ' ' << Vector2(200.0F, 0.25F);
    EXPECT_EQ(out.str(), "(1.5,-2) (200,0.25)");
    std::ostringstream fixed;
    fixed.precision(2);
    fixed << std::fixed << Vector2(1.0F, 2.0F); // the stream's own float formatting
    EXPECT_EQ(fixed.str(), "(1.00,2.00)");
}

TEST(Rvo2Line, HasPointAndDirection) {
    RVO::Line line;
    EXPECT_EQ(line.point, Vector2());
    EXPECT_EQ(line.direction, Vector2());
    line.point = Vector2(1.0F, 2.0F);
    line.direction = Vector2(0.0F, 1.0F);
    EXPECT_EQ(line.point.y(), 2.0F);
    EXPECT_EQ(line.direction.y(), 1.0F);
}

} // namespace
