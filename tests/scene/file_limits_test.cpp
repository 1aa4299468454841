// Hostile files: readTextFile / readFilePrefix / loadScene / loadLesson refuse anything that is
// not a regular file, and files over the size limit, at once and with the file and the reason
// named.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>

#include "orca/scene/lesson.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kScene =
    R"({"format": "orca-scene", "version": 1, "agents": [{"position": [1, 2]}]})";

/// A fresh folder per test, removed afterwards.
class FileLimits : public ::testing::Test {
  protected:
    void SetUp() override {
        const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
        m_dir = fs::temp_directory_path() /
                ("orca_file_limits_" + std::to_string(::getpid()) + "_" + info->name());
        fs::remove_all(m_dir);
        fs::create_directories(m_dir);
    }
    void TearDown() override { fs::remove_all(m_dir); }

    fs::path write(const std::string& name, const std::string& text) const {
        const fs::path p = m_dir / name;
        std::ofstream(p, std::ios::binary) << text;
        return p;
    }
    /// A sparse file of `size` bytes (nothing is written, so 1.5 GiB costs nothing).
    fs::path sparse(const std::string& name, std::uint64_t size) const {
        const fs::path p = m_dir / name;
        std::ofstream(p).close();
        fs::resize_file(p, size);
        return p;
    }
    /// The message readTextFile throws for `path` ("" when it does not throw).
    static std::string refusal(const fs::path& path, std::uint64_t limit = kDefaultMaxFileSize,
                               const std::string& setting = {}) {
        try {
            (void)readTextFile(path, limit, setting);
        } catch (const SceneError& e) {
            EXPECT_EQ(e.file(), path.string());
            EXPECT_EQ(e.jsonPath(), "");
            EXPECT_EQ(std::string(e.what()), path.string() + ": error: " + e.message());
            return e.message();
        }
        return "";
    }

    fs::path m_dir;
};

// ---- Sizes as people read them -------------------------------------------------------------

TEST(FormatByteSize, BinaryUnitsWithAtMostOneDecimal) {
    EXPECT_EQ(formatByteSize(0), "0 bytes");
    EXPECT_EQ(formatByteSize(1), "1 byte");
    EXPECT_EQ(formatByteSize(1023), "1023 bytes");
    EXPECT_EQ(formatByteSize(1024), "1 KiB");
    EXPECT_EQ(formatByteSize(1536), "1.5 KiB");
    EXPECT_EQ(formatByteSize(64u << 20), "64 MiB");
    EXPECT_EQ(formatByteSize(std::uint64_t{1} << 30), "1 GiB");
    EXPECT_EQ(formatByteSize(std::uint64_t{3} << 29), "1.5 GiB");     // 1610612736
    EXPECT_EQ(formatByteSize((std::uint64_t{1} << 30) + 1), "1 GiB"); // rounded
    EXPECT_EQ(formatByteSize(std::uint64_t{5} << 40), "5 TiB");
    EXPECT_EQ(formatByteSize(UINT64_MAX), "16 EiB");
}

// ---- Not a regular file ----------------------------------------------------------------------

TEST_F(FileLimits, DevZeroIsRefusedWithoutReading) {
    const auto start = Clock::now();
    EXPECT_EQ(refusal("/dev/zero"), "not a regular file (character device)");
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
    // Whatever the limit: the kind of file is checked first.
    EXPECT_EQ(refusal("/dev/zero", UINT64_MAX), "not a regular file (character device)");
}

TEST_F(FileLimits, DirectoryIsRefused) {
    EXPECT_EQ(refusal(m_dir), "not a regular file (directory)");
}

TEST_F(FileLimits, FifoIsRefusedWithoutBlockingOnOpen) {
    const fs::path fifo = m_dir / "pipe.json";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    // Watchdog: should readTextFile block in open() waiting for a writer, a writer comes after
    // 10 s and unblocks it, so that the test fails (too slow) instead of hanging.
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
    const std::string message = refusal(fifo);
    const auto elapsed = Clock::now() - start;
    done = true;
    watchdog.join();
    EXPECT_EQ(message, "not a regular file (FIFO)");
    EXPECT_LT(elapsed, std::chrono::seconds(2));
}

