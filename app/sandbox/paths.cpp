#include "paths.hpp"

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <system_error>

#include <unistd.h>

#include <SDL.h>

#include "orca/scene/scene.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

fs::path executableDir() {
    // SDL_GetBasePath works before SDL_Init and returns the folder with a trailing separator.
    if (char* base = SDL_GetBasePath()) {
        fs::path dir(base);
        SDL_free(base);
        return dir;
    }
    std::error_code ec;
    const fs::path self = fs::read_symlink("/proc/self/exe", ec);
    return ec ? fs::path() : self.parent_path();
}

bool isDir(const fs::path& p) {
    std::error_code ec;
    return !p.empty() && fs::is_directory(p, ec);
}

} // namespace

AppPaths resolveAppPaths() {
    AppPaths paths;
    paths.exeDir = executableDir();
    std::vector<fs::path> roots;
    if (!paths.exeDir.empty()) {
        roots.push_back(paths.exeDir / ".." / "..");
        roots.push_back(paths.exeDir / ".." / "share" / "orca-sandbox");
    }
#ifdef ORCA_SOURCE_DIR
    roots.emplace_back(ORCA_SOURCE_DIR);
#endif
    for (const fs::path& root : roots) {
        if (paths.scenesDir.empty() && isDir(root / "scenes"))
            paths.scenesDir = fs::weakly_canonical(root / "scenes");
        if (paths.assetsDir.empty() && isDir(root / "assets"))
            paths.assetsDir = fs::weakly_canonical(root / "assets");
        if (paths.lessonsDir.empty() && isDir(root / "lessons"))
            paths.lessonsDir = fs::weakly_canonical(root / "lessons");
    }
    return paths;
}

fs::path resolveSceneArgument(const fs::path& arg, const AppPaths& paths) {
    std::error_code ec;
    if (fs::exists(arg, ec) || paths.scenesDir.empty() || arg.has_parent_path()) return arg;
    fs::path inScenes = paths.scenesDir / arg;
    if (fs::exists(inScenes, ec)) return inScenes;
    if (arg.extension() != ".json") {
        inScenes += ".json";
        if (fs::exists(inScenes, ec)) return inScenes;
    }
    return arg;
}

bool isInsideFolder(const fs::path& path, const fs::path& folder) {
    if (path.empty() || folder.empty()) return false;
    std::error_code ec;
    const fs::path target = fs::weakly_canonical(fs::absolute(path, ec), ec);
    if (ec) return false;
    const fs::path root = fs::weakly_canonical(fs::absolute(folder, ec), ec);
    if (ec) return false;
    // Inside when the relative path does not climb out of the folder.
    const fs::path rel = target.lexically_relative(root);
    return !rel.empty() && *rel.begin() != "..";
}

bool isBundledFile(const AppPaths& paths, const fs::path& file) {
    return isInsideFolder(file, paths.scenesDir) || isInsideFolder(file, paths.lessonsDir);
}

std::vector<fs::path> listSceneFiles(const fs::path& dir) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (!isDir(dir)) return files;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().extension() == ".json" && it->is_regular_file(ec))
            files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

UserDirsEnv UserDirsEnv::current() {
    UserDirsEnv env;
    if (const char* h = std::getenv("HOME")) env.home = h;
    if (const char* p = std::getenv("XDG_PICTURES_DIR")) env.xdgPicturesDir = p;
    if (const char* c = std::getenv("XDG_CONFIG_HOME")) env.xdgConfigHome = c;
    return env;
}

namespace {

// xdg-user-dirs writes a few hundred bytes; anything much larger is not that file.
constexpr std::uint64_t kMaxUserDirsBytes = 64 * 1024;

// user-dirs.dirs values: "$HOME/Pictures" or "/absolute/path" (xdg-user-dirs' own format).
fs::path expandHome(std::string value, const fs::path& home) {
    if (value.rfind("$HOME", 0) == 0) return home.string() + value.substr(5);
    return value;
}

fs::path picturesFromUserDirs(const UserDirsEnv& env) {
    const fs::path config = !env.xdgConfigHome.empty() ? env.xdgConfigHome : env.home / ".config";
    std::string text;
    try {
        text = scene::readTextFile(config / "user-dirs.dirs", kMaxUserDirsBytes);
    } catch (const scene::SceneError&) {
        return {}; // missing, too large, or no regular file (a FIFO must not block the dialog)
    }
    std::istringstream in(text);
    std::string line;
    const std::string key = "XDG_PICTURES_DIR=";
    while (std::getline(in, line)) {
        const auto start = line.find_first_not_of(" \t");
        if (start == std::string::npos || line.compare(start, key.size(), key) != 0) continue;
        std::string value = line.substr(start + key.size());
        if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
            value = value.substr(1, value.size() - 2);
        return expandHome(value, env.home);
    }
    return {};
}

bool isWritableDir(const fs::path& p) {
    return isDir(p) && ::access(p.c_str(), W_OK) == 0;
}

} // namespace

fs::path userPicturesDir(const UserDirsEnv& env) {
    std::error_code ec;
    auto usable = [&](const fs::path& p) {
        // xdg-user-dir answers $HOME for an unset directory: not a pictures folder.
        return !p.empty() && isDir(p) && (env.home.empty() || !fs::equivalent(p, env.home, ec));
    };
    if (!env.xdgPicturesDir.empty()) {
        const fs::path p = expandHome(env.xdgPicturesDir, env.home);
        if (usable(p)) return p;
    }
    if (env.home.empty()) return {};
    if (const fs::path p = picturesFromUserDirs(env); usable(p)) return p;
    if (const fs::path p = env.home / "Pictures"; usable(p)) return p;
    return {};
}

fs::path defaultSaveDir(const fs::path& sceneFile, const UserDirsEnv& env) {
    if (!sceneFile.empty()) {
        std::error_code ec;
        const fs::path dir = fs::absolute(sceneFile, ec).parent_path();
        if (!ec && isWritableDir(dir)) return dir;
    }
    if (fs::path p = userPicturesDir(env); !p.empty()) return p;
    if (isDir(env.home)) return env.home;
    std::error_code ec;
    return fs::temp_directory_path(ec);
}

} // namespace orca::app
