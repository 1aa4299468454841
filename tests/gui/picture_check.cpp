// Checks the pictures orca-sandbox exports (for the GUI tests):
//
//   orca_picture_check svg FILE [--root NAME] [--count GROUP_ID CLASS N]...
//       FILE is well-formed XML (a small recursive parser: elements, attributes, text, comments,
//       CDATA, processing instructions, character and the five predefined entity references;
//       one root element), the root element is NAME (default svg), and inside the element
//       with id GROUP_ID there are exactly N elements whose class list holds CLASS.
//       [--viewbox-within CLIP_ID]: the root's viewBox lies inside the rectangle of the
//       clipPath CLIP_ID (the view it shows: cropped, no chrome outside it);
//       [--inside-viewbox CLASS]: the centre of every <circle> of class CLASS lies inside the
//       viewBox (the crop keeps the content); [--no-text TEXT]: no <text> holds TEXT.
//
//   orca_picture_check png FILE --scale-of SVG K
//       FILE is a PNG whose size is K times the SVG's viewBox (its edges rounded outwards to
//       whole units), the picture of the same view at K×.
//
//   orca_picture_check gif FILE [--width W] [--height H] [--min-frames N] [--max-frames N]
//                      [--max-bytes B] [--duration-cs C] [--dump-frame K OUT.png]
//       FILE starts with "GIF89a" and ends with the trailer, giflib decodes it (DGifSlurp), the
//       logical screen and every frame fit the limits, the frame delays add up to C
//       centiseconds (±2 per frame), and frame K composed over the previous ones (disposal
//       "do not dispose", transparency) can be written as a PNG to look at.
//
// Prints what it found; exits 0 when every check passes, 1 otherwise, 2 on usage errors.

#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

#include <gif_lib.h>
#include <stb_image_write.h>

namespace {

// ---- XML ---------------------------------------------------------------------------------------

struct Element {
    std::string name;
    std::vector<std::pair<std::string, std::string>> attributes;
    std::vector<Element> children;
    std::string text; ///< the character data directly inside

    [[nodiscard]] const std::string* attribute(std::string_view key) const {
        for (const auto& [k, v] : attributes)
            if (k == key) return &v;
        return nullptr;
    }
};

class XmlParser {
  public:
    explicit XmlParser(std::string_view text) : m_s(text) {}

    /// The root element, or nullopt with error() set.
    std::optional<Element> parseDocument() {
        if (m_s.substr(0, 3) == "\xEF\xBB\xBF") m_i = 3; // BOM
        skipMisc();
        if (!peek('<')) return fail("no root element");
        Element root;
        if (!parseElement(root)) return std::nullopt;
        skipMisc();
        if (m_i != m_s.size()) return fail("content after the root element");
        return root;
    }

    [[nodiscard]] const std::string& error() const { return m_error; }

  private:
    std::nullopt_t fail(const std::string& what) {
        if (m_error.empty()) {
            std::size_t line = 1;
            for (std::size_t k = 0; k < m_i && k < m_s.size(); ++k)
                if (m_s[k] == '\n') ++line;
            m_error = "line " + std::to_string(line) + ": " + what;
        }
        return std::nullopt;
    }
    bool failed(const std::string& what) {
        fail(what);
        return false;
    }

