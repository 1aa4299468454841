#include "paths.hpp"

#include <algorithm>
#include <system_error>

#include <SDL.h>

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

} // namespace orca::app
