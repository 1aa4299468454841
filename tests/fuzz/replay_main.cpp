// Replays fuzz inputs without libFuzzer: feeds every regular file of every folder named on the
// command line (not recursive; sorted by name) to LLVMFuzzerTestOneInput. Built with any
// compiler, so the corpus and every input that ever crashed run as an ordinary ctest test
// (fuzz.scene_replay). A broken invariant aborts the process; the file being replayed is
// printed first so that the log names it.
//
//   orca_scene_replay DIR... [--min-files N]
//
// --min-files fails the run when fewer files were replayed (guards against a wrong path
// silently replaying nothing).
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

int main(int argc, char** argv) {
    namespace fs = std::filesystem;
    std::vector<fs::path> dirs;
    std::size_t minFiles = 0;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg == "--min-files" && i + 1 < argc) {
            minFiles = static_cast<std::size_t>(std::strtoull(argv[++i], nullptr, 10));
        } else {
            dirs.emplace_back(arg);
        }
    }
    if (dirs.empty()) {
        std::fprintf(stderr, "usage: %s DIR... [--min-files N]\n", argv[0]);
        return 2;
    }
    std::size_t replayed = 0;
    for (const fs::path& dir : dirs) {
        std::error_code ec;
        if (!fs::is_directory(dir, ec)) {
            std::fprintf(stderr, "%s: not a folder\n", dir.c_str());
            return 1;
        }
        std::vector<fs::path> files;
        for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
            if (e.is_regular_file()) files.push_back(e.path());
        }
        std::sort(files.begin(), files.end());
        for (const fs::path& file : files) {
            std::printf("%s\n", file.c_str());
            std::fflush(stdout);
            std::ifstream in(file, std::ios::binary);
            const std::string bytes((std::istreambuf_iterator<char>(in)),
                                    std::istreambuf_iterator<char>());
            LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()),
                                   bytes.size());
            ++replayed;
        }
    }
    std::printf("replayed %zu inputs\n", replayed);
    if (replayed < minFiles) {
        std::fprintf(stderr, "only %zu inputs replayed, expected at least %zu\n", replayed,
                     minFiles);
        return 1;
    }
    return 0;
}
