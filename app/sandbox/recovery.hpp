#pragma once
// Autosave of the edited scene to a recovery file, offered for restoring on the next start.
//
// The recovery file is an ordinary scene file (any scene reader opens it) with one extra
// top-level block:
//     "recovery": {"sceneFile": "/abs/path/scene.json", "savedAt": "2026-11-23T01:30:00Z"}
// It lives next to the settings file and is deleted after a real save or when the user
// discards it. A recovery file that cannot be loaded is moved aside, never deleted.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include "orca/scene.hpp"

namespace orca::app {

/// The recovery file: "recovery.json" in the same directory as the settings file. Empty when
/// `settingsFile` is empty (no settings folder: no recovery file either).
[[nodiscard]] std::filesystem::path recoveryFileFor(const std::filesystem::path& settingsFile);

struct RecoveryInfo {
    std::filesystem::path sceneFile; ///< the file the edited scene came from ("" = new scene)
    std::string savedAt;             ///< UTC, ISO 8601, e.g. "2026-11-23T01:30:00Z"
};

/// Writes `scene` (scene::serializeScene, so it is an ordinary scene file anyone can open) with
/// an extra top-level block "recovery": {"sceneFile": ..., "savedAt": now} atomically (a
/// reader never sees a partial file). `sceneFile` is stored as an absolute path so that it
/// still names the same file when the app starts in another directory. The scene's own extra
/// blocks (e.g. "view") are kept. Returns false with `error` set (then `file` is untouched)
/// when the file cannot be written, or when the scene would not load again (e.g. a radius of
/// 0): the previous recovery file, from a loadable state, is better than an unloadable one.
bool writeRecovery(const std::filesystem::path& file, const scene::Scene& scene,
                   const std::filesystem::path& sceneFile, std::string& error);

struct Recovered {
    scene::Scene scene;
    RecoveryInfo info;
};

/// Reads a recovery file. nullopt and empty `error` when there is no recovery file (or `file`
/// is empty). When the file exists but cannot be loaded (unreadable, not a valid scene, or no
/// valid "recovery" block): nullopt, `error` says why (file and reason) and where the file
/// went, and the broken file is moved aside to "recovery.broken.json" next to it (never
/// deleted: it may be the only copy of someone's work; when that name is taken by an earlier
/// broken file, "recovery.broken.2.json", ".3", ... so neither is lost). The returned scene
/// has the "recovery" block removed from its extra blocks.
[[nodiscard]] std::optional<Recovered> readRecovery(const std::filesystem::path& file,
                                                    std::string& error);

/// Deletes the recovery file (after a save, or when the user discards it); missing or empty
/// `file` is fine.
void removeRecovery(const std::filesystem::path& file);

/// When to autosave: at most every `periodSeconds`, only when there are unsaved changes that
/// the last autosave did not already write (editVersion: a counter the app bumps on every
/// edit). Times are seconds on any monotonic clock; the period runs from the last saved() or
/// reset() (from time 0 before the first of them, so call reset() when the first scene loads).
class AutosaveTimer {
  public:
    /// `periodSeconds` > 0; anything else (0, negative, NaN, infinite) means the default, 60.
    explicit AutosaveTimer(double periodSeconds = 60.0);

    /// True when an autosave should be written now: the period has elapsed since the last
    /// autosave or reset, `unsaved` is true, and `editVersion` differs from the version the
    /// last autosave wrote (since the last reset).
    [[nodiscard]] bool due(double nowSeconds, bool unsaved, std::uint64_t editVersion) const;
    /// An autosave of `editVersion` was written at `nowSeconds`: restart the period.
    void saved(double nowSeconds, std::uint64_t editVersion);
    /// After a load or a real save: restart the period and forget the autosaved version (the
    /// recovery file is removed then, so the next edit must be written again even if the app
    /// restarts its edit counter).
    void reset(double nowSeconds);
    /// Seconds between autosaves.
    [[nodiscard]] double period() const;

  private:
    double m_period;
    double m_periodStart = 0.0;
    bool m_hasAutosaved = false;
    std::uint64_t m_autosavedVersion = 0;
};

} // namespace orca::app
