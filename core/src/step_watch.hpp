#pragma once
// The tests behind StepWatch's flags (orca/simulator.hpp), shared by the step that notes them
// and the event detector that applies them itself when it has no notes to read: both must
// decide bit for bit alike (docs/events.md, "Stalled", "Oscillation").

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>

#include "orca/detour.hpp"
#include "orca/geometry.hpp"
#include "orca/simulator.hpp"

namespace orca::detail {

/// The squared speed below which a moving agent is slow for Stalled's test: (`ratio` x
/// prefSpeed)² for a goal agent with prefSpeed > 0, else -inf (never slow).
inline double slowSpeedSq(bool hasGoal, double prefSpeed, double ratio) {
    const double slowSpeed = ratio * prefSpeed;
    return hasGoal && prefSpeed > 0.0 ? slowSpeed * slowSpeed
                                      : -std::numeric_limits<double>::infinity();
}

/// Stalled's speed test: a goal agent, not at its goal, with prefSpeed > 0 and |v| below
/// `ratio` x prefSpeed (the caller leaves static agents out); speedSq = |v|².
inline bool slowForWatch(bool hasGoal, bool atGoal, double prefSpeed, double speedSq,
                         double ratio) {
    return !atGoal && speedSq < slowSpeedSq(hasGoal, prefSpeed, ratio);
}

/// The squared speed at or below which a velocity has no reliable direction for the flip:
/// (1e-6 x maxSpeed)².
inline double flipTinySq(double maxSpeed) {
    const double tiny = 1e-6 * maxSpeed;
    return tiny * tiny;
}

/// Oscillation's flip on squared lengths: uu = |u|², vv = |v|², uv = u . v, both longer than
/// the tiny speed (flipTinySq) and turned by an angle whose cosine is below `cosFlip`.
/// (Without flipForWatch's first test: when it fails, cosFlip x sqrt(uu vv) <= 0 <= uv or a
/// NaN, so this is false too.)
inline bool flipOnSquares(double uu, double vv, double uv, double tinySq, double cosFlip) {
    return uu > tinySq && vv > tinySq && uv < cosFlip * std::sqrt(uu * vv);
}

/// Oscillation's flip: the velocity turned from `u` to `v` by an angle whose cosine is below
/// `cosFlip`. A velocity shorter than 1e-6 x maxSpeed (or zero) has no reliable direction: no
/// flip (an agent that stops and turns back does not oscillate).
inline bool flipForWatch(Vec2 u, Vec2 v, double maxSpeed, double cosFlip) {
    const double uv = dot(u, v);
    // cosFlip <= 0 needs uv < 0, which almost no agent has: one product and one compare decide
    // for most (a NaN fails every compare below as well).
    if (!(uv < 0.0 || cosFlip > 0.0)) return false;
    return flipOnSquares(absSq(u), absSq(v), uv, flipTinySq(maxSpeed), cosFlip);
}

/// A watched step's flags are finished by a pass over each chunk of agents after its move
/// (addWatchFlags): the move writes kLp3, kAtGoal and kWaypoint into `flags` (and not
/// `lastLp3`); the pass adds kDetouring from the detour modes after the step, kFlip and
/// kSlow (only for an agent without kAtGoal) from the velocities and per-agent thresholds
/// (taken once per configuration in the step's workspace), and copies kLp3 to `lastLp3`.
struct WatchFlagArrays {
    const Vec2* before;             ///< the velocities before the step
    const Vec2* after;              ///< after it
    const double* slowSq;           ///< slowSpeedSq, or -inf for a static agent
    const double* tinySq;           ///< flipTinySq, or +inf for a static agent (never flips)
    const std::uint8_t* detourMode; ///< after the step
    double cosFlip;                 ///< StepWatch::cosFlip
    std::uint8_t* flags;            ///< the step's flags: the move's bits in, all bits out
    std::uint8_t* lastLp3;          ///< per agent: LP3 ran in the step (kLp3 of the flags)
};

/// One agent's flags as addWatchFlags finishes them.
inline std::uint8_t finishedFlags(const WatchFlagArrays& a, std::size_t i) {
    const Vec2 u = a.before[i];
    const Vec2 v = a.after[i];
    const double vv = absSq(v);
    const std::uint8_t moved = a.flags[i];
    const bool flip = flipOnSquares(absSq(u), vv, dot(u, v), a.tinySq[i], a.cosFlip);
    const bool slow = (moved & step_flag::kAtGoal) == 0 && vv < a.slowSq[i];
    const bool detouring = a.detourMode[i] == static_cast<std::uint8_t>(DetourMode::Detouring);
    return static_cast<std::uint8_t>(moved | (detouring ? step_flag::kDetouring : 0) |
                                     (flip ? step_flag::kFlip : 0) | (slow ? step_flag::kSlow : 0));
}

/// Agents [begin, end) one at a time.
void addWatchFlagsScalar(std::size_t begin, std::size_t end, const WatchFlagArrays& a);
#if defined(ORCA_HAVE_AVX2_KERNEL)
/// Four agents at a time in AVX2 registers (step_watch_avx2.cpp; the same IEEE operations, so
/// the same bits); call only when cpuHasAvx2().
void addWatchFlagsAvx2(std::size_t begin, std::size_t end, const WatchFlagArrays& a);
bool cpuHasAvx2();
#endif

/// Agents [begin, end)'s flags finished on the widest lanes this CPU has.
inline void addWatchFlags(std::size_t begin, std::size_t end, const WatchFlagArrays& a) {
#if defined(ORCA_HAVE_AVX2_KERNEL)
    static const bool avx2 = cpuHasAvx2();
    if (avx2) {
        addWatchFlagsAvx2(begin, end, a);
        return;
    }
#endif
    addWatchFlagsScalar(begin, end, a);
}

} // namespace orca::detail
