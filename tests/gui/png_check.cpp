// Checks a screenshot written by `orca-sandbox --screenshot`: size, not blank, and where the
// palette's colours appear. Exit 0 when every check passes, 1 otherwise (with reasons).
//
//   orca_png_check FILE --size WxH [--min-colours N] [--min-pixels CLASS N]...
//                  [--above CLASS CLASS]... [--left-of CLASS CLASS]...
//                  [--region X,Y,W,H] [--tolerance T] [--print-colours N]
//                  [--theme dark|light]
//
// CLASS: agents (any agent fill), active, atgoal, static, lp3, obstacle (world view, exact
// colours); halfplane (any ORCA line colour), feasible (the feasible-region fill or outline as
// drawn over the velocity panel's background), vo, vnew, binding (explain overlays, palette.hpp),
// background (the world view's), panel (the velocity panel's). --theme picks the palette the
// screenshot was taken with (default dark).
// --region limits every pixel count to that rectangle (pixels, top-left origin); --tolerance
// accepts colours within T per channel (anti-aliasing, blending); --print-colours lists the N
// most frequent colours of the region (diagnostics).

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <stb_image.h> // implementation compiled into libstb

#include "orca/ui/palette.hpp"

namespace {

using orca::ui::Rgba;
// The theme the screenshot was taken with (--theme).
const orca::ui::Palette* gPalette = &orca::ui::kDarkPalette;
const orca::ui::Palette& palette() {
    return *gPalette;
}

struct Image {
    int width = 0;
    int height = 0;
    std::vector<unsigned char> rgb;
    [[nodiscard]] const unsigned char* at(int x, int y) const {
        return rgb.data() + 3 * (static_cast<std::size_t>(y) * static_cast<std::size_t>(width) +
                                 static_cast<std::size_t>(x));
    }
};

struct Stats {
    long long count = 0;
    double sumX = 0.0;
    double sumY = 0.0;
    [[nodiscard]] double meanX() const { return sumX / static_cast<double>(count); }
    [[nodiscard]] double meanY() const { return sumY / static_cast<double>(count); }
};

// A translucent colour as it appears over an opaque background (GL's SRC_ALPHA blending).
Rgba over(Rgba c, Rgba bg) {
    auto mix = [&](std::uint8_t f, std::uint8_t b) {
        return static_cast<std::uint8_t>((f * c.a + b * (255 - c.a) + 127) / 255);
    };
    return {mix(c.r, bg.r), mix(c.g, bg.g), mix(c.b, bg.b), 255};
}

std::vector<Rgba> coloursOf(const std::string& cls) {
    const Rgba panel = palette().kPanelBackground;
    if (cls == "halfplane")
        return {palette().kLineAgent, palette().kLineObstacle, palette().kLineColliding};
    if (cls == "feasible")
        return {over(palette().kFeasibleFill, panel), over(palette().kFeasibleOutline, panel)};
    if (cls == "vo") return {palette().kVo, over(palette().kVoFill, panel)};
    if (cls == "vnew") return {palette().kArrowNew};
    if (cls == "binding") return {palette().kWhy}; // binding lines (Why?, solve mode's result)
    if (cls == "agents")
        return {palette().kAgentActive, palette().kAgentAtGoal, palette().kAgentStatic,
                palette().kAgentLp3, palette().kAgentDetouring};
    if (cls == "active") return {palette().kAgentActive};
    if (cls == "atgoal") return {palette().kAgentAtGoal};
    if (cls == "static") return {palette().kAgentStatic};
    if (cls == "lp3") return {palette().kAgentLp3};
    if (cls == "detouring") return {palette().kAgentDetouring};
    if (cls == "obstacle") return {palette().kObstacleFill};
    if (cls == "linterror") return {palette().kLintError};
    if (cls == "background") return {palette().kBackground};
    if (cls == "panel") return {palette().kPanelBackground};
    if (cls == "lintwarning") return {palette().kLintWarning};
    std::fprintf(stderr, "unknown colour class '%s'\n", cls.c_str());
    std::exit(2);
}

struct Region {
    int x0 = 0;
    int y0 = 0;
    int x1 = 1 << 30; // exclusive
    int y1 = 1 << 30;
};

bool near(const unsigned char* p, const Rgba& c, int tolerance) {
    return std::abs(p[0] - c.r) <= tolerance && std::abs(p[1] - c.g) <= tolerance &&
           std::abs(p[2] - c.b) <= tolerance;
}

Stats measure(const Image& img, const std::string& cls, const Region& r, int tolerance) {
    const std::vector<Rgba> colours = coloursOf(cls);
    Stats s;
    for (int y = std::max(r.y0, 0); y < std::min(r.y1, img.height); ++y) {
        for (int x = std::max(r.x0, 0); x < std::min(r.x1, img.width); ++x) {
            const unsigned char* p = img.at(x, y);
            for (const Rgba& c : colours) {
                if (near(p, c, tolerance)) {
                    ++s.count;
                    s.sumX += x;
                    s.sumY += y;
                    break;
                }
            }
        }
    }
    return s;
}

[[noreturn]] void usage() {
    std::fprintf(stderr, "usage: orca_png_check FILE --size WxH [--min-colours N] "
                         "[--min-pixels CLASS N]... [--above CLASS CLASS]... "
                         "[--left-of CLASS CLASS]... [--region X,Y,W,H] [--tolerance T] "
                         "[--print-colours N] [--theme dark|light]\n");
    std::exit(2);
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 4) usage();
    const std::string file = argv[1];
    int wantW = 0;
    int wantH = 0;
    long long minColours = 2;
    std::vector<std::pair<std::string, long long>> minPixels;
    std::vector<std::pair<std::string, std::string>> above;
    std::vector<std::pair<std::string, std::string>> leftOf;
    Region region;
    int tolerance = 0;
    int printColours = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) usage();
            return argv[++i];
        };
        if (a == "--size") {
            if (std::sscanf(next().c_str(), "%dx%d", &wantW, &wantH) != 2) usage();
        } else if (a == "--min-colours") {
            minColours = std::atoll(next().c_str());
        } else if (a == "--min-pixels") {
            const std::string cls = next();
            minPixels.emplace_back(cls, std::atoll(next().c_str()));
        } else if (a == "--above") {
            const std::string upper = next();
            above.emplace_back(upper, next());
        } else if (a == "--left-of") {
            const std::string left = next();
            leftOf.emplace_back(left, next());
        } else if (a == "--region") {
            int w = 0;
            int h = 0;
            if (std::sscanf(next().c_str(), "%d,%d,%d,%d", &region.x0, &region.y0, &w, &h) != 4 ||
                w <= 0 || h <= 0)
                usage();
            region.x1 = region.x0 + w;
            region.y1 = region.y0 + h;
        } else if (a == "--tolerance") {
            tolerance = std::atoi(next().c_str());
        } else if (a == "--print-colours") {
            printColours = std::atoi(next().c_str());
        } else if (a == "--theme") {
            const std::string t = next();
            if (t != "dark" && t != "light") usage();
            gPalette = t == "light" ? &orca::ui::kLightPalette : &orca::ui::kDarkPalette;
        } else {
            usage();
        }
    }

    Image img;
    int comp = 0;
    unsigned char* data = stbi_load(file.c_str(), &img.width, &img.height, &comp, 3);
    if (!data) {
        std::fprintf(stderr, "FAIL: cannot read %s as an image: %s\n", file.c_str(),
                     stbi_failure_reason());
        return 1;
    }
    img.rgb.assign(data, data + 3 * static_cast<std::size_t>(img.width) *
                                    static_cast<std::size_t>(img.height));
    stbi_image_free(data);

    int failures = 0;
    auto check = [&](bool ok, const std::string& what) {
        std::printf("%s: %s\n", ok ? "ok" : "FAIL", what.c_str());
        if (!ok) ++failures;
    };

    check(img.width == wantW && img.height == wantH,
          "size " + std::to_string(img.width) + "x" + std::to_string(img.height) + " (want " +
              std::to_string(wantW) + "x" + std::to_string(wantH) + ")");

    std::set<unsigned> distinct;
    for (std::size_t i = 0; i + 2 < img.rgb.size(); i += 3)
        distinct.insert(unsigned(img.rgb[i]) << 16 | unsigned(img.rgb[i + 1]) << 8 |
                        unsigned(img.rgb[i + 2]));
    check(static_cast<long long>(distinct.size()) >= minColours,
          std::to_string(distinct.size()) +
              " distinct colours (want >= " + std::to_string(minColours) + ")");

    if (printColours > 0) {
        std::map<unsigned, long long> counts;
        for (int y = std::max(region.y0, 0); y < std::min(region.y1, img.height); ++y)
            for (int x = std::max(region.x0, 0); x < std::min(region.x1, img.width); ++x) {
                const unsigned char* p = img.at(x, y);
                ++counts[unsigned(p[0]) << 16 | unsigned(p[1]) << 8 | unsigned(p[2])];
            }
        std::vector<std::pair<long long, unsigned>> sorted;
        for (const auto& [c, n] : counts)
            sorted.emplace_back(n, c);
        std::sort(sorted.rbegin(), sorted.rend());
        for (std::size_t k = 0; k < sorted.size() && k < static_cast<std::size_t>(printColours);
             ++k)
            std::printf("colour (%u, %u, %u): %lld pixels\n", sorted[k].second >> 16,
                        (sorted[k].second >> 8) & 255u, sorted[k].second & 255u, sorted[k].first);
    }

    std::map<std::string, Stats> cache;
    auto stats = [&](const std::string& cls) -> const Stats& {
        auto it = cache.find(cls);
        if (it == cache.end()) it = cache.emplace(cls, measure(img, cls, region, tolerance)).first;
        return it->second;
    };
    for (const auto& [cls, n] : minPixels) {
        const long long got = stats(cls).count;
        check(got >= n,
              std::to_string(got) + " '" + cls + "' pixels (want >= " + std::to_string(n) + ")");
    }
    auto where = [&](const std::string& cls, bool vertical, double& out) {
        const Stats& s = stats(cls);
        if (s.count == 0) {
            check(false, "no '" + cls + "' pixels to locate");
            return false;
        }
        out = vertical ? s.meanY() : s.meanX();
        return true;
    };
    for (const auto& [upper, lower] : above) {
        double yu = 0.0;
        double yl = 0.0;
        if (where(upper, true, yu) && where(lower, true, yl))
            check(yu < yl, "'" + upper + "' (mean row " + std::to_string(yu) + ") above '" + lower +
                               "' (mean row " + std::to_string(yl) + ")");
    }
    for (const auto& [left, right] : leftOf) {
        double xl = 0.0;
        double xr = 0.0;
        if (where(left, false, xl) && where(right, false, xr))
            check(xl < xr, "'" + left + "' (mean column " + std::to_string(xl) + ") left of '" +
                               right + "' (mean column " + std::to_string(xr) + ")");
    }
    return failures == 0 ? 0 : 1;
}
