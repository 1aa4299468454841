// Memory for a recording's next keyframes, made ready ahead (detail::StateSpares,
// history.hpp). A fresh page's first write costs about 0.4 ns per byte on the VMs measured,
// against 0.02 for a copy into memory already mapped (docs/performance.md, "Keyframes into
// memory made ready ahead").
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <thread>
#include <utility>
#include <vector>

#if defined(__linux__)
#include <pthread.h>
#include <sched.h>
#endif

#include "orca/geometry.hpp"
#include "orca/history.hpp"

namespace orca::detail {

namespace {

/// Room in `s` for `agents` without growing, and not more than twice that (a spare from a
/// bigger crowd would hold memory its keyframe does not count).
bool fits(const SimulatorState& s, std::size_t agents) {
    return s.position.capacity() >= agents && s.velocity.capacity() >= agents &&
           s.position.capacity() <= 2 * agents + 64;
}

/// The preparing thread runs only where a core is idle (SCHED_IDLE): it never takes time from
/// the simulator's threads.
void lowerPriority(std::thread& t) {
#if defined(__linux__)
    sched_param none{};
    (void)pthread_setschedparam(t.native_handle(), SCHED_IDLE, &none);
#else
    (void)t;
#endif
}

/// Bytes a spare holds: the capacity of its position and velocity arrays.
std::size_t heldBytes(const SimulatorState& s) {
    return (s.position.capacity() + s.velocity.capacity()) * sizeof(Vec2);
}

} // namespace

struct StateSpares::Shared {
    mutable std::mutex mutex;
    std::condition_variable wake;
    std::vector<SimulatorState> ready;
    /// The spare asked of the preparing thread (agents; 0: none). Counted in bytes() from the
    /// request on, so that the count changes only in take(), give() and clear().
    std::size_t pendingAgents = 0;
    std::uint64_t generation = 0; ///< clear() drops the spare being prepared
    std::chrono::steady_clock::time_point lastTake;
    bool sleeping = false; ///< the preparing thread waits for a notify
    bool stop = false;
    std::thread thread;
    ~Shared();
    void prepareLoop();
    [[nodiscard]] std::size_t bytesLocked() const;
};

StateSpares::StateSpares() = default;
StateSpares::StateSpares(const StateSpares&) {}
StateSpares& StateSpares::operator=(const StateSpares&) {
    return *this;
}
StateSpares::StateSpares(StateSpares&&) noexcept = default;
StateSpares& StateSpares::operator=(StateSpares&&) noexcept = default;
StateSpares::~StateSpares() = default;

StateSpares::Shared::~Shared() {
    if (!thread.joinable()) return;
    {
        std::lock_guard lock(mutex);
        stop = true;
    }
    wake.notify_all();
    thread.join();
}

std::size_t StateSpares::Shared::bytesLocked() const {
    std::size_t b = bytesFor(pendingAgents);
    for (const SimulatorState& s : ready)
        b += heldBytes(s);
    return b;
}

void StateSpares::Shared::prepareLoop() {
    std::unique_lock lock(mutex);
    while (!stop) {
        if (pendingAgents > 0) {
            const std::size_t agents = pendingAgents;
            const std::uint64_t asked = generation;
            lock.unlock();
            SimulatorState s;
            // The page faults happen here, not on the stepping thread, and the arrays hold
            // `agents` elements already: the keyframe's copy can run in chunks on the
            // simulator's threads (Simulator::snapshotInto). (resize() allocates exactly
            // `agents`: the bytes counted since the request.)
            s.position.resize(agents);
            s.velocity.resize(agents);
            lock.lock();
            if (generation == asked) {
                ready.push_back(std::move(s));
                pendingAgents = 0;
            } else {
                lock.unlock(); // (cleared meanwhile: freed outside the lock)
                s = SimulatorState{};
                lock.lock();
            }
            continue;
        }
        // While the recording takes spares, this thread looks for the next request every
        // millisecond: a wake-up asked by the stepping thread would cost it 10-50 µs (measured
        // on the VMs, a kernel call and a cross-core interrupt), a keyframe's worth of faults
        // for 10,000 agents. After a pause it sleeps until take() wakes it.
        if (std::chrono::steady_clock::now() - lastTake < std::chrono::milliseconds(200)) {
            wake.wait_for(lock, std::chrono::milliseconds(1));
        } else {
            sleeping = true;
            wake.wait(lock, [&] { return stop || !sleeping; });
        }
    }
}

SimulatorState StateSpares::take(std::size_t agents, std::size_t room) {
    if (!m_shared) m_shared = std::make_unique<Shared>();
    Shared& sh = *m_shared;
    SimulatorState out;
    std::vector<SimulatorState> unfit; // freed outside the lock
    bool wake = false;
    {
        // (The preparing thread holds the lock only for moments, but at its low priority it can
        // be preempted in one: then this keyframe goes without a spare rather than wait.)
        std::unique_lock lock(sh.mutex, std::try_to_lock);
        if (!lock.owns_lock()) return out;
        while (!sh.ready.empty()) {
            SimulatorState s = std::move(sh.ready.back());
            sh.ready.pop_back();
            if (fits(s, agents)) {
                out = std::move(s);
                break;
            }
            unfit.push_back(std::move(s));
        }
        const std::size_t next = bytesFor(agents);
        if (next < kThreadBytes || sh.pendingAgents != 0 || !sh.ready.empty() ||
            sh.bytesLocked() + next > room)
            return out;
        sh.pendingAgents = agents;
        sh.lastTake = std::chrono::steady_clock::now();
        wake = std::exchange(sh.sleeping, false);
        if (!sh.thread.joinable()) {
            sh.thread = std::thread([&sh] { sh.prepareLoop(); });
            lowerPriority(sh.thread);
        }
    }
    if (wake) sh.wake.notify_one();
    return out;
}

void StateSpares::give(SimulatorState&& state, std::size_t room) {
    const std::size_t b = heldBytes(state);
    if (b == 0) return;
    if (!m_shared) m_shared = std::make_unique<Shared>();
    SimulatorState dropped; // freed outside the lock when not kept
    {
        std::unique_lock lock(m_shared->mutex, std::try_to_lock);
        if (lock.owns_lock() && m_shared->ready.size() < kKept &&
            m_shared->bytesLocked() + b <= room)
            m_shared->ready.push_back(std::move(state));
        else
            dropped = std::move(state);
    }
}

void StateSpares::clear() {
    if (!m_shared) return;
    std::vector<SimulatorState> dropped; // freed outside the lock
    {
        std::lock_guard lock(m_shared->mutex);
        dropped.swap(m_shared->ready);
        m_shared->pendingAgents = 0;
        ++m_shared->generation;
    }
}

std::size_t StateSpares::bytes() const {
    if (!m_shared) return 0;
    std::lock_guard lock(m_shared->mutex);
    return m_shared->bytesLocked();
}

} // namespace orca::detail
