#include "atomic_file.hpp"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <system_error>

#if defined(__unix__) || defined(__APPLE__)
#include <unistd.h>
#define ORCA_HAVE_FSYNC 1
#endif

namespace fs = std::filesystem;

namespace orca::app {

bool writeFileAtomic(const fs::path& path, std::string_view text, std::string& error) {
    fs::path tmp = path;
    tmp += ".tmp";
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) {
        error = "cannot write " + tmp.string() + ": " + std::strerror(errno);
        return false;
    }
    bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
    ok = std::fflush(f) == 0 && ok;
#ifdef ORCA_HAVE_FSYNC
    ok = ::fsync(fileno(f)) == 0 && ok;
#endif
    const int savedErrno = errno;
    ok = std::fclose(f) == 0 && ok;
    std::error_code ec;
    if (!ok) {
        error = "cannot write " + tmp.string() + ": " + std::strerror(savedErrno);
        fs::remove(tmp, ec);
        return false;
    }
    fs::rename(tmp, path, ec);
    if (ec) {
        error = "cannot replace " + path.string() + ": " + ec.message();
        fs::remove(tmp, ec);
        return false;
    }
    return true;
}

} // namespace orca::app
