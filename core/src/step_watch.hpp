#pragma once
// The tests behind StepWatch's flags (orca/simulator.hpp), shared by the step that notes them
// and the event detector that applies them itself when it has no notes to read: both must
// decide bit for bit alike (docs/events.md, "Stalled", "Oscillation").

#include <cmath>

#include "orca/geometry.hpp"
#include "orca/simulator.hpp"

namespace orca::detail {

/// Stalled's speed test: a goal agent, not at its goal, with prefSpeed > 0 and |v| below
/// `ratio` x prefSpeed (the caller leaves static agents out); speedSq = |v|².
inline bool slowForWatch(bool hasGoal, bool atGoal, double prefSpeed, double speedSq,
                         double ratio) {
    const double slowSpeed = ratio * prefSpeed;
    // (Bitwise: no branches, every test is cheap.)
    return hasGoal & !atGoal & (prefSpeed > 0.0) & (speedSq < slowSpeed * slowSpeed);
}

/// Oscillation's flip: the velocity turned from `u` to `v` by an angle whose cosine is below
/// `cosFlip`. A velocity shorter than 1e-6 x maxSpeed (or zero) has no reliable direction: no
/// flip (an agent that stops and turns back does not oscillate).
inline bool flipForWatch(Vec2 u, Vec2 v, double maxSpeed, double cosFlip) {
    const double uv = dot(u, v);
    // cosFlip <= 0 needs uv < 0, which almost no agent has: one product and one compare decide
    // for most (a NaN fails every compare below as well).
    if (!(uv < 0.0 || cosFlip > 0.0)) return false;
    const double tiny = 1e-6 * maxSpeed;
    const double uu = absSq(u);
    const double vv = absSq(v);
    return uu > tiny * tiny && vv > tiny * tiny && uv < cosFlip * std::sqrt(uu * vv);
}

/// A moving agent's kFlip and kSlow bits from its velocity before (`u`) and after (`v`) the
/// step; kSlow as if the agent were not at its goal (the caller clears it for one that is).
inline std::uint8_t motionFlags(Vec2 u, Vec2 v, bool hasGoal, const AgentParams& p,
                                const StepWatch& w) {
    return static_cast<std::uint8_t>(
        (flipForWatch(u, v, p.maxSpeed, w.cosFlip) ? step_flag::kFlip : 0) |
        (slowForWatch(hasGoal, false, p.prefSpeed, absSq(v), w.slowSpeedRatio) ? step_flag::kSlow
                                                                               : 0));
}

} // namespace orca::detail
