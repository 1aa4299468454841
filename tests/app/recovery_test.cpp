// The recovery file (autosave of the edited scene) and the autosave timer.
#include <gtest/gtest.h>

#include "common/files.hpp"

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

#include "orca/scene/scene.hpp"

#include "document/recovery.hpp"

#include <csignal>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

using orca::test::TempDir;

using orca::test::readFile;

void writeAll(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
}

// Agents with and without overrides, an obstacle (counter-clockwise, as loading leaves it), a
// "view" block and another app's block.
scene::Scene editedScene() {
    scene::Scene s;
    s.name = "edited";
    s.description = "two agents and a box";
    s.simulation.time = 1.25;
    s.simulation.step = 5;
    s.agentDefaults.radius = 0.4;
    scene::SceneAgent a;
    a.id = nlohmann::json("left");
    a.position = {0.1, -2.0 / 3.0};
    a.velocity = Vec2{0.5, 0.0};
    a.goal = Vec2{10.0, 0.0};
    a.overrides.maxSpeed = 1.7;
    scene::SceneAgent b;
    b.position = {5.0, 1.0};
    b.prefVelocity = Vec2{-1.0, 0.0};
    scene::SceneAgent c;
    c.position = {3.0, 3.0};
    c.isStatic = true;
    s.agents = {a, b, c};
    scene::SceneObstacle box;
    box.id = nlohmann::json(7);
    box.vertices = {{2.0, -1.0}, {3.0, -1.0}, {3.0, 1.0}, {2.0, 1.0}};
    s.obstacles = {box};
    s.extra["view"] = {{"center", {1.0, 2.0}}, {"zoom", 30.0}};
    s.extra["otherApp"] = {{"note", "kept"}};
    return s;
}

// "YYYY-MM-DDTHH:MM:SSZ" -> time point, or nullopt when malformed.
std::optional<std::chrono::sys_seconds> parseUtc(const std::string& text) {
    int y = 0;
    unsigned mo = 0;
    unsigned d = 0;
    int h = 0;
    int mi = 0;
    int sec = 0;
    char z = 0;
    int consumed = 0;
    if (text.size() != 20 ||
        std::sscanf(text.c_str(), "%4d-%2u-%2uT%2d:%2d:%2d%c%n", &y, &mo, &d, &h, &mi, &sec, &z,
                    &consumed) != 7 ||
        z != 'Z' || consumed != 20)
        return std::nullopt;
    using namespace std::chrono;
    const year_month_day ymd{year{y}, month{mo}, day{d}};
    if (!ymd.ok() || h > 23 || mi > 59 || sec > 60) return std::nullopt;
    return sys_days{ymd} + hours{h} + minutes{mi} + seconds{sec};
}

} // namespace

// ---- The file -------------------------------------------------------------------------------

TEST(RecoveryFile, IsNextToTheSettingsFile) {
    EXPECT_EQ(recoveryFileFor("/home/u/.local/share/orca/orca-sandbox/settings.json"),
              fs::path("/home/u/.local/share/orca/orca-sandbox/recovery.json"));
    EXPECT_EQ(recoveryFileFor("/tmp/run/my-settings.json"), fs::path("/tmp/run/recovery.json"));
    EXPECT_TRUE(recoveryFileFor({}).empty()); // no settings folder: no recovery file
}

TEST(Recovery, RoundTripGivesTheSceneAndWhereItCameFrom) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    const fs::path source = dir.path() / "scenes" / "crossing.json";
    const scene::Scene scene = editedScene();
    std::string error;
    const auto before = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    ASSERT_TRUE(writeRecovery(file, scene, source, error)) << error;
    const auto after = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());

    const std::optional<Recovered> r = readRecovery(file, error);
    ASSERT_TRUE(r.has_value()) << error;
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_TRUE(r->scene == scene); // the "recovery" block is not in the scene's extra blocks
    EXPECT_FALSE(r->scene.extra.contains("recovery"));
    EXPECT_EQ(r->scene.extra.at("view"), scene.extra.at("view"));
    EXPECT_EQ(r->info.sceneFile, source);
    const auto savedAt = parseUtc(r->info.savedAt);
    ASSERT_TRUE(savedAt.has_value()) << r->info.savedAt;
    EXPECT_GE(*savedAt, before);
    EXPECT_LE(*savedAt, after);
    EXPECT_TRUE(fs::exists(file)); // reading does not consume the file
}

