// A watched step's flags finished four agents at a time (step_watch.hpp), compiled with
// -mavx2 (never -mfma: the lanes perform the scalar tests' IEEE operations, so they give the
// same bits). Used only when cpuHasAvx2() says so.
#include <immintrin.h>

#include <array>
#include <cstring>

#include "step_watch.hpp"

namespace orca::detail {

namespace {

// Two agents' velocities per register, unpacked to x and y lanes, hold agents (0, 2, 1, 3) of
// the four; the thresholds are permuted to match. A lane mask (movemask: bit k = lane k) turns
// into the four agents' bytes through a table: `bit` in byte a for each agent a whose lane's
// bit is set.
constexpr std::array<int, 4> kLaneOfAgent{0, 2, 1, 3};

constexpr std::array<std::uint32_t, 256> flagBytesTable() {
    std::array<std::uint32_t, 256> table{};
    for (unsigned mask = 0; mask < 256; ++mask) {
        const unsigned flip = mask & 15u;
        const unsigned slow = mask >> 4;
        std::uint32_t bytes = 0;
        for (unsigned agent = 0; agent < 4; ++agent) {
            const unsigned lane = static_cast<unsigned>(kLaneOfAgent[agent]);
            std::uint32_t b = 0;
            if ((flip >> lane) & 1u) b |= step_flag::kFlip;
            if ((slow >> lane) & 1u) b |= step_flag::kSlow;
            bytes |= b << (8 * agent); // (little-endian: byte a is agent a)
        }
        table[mask] = bytes;
    }
    return table;
}
constexpr std::array<std::uint32_t, 256> kFlagBytes = flagBytesTable();

// kAtGoal of each byte moved to kSlow's place: no kSlow for an agent at its goal.
static_assert(step_flag::kSlow == step_flag::kAtGoal << 2);
constexpr std::uint32_t kEachByte = 0x01010101u;

/// 0x80 in each byte of `x` equal to `value`, 0 in the others (exact: no carry between bytes).
inline std::uint32_t bytesEqual(std::uint32_t x, std::uint8_t value) {
    const std::uint32_t t = x ^ (kEachByte * value);
    const std::uint32_t low7 = (t & 0x7f7f7f7fu) + 0x7f7f7f7fu; // bit 7 set: a low bit of t
    return ~(low7 | t | 0x7f7f7f7fu);
}
static_assert(step_flag::kDetouring == 0x80 >> 5);

} // namespace

void addWatchFlagsAvx2(std::size_t begin, std::size_t end, const WatchFlagArrays& a) {
    static_assert(sizeof(Vec2) == 2 * sizeof(double));
    // (Local pointers: a byte store may alias anything, so `a`'s would be reloaded after each.)
    const double* const before = &a.before[0].x;
    const double* const after = &a.after[0].x;
    const double* const slowSqOf = a.slowSq;
    const double* const tinySqOf = a.tinySq;
    const std::uint8_t* const detourMode = a.detourMode;
    std::uint8_t* const flags = a.flags;
    std::uint8_t* const lastLp3 = a.lastLp3;
    const __m256d cosFlip = _mm256_set1_pd(a.cosFlip);
    constexpr auto kDetouring = static_cast<std::uint8_t>(DetourMode::Detouring);
    std::size_t i = begin;
    for (; i + 4 <= end; i += 4) {
        const __m256d u01 = _mm256_loadu_pd(before + 2 * i);
        const __m256d u23 = _mm256_loadu_pd(before + 2 * i + 4);
        const __m256d v01 = _mm256_loadu_pd(after + 2 * i);
        const __m256d v23 = _mm256_loadu_pd(after + 2 * i + 4);
        const __m256d ux = _mm256_unpacklo_pd(u01, u23);
        const __m256d uy = _mm256_unpackhi_pd(u01, u23);
        const __m256d vx = _mm256_unpacklo_pd(v01, v23);
        const __m256d vy = _mm256_unpackhi_pd(v01, v23);
        // (The scalar dot: x products first, then y, then their sum.)
        const __m256d uv = _mm256_add_pd(_mm256_mul_pd(ux, vx), _mm256_mul_pd(uy, vy));
        const __m256d uu = _mm256_add_pd(_mm256_mul_pd(ux, ux), _mm256_mul_pd(uy, uy));
        const __m256d vv = _mm256_add_pd(_mm256_mul_pd(vx, vx), _mm256_mul_pd(vy, vy));
        const __m256d slowSq = _mm256_permute4x64_pd(_mm256_loadu_pd(slowSqOf + i), 0xD8);
        const __m256d tinySq = _mm256_permute4x64_pd(_mm256_loadu_pd(tinySqOf + i), 0xD8);
        const __m256d slow = _mm256_cmp_pd(vv, slowSq, _CMP_LT_OQ);
        const __m256d turned = _mm256_cmp_pd(
            uv, _mm256_mul_pd(cosFlip, _mm256_sqrt_pd(_mm256_mul_pd(uu, vv))), _CMP_LT_OQ);
        const __m256d flip = _mm256_and_pd(_mm256_and_pd(_mm256_cmp_pd(uu, tinySq, _CMP_GT_OQ),
                                                         _mm256_cmp_pd(vv, tinySq, _CMP_GT_OQ)),
                                           turned);
        const auto mask =
            static_cast<unsigned>(_mm256_movemask_pd(flip) | _mm256_movemask_pd(slow) << 4);
        std::uint32_t moved;
        std::memcpy(&moved, flags + i, sizeof moved);
        std::uint32_t modes;
        std::memcpy(&modes, detourMode + i, sizeof modes);
        const std::uint32_t atGoal = (moved & (kEachByte * step_flag::kAtGoal)) << 2;
        const std::uint32_t out =
            moved | bytesEqual(modes, kDetouring) >> 5 | (kFlagBytes[mask] & ~atGoal);
        std::memcpy(flags + i, &out, sizeof out);
        const std::uint32_t lp3 = moved & (kEachByte * step_flag::kLp3);
        std::memcpy(lastLp3 + i, &lp3, sizeof lp3);
    }
    for (; i < end; ++i) {
        flags[i] = finishedFlags(a, i);
        lastLp3[i] = flags[i] & step_flag::kLp3;
    }
}

} // namespace orca::detail
