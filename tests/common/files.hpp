#pragma once
// File helpers shared by the test suites: a fresh temporary folder per use (TempDir), and a
// file's bytes (readFile).

#include <stdlib.h> // mkdtemp

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace orca::test {

/// The file's bytes ("" when it cannot be read).
inline std::string readFile(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

/// A folder removed with everything in it at the end of the scope (read-only contents
/// included).
class TempDir {
  public:
    /// A new, empty folder "orca-TAG-XXXXXX" in the system's temporary folder (mkdtemp: unique
    /// across tests, runs and processes).
    explicit TempDir(std::string_view tag = "test") {
        std::string templ =
            (std::filesystem::temp_directory_path() / ("orca-" + std::string(tag) + "-XXXXXX"))
                .string();
        if (::mkdtemp(templ.data()) == nullptr)
            throw std::runtime_error("TempDir: mkdtemp failed for " + templ);
        m_path = templ;
    }
    ~TempDir() {
        std::error_code ec;
        // A test may have made the folder read-only; give it back so it can be removed.
        std::filesystem::permissions(m_path, std::filesystem::perms::owner_all,
                                     std::filesystem::perm_options::add, ec);
        std::filesystem::remove_all(m_path, ec);
    }
    TempDir(const TempDir&) = delete;
    TempDir& operator=(const TempDir&) = delete;

    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

    /// The names in the folder, sorted, each followed by ';' ("" when empty).
    [[nodiscard]] std::string listing() const {
        std::vector<std::string> names;
        for (const auto& e : std::filesystem::directory_iterator(m_path))
            names.push_back(e.path().filename().string());
        std::sort(names.begin(), names.end());
        std::string out;
        for (const std::string& n : names)
            out += n + ';';
        return out;
    }

  private:
    std::filesystem::path m_path;
};

} // namespace orca::test
