#pragma once
// A small persistent thread pool for the simulator's data-parallel phases. The calling thread
// takes part as worker 0. Work is handed out in chunks from an atomic counter; callers must
// only write per-item outputs, so the result never depends on which thread ran which chunk.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace orca::detail {

class ThreadPool {
public:
    /// Body of a parallel loop: process items [begin, end) on worker `worker` (0..size()-1).
    using Body = std::function<void(std::size_t begin, std::size_t end, int worker)>;

    explicit ThreadPool(int threads);
    ~ThreadPool();
    ThreadPool(const ThreadPool&) = delete;
    ThreadPool& operator=(const ThreadPool&) = delete;

    [[nodiscard]] int size() const { return static_cast<int>(m_threads.size()) + 1; }

    /// Runs body over [0, n) in chunks of `grain` items and returns when all are done.
    void parallelFor(std::size_t n, std::size_t grain, const Body& body);

private:
    void workerLoop(int worker);
    void runChunks(int worker);

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::condition_variable m_done;
    std::uint64_t m_generation = 0;
    int m_pending = 0; // workers (other than the caller) still busy with this generation
    bool m_stop = false;

    const Body* m_body = nullptr;
    std::size_t m_count = 0;
    std::size_t m_grain = 1;
    std::atomic<std::size_t> m_next{0};
};

} // namespace orca::detail