TEST(Recovery, ASourceNameThatIsNotUtf8ComesBackByteForByte) {
    // Paths are bytes: a scene file named "\xff\xfe.json" is recovered under that very name
    // (the serializer would otherwise replace the bytes, naming another file).
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    const fs::path source = dir.path() / "caf\xe9 \xff\xfe.json";
    std::string error;
    ASSERT_TRUE(writeRecovery(file, editedScene(), source, error)) << error;
    const std::optional<Recovered> r = readRecovery(file, error);
    ASSERT_TRUE(r.has_value()) << error;
    EXPECT_EQ(r->info.sceneFile.native(), source.native());
}

TEST(Recovery, NewSceneHasNoSourceAndRelativeSourcesBecomeAbsolute) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    std::string error;
    ASSERT_TRUE(writeRecovery(file, editedScene(), {}, error)) << error;
    auto r = readRecovery(file, error);
    ASSERT_TRUE(r.has_value()) << error;
    EXPECT_TRUE(r->info.sceneFile.empty());

    ASSERT_TRUE(writeRecovery(file, editedScene(), "scenes/../scenes/blocks.json", error));
    r = readRecovery(file, error);
    ASSERT_TRUE(r.has_value()) << error;
    EXPECT_EQ(r->info.sceneFile, (fs::current_path() / "scenes/blocks.json").lexically_normal());
}

TEST(Recovery, WrittenFileIsAnOrdinarySceneFile) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    const scene::Scene scene = editedScene();
    std::string error;
    ASSERT_TRUE(writeRecovery(file, scene, "/somewhere/crossing.json", error)) << error;
    EXPECT_FALSE(fs::exists(dir.path() / "recovery.json.tmp"));

    const scene::LoadResult loaded = scene::loadScene(file);
    EXPECT_TRUE(loaded.warnings.empty());
    EXPECT_EQ(loaded.scene.agents.size(), 3u);
    EXPECT_EQ(loaded.scene.obstacles.size(), 1u);
    EXPECT_EQ(loaded.scene.extra.at("view"), scene.extra.at("view"));
    EXPECT_EQ(loaded.scene.extra.at("otherApp"), scene.extra.at("otherApp"));
    const auto& block = loaded.scene.extra.at("recovery");
    EXPECT_EQ(block.at("sceneFile"), "/somewhere/crossing.json");
    EXPECT_TRUE(block.at("savedAt").is_string());
    scene::Scene withoutBlock = loaded.scene;
    withoutBlock.extra.erase("recovery");
    EXPECT_TRUE(withoutBlock == scene);
}

TEST(Recovery, AutosavingARestoredSceneKeepsOneBlock) {
    // A scene opened from a recovery file (as an ordinary scene) still carries the old block.
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    scene::Scene scene = editedScene();
    scene.extra["recovery"] = {{"sceneFile", "/old.json"}, {"savedAt", "2000-01-01T00:00:00Z"}};
    std::string error;
    ASSERT_TRUE(writeRecovery(file, scene, "/new.json", error)) << error;
    const std::string text = readFile(file);
    EXPECT_EQ(text.find("\"recovery\""), text.rfind("\"recovery\""));
    const auto r = readRecovery(file, error);
    ASSERT_TRUE(r.has_value()) << error;
    EXPECT_EQ(r->info.sceneFile, fs::path("/new.json"));
    EXPECT_NE(r->info.savedAt, "2000-01-01T00:00:00Z");
    EXPECT_TRUE(r->scene == editedScene());
}

TEST(Recovery, AnInvalidSceneIsNotWrittenAndTheOldFileIsKept) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    std::string error;
    ASSERT_TRUE(writeRecovery(file, editedScene(), "/a.json", error)) << error;
    const std::string good = readFile(file);

    scene::Scene bad = editedScene();
    bad.agents[1].overrides.radius = 0.0;
    EXPECT_FALSE(writeRecovery(file, bad, "/a.json", error));
    EXPECT_NE(error.find("agents[1].radius"), std::string::npos) << error;
    EXPECT_EQ(readFile(file), good);
}

