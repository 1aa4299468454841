#pragma once
// Whether this test binary is built with a sanitizer (ASan, TSan): timing bounds of the speed
// tests are loosened for it by the tests that use this (the sanitizers slow everything down).

namespace orca::test {

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
inline constexpr bool kSanitized = true;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
inline constexpr bool kSanitized = true;
#else
inline constexpr bool kSanitized = false;
#endif
#else
inline constexpr bool kSanitized = false;
#endif

} // namespace orca::test
