#pragma once
// The tests behind StepWatch's flags (orca/simulator.hpp), shared by the step that notes them
// and the event detector that applies them itself when it has no notes to read: both must
// decide bit for bit alike (docs/events.md, "Stalled", "Oscillation").

#include <cmath>

#include "orca/geometry.hpp"

namespace orca::detail {

/// Stalled's speed test: a goal agent, not at its goal, with prefSpeed > 0 and |v| below
/// `ratio` x prefSpeed (the caller leaves static agents out).
inline bool slowForWatch(bool hasGoal, bool atGoal, double prefSpeed, Vec2 v, double ratio) {
    const double slowSpeed = ratio * prefSpeed;
    return hasGoal && !atGoal && prefSpeed > 0.0 && absSq(v) < slowSpeed * slowSpeed;
}

/// Oscillation's flip: the velocity turned from `u` to `v` by an angle whose cosine is below
/// `cosFlip`. A velocity shorter than 1e-6 x maxSpeed (or zero) has no reliable direction: no
/// flip (an agent that stops and turns back does not oscillate).
inline bool flipForWatch(Vec2 u, Vec2 v, double maxSpeed, double cosFlip) {
    const double tiny = 1e-6 * maxSpeed;
    const double uu = absSq(u);
    const double vv = absSq(v);
    const double uv = dot(u, v);
    // (The sqrt only when the sign test cannot decide: cosFlip <= 0 needs uv < 0.)
    return uu > tiny * tiny && vv > tiny * tiny && (uv < 0.0 || cosFlip > 0.0) &&
           uv < cosFlip * std::sqrt(uu * vv);
}

} // namespace orca::detail
