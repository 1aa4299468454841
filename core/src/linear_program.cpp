#include "orca/linear_program.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "orca/lp_trace.hpp"

namespace orca {

// Each program is one template: Traced = false is the solver's hot path (every `if constexpr
// (Traced)` block vanishes, the trace pointers are unused), Traced = true records what the very
// same operations computed, so both give identical bits.
namespace {

template <bool Traced>
bool lp1(std::span<const Line> lines, std::size_t lineNo, double radius, Vec2 optVelocity,
         bool directionOpt, Vec2& result, [[maybe_unused]] Lp1Trace* trace) {
    const Line& line = lines[lineNo];
    const double dotProduct = dot(line.point, line.direction);
    // Where the line meets the disk: q + t d with |q + t d| = radius, t = -dot ± sqrt(disc).
    // disc = dot² + radius² - |q|² (the spec's form) equals radius² - det(d, q)² for unit d;
    // the latter has no cancellation when q is far from the origin.
    const double offset = det(line.direction, line.point); // signed distance of line to origin
    const double discriminant = radius * radius - offset * offset;
    if (discriminant < 0.0) {
        // Max speed circle fully invalidates line lineNo.
        if constexpr (Traced) trace->failure = Lp1Failure::Disk;
        return false;
    }
    const double sqrtDiscriminant = std::sqrt(discriminant);
    double tLeft = -dotProduct - sqrtDiscriminant;
    double tRight = -dotProduct + sqrtDiscriminant;
    if constexpr (Traced) {
        trace->diskLeft = tLeft;
        trace->diskRight = tRight;
    }

    for (std::size_t i = 0; i < lineNo; ++i) {
        const double denominator = det(line.direction, lines[i].direction);
        const double numerator = det(lines[i].direction, line.point - lines[i].point);
        if (std::abs(denominator) <= kEpsilon) {
            // Lines lineNo and i are (almost) parallel.
            if (numerator < 0.0) {
                // line i excludes all of line lineNo
                if constexpr (Traced) {
                    Lp1Clip& c = trace->clips.emplace_back();
                    c.line = i;
                    c.parallel = true;
                    c.tLeft = tLeft;
                    c.tRight = tRight;
                    trace->tLeft = tLeft;
                    trace->tRight = tRight;
                    trace->failure = Lp1Failure::Parallel;
                }
                return false;
            }
            continue; // line i does not constrain line lineNo
        }
        const double t = numerator / denominator;
        if constexpr (Traced) {
            const bool tightens = denominator >= 0.0 ? t < tRight : t > tLeft;
            if (tightens) {
                Lp1Clip& c = trace->clips.emplace_back();
                c.line = i;
                c.right = denominator >= 0.0;
                c.at = t;
            }
        }
        if (denominator >= 0.0) {
            tRight = std::min(tRight, t); // line i bounds line lineNo on the right
        } else {
            tLeft = std::max(tLeft, t); // line i bounds line lineNo on the left
        }
        if constexpr (Traced) {
            if (!trace->clips.empty() && trace->clips.back().line == i) {
                trace->clips.back().tLeft = tLeft;
                trace->clips.back().tRight = tRight;
            }
        }
        if (tLeft > tRight) {
            if constexpr (Traced) {
                trace->tLeft = tLeft;
                trace->tRight = tRight;
                trace->failure = Lp1Failure::Empty;
            }
            return false;
        }
    }
    if constexpr (Traced) {
        trace->tLeft = tLeft;
        trace->tRight = tRight;
    }

    if (directionOpt) {
        // Optimise direction: take the extreme point along optVelocity.
        const double t = dot(optVelocity, line.direction) > 0.0 ? tRight : tLeft;
        if constexpr (Traced) trace->t = t;
        result = line.point + t * line.direction;
    } else {
        // Optimise closest point: project optVelocity on the line, clamp to [tLeft, tRight].
        const double t = dot(line.direction, optVelocity - line.point);
        const double clamped = std::clamp(t, tLeft, tRight);
        if constexpr (Traced) {
            trace->tProjected = t;
            trace->t = clamped;
        }
        result = line.point + clamped * line.direction;
    }
    return true;
}

template <bool Traced>
std::size_t lp2(std::span<const Line> lines, double radius, Vec2 optVelocity, bool directionOpt,
                Vec2& result, [[maybe_unused]] Lp2Trace* trace) {
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
    if constexpr (Traced) {
        trace->optVelocity = optVelocity;
        trace->directionOpt = directionOpt;
        trace->start = result;
        trace->steps.clear();
        trace->steps.reserve(lines.size());
    }

    for (std::size_t i = 0; i < lines.size(); ++i) {
        const double v = violation(lines[i], result);
        [[maybe_unused]] Lp2Step* step = nullptr;
        if constexpr (Traced) {
            step = &trace->steps.emplace_back();
            step->line = i;
            step->before = result;
            step->violation = v;
            step->held = !(v > 0.0);
            step->after = result;
        }
        if (v > 0.0) {
            // The result does not satisfy constraint i: the new optimum lies on line i.
            const Vec2 tempResult = result;
            Lp1Trace* lp1Trace = nullptr;
            if constexpr (Traced) lp1Trace = &step->lp1;
            if (!lp1<Traced>(lines, i, radius, optVelocity, directionOpt, result, lp1Trace)) {
                result = tempResult;
                if constexpr (Traced) {
                    trace->failIndex = i;
                    trace->result = result;
                }
                return i;
            }
            if constexpr (Traced) step->after = result;
        }
    }
    if constexpr (Traced) {
        trace->failIndex = lines.size();
        trace->result = result;
    }
    return lines.size();
}

template <bool Traced>
double lp3(std::span<const Line> lines, std::size_t numObstLines, std::size_t beginLine,
           double radius, double bisectorWeight, Vec2& result, std::vector<Line>& scratch,
           [[maybe_unused]] std::vector<Lp3Step>* trace) {
    double distance = 0.0;
    for (std::size_t i = beginLine; i < lines.size(); ++i) {
        const double v = violation(lines[i], result);
        [[maybe_unused]] Lp3Step* step = nullptr;
        if constexpr (Traced) {
            step = &trace->emplace_back();
            step->line = i;
            step->before = result;
            step->distanceBefore = distance;
            step->violation = v;
            step->rebuilt = v > distance;
            step->after = result;
            step->distance = distance;
        }
        if (v <= distance) continue;
        // The result violates line i by more than the current worst: rebuild a 2-D program in
        // which agent lines are replaced by the lines equidistant from line i and them, keep
        // obstacle lines hard, and push as far as possible against line i.
        scratch.assign(lines.begin(), lines.begin() + static_cast<std::ptrdiff_t>(numObstLines));
        if constexpr (Traced) {
            for (std::size_t k = 0; k < numObstLines; ++k)
                step->projected.push_back({lines[k], k, true, false});
        }
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
                projected.point =
                    lines[i].point +
                    (det(lines[j].direction, lines[i].point - lines[j].point) / determinant) *
                        lines[i].direction;
            }
            // The bisector (seed 002's weight w: w = 1 is RVO2's half angle, w -> 0 turns it
            // towards -d_i, large w towards d_j).
            projected.direction =
                normalize(bisectorWeight * lines[j].direction - lines[i].direction);
            scratch.push_back(projected);
            if constexpr (Traced)
                step->projected.push_back({projected, j, false, std::abs(determinant) <= kEpsilon});
        }