    bool peek(char c) const { return m_i < m_s.size() && m_s[m_i] == c; }
    bool startsWith(std::string_view p) const { return m_s.substr(m_i, p.size()) == p; }
    void skipSpace() {
        while (m_i < m_s.size() && std::strchr(" \t\r\n", m_s[m_i]) && m_s[m_i] != '\0')
            ++m_i;
    }
    bool skipPast(std::string_view end) {
        const auto k = m_s.find(end, m_i);
        if (k == std::string_view::npos) return false;
        m_i = k + end.size();
        return true;
    }
    // Prolog, comments, processing instructions and white space between elements.
    void skipMisc() {
        for (;;) {
            skipSpace();
            if (startsWith("<?")) {
                if (!skipPast("?>")) return;
            } else if (startsWith("<!--")) {
                if (!skipPast("-->")) return;
            } else if (startsWith("<!DOCTYPE")) {
                if (!skipPast(">")) return;
            } else {
                return;
            }
        }
    }
    static bool nameChar(char c, bool first) {
        const auto u = static_cast<unsigned char>(c);
        if (std::isalpha(u) || c == '_' || c == ':' || u >= 0x80) return true;
        return !first && (std::isdigit(u) || c == '-' || c == '.');
    }
    bool parseName(std::string& out) {
        const std::size_t start = m_i;
        if (m_i >= m_s.size() || !nameChar(m_s[m_i], true)) return failed("expected a name");
        while (m_i < m_s.size() && nameChar(m_s[m_i], false))
            ++m_i;
        out.assign(m_s.substr(start, m_i - start));
        return true;
    }
    // Text or an attribute value up to `stop`: '<' is not allowed, '&' must start a reference.
    bool parseText(char stop, std::string& out) {
        while (m_i < m_s.size() && m_s[m_i] != stop) {
            const char c = m_s[m_i];
            if (c == '<') {
                if (stop == '<') break;
                return failed("'<' in an attribute value");
            }
            if (c == '&') {
                const auto semi = m_s.find(';', m_i);
                if (semi == std::string_view::npos || semi - m_i > 12)
                    return failed("unterminated entity reference");
                const std::string_view ref = m_s.substr(m_i + 1, semi - m_i - 1);
                if (ref == "amp")
                    out += '&';
                else if (ref == "lt")
                    out += '<';
                else if (ref == "gt")
                    out += '>';
                else if (ref == "quot")
                    out += '"';
                else if (ref == "apos")
                    out += '\'';
                else if (ref.size() >= 2 && ref[0] == '#')
                    out += '?';
                else
                    return failed("unknown entity &" + std::string(ref) + ";");
                m_i = semi + 1;
                continue;
            }
            if (static_cast<unsigned char>(c) < 0x20 && !std::strchr("\t\r\n", c))
                return failed("control character");
            out += c;
            ++m_i;
        }
        return true;
    }
    bool parseElement(Element& e) {
        ++m_i; // '<'
        if (!parseName(e.name)) return false;
        for (;;) {
            const std::size_t before = m_i;
            skipSpace();
            if (startsWith("/>")) {
                m_i += 2;
                return true;
            }
            if (peek('>')) {
                ++m_i;
                break;
            }
            if (m_i == before) return failed("expected white space before an attribute");
            std::string key;
            if (!parseName(key)) return false;
            skipSpace();
            if (!peek('=')) return failed("expected '=' after " + key);
            ++m_i;
            skipSpace();
            if (!peek('"') && !peek('\'')) return failed("expected a quoted value for " + key);
            const char q = m_s[m_i++];
            std::string value;
            if (!parseText(q, value)) return false;
            if (!peek(q)) return failed("unterminated value of " + key);
            ++m_i;
            if (e.attribute(key)) return failed("duplicate attribute " + key);
            e.attributes.emplace_back(std::move(key), std::move(value));
        }
        // Content.
        for (;;) {
            std::string text;
            if (!parseText('<', text)) return false;
            e.text += text;
            if (m_i >= m_s.size()) return failed("<" + e.name + "> is not closed");
            if (startsWith("</")) {
                m_i += 2;
                std::string name;
                if (!parseName(name)) return false;
                skipSpace();
                if (!peek('>')) return failed("expected '>'");
                ++m_i;
                if (name != e.name) return failed("</" + name + "> closes <" + e.name + ">");
                return true;
            }
            if (startsWith("<!--")) {
                if (!skipPast("-->")) return failed("unterminated comment");
            } else if (startsWith("<![CDATA[")) {
                if (!skipPast("]]>")) return failed("unterminated CDATA");
            } else if (startsWith("<?")) {
                if (!skipPast("?>")) return failed("unterminated processing instruction");
            } else {
                e.children.emplace_back();
                if (!parseElement(e.children.back())) return false;
            }
        }
    }

