// Recordings (orca/scene/recording.hpp): written as a run goes, read back exactly; a file cut
// short reads up to its last whole record; a broken one names the file, the byte and what was
// expected.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;

fs::path tempPath(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / "orca_recording_test";
    fs::create_directories(dir);
    return dir / name;
}

Scene crossing(int n) {
    Scene scene;
    scene.name = "crossing";
    for (int k = 0; k < n; ++k) {
        SceneAgent a;
        a.position = {4.0 * k, k % 2 == 0 ? 0.0 : 3.0};
        a.goal = Vec2(4.0 * (n - 1 - k), k % 2 == 0 ? 3.0 : 0.0);
        scene.agents.push_back(a);
    }
    return scene;
}

/// Runs `scene` for `steps` steps recording every state: each frame has the preferred
/// velocities its step was given.
std::vector<RecordingFrame> record(const Scene& scene, int steps, RecordingWriter& out) {
    Simulator sim = buildSimulator(scene);
    std::vector<RecordingFrame> frames;
    out.writeScene(scene);
    auto prefs = [&] {
        std::vector<Vec2> v(sim.agentCount());
        for (std::size_t i = 0; i < v.size(); ++i)
            v[i] = sim.prefVelocityAt(i);
        return v;
    };
    auto frame = [&](const std::vector<Vec2>& pref) {
        RecordingFrame f;
        f.step = sim.stepCount();
        f.time = sim.time();
        f.position.assign(sim.positions().begin(), sim.positions().end());
        f.velocity.assign(sim.velocities().begin(), sim.velocities().end());
        f.prefVelocity = pref;
        out.writeFrame(f.step, f.time, f.position, f.velocity, f.prefVelocity);
        frames.push_back(std::move(f));
    };
    frame(prefs());
    for (int s = 0; s < steps; ++s) {
        const std::vector<Vec2> pref = prefs();
        sim.step();
        frame(pref);
    }
    return frames;
}

TEST(Recording, DoublesComeBackBitForBit) {
    const fs::path path = tempPath("doubles.orcarec");
    fs::remove(path);
    RecordingWriter out(path, RecordingEncoding::Float64);
    const std::vector<RecordingFrame> written = record(crossing(6), 40, out);
    EXPECT_FALSE(fs::exists(path)) << "nothing in place before finish()";
    out.finish();
    EXPECT_EQ(out.framesWritten(), 41u);
    EXPECT_EQ(fs::file_size(path), out.bytesWritten());
    EXPECT_TRUE(looksLikeRecording(path));

    const Recording back = loadRecording(path);
    EXPECT_FALSE(back.truncated);
    EXPECT_EQ(back.wholeBytes, out.bytesWritten());
    EXPECT_EQ(back.encoding, RecordingEncoding::Float64);
    ASSERT_EQ(back.scenes.size(), 1u);
    EXPECT_EQ(back.scenes[0].agents.size(), 6u);
    ASSERT_EQ(back.frames.size(), written.size());
    for (std::size_t k = 0; k < written.size(); ++k) {
        EXPECT_EQ(back.frames[k].step, written[k].step);
        EXPECT_EQ(back.frames[k].time, written[k].time);
        EXPECT_EQ(back.frames[k].position, written[k].position) << "frame " << k;
        EXPECT_EQ(back.frames[k].velocity, written[k].velocity) << "frame " << k;
        EXPECT_EQ(back.frames[k].prefVelocity, written[k].prefVelocity) << "frame " << k;
    }
    // 16 bytes of signature, the scene record, 41 frames of 5 + 20 + 6 agents x 48 bytes.
    const std::size_t sceneBytes = 5 + serializeScene(crossing(6)).size();
    EXPECT_EQ(out.bytesWritten(), 16 + sceneBytes + 41 * (5 + 20 + 6 * 48));
}

