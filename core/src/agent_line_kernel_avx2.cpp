// The agent-line kernel on four lanes (AVX2), compiled with -mavx2 (never -mfma: the lanes
// must perform the same IEEE operations as the scalar and SSE2 paths). Used only when
// cpuHasAvx2() says so.
#define ORCA_AGENT_LINE_KERNEL_AVX2
#include "agent_line_kernel.hpp"

#include <immintrin.h>

#include <limits>

namespace orca::detail {

namespace lanes_avx2 {

/// Four doubles in an AVX register.
struct D4 {
    __m256d v;
};
struct M4 {
    __m256d v;
};
inline D4 operator+(D4 a, D4 b) {
    return {_mm256_add_pd(a.v, b.v)};
}
inline D4 operator-(D4 a, D4 b) {
    return {_mm256_sub_pd(a.v, b.v)};
}
inline D4 operator*(D4 a, D4 b) {
    return {_mm256_mul_pd(a.v, b.v)};
}
inline D4 operator/(D4 a, D4 b) {
    return {_mm256_div_pd(a.v, b.v)};
}
inline D4 operator-(D4 a) {
    return {_mm256_xor_pd(a.v, _mm256_set1_pd(-0.0))};
}
inline D4 sqrt(D4 a) {
    return {_mm256_sqrt_pd(a.v)};
}
// Ordered, non-signalling comparisons: the same results as the scalar operators.
inline M4 operator<(D4 a, D4 b) {
    return {_mm256_cmp_pd(a.v, b.v, _CMP_LT_OQ)};
}
inline M4 operator>(D4 a, D4 b) {
    return {_mm256_cmp_pd(a.v, b.v, _CMP_GT_OQ)};
}
inline M4 operator<=(D4 a, D4 b) {
    return {_mm256_cmp_pd(a.v, b.v, _CMP_LE_OQ)};
}
inline M4 operator&(M4 a, M4 b) {
    return {_mm256_and_pd(a.v, b.v)};
}
inline M4 operator|(M4 a, M4 b) {
    return {_mm256_or_pd(a.v, b.v)};
}
inline D4 select(M4 m, D4 a, D4 b) {
    return {_mm256_blendv_pd(b.v, a.v, m.v)};
}
inline bool any(M4 m) {
    return _mm256_movemask_pd(m.v) != 0;
}
inline bool all(M4 m) {
    return _mm256_movemask_pd(m.v) == 15;
}

/// Stores quadruple k's lines and cases.
inline void store(const Line<D4, M4>& l, const AgentLineBatch& b, std::size_t k) {
    _mm256_storeu_pd(b.dx + k, l.dx.v);
    _mm256_storeu_pd(b.dy + k, l.dy.v);
    _mm256_storeu_pd(b.ux + k, l.ux.v);
    _mm256_storeu_pd(b.uy + k, l.uy.v);
    const int colliding = _mm256_movemask_pd(l.colliding.v);
    const int onCutoff = _mm256_movemask_pd(l.onCutoff.v);
    const int leftLeg = _mm256_movemask_pd(l.leftLeg.v);
    for (int lane = 0; lane < 4; ++lane) {
        b.lineCase[k + static_cast<std::size_t>(lane)] =
            caseOf((colliding >> lane) & 1, (onCutoff >> lane) & 1, (leftLeg >> lane) & 1);
    }
}

} // namespace lanes_avx2

void computeAgentLinesAvx2(std::size_t n, const AgentLineBatch& b, double invTimeHorizon,
                           double invTimeStep) {
    using lanes_avx2::D4;
    using lanes_avx2::M4;
    const D4 invTau{_mm256_set1_pd(invTimeHorizon)};
    const D4 invDt{_mm256_set1_pd(invTimeStep)};
    const D4 zero{_mm256_setzero_pd()};
    const D4 one{_mm256_set1_pd(1.0)};
    std::size_t k = 0;
    for (; k + 4 <= n; k += 4) {
        const auto l = lanes_avx2::agentLine<D4, M4>(
            D4{_mm256_loadu_pd(b.rpx + k)}, D4{_mm256_loadu_pd(b.rpy + k)},
            D4{_mm256_loadu_pd(b.rvx + k)}, D4{_mm256_loadu_pd(b.rvy + k)},
            D4{_mm256_loadu_pd(b.radius + k)}, invTau, invDt, zero, one);
        lanes_avx2::store(l, b, k);
    }
    if (k < n) {
        // The rest on SSE2 pairs / one lane (this file's own copies of those paths).
        const AgentLineBatch rest{b.rpx + k, b.rpy + k, b.rvx + k, b.rvy + k, b.radius + k,
                                  b.dx + k,  b.dy + k,  b.ux + k,  b.uy + k,  b.lineCase + k};
        lanes_avx2::computeLines(n - k, rest, invTimeHorizon, invTimeStep);
    }
}

void computeAgentLinesGatheredAvx2(std::size_t padded, const AgentLineSources& src,
                                   const AgentLineBatch& b, double invTimeHorizon,
                                   double invTimeStep) {
    using lanes_avx2::D4;
    using lanes_avx2::M4;
    const D4 invTau{_mm256_set1_pd(invTimeHorizon)};
    const D4 invDt{_mm256_set1_pd(invTimeStep)};
    const D4 zero{_mm256_setzero_pd()};
    const D4 one{_mm256_set1_pd(1.0)};
    const __m256d px = _mm256_set1_pd(src.p.x);
    const __m256d py = _mm256_set1_pd(src.p.y);
    const __m256d vx = _mm256_set1_pd(src.v.x);
    const __m256d vy = _mm256_set1_pd(src.v.y);
    const __m256d r = _mm256_set1_pd(src.r);
    // (x, y) of four agents into an x vector and a y vector.
    auto load4 = [](const Vec2* a, const std::uint32_t* j, __m256d& x, __m256d& y) {
        const __m256d lo = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&a[j[0]].x)),
                                                _mm_loadu_pd(&a[j[2]].x), 1);
        const __m256d hi = _mm256_insertf128_pd(_mm256_castpd128_pd256(_mm_loadu_pd(&a[j[1]].x)),
                                                _mm_loadu_pd(&a[j[3]].x), 1);
        x = _mm256_unpacklo_pd(lo, hi); // x0 x1 x2 x3
        y = _mm256_unpackhi_pd(lo, hi);
    };
    for (std::size_t k = 0; k < padded; k += 4) {
        const std::uint32_t* j = src.index + k;
        __m256d qx, qy, wx, wy;
        load4(src.position, j, qx, qy);
        load4(src.velocity, j, wx, wy);
        __m256d rpx = _mm256_sub_pd(qx, px);
        __m256d rpy = _mm256_sub_pd(qy, py);
        // relativePosition()'s rule: a squared distance that underflows splits the pair by
        // agent order (rare: those lanes go through memory).
        const int coincident = _mm256_movemask_pd(
            _mm256_cmp_pd(_mm256_add_pd(_mm256_mul_pd(rpx, rpx), _mm256_mul_pd(rpy, rpy)),
                          _mm256_set1_pd(std::numeric_limits<double>::min()), _CMP_LT_OQ));
        if (coincident != 0) {
            alignas(32) double x[4];
            alignas(32) double y[4];
            _mm256_store_pd(x, rpx);
            _mm256_store_pd(y, rpy);
            for (int lane = 0; lane < 4; ++lane) {
                if ((coincident >> lane) & 1) {
                    x[lane] = j[lane] > src.self ? 1e-9 : -1e-9;
                    y[lane] = 0.0;
                }
            }
            rpx = _mm256_load_pd(x);
            rpy = _mm256_load_pd(y);
        }
        const __m256d rvx = _mm256_sub_pd(vx, wx);
        const __m256d rvy = _mm256_sub_pd(vy, wy);
        const __m256d radius = _mm256_add_pd(r, _mm256_set_pd(src.radius[j[3]], src.radius[j[2]],
                                                              src.radius[j[1]], src.radius[j[0]]));
        const auto l = lanes_avx2::agentLine<D4, M4>(D4{rpx}, D4{rpy}, D4{rvx}, D4{rvy}, D4{radius},
                                                     invTau, invDt, zero, one);
        lanes_avx2::store(l, b, k);
    }
}

bool cpuHasAvx2() {
    return __builtin_cpu_supports("avx2");
}

} // namespace orca::detail