    std::string_view m_s;
    std::size_t m_i = 0;
    std::string m_error;
};

bool hasClass(const Element& e, std::string_view cls) {
    const std::string* c = e.attribute("class");
    if (!c) return false;
    std::istringstream in(*c);
    std::string token;
    while (in >> token)
        if (token == cls) return true;
    return false;
}

const Element* findById(const Element& e, std::string_view id) {
    if (const std::string* v = e.attribute("id"); v && *v == id) return &e;
    for (const Element& c : e.children)
        if (const Element* f = findById(c, id)) return f;
    return nullptr;
}

std::size_t countClass(const Element& e, std::string_view cls) {
    std::size_t n = hasClass(e, cls) ? 1 : 0;
    for (const Element& c : e.children)
        n += countClass(c, cls);
    return n;
}

// Calls `f` on `e` and every element below it.
template <class F> void forEach(const Element& e, const F& f) {
    f(e);
    for (const Element& c : e.children)
        forEach(c, f);
}

double number(const Element& e, const char* key) {
    const std::string* v = e.attribute(key);
    return v ? std::strtod(v->c_str(), nullptr) : 0.0;
}

struct Box {
    double x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0;
    [[nodiscard]] bool contains(double x, double y) const {
        return x >= x0 && x <= x1 && y >= y0 && y <= y1;
    }
};

std::optional<Box> viewBoxOf(const Element& root) {
    const std::string* v = root.attribute("viewBox");
    double x = 0.0, y = 0.0, w = 0.0, h = 0.0;
    if (!v || std::sscanf(v->c_str(), "%lf %lf %lf %lf", &x, &y, &w, &h) != 4) return std::nullopt;
    return Box{x, y, x + w, y + h};
}

std::optional<Element> readSvg(const std::string& file, std::size_t* bytes = nullptr) {
    std::ifstream in(file, std::ios::binary);
    if (!in) {
        std::fprintf(stderr, "cannot read %s\n", file.c_str());
        return std::nullopt;
    }
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (bytes) *bytes = text.size();
    XmlParser parser(text);
    std::optional<Element> root = parser.parseDocument();
    if (!root)
        std::fprintf(stderr, "%s: not well-formed XML: %s\n", file.c_str(), parser.error().c_str());
    return root;
}

int checkSvg(const std::string& file, int argc, char** argv) {
    std::size_t bytes = 0;
    const std::optional<Element> root = readSvg(file, &bytes);
    if (!root) return 1;
    std::printf("%s: well-formed, root <%s>, %zu bytes\n", file.c_str(), root->name.c_str(), bytes);
    const std::optional<Box> box = viewBoxOf(*root);
    std::string rootName = "svg";
    bool ok = true;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--root" && i + 1 < argc) {
            rootName = argv[++i];
        } else if (a == "--count" && i + 3 < argc) {
            const std::string id = argv[++i];
            const std::string cls = argv[++i];
            const long want = std::strtol(argv[++i], nullptr, 10);
            const Element* group = findById(*root, id);
            if (!group) {
                std::fprintf(stderr, "no element with id \"%s\"\n", id.c_str());
                ok = false;
                continue;
            }
            const std::size_t n = countClass(*group, cls);
            std::printf("#%s: %zu elements of class \"%s\" (want %ld)\n", id.c_str(), n,
                        cls.c_str(), want);
            if (static_cast<long>(n) != want) ok = false;
        } else if (a == "--viewbox-within" && i + 1 < argc) {
            const std::string id = argv[++i];
            const Element* clip = findById(*root, id);
            const Element* r = clip && !clip->children.empty() ? &clip->children[0] : nullptr;
            if (!r || r->name != "rect" || !box) {
                std::fprintf(stderr, "no viewBox, or no clipPath \"%s\" with a <rect>\n",
                             id.c_str());
                ok = false;
                continue;
            }
            const Box view{number(*r, "x"), number(*r, "y"), number(*r, "x") + number(*r, "width"),
                           number(*r, "y") + number(*r, "height")};
            const bool inside = view.contains(box->x0, box->y0) && view.contains(box->x1, box->y1);
            std::printf("viewBox %g %g - %g %g %s #%s %g %g - %g %g\n", box->x0, box->y0, box->x1,
                        box->y1, inside ? "inside" : "NOT inside", id.c_str(), view.x0, view.y0,
                        view.x1, view.y1);
            ok = ok && inside;
        } else if (a == "--inside-viewbox" && i + 1 < argc) {
            const std::string cls = argv[++i];
            std::size_t n = 0;
            std::size_t outside = 0;
            forEach(*root, [&](const Element& e) {
                if (e.name != "circle" || !hasClass(e, cls)) return;
                ++n;
                if (!box || !box->contains(number(e, "cx"), number(e, "cy"))) ++outside;
            });
            std::printf("%zu circles of class \"%s\", %zu outside the viewBox\n", n, cls.c_str(),
                        outside);
            ok = ok && n > 0 && outside == 0;
        } else if (a == "--no-text" && i + 1 < argc) {
            const std::string want = argv[++i];
            std::size_t n = 0;
            forEach(*root, [&](const Element& e) {
                if (e.name == "text" && e.text.find(want) != std::string::npos) ++n;
            });
            std::printf("%zu texts hold \"%s\" (want none)\n", n, want.c_str());
            ok = ok && n == 0;
        } else {
            std::fprintf(stderr, "unknown svg option %s\n", a.c_str());
            return 2;
        }
    }
    if (root->name != rootName) {
        std::fprintf(stderr, "root element <%s>, want <%s>\n", root->name.c_str(),
                     rootName.c_str());
        ok = false;
    }
    if (root->name == "svg" && (!root->attribute("xmlns") || !root->attribute("viewBox"))) {
        std::fprintf(stderr, "<svg> lacks xmlns or viewBox\n");
        ok = false;
    }
    return ok ? 0 : 1;
}