// The readers that tell formats apart by their first bytes (recordings, the importers' XML)
// go through the same reader (issue 25): a FIFO is refused at once, a file is read in part.
TEST_F(FileLimits, PrefixReaderRefusesAFifoWithoutBlocking) {
    const fs::path fifo = m_dir / "pipe.orcarec";
    ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
    std::atomic<bool> done{false};
    std::thread watchdog([&] { // unblocks a reader stuck in open() after 10 s (see above)
        for (int i = 0; i < 1000 && !done; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        if (!done) {
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) ::close(fd);
        }
    });
    const auto start = Clock::now();
    std::string message;
    try {
        (void)readFilePrefix(fifo, 8);
    } catch (const SceneError& e) {
        message = e.message();
    }
    const bool recording = looksLikeRecording(fifo);
    const auto elapsed = Clock::now() - start;
    done = true;
    watchdog.join();
    EXPECT_EQ(message, "not a regular file (FIFO)");
    EXPECT_FALSE(recording);
    EXPECT_LT(elapsed, std::chrono::seconds(2));

    EXPECT_EQ(readFilePrefix(write("a.txt", "0123456789"), 4), "0123");
    EXPECT_EQ(readFilePrefix(write("b.txt", "01"), 4), "01");
    EXPECT_TRUE(looksLikeRecording(write("r.orcarec", "ORCAREC\nmore")));
    EXPECT_FALSE(looksLikeRecording(m_dir));
}

TEST_F(FileLimits, SocketIsRefused) {
    const fs::path path = m_dir / "s.sock";
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
    ASSERT_GE(fd, 0);
    sockaddr_un addr{};
    addr.sun_family = AF_UNIX;
    ASSERT_LT(path.string().size(), sizeof(addr.sun_path));
    std::strncpy(addr.sun_path, path.c_str(), sizeof(addr.sun_path) - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof(addr)), 0)
        << std::strerror(errno);
    EXPECT_EQ(refusal(path), "not a regular file (socket)");
    ::close(fd);
}

TEST_F(FileLimits, SymlinksAreFollowed) {
    const fs::path target = write("real.json", kScene);
    fs::create_symlink(target, m_dir / "link.json");
    EXPECT_EQ(readTextFile(m_dir / "link.json"), kScene);
    EXPECT_EQ(loadScene(m_dir / "link.json").scene.agents.size(), 1u);
    // ... to whatever they point at.
    fs::create_symlink("/dev/zero", m_dir / "zero.json");
    EXPECT_EQ(refusal(m_dir / "zero.json"), "not a regular file (character device)");
    fs::create_directory_symlink(m_dir, m_dir / "dir.json");
    EXPECT_EQ(refusal(m_dir / "dir.json"), "not a regular file (directory)");
}

TEST_F(FileLimits, MissingFileKeepsItsMessage) {
    EXPECT_EQ(refusal(m_dir / "nope.json"), "cannot open the file: No such file or directory");
}

// ---- Size limit ------------------------------------------------------------------------------

TEST_F(FileLimits, FileAtTheLimitIsRead) {
    const std::string text(1000, 'x');
    const fs::path p = write("a.json", text);
    EXPECT_EQ(readTextFile(p, 1000), text);
    EXPECT_EQ(refusal(p, 999), "1000 bytes is larger than the 999 bytes limit");
    EXPECT_EQ(refusal(p, 999, "--max-file-size"),
              "1000 bytes is larger than the 999 bytes limit (--max-file-size)");
    EXPECT_EQ(readTextFile(write("empty.json", ""), 0), "");
}

TEST_F(FileLimits, LargeFilesAreRefusedBeforeReading) {
    // Sparse: the refusal comes from the file's size, so nothing is read (the test would take
    // seconds and 1.5 GiB of memory otherwise).
    const fs::path big = sparse("big.json", std::uint64_t{3} << 29);
    const auto start = Clock::now();
    EXPECT_EQ(refusal(big, kDefaultMaxFileSize, "--max-file-size"),
              "1.5 GiB is larger than the 1 GiB limit (--max-file-size)");
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
    // One byte over: the rounded sizes would read the same, so the bytes are given.
    const fs::path justOver = sparse("over.json", kDefaultMaxFileSize + 1);
    EXPECT_EQ(refusal(justOver), "1073741825 bytes is larger than the 1073741824 bytes limit");
}

