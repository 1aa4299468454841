// The simulator's thread pool (core/src/thread_pool.hpp): every item once, in chunks of the
// grain, whatever the thread count; each worker works its own share front to back and takes
// the others' from the back; a worker that stalls has its share finished by the others.

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <vector>

#include "thread_pool.hpp"

namespace {

using orca::detail::ThreadPool;

TEST(ThreadPool, EveryItemOnceInChunksOfTheGrain) {
    for (int threads : {1, 2, 3, 4, 7}) {
        ThreadPool pool(threads);
        for (std::size_t n : {0, 1, 5, 100, 1000, 4097}) {
            for (std::size_t grain : {0, 1, 3, 64, 5000}) {
                SCOPED_TRACE(testing::Message()
                             << threads << " threads, " << n << " items, grain " << grain);
                std::vector<std::atomic<int>> seen(n);
                std::atomic<bool> badChunk{false};
                const std::size_t step = std::max<std::size_t>(grain, 1);
                pool.parallelFor(n, grain, [&](std::size_t begin, std::size_t end, int worker) {
                    // One chunk of the grain, from a multiple of it (or all items at once when
                    // they fit in one, or the caller is the only worker).
                    const bool whole = begin == 0 && end == n && (n <= step || threads == 1);
                    if (!whole && (begin % step != 0 || end != std::min(begin + step, n)))
                        badChunk = true;
                    if (worker < 0 || worker >= pool.size()) badChunk = true;
                    for (std::size_t i = begin; i < end; ++i)
                        seen[i].fetch_add(1);
                });
                EXPECT_FALSE(badChunk.load());
                for (std::size_t i = 0; i < n; ++i)
                    ASSERT_EQ(seen[i].load(), 1) << "item " << i;
            }
        }
    }
}

TEST(ThreadPool, EachWorkerTakesItsShareFromTheFrontAndOthersFromTheBack) {
    constexpr std::size_t kChunks = 400;
    for (int threads : {2, 3}) {
        SCOPED_TRACE(threads);
        ThreadPool pool(threads);
        for (int round = 0; round < 20; ++round) {
            std::mutex mutex;
            std::vector<std::vector<std::size_t>> ran(static_cast<std::size_t>(threads));
            pool.parallelFor(kChunks, 1, [&](std::size_t begin, std::size_t, int worker) {
                const std::lock_guard lock(mutex);
                ran[static_cast<std::size_t>(worker)].push_back(begin);
            });
            // Worker w's share is chunks [kChunks * w / threads, kChunks * (w + 1) / threads).
            auto firstOf = [&](int w) {
                return kChunks * static_cast<std::size_t>(w) / static_cast<std::size_t>(threads);
            };
            auto shareOf = [&](std::size_t chunk) {
                int w = 0;
                while (chunk >= firstOf(w + 1))
                    ++w;
                return w;
            };
            std::size_t total = 0;
            for (int w = 0; w < threads; ++w) {
                const std::vector<std::size_t>& mine = ran[static_cast<std::size_t>(w)];
                total += mine.size();
                std::size_t nextOwn = firstOf(w);
                std::vector<std::size_t> lastTaken(static_cast<std::size_t>(threads), kChunks);
                for (const std::size_t chunk : mine) {
                    const int share = shareOf(chunk);
                    if (share == w) {
                        // Its own share: in order from the share's first chunk.
                        EXPECT_EQ(chunk, nextOwn) << "worker " << w;
                        ++nextOwn;
                    } else {
                        // Another's: from the back, descending.
                        EXPECT_LT(chunk, lastTaken[static_cast<std::size_t>(share)])
                            << "worker " << w;
                        lastTaken[static_cast<std::size_t>(share)] = chunk;
                    }
                }
            }
            EXPECT_EQ(total, kChunks);
        }
    }
}

TEST(ThreadPool, TheOthersFinishTheShareOfAStalledWorker) {
    // Worker 1 stalls in the first chunk it runs until every other chunk is done: worker 0
    // must take all of the rest of worker 1's share (from its back). If worker 1 wakes only
    // after worker 0 did everything, it runs nothing; either way each item runs once.
    constexpr std::size_t kChunks = 100;
    ThreadPool pool(2);
    for (int round = 0; round < 5; ++round) {
        std::vector<std::atomic<int>> seen(kChunks);
        std::atomic<std::size_t> done{0};
        std::atomic<int> byWorker1{0};
        std::atomic<bool> timedOut{false};
        pool.parallelFor(kChunks, 1, [&](std::size_t begin, std::size_t, int worker) {
            seen[begin].fetch_add(1);
            if (worker == 1 && byWorker1.fetch_add(1) == 0) {
                const auto until = std::chrono::steady_clock::now() + std::chrono::seconds(20);
                while (done.load() < kChunks - 1) {
                    if (std::chrono::steady_clock::now() > until) {
                        timedOut = true;
                        break;
                    }
                    std::this_thread::yield();
                }
            }
            done.fetch_add(1);
        });
        EXPECT_FALSE(timedOut.load()) << "worker 0 did not take over worker 1's share";
        EXPECT_LE(byWorker1.load(), 1);
        for (std::size_t i = 0; i < kChunks; ++i)
            EXPECT_EQ(seen[i].load(), 1) << "chunk " << i;
    }
}

} // namespace