TEST(Recovery, NoFileIsNotAnError) {
    TempDir dir;
    std::string error = "stale";
    EXPECT_FALSE(readRecovery(dir.path() / "recovery.json", error).has_value());
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_FALSE(readRecovery({}, error).has_value());
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_TRUE(fs::is_empty(dir.path()));
}

TEST(Recovery, ACorruptFileIsMovedAsideIntact) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    // Truncated mid-write by something other than this app; not valid UTF-8 either.
    const std::string bytes = "{\n  \"format\": \"orca-scene\",\n  \"agents\": [ {\"pos\xff";
    writeAll(file, bytes);

    std::string error;
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_NE(error.find(file.string()), std::string::npos) << error;
    const fs::path broken = dir.path() / "recovery.broken.json";
    EXPECT_NE(error.find(broken.string()), std::string::npos) << error; // says where it went
    EXPECT_FALSE(fs::exists(file));
    ASSERT_TRUE(fs::exists(broken));
    EXPECT_EQ(readFile(broken), bytes);

    // Next start: nothing to restore, and no complaint.
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_TRUE(error.empty()) << error;
}

TEST(Recovery, ASecondBrokenFileDoesNotReplaceTheFirst) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    std::string error;
    writeAll(file, "first");
    EXPECT_FALSE(readRecovery(file, error).has_value());
    writeAll(file, "second");
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_NE(error.find("recovery.broken.2.json"), std::string::npos) << error;
    EXPECT_EQ(readFile(dir.path() / "recovery.broken.json"), "first");
    EXPECT_EQ(readFile(dir.path() / "recovery.broken.2.json"), "second");
}

TEST(Recovery, ASceneWithoutARecoveryBlockIsRejected) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    scene::saveScene(editedScene(), file);
    const std::string bytes = readFile(file);
    std::string error;
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_NE(error.find(file.string()), std::string::npos) << error;
    EXPECT_NE(error.find("recovery"), std::string::npos) << error;
    EXPECT_EQ(readFile(dir.path() / "recovery.broken.json"), bytes);

    scene::Scene wrongBlock = editedScene();
    wrongBlock.extra["recovery"] = {{"sceneFile", 3}, {"savedAt", "2026-11-23T01:30:00Z"}};
    scene::saveScene(wrongBlock, file);
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_NE(error.find("recovery.sceneFile"), std::string::npos) << error;
}

TEST(Recovery, RemoveDeletesTheFileAndMissingIsFine) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    std::string error;
    ASSERT_TRUE(writeRecovery(file, editedScene(), {}, error)) << error;
    writeAll(dir.path() / "recovery.json.tmp", "left by a crash mid-write");
    writeAll(dir.path() / "settings.json", "{}");
    removeRecovery(file);
    EXPECT_FALSE(fs::exists(file));
    EXPECT_FALSE(fs::exists(dir.path() / "recovery.json.tmp"));
    EXPECT_TRUE(fs::exists(dir.path() / "settings.json"));
    removeRecovery(file); // already gone
    removeRecovery({});
    EXPECT_FALSE(readRecovery(file, error).has_value());
    EXPECT_TRUE(error.empty());
}

// ---- One recovery file per running sandbox ----------------------------------------------------

