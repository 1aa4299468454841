// Every file the app reads goes through the scene library's one reader (scene::readTextFile /
// readFilePrefix, issue 25): a FIFO, a folder or a device in a file's place is refused at once
// with the file named — the settings, the window layout, the recovery lock, the pictures
// folder's user-dirs.dirs, the importers' and recordings' format checks — never waited on.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <string>
#include <thread>

#include "common/files.hpp"
#include "document/import_open.hpp"
#include "document/recovery.hpp"
#include "paths.hpp"
#include "shell/settings.hpp"

namespace fs = std::filesystem;
using namespace orca::app;
using orca::test::TempDir;

namespace {

using Clock = std::chrono::steady_clock;

fs::path makeFifo(const fs::path& path) {
    EXPECT_EQ(::mkfifo(path.c_str(), 0600), 0) << std::strerror(errno);
    return path;
}

// Runs `f` with a watchdog: should it block opening `fifo` for reading (waiting for a writer),
// a writer comes after 10 s and unblocks it, so that the test fails (too slow) instead of
// hanging. Returns how long `f` took.
Clock::duration timedAgainstFifo(const fs::path& fifo, const std::function<void()>& f) {
    std::atomic<bool> done{false};
    std::thread watchdog([&] {
        for (int i = 0; i < 1000 && !done; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!done) {
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
    });
    const auto start = Clock::now();
    f();
    const auto elapsed = Clock::now() - start;
    done = true;
    watchdog.join();
    return elapsed;
}

} // namespace

TEST(HostileFiles, SettingsFifoIsRefusedAtOnce) {
    TempDir t("hostile-settings");
    const fs::path fifo = makeFifo(t.path() / "settings.json");
    SettingsLoad s;
    EXPECT_LT(timedAgainstFifo(fifo, [&] { s = loadSettings(fifo); }), std::chrono::seconds(2));
    EXPECT_TRUE(s.existed);
    EXPECT_TRUE(s.refused);
    EXPECT_EQ(s.error, fifo.string() + ": error: not a regular file (FIFO)");
    EXPECT_TRUE(s.settings.layers.overlay.halfPlanes); // defaults
}

TEST(HostileFiles, SettingsFolderSaysItIsADirectory) {
    TempDir t("hostile-settings-dir");
    const SettingsLoad s = loadSettings(t.path());
    EXPECT_TRUE(s.refused);
    EXPECT_EQ(s.error, t.path().string() +
                           ": is a directory, not a settings file (give a file, "
                           "e.g. " +
                           (t.path() / "settings.json").string() + ")");
}

TEST(HostileFiles, HugeSettingsFileIsIgnoredLikeACorruptOne) {
    TempDir t("hostile-settings-big");
    const fs::path file = t.path() / "settings.json";
    std::ofstream(file).close();
    fs::resize_file(file, 2 * kMaxSettingsFileSize); // sparse: costs nothing
    const SettingsLoad s = loadSettings(file);
    EXPECT_TRUE(s.existed);
    EXPECT_FALSE(s.refused); // a regular file: replaced on exit
    EXPECT_NE(s.error.find("2 MiB is larger than the 1 MiB limit (the settings file limit); "
                           "using defaults"),
              std::string::npos)
        << s.error;
}

TEST(HostileFiles, ImportAndRecordingChecksDoNotWaitOnAFifo) {
    TempDir t("hostile-import");
    const fs::path fifo = makeFifo(t.path() / "drop.xml");
    bool import = true;
    EXPECT_LT(timedAgainstFifo(fifo, [&] { import = isImportFile(fifo); }),
              std::chrono::seconds(2));
    EXPECT_FALSE(import);
    EXPECT_FALSE(isImportFile(t.path())); // a folder
}

TEST(HostileFiles, UserDirsFifoDoesNotBlockTheSaveDialog) {
    TempDir t("hostile-userdirs");
    UserDirsEnv env;
    env.home = t.path() / "home";
    env.xdgConfigHome = t.path() / "config";
    fs::create_directories(env.home / "Pictures");
    fs::create_directories(env.xdgConfigHome);
    const fs::path fifo = makeFifo(env.xdgConfigHome / "user-dirs.dirs");
    fs::path dir;
    EXPECT_LT(timedAgainstFifo(fifo, [&] { dir = defaultSaveDir({}, env); }),
              std::chrono::seconds(2));
    EXPECT_EQ(dir, env.home / "Pictures"); // the fallback
}

TEST(HostileFiles, RecoveryLockFifoDoesNotBlockTheStart) {
    TempDir t("hostile-recovery");
    const fs::path settings = t.path() / "settings.json";
    std::ofstream(t.path() / "recovery.json") << "{}"; // a recovery file whose lock is a FIFO
    const fs::path fifo = makeFifo(t.path() / "recovery.lock");
    std::string error;
    RecoveryLock lock;
    EXPECT_LT(timedAgainstFifo(fifo, [&] { lock = claimRecoveryFile(settings, error); }),
              std::chrono::seconds(2));
    // Slot 1's lock is unusable, so it is never offered nor taken; another slot is claimed.
    EXPECT_NE(lock.file(), t.path() / "recovery.json");
    EXPECT_FALSE(lock.adopted());
}
