#include "pictures/frame_recorder.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <system_error>

#include <gif_lib.h>

#include "orca/ui/palette.hpp"
#include "pictures/png_file.hpp"

namespace fs = std::filesystem;

namespace orca::app {

namespace {

constexpr int kTransparent = 0; // palette index reserved for "unchanged since the last frame"
constexpr int kMinDelayCs = 2;
// A pixel whose new colour is within this squared RGB distance of the colour on screen is left
// as it is (transparent): anti-aliased edges and faint fills flicker between neighbouring
// palette colours from frame to frame, which costs most of the bytes and shows nothing. The
// error never accumulates: the comparison is always with what the viewer sees.
constexpr int kCloseDistSq = 3 * 12 * 12;

std::int64_t centiseconds(double seconds) {
    return static_cast<std::int64_t>(std::llround(seconds * 100.0));
}

// giflib's output callback: the AtomicFile is the GIF's user data (EGifOpenFileName would
// write in place and create the file readable by its owner only).
int writeToFile(GifFileType* gif, const GifByteType* data, int n) {
    auto* f = static_cast<scene::AtomicFile*>(gif->UserData);
    return f->write({reinterpret_cast<const char*>(data), static_cast<std::size_t>(n)}) ? n : 0;
}

int lutIndex(int r, int g, int b) {
    return ((r >> 2) << 12) | ((g >> 2) << 6) | (b >> 2);
}

} // namespace

FrameRecorder::~FrameRecorder() {
    abandon();
}

FrameRecorder::Format FrameRecorder::formatFor(const fs::path& path) {
    std::string ext = path.extension().string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return ext == ".png" ? Format::PngSequence : Format::Gif;
}

fs::path FrameRecorder::sequencePath(const fs::path& path, std::size_t frame) {
    char suffix[32];
    std::snprintf(suffix, sizeof suffix, "_%04zu", frame);
    fs::path out = path.parent_path() / path.stem();
    out += suffix;
    out += path.extension();
    return out;
}

bool FrameRecorder::gifError(const char* what, int code, std::string& error) {
    const char* msg = GifErrorString(code);
    // The system's reason when writing the file failed (giflib only knows that it did).
    if (!m_out.error().empty()) {
        error = m_out.error();
    } else {
        error = std::string(what) + " " + m_path.string() + ": " + (msg ? msg : "giflib error");
    }
    return false;
}

bool FrameRecorder::start(const fs::path& path, int width, int height, std::string& error) {
    abandon();
    if (width <= 0 || height <= 0 || width > 65535 || height > 65535) {
        error = "cannot record a " + std::to_string(width) + "x" + std::to_string(height) + " view";
        return false;
    }
    m_path = path;
    m_format = formatFor(path);
    m_width = width;
    m_height = height;
    m_written = 0;
    m_bytes = 0;
    m_havePending = false;
    m_emittedCs = 0;
    m_palette.clear();
    if (m_format == Format::Gif) {
        if (!m_out.open(path, error)) return false;
        int code = 0;
        m_gif = EGifOpen(&m_out, writeToFile, &code);
        if (!m_gif) {
            m_out.abandon();
            return gifError("cannot write", code, error);
        }
        EGifSetGifVersion(m_gif, true); // GIF89a: delays and transparency
    }
    m_active = true;
    return true;
}

void FrameRecorder::abandon() {
    if (m_gif) {
        int code = 0;
        EGifCloseFile(m_gif, &code);
        m_gif = nullptr;
    }
    m_out.abandon();
    m_active = false;
    m_havePending = false;
}

void FrameRecorder::buildPalette(std::span<const unsigned char> rgb) {
    std::vector<std::array<int, 3>> colours;
    colours.push_back({24, 26, 31}); // index 0: transparent (never produced by the LUT)
    auto addColour = [&](int r, int g, int b, int minDistSq) {
        if (colours.size() >= 256) return;
        for (std::size_t k = 1; k < colours.size(); ++k) {
            const int dr = colours[k][0] - r;
            const int dg = colours[k][1] - g;
            const int db = colours[k][2] - b;
            if (dr * dr + dg * dg + db * db < minDistSq) return;
        }
        colours.push_back({r, g, b});
    };
    // The sandbox's opaque colours and ImGui's window greys exactly.
    const ui::Palette& p = ui::palette();
    const ui::Rgba keys[] = {p.kBackground,
                             p.kPanelBackground,
                             p.kAgentActive,
                             p.kAgentAtGoal,
                             p.kAgentStatic,
                             p.kAgentLp3,
                             p.kAgentDetouring,
                             p.kObstacleFill,
                             p.kObstacleOutline,
                             p.kLineAgent,
                             p.kLineObstacle,
                             p.kLineColliding,
                             p.kVo,
                             p.kArrowNew,
                             p.kArrowV,
                             p.kText,
                             p.kSelection,
                             p.kWhy,
                             {15, 15, 15, 255},
                             {10, 10, 10, 255},
                             {0, 0, 0, 255},
                             {255, 255, 255, 255}};
    for (const ui::Rgba& c : keys)
        addColour(c.r, c.g, c.b, 1);
    const std::size_t keyCount = colours.size();
    // A 5x5x5 cube covers everything else...
    for (int r = 0; r < 5; ++r)
        for (int g = 0; g < 5; ++g)
            for (int b = 0; b < 5; ++b)
                addColour(r * 255 / 4, g * 255 / 4, b * 255 / 4, 1);
    // ...and the first frame's most frequent colours (translucent overlays on the dark
    // background, anti-aliased edges) fill the rest.
    constexpr int kBuckets = 1 << 15;
    std::vector<std::array<std::uint64_t, 4>> hist(kBuckets, {0, 0, 0, 0});
    for (std::size_t i = 0; i + 2 < rgb.size(); i += 3) {
        const int r = rgb[i];
        const int g = rgb[i + 1];
        const int b = rgb[i + 2];
        auto& h = hist[static_cast<std::size_t>(((r >> 3) << 10) | ((g >> 3) << 5) | (b >> 3))];
        h[0] += 1;
        h[1] += static_cast<std::uint64_t>(r);
        h[2] += static_cast<std::uint64_t>(g);
        h[3] += static_cast<std::uint64_t>(b);
    }
    std::vector<int> order;
    for (int k = 0; k < kBuckets; ++k)
        if (hist[static_cast<std::size_t>(k)][0] > 0) order.push_back(k);
    std::sort(order.begin(), order.end(), [&](int a, int b) {
        return hist[static_cast<std::size_t>(a)][0] > hist[static_cast<std::size_t>(b)][0];
    });
    for (const int k : order) {
        const auto& h = hist[static_cast<std::size_t>(k)];
        const auto n = h[0];
        addColour(static_cast<int>(h[1] / n), static_cast<int>(h[2] / n),
                  static_cast<int>(h[3] / n), 9);
        if (colours.size() >= 256) break;
    }
    for (int v = 8; colours.size() < 256; v = (v + 37) % 256)
        colours.push_back({v, v, v});

    m_palette.assign(256 * 3, 0);
    for (std::size_t k = 0; k < colours.size(); ++k)
        for (std::size_t c = 0; c < 3; ++c)
            m_palette[3 * k + c] = static_cast<std::uint8_t>(colours[k][c]);

    // Nearest colour (RGB distance) for every 6-bit bucket centre; the key colours win their
    // own bucket exactly.
    m_lut.assign(std::size_t{1} << 18, 1);
    for (int r = 0; r < 64; ++r)
        for (int g = 0; g < 64; ++g)
            for (int b = 0; b < 64; ++b) {
                const int cr = r * 4 + 2;
                const int cg = g * 4 + 2;
                const int cb = b * 4 + 2;
                int best = 1;
                int bestD = 1 << 30;
                for (std::size_t k = 1; k < colours.size(); ++k) {
                    const int dr = colours[k][0] - cr;
                    const int dg = colours[k][1] - cg;
                    const int db = colours[k][2] - cb;
                    const int d = 2 * dr * dr + 4 * dg * dg + 3 * db * db; // eye-weighted
                    if (d < bestD) {
                        bestD = d;
                        best = static_cast<int>(k);
                    }
                }
                m_lut[static_cast<std::size_t>((r << 12) | (g << 6) | b)] =
                    static_cast<std::uint8_t>(best);
            }
    for (std::size_t k = 1; k < keyCount; ++k)
        m_lut[static_cast<std::size_t>(lutIndex(colours[k][0], colours[k][1], colours[k][2]))] =
            static_cast<std::uint8_t>(k);

    // Colours close enough to leave a pixel as it is on screen (see writePending).
    m_close.assign(256 * 256, 0);
    for (std::size_t a = 0; a < 256; ++a)
        for (std::size_t b = 0; b < 256; ++b) {
            int d = 0;
            for (std::size_t c = 0; c < 3; ++c) {
                const int e = int{m_palette[3 * a + c]} - int{m_palette[3 * b + c]};
                d += e * e;
            }
            m_close[a * 256 + b] = d <= kCloseDistSq ? 1 : 0;
        }
}

void FrameRecorder::quantize(std::span<const unsigned char> rgb,
                             std::vector<std::uint8_t>& out) const {
    const std::size_t n = static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height);
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i)
        out[i] =
            m_lut[static_cast<std::size_t>(lutIndex(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]))];
}