// ---- PNG ---------------------------------------------------------------------------------------

int checkPng(const std::string& file, int argc, char** argv) {
    if (argc != 3 || std::string(argv[0]) != "--scale-of") {
        std::fprintf(stderr, "usage: png FILE --scale-of SVG K\n");
        return 2;
    }
    const std::optional<Element> svg = readSvg(argv[1]);
    const std::optional<Box> box = svg ? viewBoxOf(*svg) : std::nullopt;
    if (!box) {
        std::fprintf(stderr, "%s has no viewBox\n", argv[1]);
        return 1;
    }
    const long k = std::strtol(argv[2], nullptr, 10);
    std::ifstream in(file, std::ios::binary);
    unsigned char head[24] = {};
    in.read(reinterpret_cast<char*>(head), sizeof head);
    // The signature, then IHDR: length, "IHDR", width, height (big-endian).
    if (!in || std::memcmp(head, "\x89PNG\r\n\x1a\n", 8) != 0 ||
        std::memcmp(head + 12, "IHDR", 4) != 0) {
        std::fprintf(stderr, "%s: not a PNG\n", file.c_str());
        return 1;
    }
    auto be32 = [&](int at) {
        return (long{head[at]} << 24) | (long{head[at + 1]} << 16) | (long{head[at + 2]} << 8) |
               long{head[at + 3]};
    };
    const long w = be32(16);
    const long h = be32(20);
    const long wantW = k * static_cast<long>(std::ceil(box->x1) - std::floor(box->x0));
    const long wantH = k * static_cast<long>(std::ceil(box->y1) - std::floor(box->y0));
    std::printf("%s: %ldx%ld, want %ldx%ld (%ld x the viewBox of %s)\n", file.c_str(), w, h, wantW,
                wantH, k, argv[1]);
    return w == wantW && h == wantH ? 0 : 1;
}

// ---- GIF ---------------------------------------------------------------------------------------

