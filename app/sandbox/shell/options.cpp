// The only file that includes CLI11 (its header is slow to compile).
#include "shell/options.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <iterator>
#include <limits>
#include <string>
#include <system_error>
#include <tuple>

#include <CLI/CLI.hpp>

#include "orca/ui/style.hpp"

#include "authoring/tools/edit_tool.hpp"
#include "explain/selection.hpp"
#include "layers.hpp"
#include "max_file_size_option.hpp"
#include "shell/key_bindings.hpp"
#include "shell/panel_table.hpp"

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

// CLI11 reads whole numbers with strtoull / strtoll in base 0: a number beyond 2^64 - 1 becomes
// 2^64 - 1 (and "-1" becomes it too) without a word, and "010" is octal 8. So whole-number
// options are read here first, in decimal: anything else is refused (exit 2), and the number is
// handed on without leading zeros.
const CLI::Validator kWholeNumber(
    [](std::string& text) -> std::string {
        std::uint64_t value = 0;
        const char* end = text.data() + text.size();
        const auto r = std::from_chars(text.data(), end, value);
        if (text.empty() || r.ptr != end ||
            (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
            return "expected a whole number, e.g. 100";
        if (r.ec == std::errc::result_out_of_range)
            return "the number " + text + " is too large (at most 18446744073709551615)";
        text = std::to_string(value);
        return {};
    },
    "", "whole number");

// A whole number from 1 (counts and 1-based indices); CLI::PositiveNumber would print the
// largest double as the range.
const CLI::Validator kPositiveWholeNumber(
    [](std::string& text) -> std::string {
        std::string error = kWholeNumber(text);
        if (error.empty() && text == "0") error = "expected a whole number from 1, e.g. 3";
        return error;
    },
    "", "whole number from 1");

} // namespace

ParseResult parseOptions(int argc, char** argv) {
    CLI::App app{"ORCA Sandbox: watch, step through and edit ORCA crowd scenes.\n"
                 "Interactive by default; --screenshot renders one frame to a PNG and exits."};
    app.set_version_flag("--version", "orca-sandbox 0.1.0");

    Options o;
    std::string scene;
    std::string size;
    std::string screenshot;
    std::string svg;
    std::string record;
    std::string select;
    std::string layers;
    std::string dumpState;
    std::string settings;
    bool printKeys = false;
    app.add_option("scene", scene,
                   "Scene file (.json) or recording (.orcarec, played frame by frame). A bare "
                   "name such as 'blocks' is also looked up in the scenes folder. Default: "
                   "welcome.json");
    std::string trajectory;
    app.add_option("--trajectory", trajectory,
                   "Play this trajectory CSV (step,agent,x,y,vx,vy[,pvx,pvy], as orca run "
                   "--trajectory writes) against the scene, like a recording: each decision "
                   "explained as orca conform recomputes it, the deviations as events")
        ->type_name("RUN.csv");
    app.add_option("--steps", o.steps,
                   "Simulation steps to run after loading (a recording: frames to play)")
        ->transform(kWholeNumber)
        ->capture_default_str();
    app.add_option("--seek", o.seek,
                   "After --steps, go to this recorded step (0..steps; replayed from the "
                   "recording, bit-exact) and start paused; a recording: its frame")
        ->transform(kWholeNumber);
    app.add_option("--branch", o.branch,
                   "Compare: branch with these parameters (NAME=VALUE,... e.g. timeHorizon=2) at "
                   "--branch-at and run it in lockstep (see the Compare window, B)");
    app.add_option("--branch-at", o.branchAt, "The step --branch splits at (default 0; <= --steps)")
        ->transform(kWholeNumber);
    app.add_option("--try-fix", o.tryFix,
                   "After --steps / --seek: open Why? for the selected agent (--select) and try "
                   "its fix K (1 = the first): a Compare branch and the verdict (see Why?, Y)")
        ->transform(kPositiveWholeNumber);
    app.add_option("--size", size, "Window / screenshot size WIDTHxHEIGHT (default 1280x800)");
    app.add_option("--screenshot", screenshot,
                   "Render one frame (view fitted to the scene unless the file has a view "
                   "block; --select, --steps and --layers apply), write it to this PNG file and "
                   "exit (non-zero on failure). Settings are not read");
    app.add_option("--svg", svg,
                   "Like --screenshot, but write the world view and the velocity panel as an SVG "
                   "file (vector paths, real text) and exit");
    std::string svgView;
    std::string pngView;
    app.add_option("--svg-view", svgView,
                   "With --svg: what the SVG shows, cropped to it without window chrome: both "
                   "(the world view and the velocity panel's canvas; default), world, or velocity "
                   "(the panel's canvas with its legend, a figure on its own)")
        ->type_name("VIEW");
    app.add_option("--png-view", pngView,
                   "With --screenshot: write only this view (both, world or velocity; the "
                   "region --svg-view shows) at twice its size, without window chrome")
        ->type_name("VIEW");
    app.add_option("--record", record,
                   "After --steps, record --record-steps steps as an animated GIF (OUT.gif) or "
                   "numbered PNGs (OUT.png: OUT_0000.png, ...), one frame per step (per k steps "
                   "when a step is shorter than 20 ms), write it and exit");
    app.add_option("--record-steps", o.recordSteps, "Steps --record records (default 100)")
        ->transform(kPositiveWholeNumber);
    app.add_flag("--paused", o.paused,
                 "Start the first scene paused (scenes opened later always start paused)");
    app.add_option("--frames", o.frames,
                   "Quit after this many frames and print CPU frame/step times (benchmarking)")
        ->transform(kWholeNumber);
    app.add_option("--select", select,
                   "Select agents by index in file order, e.g. 0 or 3,7 (the last one is the "
                   "primary agent whose overlays are drawn)");
    app.add_option("--solve", o.solveStep,
                   "Open solve mode (velocity panel) at step K of the primary agent's LP trace, "
                   "0 = start (e.g. with --select and --screenshot)")
        ->type_name("K")
        ->transform(kWholeNumber);
    app.add_option("--construction", o.constructionStep,
                   "Open construction mode (velocity panel) at neighbour K of the primary agent: "
                   "its obstacle lines first, then its agent neighbours, 0-based (e.g. with "
                   "--select and --screenshot)")
        ->type_name("K")
        ->transform(kWholeNumber)
        ->excludes("--solve");
    app.add_option("--construction-phase", o.constructionPhase,
                   "Phase of --construction: 0 VO, 1 u, 2 half-plane (default 0)")
        ->type_name("P")
        ->check(CLI::Range(0, 2));
    app.add_option("--layers", layers,
                   "View layers to turn on, comma-separated (all others off): " + allLayerNames() +
                       "; 'all', 'none', and '-name' to turn one off again (e.g. all,-grid)");
    app.add_option("--dump-state", dumpState,
                   "Write the app state as JSON to this file (atomically) on F12 and on exit "
                   "(for end-to-end tests; see docs/sandbox.md)");
    app.add_option("--settings", settings,
                   "Settings file to use instead of the per-user one (created on exit)");
    app.add_option("--autosave-seconds", o.autosaveSeconds,
                   "Seconds between autosaves of an edited scene with unsaved changes to the "
                   "recovery file (recovery.json next to the settings file), offered for "
                   "restoring on the next start")
        ->type_name("SECONDS")
        ->capture_default_str();
    addMaxFileSizeOption(app, o.maxFileSize);
    asByteSize(app.add_option("--history-budget", o.historyBudget,
                              "Memory the recording of the run (time travel) may hold: its "
                              "keyframes and events (suffixes K, M, G; at least 2M; default "
                              "256M)"))
        ->check(CLI::Range(std::uint64_t{2} << 20, std::numeric_limits<std::uint64_t>::max()));
    std::string panels;
    std::string tool;
    const std::string panelList = panelNameList();
    const std::string toolList = toolNameList();
    app.add_option("--panels", panels,
                   "Windows to open, comma-separated: " + panelList +
                       " (also in --screenshot mode, e.g. --panels linter)");
    app.add_option("--tool", tool, "Tool to start with: " + toolList + " (default inspect)");
    int uiScale = 0;
    std::string theme;
    const CLI::Option* uiScaleOpt =
        app.add_option("--ui-scale", uiScale,
                       "UI scale in percent, 100..250: text, widgets and strokes (projectors; "
                       "also View > UI scale)")
            ->type_name("PCT");
    app.add_option("--theme", theme, "Colour theme: dark or light (high contrast, projectors)");
    auto* lessonOpt = app.add_option(
        "--lesson", o.lesson,
        "Open a lesson instead of a scene: NAME is a file in the lessons folder without .json "
        "(e.g. 03_u_and_the_half_plane, or a unique prefix such as 03) or a lesson file's path");
    app.add_option("--lesson-page", o.lessonPage,
                   "With --lesson: open this page (1-based; with --screenshot, render it)")
        ->needs(lessonOpt)
        ->transform(kPositiveWholeNumber);
    std::string lessonWalk;
    app.add_option("--lesson-walk", lessonWalk,
                   "With --lesson (interactive): show every page in turn from --lesson-page on, "
                   "as Next does, then those of the lessons after it in the lessons folder; "
                   "write a screenshot and the state dump of each to DIR/NAME_page_K.png and "
                   ".json and exit (layout tests)")
        ->type_name("DIR")
        ->needs(lessonOpt);
    app.add_flag("--print-keys", printKeys,
                 "Print the key and mouse bindings as Markdown tables and exit");

    try {
        app.parse(argc, argv);
        if (o.lesson && !scene.empty())
            throw CLI::ValidationError("--lesson", "a lesson brings its own scene; give either "
                                                   "a scene or --lesson, not both");
        if (!size.empty()) {
            const std::string err = parseSize(size, o.width, o.height);
            if (!err.empty()) throw CLI::ValidationError("--size", err);
        }
        if (!select.empty()) {
            const std::string err = parseIndexList(select, o.select);
            if (!err.empty()) throw CLI::ValidationError("--select", err);
        }
        if (!(o.autosaveSeconds > 0.0) || !std::isfinite(o.autosaveSeconds))
            throw CLI::ValidationError("--autosave-seconds",
                                       "expected a number of seconds > 0, e.g. 60");
        if (!panels.empty()) {
            std::string::size_type start = 0;
            while (start <= panels.size()) {
                const auto comma = panels.find(',', start);
                const std::string name = panels.substr(
                    start, comma == std::string::npos ? std::string::npos : comma - start);
                if (!findPanel(name))
                    throw CLI::ValidationError("--panels", "unknown window '" + name +
                                                               "' (expected: " + panelList + ")");
                o.panels.push_back(name);
                if (comma == std::string::npos) break;
                start = comma + 1;
            }
        }
        if (!tool.empty()) {
            if (!findTool(tool))
                throw CLI::ValidationError("--tool", "unknown tool '" + tool +
                                                         "' (expected: " + toolList + ")");
            o.tool = tool;
        }
        if (uiScaleOpt->count() > 0) { // 0 too: every value outside the range is refused
            if (uiScale < ui::kMinUiScalePercent || uiScale > ui::kMaxUiScalePercent)
                throw CLI::ValidationError("--ui-scale", "expected a percentage in 100..250");
            o.uiScalePercent = uiScale;
        }
        if (!theme.empty()) {
            if (theme != "dark" && theme != "light")
                throw CLI::ValidationError("--theme", "expected dark or light");
            o.lightTheme = theme == "light";
        }
        if (!layers.empty()) {
            ViewLayers probe;
            std::string err;
            if (!parseLayerList(layers, probe, err)) throw CLI::ValidationError("--layers", err);
            o.layers = layers;
        }
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return {std::nullopt, code == 0 ? 0 : 2};
    }
    if (printKeys) {
        std::fputs(helpMarkdown().c_str(), stdout);
        return {std::nullopt, 0};
    }
    if (!scene.empty()) o.scene = scene;
    if (!trajectory.empty()) o.trajectory = trajectory;
    if (!screenshot.empty()) o.screenshot = screenshot;
    if (!svg.empty()) o.svg = svg;
    if (!record.empty()) o.record = record;
    if ((o.screenshot ? 1 : 0) + (o.svg ? 1 : 0) + (o.record ? 1 : 0) > 1) {
        std::fputs("orca-sandbox: error: --screenshot, --svg and --record exclude each other\n",
                   stderr);
        return {std::nullopt, 2};
    }
    // The views: a name from the list, and only with the picture they shape.
    for (const auto& [name, value, needs, given, out] :
         {std::tuple{"--svg-view", &svgView, "--svg", o.svg.has_value(), &o.svgView},
          std::tuple{"--png-view", &pngView, "--screenshot", o.screenshot.has_value(),
                     &o.pngView}}) {
        if (value->empty()) continue;
        *out = ui::parsePictureView(*value);
        if (!*out) {
            std::fprintf(stderr, "orca-sandbox: error: %s: unknown view '%s' (expected: %s)\n",
                         name, value->c_str(), ui::pictureViewNames().c_str());
            return {std::nullopt, 2};
        }
        if (!given) {
            std::fprintf(stderr, "orca-sandbox: error: %s needs %s\n", name, needs);
            return {std::nullopt, 2};
        }
    }
    if (!dumpState.empty()) o.dumpState = dumpState;
    if (!lessonWalk.empty()) o.lessonWalk = lessonWalk;
    if (!settings.empty()) o.settingsFile = settings;
    return {o, 0};
}

} // namespace orca::app
