// scene::writeFileAtomic: the one atomic write (scene saves, app settings, recovery, dumps).

#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "common/files.hpp"
#include "common/processes.hpp"

#include "orca/scene/atomic_write.hpp"

namespace fs = std::filesystem;
using orca::scene::AtomicFile;
using orca::scene::atomicTemporaryPrefix;
using orca::scene::removeAtomicTemporaries;
using orca::scene::writeFileAtomic;

namespace {

using orca::test::TempDir;

using orca::test::readFile;

void writePlain(const fs::path& p, const std::string& text) {
    std::ofstream(p, std::ios::binary) << text;
}

} // namespace

TEST(AtomicWrite, WritesAndReplacesLeavingNoTemporaryFile) {
    TempDir dir;
    const fs::path file = dir.path() / "a.json";
    std::string error;
    ASSERT_TRUE(writeFileAtomic(file, "one", error)) << error;
    EXPECT_EQ(readFile(file), "one");
    ASSERT_TRUE(writeFileAtomic(file, "two, longer", error)) << error;
    EXPECT_EQ(readFile(file), "two, longer");
    ASSERT_TRUE(writeFileAtomic(file, "", error)) << error;
    EXPECT_EQ(readFile(file), "");
    EXPECT_EQ(dir.listing(), "a.json;");
}

