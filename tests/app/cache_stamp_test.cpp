// The app's cache helper (app/sandbox/cache_stamp.hpp): a cache is stale until refreshed for a
// version, again when the version moves on or the cache is invalidated.

#include <gtest/gtest.h>

#include <cstdint>

#include "cache_stamp.hpp"

namespace orca::app {
namespace {

TEST(CacheStamp, StaleUntilRefreshedForTheVersion) {
    CacheStamp stamp;
    EXPECT_TRUE(stamp.stale(0)); // never computed: every version is stale
    stamp.refresh(0);
    EXPECT_FALSE(stamp.stale(0));
    EXPECT_TRUE(stamp.stale(1)); // the state moved on
    stamp.refresh(1);
    EXPECT_FALSE(stamp.stale(1));
    stamp.invalidate(); // e.g. the selection changed: same version, still stale
    EXPECT_TRUE(stamp.stale(1));
    EXPECT_TRUE(stamp.stale(~std::uint64_t{0} - 1));
}

TEST(VersionedCache, ComputesOncePerVersion) {
    VersionedCache<int> cache;
    int calls = 0;
    auto compute = [&] { return ++calls * 10; };
    EXPECT_EQ(cache.value(), 0); // a default value before the first computation
    EXPECT_EQ(cache.get(5, compute), 10);
    EXPECT_EQ(cache.get(5, compute), 10);
    EXPECT_EQ(calls, 1);
    EXPECT_FALSE(cache.stale(5));
    EXPECT_EQ(cache.get(6, compute), 20);
    EXPECT_EQ(calls, 2);
    cache.invalidate();
    EXPECT_TRUE(cache.stale(6));
    EXPECT_EQ(cache.get(6, compute), 30);
    EXPECT_EQ(cache.value(), 30);
    EXPECT_EQ(calls, 3);
}

} // namespace
} // namespace orca::app
