#include "thread_pool.hpp"

#include <algorithm>

namespace orca::detail {

ThreadPool::ThreadPool(int threads) {
    const int extra = std::max(threads, 1) - 1;
    m_threads.reserve(static_cast<std::size_t>(extra));
    for (int w = 1; w <= extra; ++w) m_threads.emplace_back([this, w] { workerLoop(w); });
}

ThreadPool::~ThreadPool() {
    {
        std::lock_guard lock(m_mutex);
        m_stop = true;
    }
    m_wake.notify_all();
    for (std::thread& t : m_threads) t.join();
}

void ThreadPool::runChunks(int worker) {
    for (;;) {
        const std::size_t begin = m_next.fetch_add(m_grain, std::memory_order_relaxed);
        if (begin >= m_count) return;
        (*m_body)(begin, std::min(begin + m_grain, m_count), worker);
    }
}

void ThreadPool::parallelFor(std::size_t n, std::size_t grain, const Body& body) {
    if (n == 0) return;
    grain = std::max<std::size_t>(grain, 1);
    if (m_threads.empty() || n <= grain) {
        body(0, n, 0);
        return;
    }
    {
        std::lock_guard lock(m_mutex);
        m_body = &body;
        m_count = n;
        m_grain = grain;
        m_next.store(0, std::memory_order_relaxed);
        m_pending = static_cast<int>(m_threads.size());
        ++m_generation;
    }
    m_wake.notify_all();
    runChunks(0);
    std::unique_lock lock(m_mutex);
    m_done.wait(lock, [this] { return m_pending == 0; });
    m_body = nullptr;
}

void ThreadPool::workerLoop(int worker) {
    std::uint64_t seen = 0;
    for (;;) {
        {
            std::unique_lock lock(m_mutex);
            m_wake.wait(lock, [&] { return m_stop || m_generation != seen; });
            if (m_stop) return;
            seen = m_generation;
        }
        runChunks(worker);
        {
            std::lock_guard lock(m_mutex);
            if (--m_pending == 0) m_done.notify_one();
        }
    }
}

} // namespace orca::detail
