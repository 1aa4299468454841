#include "orca/linear_program.hpp"

#include <algorithm>
#include <cmath>

namespace orca {

bool linearProgram1(std::span<const Line> lines, std::size_t lineNo, double radius,
                    Vec2 optVelocity, bool directionOpt, Vec2& result) {
    const Line& line = lines[lineNo];
    const double dotProduct = dot(line.point, line.direction);
    // Where the line meets the disk: q + t d with |q + t d| = radius, t = -dot ± sqrt(disc).
    // disc = dot² + radius² - |q|² (the spec's form) equals radius² - det(d, q)² for unit d;
    // the latter has no cancellation when q is far from the origin.
    const double offset = det(line.direction, line.point); // signed distance of line to origin
    const double discriminant = radius * radius - offset * offset;
    if (discriminant < 0.0) {
        // Max speed circle fully invalidates line lineNo.
        return false;
    }
    const double sqrtDiscriminant = std::sqrt(discriminant);
    double tLeft = -dotProduct - sqrtDiscriminant;
    double tRight = -dotProduct + sqrtDiscriminant;

    for (std::size_t i = 0; i < lineNo; ++i) {
        const double denominator = det(line.direction, lines[i].direction);
        const double numerator = det(lines[i].direction, line.point - lines[i].point);
        if (std::abs(denominator) <= kEpsilon) {
            // Lines lineNo and i are (almost) parallel.
            if (numerator < 0.0) return false; // line i excludes all of line lineNo
            continue;                          // line i does not constrain line lineNo
        }
        const double t = numerator / denominator;
        if (denominator >= 0.0) {
            tRight = std::min(tRight, t); // line i bounds line lineNo on the right
        } else {
            tLeft = std::max(tLeft, t); // line i bounds line lineNo on the left
        }
        if (tLeft > tRight) return false;
    }

    if (directionOpt) {
        // Optimise direction: take the extreme point along optVelocity.
        result = line.point + (dot(optVelocity, line.direction) > 0.0 ? tRight : tLeft) *
                                  line.direction;
    } else {
        // Optimise closest point: project optVelocity on the line, clamp to [tLeft, tRight].
        const double t = dot(line.direction, optVelocity - line.point);
        result = line.point + std::clamp(t, tLeft, tRight) * line.direction;
    }
    return true;
}

std::size_t linearProgram2(std::span<const Line> lines, double radius, Vec2 optVelocity,
                           bool directionOpt, Vec2& result) {
    if (directionOpt) {
        // Optimise direction. optVelocity is a unit vector here.
        result = optVelocity * radius;
    } else if (absSq(optVelocity) > radius * radius) {
        // Optimise closest point, outside the circle: take the nearest point of the circle.
        result = normalize(optVelocity) * radius;
    } else {
        // Optimise closest point, inside the circle.
        result = optVelocity;
    }

    for (std::size_t i = 0; i < lines.size(); ++i) {
        if (violation(lines[i], result) > 0.0) {
            // The result does not satisfy constraint i: the new optimum lies on line i.
            const Vec2 tempResult = result;
            if (!linearProgram1(lines, i, radius, optVelocity, directionOpt, result)) {
                result = tempResult;
                return i;
            }
        }
    }
    return lines.size();
}

double linearProgram3(std::span<const Line> lines, std::size_t numObstLines,
                      std::size_t beginLine, double radius, double bisectorWeight, Vec2& result,
                      std::vector<Line>& scratch) {
    double distance = 0.0;
    for (std::size_t i = beginLine; i < lines.size(); ++i) {
        if (violation(lines[i], result) <= distance) continue;
        // The result violates line i by more than the current worst: rebuild a 2-D program in
        // which agent lines are replaced by the lines equidistant from line i and them, keep
        // obstacle lines hard, and push as far as possible against line i.
        scratch.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(numObstLines));
        for (std::size_t j = numObstLines; j < i; ++j) {
            Line projected;
            const double determinant = det(lines[i].direction, lines[j].direction);
            if (std::abs(determinant) <= kEpsilon) {
                // Lines i and j are (almost) parallel.
                if (dot(lines[i].direction, lines[j].direction) > 0.0) {
                    continue; // same direction: j adds nothing beyond i
                }
                // Opposite directions: the equidistant line runs midway between them.
                projected.point = 0.5 * (lines[i].point + lines[j].point);
            } else {
                projected.point = lines[i].point + (det(lines[j].direction,
                                                        lines[i].point - lines[j].point) /
                                                    determinant) *
                                                       lines[i].direction;
            }
            projected.direction =
                normalize(bisectorWeight * lines[j].direction - lines[i].direction);
            scratch.push_back(projected);
        }

        const Vec2 tempResult = result;
        if (linearProgram2(scratch, radius, perp(lines[i].direction), true, result) <
            scratch.size()) {
            // In principle this cannot happen: the result is by definition already in the
            // feasible region of this program. If it fails, it is due to small floating point
            // error, and the current result is kept.
            result = tempResult;
        }
        distance = violation(lines[i], result);
    }
    return distance;
}

Vec2 clampToDisk(Vec2 v, double radius) {
    const double lenSq = absSq(v);
    if (lenSq <= radius * radius) return v;
    if (radius <= 0.0) return {0.0, 0.0};
    Vec2 scaled = v * (radius / std::sqrt(lenSq));
    // Rounding can leave the scaled vector a hair outside; shrink by ulps until it is not.
    while (absSq(scaled) > radius * radius) scaled *= (1.0 - 0x1p-52);
    return scaled;
}

SolveResult solveVelocity(std::span<const Line> lines, std::size_t numObstLines, double radius,
                          Vec2 prefVelocity, double bisectorWeight, std::vector<Line>& scratch) {
    SolveResult out;
    Vec2 result{0.0, 0.0};
    out.lp2Fail = linearProgram2(lines, radius, prefVelocity, false, result);
    out.lp2Velocity = result;
    if (out.lp2Fail < lines.size()) {
        out.lp3Ran = true;
        out.lp3Depth = linearProgram3(lines, numObstLines, out.lp2Fail, radius, bisectorWeight,
                                      result, scratch);
    }
    out.velocity = clampToDisk(result, radius);
    return out;
}

} // namespace orca
