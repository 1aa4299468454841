#include "files/desktop_dialog.hpp"

#include <cerrno>
#include <csignal>
#include <cstring>

#include <fcntl.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char** environ; // NOLINT: POSIX, for posix_spawn

namespace fs = std::filesystem;

namespace orca::app::files {

std::optional<fs::path> findProgram(const std::string& program, const std::string& pathEnv) {
    auto runnable = [](const fs::path& p) {
        struct stat st {};
        return ::stat(p.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(p.c_str(), X_OK) == 0;
    };
    if (program.empty()) return std::nullopt;
    if (program.find('/') != std::string::npos)
        return runnable(program) ? std::optional<fs::path>(program) : std::nullopt;
    std::size_t begin = 0;
    for (;;) {
        const std::size_t end = pathEnv.find(':', begin);
        const std::string dir = pathEnv.substr(begin, end - begin);
        const fs::path p = (dir.empty() ? fs::path(".") : fs::path(dir)) / program;
        if (runnable(p)) return p;
        if (end == std::string::npos) return std::nullopt;
        begin = end + 1;
    }
}

std::vector<std::string> zenityArguments(FileKind kind, const std::string& title,
                                         const std::string& preset) {
    std::vector<std::string> args{"zenity", "--file-selection", "--title=" + title};
    if (isSaveKind(kind)) {
        args.emplace_back("--save");
        args.emplace_back("--confirm-overwrite");
    }
    if (!preset.empty()) args.push_back("--filename=" + preset);
    std::string patterns;
    for (const std::string& ext : kindExtensions(kind))
        patterns += (patterns.empty() ? "*" : " *") + ext;
    args.push_back(std::string("--file-filter=") + kindLabel(kind) + " | " + patterns);
    args.emplace_back("--file-filter=All files | *");
    return args;
}

DesktopDialog::~DesktopDialog() {
    cancel();
}

bool DesktopDialog::start(const fs::path& program, const std::vector<std::string>& args) {
    cancel();
    m_out.clear();
    m_path.clear();
    m_error.clear();
    int fds[2];
    if (::pipe2(fds, O_CLOEXEC) != 0) {
        m_error = std::string("pipe: ") + std::strerror(errno);
        m_state = State::Failed;
        return false;
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, fds[1], STDOUT_FILENO);
    std::vector<char*> argv;
    argv.reserve(args.size() + 1);
    for (const std::string& a : args)
        argv.push_back(const_cast<char*>(a.c_str())); // posix_spawn does not write them
    argv.push_back(nullptr);
    pid_t pid = -1;
    const int rc = ::posix_spawn(&pid, program.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    ::close(fds[1]);
    if (rc != 0) {
        ::close(fds[0]);
        m_error = program.string() + ": " + std::strerror(rc);
        m_state = State::Failed;
        return false;
    }
    ::fcntl(fds[0], F_SETFL, ::fcntl(fds[0], F_GETFL) | O_NONBLOCK);
    m_pid = pid;
    m_fd = fds[0];
    m_state = State::Running;
    return true;
}

void DesktopDialog::drain() {
    if (m_fd < 0) return;
    char buf[4096];
    for (;;) {
        const ssize_t n = ::read(m_fd, buf, sizeof buf);
        if (n > 0) {
            if (m_out.size() < 65536) m_out.append(buf, static_cast<std::size_t>(n));
            continue;
        }
        if (n < 0 && errno == EINTR) continue;
        break; // EOF or EAGAIN
    }
}

DesktopDialog::State DesktopDialog::poll() {
    if (m_state != State::Running) return m_state;
    drain();
    int status = 0;
    const pid_t r = ::waitpid(m_pid, &status, WNOHANG);
    if (r == 0) return m_state;
    drain();
    ::close(m_fd);
    m_fd = -1;
    m_pid = -1;
    if (r < 0) {
        m_error = std::string("waitpid: ") + std::strerror(errno);
        m_state = State::Failed;
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        std::string out = m_out;
        while (!out.empty() && (out.back() == '\n' || out.back() == '\r'))
            out.pop_back();
        if (out.empty()) {
            m_error = "the desktop dialog answered nothing";
            m_state = State::Failed;
        } else {
            m_path = out;
            m_state = State::Chosen;
        }
    } else if (WIFEXITED(status) && WEXITSTATUS(status) == 1) {
        m_state = State::Cancelled;
    } else {
        m_error = WIFEXITED(status)
                      ? "the desktop dialog failed (exit status " +
                            std::to_string(WEXITSTATUS(status)) + ")"
                      : "the desktop dialog was killed (signal " +
                            std::to_string(WIFSIGNALED(status) ? WTERMSIG(status) : 0) + ")";
        m_state = State::Failed;
    }
    return m_state;
}

void DesktopDialog::cancel() {
    if (m_pid > 0) {
        ::kill(m_pid, SIGTERM);
        int status = 0;
        while (::waitpid(m_pid, &status, 0) < 0 && errno == EINTR) {
        }
    }
    if (m_fd >= 0) ::close(m_fd);
    m_pid = -1;
    m_fd = -1;
    m_state = State::Idle;
}

void DesktopDialog::reset() {
    if (m_state == State::Running) cancel();
    m_state = State::Idle;
}

} // namespace orca::app::files