std::string FrameRecorder::keptFramesNote() const {
    // Each frame is a file of its own, written whole: those before the failure are complete
    // pictures of the run, so they stay (a full disk is the usual cause; the user decides).
    if (m_written == 0) return "; no frame of this recording was written";
    const fs::path dir = m_path.parent_path().empty() ? fs::path(".") : m_path.parent_path();
    const std::string first = sequencePath(m_path, 0).filename().string();
    if (m_written == 1)
        return "; the 1 frame written before it is kept: " + first + " in " + dir.string();
    return "; the " + std::to_string(m_written) + " frames written before it are kept: " + first +
           " to " + sequencePath(m_path, m_written - 1).filename().string() + " in " + dir.string();
}

bool FrameRecorder::addFrame(std::span<const unsigned char> rgb, double seconds,
                             std::string& error) {
    if (!m_active) {
        error = "not recording";
        return false;
    }
    const std::size_t n = static_cast<std::size_t>(m_width) * static_cast<std::size_t>(m_height);
    if (rgb.size() < 3 * n) {
        error = "frame size changed while recording";
        return false;
    }
    if (m_format == Format::PngSequence) {
        const fs::path file = sequencePath(m_path, m_written);
        if (!writePng(file, m_width, m_height, rgb, error)) {
            error += keptFramesNote();
            return false;
        }
        std::error_code ec;
        const auto size = fs::file_size(file, ec);
        if (!ec) m_bytes += size;
        ++m_written;
        return true;
    }

    if (m_palette.empty()) {
        buildPalette(rgb);
        ColorMapObject* map = GifMakeMapObject(256, nullptr);
        if (!map) {
            error = "out of memory";
            return false;
        }
        for (int k = 0; k < 256; ++k) {
            map->Colors[k].Red = m_palette[static_cast<std::size_t>(3 * k)];
            map->Colors[k].Green = m_palette[static_cast<std::size_t>(3 * k + 1)];
            map->Colors[k].Blue = m_palette[static_cast<std::size_t>(3 * k + 2)];
        }
        const int rc = EGifPutScreenDesc(m_gif, m_width, m_height, 8, kTransparent, map);
        GifFreeMapObject(map);
        if (rc == GIF_ERROR) return gifError("cannot write", m_gif->Error, error);
        // Loop forever (the NETSCAPE2.0 application extension).
        static const GifByteType loop[3] = {1, 0, 0};
        if (EGifPutExtensionLeader(m_gif, APPLICATION_EXT_FUNC_CODE) == GIF_ERROR ||
            EGifPutExtensionBlock(m_gif, 11, "NETSCAPE2.0") == GIF_ERROR ||
            EGifPutExtensionBlock(m_gif, 3, loop) == GIF_ERROR ||
            EGifPutExtensionTrailer(m_gif) == GIF_ERROR)
            return gifError("cannot write", m_gif->Error, error);
    }
    quantize(rgb, m_scratch);
    if (!m_havePending) {
        m_pending.swap(m_scratch);
        m_pendingStart = seconds;
        m_origin = seconds;
        m_havePending = true;
        return true;
    }
    if (m_scratch == m_pending) return true; // the pending frame simply lasts longer
    const std::int64_t delay = centiseconds(seconds - m_origin) - m_emittedCs;
    if (delay < kMinDelayCs) {
        // Too soon for a GIF frame: this one replaces the pending one in its time slot.
        m_pending.swap(m_scratch);
        return true;
    }
    if (!writePending(static_cast<int>(std::min<std::int64_t>(delay, 65535)), error)) return false;
    m_emittedCs += delay;
    m_pending.swap(m_scratch);
    m_pendingStart = seconds;
    return true;
}

