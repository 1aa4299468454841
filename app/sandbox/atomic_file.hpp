#pragma once
// Writing small text files (settings, state dumps) so that readers never see a partial file.

#include <filesystem>
#include <string>
#include <string_view>

namespace orca::app {

/// Writes `text` to a temporary file next to `path`, flushes it to disk and renames it over
/// `path`. Returns false with `error` set on failure (then `path` is untouched).
bool writeFileAtomic(const std::filesystem::path& path, std::string_view text, std::string& error);

} // namespace orca::app
