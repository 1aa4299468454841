// The agent-line kernel on four lanes (AVX2), compiled with -mavx2 (never -mfma: the lanes
// must perform the same IEEE operations as the scalar and SSE2 paths). Used only when
// cpuHasAvx2() says so.
#define ORCA_AGENT_LINE_KERNEL_AVX2
#include "agent_line_kernel.hpp"

#include <immintrin.h>

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
        _mm256_storeu_pd(b.dx + k, l.dx.v);
        _mm256_storeu_pd(b.dy + k, l.dy.v);
        _mm256_storeu_pd(b.ux + k, l.ux.v);
        _mm256_storeu_pd(b.uy + k, l.uy.v);
        const int colliding = _mm256_movemask_pd(l.colliding.v);
        const int onCutoff = _mm256_movemask_pd(l.onCutoff.v);
        const int leftLeg = _mm256_movemask_pd(l.leftLeg.v);
        for (int lane = 0; lane < 4; ++lane) {
            b.lineCase[k + static_cast<std::size_t>(lane)] = lanes_avx2::caseOf(
                (colliding >> lane) & 1, (onCutoff >> lane) & 1, (leftLeg >> lane) & 1);
        }
    }
    if (k < n) {
        // The rest on SSE2 pairs / one lane (this file's own copies of those paths).
        const AgentLineBatch rest{b.rpx + k, b.rpy + k, b.rvx + k, b.rvy + k, b.radius + k,
                                  b.dx + k,  b.dy + k,  b.ux + k,  b.uy + k,  b.lineCase + k};
        lanes_avx2::computeLines(n - k, rest, invTimeHorizon, invTimeStep);
    }
}

bool cpuHasAvx2() {
    return __builtin_cpu_supports("avx2");
}

} // namespace orca::detail
