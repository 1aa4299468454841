#pragma once
// Recording the view: frames (RGB, top row first) written as an animated GIF (giflib) or, when
// the path ends in .png, as a numbered PNG sequence (OUT_0000.png, OUT_0001.png, ...).
//
// GIF: one global 256-colour palette chosen from the first frame (its most frequent colours,
// the sandbox's palette colours and a colour cube), no dithering, so that unchanged pixels keep
// their index; each frame is stored as the sub-rectangle that changed since the previous one,
// with unchanged pixels transparent (giflib's LZW then packs them into almost nothing). A frame
// is shown for the time until the next frame's timestamp (sim time, in centiseconds, rounded
// so that the total is exact); frames less than 2 cs apart are merged (browsers treat shorter
// delays as 10 cs). Written with scene::AtomicFile (the numbered PNGs each with writePng), so a
// broken recording never replaces a good file.

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "orca/scene/atomic_write.hpp"

struct GifFileType;

namespace orca::app {

class FrameRecorder {
  public:
    enum class Format { Gif, PngSequence };

    FrameRecorder() = default;
    FrameRecorder(const FrameRecorder&) = delete;
    FrameRecorder& operator=(const FrameRecorder&) = delete;
    ~FrameRecorder(); ///< abandons an unfinished recording (its temporary file goes)

    /// The format a path selects: PngSequence for ".png" (any case), Gif otherwise.
    [[nodiscard]] static Format formatFor(const std::filesystem::path& path);
    /// "dir/run.png" -> "dir/run_0007.png".
    [[nodiscard]] static std::filesystem::path sequencePath(const std::filesystem::path& path,
                                                            std::size_t frame);

    /// Starts a recording of width x height frames. False with `error` on failure.
    bool start(const std::filesystem::path& path, int width, int height, std::string& error);
    /// Adds a frame (width * height * 3 bytes, RGB, top row first) taken at `seconds` (any
    /// clock, not decreasing; the previous frame is shown until then). A PNG sequence writes
    /// the frame's file at once; when that fails (a full disk) the frames written before stay
    /// and `error` says how many, their names and their folder.
    bool addFrame(std::span<const unsigned char> rgb, double seconds, std::string& error);
    /// Writes the last frame (shown until `endSeconds`) and the file. False with `error`.
    bool finish(double endSeconds, std::string& error);
    /// Drops the recording and its temporary file.
    void abandon();

    [[nodiscard]] bool active() const { return m_active; }
    [[nodiscard]] Format format() const { return m_format; }
    [[nodiscard]] int width() const { return m_width; }
    [[nodiscard]] int height() const { return m_height; }
    /// Frames written so far (GIF: after merging).
    [[nodiscard]] std::size_t framesWritten() const { return m_written; }
    /// Size of the finished file(s) in bytes (after finish()).
    [[nodiscard]] std::uint64_t bytes() const { return m_bytes; }
    [[nodiscard]] const std::filesystem::path& path() const { return m_path; }

  private:
    /// What a failed PNG sequence leaves: "; the N frames written before it are kept: ...".
    [[nodiscard]] std::string keptFramesNote() const;
    bool writePending(int delayCs, std::string& error);
    bool gifError(const char* what, int code, std::string& error);
    void buildPalette(std::span<const unsigned char> rgb);
    void quantize(std::span<const unsigned char> rgb, std::vector<std::uint8_t>& out) const;

    bool m_active = false;
    Format m_format = Format::Gif;
    std::filesystem::path m_path;
    int m_width = 0;
    int m_height = 0;
    std::size_t m_written = 0;
    std::uint64_t m_bytes = 0;

    // GIF state.
    GifFileType* m_gif = nullptr;
    scene::AtomicFile m_out;             ///< the GIF, in place when finished
    std::vector<std::uint8_t> m_palette; ///< 256 x RGB
    std::vector<std::uint8_t> m_lut;     ///< 6 bits per channel -> palette index
    std::vector<std::uint8_t> m_pending; ///< indices of the frame not written yet
    std::vector<std::uint8_t> m_shown;   ///< indices of the last frame written
    std::vector<std::uint8_t> m_scratch;
    std::vector<std::uint8_t> m_close; ///< 256 x 256: palette colours close enough to keep
    bool m_havePending = false;
    double m_pendingStart = 0.0;  ///< timestamp of the pending frame
    double m_origin = 0.0;        ///< timestamp of the first frame
    std::int64_t m_emittedCs = 0; ///< delays written so far
};

} // namespace orca::app
