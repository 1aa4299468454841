#pragma once
/// \file linear_program.hpp
/// The three linear programs that pick an agent's new velocity (orca-spec section 6).
///
/// Numerics: RVO2 computes LP1's discriminant as `dot^2 + radius^2 - |q|^2`, which cancels
/// catastrophically when the line is far from the origin, and in float lets speeds exceed the
/// disk by up to 27% in near-parallel LP3 cases. We use the algebraically identical
/// `radius^2 - det(d, q)^2` (|q|^2 - (q.d)^2 = det(d,q)^2 for unit d), in double, and the solver
/// entry point (solveVelocity) finally projects the result onto the disk, so |v_new| never
/// exceeds the radius.

#include <cstddef>
#include <span>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

struct Lp1Trace;
struct Lp2Trace;
struct LpTrace;

/// LP1: the best point on line `lineNo` subject to lines [0, lineNo) and the disk
/// |x| <= radius. With `directionOpt` the objective is "go as far as possible along
/// `optVelocity`" (a direction), otherwise "closest to `optVelocity`".
/// Returns false (and leaves `result` untouched) when that part of the line is empty.
[[nodiscard]] bool linearProgram1(std::span<const Line> lines, std::size_t lineNo, double radius,
                                  Vec2 optVelocity, bool directionOpt, Vec2& result);
/// LP1, also recording its interval, clips and choice in `trace` (lp_trace.hpp); the result is
/// bit-identical to the untraced call.
[[nodiscard]] bool linearProgram1(std::span<const Line> lines, std::size_t lineNo, double radius,
                                  Vec2 optVelocity, bool directionOpt, Vec2& result,
                                  Lp1Trace& trace);

/// LP2: the point of the disk |x| <= radius inside every half-plane that is closest to
/// `optVelocity` (or furthest along it with `directionOpt`), by incremental insertion in line
/// order. Returns lines.size() on success, otherwise the index of the line whose LP1 failed;
/// `result` then holds the optimum over the lines before that index.
[[nodiscard]] std::size_t linearProgram2(std::span<const Line> lines, double radius,
                                         Vec2 optVelocity, bool directionOpt, Vec2& result);
/// LP2, also recording every line considered in `trace` (lp_trace.hpp); bit-identical result.
[[nodiscard]] std::size_t linearProgram2(std::span<const Line> lines, double radius,
                                         Vec2 optVelocity, bool directionOpt, Vec2& result,
                                         Lp2Trace& trace);

/// LP3: runs when LP2 failed at `beginLine`. Keeps the first `numObstLines` (obstacle) lines
/// hard and minimises the largest violation of the agent lines from `beginLine` on.
/// `bisectorWeight` w builds each projected line's direction as normalize(w*d_j - d_i)
/// (1 = RVO2's bisector). `scratch` is reused storage for the projected lines.
/// Returns the final largest violation (the "penetration depth", velocity units).
double linearProgram3(std::span<const Line> lines, std::size_t numObstLines, std::size_t beginLine,
                      double radius, double bisectorWeight, Vec2& result,
                      std::vector<Line>& scratch);

/// Outcome of the whole solve for one agent.
struct SolveResult {
    Vec2 velocity{0.0, 0.0};    ///< The chosen velocity, |velocity| <= radius.
    Vec2 lp2Velocity{0.0, 0.0}; ///< LP2's result (before LP3, if LP3 ran).
    std::size_t lp2Fail = 0; ///< Index of the line that made LP2 fail; == number of lines if none.
    bool lp3Ran = false;     ///< True when the region was empty and LP3 chose the velocity.
    double lp3Depth = 0.0;   ///< LP3's final largest agent-line violation (0 if LP3 did not run).
};

/// New velocity = LP2(lines, radius, prefVelocity), then LP3 from the failing line if LP2
/// failed; the result is finally guaranteed to satisfy |v| <= radius.
[[nodiscard]] SolveResult solveVelocity(std::span<const Line> lines, std::size_t numObstLines,
                                        double radius, Vec2 prefVelocity, double bisectorWeight,
                                        std::vector<Line>& scratch);

/// The same solve, also recording LP2 and LP3 step by step in `trace` (lp_trace.hpp). The
/// untraced overload is a separate instantiation with the recording compiled out; both perform
/// the same floating-point operations, so the velocities are bit-identical.
[[nodiscard]] SolveResult solveVelocity(std::span<const Line> lines, std::size_t numObstLines,
                                        double radius, Vec2 prefVelocity, double bisectorWeight,
                                        std::vector<Line>& scratch, LpTrace& trace);

/// The lines `velocity` lies on (indices, ascending). Without LP3: |violation| <= tol. After
/// LP3: obstacle lines with |violation| <= tol, agent lines whose violation is within tol of
/// the largest agent-line violation (and >= -tol). tol = 1e-9 * max(1, radius).
[[nodiscard]] std::vector<std::size_t> bindingLines(std::span<const Line> lines,
                                                    std::size_t numObstLines, Vec2 velocity,
                                                    bool lp3Ran, double radius);

/// Scales `v` onto the disk |v| <= radius when it lies outside; guaranteed to return a vector
/// whose computed length does not exceed `radius`.
[[nodiscard]] Vec2 clampToDisk(Vec2 v, double radius);

} // namespace orca
