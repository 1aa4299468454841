#pragma once
// The agent-agent ORCA line (orca-spec section 5) for a batch of neighbours, without
// per-neighbour branches: both the cut-off-circle and the leg projections are computed and
// the right one selected. The formula is written once, as a template over a "lane" type, and
// instantiated for one double (scalar), two doubles in an SSE2 register (x86-64 baseline) and,
// in agent_line_kernel_avx2.cpp, four doubles in an AVX2 register (used when the CPU has it).
// Every lane performs exactly the same IEEE operations (no FMA: -ffp-contract=off), so all
// paths give bit-identical lines. agentOrcaLine (explain) is the one-neighbour call.
//
// agent_line_kernel_avx2.cpp includes this header with ORCA_AGENT_LINE_KERNEL_AVX2 defined:
// its inline functions then live in a namespace of their own, so that no function compiled
// for AVX2 can be picked by the linker for the baseline code.

#include <cmath>
#include <cstddef>
#include <cstdint>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "orca/orca_lines.hpp"

namespace orca::detail {

/// Inputs and outputs as arrays of n elements (structure of arrays).
struct AgentLineBatch {
    // In: relative position p_B - p_A, relative velocity v_A - v_B, combined radius.
    const double* rpx;
    const double* rpy;
    const double* rvx;
    const double* rvy;
    const double* radius;
    // Out: line direction, u, and the case.
    double* dx;
    double* dy;
    double* ux;
    double* uy;
    std::uint8_t* lineCase;
};

struct AgentLineSources {
    const Vec2* position;
    const Vec2* velocity;
    const double* radius;
    const std::uint32_t* index;
    std::uint32_t self;
    Vec2 p;
    Vec2 v;
    double r;
};

#if defined(ORCA_AGENT_LINE_KERNEL_AVX2)
#define ORCA_LANES lanes_avx2
#else
#define ORCA_LANES lanes
#endif

namespace ORCA_LANES {

/// One double.
struct D1 {
    double v;
};
struct M1 {
    bool v;
};
inline D1 operator+(D1 a, D1 b) {
    return {a.v + b.v};
}
inline D1 operator-(D1 a, D1 b) {
    return {a.v - b.v};
}
inline D1 operator*(D1 a, D1 b) {
    return {a.v * b.v};
}
inline D1 operator/(D1 a, D1 b) {
    return {a.v / b.v};
}
inline D1 operator-(D1 a) {
    return {-a.v};
}
inline D1 sqrt(D1 a) {
    return {std::sqrt(a.v)};
}
inline M1 operator<(D1 a, D1 b) {
    return {a.v < b.v};
}
inline M1 operator>(D1 a, D1 b) {
    return {a.v > b.v};
}
inline M1 operator<=(D1 a, D1 b) {
    return {a.v <= b.v};
}
inline M1 operator&(M1 a, M1 b) {
    return {a.v && b.v};
}
inline M1 operator|(M1 a, M1 b) {
    return {a.v || b.v};
}
inline D1 select(M1 m, D1 a, D1 b) {
    return m.v ? a : b;
}
inline D1 splat1(double x) {
    return {x};
}
inline bool any(M1 m) {
    return m.v;
}
inline bool all(M1 m) {
    return m.v;
}

#if defined(__SSE2__)
/// Two doubles in an SSE2 register.
struct D2 {
    __m128d v;
};
struct M2 {
    __m128d v;
};
inline D2 operator+(D2 a, D2 b) {
    return {_mm_add_pd(a.v, b.v)};
}
inline D2 operator-(D2 a, D2 b) {
    return {_mm_sub_pd(a.v, b.v)};
}
inline D2 operator*(D2 a, D2 b) {
    return {_mm_mul_pd(a.v, b.v)};
}
inline D2 operator/(D2 a, D2 b) {
    return {_mm_div_pd(a.v, b.v)};
}
inline D2 operator-(D2 a) {
    return {_mm_xor_pd(a.v, _mm_set1_pd(-0.0))};
}
inline D2 sqrt(D2 a) {
    return {_mm_sqrt_pd(a.v)};
}
inline M2 operator<(D2 a, D2 b) {
    return {_mm_cmplt_pd(a.v, b.v)};
}
inline M2 operator>(D2 a, D2 b) {
    return {_mm_cmpgt_pd(a.v, b.v)};
}
inline M2 operator<=(D2 a, D2 b) {
    return {_mm_cmple_pd(a.v, b.v)};
}
inline M2 operator&(M2 a, M2 b) {
    return {_mm_and_pd(a.v, b.v)};
}
inline M2 operator|(M2 a, M2 b) {
    return {_mm_or_pd(a.v, b.v)};
}
inline D2 select(M2 m, D2 a, D2 b) {
    return {_mm_or_pd(_mm_and_pd(m.v, a.v), _mm_andnot_pd(m.v, b.v))};
}
inline bool any(M2 m) {
    return _mm_movemask_pd(m.v) != 0;
}
inline bool all(M2 m) {
    return _mm_movemask_pd(m.v) == 3;
}
#endif

/// The line of one lane. Unary minus is a sign flip in both lane types, exactly like the
/// scalar expression `-x`.
template <class D, class M> struct Line {
    D dx, dy, ux, uy;
    M colliding, onCutoff, leftLeg;
};

template <class D, class M>
inline Line<D, M> agentLine(D rpx, D rpy, D rvx, D rvy, D combinedRadius, D invTimeHorizon,
                            D invTimeStep, D zero, D one) {
    Line<D, M> out;
    const D distSq = rpx * rpx + rpy * rpy;
    const D combinedRadiusSq = combinedRadius * combinedRadius;
    out.colliding = distSq <= combinedRadiusSq;

    // Cut-off circle: of time τ when not colliding, of time Δt when colliding. w runs from
    // the cut-off centre to the relative velocity.
    const D inv = select(out.colliding, invTimeStep, invTimeHorizon);
    const D wx = rvx - inv * rpx;
    const D wy = rvy - inv * rpy;
    const D wLengthSq = wx * wx + wy * wy;
    const D dotProduct1 = wx * rpx + wy * rpy;
    out.onCutoff = out.colliding | ((dotProduct1 < zero) &
                                    (combinedRadiusSq * wLengthSq < dotProduct1 * dotProduct1));
    out.leftLeg = zero < rpx * wy - rpy * wx; // det(rp, w) > 0

    // Each lane takes one of two projections. The square roots and divisions dominate the
    // kernel, so a projection no lane takes is skipped (a crowd walking side by side is all
    // cut-off lines); the lanes that take it compute exactly the same operations either way.
    const bool anyCutoff = any(out.onCutoff);
    const bool allCutoff = anyCutoff && all(out.onCutoff);
    D cutDx = zero, cutDy = zero, cutUx = zero, cutUy = zero;
    if (anyCutoff) {
        const D wLength = sqrt(wLengthSq);
        // w == 0 only when colliding with rv exactly rp/Δt: then push straight apart (-rp).
        const M wPositive = zero < wLength;
        const bool allPositive = all(wPositive);
        const D invW = one / (allPositive ? wLength : select(wPositive, wLength, sqrt(distSq)));
        const D unitWx = (allPositive ? wx : select(wPositive, wx, -rpx)) * invW;
        const D unitWy = (allPositive ? wy : select(wPositive, wy, -rpy)) * invW;
        const D cutoffScale = combinedRadius * inv - wLength;
        cutDx = unitWy;
        cutDy = -unitWx;
        cutUx = cutoffScale * unitWx;
        cutUy = cutoffScale * unitWy;
        if (allCutoff) {
            out.dx = cutDx, out.dy = cutDy, out.ux = cutUx, out.uy = cutUy;
            return out;
        }
    }

    // Legs (used only when not colliding; the max keeps the unused lanes finite).
    const D legSq = distSq - combinedRadiusSq;
    const D leg = sqrt(select(zero < legSq, legSq, zero));
    const D invDistSq = one / distSq;
    const D lx = (rpx * leg - rpy * combinedRadius) * invDistSq;
    const D ly = (rpx * combinedRadius + rpy * leg) * invDistSq;
    const D rx = -(rpx * leg + rpy * combinedRadius) * invDistSq;
    const D ry = -(-rpx * combinedRadius + rpy * leg) * invDistSq;
    const D legX = select(out.leftLeg, lx, rx);
    const D legY = select(out.leftLeg, ly, ry);
    const D dotProduct2 = rvx * legX + rvy * legY;
    const D legUx = dotProduct2 * legX - rvx;
    const D legUy = dotProduct2 * legY - rvy;
    if (!anyCutoff) {
        out.dx = legX, out.dy = legY, out.ux = legUx, out.uy = legUy;
        return out;
    }
    out.dx = select(out.onCutoff, cutDx, legX);
    out.dy = select(out.onCutoff, cutDy, legY);
    out.ux = select(out.onCutoff, cutUx, legUx);
    out.uy = select(out.onCutoff, cutUy, legUy);
    return out;
}

inline std::uint8_t caseOf(bool colliding, bool onCutoff, bool leftLeg) {
    return static_cast<std::uint8_t>(
        colliding ? LineCase::AgentColliding
                  : (onCutoff ? LineCase::AgentCutoffCircle
                              : (leftLeg ? LineCase::AgentLeftLeg : LineCase::AgentRightLeg)));
}

/// SSE2 pairs, then a scalar tail.
inline void computeLines(std::size_t n, const AgentLineBatch& b, double invTimeHorizon,
                         double invTimeStep) {
    std::size_t k = 0;
#if defined(__SSE2__)
    const D2 invTau{_mm_set1_pd(invTimeHorizon)};
    const D2 invDt{_mm_set1_pd(invTimeStep)};
    const D2 zero2{_mm_setzero_pd()};
    const D2 one2{_mm_set1_pd(1.0)};
    for (; k + 2 <= n; k += 2) {
        const auto l =
            agentLine<D2, M2>(D2{_mm_loadu_pd(b.rpx + k)}, D2{_mm_loadu_pd(b.rpy + k)},
                              D2{_mm_loadu_pd(b.rvx + k)}, D2{_mm_loadu_pd(b.rvy + k)},
                              D2{_mm_loadu_pd(b.radius + k)}, invTau, invDt, zero2, one2);
        _mm_storeu_pd(b.dx + k, l.dx.v);
        _mm_storeu_pd(b.dy + k, l.dy.v);
        _mm_storeu_pd(b.ux + k, l.ux.v);
        _mm_storeu_pd(b.uy + k, l.uy.v);
        const int colliding = _mm_movemask_pd(l.colliding.v);
        const int onCutoff = _mm_movemask_pd(l.onCutoff.v);
        const int leftLeg = _mm_movemask_pd(l.leftLeg.v);
        for (int lane = 0; lane < 2; ++lane) {
            b.lineCase[k + static_cast<std::size_t>(lane)] =
                caseOf((colliding >> lane) & 1, (onCutoff >> lane) & 1, (leftLeg >> lane) & 1);
        }
    }
#endif
    for (; k < n; ++k) {
        const auto l = agentLine<D1, M1>(D1{b.rpx[k]}, D1{b.rpy[k]}, D1{b.rvx[k]}, D1{b.rvy[k]},
                                         D1{b.radius[k]}, D1{invTimeHorizon}, D1{invTimeStep},
                                         D1{0.0}, D1{1.0});
        b.dx[k] = l.dx.v;
        b.dy[k] = l.dy.v;
        b.ux[k] = l.ux.v;
        b.uy[k] = l.uy.v;
        b.lineCase[k] = caseOf(l.colliding.v, l.onCutoff.v, l.leftLeg.v);
    }
}

} // namespace ORCA_LANES

#if !defined(ORCA_AGENT_LINE_KERNEL_AVX2)

#if defined(ORCA_HAVE_AVX2_KERNEL)
/// Four neighbours at a time in AVX2 registers (agent_line_kernel_avx2.cpp); call only when
/// the CPU supports AVX2.
void computeAgentLinesAvx2(std::size_t n, const AgentLineBatch& b, double invTimeHorizon,
                           double invTimeStep);
/// One agent's lines to its neighbours, the kernel's inputs gathered into AVX2 registers
/// straight from the agent arrays (stored one by one and reloaded four at a time, they would
/// wait for the stores to reach the cache). Lane k is neighbour index[k] of agent `self` at
/// (p, v) with radius r, exactly as computed one by one: rp = p_j - p (coincident centres
/// split by agent order), rv = v - v_j, R = r + r_j. `padded` is a multiple of 4; index has
/// that many entries (padding lanes repeat a real neighbour). The inputs b.rpx... are unused.
void computeAgentLinesGatheredAvx2(std::size_t padded, const AgentLineSources& src,
                                   const AgentLineBatch& b, double invTimeHorizon,
                                   double invTimeStep);
/// True when this CPU runs the AVX2 kernel.
bool cpuHasAvx2();
#endif

/// The lines of n neighbours, on the widest lanes this CPU has. When the arrays hold
/// `padded` >= n valid inputs (a multiple of 4), lines n..padded-1 may be computed too, so
/// that whole quadruples replace a branchy tail.
inline void computeAgentLines(std::size_t n, std::size_t padded, const AgentLineBatch& b,
                              double invTimeHorizon, double invTimeStep) {
#if defined(ORCA_HAVE_AVX2_KERNEL)
    static const bool avx2 = cpuHasAvx2();
    if (avx2 && padded % 4 == 0) {
        computeAgentLinesAvx2(padded, b, invTimeHorizon, invTimeStep); // quadruples only
        return;
    }
    if (avx2 && n >= 4) {
        computeAgentLinesAvx2(n, b, invTimeHorizon, invTimeStep);
        return;
    }
#endif
    (void)padded;
    lanes::computeLines(n, b, invTimeHorizon, invTimeStep);
}
inline void computeAgentLines(std::size_t n, const AgentLineBatch& b, double invTimeHorizon,
                              double invTimeStep) {
    computeAgentLines(n, n, b, invTimeHorizon, invTimeStep);
}

#endif

} // namespace orca::detail
