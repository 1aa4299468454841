#pragma once
// Command line of orca-sandbox.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"
#include "orca/ui/picture_view.hpp"

namespace orca::app {

struct Options {
    std::optional<std::filesystem::path> scene; ///< default: scenes/welcome.json
    /// --trajectory RUN.csv: play this trajectory CSV against the scene (a recording's face).
    std::optional<std::filesystem::path> trajectory;
    std::uint64_t steps = 0;           ///< steps to run right after loading
    std::optional<std::uint64_t> seek; ///< then go to this recorded step (paused)
    std::optional<std::string> branch; ///< --branch: Compare from --branch-at with NAME=VALUE,...
    std::uint64_t branchAt = 0;        ///< the step to branch at (while running --steps)
    /// --try-fix K: after --steps / --seek, Why? for the selected agent and Try fix K (1-based).
    std::optional<std::size_t> tryFix;
    int width = 1280;
    int height = 800;
    std::optional<std::filesystem::path> screenshot; ///< headless: render one frame, write PNG
    std::optional<std::filesystem::path> svg;        ///< headless: render, write SVG, exit
    std::optional<std::filesystem::path> record;     ///< headless: record GIF / PNGs, exit
    std::optional<ui::PictureView> svgView; ///< --svg-view: what --svg shows (default both)
    std::optional<ui::PictureView> pngView; ///< --png-view: --screenshot of one view at 2×
    std::uint64_t recordSteps = 100;        ///< --record-steps: steps to record
    bool paused = false;                    ///< start the first scene paused
    int frames = 0; ///< quit after this many frames and print timings (0 = run until closed)
    std::vector<std::size_t> select; ///< agent indices (file order) to select
    std::optional<int> solveStep;    ///< --solve K: open solve mode at trace step K (0-based)
    /// --construction K: open construction mode at step K of the walk (obstacle lines, then
    /// agent neighbours; 0-based), phase --construction-phase P (0 VO, 1 u, 2 half-plane).
    std::optional<int> constructionStep;
    int constructionPhase = 0;
    std::optional<std::string> layers;                 ///< --layers list (validated)
    std::optional<std::filesystem::path> dumpState;    ///< --dump-state file
    std::optional<std::filesystem::path> settingsFile; ///< --settings (default: pref path)
    std::vector<std::string> panels; ///< --panels: windows to open (panel_table.hpp)
    std::optional<std::string> tool; ///< --tool: the tool to start with (the tool table)
    double autosaveSeconds = 60.0;   ///< --autosave-seconds: period of the recovery autosave (> 0)
    /// --max-file-size: larger scene and lesson files are refused.
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize;
    /// --history-budget: bytes the run's recording may hold, keyframes and events (>= 2 MiB).
    std::uint64_t historyBudget = std::uint64_t(256) << 20;
    std::optional<int> uiScalePercent; ///< --ui-scale: 100..250 (over the settings file's)
    std::optional<bool> lightTheme;    ///< --theme light|dark (over the settings file's)
    std::optional<std::string> lesson; ///< --lesson NAME: open this lesson (lessons/NAME.json)
    std::size_t lessonPage = 1;        ///< --lesson-page K (1-based)
    std::optional<std::filesystem::path> lessonWalk; ///< --lesson-walk DIR: every page's dump
};

/// Parsed options, or the exit code when the program should stop (--help, --print-keys: 0,
/// errors: 2).
struct ParseResult {
    std::optional<Options> options;
    int exitCode = 0;
};

[[nodiscard]] ParseResult parseOptions(int argc, char** argv);

} // namespace orca::app
