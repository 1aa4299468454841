#include "thread_pool.hpp"

#include <algorithm>
#include <chrono>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace orca::detail {

namespace {

void cpuRelax() {
#if defined(__SSE2__)
    _mm_pause();
#else
    std::this_thread::yield();
#endif
}

/// How long an idle worker spins before it sleeps.
constexpr auto kSpin = std::chrono::microseconds(300);

} // namespace

ThreadPool::ThreadPool(int threads) {
    const int extra = std::max(threads, 1) - 1;
    // Spinning only pays when every thread has a core of its own; oversubscribed, a spinning
    // thread steals the time slice of one that has work.
    const unsigned cores = std::thread::hardware_concurrency();
    m_spin = cores == 0 || static_cast<unsigned>(extra + 1) <= cores;
    m_shares = std::make_unique<Share[]>(static_cast<std::size_t>(extra + 1));
    m_threads.reserve(static_cast<std::size_t>(extra));
    for (int w = 1; w <= extra; ++w)
        m_threads.emplace_back([this, w] { workerLoop(w); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop.store(true);
    }
    m_wake.notify_all();
    for (std::thread& t : m_threads)
        t.join();
}

void ThreadPool::prepare() {
    if (m_threads.empty()) return;
    {
        std::lock_guard lock(m_mutex);
        m_prepared.fetch_add(1, std::memory_order_relaxed);
    }
    m_wake.notify_all();
}

bool ThreadPool::take(Share& share, bool front, std::uint32_t& chunk) {
    std::uint64_t range = share.range.load(std::memory_order_relaxed);
    for (;;) {
        const auto first = static_cast<std::uint32_t>(range >> 32);
        const auto last = static_cast<std::uint32_t>(range); // exclusive
        if (first >= last) return false;
        const std::uint64_t next = front ? range + (std::uint64_t{1} << 32) : range - 1;
        if (share.range.compare_exchange_weak(range, next, std::memory_order_relaxed)) {
            chunk = front ? first : last - 1;
            return true;
        }
    }
}

void ThreadPool::runChunks(int worker) {
    // Its own share front to back, then the others' from the back.
    const int workers = size();
    for (int k = 0; k < workers; ++k) {
        Share& share = m_shares[static_cast<std::size_t>((worker + k) % workers)];
        std::uint32_t chunk = 0;
        while (take(share, k == 0, chunk)) {
            const std::size_t begin = static_cast<std::size_t>(chunk) * m_grain;
            (*m_body)(begin, std::min(begin + m_grain, m_count), worker);
        }
    }
}

void ThreadPool::parallelFor(std::size_t n, std::size_t grain, const Body& body) {
    if (n == 0) return;
    // (At most 2^32 - 1 chunks: a share packs chunk numbers in 32 bits.)
    constexpr std::size_t kMaxChunks = 0xffffffffu;
    grain = std::max({grain, std::size_t{1}, n / kMaxChunks + 1});
    if (m_threads.empty() || n <= grain) {
        body(0, n, 0);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_body = &body;
        m_count = n;
        m_grain = grain;
        const std::size_t chunks = (n + grain - 1) / grain;
        const auto workers = static_cast<std::size_t>(size());
        for (std::size_t w = 0; w < workers; ++w) {
            const std::uint64_t first = chunks * w / workers;
            const std::uint64_t last = chunks * (w + 1) / workers;
            m_shares[w].range.store(first << 32 | last, std::memory_order_relaxed);
        }
        m_pending.store(static_cast<int>(m_threads.size()), std::memory_order_relaxed);
        m_generation.fetch_add(1, std::memory_order_release);
    }
    m_wake.notify_all();
    runChunks(0);
    // Wait for the workers to finish their last chunks (short: spin, then yield).
    for (int i = 0; m_pending.load(std::memory_order_acquire) != 0; ++i) {
        if (m_spin && i < 4096) {
            cpuRelax();
        } else {
            std::this_thread::yield();
        }
    }
}

bool ThreadPool::spinForJob(std::uint64_t seen) const {
    if (!m_spin) return m_generation.load(std::memory_order_acquire) != seen || m_stop.load();
    const auto until = std::chrono::steady_clock::now() + kSpin;
    for (int i = 0;; ++i) {
        if (m_generation.load(std::memory_order_acquire) != seen || m_stop.load()) return true;
        cpuRelax();
        if ((i & 63) == 63 && std::chrono::steady_clock::now() > until) return false;
    }
}

void ThreadPool::workerLoop(int worker) {
    std::uint64_t seen = 0;
    std::uint64_t seenPrepared = 0;
    for (;;) {
        if (!spinForJob(seen)) {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] {
                return m_stop.load() || m_generation.load() != seen ||
                       m_prepared.load() != seenPrepared;
            });
            seenPrepared = m_prepared.load();
            if (m_generation.load() == seen && !m_stop.load()) continue; // woken early: spin
        }
        if (m_stop.load()) return;
        seen = m_generation.load(std::memory_order_acquire);
        runChunks(worker);
        m_pending.fetch_sub(1, std::memory_order_acq_rel);
    }
}

} // namespace orca::detail