TEST_F(FileLimits, ReadIsCappedWhenTheSizeLies) {
    // /proc files report size 0 but have content: the size check passes, the read cap catches
    // the file "growing" past the limit (as a file appended to between stat and read would).
    const fs::path proc = "/proc/self/status";
    if (!fs::exists(proc)) GTEST_SKIP() << "no /proc";
    EXPECT_EQ(refusal(proc, 16, "--max-file-size"),
              "the file grew past the 16 bytes limit while being read (--max-file-size)");
    EXPECT_GT(readTextFile(proc).size(), 16u);
}

TEST_F(FileLimits, LoadSceneUsesTheLimitOfItsOptions) {
    const fs::path p = write("s.json", kScene);
    const std::uint64_t size = fs::file_size(p);
    LoadOptions options;
    EXPECT_EQ(options.maxFileSize, std::uint64_t{1} << 30);
    EXPECT_EQ(loadScene(p, options).scene.agents.size(), 1u);
    options.maxFileSize = size - 1;
    options.maxFileSizeSetting = "--max-file-size";
    try {
        (void)loadScene(p, options);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()),
                  p.string() + ": error: " + std::to_string(size) + " bytes is larger than the " +
                      std::to_string(size - 1) + " bytes limit (--max-file-size)");
    }
    options.maxFileSize = size;
    EXPECT_EQ(loadScene(p, options).scene.agents.size(), 1u);
}

// ---- Lessons ---------------------------------------------------------------------------------

TEST_F(FileLimits, LessonsAndTheirScenesHaveTheLimitToo) {
    // The linked scene is larger than the lesson (padded), so that a limit can fit one only.
    write("s.json", std::string(kScene) + std::string(1000, ' '));
    const fs::path lessonFile = write("l.json", R"({"format": "orca-lesson", "version": 1,
        "title": "T", "scene": "s.json", "pages": [{"title": "P", "text": "t"}]})");
    const std::uint64_t lessonSize = fs::file_size(lessonFile);
    ASSERT_LT(lessonSize, fs::file_size(m_dir / "s.json"));

    LoadOptions options;
    options.maxFileSizeSetting = "--max-file-size";
    EXPECT_EQ(lesson::loadLesson(lessonFile, options).lesson.scene.agents.size(), 1u);

    options.maxFileSize = lessonSize - 1; // the lesson itself is too large
    try {
        (void)lesson::loadLesson(lessonFile, options);
        FAIL();
    } catch (const lesson::LessonError& e) {
        EXPECT_EQ(e.file(), lessonFile.string());
        EXPECT_EQ(e.message(), std::to_string(lessonSize) + " bytes is larger than the " +
                                   std::to_string(lessonSize - 1) +
                                   " bytes limit (--max-file-size)");
    }
    options.maxFileSize = lessonSize; // the lesson fits, its linked scene does not
    try {
        (void)lesson::loadLesson(lessonFile, options);
        FAIL();
    } catch (const lesson::LessonError& e) {
        EXPECT_EQ(e.jsonPath(), "scene");
        EXPECT_NE(e.message().find("is larger than the " + std::to_string(lessonSize) +
                                   " bytes limit (--max-file-size)"),
                  std::string::npos)
            << e.what();
    }

    EXPECT_TRUE(lesson::isLessonFile(lessonFile));
    EXPECT_FALSE(lesson::isLessonFile(lessonFile, 10)); // refused = not a lesson
    const auto start = Clock::now();
    EXPECT_FALSE(lesson::isLessonFile("/dev/zero"));
    EXPECT_LT(Clock::now() - start, std::chrono::seconds(2));
    try {
        (void)lesson::loadLesson("/dev/zero");
        FAIL();
    } catch (const lesson::LessonError& e) {
        EXPECT_EQ(std::string(e.what()), "/dev/zero: error: not a regular file (character device)");
    }
}

} // namespace
} // namespace orca::scene