        const Vec2 tempResult = result;
        Lp2Trace* inner = nullptr;
        if constexpr (Traced) inner = &step->inner;
        if (lp2<Traced>(scratch, radius, perp(lines[i].direction), true, result, inner) <
            scratch.size()) {
            // In principle this cannot happen: the result is by definition already in the
            // feasible region of this program. If it fails, it is due to small floating point
            // error, and the current result is kept.
            result = tempResult;
            if constexpr (Traced) step->innerFailed = true;
        }
        distance = violation(lines[i], result);
        if constexpr (Traced) {
            step->after = result;
            step->distance = distance;
        }
    }
    return distance;
}

template <bool Traced>
SolveResult solve(std::span<const Line> lines, std::size_t numObstLines, double radius,
                  Vec2 prefVelocity, double bisectorWeight, std::vector<Line>& scratch,
                  [[maybe_unused]] LpTrace* trace) {
    SolveResult out;
    Vec2 result{0.0, 0.0};
    Lp2Trace* lp2Trace = nullptr;
    std::vector<Lp3Step>* lp3Trace = nullptr;
    if constexpr (Traced) {
        *trace = LpTrace{};
        trace->bisectorWeight = bisectorWeight;
        trace->numObstacleLines = numObstLines;
        lp2Trace = &trace->lp2;
        lp3Trace = &trace->lp3;
    }
    out.lp2Fail = lp2<Traced>(lines, radius, prefVelocity, false, result, lp2Trace);
    out.lp2Velocity = result;
    if (out.lp2Fail < lines.size()) {
        out.lp3Ran = true;
        out.lp3Depth = lp3<Traced>(lines, numObstLines, out.lp2Fail, radius, bisectorWeight, result,
                                   scratch, lp3Trace);
    }
    out.velocity = clampToDisk(result, radius);
    if constexpr (Traced) {
        trace->lp3Distance = out.lp3Depth;
        trace->unclamped = result;
        trace->result = out.velocity;
        trace->binding = bindingLines(lines, numObstLines, out.velocity, out.lp3Ran, radius);
    }
    return out;
}

} // namespace