TEST(Recording, FloatsAreRoundedAndHalfTheSize) {
    const fs::path path = tempPath("floats.orcarec");
    RecordingWriter out(path, RecordingEncoding::Float32);
    const std::vector<RecordingFrame> written = record(crossing(4), 10, out);
    out.finish();
    const Recording back = loadRecording(path);
    EXPECT_EQ(back.encoding, RecordingEncoding::Float32);
    ASSERT_EQ(back.frames.size(), written.size());
    const RecordingFrame& f = back.frames.back();
    for (std::size_t i = 0; i < 4; ++i) {
        EXPECT_EQ(f.position[i].x,
                  static_cast<double>(static_cast<float>(written.back().position[i].x)));
        EXPECT_EQ(f.velocity[i].y,
                  static_cast<double>(static_cast<float>(written.back().velocity[i].y)));
    }
    EXPECT_EQ(out.bytesWritten(),
              16 + 5 + serializeScene(crossing(4)).size() + 11 * (5 + 20 + 4 * 24));
}

TEST(Recording, ANewConfigurationStartsANewSceneRecord) {
    const fs::path path = tempPath("grows.orcarec");
    RecordingWriter out(path, RecordingEncoding::Float64);
    Scene scene = crossing(2);
    out.writeScene(scene);
    const std::vector<Vec2> two(2, Vec2(1.0, 0.0));
    out.writeFrame(0, 0.0, two, two, two);
    scene.agents.push_back(scene.agents[0]);
    out.writeScene(scene);
    const std::vector<Vec2> three(3, Vec2(0.5, 0.25));
    out.writeFrame(1, 0.25, three, three, three);
    // A frame must have the last scene's agents.
    EXPECT_THROW(out.writeFrame(2, 0.5, two, two, two), std::invalid_argument);
    out.finish();
    EXPECT_THROW(out.writeFrame(2, 0.5, three, three, three), std::logic_error);
    const Recording back = loadRecording(path);
    ASSERT_EQ(back.scenes.size(), 2u);
    ASSERT_EQ(back.frames.size(), 2u);
    EXPECT_EQ(back.frames[0].scene, 0u);
    EXPECT_EQ(back.frames[1].scene, 1u);
    EXPECT_EQ(back.frames[1].position[2], Vec2(0.5, 0.25));
}

TEST(Recording, ASceneAFileCannotHoldIsRefusedBeforeItIsWritten) {
    // An agent at 2e7 (the simulator takes it, a scene file does not): the writer refuses the
    // record naming the agent, and what was written before stays readable.
    const fs::path path = tempPath("far.orcarec");
    RecordingWriter out(path, RecordingEncoding::Float64);
    Scene scene = crossing(2);
    out.writeScene(scene);
    const std::vector<Vec2> two(2, Vec2(1.0, 0.0));
    out.writeFrame(0, 0.0, two, two, two);
    scene.agents[1].position = {2e7, 0.0};
    try {
        out.writeScene(scene);
        FAIL() << "a scene record the reader refuses was written";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "agents[1].position[0]");
        EXPECT_NE(std::string(e.what()).find("scene record was not written"), std::string::npos)
            << e.what();
    }
    out.finish();
    const Recording back = loadRecording(path);
    EXPECT_EQ(back.scenes.size(), 1u);
    EXPECT_EQ(back.frames.size(), 1u);
}

TEST(Recording, AFileCutShortReadsUpToItsLastWholeRecord) {
    const fs::path path = tempPath("cut.orcarec");
    {
        RecordingWriter out(path, RecordingEncoding::Float64);
        (void)record(crossing(3), 5, out);
        out.finish();
    }
    const std::uintmax_t size = fs::file_size(path);
    fs::resize_file(path, size - 7);
    const Recording back = loadRecording(path);
    EXPECT_TRUE(back.truncated);
    EXPECT_EQ(back.frames.size(), 5u); // (of 6)
    EXPECT_EQ(back.frames.back().step, 4u);
    // Where the incomplete record starts: a frame of 3 agents is 5 + 20 + 6 x 8 x 3 bytes.
    EXPECT_EQ(back.wholeBytes, size - (5 + 20 + 6 * 8 * 3));
}

