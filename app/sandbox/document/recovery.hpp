#pragma once
// Autosave of the edited scene to a recovery file, offered for restoring on the next start.
//
// The recovery file is an ordinary scene file (any scene reader opens it) with one extra
// top-level block:
//     "recovery": {"sceneFile": "/abs/path/scene.json", "savedAt": "2026-11-23T01:30:00Z"}
// It lives next to the settings file and is deleted after a real save or when the user
// discards it. A recovery file that cannot be loaded is moved aside, never deleted.
//
// One recovery file per running sandbox. Sandboxes sharing a settings folder use numbered
// slots: "recovery.json", "recovery-2.json", "recovery-3.json", ... Each slot has a lock file
// beside it ("recovery.lock", "recovery-2.lock", ...) that the owning process holds with
// flock(LOCK_EX) for as long as it runs (claimRecoveryFile). The kernel drops the lock when the
// process ends, however it ends (kill -9 included), so "the lock is free" means "the owner is
// gone": a recovery file whose lock is free (or which has no lock file, e.g. one written by an
// older version) is *stale* and is offered; a recovery file whose lock is held belongs to a
// live sandbox and is never offered, overwritten or deleted by another one. Lock files stay
// (empty but for the owner's pid, for people reading the folder); there are never more than the
// largest number of sandboxes that ran at once. POSIX only: elsewhere nothing is locked and
// every recovery file counts as stale (the behaviour before slots).

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::app {

/// The first recovery slot: "recovery.json" in the same directory as the settings file (the
/// file of a sandbox running alone; see claimRecoveryFile for the others). Empty when
/// `settingsFile` is empty (no settings folder: no recovery file either).
[[nodiscard]] std::filesystem::path recoveryFileFor(const std::filesystem::path& settingsFile);

/// A recovery file owned by this process: its path and the flock held on its lock file. Move
/// only; the destructor (or release()) drops the lock and leaves both files where they are.
class RecoveryLock {
  public:
    RecoveryLock() = default; ///< Owns nothing: file() is empty.
    ~RecoveryLock();
    RecoveryLock(RecoveryLock&& other) noexcept;
    RecoveryLock& operator=(RecoveryLock&& other) noexcept;
    RecoveryLock(const RecoveryLock&) = delete;
    RecoveryLock& operator=(const RecoveryLock&) = delete;

    /// The recovery file to autosave to (and to restore from when adopted()); "" for none.
    [[nodiscard]] const std::filesystem::path& file() const { return m_file; }
    /// True when file() held a stale recovery file when it was claimed: a sandbox that ended
    /// without saving left it, and it is this process's to offer (readRecovery).
    [[nodiscard]] bool adopted() const { return m_adopted; }
    /// Drops the lock (another process may then claim the file); file() becomes "".
    void release();

  private:
    friend RecoveryLock claimRecoveryFile(const std::filesystem::path&, std::string&);
    friend RecoveryLock claimFreshRecoveryFile(const std::filesystem::path&, std::string&);
    /// Takes `file`, whose lock file is open and locked as `fd`, and writes this pid into it.
    void hold(const std::filesystem::path& file, int fd, bool adopted);
    /// Locks the lowest slot of `dir` that no live process holds into `claim` (one with a stale
    /// file only when `adoptStale`; it is adopted then). `lockError`: the last lock failure,
    /// also of the caller's earlier tries; `error` says so when no slot could be locked.
    static void claimLowestSlot(const std::filesystem::path& dir, bool adoptStale,
                                RecoveryLock& claim, std::string& lockError, std::string& error);
    std::filesystem::path m_file;
    int m_fd = -1; ///< the open, flock'ed lock file; -1 when nothing is held
    bool m_adopted = false;
};

/// Claims this process's recovery file in the settings folder of `settingsFile` and locks it
/// for the lifetime of the returned object (creating the folder if needed):
///   - the newest stale recovery file (by modification time; the lower slot on a tie) when
///     there is one: it is adopted (adopted() is true), so the caller offers it (readRecovery)
///     and, whatever the answer, keeps autosaving to it; other stale files wait for later
///     starts, one per start, newest first;
///   - else the lowest slot with neither a live owner nor a file: "recovery.json" for a sandbox
///     running alone.
/// Recovery files of live sandboxes are skipped. Empty (and no error) when `settingsFile` is
/// empty; empty with `error` set when no slot can be locked (e.g. a read-only folder: then
/// there is no autosave). Two claims in one process get different files.
[[nodiscard]] RecoveryLock claimRecoveryFile(const std::filesystem::path& settingsFile,
                                             std::string& error);

/// A second recovery file for this process, in `folder` (the settings folder): the lowest slot
/// with neither a live owner nor a file, never a stale one (those wait for later starts). For
/// a session that put off the recovery it adopted ("Not now"): its own autosaves go here, the
/// adopted file stays as it is. Empty with `error` set when none can be locked.
[[nodiscard]] RecoveryLock claimFreshRecoveryFile(const std::filesystem::path& folder,
                                                  std::string& error);

/// The stale recovery files in the settings folder of `settingsFile` (those claimRecoveryFile
/// may adopt), newest first. Locks nothing for longer than the call.
[[nodiscard]] std::vector<std::filesystem::path>
staleRecoveryFiles(const std::filesystem::path& settingsFile);

/// Whether a live process (this one included, through another RecoveryLock) holds the lock of
/// the recovery file `file`.
[[nodiscard]] bool recoveryFileInUse(const std::filesystem::path& file);

struct RecoveryInfo {
    std::filesystem::path sceneFile; ///< the file the edited scene came from ("" = new scene)
    std::string savedAt;             ///< UTC, ISO 8601, e.g. "2026-11-23T01:30:00Z"
};

/// Writes `scene` (scene::serializeScene, so it is an ordinary scene file anyone can open) with
/// an extra top-level block "recovery": {"sceneFile": ..., "savedAt": now} atomically (a
/// reader never sees a partial file). `sceneFile` is stored as an absolute path (path_text.hpp's
/// lossless form: a name that is not UTF-8 as {"bytes": hex}) so that it
/// still names the same file when the app starts in another directory. The scene's own extra
/// blocks (e.g. "view") are kept. Returns false with `error` set (then `file` is untouched)
/// when the file cannot be written, or when the scene would not load again (e.g. a radius of
/// 0): the previous recovery file, from a loadable state, is better than an unloadable one.
/// `file` should be the file of a RecoveryLock this process holds (nothing checks it).
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
/// broken file, "recovery.broken.2.json", ".3", ... so neither is lost; slot 2 gives
/// "recovery-2.broken.json", which is no slot name, so it is never offered again). The returned
/// scene has the "recovery" block removed from its extra blocks. Reading neither takes nor
/// checks a lock: the caller reads the file its RecoveryLock adopted.
[[nodiscard]] std::optional<Recovered> readRecovery(const std::filesystem::path& file,
                                                    std::string& error);

/// Deletes the recovery file and the temporary files of writes killed midway (".tmp" of older
/// versions, ".recovery.json.tmp-PID-XXXXXX" of scene::writeFileAtomic) after a save, or when
/// the user discards it; missing or empty `file` is fine. The lock file and the lock stay: the slot
/// remains this process's for its next autosave.
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