bool linearProgram1(std::span<const Line> lines, std::size_t lineNo, double radius,
                    Vec2 optVelocity, bool directionOpt, Vec2& result) {
    return lp1<false>(lines, lineNo, radius, optVelocity, directionOpt, result, nullptr);
}

bool linearProgram1(std::span<const Line> lines, std::size_t lineNo, double radius,
                    Vec2 optVelocity, bool directionOpt, Vec2& result, Lp1Trace& trace) {
    trace = Lp1Trace{};
    return lp1<true>(lines, lineNo, radius, optVelocity, directionOpt, result, &trace);
}

std::size_t linearProgram2(std::span<const Line> lines, double radius, Vec2 optVelocity,
                           bool directionOpt, Vec2& result) {
    return lp2<false>(lines, radius, optVelocity, directionOpt, result, nullptr);
}

std::size_t linearProgram2(std::span<const Line> lines, double radius, Vec2 optVelocity,
                           bool directionOpt, Vec2& result, Lp2Trace& trace) {
    trace = Lp2Trace{};
    return lp2<true>(lines, radius, optVelocity, directionOpt, result, &trace);
}

double linearProgram3(std::span<const Line> lines, std::size_t numObstLines, std::size_t beginLine,
                      double radius, double bisectorWeight, Vec2& result,
                      std::vector<Line>& scratch) {
    return lp3<false>(lines, numObstLines, beginLine, radius, bisectorWeight, result, scratch,
                      nullptr);
}

std::vector<std::size_t> bindingLines(std::span<const Line> lines, std::size_t numObstLines,
                                      Vec2 velocity, bool lp3Ran, double radius) {
    const double tol = 1e-9 * std::max(1.0, radius);
    double maxAgentViolation = -std::numeric_limits<double>::infinity();
    if (lp3Ran)
        for (std::size_t k = numObstLines; k < lines.size(); ++k)
            maxAgentViolation = std::max(maxAgentViolation, violation(lines[k], velocity));
    std::vector<std::size_t> out;
    for (std::size_t k = 0; k < lines.size(); ++k) {
        const double v = violation(lines[k], velocity);
        const bool binds = (lp3Ran && k >= numObstLines) ? v >= maxAgentViolation - tol && v >= -tol
                                                         : std::abs(v) <= tol;
        if (binds) out.push_back(k);
    }
    return out;
}

Vec2 clampToDisk(Vec2 v, double radius) {
    const double lenSq = absSq(v);
    if (lenSq <= radius * radius) return v;
    if (radius <= 0.0) return {0.0, 0.0};
    Vec2 scaled = v * (radius / std::sqrt(lenSq));
    // Rounding can leave the scaled vector a hair outside; shrink by ulps until it is not.
    while (absSq(scaled) > radius * radius)
        scaled *= (1.0 - 0x1p-52);
    return scaled;
}

SolveResult solveVelocity(std::span<const Line> lines, std::size_t numObstLines, double radius,
                          Vec2 prefVelocity, double bisectorWeight, std::vector<Line>& scratch) {
    return solve<false>(lines, numObstLines, radius, prefVelocity, bisectorWeight, scratch,
                        nullptr);
}

SolveResult solveVelocity(std::span<const Line> lines, std::size_t numObstLines, double radius,
                          Vec2 prefVelocity, double bisectorWeight, std::vector<Line>& scratch,
                          LpTrace& trace) {
    return solve<true>(lines, numObstLines, radius, prefVelocity, bisectorWeight, scratch, &trace);
}

} // namespace orca