namespace {

scene::Scene sceneNamed(const std::string& name) {
    scene::Scene s = editedScene();
    s.name = name;
    return s;
}

// Claims and expects no error.
RecoveryLock claim(const fs::path& settingsFile) {
    std::string error;
    RecoveryLock lock = claimRecoveryFile(settingsFile, error);
    EXPECT_TRUE(error.empty()) << error;
    return lock;
}

// The name of the scene in a recovery file, or "" when none can be read.
std::string recoveredName(const fs::path& file) {
    std::string error;
    const auto r = readRecovery(file, error);
    return r ? r->scene.name : "";
}

// A child process that claims a recovery file in `settingsFile`'s folder and autosaves the
// scene `name` to it, then waits until the parent closes the pipe (or kills it). Plays
// "another sandbox" with a real process boundary.
class ChildSandbox {
  public:
    ChildSandbox(const fs::path& settingsFile, const std::string& name) {
        int ready[2];
        int go[2];
        if (::pipe(ready) != 0 || ::pipe(go) != 0) {
            ADD_FAILURE() << "pipe failed";
            return;
        }
        m_pid = ::fork();
        if (m_pid == 0) {
            ::close(ready[0]);
            ::close(go[1]);
            std::string error;
            RecoveryLock lock = claimRecoveryFile(settingsFile, error);
            const bool ok =
                !lock.file().empty() && writeRecovery(lock.file(), sceneNamed(name), {}, error);
            const std::string reply = ok ? lock.file().string() : std::string();
            if (::write(ready[1], reply.data(), reply.size()) < 0) ::_exit(3);
            ::close(ready[1]);
            char c = 0;
            while (::read(go[0], &c, 1) > 0) {
            }
            ::_exit(0); // a crash would do as well: the kernel drops the lock either way
        }
        ::close(ready[1]);
        ::close(go[0]);
        m_go = go[1];
        char buf[4096];
        ssize_t n = 0;
        while ((n = ::read(ready[0], buf, sizeof buf)) > 0)
            m_file.append(buf, static_cast<std::size_t>(n));
        ::close(ready[0]);
    }
    ~ChildSandbox() { exit(); }
    ChildSandbox(const ChildSandbox&) = delete;
    ChildSandbox& operator=(const ChildSandbox&) = delete;

    /// The child's recovery file ("" when it failed).
    [[nodiscard]] fs::path file() const { return m_file; }
    /// Ends the child: cleanly, or with SIGKILL (as a crash or `kill -9`).
    void exit(bool kill = false) {
        if (m_pid <= 0) return;
        if (kill) ::kill(m_pid, SIGKILL);
        if (m_go >= 0) ::close(m_go);
        m_go = -1;
        int status = 0;
        ::waitpid(m_pid, &status, 0);
        m_pid = -1;
    }

  private:
    pid_t m_pid = -1;
    int m_go = -1;
    std::string m_file;
};

} // namespace

TEST(RecoverySlots, ASandboxAloneGetsRecoveryJsonAndLocksIt) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    RecoveryLock lock = claim(settings);
    EXPECT_EQ(lock.file(), dir.path() / "recovery.json");
    EXPECT_FALSE(lock.adopted());
    EXPECT_TRUE(recoveryFileInUse(lock.file()));
    EXPECT_EQ(readFile(dir.path() / "recovery.lock"), std::to_string(::getpid()) + "\n");
    EXPECT_FALSE(fs::exists(lock.file())); // written by the first autosave only

    lock.release();
    EXPECT_TRUE(lock.file().empty());
    EXPECT_FALSE(recoveryFileInUse(dir.path() / "recovery.json"));
    EXPECT_TRUE(fs::exists(dir.path() / "recovery.lock")); // lock files stay
}

TEST(RecoverySlots, NoSettingsFolderMeansNoRecoveryFile) {
    std::string error = "stale";
    const RecoveryLock lock = claimRecoveryFile({}, error);
    EXPECT_TRUE(lock.file().empty());
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_TRUE(staleRecoveryFiles({}).empty());
    EXPECT_FALSE(recoveryFileInUse({}));
}

TEST(RecoverySlots, TwoInstancesInOneProcessUseDistinctFiles) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    RecoveryLock first = claim(settings);
    RecoveryLock second = claim(settings);
    EXPECT_EQ(first.file(), dir.path() / "recovery.json");
    EXPECT_EQ(second.file(), dir.path() / "recovery-2.json");
    std::string error;
    ASSERT_TRUE(writeRecovery(first.file(), sceneNamed("first"), {}, error)) << error;
    ASSERT_TRUE(writeRecovery(second.file(), sceneNamed("second"), {}, error)) << error;
    // Both owners live: nothing is stale, and a third instance gets a third file.
    EXPECT_TRUE(staleRecoveryFiles(settings).empty());
    RecoveryLock third = claim(settings);
    EXPECT_EQ(third.file(), dir.path() / "recovery-3.json");
    EXPECT_FALSE(third.adopted());
    EXPECT_EQ(recoveredName(first.file()), "first"); // untouched
    EXPECT_EQ(recoveredName(second.file()), "second");

    // A real save removes the file but not the lock: the slot stays its owner's.
    removeRecovery(second.file());
    EXPECT_TRUE(recoveryFileInUse(second.file()));
    RecoveryLock fourth = claim(settings);
    EXPECT_EQ(fourth.file(), dir.path() / "recovery-4.json");

    // The first instance ends without saving: its file is offered to the next one.
    const fs::path firstFile = first.file();
    first.release();
    EXPECT_EQ(staleRecoveryFiles(settings), std::vector<fs::path>{firstFile});
    RecoveryLock next = claim(settings);
    EXPECT_EQ(next.file(), firstFile);
    EXPECT_TRUE(next.adopted());
    EXPECT_EQ(recoveredName(next.file()), "first");
    EXPECT_TRUE(staleRecoveryFiles(settings).empty()); // claimed: not offered twice
}

