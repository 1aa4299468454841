#pragma once
// A small persistent thread pool for the simulator's data-parallel phases. The calling thread
// takes part as worker 0. Work is handed out in chunks: each worker starts on a contiguous
// share of its own, front to back, and one that runs out takes chunks from the back of
// another's share. Callers must only write per-item outputs, so the result never depends on
// which thread ran which chunk.
//
// Why shares, not one counter for all: the chunks of a phase are usually nearby agents, and
// their outputs (one byte or a velocity per agent, by agent index) share cache lines with
// their neighbours'. Two workers taking turns from one counter ran adjacent chunks side by
// side and wrote the same lines all the time; working at opposite ends they meet only once.
//
// Waking a sleeping thread takes ~100 µs here, a tenth of a 10k-agent step, so workers spin
// briefly after each job (steps usually follow each other closely) and the simulator calls
// prepare() at the start of a step, so that the workers are awake by the time the parallel
// phase begins.

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
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

    /// Wakes sleeping workers so that they spin, ready for the next parallelFor.
    void prepare();

    /// Runs body over [0, n) in chunks of `grain` items and returns when all are done.
    void parallelFor(std::size_t n, std::size_t grain, const Body& body);

  private:
    void workerLoop(int worker);
    void runChunks(int worker);
    /// Spins until a new job is published or the spin budget runs out; true if a job came.
    bool spinForJob(std::uint64_t seen) const;

    std::vector<std::thread> m_threads;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    std::atomic<std::uint64_t> m_generation{0}; ///< bumped for every job
    std::atomic<std::uint64_t> m_prepared{0};   ///< bumped by prepare()
    std::atomic<int> m_pending{0}; ///< workers (other than the caller) still on this job
    std::atomic<bool> m_stop{false};
    bool m_spin = true; ///< false when there are more threads than cores

    /// A worker's share of the job's chunks, [front, back) packed as front << 32 | back: its
    /// owner takes the front chunk, others the back one (compare-and-swap on both at once).
    struct alignas(64) Share {
        std::atomic<std::uint64_t> range{0};
    };
    /// The next chunk of `share` from its front (owner) or back; false when it is empty.
    static bool take(Share& share, bool front, std::uint32_t& chunk);

    const Body* m_body = nullptr;
    std::size_t m_count = 0;
    std::size_t m_grain = 1;
    std::unique_ptr<Share[]> m_shares; ///< one per worker
};

} // namespace orca::detail
