#ifndef ORCA_RVO2_VECTOR2_H
#define ORCA_RVO2_VECTOR2_H
/// \file Vector2.h
/// RVO2's two-dimensional float vector (RVO::Vector2), for programs written against RVO2's
/// C++ API. Part of the compatibility layer `orca::rvo2` (docs/rvo2.md): the same names,
/// signatures and float arithmetic, our own code.
///
/// The operations are out of line and compiled with the library's flags (no FMA contraction,
/// IEEE float), so a program gets the same bits whatever its own flags. Division multiplies by
/// the reciprocal of the divisor, as RVO2 does, so programs that normalise vectors get RVO2's
/// bits too.

#include <iosfwd>

namespace RVO {

/// A small positive float: RVO2's tolerance for "parallel" and "already covered" tests (1e-5,
/// the core's orca::kEpsilon).
const float RVO_EPSILON = 0.00001F;

/// A vector of two floats (positions in world units, velocities in world units per second).
class Vector2 {
  public:
    /// The zero vector.
    Vector2();
    /// The vector (x, y).
    Vector2(float x, float y);

    /// The x coordinate.
    float x() const { return x_; }
    /// The y coordinate.
    float y() const { return y_; }

    /// The vector negated.
    Vector2 operator-() const;
    /// The dot product with `vector`.
    float operator*(const Vector2& vector) const;
    /// The vector scaled by `scalar`.
    Vector2 operator*(float scalar) const;
    /// The vector times 1/`scalar` (the reciprocal is rounded to float first).
    Vector2 operator/(float scalar) const;
    /// The sum.
    Vector2 operator+(const Vector2& vector) const;
    /// The difference.
    Vector2 operator-(const Vector2& vector) const;
    /// True when both coordinates are equal (so NaN never equals anything).
    bool operator==(const Vector2& vector) const;
    /// The negation of ==.
    bool operator!=(const Vector2& vector) const;
    /// Scales in place; returns *this.
    Vector2& operator*=(float scalar);
    /// Multiplies in place by 1/`scalar`; returns *this.
    Vector2& operator/=(float scalar);
    /// Adds in place; returns *this.
    Vector2& operator+=(const Vector2& vector);
    /// Subtracts in place; returns *this.
    Vector2& operator-=(const Vector2& vector);

  private:
    float x_;
    float y_;
};

/// `vector` scaled by `scalar`.
Vector2 operator*(float scalar, const Vector2& vector);
/// Writes "(x,y)" with the stream's float formatting.
std::ostream& operator<<(std::ostream& stream, const Vector2& vector);
/// The length |vector| (float square root of the dot product).
float abs(const Vector2& vector);
/// The squared length |vector|².
float absSq(const Vector2& vector);
/// The determinant of the 2x2 matrix with rows `vector1` and `vector2`:
/// x1*y2 - y1*x2, positive when `vector2` turns counter-clockwise from `vector1`.
float det(const Vector2& vector1, const Vector2& vector2);
/// det(vector1 - vector3, vector2 - vector1): positive when `vector3` lies to the left of the
/// directed line from `vector1` to `vector2`, zero on it.
float leftOf(const Vector2& vector1, const Vector2& vector2, const Vector2& vector3);
/// `vector` divided by its length. The zero vector gives NaN coordinates (as in RVO2: the
/// division by zero is the caller's to avoid).
Vector2 normalize(const Vector2& vector);

} // namespace RVO

#endif // ORCA_RVO2_VECTOR2_H
