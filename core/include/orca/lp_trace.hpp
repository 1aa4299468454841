#pragma once
/// \file lp_trace.hpp
/// The linear programs as they ran (orca-spec section 6), recorded step by step for one agent
/// so a UI or a script can replay the solve: LP2's incremental insertion (each line tested
/// against the optimum before it, and when it did not hold, the LP1 on that line with its
/// interval and the earlier lines that clipped it), LP2's failing line, and LP3's phases
/// (the projected lines built against each violated agent line, the inner LP2, the distance
/// reached). Opt-in: only Simulator::explain / step(ids, records) fill it, and only when
/// ExplainOptions::lpTrace asks; the solver's hot path is a separate instantiation that
/// records nothing. The traced solve performs the very same floating-point operations, so
/// LpTrace::result equals the velocity the step applies, bit for bit.
///
/// Line indices refer to the program's own line list: for LP2 and LP3's outer loop that is
/// ExplainRecord::lines (obstacle lines first); for an LP3 phase's inner LP2 it is that
/// phase's `projected` list.

#include <cstddef>
#include <limits>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

/// An earlier line that narrowed LP1's interval on the line under test.
struct Lp1Clip {
    std::size_t line = 0; ///< Index of the earlier line (in the program's line list).
    /// The earlier line bounds the interval on the right (true: t <= at) or on the left
    /// (false: t >= at). Meaningless when `parallel`.
    bool right = false;
    /// Parameter along the tested line (q + t d) where the earlier line crosses it; for a
    /// parallel line that excludes the whole tested line: NaN.
    double at = std::numeric_limits<double>::quiet_NaN();
    bool parallel = false; ///< Parallel and on the wrong side: it excludes the whole line.
    double tLeft = 0.0;    ///< The interval after this clip.
    double tRight = 0.0;
};

/// Why LP1 found no point on its line.
enum class Lp1Failure {
    None,     ///< LP1 succeeded.
    Disk,     ///< The line misses the max-speed disk (|det(d, q)| > radius).
    Parallel, ///< A parallel earlier line (the last clip) excludes the whole line.
    Empty,    ///< The clips crossed: tLeft > tRight after the last clip.
};

/// LP1 on one line: best point on line q + t d inside the disk and the earlier lines.
struct Lp1Trace {
    /// The interval [tLeft, tRight] cut from the line by the max-speed disk (NaN when the line
    /// misses the disk).
    double diskLeft = std::numeric_limits<double>::quiet_NaN();
    double diskRight = std::numeric_limits<double>::quiet_NaN();
    /// Only the earlier lines that changed a bound (or excluded the line), in order.
    std::vector<Lp1Clip> clips;
    double tLeft = std::numeric_limits<double>::quiet_NaN(); ///< Final interval.
    double tRight = std::numeric_limits<double>::quiet_NaN();
    /// Objective "closest point": the unclamped projection of the optimisation velocity on
    /// the line. Objective "direction": NaN.
    double tProjected = std::numeric_limits<double>::quiet_NaN();
    double t = std::numeric_limits<double>::quiet_NaN(); ///< The chosen parameter (success).
    Lp1Failure failure = Lp1Failure::None;
    [[nodiscard]] bool ok() const { return failure == Lp1Failure::None; }
};

/// LP2 considering one line.
struct Lp2Step {
    std::size_t line = 0;   ///< The line under test.
    Vec2 before{0.0, 0.0};  ///< The optimum before this line.
    double violation = 0.0; ///< det(d, q - before): > 0 means `before` violates the line.
    bool held = true;       ///< violation <= 0: nothing to do.
    Lp1Trace lp1;           ///< When !held: the LP1 on this line.
    Vec2 after{0.0, 0.0};   ///< The optimum after (== before when held or when LP1 failed).
};

/// One run of LP2.
struct Lp2Trace {
    Vec2 optVelocity{0.0, 0.0}; ///< The objective: a point, or a unit direction.
    bool directionOpt = false;  ///< Objective "furthest along optVelocity" (LP3's inner LP2s).
    Vec2 start{0.0, 0.0};       ///< Initial optimum (optVelocity clamped to the disk).
    std::vector<Lp2Step> steps; ///< One per line considered, in order (stops at the failure).
    std::size_t failIndex = 0;  ///< Line whose LP1 failed; == number of lines on success.
    Vec2 result{0.0, 0.0};      ///< LP2's result (the optimum before the failing line).
};

/// A line of an LP3 phase's inner program.
struct Lp3ProjectedLine {
    Line line;
    /// The agent line j it was built from (index into the record's lines), or, for the copied
    /// obstacle lines, the obstacle line itself.
    std::size_t source = 0;
    bool obstacle = false; ///< A copied obstacle line (kept hard).
    bool parallel = false; ///< Built from a line anti-parallel to line i (midway point).
};

/// LP3 testing one agent line i (from LP2's failing line on).
struct Lp3Step {
    std::size_t line = 0;        ///< i: the agent line tested.
    Vec2 before{0.0, 0.0};       ///< The result before.
    double distanceBefore = 0.0; ///< The largest violation so far.
    double violation = 0.0;      ///< det(d_i, q_i - before).
    /// violation > distanceBefore: the phase rebuilt the program (otherwise it was skipped
    /// and the fields below are empty).
    bool rebuilt = false;
    /// Obstacle lines first, then for each agent line j in [numObstacleLines, i) that is not
    /// parallel and co-directed with line i: the line where the violations of i and j are
    /// equal, direction normalize(w·d_j − d_i) (w = bisectorWeight).
    std::vector<Lp3ProjectedLine> projected;
    Lp2Trace inner;           ///< LP2(projected, radius, perp(d_i), direction).
    bool innerFailed = false; ///< The inner LP2 failed (rounding) and `before` was kept.
    Vec2 after{0.0, 0.0};     ///< The result after.
    double distance = 0.0;    ///< det(d_i, q_i - after): the largest violation reached.
};

/// The whole solve of one agent.
struct LpTrace {
    Lp2Trace lp2;                ///< LP2 over all lines towards v_pref.
    double bisectorWeight = 1.0; ///< w of the LP3 projected lines (seed 002).
    std::size_t numObstacleLines = 0;
    std::vector<Lp3Step> lp3; ///< Empty unless LP2 failed.
    double lp3Distance = 0.0; ///< LP3's final largest agent-line violation.
    /// The velocity before the final projection onto the disk (LP2's or LP3's result).
    Vec2 unclamped{0.0, 0.0};
    /// The chosen velocity: unclamped, scaled onto the disk if rounding left it outside.
    /// Equals ExplainRecord::newVelocity and what the step applies, bit for bit.
    Vec2 result{0.0, 0.0};
    /// The lines the result lies on: LP2 succeeded — |violation| <= tolerance; LP3 ran —
    /// obstacle lines with |violation| <= tolerance and agent lines whose violation is
    /// within tolerance of the largest one. tolerance = 1e-9 · max(1, radius).
    std::vector<std::size_t> binding;
};

} // namespace orca
