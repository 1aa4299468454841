#include "orca/scene/atomic_write.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace fs = std::filesystem;

namespace orca::scene {

namespace {

std::string osError(int err) {
    return std::error_code(err, std::generic_category()).message();
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

bool writeFileAtomic(const fs::path& path, std::string_view text, std::string& error) {
    fs::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    std::string name = atomicTemporaryPrefix(path);
    name += std::to_string(::getpid());
    name += "-XXXXXX";
    std::string tmpText = (dir / name).string();
    std::vector<char> templ(tmpText.begin(), tmpText.end());
    templ.push_back('\0');
    int fd = ::mkostemp(templ.data(), O_CLOEXEC);
    if (fd < 0) {
        error = "cannot create a temporary file in \"" + dir.string() + "\": " + osError(errno);
        return false;
    }
    const fs::path tmp(templ.data());
    auto abandon = [&](const std::string& what, int err) {
        if (fd >= 0) ::close(fd);
        ::unlink(tmp.c_str());
        error = what + ": " + osError(err);
        return false;
    };

    // mkstemp creates the file 0600: give it the mode of the file being replaced, or what a
    // plain open(O_CREAT, 0666) would have given a new file.
    struct stat st {};
    const mode_t mode = ::stat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode)
                            ? st.st_mode & 07777
                            : 0666 & ~currentUmask();
    if (::fchmod(fd, mode) != 0)
        return abandon("cannot set the mode of \"" + tmp.string() + "\"", errno);

    std::size_t written = 0;
    while (written < text.size()) {
        const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
        if (n < 0) {
            if (errno == EINTR) continue;
            return abandon("cannot write \"" + tmp.string() + "\"", errno);
        }
        written += static_cast<std::size_t>(n);
    }
    if (::fsync(fd) != 0) return abandon("cannot flush \"" + tmp.string() + "\" to disk", errno);
    const int closeResult = ::close(fd);
    fd = -1;
    if (closeResult != 0) return abandon("cannot close \"" + tmp.string() + "\"", errno);

    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec) return abandon("cannot replace the file with \"" + tmp.string() + "\"", ec.value());

    const int dirFd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dirFd >= 0) {
        (void)::fsync(dirFd);
        ::close(dirFd);
    }
    return true;
}

void removeAtomicTemporaries(const fs::path& path) {
    fs::path dir = path.parent_path();
    if (dir.empty()) dir = ".";
    const std::string prefix = atomicTemporaryPrefix(path);
    std::error_code ec;
    std::vector<fs::path> found;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename().string().starts_with(prefix)) found.push_back(it->path());
    }
    for (const fs::path& p : found)
        fs::remove(p, ec);
}

} // namespace orca::scene