TEST(AtomicWrite, NewFileGetsTheUmaskModeAndAReplacedFileKeepsItsMode) {
    TempDir dir;
    const fs::path fresh = dir.path() / "fresh.txt";
    std::string error;
    ASSERT_TRUE(writeFileAtomic(fresh, "x", error)) << error;
    const mode_t mask = ::umask(022);
    ::umask(mask);
    struct stat st {};
    ASSERT_EQ(::stat(fresh.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0666u & ~mask); // as open(O_CREAT, 0666), not mkstemp's 0600

    const fs::path kept = dir.path() / "kept.txt";
    writePlain(kept, "old");
    ASSERT_EQ(::chmod(kept.c_str(), 0640), 0);
    ASSERT_TRUE(writeFileAtomic(kept, "new", error)) << error;
    ASSERT_EQ(::stat(kept.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(AtomicWrite, TemporaryNamesAreUniqueAndBesideTheTarget) {
    TempDir dir;
    const fs::path target = dir.path() / "scene.json";
    std::string error;
    AtomicFile a;
    AtomicFile b;
    ASSERT_TRUE(a.open(target, error)) << error;
    ASSERT_TRUE(b.open(target, error)) << error;
    const std::string prefix =
        (dir.path() / atomicTemporaryPrefix(target)).string() + std::to_string(::getpid()) + "-";
    for (const AtomicFile* f : {&a, &b}) {
        const std::string name = f->temporaryPath().string();
        EXPECT_EQ(name.rfind(prefix, 0), 0u) << name;
        EXPECT_EQ(name.size(), prefix.size() + 6) << name; // mkstemp's XXXXXX
    }
    EXPECT_NE(a.temporaryPath(), b.temporaryPath());
    EXPECT_EQ(atomicTemporaryPrefix("/x/y/scene.json"), ".scene.json.tmp-");
    a.abandon();
    b.abandon();
    EXPECT_EQ(dir.listing(), ""); // nothing written, nothing left
}

TEST(AtomicWrite, FailureLeavesTheOldFileAndNamesTheReason) {
    TempDir dir;
    std::string error;
    EXPECT_FALSE(writeFileAtomic(dir.path() / "missing" / "x.json", "text", error));
    EXPECT_NE(error.find("cannot create a temporary file in"), std::string::npos) << error;
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;

    // A target that is not a regular file (a directory) is refused before anything is written.
    const fs::path file = dir.path() / "keep.json";
    ASSERT_TRUE(writeFileAtomic(file, "precious", error)) << error;
    const fs::path blocked = dir.path() / "dir.json";
    fs::create_directories(blocked / "inside");
    error.clear();
    EXPECT_FALSE(writeFileAtomic(blocked, "new", error));
    EXPECT_NE(error.find("is not a regular file: not replaced"), std::string::npos) << error;
    EXPECT_EQ(readFile(file), "precious");
    EXPECT_EQ(dir.listing(), "dir.json;keep.json;"); // no temporary file left

    // A read-only directory (not enforced for root): the old file stays.
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    const bool enforced = ::access(dir.path().c_str(), W_OK) != 0;
    if (enforced) {
        error.clear();
        EXPECT_FALSE(writeFileAtomic(file, "changed", error));
        EXPECT_NE(error.find("Permission denied"), std::string::npos) << error;
        EXPECT_EQ(readFile(file), "precious");
    }
    fs::permissions(dir.path(), fs::perms::owner_all);
}

TEST(AtomicWrite, ReadOnlyFileIsRefusedEvenForRoot) {
    TempDir dir;
    const fs::path file = dir.path() / "locked.csv";
    writePlain(file, "keep me");
    ASSERT_EQ(::chmod(file.c_str(), 0444), 0);
    std::string error;
    EXPECT_FALSE(writeFileAtomic(file, "replaced", error));
    EXPECT_NE(error.find("locked.csv\" is read-only: not replaced"), std::string::npos) << error;
    EXPECT_EQ(readFile(file), "keep me");
    EXPECT_EQ(dir.listing(), "locked.csv;");
}

TEST(AtomicWrite, ThroughASymbolicLinkTheTargetIsReplacedAndTheLinkStays) {
    TempDir dir;
    fs::create_directories(dir.path() / "real");
    const fs::path target = dir.path() / "real" / "out.csv";
    writePlain(target, "old");
    const fs::path link = dir.path() / "link.csv";
    fs::create_symlink("real/out.csv", link); // relative, resolved from the link's folder
    const fs::path chain = dir.path() / "chain.csv";
    fs::create_symlink(link, chain);
    std::string error;
    ASSERT_TRUE(writeFileAtomic(chain, "new", error)) << error;
    EXPECT_TRUE(fs::is_symlink(chain));
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(readFile(target), "new");
    // A link to a file that does not exist yet creates it there.
    const fs::path dangling = dir.path() / "dangling.csv";
    fs::create_symlink("real/later.csv", dangling);
    ASSERT_TRUE(writeFileAtomic(dangling, "later", error)) << error;
    EXPECT_TRUE(fs::is_symlink(dangling));
    EXPECT_EQ(readFile(dir.path() / "real" / "later.csv"), "later");
    EXPECT_EQ(dir.listing(), "chain.csv;dangling.csv;link.csv;real;");
}

TEST(AtomicWrite, PiecesGoInAtOnceOrNotAtAll) {
    TempDir dir;
    const fs::path file = dir.path() / "t.csv";
    writePlain(file, "old");
    std::string error;
    {
        AtomicFile f;
        ASSERT_TRUE(f.open(file, error)) << error;
        ASSERT_TRUE(f.write("a,"));
        ASSERT_TRUE(f.write("b\n"));
        EXPECT_EQ(readFile(file), "old"); // nothing shows before commit
    }                                     // destroyed without commit: abandoned
    EXPECT_EQ(readFile(file), "old");
    EXPECT_EQ(dir.listing(), "t.csv;");
    AtomicFile f;
    ASSERT_TRUE(f.open(file, error)) << error;
    ASSERT_TRUE(f.write("a,"));
    ASSERT_TRUE(f.write("b\n"));
    ASSERT_TRUE(f.commit(error)) << error;
    EXPECT_EQ(readFile(file), "a,b\n");
    EXPECT_EQ(dir.listing(), "t.csv;");
}

TEST(AtomicWrite, RemoveAtomicTemporariesClearsOnlyThatFilesLeftoversOfDeadProcesses) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    const std::string dead = std::to_string(orca::test::deadProcessId());
    const std::string live = std::to_string(::getpid());
    writePlain(file, "{}");
    writePlain(dir.path() / (".recovery.json.tmp-" + dead + "-abcdef"), "partial");
    writePlain(dir.path() / (".recovery.json.tmp-" + dead + "-Gh1JkL"), "partial");
    // A live process's temporary (this one's) is being written: kept.
    writePlain(dir.path() / (".recovery.json.tmp-" + live + "-abcdef"), "being written");
    // Not exactly the pattern: kept.
    writePlain(dir.path() / (".recovery.json.tmp-" + dead + "-abcdefg"), "a user's");
    writePlain(dir.path() / ".recovery.json.tmp-notes", "a user's");
    writePlain(dir.path() / (".settings.json.tmp-" + dead + "-abcdef"), "other file's");
    removeAtomicTemporaries(file);
    auto there = [&](const std::string& name) { return fs::exists(dir.path() / name); };
    EXPECT_FALSE(there(".recovery.json.tmp-" + dead + "-abcdef"));
    EXPECT_FALSE(there(".recovery.json.tmp-" + dead + "-Gh1JkL"));
    EXPECT_TRUE(there(".recovery.json.tmp-" + live + "-abcdef"));
    EXPECT_TRUE(there(".recovery.json.tmp-" + dead + "-abcdefg"));
    EXPECT_TRUE(there(".recovery.json.tmp-notes"));
    EXPECT_TRUE(there(".settings.json.tmp-" + dead + "-abcdef"));
    EXPECT_TRUE(there("recovery.json"));
    removeAtomicTemporaries(dir.path() / "missing-dir" / "x.json"); // no error
}

// A process killed mid-write (kill -9) leaves its temporary; the next write to that target
// removes it, but never a live process's temporary, nor another target's.
TEST(AtomicWrite, OpenRemovesTheTargetsStaleTemporaries) {
    TempDir dir;
    const fs::path file = dir.path() / "out.csv";
    const std::string dead = std::to_string(orca::test::deadProcessId());
    const std::string live = std::to_string(::getpid());
    writePlain(file, "old");
    writePlain(dir.path() / (".out.csv.tmp-" + dead + "-Ab3dEf"), "1 GB, cut short");
    writePlain(dir.path() / (".out.csv.tmp-" + live + "-abcdef"), "being written");
    writePlain(dir.path() / (".other.csv.tmp-" + dead + "-abcdef"), "another target's");
    std::string error;
    ASSERT_TRUE(writeFileAtomic(file, "new", error)) << error;
    EXPECT_EQ(readFile(file), "new");
    EXPECT_EQ(dir.listing(),
              ".other.csv.tmp-" + dead + "-abcdef;.out.csv.tmp-" + live + "-abcdef;out.csv;");
}
