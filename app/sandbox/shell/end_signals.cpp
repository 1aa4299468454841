#include "shell/end_signals.hpp"

#include <array>
#include <atomic>
#include <csignal>

namespace orca::app {

namespace {

constexpr std::array<int, 3> kSignals{SIGTERM, SIGINT, SIGHUP};

// Lock-free, so safe in a handler (static_assert below).
std::atomic<int> g_caught{0};
static_assert(std::atomic<int>::is_always_lock_free);
std::array<struct sigaction, kSignals.size()> g_previous{};
bool g_active = false;

void onEndSignal(int signal) {
    int none = 0;
    g_caught.compare_exchange_strong(none, signal); // the first one stays
}

} // namespace

EndSignals::EndSignals() {
    if (g_active) return; // one at a time
    m_owner = true;
    g_caught = 0;
    struct sigaction action {};
    action.sa_handler = onEndSignal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    for (std::size_t k = 0; k < kSignals.size(); ++k)
        sigaction(kSignals[k], &action, &g_previous[k]);
    g_active = true;
}

EndSignals::~EndSignals() {
    if (!m_owner) return;
    for (std::size_t k = 0; k < kSignals.size(); ++k)
        sigaction(kSignals[k], &g_previous[k], nullptr);
    g_active = false;
}

int EndSignals::take() {
    return m_owner ? g_caught.exchange(0) : 0;
}

} // namespace orca::app
