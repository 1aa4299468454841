// Outputs that would overwrite an input or each other are refused before anything runs (issue
// 25, item 9), and a temporary left by an `orca` killed mid-write is removed by the next write
// to the same file, never one of a live process (item 8).
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"
#include "common/processes.hpp"

namespace {

namespace fs = std::filesystem;
using orca::testing::Result;

class OutputConflictsCli : public orca::testing::CliFixture {
  protected:
    /// Expects `orca ARGS` to be refused as a usage error with `message` on stderr, having
    /// written nothing: the folder's listing is what it was.
    void expectRefused(const std::string& args, const std::string& message) {
        SCOPED_TRACE("orca " + args);
        const std::string before = listing();
        const Result r = orca(args);
        EXPECT_EQ(r.code, 2) << r.err;
        EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
        EXPECT_EQ(r.out, "");
        EXPECT_EQ(listing(), before);
    }
    /// The folder's files and their sizes but the captured stderr, as "a=3;b=0;".
    std::string listing() const {
        std::string out;
        std::vector<std::string> rows;
        for (const auto& e : fs::directory_iterator(m_dir)) {
            const std::string name = e.path().filename().string();
            if (name == "stderr.txt") continue;
            rows.push_back(name + "=" +
                           (fs::is_regular_file(e.path()) ? std::to_string(fs::file_size(e.path()))
                                                          : std::string("dir")));
        }
        std::sort(rows.begin(), rows.end());
        for (const std::string& r : rows)
            out += r + ";";
        return out;
    }
};

TEST_F(OutputConflictsCli, AnOutputThatIsAnotherOutputIsRefused) {
    const std::string sc = scene("head_on.json");
    const std::string x = (m_dir / "x.out").string();
    // Neither file exists yet: the names decide (./x and x, d/../x).
    expectRefused("run " + sc + " --steps 2 --save-state " + x + " --trajectory " + x,
                  "orca run: error: --save-state names the same file as --trajectory (" + x +
                      "): it would be overwritten; name another file");
    expectRefused("run " + sc + " --steps 2 --trajectory " + x + " --recording " +
                      (m_dir / "sub" / ".." / "x.out").string(),
                  "--recording names the same file as --trajectory");
    const Result relative = capture("cd " + m_dir.string() + " && " + orcaCommand() + " run " + sc +
                                    " --steps 2 --trajectory x.out --save-state ./x.out");
    EXPECT_EQ(relative.code, 2) << relative.err;
    EXPECT_NE(relative.err.find("--save-state names the same file as --trajectory"),
              std::string::npos)
        << relative.err;
    EXPECT_FALSE(fs::exists(x));
    // Distinct outputs are fine.
    const Result ok = orca("run " + sc + " --steps 2 --trajectory " + x + " --save-state " +
                           (m_dir / "y.json").string());
    EXPECT_EQ(ok.code, 0) << ok.err;
}

TEST_F(OutputConflictsCli, AnOutputThatIsTheInputIsRefused) {
    fs::copy_file(scene("head_on.json"), m_dir / "s.json");
    const std::string sc = (m_dir / "s.json").string();
    expectRefused("run " + sc + " --steps 2 --trajectory " + sc,
                  "orca run: error: --trajectory names the same file as the scene (" + sc + ")");
    fs::create_symlink("s.json", m_dir / "link.json");
    expectRefused("run " + sc + " --steps 2 --save-state " + (m_dir / "link.json").string(),
                  "--save-state names the same file as the scene");
    fs::create_hard_link(m_dir / "s.json", m_dir / "hard.json");
    expectRefused("run " + sc + " --steps 2 --recording " + (m_dir / "hard.json").string(),
                  "--recording names the same file as the scene");
    expectRefused("diagnose " + sc + " --agent 0 --fix-out " + sc,
                  "orca diagnose: error: --fix-out names the same file as the scene");

    ASSERT_EQ(orca("run " + sc + " --steps 3 --recording " + (m_dir / "r.orcarec").string()).code,
              0);
    const std::string rec = (m_dir / "r.orcarec").string();
    expectRefused("recording " + rec + " --csv " + rec,
                  "orca recording: error: --csv names the same file as the recording");

    const fs::path xml = m_dir / "case.xml";
    fs::copy_file(std::string(ORCA_SOURCE_DIR) + "/tests/scene/import/steersuite_basic.xml", xml);
    expectRefused("import " + xml.string() + " -o " + xml.string(),
                  "orca import: error: -o names the same file as an input file");
}

TEST_F(OutputConflictsCli, AnEmptyOutputNameIsRefused) {
    const std::string sc = scene("head_on.json");
    for (const char* option : {"--trajectory", "--save-state", "--recording"})
        expectRefused("run " + sc + " --steps 2 " + option + " ''",
                      std::string(option) + ": an empty file name: name the file to write");
    expectRefused("generate circle --agents 3 -o ''", "an empty file name");
    expectRefused("diagnose " + sc + " --agent 0 --fix-out ''", "an empty file name");
    expectRefused("import x.xml -o ''", "an empty file name");
    expectRefused("recording x.orcarec --csv ''", "an empty file name");
}

// `kill -9` of a run writing its trajectory leaves ".out.csv.tmp-PID-XXXXXX"; the next write
// to out.csv removes it, but not the temporary of a process that is still alive.
TEST_F(OutputConflictsCli, AKilledRunsTemporaryIsRemovedByTheNextWrite) {
    const fs::path csv = m_dir / "out.csv";
    const std::string prefix = ".out.csv.tmp-";
    auto temporaries = [&] {
        std::vector<std::string> names;
        for (const auto& e : fs::directory_iterator(m_dir)) {
            const std::string name = e.path().filename().string();
            if (name.rfind(prefix, 0) == 0) names.push_back(name);
        }
        return names;
    };
    // A long run, killed while it writes.
    const pid_t pid = ::fork();
    ASSERT_GE(pid, 0);
    if (pid == 0) {
        if (::freopen("/dev/null", "w", stdout) == nullptr) ::_exit(126);
        const std::string bin = orcaCommand();
        const std::string sc = scene("head_on.json");
        ::execl(bin.c_str(), bin.c_str(), "run", sc.c_str(), "--steps", "100000000", "--no-metrics",
                "--trajectory", csv.c_str(), static_cast<char*>(nullptr));
        ::_exit(127);
    }
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (temporaries().empty() && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    ::kill(pid, SIGKILL);
    int status = 0;
    ::waitpid(pid, &status, 0); // reaped: the process is gone
    ASSERT_EQ(temporaries().size(), 1u);
    const std::string killed = temporaries().front();
    EXPECT_EQ(killed.rfind(prefix + std::to_string(pid) + "-", 0), 0u) << killed;
    EXPECT_FALSE(fs::exists(csv)); // the file itself never appeared

    // A fake stale one of another dead process, and one of a live process (this test's).
    const std::string dead = prefix + std::to_string(orca::test::deadProcessId()) + "-Zz9Yy8";
    const std::string live = prefix + std::to_string(::getpid()) + "-abcdef";
    write(dead, "partial");
    write(live, "being written");
    write(".out.csv.tmp-notes", "a user's file");

    const Result r =
        orca("run " + scene("head_on.json") + " --steps 2 --trajectory " + csv.string());
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_TRUE(fs::exists(csv));
    EXPECT_FALSE(fs::exists(m_dir / killed));
    EXPECT_FALSE(fs::exists(m_dir / dead));
    EXPECT_TRUE(fs::exists(m_dir / live));
    EXPECT_TRUE(fs::exists(m_dir / ".out.csv.tmp-notes"));
}

} // namespace
