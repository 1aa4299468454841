#pragma once
// The sandbox's settings file (JSON, in SDL_GetPrefPath("orca", "orca-sandbox")): View menu
// layers, which panels are open, UI scale and theme, recent files. Read at start, written
// atomically on exit. A missing file means "first launch" (the Help window opens); a corrupt one is
// ignored with a message and replaced on exit.

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/ui/palette.hpp"

#include "layers.hpp"

namespace orca::app {

/// Which panels are open (the ones whose visibility the settings file keeps; panel_table.hpp
/// lists every panel). Default-constructed: as on first launch (the table's defaults).
struct PanelVisibility {
    PanelVisibility();
    bool parameters = false;
    bool inspector = false;
    bool metrics = false;
    bool generators = false;
    bool linter = false;
    bool agentDefaults = false;
    bool events = false;
    bool compare = false;
    bool timeline = false; ///< the timeline bar above the status bar
};

struct Settings {
    static constexpr std::size_t kMaxRecentFiles = 10;

    ViewLayers layers;
    PanelVisibility panels;
    int uiScalePercent = 100;          ///< View > UI scale, 100..250 (ui::kMin/MaxUiScalePercent)
    ui::Theme theme = ui::Theme::Dark; ///< View > Theme
    std::vector<std::string> recentFiles; ///< most recent first, absolute paths
    /// "fileDialog": "desktop" — Open, Save as, Export and Record use the desktop's own dialog
    /// (zenity) where there is one; "builtin" (the default) — the app's file browser.
    bool desktopFileDialog = false;

    /// Moves `file` to the front of the recent files (absolute path, no duplicates, capped).
    void addRecentFile(const std::filesystem::path& file);
};

/// Layers as a JSON object {name: bool, ..., "velocityArrowSeconds": s}.
[[nodiscard]] nlohmann::json layersToJson(const ViewLayers& layers);
/// Reads the layers present in `j` (an object); unknown keys and wrong types are ignored.
void layersFromJson(const nlohmann::json& j, ViewLayers& layers);

[[nodiscard]] std::string settingsToText(const Settings& s);
/// Parses settings text. On failure returns false with `error` set and `out` untouched.
bool settingsFromText(const std::string& text, Settings& out, std::string& error);

/// The largest settings file read (a few KiB in practice); a larger one is ignored like a
/// corrupt one.
inline constexpr std::uint64_t kMaxSettingsFileSize = std::uint64_t{1} << 20;

struct SettingsLoad {
    Settings settings;
    bool existed = false; ///< false on first launch
    std::string error;    ///< non-empty when the file existed but was ignored
    /// The path is no regular file (a folder, a FIFO, a device): neither read nor replaceable.
    bool refused = false;
};

/// Reads the settings through scene::readTextFile (the one reader: no FIFO blocks it, at most
/// kMaxSettingsFileSize bytes). Missing: defaults, `existed` false. Unreadable or corrupt:
/// defaults and `error`.
[[nodiscard]] SettingsLoad loadSettings(const std::filesystem::path& file);
bool saveSettings(const Settings& s, const std::filesystem::path& file, std::string& error);

/// <pref path>/settings.json, or empty when SDL has no pref path.
[[nodiscard]] std::filesystem::path defaultSettingsFile();

} // namespace orca::app
