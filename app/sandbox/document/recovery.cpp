#include "document/recovery.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/path_text.hpp"

#if defined(__unix__) || defined(__APPLE__)
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#define ORCA_HAVE_FLOCK 1
#endif

namespace fs = std::filesystem;

namespace orca::app {

namespace {

constexpr const char* kRecoveryKey = "recovery";
constexpr double kDefaultPeriod = 60.0;
/// Highest slot number: far more sandboxes than anyone runs at once, and a bound on the search
/// for a free slot when something keeps every lock busy.
constexpr int kMaxSlots = 999;

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
    const std::optional<std::string> sceneBytes =
        sceneFile == it->end() ? std::nullopt : scene::pathFromJson(*sceneFile);
    if (!sceneBytes) {
        why = "at recovery.sceneFile: expected a string (\"\" for a new scene) or {\"bytes\": "
              "hex}";
        return std::nullopt;
    }
    const auto savedAt = it->find("savedAt");
    if (savedAt == it->end() || !savedAt->is_string()) {
        why = "at recovery.savedAt: expected a string (UTC, ISO 8601)";
        return std::nullopt;
    }
    info.sceneFile = *sceneBytes;
    info.savedAt = savedAt->get<std::string>();
    return info;
}

// ---- Slots and their locks -------------------------------------------------------------------

// Slot k's recovery file: "recovery.json" for 1, "recovery-K.json" after.
fs::path slotFile(const fs::path& dir, int slot) {
    return dir / (slot == 1 ? std::string("recovery.json")
                            : "recovery-" + std::to_string(slot) + ".json");
}

// The slot a file name stands for, or 0 when it is no slot's recovery file (e.g.
// "recovery.broken.json", "recovery-2.broken.json", "recovery-02.json", "recovery-1.json").
int slotOf(const std::string& name) {
    if (name == "recovery.json") return 1;
    constexpr std::string_view prefix = "recovery-";
    constexpr std::string_view suffix = ".json";
    if (name.size() <= prefix.size() + suffix.size() || name.rfind(prefix, 0) != 0 ||
        name.compare(name.size() - suffix.size(), suffix.size(), suffix) != 0)
        return 0;
    const std::string digits =
        name.substr(prefix.size(), name.size() - prefix.size() - suffix.size());
    if (digits.size() > 3 || digits.front() == '0' ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return 0;
    const int slot = std::stoi(digits);
    return slot >= 2 && slot <= kMaxSlots ? slot : 0;
}

// The lock file of a recovery file: "recovery.json" -> "recovery.lock".
fs::path lockFileOf(const fs::path& file) {
    fs::path lock = file;
    lock.replace_extension(".lock");
    return lock;
}

enum class LockTry {
    Acquired, ///< `fd` is open and holds the lock
    Busy,     ///< another open file description holds it: a live owner
    Missing,  ///< no lock file (only when not creating it): nobody can hold it
    Failed,   ///< could not open or lock; `error` says why
};

// Opens `lockFile` (creating it when `create`) and tries to take its exclusive lock without
// waiting. flock() locks belong to the open file description, so a second open of the same file
// in this process conflicts too (two sandboxes in one test process behave like two processes),
// and the kernel drops the lock when the last descriptor closes, i.e. when the owner dies.
// O_CLOEXEC: a program the app starts must not inherit (and outlive it with) the lock.
LockTry tryLock(const fs::path& lockFile, bool create, int& fd, std::string& error) {
    fd = -1;
#ifdef ORCA_HAVE_FLOCK
    // O_NONBLOCK | O_NOCTTY: a FIFO or a terminal put in the lock file's place must not block
    // the start (opening a FIFO for reading waits for a writer); only a regular file is used.
    const int flags = (create ? O_RDWR | O_CREAT : O_RDONLY) | O_CLOEXEC | O_NONBLOCK | O_NOCTTY;
    const int opened = ::open(lockFile.c_str(), flags, 0666);
    if (opened < 0) {
        if (!create && errno == ENOENT) return LockTry::Missing;
        error = "cannot open " + lockFile.string() + ": " + std::strerror(errno);
        return LockTry::Failed;
    }
    struct stat st {};
    if (::fstat(opened, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(opened);
        error = "cannot lock " + lockFile.string() + ": not a regular file";
        return LockTry::Failed;
    }
    int rc = 0;
    do {
        rc = ::flock(opened, LOCK_EX | LOCK_NB);
    } while (rc != 0 && errno == EINTR);
    if (rc != 0) {
        const int lockErrno = errno;
        ::close(opened);
        if (lockErrno == EWOULDBLOCK) return LockTry::Busy;
        error = "cannot lock " + lockFile.string() + ": " + std::strerror(lockErrno);
        return LockTry::Failed;
    }
    fd = opened;
    return LockTry::Acquired;
#else
    (void)lockFile;
    (void)create;
    (void)error;
    return LockTry::Acquired; // no locking here: every slot looks free (see the header)
#endif
}

void unlock(int fd) {
#ifdef ORCA_HAVE_FLOCK
    if (fd < 0) return;
    ::flock(fd, LOCK_UN);
    ::close(fd);
#else
    (void)fd;
#endif
}

// Records the owner's pid in its lock file, for people looking at the folder (the lock itself
// is what counts). Best effort.
void writeOwner(int fd) {
#ifdef ORCA_HAVE_FLOCK
    if (fd < 0 || ::ftruncate(fd, 0) != 0) return;
    const std::string text = std::to_string(::getpid()) + "\n";
    if (::pwrite(fd, text.data(), text.size(), 0) < 0) return;
#else
    (void)fd;
#endif
}

// Whether the lock of recovery file `file` is free right now (its owner, if any, is gone).
// Unknown (the lock file cannot be opened) counts as busy: never offer what may be another's.
bool lockIsFree(const fs::path& file) {
    int fd = -1;
    std::string ignored;
    switch (tryLock(lockFileOf(file), false, fd, ignored)) {
    case LockTry::Acquired:
        unlock(fd);
        return true;
    case LockTry::Missing:
        return true;
    case LockTry::Busy:
    case LockTry::Failed:
        break;
    }
    return false;
}

struct SlotFile {
    int slot = 0;
    fs::path file;
    fs::file_time_type modified;
};

// The slots' recovery files present in `dir`, newest first (the lower slot first on a tie).
std::vector<SlotFile> slotFilesNewestFirst(const fs::path& dir) {
    std::vector<SlotFile> out;
    std::error_code ec;
    for (fs::directory_iterator it(dir.empty() ? fs::path(".") : dir, ec), end; !ec && it != end;
         it.increment(ec)) {
        const int slot = slotOf(it->path().filename().string());
        if (slot == 0) continue;
        std::error_code timeError;
        const fs::file_time_type modified = fs::last_write_time(it->path(), timeError);
        if (timeError) continue; // gone meanwhile
        out.push_back({slot, slotFile(dir, slot), modified});
    }
    std::sort(out.begin(), out.end(), [](const SlotFile& a, const SlotFile& b) {
        if (a.modified != b.modified) return a.modified > b.modified;
        return a.slot < b.slot;
    });
    return out;
}

bool fileExists(const fs::path& file) {
    std::error_code ec;
    return fs::symlink_status(file, ec).type() != fs::file_type::not_found && !ec;
}

} // namespace

fs::path recoveryFileFor(const fs::path& settingsFile) {
    if (settingsFile.empty()) return {};
    return slotFile(settingsFile.parent_path(), 1);
}

RecoveryLock::~RecoveryLock() {
    release();
}

RecoveryLock::RecoveryLock(RecoveryLock&& other) noexcept
    : m_file(std::move(other.m_file)), m_fd(std::exchange(other.m_fd, -1)),
      m_adopted(std::exchange(other.m_adopted, false)) {
    other.m_file.clear();
}

RecoveryLock& RecoveryLock::operator=(RecoveryLock&& other) noexcept {
    if (this != &other) {
        release();
        m_file = std::move(other.m_file);
        other.m_file.clear();
        m_fd = std::exchange(other.m_fd, -1);
        m_adopted = std::exchange(other.m_adopted, false);
    }
    return *this;
}

void RecoveryLock::release() {
    unlock(m_fd);
    m_fd = -1;
    m_file.clear();
    m_adopted = false;
}

RecoveryLock claimRecoveryFile(const fs::path& settingsFile, std::string& error) {
    error.clear();
    RecoveryLock claim;
    if (settingsFile.empty()) return claim;
    const fs::path dir = settingsFile.parent_path();
    std::error_code ec;
    if (!dir.empty()) fs::create_directories(dir, ec);
    if (ec) {
        error = "no autosave: cannot create " + dir.string() + " (" + ec.message() + ")";
        return claim;
    }
    std::string lockError;

    // 1. The newest stale recovery file, if any: its owner is gone, so it is ours to offer.
    for (const SlotFile& s : slotFilesNewestFirst(dir)) {
        int fd = -1;
        if (tryLock(lockFileOf(s.file), true, fd, lockError) != LockTry::Acquired) continue;
        if (fileExists(s.file)) { // still there now that nobody else can take it
            claim.hold(s.file, fd, true);
            return claim;
        }
        unlock(fd);
    }
    // 2. The lowest slot nobody holds. A file that turned stale since the scan is adopted too.
    RecoveryLock::claimLowestSlot(dir, true, claim, lockError, error);
    return claim;
}

RecoveryLock claimFreshRecoveryFile(const fs::path& folder, std::string& error) {
    error.clear();
    RecoveryLock claim;
    std::string lockError;
    if (!folder.empty()) RecoveryLock::claimLowestSlot(folder, false, claim, lockError, error);
    return claim;
}

void RecoveryLock::hold(const fs::path& file, int fd, bool adopted) {
    m_file = file;
    m_fd = fd;
    m_adopted = adopted;
    writeOwner(fd);
}

void RecoveryLock::claimLowestSlot(const fs::path& dir, bool adoptStale, RecoveryLock& claim,
                                   std::string& lockError, std::string& error) {
    // A few failures in a row (e.g. a read-only folder) end the search: the rest would fail
    // the same way.
    int failures = 0;
    for (int slot = 1; slot <= kMaxSlots && failures < 4; ++slot) {
        const fs::path file = slotFile(dir, slot);
        int fd = -1;
        const LockTry got = tryLock(lockFileOf(file), true, fd, lockError);
        if (got == LockTry::Acquired) {
            const bool stale = fileExists(file);
            if (stale && !adoptStale) { // someone's unsaved work: left for a later start
                unlock(fd);
                continue;
            }
            claim.hold(file, fd, stale);
            return;
        }
        failures = got == LockTry::Failed ? failures + 1 : 0;
    }
    error = "no autosave: no recovery file in " + dir.string() + " could be locked" +
            (lockError.empty() ? std::string(" (all are in use)") : " (" + lockError + ")");
}

std::vector<fs::path> staleRecoveryFiles(const fs::path& settingsFile) {
    std::vector<fs::path> out;
    if (settingsFile.empty()) return out;
    for (const SlotFile& s : slotFilesNewestFirst(settingsFile.parent_path())) {
        if (lockIsFree(s.file)) out.push_back(s.file);
    }
    return out;
}

bool recoveryFileInUse(const fs::path& file) {
    return !file.empty() && !lockIsFree(file);
}

bool writeRecovery(const fs::path& file, const scene::Scene& scene, const fs::path& sceneFile,
                   std::string& error) {
    if (file.empty()) {
        error = "no settings folder for the recovery file";
        return false;
    }
    // The file's bytes, losslessly (a name that is not UTF-8 is stored as hex).
    fs::path source;
    if (!sceneFile.empty()) {
        std::error_code ec;
        const fs::path abs = fs::absolute(sceneFile, ec);
        source = ec ? sceneFile : abs.lexically_normal();
    }

    scene::Scene copy = scene;
    if (!copy.extra.is_object()) copy.extra = nlohmann::ordered_json::object();
    copy.extra.erase(kRecoveryKey);
    copy.extra[kRecoveryKey] = {{"sceneFile", scene::pathToJson(source)}, {"savedAt", utcNow()}};

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
    return scene::writeFileAtomic(file, text, error);
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
    scene::removeAtomicTemporaries(file); // the same, from writeFileAtomic
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