TEST(RecoverySlots, ALiveProcesssFileIsHiddenUntilItExits) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    ChildSandbox child(settings, "child");
    ASSERT_EQ(child.file(), dir.path() / "recovery.json");
    const std::string bytes = readFile(child.file());
    ASSERT_FALSE(bytes.empty());

    // The child runs: its file is in use, never offered, and this process gets its own.
    EXPECT_TRUE(recoveryFileInUse(child.file()));
    EXPECT_TRUE(staleRecoveryFiles(settings).empty());
    {
        RecoveryLock mine = claim(settings);
        EXPECT_EQ(mine.file(), dir.path() / "recovery-2.json");
        EXPECT_FALSE(mine.adopted());
        std::string error;
        EXPECT_FALSE(readRecovery(mine.file(), error).has_value());
        EXPECT_TRUE(error.empty()) << error;
        removeRecovery(mine.file()); // e.g. a clean exit of this instance
    }
    EXPECT_EQ(readFile(child.file()), bytes); // neither overwritten nor deleted

    // The child exits without saving: now its autosave is offered.
    child.exit();
    EXPECT_FALSE(recoveryFileInUse(dir.path() / "recovery.json"));
    EXPECT_EQ(staleRecoveryFiles(settings), std::vector<fs::path>{dir.path() / "recovery.json"});
    RecoveryLock next = claim(settings);
    EXPECT_EQ(next.file(), dir.path() / "recovery.json");
    EXPECT_TRUE(next.adopted());
    EXPECT_EQ(recoveredName(next.file()), "child");
}

TEST(RecoverySlots, AKilledProcesssFileIsOffered) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    RecoveryLock mine = claim(settings); // slot 1, no autosave yet
    ChildSandbox child(settings, "killed");
    ASSERT_EQ(child.file(), dir.path() / "recovery-2.json");
    EXPECT_TRUE(staleRecoveryFiles(settings).empty());
    child.exit(/*kill=*/true);
    EXPECT_EQ(staleRecoveryFiles(settings), std::vector<fs::path>{child.file()});
    RecoveryLock next = claim(settings);
    EXPECT_EQ(next.file(), child.file());
    EXPECT_TRUE(next.adopted());
    EXPECT_EQ(recoveredName(next.file()), "killed");
}

TEST(RecoverySlots, AStaleFileOfADeadPidAndAnOldUnlockedFileAreOffered) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    std::string error;
    // Slot 3, left by a process that died (its pid is in the lock file; nobody holds the lock).
    ASSERT_TRUE(writeRecovery(dir.path() / "recovery-3.json", sceneNamed("dead"), {}, error));
    writeAll(dir.path() / "recovery-3.lock", "999999999\n");
    EXPECT_FALSE(recoveryFileInUse(dir.path() / "recovery-3.json"));
    RecoveryLock lock = claim(settings);
    EXPECT_EQ(lock.file(), dir.path() / "recovery-3.json");
    EXPECT_TRUE(lock.adopted());
    EXPECT_EQ(recoveredName(lock.file()), "dead");
    EXPECT_EQ(readFile(dir.path() / "recovery-3.lock"), std::to_string(::getpid()) + "\n");

    // A recovery.json without a lock file (an older version wrote it) is stale too.
    ASSERT_TRUE(writeRecovery(dir.path() / "recovery.json", sceneNamed("old"), {}, error));
    EXPECT_FALSE(fs::exists(dir.path() / "recovery.lock"));
    EXPECT_EQ(staleRecoveryFiles(settings), std::vector<fs::path>{dir.path() / "recovery.json"});
    RecoveryLock old = claim(settings);
    EXPECT_EQ(old.file(), dir.path() / "recovery.json");
    EXPECT_TRUE(old.adopted());
}

