#include "recovery.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <system_error>
#include <utility>

#include "atomic_file.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

constexpr const char* kRecoveryKey = "recovery";
constexpr double kDefaultPeriod = 60.0;

// The current time in UTC as "YYYY-MM-DDTHH:MM:SSZ".
std::string utcNow() {
    using namespace std::chrono;
    const auto now = floor<seconds>(system_clock::now());
    const auto day = floor<days>(now);
    const year_month_day ymd{day};
    const hh_mm_ss hms{now - day};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", static_cast<int>(ymd.year()),
                  static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                  static_cast<int>(hms.hours().count()), static_cast<int>(hms.minutes().count()),
                  static_cast<int>(hms.seconds().count()));
    return buf;
}

// A name for the broken file that does not replace an earlier broken file:
// recovery.broken.json, recovery.broken.2.json, ...
fs::path brokenFileFor(const fs::path& file) {
    const fs::path dir = file.parent_path();
    const std::string stem = file.stem().string();
    const std::string ext = file.extension().string();
    fs::path candidate = dir / (stem + ".broken" + ext);
    std::error_code ec;
    for (int n = 2;
         fs::symlink_status(candidate, ec).type() != fs::file_type::not_found && n < 1000; ++n)
        candidate = dir / (stem + ".broken." + std::to_string(n) + ext);
    return candidate;
}

// Moves the broken file aside and returns what happened, for the error message.
std::string moveAside(const fs::path& file) {
    const fs::path broken = brokenFileFor(file);
    std::error_code ec;
    fs::rename(file, broken, ec);
    if (ec) return "could not move it aside to " + broken.string() + " (" + ec.message() + ")";
    return "moved it to " + broken.string();
}

// The "recovery" block of a loaded scene, or an error message.
std::optional<RecoveryInfo> recoveryBlock(const scene::Scene& s, std::string& why) {
    const auto it = s.extra.find(kRecoveryKey);
    if (it == s.extra.end()) {
        why = "no \"recovery\" block (not a recovery file)";
        return std::nullopt;
    }
    if (!it->is_object()) {
        why = "at recovery: expected an object";
        return std::nullopt;
    }
    RecoveryInfo info;
    const auto sceneFile = it->find("sceneFile");
    if (sceneFile == it->end() || !sceneFile->is_string()) {
        why = "at recovery.sceneFile: expected a string (\"\" for a new scene)";
        return std::nullopt;
    }
    const auto savedAt = it->find("savedAt");
    if (savedAt == it->end() || !savedAt->is_string()) {
        why = "at recovery.savedAt: expected a string (UTC, ISO 8601)";
        return std::nullopt;
    }
    info.sceneFile = sceneFile->get<std::string>();
    info.savedAt = savedAt->get<std::string>();
    return info;
}

} // namespace

fs::path recoveryFileFor(const fs::path& settingsFile) {
    if (settingsFile.empty()) return {};
    return settingsFile.parent_path() / "recovery.json";
}

bool writeRecovery(const fs::path& file, const scene::Scene& scene, const fs::path& sceneFile,
                   std::string& error) {
    if (file.empty()) {
        error = "no settings folder for the recovery file";
        return false;
    }
    std::string source;
    if (!sceneFile.empty()) {
        std::error_code ec;
        const fs::path abs = fs::absolute(sceneFile, ec);
        source = (ec ? sceneFile : abs.lexically_normal()).string();
    }

    scene::Scene copy = scene;
    if (!copy.extra.is_object()) copy.extra = nlohmann::ordered_json::object();
    copy.extra.erase(kRecoveryKey);
    copy.extra[kRecoveryKey] = {{"sceneFile", source}, {"savedAt", utcNow()}};

    std::string text;
    try {
        text = scene::serializeScene(copy);
        // Refuse to write a file that would not load again.
        (void)scene::parseScene(text, file.string());
    } catch (const scene::SceneError& e) {
        error = file.string() + ": not autosaved, the scene is invalid: " +
                (e.jsonPath().empty() ? "" : "at " + e.jsonPath() + ": ") + e.message();
        return false;
    } catch (const nlohmann::json::exception& e) { // e.g. a path that is not valid UTF-8
        error = file.string() + ": not autosaved: " + e.what();
        return false;
    }

    std::error_code ec;
    if (file.has_parent_path()) fs::create_directories(file.parent_path(), ec);
    return writeFileAtomic(file, text, error);
}

std::optional<Recovered> readRecovery(const fs::path& file, std::string& error) {
    error.clear();
    if (file.empty()) return std::nullopt;
    std::error_code ec;
    if (fs::status(file, ec).type() == fs::file_type::not_found) return std::nullopt;

    std::string why;
    try {
        scene::LoadResult loaded = scene::loadScene(file);
        if (std::optional<RecoveryInfo> info = recoveryBlock(loaded.scene, why)) {
            loaded.scene.extra.erase(kRecoveryKey);
            return Recovered{std::move(loaded.scene), std::move(*info)};
        }
        why = file.string() + ": error: " + why;
    } catch (const scene::SceneError& e) {
        why = e.what(); // names the file
    }
    error = "cannot restore the recovery file: " + why + "; " + moveAside(file);
    return std::nullopt;
}

void removeRecovery(const fs::path& file) {
    if (file.empty()) return;
    std::error_code ec;
    fs::remove(file, ec);
    fs::path tmp = file; // left behind if the app died while writing
    tmp += ".tmp";
    fs::remove(tmp, ec);
}

AutosaveTimer::AutosaveTimer(double periodSeconds)
    : m_period(periodSeconds > 0.0 && std::isfinite(periodSeconds) ? periodSeconds
                                                                   : kDefaultPeriod) {}

bool AutosaveTimer::due(double nowSeconds, bool unsaved, std::uint64_t editVersion) const {
    if (!unsaved) return false;
    if (m_hasAutosaved && editVersion == m_autosavedVersion) return false;
    return nowSeconds - m_periodStart >= m_period;
}

void AutosaveTimer::saved(double nowSeconds, std::uint64_t editVersion) {
    m_periodStart = nowSeconds;
    m_hasAutosaved = true;
    m_autosavedVersion = editVersion;
}

void AutosaveTimer::reset(double nowSeconds) {
    m_periodStart = nowSeconds;
    m_hasAutosaved = false;
}

double AutosaveTimer::period() const {
    return m_period;
}

} // namespace orca::app