bool FrameRecorder::writePending(int delayCs, std::string& error) {
    // The rectangle that changed since the frame on screen (the whole first frame).
    int x0 = 0;
    int y0 = 0;
    int x1 = m_width - 1;
    int y1 = m_height - 1;
    const bool first = m_written == 0;
    const auto w = static_cast<std::size_t>(m_width);
    auto same = [&](std::uint8_t a, std::uint8_t b) { return m_close[a * 256u + b] != 0; };
    if (!first) {
        x0 = m_width;
        y0 = m_height;
        x1 = -1;
        y1 = -1;
        for (int y = 0; y < m_height; ++y) {
            const std::uint8_t* a = m_pending.data() + static_cast<std::size_t>(y) * w;
            const std::uint8_t* b = m_shown.data() + static_cast<std::size_t>(y) * w;
            int lo = 0;
            while (lo < m_width && same(a[lo], b[lo]))
                ++lo;
            if (lo == m_width) continue;
            int hi = m_width - 1;
            while (same(a[hi], b[hi]))
                --hi;
            x0 = std::min(x0, lo);
            x1 = std::max(x1, hi);
            y0 = std::min(y0, y);
            y1 = y;
        }
        if (x1 < 0) { // nothing changed: a 1x1 transparent frame carries the delay
            x0 = x1 = 0;
            y0 = y1 = 0;
        }
    }
    GraphicsControlBlock gcb{};
    gcb.DisposalMode = DISPOSE_DO_NOT;
    gcb.UserInputFlag = false;
    gcb.DelayTime = delayCs;
    gcb.TransparentColor = first ? NO_TRANSPARENT_COLOR : kTransparent;
    GifByteType ext[4];
    const std::size_t extLen = EGifGCBToExtension(&gcb, ext);
    const int rw = x1 - x0 + 1;
    const int rh = y1 - y0 + 1;
    if (EGifPutExtension(m_gif, GRAPHICS_EXT_FUNC_CODE, static_cast<int>(extLen), ext) ==
            GIF_ERROR ||
        EGifPutImageDesc(m_gif, x0, y0, rw, rh, false, nullptr) == GIF_ERROR)
        return gifError("cannot write", m_gif->Error, error);
    std::vector<GifPixelType> row(static_cast<std::size_t>(rw));
    for (int y = y0; y <= y1; ++y) {
        const std::uint8_t* a = m_pending.data() + static_cast<std::size_t>(y) * w;
        const std::uint8_t* b = first ? nullptr : m_shown.data() + static_cast<std::size_t>(y) * w;
        for (int x = x0; x <= x1; ++x)
            row[static_cast<std::size_t>(x - x0)] =
                b && same(a[x], b[x]) ? static_cast<GifPixelType>(kTransparent) : a[x];
        if (EGifPutLine(m_gif, row.data(), rw) == GIF_ERROR)
            return gifError("cannot write", m_gif->Error, error);
    }
    // What the viewer now sees: the new pixels where they were written.
    if (first) {
        m_shown = m_pending;
    } else {
        for (int y = y0; y <= y1; ++y) {
            std::uint8_t* b = m_shown.data() + static_cast<std::size_t>(y) * w;
            const std::uint8_t* a = m_pending.data() + static_cast<std::size_t>(y) * w;
            for (int x = x0; x <= x1; ++x)
                if (!same(a[x], b[x])) b[x] = a[x];
        }
    }
    ++m_written;
    return true;
}

bool FrameRecorder::finish(double endSeconds, std::string& error) {
    if (!m_active) {
        error = "not recording";
        return false;
    }
    if (m_format == Format::PngSequence) {
        m_active = false;
        if (m_written == 0) {
            error = "no frames were recorded";
            return false;
        }
        return true;
    }
    if (!m_havePending) {
        abandon();
        error = "no frames were recorded";
        return false;
    }
    const std::int64_t delay =
        std::max<std::int64_t>(centiseconds(endSeconds - m_origin) - m_emittedCs, kMinDelayCs);
    if (!writePending(static_cast<int>(std::min<std::int64_t>(delay, 65535)), error)) {
        abandon();
        return false;
    }
    m_emittedCs += delay;
    m_havePending = false;
    int code = 0;
    const int rc = EGifCloseFile(m_gif, &code);
    m_gif = nullptr;
    m_active = false;
    if (rc == GIF_ERROR) {
        gifError("cannot write", code, error);
        m_out.abandon();
        return false;
    }
    if (!m_out.commit(error)) return false;
    std::error_code ec;
    m_bytes = fs::file_size(m_out.target(), ec);
    return true;
}

} // namespace orca::app