TEST(RecoverySlots, TheNewestStaleFileIsOfferedFirstTheOthersOnLaterStarts) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    std::string error;
    const fs::path older = dir.path() / "recovery.json";
    const fs::path newer = dir.path() / "recovery-5.json";
    ASSERT_TRUE(writeRecovery(older, sceneNamed("older"), {}, error)) << error;
    ASSERT_TRUE(writeRecovery(newer, sceneNamed("newer"), {}, error)) << error;
    const auto now = fs::file_time_type::clock::now();
    fs::last_write_time(older, now - std::chrono::hours(2));
    fs::last_write_time(newer, now - std::chrono::hours(1));
    EXPECT_EQ(staleRecoveryFiles(settings), (std::vector<fs::path>{newer, older}));

    RecoveryLock a = claim(settings);
    EXPECT_EQ(a.file(), newer);
    EXPECT_TRUE(a.adopted());
    RecoveryLock b = claim(settings); // a second sandbox, started while the first runs
    EXPECT_EQ(b.file(), older);
    EXPECT_TRUE(b.adopted());
    RecoveryLock c = claim(settings);
    EXPECT_EQ(c.file(), dir.path() / "recovery-2.json"); // lowest free slot
    EXPECT_FALSE(c.adopted());
}

TEST(RecoverySlots, AFreshClaimSkipsStaleFilesAndHeldSlots) {
    // "Not now" on the adopted recovery: the session's own autosaves need a slot that holds
    // nobody's work, and the stale files stay for later starts.
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    std::string error;
    const fs::path stale1 = dir.path() / "recovery.json";
    const fs::path stale3 = dir.path() / "recovery-3.json";
    ASSERT_TRUE(writeRecovery(stale1, sceneNamed("one"), {}, error)) << error;
    ASSERT_TRUE(writeRecovery(stale3, sceneNamed("three"), {}, error)) << error;
    RecoveryLock adopted = claim(settings);
    ASSERT_TRUE(adopted.adopted());
    RecoveryLock own = claimFreshRecoveryFile(dir.path(), error);
    EXPECT_TRUE(error.empty()) << error;
    EXPECT_EQ(own.file(), dir.path() / "recovery-2.json");
    EXPECT_FALSE(own.adopted());
    RecoveryLock next = claimFreshRecoveryFile(dir.path(), error); // 3 is stale, 2 held
    EXPECT_EQ(next.file(), dir.path() / "recovery-4.json");
    EXPECT_EQ(recoveredName(stale1), "one"); // untouched
    EXPECT_EQ(recoveredName(stale3), "three");
    // The other stale file is still offered to the next sandbox.
    RecoveryLock later = claim(settings);
    EXPECT_TRUE(later.adopted());
    EXPECT_TRUE(later.file() == stale1 || later.file() == stale3) << later.file();
    EXPECT_NE(later.file(), adopted.file());
    EXPECT_TRUE(claimFreshRecoveryFile({}, error).file().empty());
}

TEST(RecoverySlots, BrokenAndTemporaryFilesAreNoSlots) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    for (const char* name :
         {"recovery.broken.json", "recovery-2.broken.json", "recovery-02.json", "recovery-1.json",
          "recovery-1000.json", "recovery.json.tmp", "recovery-x.json", "settings.json"})
        writeAll(dir.path() / name, "{}");
    EXPECT_TRUE(staleRecoveryFiles(settings).empty());
    RecoveryLock lock = claim(settings);
    EXPECT_EQ(lock.file(), dir.path() / "recovery.json");
    EXPECT_FALSE(lock.adopted());
}

