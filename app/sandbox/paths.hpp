#pragma once
// Where the app finds its files: always relative to the executable (or the source tree it was
// built from), never the current directory.

#include <filesystem>
#include <string>
#include <vector>

namespace orca::app {

struct AppPaths {
    std::filesystem::path exeDir;
    std::filesystem::path scenesDir;  ///< empty when not found
    std::filesystem::path assetsDir;  ///< empty when not found
    std::filesystem::path lessonsDir; ///< empty when not found
};

/// Looks for scenes/, lessons/ and assets/ next to the executable's tree: <exe>/../..
/// (build/bin in a build tree), <exe>/../share/orca-sandbox (installed), then the source tree
/// baked in at build time (ORCA_SOURCE_DIR).
[[nodiscard]] AppPaths resolveAppPaths();

/// Whether `path` is `folder` or lies inside it, both made absolute with symbolic links and ".."
/// resolved (as far as they exist). False when either is empty.
[[nodiscard]] bool isInsideFolder(const std::filesystem::path& path,
                                  const std::filesystem::path& folder);

/// Whether `file` lies in the bundled scenes or lessons folder (symbolic links and "..",
/// resolved): such files are templates, which Save never rewrites (it asks for a new path), and
/// the file dialogs write nothing there (files::FileBrowser::setReadOnlyFolders).
[[nodiscard]] bool isBundledFile(const AppPaths& paths, const std::filesystem::path& file);

/// A scene given on the command line: the path as given if it exists, otherwise the same name
/// (with ".json" added if missing) in the scenes folder, otherwise the path as given (so that
/// the loader reports it).
[[nodiscard]] std::filesystem::path resolveSceneArgument(const std::filesystem::path& arg,
                                                         const AppPaths& paths);

/// *.json files in `dir`, sorted by name. Empty when the folder does not exist.
[[nodiscard]] std::vector<std::filesystem::path> listSceneFiles(const std::filesystem::path& dir);

/// What the default save folder depends on besides the scene (the environment, for tests).
struct UserDirsEnv {
    std::filesystem::path home;          ///< $HOME (empty when unset)
    std::string xdgPicturesDir;          ///< $XDG_PICTURES_DIR (empty when unset)
    std::filesystem::path xdgConfigHome; ///< $XDG_CONFIG_HOME (empty: ~/.config)
    [[nodiscard]] static UserDirsEnv current();
};

/// The user's pictures folder, as `xdg-user-dir PICTURES` finds it: $XDG_PICTURES_DIR, else
/// XDG_PICTURES_DIR in user-dirs.dirs (with $HOME expanded), else ~/Pictures. Empty when it
/// does not exist (or is the home folder itself, as xdg-user-dir answers when unset).
[[nodiscard]] std::filesystem::path userPicturesDir(const UserDirsEnv& env);

/// Where Save As, screenshots, SVG exports and recordings are proposed: the scene file's
/// folder (when the scene has a file and the folder is writable), else the user's pictures
/// folder, else the home folder — never the current directory (the app may have been started
/// from anywhere). Falls back to the system's temporary folder without a home.
[[nodiscard]] std::filesystem::path defaultSaveDir(const std::filesystem::path& sceneFile,
                                                   const UserDirsEnv& env = UserDirsEnv::current());

} // namespace orca::app
