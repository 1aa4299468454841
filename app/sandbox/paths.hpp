#pragma once
// Where the app finds its files: always relative to the executable (or the source tree it was
// built from), never the current directory.

#include <filesystem>
#include <vector>

namespace orca::app {

struct AppPaths {
    std::filesystem::path exeDir;
    std::filesystem::path scenesDir; ///< empty when not found
    std::filesystem::path assetsDir; ///< empty when not found
};

/// Looks for scenes/ and assets/ next to the executable's tree: <exe>/../.. (build/bin in a
/// build tree), <exe>/../share/orca-sandbox (installed), then the source tree baked in at
/// build time (ORCA_SOURCE_DIR).
[[nodiscard]] AppPaths resolveAppPaths();

/// A scene given on the command line: the path as given if it exists, otherwise the same name
/// (with ".json" added if missing) in the scenes folder, otherwise the path as given (so that
/// the loader reports it).
[[nodiscard]] std::filesystem::path resolveSceneArgument(const std::filesystem::path& arg,
                                                         const AppPaths& paths);

/// *.json files in `dir`, sorted by name. Empty when the folder does not exist.
[[nodiscard]] std::vector<std::filesystem::path> listSceneFiles(const std::filesystem::path& dir);

} // namespace orca::app
