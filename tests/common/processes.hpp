#pragma once
// Process ids for tests of "is its process gone?" (the atomic writes' stale temporaries).

#include <signal.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

namespace orca::test {

/// The id of a process that no longer exists: a child that exited and was reaped, checked with
/// kill(pid, 0) == ESRCH (ids are handed out in increasing order, so it stays free for the
/// length of a test unless the ids wrap around).
inline pid_t deadProcessId() {
    for (int attempt = 0; attempt < 16; ++attempt) {
        const pid_t pid = ::fork();
        if (pid < 0) break;
        if (pid == 0) ::_exit(0);
        int status = 0;
        ::waitpid(pid, &status, 0);
        if (::kill(pid, 0) != 0 && errno == ESRCH) return pid;
    }
    throw std::runtime_error("deadProcessId: no free process id found");
}

} // namespace orca::test
