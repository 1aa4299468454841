#include "shell/settings.hpp"

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <limits>
#include <sstream>
#include <system_error>

#include <SDL_filesystem.h>
#include <SDL_stdinc.h>

#include "orca/ui/style.hpp"

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/path_text.hpp"
#include "orca/scene/scene.hpp"
#include "shell/panel_table.hpp"

namespace fs = std::filesystem;
using nlohmann::json;

namespace orca::app {

namespace {

constexpr int kSettingsVersion = 1;

template <class T> void readIf(const json& j, const char* key, T& out) {
    const auto it = j.find(key);
    if (it == j.end()) return;
    if constexpr (std::is_same_v<T, bool>) {
        if (it->is_boolean()) out = it->get<bool>();
    } else if constexpr (std::is_integral_v<T>) {
        // Saturated: a number beyond T's range ("uiScale": 1e10) gives T's nearest end, where
        // get<T>() would convert out of range (undefined for a floating-point value).
        if (!it->is_number()) return;
        constexpr T lo = std::numeric_limits<T>::min();
        constexpr T hi = std::numeric_limits<T>::max();
        if (it->is_number_float()) {
            const double d = it->get<double>();
            out = !(d > static_cast<double>(lo)) ? lo
                  : d >= static_cast<double>(hi) ? hi
                                                 : static_cast<T>(d);
        } else if (it->is_number_unsigned()) {
            const auto u = it->get<std::uint64_t>();
            out = u > static_cast<std::uint64_t>(hi) ? hi : static_cast<T>(u);
        } else {
            const auto i = it->get<std::int64_t>();
            out = static_cast<T>(std::clamp<std::int64_t>(i, lo, hi));
        }
    } else {
        if (it->is_number()) out = it->get<T>();
    }
}

} // namespace

void Settings::addRecentFile(const fs::path& file) {
    std::error_code ec;
    fs::path abs = fs::absolute(file, ec);
    const std::string s = (ec ? file : abs.lexically_normal()).string();
    recentFiles.erase(std::remove(recentFiles.begin(), recentFiles.end(), s), recentFiles.end());
    recentFiles.insert(recentFiles.begin(), s);
    if (recentFiles.size() > kMaxRecentFiles) recentFiles.resize(kMaxRecentFiles);
}

json layersToJson(const ViewLayers& layers) {
    json j = json::object();
    for (const LayerInfo& l : layerTable())
        j[l.name] = layerOn(layers, l);
    j["velocityArrowSeconds"] = layers.world.velocityArrowSeconds;
    return j;
}

void layersFromJson(const json& j, ViewLayers& layers) {
    if (!j.is_object()) return;
    for (const LayerInfo& l : layerTable())
        readIf(j, l.name, l.get(layers));
    double arrow = layers.world.velocityArrowSeconds;
    readIf(j, "velocityArrowSeconds", arrow);
    if (arrow > 0.0 && arrow < 1e6) layers.world.velocityArrowSeconds = arrow;
}

std::string settingsToText(const Settings& s) {
    json j = json::object();
    j["format"] = "orca-sandbox-settings";
    j["version"] = kSettingsVersion;
    j["layers"] = layersToJson(s.layers);
    json panels = json::object();
    for (const PanelInfo& p : panelTable())
        if (p.setting) panels[p.name] = s.panels.*p.setting;
    j["panels"] = std::move(panels);
    j["appearance"] = {{"uiScale", s.uiScalePercent},
                       {"theme", s.theme == ui::Theme::Light ? "light" : "dark"}};
    // Paths are bytes: each in its lossless JSON form (a string when UTF-8, else {"bytes"}).
    json recent = json::array();
    for (const std::string& f : s.recentFiles)
        recent.push_back(scene::pathToJson<json>(std::string_view(f)));
    j["recentFiles"] = std::move(recent);
    j["fileDialog"] = s.desktopFileDialog ? "desktop" : "builtin";
    return j.dump(2) + "\n";
}

bool settingsFromText(const std::string& text, Settings& out, std::string& error) {
    json j;
    try {
        j = json::parse(text);
    } catch (const json::exception& e) {
        error = e.what();
        return false;
    }
    if (!j.is_object()) {
        error = "not a JSON object";
        return false;
    }
    Settings s;
    if (const auto it = j.find("layers"); it != j.end()) layersFromJson(*it, s.layers);
    if (const auto it = j.find("panels"); it != j.end() && it->is_object()) {
        for (const PanelInfo& p : panelTable()) {
            if (!p.setting) continue;
            if (p.alias) readIf(*it, p.alias, s.panels.*p.setting); // an older name
            readIf(*it, p.name, s.panels.*p.setting);
        }
    }
    if (const auto it = j.find("appearance"); it != j.end() && it->is_object()) {
        int scale = s.uiScalePercent;
        readIf(*it, "uiScale", scale);
        s.uiScalePercent = std::clamp(scale, ui::kMinUiScalePercent, ui::kMaxUiScalePercent);
        if (const auto t = it->find("theme"); t != it->end() && t->is_string())
            s.theme = t->get<std::string>() == "light" ? ui::Theme::Light : ui::Theme::Dark;
    }
    if (const auto it = j.find("recentFiles"); it != j.end() && it->is_array()) {
        for (const json& f : *it) {
            std::optional<std::string> path = scene::pathFromJson(f);
            if (path && s.recentFiles.size() < Settings::kMaxRecentFiles)
                s.recentFiles.push_back(std::move(*path));
        }
    }
    if (const auto it = j.find("fileDialog"); it != j.end() && it->is_string())
        s.desktopFileDialog = it->get<std::string>() == "desktop";
    out = std::move(s);
    return true;
}

SettingsLoad loadSettings(const fs::path& file) {
    SettingsLoad r;
    std::error_code ec;
    if (file.empty()) return r;
    const fs::file_status status = fs::status(file, ec);
    if (status.type() == fs::file_type::not_found) return r;
    r.existed = true;
    std::string text;
    try {
        text = scene::readTextFile(file, kMaxSettingsFileSize, "the settings file limit");
    } catch (const scene::SceneError& e) {
        // Not read (and not replaced on exit) when it is no regular file: a folder, a FIFO
        // (whose reader would wait for a writer for ever), a device.
        r.refused = status.type() != fs::file_type::regular;
        if (status.type() == fs::file_type::directory)
            r.error = file.string() + ": is a directory, not a settings file (give a file, e.g. " +
                      (file / "settings.json").string() + ")";
        else
            r.error = std::string(e.what()) + (r.refused ? "" : "; using defaults");
        return r;
    }
    std::string error;
    if (!settingsFromText(text, r.settings, error))
        r.error = file.string() + ": ignoring the settings file (" + error + "); using defaults";
    return r;
}

bool saveSettings(const Settings& s, const fs::path& file, std::string& error) {
    if (file.empty()) {
        error = "no settings folder";
        return false;
    }
    return scene::writeFileAtomic(file, settingsToText(s), error);
}

fs::path defaultSettingsFile() {
    char* pref = SDL_GetPrefPath("orca", "orca-sandbox");
    if (!pref) return {};
    fs::path p = fs::path(pref) / "settings.json";
    SDL_free(pref);
    return p;
}

} // namespace orca::app
