#pragma once
/// \file recording.hpp
/// Recordings: what a program drove, step by step (docs/recording-format.md). A recording holds
/// the scene at its start (and again whenever the program changed the configuration: agents,
/// obstacles, parameters) and, per recorded step, each agent's position, velocity and the
/// preferred velocity the step was given — enough to replay the states and to recompute ORCA's
/// decision of every step from the recorded state before it.
///
/// Written as it runs (RecordingWriter appends to a temporary file, put in place by finish(),
/// atomic like every output), read whole (loadRecording; a file cut short — a program killed
/// while recording — reads up to its last whole record, flagged `truncated`).
#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "orca/scene/atomic_write.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

/// How a frame stores its numbers: 32-bit floats (programs that hold their state in float, as
/// RVO2 does: exact for them, half the size) or 64-bit doubles (our own simulator: exact).
enum class RecordingEncoding : std::uint8_t { Float32 = 1, Float64 = 2 };

/// One recorded state: the state after step `step` and the preferred velocities that step was
/// given (for step 0, the initial state, the ones set before the first step).
struct RecordingFrame {
    std::uint64_t step = 0;
    double time = 0.0;
    std::vector<Vec2> position;
    std::vector<Vec2> velocity;
    std::vector<Vec2> prefVelocity;
    /// Index in Recording::scenes of the configuration the frame's agents have.
    std::size_t scene = 0;
};

struct Recording {
    /// The configurations, in file order (the first one before the first frame).
    std::vector<Scene> scenes;
    std::vector<RecordingFrame> frames;
    RecordingEncoding encoding = RecordingEncoding::Float64;
    /// The file ended inside a record (the rest was read).
    bool truncated = false;
    /// Bytes of the file read as whole records (with the header): the file's size, or, when
    /// truncated, the byte where the incomplete record starts.
    std::uint64_t wholeBytes = 0;
};

/// The largest recording loadRecording reads (bytes).
inline constexpr std::uint64_t kMaxRecordingSize = std::uint64_t(4) << 30;

/// Writes a recording. Throws SceneError (naming the file and the system's reason) when the
/// file cannot be opened or written; nothing replaces `path` until finish() succeeds.
class RecordingWriter {
  public:
    RecordingWriter(const std::filesystem::path& path, RecordingEncoding encoding);
    RecordingWriter(const RecordingWriter&) = delete;
    RecordingWriter& operator=(const RecordingWriter&) = delete;
    /// Not finished: the temporary file is removed (the target stays as it was).
    ~RecordingWriter() = default;

    /// A configuration (serializeScene's JSON): the first record, and again before the frame
    /// after any change of agents, obstacles or parameters. The frames that follow have its
    /// agents, in its order. A scene the scene format cannot hold (a coordinate beyond ±1e7,
    /// a parameter outside the file ranges) throws SceneError naming its JSON path and writes
    /// nothing, since the reader would refuse the record.
    void writeScene(const Scene& scene);
    /// One frame; the three spans have the last scene's agent count (std::invalid_argument
    /// otherwise, and before any scene).
    void writeFrame(std::uint64_t step, double time, std::span<const Vec2> position,
                    std::span<const Vec2> velocity, std::span<const Vec2> prefVelocity);
    /// Puts the file in place (SceneError when that fails). Writing afterwards throws.
    void finish();

    [[nodiscard]] std::uint64_t framesWritten() const { return m_frames; }
    [[nodiscard]] std::uint64_t bytesWritten() const { return m_bytes; }
    [[nodiscard]] RecordingEncoding encoding() const { return m_encoding; }

  private:
    void put(std::string_view bytes);

    AtomicFile m_file;
    std::filesystem::path m_path;
    RecordingEncoding m_encoding;
    std::size_t m_agents = 0;
    bool m_haveScene = false;
    bool m_finished = false;
    std::uint64_t m_frames = 0;
    std::uint64_t m_bytes = 0;
    std::string m_buffer;
};

/// Reads a recording. Throws SceneError naming the file, the byte offset and what was
/// expected (a scene record's JSON errors name their JSON path, as loadScene's do).
[[nodiscard]] Recording loadRecording(const std::filesystem::path& path);
/// True when the file starts with a recording's signature (for Open and drag and drop); false
/// for anything readFilePrefix refuses (a folder, a FIFO, a device), without blocking.
[[nodiscard]] bool looksLikeRecording(const std::filesystem::path& path);

} // namespace orca::scene
