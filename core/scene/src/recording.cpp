// Recordings (recording.hpp, docs/recording-format.md): a signature, then records — a tag
// byte, a 32-bit payload length, the payload — all numbers little-endian whatever the machine.
#include "orca/scene/recording.hpp"

#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string_view>

namespace orca::scene {

namespace {

/// "ORCAREC" and a newline, then the version (u32) and the encoding (u8), padded to 16 bytes.
constexpr std::string_view kSignature{"ORCAREC\n", 8};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kHeaderSize = 16;
constexpr char kSceneTag = 'S';
constexpr char kFrameTag = 'F';
/// A frame's fixed part: step (u64), time (f64), agent count (u32).
constexpr std::size_t kFrameHead = 8 + 8 + 4;

void putU32(std::string& out, std::uint32_t v) {
    for (int b = 0; b < 4; ++b)
        out.push_back(static_cast<char>((v >> (8 * b)) & 0xffu));
}

void putU64(std::string& out, std::uint64_t v) {
    for (int b = 0; b < 8; ++b)
        out.push_back(static_cast<char>((v >> (8 * b)) & 0xffu));
}

void putF64(std::string& out, double v) {
    putU64(out, std::bit_cast<std::uint64_t>(v));
}

void putF32(std::string& out, double v) {
    putU32(out, std::bit_cast<std::uint32_t>(static_cast<float>(v)));
}

std::uint64_t getLE(const char* p, int bytes) {
    std::uint64_t v = 0;
    for (int b = 0; b < bytes; ++b)
        v |= static_cast<std::uint64_t>(static_cast<unsigned char>(p[b])) << (8 * b);
    return v;
}

std::size_t valueBytes(RecordingEncoding e) {
    return e == RecordingEncoding::Float32 ? 4 : 8;
}

} // namespace

// ---- Writing --------------------------------------------------------------------------------

RecordingWriter::RecordingWriter(const std::filesystem::path& path, RecordingEncoding encoding)
    : m_path(path), m_encoding(encoding) {
    if (encoding != RecordingEncoding::Float32 && encoding != RecordingEncoding::Float64)
        throw std::invalid_argument("RecordingWriter: unknown encoding");
    std::string error;
    if (!m_file.open(path, error)) throw SceneError(path.string(), "", 0, 0, error);
    std::string header(kSignature);
    putU32(header, kVersion);
    header.push_back(static_cast<char>(encoding));
    header.append(kHeaderSize - header.size(), '\0');
    put(header);
}

void RecordingWriter::put(std::string_view bytes) {
    if (m_finished) throw std::logic_error("RecordingWriter: written after finish()");
    if (!m_file.write(bytes)) throw SceneError(m_path.string(), "", 0, 0, m_file.error());
    m_bytes += bytes.size();
}

void RecordingWriter::writeScene(const Scene& scene) {
    const std::string json = serializeScene(scene);
    // The reader loads each scene record as a scene file: refuse one it would refuse (an agent
    // beyond ±1e7, a parameter outside the file ranges) now, naming what, rather than write a
    // recording that cannot be opened. Nothing is written; the file so far stays readable.
    try {
        (void)parseScene(json, m_path.string() + " (scene record)");
    } catch (const SceneError& e) {
        throw SceneError(m_path.string(), e.jsonPath(), 0, 0,
                         "the scene record was not written because a scene file cannot hold "
                         "it: " +
                             e.message());
    }
    if (json.size() > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("RecordingWriter: a scene of " + formatByteSize(json.size()) +
                                    " does not fit a record (at most 4 GiB)");
    m_buffer.clear();
    m_buffer.push_back(kSceneTag);
    putU32(m_buffer, static_cast<std::uint32_t>(json.size()));
    m_buffer += json;
    put(m_buffer);
    m_agents = scene.agents.size();
    m_haveScene = true;
}

void RecordingWriter::writeFrame(std::uint64_t step, double time, std::span<const Vec2> position,
                                 std::span<const Vec2> velocity,
                                 std::span<const Vec2> prefVelocity) {
    if (!m_haveScene)
        throw std::invalid_argument("RecordingWriter: a frame before the first scene");
    const std::size_t n = position.size();
    if (n != m_agents || velocity.size() != n || prefVelocity.size() != n)
        throw std::invalid_argument("RecordingWriter: a frame of " + std::to_string(n) +
                                    " positions, " + std::to_string(velocity.size()) +
                                    " velocities and " + std::to_string(prefVelocity.size()) +
                                    " preferred velocities for a scene of " +
                                    std::to_string(m_agents) + " agents");
    const std::size_t payload = kFrameHead + 6 * valueBytes(m_encoding) * n;
    if (payload > std::numeric_limits<std::uint32_t>::max())
        throw std::invalid_argument("RecordingWriter: a frame of " + std::to_string(n) +
                                    " agents does not fit a record (at most 4 GiB)");
    m_buffer.clear();
    m_buffer.reserve(5 + payload);
    m_buffer.push_back(kFrameTag);
    putU32(m_buffer, static_cast<std::uint32_t>(payload));
    putU64(m_buffer, step);
    putF64(m_buffer, time);
    putU32(m_buffer, static_cast<std::uint32_t>(n));
    const bool f32 = m_encoding == RecordingEncoding::Float32;
    for (std::size_t i = 0; i < n; ++i)
        for (const Vec2 v : {position[i], velocity[i], prefVelocity[i]}) {
            if (f32) {
                putF32(m_buffer, v.x);
                putF32(m_buffer, v.y);
            } else {
                putF64(m_buffer, v.x);
                putF64(m_buffer, v.y);
            }
        }
    put(m_buffer);
    ++m_frames;
}

void RecordingWriter::finish() {
    if (m_finished) throw std::logic_error("RecordingWriter: finish() called twice");
    std::string error;
    if (!m_file.commit(error)) throw SceneError(m_path.string(), "", 0, 0, error);
    m_finished = true;
}

// ---- Reading --------------------------------------------------------------------------------

bool looksLikeRecording(const std::filesystem::path& path) {
    try {
        return readFilePrefix(path, kSignature.size()) == kSignature; // never blocks on a FIFO
    } catch (const SceneError&) {
        return false;
    }
}

Recording loadRecording(const std::filesystem::path& path) {
    const std::string file = path.string();
    const std::string bytes = readTextFile(path, kMaxRecordingSize, "the recording size limit");
    auto fail = [&](std::uint64_t offset, const std::string& what) {
        throw SceneError(file, "", 0, 0, "at byte " + std::to_string(offset) + ": " + what);
    };
    if (bytes.size() < kHeaderSize || std::string_view(bytes).substr(0, 8) != kSignature)
        fail(0, "not an ORCA Sandbox recording (expected the signature \"ORCAREC\" and a "
                "newline)");
    const auto version = static_cast<std::uint32_t>(getLE(bytes.data() + 8, 4));
    if (version != kVersion)
        fail(8, "recording format version " + std::to_string(version) +
                    " (this build reads version " + std::to_string(kVersion) + ")");
    Recording rec;
    const auto encoding = static_cast<unsigned char>(bytes[12]);
    if (encoding != 1 && encoding != 2)
        fail(12, "encoding " + std::to_string(encoding) + " (expected 1, float32, or 2, float64)");
    rec.encoding = static_cast<RecordingEncoding>(encoding);
    const std::size_t width = valueBytes(rec.encoding);

    std::size_t at = kHeaderSize;
    while (at < bytes.size()) {
        if (bytes.size() - at < 5) {
            rec.truncated = true; // (a record's head cut short)
            break;
        }
        const char tag = bytes[at];
        const auto length = static_cast<std::size_t>(getLE(bytes.data() + at + 1, 4));
        if (tag != kSceneTag && tag != kFrameTag)
            fail(at, std::string("a record of unknown kind (tag byte ") +
                         std::to_string(static_cast<unsigned char>(tag)) +
                         "; expected 'S', a scene, or 'F', a frame)");
        if (bytes.size() - at - 5 < length) {
            rec.truncated = true; // (a program killed while writing its last record)
            break;
        }
        const char* p = bytes.data() + at + 5;
        if (tag == kSceneTag) {
            try {
                rec.scenes.push_back(
                    parseScene(std::string(p, length),
                               file + " (scene record at byte " + std::to_string(at) + ")")
                        .scene);
            } catch (const SceneError& e) {
                throw SceneError(file, e.jsonPath(), e.line(), e.column(),
                                 "in the scene record at byte " + std::to_string(at) + ": " +
                                     e.message());
            }
        } else {
            if (rec.scenes.empty()) fail(at, "a frame before any scene record");
            if (length < kFrameHead) fail(at, "a frame record shorter than its fixed part");
            RecordingFrame f;
            f.step = getLE(p, 8);
            f.time = std::bit_cast<double>(getLE(p + 8, 8));
            const auto n = static_cast<std::size_t>(getLE(p + 16, 4));
            f.scene = rec.scenes.size() - 1;
            const std::size_t agents = rec.scenes.back().agents.size();
            if (n != agents)
                fail(at, "a frame of " + std::to_string(n) + " agents after a scene of " +
                             std::to_string(agents));
            if (length != kFrameHead + 6 * width * n)
                fail(at, "a frame of " + std::to_string(n) + " agents holds " +
                             std::to_string(length) + " bytes (expected " +
                             std::to_string(kFrameHead + 6 * width * n) + ")");
            f.position.resize(n);
            f.velocity.resize(n);
            f.prefVelocity.resize(n);
            const char* v = p + kFrameHead;
            auto number = [&]() {
                double x;
                if (width == 4)
                    x = std::bit_cast<float>(static_cast<std::uint32_t>(getLE(v, 4)));
                else
                    x = std::bit_cast<double>(getLE(v, 8));
                v += width;
                return x;
            };
            for (std::size_t i = 0; i < n; ++i)
                for (Vec2* dst : {&f.position[i], &f.velocity[i], &f.prefVelocity[i]}) {
                    dst->x = number();
                    dst->y = number();
                    if (!std::isfinite(dst->x) || !std::isfinite(dst->y))
                        fail(at, "agent " + std::to_string(i) + "'s " +
                                     (dst == &f.position[i]   ? "position"
                                      : dst == &f.velocity[i] ? "velocity"
                                                              : "preferred velocity") +
                                     " in the frame of step " + std::to_string(f.step) +
                                     " is not finite");
                }
            rec.frames.push_back(std::move(f));
        }
        at += 5 + length;
    }
    if (rec.scenes.empty()) fail(at, "no scene record (a recording starts with its scene)");
    rec.wholeBytes = at;
    return rec;
}

} // namespace orca::scene