TEST(RecoverySlots, ABrokenAdoptedFileIsMovedAsideAndTheSlotStaysMine) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    writeAll(dir.path() / "recovery-2.json", "not json");
    RecoveryLock lock = claim(settings);
    ASSERT_EQ(lock.file(), dir.path() / "recovery-2.json");
    std::string error;
    EXPECT_FALSE(readRecovery(lock.file(), error).has_value());
    EXPECT_NE(error.find("recovery-2.broken.json"), std::string::npos) << error;
    EXPECT_TRUE(recoveryFileInUse(lock.file()));
    ASSERT_TRUE(writeRecovery(lock.file(), sceneNamed("mine"), {}, error)) << error;
    EXPECT_TRUE(staleRecoveryFiles(settings).empty());
}

TEST(RecoverySlots, MovingTheLockKeepsItHeld) {
    TempDir dir;
    const fs::path settings = dir.path() / "settings.json";
    RecoveryLock a = claim(settings);
    const fs::path file = a.file();
    RecoveryLock b = std::move(a);
    EXPECT_TRUE(a.file().empty()); // NOLINT(bugprone-use-after-move): moved-from is empty
    EXPECT_EQ(b.file(), file);
    EXPECT_TRUE(recoveryFileInUse(file));
    RecoveryLock c;
    c = std::move(b);
    EXPECT_TRUE(recoveryFileInUse(file));
    c = RecoveryLock();
    EXPECT_FALSE(recoveryFileInUse(file));
}

// ---- When to autosave ------------------------------------------------------------------------

TEST(AutosaveTimer, NotDueBeforeThePeriod) {
    AutosaveTimer t(60.0);
    EXPECT_EQ(t.period(), 60.0);
    t.reset(100.0); // scene loaded at t = 100 s
    EXPECT_FALSE(t.due(100.0, true, 1));
    EXPECT_FALSE(t.due(159.9, true, 1));
    EXPECT_TRUE(t.due(160.0, true, 1));
}

TEST(AutosaveTimer, NotDueWithoutUnsavedChanges) {
    AutosaveTimer t(10.0);
    t.reset(0.0);
    EXPECT_FALSE(t.due(1000.0, false, 0));
    EXPECT_FALSE(t.due(1000.0, false, 42)); // edited, then saved for real
    EXPECT_TRUE(t.due(1000.0, true, 42));
}

TEST(AutosaveTimer, NotDueAgainForAnEditAlreadyAutosaved) {
    AutosaveTimer t(10.0);
    t.reset(0.0);
    ASSERT_TRUE(t.due(10.0, true, 3));
    t.saved(10.0, 3);
    EXPECT_FALSE(t.due(10.0, true, 3));
    EXPECT_FALSE(t.due(500.0, true, 3)); // still unsaved, but the recovery file has it
}

TEST(AutosaveTimer, DueAfterThePeriodWhenANewEditHappened) {
    AutosaveTimer t(10.0);
    t.reset(0.0);
    t.saved(12.0, 3);
    EXPECT_FALSE(t.due(15.0, true, 4)); // new edit, but the period since the autosave runs
    EXPECT_FALSE(t.due(21.9, true, 4));
    EXPECT_TRUE(t.due(22.0, true, 4));
    EXPECT_TRUE(t.due(22.0, true, 9));
    t.saved(22.5, 9);
    EXPECT_FALSE(t.due(40.0, true, 9));
    EXPECT_TRUE(t.due(40.0, true, 10));
}

TEST(AutosaveTimer, ResetRestartsThePeriodAndForgetsTheAutosavedEdit) {
    AutosaveTimer t(10.0);
    t.reset(0.0);
    t.saved(10.0, 5);
    t.reset(13.0); // a real save (the recovery file is removed) or a load
    EXPECT_FALSE(t.due(22.9, true, 5));
    // The app may restart its edit counter on a load: version 5 is new work again.
    EXPECT_TRUE(t.due(23.0, true, 5));
}

TEST(AutosaveTimer, InvalidPeriodMeansTheDefault) {
    EXPECT_EQ(AutosaveTimer().period(), 60.0);
    EXPECT_EQ(AutosaveTimer(0.5).period(), 0.5);
    EXPECT_EQ(AutosaveTimer(0.0).period(), 60.0);
    EXPECT_EQ(AutosaveTimer(-5.0).period(), 60.0);
    EXPECT_EQ(AutosaveTimer(std::numeric_limits<double>::quiet_NaN()).period(), 60.0);
    EXPECT_EQ(AutosaveTimer(std::numeric_limits<double>::infinity()).period(), 60.0);
}
