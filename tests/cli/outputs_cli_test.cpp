// Every file `orca` writes goes in whole or not at all (scene::AtomicFile): a trajectory that
// cannot be finished — here a file-size limit, as a full disk would — leaves the old file and
// no partial one, and says why; a symbolic link is written through (it stays a link); a
// read-only file is refused, not replaced.
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using orca::testing::Result;

class OutputsCli : public orca::testing::CliFixture {
  protected:
    /// The files in the test folder but the captured stderr, as "a;b;".
    std::string listing() const {
        std::string out;
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(m_dir)) {
            const std::string name = e.path().filename().string();
            if (name != "stderr.txt") names.push_back(name);
        }
        std::sort(names.begin(), names.end());
        for (const std::string& n : names)
            out += n + ";";
        return out;
    }
};

TEST_F(OutputsCli, TrajectoryThatCannotBeFinishedLeavesTheOldFile) {
    const fs::path csv = m_dir / "t.csv";
    write("t.csv", "the old trajectory\n");
    // A 4 KiB file-size limit (dash's ulimit -f counts 512-byte blocks) with SIGXFSZ ignored:
    // the write fails with EFBIG, as it would with ENOSPC on a full disk.
    const Result r =
        capture("trap '' XFSZ; ulimit -f 8; " + orcaCommand() + " run " + scene("crossing.json") +
                " --steps 40 --no-metrics --trajectory " + csv.string());
    EXPECT_EQ(r.code, 1) << r.out;
    EXPECT_NE(r.err.find("writing the trajectory failed, the file is unchanged"), std::string::npos)
        << r.err;
    EXPECT_NE(r.err.find("File too large"), std::string::npos) << r.err; // the system's reason
    EXPECT_EQ(orca::test::readFile(csv), "the old trajectory\n");
    EXPECT_EQ(listing(), "t.csv;"); // no partial file left
}

TEST_F(OutputsCli, TrajectoryThroughASymlinkAndOverAReadOnlyFile) {
    fs::create_directories(m_dir / "real");
    const fs::path target = m_dir / "real" / "t.csv";
    write("real/t.csv", "old\n");
    const fs::path link = m_dir / "link.csv";
    fs::create_symlink("real/t.csv", link);
    Result r = orca("run " + scene("head_on.json") + " --steps 3 --trajectory " + link.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_EQ(orca::test::readFile(target).rfind("step,agent,x,y,vx,vy\n", 0), 0u);

    ASSERT_EQ(::chmod(target.c_str(), 0444), 0);
    r = orca("run " + scene("head_on.json") + " --steps 3 --trajectory " + target.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("is read-only: not replaced"), std::string::npos) << r.err;
    ::chmod(target.c_str(), 0644);

    // --save-state and generate -o go the same way.
    const fs::path locked = m_dir / "locked.json";
    write("locked.json", "{}");
    ASSERT_EQ(::chmod(locked.c_str(), 0444), 0);
    r = orca("run " + scene("head_on.json") + " --steps 3 --save-state " + locked.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("read-only"), std::string::npos) << r.err;
    r = orca("generate circle --agents 10 -o " + locked.string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("read-only"), std::string::npos) << r.err;
    EXPECT_EQ(orca::test::readFile(locked), "{}");
    ::chmod(locked.c_str(), 0644);
}

} // namespace
