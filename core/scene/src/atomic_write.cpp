#include "orca/scene/atomic_write.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <mutex>
#include <optional>
#include <system_error>
#include <vector>

#include "orca/scene/path_text.hpp"

namespace fs = std::filesystem;

namespace orca::scene {

namespace {

std::string osError(int err) {
    return std::error_code(err, std::generic_category()).message();
}

/// "\"PATH\"" in the path's display form (path_text.hpp), appended, not `"\"" + string`: GCC
/// 12's -Wrestrict false positive.
std::string quoted(const fs::path& p) {
    std::string q(1, '"');
    q += displayPath(p);
    q += '"';
    return q;
}

/// The process's umask, read without changing it where the system allows (/proc), else by
/// setting and restoring it once (the result is cached).
mode_t currentUmask() {
    static const mode_t mask = [] {
        if (std::FILE* f = std::fopen("/proc/self/status", "r")) {
            char line[256];
            unsigned value = 0;
            bool found = false;
            while (!found && std::fgets(line, sizeof line, f) != nullptr)
                found = std::sscanf(line, "Umask: %o", &value) == 1;
            std::fclose(f);
            if (found) return static_cast<mode_t>(value);
        }
        const mode_t old = ::umask(022);
        ::umask(old);
        return old;
    }();
    return mask;
}

} // namespace

std::string atomicTemporaryPrefix(const fs::path& path) {
    std::string prefix(1, '.');
    prefix += path.filename().string();
    prefix += ".tmp-";
    return prefix;
}

namespace {

/// The file a write to `path` replaces: `path` itself, or what its symbolic links lead to.
fs::path resolveTarget(const fs::path& path, std::string& error) {
    std::error_code ec;
    if (!fs::is_symlink(fs::symlink_status(path, ec))) return path;
    // Follow the chain by hand (at most 40 links, as the kernel does): the last link may
    // name a file that does not exist yet, which is then created there.
    fs::path at = path;
    for (int hops = 0; hops < 40; ++hops) {
        const fs::path next = fs::read_symlink(at, ec);
        if (ec) {
            error = "cannot read the symbolic link " + quoted(at) + ": " + ec.message();
            return {};
        }
        at = next.is_absolute() ? next : at.parent_path() / next;
        if (!fs::is_symlink(fs::symlink_status(at, ec))) return at.lexically_normal();
    }
    error = quoted(path) + ": too many levels of symbolic links";
    return {};
}

/// The process id in `name` when it is exactly the name of a temporary file AtomicFile makes
/// for `prefix` (atomicTemporaryPrefix): the prefix, a decimal process id, '-' and the six
/// characters mkstemp draws from [A-Za-z0-9]. nullopt for any other name.
std::optional<pid_t> temporaryPid(std::string_view name, std::string_view prefix) {
    if (!name.starts_with(prefix)) return std::nullopt;
    const std::string_view rest = name.substr(prefix.size()); // "PID-XXXXXX"
    constexpr std::size_t kRandom = 6;
    if (rest.size() < kRandom + 2 || rest[rest.size() - kRandom - 1] != '-') return std::nullopt;
    for (char c : rest.substr(rest.size() - kRandom)) {
        const bool alnum =
            (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
        if (!alnum) return std::nullopt;
    }
    const std::string_view digits = rest.substr(0, rest.size() - kRandom - 1);
    if (digits.front() == '0') return std::nullopt; // getpid() never prints one
    long long pid = 0;
    const auto r = std::from_chars(digits.data(), digits.data() + digits.size(), pid);
    if (r.ec != std::errc() || r.ptr != digits.data() + digits.size() || pid <= 0 ||
        pid > std::numeric_limits<pid_t>::max())
        return std::nullopt;
    return static_cast<pid_t>(pid);
}

/// True when no process `pid` exists: kill(pid, 0) fails with ESRCH. A process that we may not
/// signal (EPERM) exists; so does ours.
bool processGone(pid_t pid) {
    return pid != ::getpid() && ::kill(pid, 0) != 0 && errno == ESRCH;
}

/// The names in `dir` that may be temporary files of AtomicFile ('.' first, ".tmp-" inside).
std::vector<std::string> temporaryCandidates(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        std::string name = it->path().filename().string();
        if (name.starts_with('.') && name.find(".tmp-") != std::string::npos)
            names.push_back(std::move(name));
    }
    return names;
}

/// Removes the files of `names` (in `dir`) that are temporaries for `prefix` whose process is
/// gone; they are taken out of `names`.
void removeStale(const fs::path& dir, const std::string& prefix, std::vector<std::string>& names) {
    std::erase_if(names, [&](const std::string& name) {
        const std::optional<pid_t> pid = temporaryPid(name, prefix);
        if (!pid || !processGone(*pid)) return false;
        ::unlink((dir / name).c_str()); // a failure leaves it for a later write; not an error
        return true;
    });
}

/// AtomicFile::open's clean-up: removes the temporaries for `prefix` in `dir` that a process
/// killed mid-write left. The directory's listing is kept for kListingLifetime (the last
/// directory only), so that a writer of many files in one folder (a PNG sequence) does not
/// list the folder once per file; a temporary left within that time waits for a later write.
void removeStaleTemporaries(const fs::path& dir, const std::string& prefix) {
    constexpr auto kListingLifetime = std::chrono::seconds(2);
    static std::mutex mutex;
    static std::string listedDir;
    static std::chrono::steady_clock::time_point listedAt;
    static std::vector<std::string> listing;
    const std::lock_guard lock(mutex);
    const auto now = std::chrono::steady_clock::now();
    if (listedDir != dir.native() || now - listedAt > kListingLifetime) {
        listing = temporaryCandidates(dir);
        listedDir = dir.native();
        listedAt = now;
    }
    removeStale(dir, prefix, listing);
}

} // namespace

bool AtomicFile::open(const fs::path& path, std::string& error) {
    abandon();
    m_error.clear();
    m_target = resolveTarget(path, error);
    if (m_target.empty()) return false;
    // What is there now decides the new file's mode, and whether it may be replaced at all.
    struct stat st {};
    mode_t mode = 0666 & ~currentUmask();
    if (::stat(m_target.c_str(), &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            error = quoted(m_target) + " is not a regular file: not replaced";
            return false;
        }
        if ((st.st_mode & 0222) == 0 || ::access(m_target.c_str(), W_OK) != 0) {
            error = quoted(m_target) + " is read-only: not replaced";
            return false;
        }
        mode = st.st_mode & 07777;
    }
    fs::path dir = m_target.parent_path();
    if (dir.empty()) dir = ".";
    std::string name = atomicTemporaryPrefix(m_target);
    removeStaleTemporaries(dir, name);
    name += std::to_string(::getpid());
    name += "-XXXXXX";
    const std::string tmpText = (dir / name).string();
    std::vector<char> templ(tmpText.begin(), tmpText.end());
    templ.push_back('\0');
    m_fd = ::mkostemp(templ.data(), O_CLOEXEC);
    if (m_fd < 0) {
        error = "cannot create a temporary file in " + quoted(dir) + ": " + osError(errno);
        return false;
    }
    m_tmp = templ.data();
    // mkstemp creates the file 0600: give it the mode it will have.
    if (::fchmod(m_fd, mode) != 0) {
        error = "cannot set the mode of " + quoted(m_tmp) + ": " + osError(errno);
        abandon();
        return false;
    }
    return true;
}

bool AtomicFile::write(std::string_view bytes) {
    if (m_fd < 0 || !m_error.empty()) {
        if (m_error.empty()) m_error = "the file is not open";
        return false;
    }
    std::size_t written = 0;
    while (written < bytes.size()) {
        const ssize_t n = ::write(m_fd, bytes.data() + written, bytes.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            m_error = "cannot write " + quoted(m_tmp) + ": " + osError(errno);
            return false;
        }
        written += static_cast<std::size_t>(n);
    }
    return true;
}

bool AtomicFile::commit(std::string& error) {
    auto fail = [&](const std::string& what) {
        error = what;
        abandon();
        return false;
    };
    if (m_fd < 0) return fail(m_error.empty() ? "the file is not open" : m_error);
    if (!m_error.empty()) return fail(m_error);
    if (::fsync(m_fd) != 0)
        return fail("cannot flush " + quoted(m_tmp) + " to disk: " + osError(errno));
    const int closeResult = ::close(m_fd);
    m_fd = -1;
    if (closeResult != 0) return fail("cannot close " + quoted(m_tmp) + ": " + osError(errno));

    std::error_code ec;
    fs::rename(m_tmp, m_target, ec);
    if (ec) return fail("cannot replace the file with " + quoted(m_tmp) + ": " + ec.message());
    m_tmp.clear(); // it is the target now

    fs::path dir = m_target.parent_path();
    if (dir.empty()) dir = ".";
    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return true;
}

void AtomicFile::abandon() {
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    if (!m_tmp.empty()) {
        ::unlink(m_tmp.c_str());
        m_tmp.clear();
    }
}

bool writeFileAtomic(const fs::path& path, std::string_view text, std::string& error) {
    AtomicFile file;
    if (!file.open(path, error)) return false;
    file.write(text);
    return file.commit(error);
}

void removeAtomicTemporaries(const fs::path& path) {
    std::string ignored;
    fs::path target = resolveTarget(path, ignored);
    if (target.empty()) target = path;
    fs::path dir = target.parent_path();
    if (dir.empty()) dir = ".";
    std::vector<std::string> names = temporaryCandidates(dir);
    removeStale(dir, atomicTemporaryPrefix(target), names);
}

} // namespace orca::scene
