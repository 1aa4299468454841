// Hostile files given to `orca`: devices, folders, FIFOs and files over --max-file-size are
// refused at once, with the file and the reason named and the exit code of any bad input (1).
// Every run has a time limit (timeout -s KILL), so that a hang fails the test instead of
// blocking the suite.
#include <sys/stat.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "cli/cli_fixture.hpp"

namespace {

namespace fs = std::filesystem;
using orca::testing::Result;
using Clock = std::chrono::steady_clock;

/// Seconds a refusal may take. Refusing needs no reading at all; the margin is for loaded
/// machines and sanitizer builds.
constexpr int kFastSeconds = 5;
/// The hard limit on one run: killed after this (exit code -1 or 137).
constexpr int kKillSeconds = 30;

class HostileInput : public orca::testing::CliFixture {
  protected:
    /// `orca ARGS` under `timeout`, with how long it took.
    Result run(const std::string& args, double* seconds = nullptr) {
        const auto start = Clock::now();
        Result r = capture("timeout -s KILL " + std::to_string(kKillSeconds) + " " + orcaCommand() +
                           " " + args);
        if (seconds != nullptr)
            *seconds = std::chrono::duration<double>(Clock::now() - start).count();
        return r;
    }
    /// Expects `orca ARGS` to fail fast with exit code 1 and exactly `error` on stderr.
    void expectRefused(const std::string& args, const std::string& error) {
        SCOPED_TRACE("orca " + args);
        double seconds = 0.0;
        const Result r = run(args, &seconds);
        EXPECT_EQ(r.code, 1) << r.err;
        EXPECT_EQ(r.err, error + "\n");
        EXPECT_EQ(r.out, "");
        EXPECT_LT(seconds, kFastSeconds);
    }
    /// Every command that reads a scene, with the arguments it needs besides the file.
    static std::vector<std::string> commandsOn(const std::string& file) {
        return {"run " + file,
                "explain " + file + " --agent 0",
                "validate " + file,
                "validate --lint " + file,
                "events " + file,
                "diagnose " + file + " --agent 0",
                "compare " + file + " --set radius=1"};
    }
};

TEST_F(HostileInput, DevZeroIsRefusedAtOnce) {
    // Used to read /dev/zero until memory ran out (4 GB and counting).
    expectRefused("run /dev/zero", "/dev/zero: error: not a regular file (character device)");
    for (const std::string& args : commandsOn("/dev/zero"))
        expectRefused(args, "/dev/zero: error: not a regular file (character device)");
}

TEST_F(HostileInput, SameExitCodeAsOtherLoadErrors) {
    const Result missing = run("run " + (m_dir / "nope.json").string());
    const Result device = run("run /dev/zero");
    EXPECT_EQ(missing.code, 1);
    EXPECT_EQ(device.code, missing.code);
    // Same "FILE: error: MESSAGE" layout.
    EXPECT_EQ(missing.err.rfind((m_dir / "nope.json").string() + ": error: ", 0), 0u);
}

TEST_F(HostileInput, DirectoryIsRefused) {
    const std::string dir = m_dir.string();
    for (const std::string& args : commandsOn(dir))
        expectRefused(args, dir + ": error: not a regular file (directory)");
}

TEST_F(HostileInput, FifoIsRefusedWithoutBlockingOnOpen) {
    // Opening a FIFO for reading blocks until a writer comes: none ever will here.
    const fs::path fifo = m_dir / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    for (const std::string& args : commandsOn(fifo.string()))
        expectRefused(args, fifo.string() + ": error: not a regular file (FIFO)");
}

TEST_F(HostileInput, SymlinkToARegularFileIsFine) {
    const fs::path link = m_dir / "link.json";
    fs::create_symlink(scene("head_on.json"), link);
    const Result r = run("run " + link.string() + " --steps 1");
    EXPECT_EQ(r.code, 0) << r.err;
    const fs::path zero = m_dir / "zero.json";
    fs::create_symlink("/dev/zero", zero);
    expectRefused("run " + zero.string(),
                  zero.string() + ": error: not a regular file (character device)");
}

TEST_F(HostileInput, FileOverMaxFileSizeIsRefused) {
    // A valid scene padded to exactly 3000 bytes.
    std::string text = orca::testing::readFile(scene("head_on.json"));
    ASSERT_LT(text.size(), 3000u);
    text.append(3000 - text.size(), ' ');
    const std::string file = write("big.json", text).string();
    const std::string error =
        file + ": error: 2.9 KiB is larger than the 2 KiB limit (--max-file-size)";
    for (const std::string& args : commandsOn(file))
        expectRefused(args + " --max-file-size 2K", error);
    // Before the command, and in plain bytes.
    expectRefused("--max-file-size 2048 run " + file, error);
    expectRefused("run " + file + " --max-file-size 2999",
                  file + ": error: 3000 bytes is larger than the 2999 bytes limit "
                         "(--max-file-size)");
    // At the limit, and with a larger one, it loads.
    EXPECT_EQ(run("run " + file + " --steps 1 --max-file-size 3000").code, 0);
    EXPECT_EQ(run("run " + file + " --steps 1 --max-file-size 1M").code, 0);
    EXPECT_EQ(run("validate " + file + " --max-file-size 3K").code, 0);
}

TEST_F(HostileInput, LessonsAndTheirScenesHonourMaxFileSize) {
    const std::string lessonFile =
        (fs::path(ORCA_SOURCE_DIR) / "lessons" / "01_vo_one_neighbor.json").string();
    const std::uintmax_t size = fs::file_size(lessonFile);
    ASSERT_EQ(run("validate " + lessonFile).code, 0);
    const Result r = run("validate " + lessonFile + " --max-file-size " + std::to_string(size - 1));
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, lessonFile + ": error: " + std::to_string(size) +
                         " bytes is larger than the " + std::to_string(size - 1) +
                         " bytes limit (--max-file-size)\n");
}

TEST_F(HostileInput, MaxFileSizeUsageErrors) {
    const std::string file = scene("head_on.json");
    EXPECT_EQ(run("run " + file + " --max-file-size 0").code, 2);
    EXPECT_EQ(run("run " + file + " --max-file-size 12X").code, 2);
    EXPECT_EQ(run("run " + file + " --max-file-size -5").code, 2);
    EXPECT_EQ(run("run " + file + " --max-file-size").code, 2);
    for (const char* cmd : {"run", "explain", "validate", "events", "diagnose", "compare"}) {
        const Result help = run(std::string(cmd) + " --help");
        EXPECT_EQ(help.code, 0);
        EXPECT_NE(help.out.find("--max-file-size BYTES"), std::string::npos) << cmd;
    }
}

} // namespace