/// The message of loadRecording's SceneError for a file holding `bytes`.
std::string errorFor(const std::string& bytes) {
    const fs::path path = tempPath("broken.orcarec");
    std::ofstream(path, std::ios::binary) << bytes;
    try {
        (void)loadRecording(path);
    } catch (const SceneError& e) {
        EXPECT_EQ(e.file(), path.string());
        return e.what();
    }
    return "(no error)";
}

std::string validStart() {
    const fs::path path = tempPath("start.orcarec");
    RecordingWriter out(path, RecordingEncoding::Float64);
    out.writeScene(crossing(1));
    out.finish();
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

TEST(Recording, BrokenFilesNameTheByteAndWhatWasExpected) {
    EXPECT_NE(errorFor("{\"agents\": []}").find("not an ORCA Sandbox recording"),
              std::string::npos);
    std::string v2 = validStart();
    v2[8] = 2;
    EXPECT_NE(errorFor(v2).find("at byte 8: recording format version 2"), std::string::npos);
    std::string badTag = validStart();
    badTag += std::string("X\0\0\0\0", 5);
    EXPECT_NE(errorFor(badTag).find("unknown kind"), std::string::npos);
    std::string noScene = validStart().substr(0, 16);
    EXPECT_NE(errorFor(noScene).find("no scene record"), std::string::npos);

    // A frame whose size does not match its agents, and one with a NaN.
    const fs::path path = tempPath("nan.orcarec");
    {
        RecordingWriter out(path, RecordingEncoding::Float64);
        out.writeScene(crossing(1));
        const std::vector<Vec2> one{{1.0, 2.0}};
        const std::vector<Vec2> nan{{std::nan(""), 0.0}};
        out.writeFrame(0, 0.0, one, nan, one);
        out.finish();
    }
    std::ifstream in(path, std::ios::binary);
    const std::string withNan{std::istreambuf_iterator<char>(in), {}};
    EXPECT_NE(errorFor(withNan).find("agent 0's velocity in the frame of step 0 is not finite"),
              std::string::npos);
    std::string shortFrame = withNan;
    shortFrame[withNan.size() - 48 - 20 - 4] = 30; // the frame's length: 30 bytes
    EXPECT_NE(errorFor(shortFrame).find("a frame of 1 agents holds"), std::string::npos);

    // A scene record with a bad value: its JSON path.
    std::string badScene = validStart().substr(0, 16);
    const std::string json = "{\"format\": \"orca-scene\", \"version\": 1, \"agents\": "
                             "[{\"position\": [0, 0], \"radius\": -1}]}";
    badScene += 'S';
    for (int b = 0; b < 4; ++b)
        badScene.push_back(static_cast<char>((json.size() >> (8 * b)) & 0xff));
    badScene += json;
    const std::string message = errorFor(badScene);
    EXPECT_NE(message.find("scene record at byte 16"), std::string::npos) << message;
    EXPECT_NE(message.find("radius"), std::string::npos) << message;
}

TEST(Recording, AWriterThatCannotWriteSaysWhereAndLeavesNothing) {
    EXPECT_THROW(RecordingWriter(tempPath("no/such/dir/x.orcarec"), RecordingEncoding::Float64),
                 SceneError);
    const fs::path path = tempPath("abandoned.orcarec");
    fs::remove(path);
    {
        RecordingWriter out(path, RecordingEncoding::Float64);
        out.writeScene(crossing(2));
        EXPECT_THROW(out.writeFrame(0, 0.0, {}, {}, {}), std::invalid_argument);
    } // not finished
    EXPECT_FALSE(fs::exists(path));
}

} // namespace
} // namespace orca::scene
