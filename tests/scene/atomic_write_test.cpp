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

#include "orca/scene/atomic_write.hpp"

namespace fs = std::filesystem;
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
    // A directory as the target: the temporary file is created and written, the rename fails,
    // and the error names the temporary file. Two tries must use two different names.
    TempDir dir;
    const fs::path target = dir.path() / "scene.json";
    fs::create_directories(target / "sub");
    std::set<std::string> names;
    for (int k = 0; k < 2; ++k) {
        std::string error;
        EXPECT_FALSE(writeFileAtomic(target, "text", error));
        // (Appended, not `"\"" + string`: GCC 12 -Wrestrict false positive.)
        std::string prefix(1, '"');
        prefix += (dir.path() / atomicTemporaryPrefix(target)).string();
        prefix += std::to_string(::getpid()) + "-";
        const std::size_t at = error.find(prefix);
        ASSERT_NE(at, std::string::npos) << error;
        const std::size_t end = error.find('"', at + 1);
        ASSERT_NE(end, std::string::npos) << error;
        const std::string name = error.substr(at + 1, end - at - 1);
        EXPECT_EQ(name.size(), prefix.size() - 1 + 6) << name; // mkstemp's XXXXXX
        names.insert(name);
    }
    EXPECT_EQ(names.size(), 2u);
    EXPECT_EQ(atomicTemporaryPrefix("/x/y/scene.json"), ".scene.json.tmp-");
    EXPECT_EQ(dir.listing(), "scene.json;"); // the temporary files were removed
    EXPECT_TRUE(fs::is_directory(target / "sub"));
}

TEST(AtomicWrite, FailureLeavesTheOldFileAndNamesTheReason) {
    TempDir dir;
    std::string error;
    EXPECT_FALSE(writeFileAtomic(dir.path() / "missing" / "x.json", "text", error));
    EXPECT_NE(error.find("cannot create a temporary file in"), std::string::npos) << error;
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;

    // A failed rename (target is a non-empty directory) keeps everything as it was.
    const fs::path file = dir.path() / "keep.json";
    ASSERT_TRUE(writeFileAtomic(file, "precious", error)) << error;
    const fs::path blocked = dir.path() / "dir.json";
    fs::create_directories(blocked / "inside");
    error.clear();
    EXPECT_FALSE(writeFileAtomic(blocked, "new", error));
    EXPECT_NE(error.find("cannot replace the file with"), std::string::npos) << error;
    EXPECT_NE(error.find(": "), std::string::npos) << error;
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

TEST(AtomicWrite, RemoveAtomicTemporariesClearsOnlyThatFilesLeftovers) {
    TempDir dir;
    const fs::path file = dir.path() / "recovery.json";
    writePlain(file, "{}");
    writePlain(dir.path() / ".recovery.json.tmp-123-abcdef", "partial");
    writePlain(dir.path() / ".recovery.json.tmp-456-ghijkl", "partial");
    writePlain(dir.path() / ".settings.json.tmp-123-abcdef", "other file's");
    removeAtomicTemporaries(file);
    EXPECT_EQ(dir.listing(), ".settings.json.tmp-123-abcdef;recovery.json;");
    removeAtomicTemporaries(dir.path() / "missing-dir" / "x.json"); // no error
}