int checkGif(const std::string& file, int argc, char** argv) {
    long width = -1, height = -1, minFrames = 1, maxFrames = -1, durationCs = -1, dumpFrame = -1;
    long long maxBytes = -1;
    std::string dumpFile;
    for (int i = 0; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() { return i + 1 < argc ? std::strtoll(argv[++i], nullptr, 10) : -1LL; };
        if (a == "--width")
            width = static_cast<long>(next());
        else if (a == "--height")
            height = static_cast<long>(next());
        else if (a == "--min-frames")
            minFrames = static_cast<long>(next());
        else if (a == "--max-frames")
            maxFrames = static_cast<long>(next());
        else if (a == "--max-bytes")
            maxBytes = next();
        else if (a == "--duration-cs")
            durationCs = static_cast<long>(next());
        else if (a == "--dump-frame" && i + 2 < argc) {
            dumpFrame = std::strtol(argv[++i], nullptr, 10);
            dumpFile = argv[++i];
        } else {
            std::fprintf(stderr, "unknown gif option %s\n", a.c_str());
            return 2;
        }
    }
    std::ifstream in(file, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bool ok = true;
    if (bytes.size() < 14 || bytes.compare(0, 6, "GIF89a") != 0) {
        std::fprintf(stderr, "%s: no GIF89a header\n", file.c_str());
        return 1;
    }
    if (bytes.back() != '\x3B') {
        std::fprintf(stderr, "%s: no trailer (0x3B)\n", file.c_str());
        ok = false;
    }
    int code = 0;
    GifFileType* gif = DGifOpenFileName(file.c_str(), &code);
    if (!gif) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(), GifErrorString(code));
        return 1;
    }
    if (DGifSlurp(gif) == GIF_ERROR) {
        std::fprintf(stderr, "%s: %s\n", file.c_str(), GifErrorString(gif->Error));
        DGifCloseFile(gif, &code);
        return 1;
    }
    long totalCs = 0;
    const int w = gif->SWidth;
    const int h = gif->SHeight;
    std::vector<unsigned char> canvas(static_cast<std::size_t>(w) * static_cast<std::size_t>(h) * 3,
                                      0);
    for (int k = 0; k < gif->ImageCount; ++k) {
        const SavedImage& img = gif->SavedImages[k];
        GraphicsControlBlock gcb{};
        gcb.TransparentColor = NO_TRANSPARENT_COLOR;
        DGifSavedExtensionToGCB(gif, k, &gcb);
        totalCs += gcb.DelayTime;
        const GifImageDesc& d = img.ImageDesc;
        if (d.Left < 0 || d.Top < 0 || d.Left + d.Width > w || d.Top + d.Height > h) {
            std::fprintf(stderr, "frame %d (%dx%d at %d,%d) outside the %dx%d screen\n", k, d.Width,
                         d.Height, d.Left, d.Top, w, h);
            ok = false;
            continue;
        }
        const ColorMapObject* map = d.ColorMap ? d.ColorMap : gif->SColorMap;
        if (!map) {
            std::fprintf(stderr, "frame %d has no colour map\n", k);
            ok = false;
            continue;
        }
        for (int y = 0; y < d.Height; ++y)
            for (int x = 0; x < d.Width; ++x) {
                const int idx = img.RasterBits[y * d.Width + x];
                if (idx == gcb.TransparentColor || idx >= map->ColorCount) continue;
                unsigned char* p =
                    &canvas[(static_cast<std::size_t>(d.Top + y) * static_cast<std::size_t>(w) +
                             static_cast<std::size_t>(d.Left + x)) *
                            3];
                p[0] = map->Colors[idx].Red;
                p[1] = map->Colors[idx].Green;
                p[2] = map->Colors[idx].Blue;
            }
        if (k == dumpFrame &&
            stbi_write_png(dumpFile.c_str(), w, h, 3, canvas.data(), 3 * w) == 0) {
            std::fprintf(stderr, "cannot write %s\n", dumpFile.c_str());
            ok = false;
        }
    }
    std::printf("%s: %dx%d, %d frames, %.2f s, %zu bytes\n", file.c_str(), w, h, gif->ImageCount,
                static_cast<double>(totalCs) / 100.0, bytes.size());
    if ((width >= 0 && w != width) || (height >= 0 && h != height)) {
        std::fprintf(stderr, "size %dx%d, want %ldx%ld\n", w, h, width, height);
        ok = false;
    }
    if (gif->ImageCount < minFrames || (maxFrames >= 0 && gif->ImageCount > maxFrames)) {
        std::fprintf(stderr, "%d frames, want %ld..%ld\n", gif->ImageCount, minFrames, maxFrames);
        ok = false;
    }
    if (maxBytes >= 0 && static_cast<long long>(bytes.size()) > maxBytes) {
        std::fprintf(stderr, "%zu bytes, want at most %lld\n", bytes.size(), maxBytes);
        ok = false;
    }
    if (durationCs >= 0 && std::labs(totalCs - durationCs) > 2L * gif->ImageCount) {
        std::fprintf(stderr, "delays add up to %ld cs, want %ld\n", totalCs, durationCs);
        ok = false;
    }
    DGifCloseFile(gif, &code);
    return ok ? 0 : 1;
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s svg|png|gif FILE [checks...]\n", argv[0]);
        return 2;
    }
    const std::string kind = argv[1];
    if (kind == "svg") return checkSvg(argv[2], argc - 3, argv + 3);
    if (kind == "png") return checkPng(argv[2], argc - 3, argv + 3);
    if (kind == "gif") return checkGif(argv[2], argc - 3, argv + 3);
    std::fprintf(stderr, "unknown kind %s (svg, png or gif)\n", kind.c_str());
    return 2;
}
