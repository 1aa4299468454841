#pragma once
// The `orca` binary as a real process, for the CLI suites: a fresh temporary folder per test,
// `orca(ARGS)` with stdout, stderr and the exit code captured, bundled scene paths.
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "common/files.hpp"

namespace orca::testing {

namespace fs = std::filesystem;

struct Result {
    int code = -1;
    std::string out;
    std::string err;
};

using orca::test::readFile;

class CliFixture : public ::testing::Test {
  protected:
    void SetUp() override {
        const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
        // The process id too: two builds' suites may run the same test at once.
        m_dir = fs::temp_directory_path() / ("orca_" + std::string(info->test_suite_name()) + "_" +
                                             info->name() + "_" + std::to_string(::getpid()));
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    /// Runs `orca ARGS` with stdout and stderr captured.
    Result orca(const std::string& args) { return capture(orcaCommand() + " " + args); }
    /// The path of the `orca` binary under test.
    static std::string orcaCommand() { return std::string(ORCA_BIN_DIR) + "/orca"; }
    /// Runs a shell command with stdout, stderr (through a file in the test's folder) and the
    /// exit code captured.
    Result capture(const std::string& command) {
        const fs::path errFile = m_dir / "stderr.txt";
        const std::string cmd = command + " 2>" + errFile.string();
        Result r;
        FILE* pipe = popen(cmd.c_str(), "r");
        if (!pipe) return r;
        std::array<char, 4096> buf{};
        std::size_t n;
        while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0)
            r.out.append(buf.data(), n);
        const int status = pclose(pipe);
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
        r.err = readFile(errFile);
        return r;
    }
    static std::string scene(const std::string& name) {
        return std::string(ORCA_SOURCE_DIR) + "/scenes/" + name;
    }
    fs::path write(const std::string& name, const std::string& text) {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    fs::path m_dir;
};

} // namespace orca::testing
