// The only file that includes CLI11 (its header is slow to compile).
#include "options.hpp"

#include <charconv>
#include <string>

#include <CLI/CLI.hpp>

namespace orca::app {

namespace {

// "WxH" -> width, height. Returns an error message, empty on success.
std::string parseSize(const std::string& text, int& width, int& height) {
    const auto x = text.find_first_of("xX");
    if (x == std::string::npos) return "expected WIDTHxHEIGHT, e.g. 1280x800";
    int w = 0;
    int h = 0;
    const char* begin = text.data();
    const char* mid = begin + x;
    const char* end = begin + text.size();
    const auto rw = std::from_chars(begin, mid, w);
    const auto rh = std::from_chars(mid + 1, end, h);
    if (rw.ec != std::errc() || rw.ptr != mid || rh.ec != std::errc() || rh.ptr != end)
        return "expected WIDTHxHEIGHT, e.g. 1280x800";
    if (w < 64 || h < 64 || w > 16384 || h > 16384) return "width and height must be in 64..16384";
    width = w;
    height = h;
    return {};
}

} // namespace

ParseResult parseOptions(int argc, char** argv) {
    CLI::App app{"ORCA Sandbox: watch and step through ORCA crowd scenes.\n"
                 "Interactive by default; --screenshot renders one frame to a PNG and exits."};
    app.set_version_flag("--version", "orca-sandbox 0.1.0");

    Options o;
    std::string scene;
    std::string size;
    std::string screenshot;
    app.add_option("scene", scene,
                   "Scene file (.json). A bare name such as 'blocks' is also looked up in the "
                   "scenes folder. Default: circle.json");
    app.add_option("--steps", o.steps, "Simulation steps to run after loading")
        ->capture_default_str();
    app.add_option("--size", size, "Window / screenshot size WIDTHxHEIGHT (default 1280x800)");
    app.add_option("--screenshot", screenshot,
                   "Render one frame with the view fitted to the scene, write it to this PNG "
                   "file and exit (non-zero on failure)");
    app.add_flag("--paused", o.paused,
                 "Start the first scene paused (scenes opened later always start paused)");
    app.add_option("--frames", o.frames,
                   "Quit after this many frames and print CPU frame/step times (benchmarking)")
        ->check(CLI::NonNegativeNumber);

    try {
        app.parse(argc, argv);
        if (!size.empty()) {
            const std::string err = parseSize(size, o.width, o.height);
            if (!err.empty()) throw CLI::ValidationError("--size", err);
        }
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return {std::nullopt, code == 0 ? 0 : 2};
    }
    if (!scene.empty()) o.scene = scene;
    if (!screenshot.empty()) o.screenshot = screenshot;
    return {o, 0};
}

} // namespace orca::app
