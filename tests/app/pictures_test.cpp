// Pictures to share: where save dialogs propose files (defaultSaveDir), the GIF / PNG-sequence
// recorder (decoded back with giflib) and the SVG writer (one path per half-plane, construction
// and Solve mode as groups, each view cropped to its content).
#include <gtest/gtest.h>

#include "app/svg_agents.hpp"
#include "common/files.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <csignal>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <gif_lib.h>

#include "orca/simulator.hpp"
#include "orca/ui/explain_text.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/svg_export.hpp"

#include "paths.hpp"
#include "pictures/frame_recorder.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

using orca::test::TempDir;

void writeText(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p) << text;
}

} // namespace

// ---- defaultSaveDir ---------------------------------------------------------------------------

TEST(DefaultSaveDir, SceneFolderFirst) {
    TempDir t;
    const fs::path scene = t.path() / "scenes" / "mine.json";
    writeText(scene, "{}");
    UserDirsEnv env;
    env.home = t.path() / "home";
    fs::create_directories(env.home / "Pictures");
    EXPECT_EQ(defaultSaveDir(scene, env), scene.parent_path());
}

TEST(DefaultSaveDir, PicturesFolderWithoutScene) {
    TempDir t;
    UserDirsEnv env;
    env.home = t.path() / "home";
    fs::create_directories(env.home / "Pictures");
    EXPECT_EQ(defaultSaveDir({}, env), env.home / "Pictures");
}

TEST(DefaultSaveDir, UserDirsFileAndEnvironment) {
    TempDir t;
    UserDirsEnv env;
    env.home = t.path() / "home";
    fs::create_directories(env.home / "Bilder");
    fs::create_directories(env.home / "Pictures");
    // xdg-user-dirs' file wins over ~/Pictures ...
    writeText(env.home / ".config" / "user-dirs.dirs",
              "# written by xdg-user-dirs-update\nXDG_DESKTOP_DIR=\"$HOME/Desktop\"\n"
              "XDG_PICTURES_DIR=\"$HOME/Bilder\"\n");
    EXPECT_EQ(userPicturesDir(env), env.home / "Bilder");
    // ... and $XDG_PICTURES_DIR over the file.
    fs::create_directories(t.path() / "shots");
    env.xdgPicturesDir = (t.path() / "shots").string();
    EXPECT_EQ(defaultSaveDir({}, env), t.path() / "shots");
    // A pictures folder that does not exist is skipped; "$HOME" itself means unset.
    env.xdgPicturesDir = (t.path() / "missing").string();
    EXPECT_EQ(userPicturesDir(env), env.home / "Bilder");
    writeText(env.home / ".config" / "user-dirs.dirs", "XDG_PICTURES_DIR=\"$HOME/\"\n");
    env.xdgPicturesDir.clear();
    EXPECT_EQ(userPicturesDir(env), env.home / "Pictures");
}

TEST(DefaultSaveDir, HomeWithoutPictures) {
    TempDir t;
    UserDirsEnv env;
    env.home = t.path() / "home";
    fs::create_directories(env.home);
    EXPECT_EQ(defaultSaveDir({}, env), env.home);
    // A scene without a file ("New") or in a folder that is gone: the same.
    EXPECT_EQ(defaultSaveDir(t.path() / "gone" / "x.json", env), env.home);
}

TEST(DefaultSaveDir, NeverTheWorkingDirectory) {
    TempDir t;
    const fs::path cwd = fs::current_path();
    fs::current_path(t.path());
    UserDirsEnv env; // no home at all
    const fs::path dir = defaultSaveDir({}, env);
    fs::current_path(cwd);
    EXPECT_NE(dir, t.path());
    EXPECT_FALSE(dir.empty());
}

// ---- FrameRecorder ----------------------------------------------------------------------------

namespace {

constexpr int kW = 64;
constexpr int kH = 40;

// Dark background with a blue square at x = 4 + 6k.
std::vector<unsigned char> frame(int k) {
    std::vector<unsigned char> rgb(kW * kH * 3);
    for (int i = 0; i < kW * kH; ++i) {
        rgb[3 * i] = 24;
        rgb[3 * i + 1] = 26;
        rgb[3 * i + 2] = 31;
    }
    for (int y = 10; y < 20; ++y)
        for (int x = 4 + 6 * k; x < 14 + 6 * k && x < kW; ++x) {
            unsigned char* p = &rgb[3 * (y * kW + x)];
            p[0] = 64;
            p[1] = 140;
            p[2] = 236;
        }
    return rgb;
}

} // namespace

TEST(FrameRecorder, GifDecodesWithDelaysAndSubRectangles) {
    TempDir t;
    const fs::path out = t.path() / "run.gif";
    FrameRecorder rec;
    std::string error;
    ASSERT_TRUE(rec.start(out, kW, kH, error)) << error;
    // Five moving frames 0.1 s apart, then the last one repeated (merged, not a new frame).
    for (int k = 0; k < 5; ++k)
        ASSERT_TRUE(rec.addFrame(frame(k), 0.1 * k, error)) << error;
    ASSERT_TRUE(rec.addFrame(frame(4), 0.5, error)) << error;
    EXPECT_FALSE(fs::exists(out)) << "written only when finished";
    ASSERT_TRUE(rec.finish(0.7, error)) << error;
    EXPECT_EQ(rec.framesWritten(), 5u);
    EXPECT_EQ(rec.bytes(), fs::file_size(out));
    EXPECT_EQ(t.listing(), "run.gif;"); // no temporary file left

    int code = 0;
    GifFileType* gif = DGifOpenFileName(out.c_str(), &code);
    ASSERT_NE(gif, nullptr) << GifErrorString(code);
    ASSERT_EQ(DGifSlurp(gif), GIF_OK);
    EXPECT_EQ(gif->SWidth, kW);
    EXPECT_EQ(gif->SHeight, kH);
    ASSERT_EQ(gif->ImageCount, 5);
    int total = 0;
    for (int k = 0; k < gif->ImageCount; ++k) {
        GraphicsControlBlock gcb{};
        ASSERT_EQ(DGifSavedExtensionToGCB(gif, k, &gcb), GIF_OK);
        total += gcb.DelayTime;
        const GifImageDesc& d = gif->SavedImages[k].ImageDesc;
        if (k == 0) {
            EXPECT_EQ(d.Width, kW);
            EXPECT_EQ(gcb.TransparentColor, NO_TRANSPARENT_COLOR);
        } else {
            // Only the rows and columns the square moved through.
            EXPECT_EQ(d.Top, 10);
            EXPECT_EQ(d.Height, 10);
            EXPECT_LE(d.Width, 16);
            EXPECT_NE(gcb.TransparentColor, NO_TRANSPARENT_COLOR);
        }
    }
    EXPECT_EQ(total, 70); // 0.7 s in centiseconds: 10, 10, 10, 10, then 30 for the last
    // The background and the agent colour are exact palette entries.
    const GifColorType& bg = gif->SColorMap->Colors[gif->SavedImages[0].RasterBits[0]];
    EXPECT_EQ(bg.Red, 24);
    EXPECT_EQ(bg.Green, 26);
    EXPECT_EQ(bg.Blue, 31);
    const GifColorType& sq = gif->SColorMap->Colors[gif->SavedImages[0].RasterBits[12 * kW + 5]];
    EXPECT_EQ(sq.Red, 64);
    EXPECT_EQ(sq.Green, 140);
    EXPECT_EQ(sq.Blue, 236);
    DGifCloseFile(gif, &code);
}

TEST(FrameRecorder, PngSequenceAndAbandon) {
    TempDir t;
    EXPECT_EQ(FrameRecorder::formatFor("a/run.PNG"), FrameRecorder::Format::PngSequence);
    EXPECT_EQ(FrameRecorder::formatFor("a/run.gif"), FrameRecorder::Format::Gif);
    EXPECT_EQ(FrameRecorder::sequencePath("a/run.png", 7), fs::path("a/run_0007.png"));
    FrameRecorder rec;
    std::string error;
    ASSERT_TRUE(rec.start(t.path() / "seq.png", kW, kH, error)) << error;
    for (int k = 0; k < 3; ++k)
        ASSERT_TRUE(rec.addFrame(frame(k), 0.1 * k, error)) << error;
    ASSERT_TRUE(rec.finish(0.3, error)) << error;
    for (int k = 0; k < 3; ++k)
        EXPECT_TRUE(fs::exists(FrameRecorder::sequencePath(t.path() / "seq.png", k)));

    // An abandoned GIF leaves nothing behind; a frame of the wrong size is refused.
    const fs::path gif = t.path() / "gone.gif";
    ASSERT_TRUE(rec.start(gif, kW, kH, error)) << error;
    EXPECT_FALSE(rec.addFrame(std::vector<unsigned char>(10), 0.0, error));
    ASSERT_TRUE(rec.addFrame(frame(0), 0.0, error)) << error;
    rec.abandon();
    EXPECT_FALSE(fs::exists(gif));
    EXPECT_EQ(t.listing(), "seq_0000.png;seq_0001.png;seq_0002.png;"); // nothing else left

    // A read-only file is not replaced, and a missing folder is named with the reason.
    const fs::path locked = t.path() / "locked.gif";
    { std::ofstream(locked) << "keep"; }
    fs::permissions(locked, fs::perms::owner_read);
    EXPECT_FALSE(rec.start(locked, kW, kH, error));
    EXPECT_NE(error.find("read-only"), std::string::npos) << error;
    EXPECT_FALSE(rec.start(t.path() / "missing" / "x.gif", kW, kH, error));
    EXPECT_NE(error.find("No such file or directory"), std::string::npos) << error;
    fs::permissions(locked, fs::perms::owner_all);
}

// A PNG sequence that fails part-way (a full disk: simulated with a file-size limit, EFBIG, as
// tests/cli/outputs_cli_test.cpp does) keeps the frames already written, each a whole picture,
// and its message says how many, which and where.
TEST(FrameRecorder, PngSequenceCutShortSaysWhatIsKept) {
    TempDir t;
    // Two plain frames compress to a few hundred bytes; a frame of noise cannot be smaller than
    // its 7,680 bytes of pixels, so a 4 KiB limit stops the recording at the third frame.
    std::vector<unsigned char> noise(kW * kH * 3);
    std::uint32_t x = 12345;
    for (unsigned char& c : noise) {
        x = x * 1664525u + 1013904223u;
        c = static_cast<unsigned char>(x >> 24);
    }
    FrameRecorder rec;
    std::string error;
    const fs::path out = t.path() / "run.png";
    ASSERT_TRUE(rec.start(out, kW, kH, error)) << error;
    ASSERT_TRUE(rec.addFrame(frame(0), 0.0, error)) << error;
    ASSERT_TRUE(rec.addFrame(frame(1), 0.1, error)) << error;

    struct rlimit old {};
    ASSERT_EQ(::getrlimit(RLIMIT_FSIZE, &old), 0);
    const auto oldSignal = std::signal(SIGXFSZ, SIG_IGN);
    struct rlimit small = old;
    small.rlim_cur = 4096;
    ASSERT_EQ(::setrlimit(RLIMIT_FSIZE, &small), 0);
    const bool ok = rec.addFrame(noise, 0.2, error);
    ::setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldSignal);

    EXPECT_FALSE(ok);
    EXPECT_NE(error.find("File too large"), std::string::npos) << error; // the system's reason
    EXPECT_NE(error.find("run_0002.png"), std::string::npos) << error;   // the frame that failed
    EXPECT_NE(error.find("the 2 frames written before it are kept: run_0000.png to run_0001.png "
                         "in " +
                         t.path().string()),
              std::string::npos)
        << error;
    rec.abandon();
    EXPECT_EQ(t.listing(), "run_0000.png;run_0001.png;"); // no partial frame

    // Failing at the first frame keeps nothing and says so.
    ASSERT_TRUE(rec.start(t.path() / "sub" / "x.png", kW, kH, error)) << error;
    EXPECT_FALSE(rec.addFrame(frame(0), 0.0, error));
    EXPECT_NE(error.find("no frame of this recording was written"), std::string::npos) << error;
}

// ---- SVG --------------------------------------------------------------------------------------

namespace {

// Three agents around A (agent 0): A's record has two agent lines.
struct ThreeAgents {
    Simulator sim;
    AgentId a;
    ThreeAgents() {
        const auto def = orca::test::svgAgent;
        a = sim.addAgent(def({0.0, 0.0}, {1.0, 0.0}));
        sim.addAgent(def({3.0, 0.2}, {-1.0, 0.0}));
        sim.addAgent(def({0.1, 3.0}, {0.0, -1.0}));
    }
};

std::size_t countOf(const std::string& s, const std::string& needle, std::size_t from = 0,
                    std::size_t to = std::string::npos) {
    std::size_t n = 0;
    for (auto k = s.find(needle, from); k != std::string::npos && k < to; k = s.find(needle, k + 1))
        ++n;
    return n;
}

} // namespace

TEST(SvgExport, OnePathPerHalfPlaneInEachView) {
    ThreeAgents s;
    const ExplainRecord rec = s.sim.explain(s.a);
    ASSERT_EQ(rec.lines.size(), 2u);

    ui::SvgPicture pic = orca::test::svgPicture(s.sim, rec);
    pic.title = "a <test> & more";
    const std::string svg = ui::renderSvg(pic);

    const auto world = svg.find("id=\"world-view\"");
    const auto panelAt = svg.find("id=\"velocity-panel\"");
    ASSERT_NE(world, std::string::npos);
    ASSERT_NE(panelAt, std::string::npos);
    EXPECT_EQ(countOf(svg, "class=\"half-plane\"", world, panelAt), 2u);
    EXPECT_EQ(countOf(svg, "class=\"half-plane\"", panelAt, svg.size()), 2u);
    EXPECT_EQ(countOf(svg, "class=\"agent\"", 0, svg.size()), 3u);
    EXPECT_NE(svg.find("a &lt;test&gt; &amp; more"), std::string::npos);
    EXPECT_EQ(svg.rfind("</svg>\n"), svg.size() - 7);
}

namespace {

// The root element's viewBox.
ui::Rect viewBox(const std::string& svg) {
    const auto at = svg.find("viewBox=\"");
    EXPECT_NE(at, std::string::npos);
    double x = 0.0, y = 0.0, w = 0.0, h = 0.0;
    EXPECT_EQ(std::sscanf(svg.c_str() + at + 9, "%lf %lf %lf %lf", &x, &y, &w, &h), 4);
    return {{x, y}, {x + w, y + h}};
}

} // namespace

TEST(SvgExport, ConstructionModeIsAGroupInBothViews) {
    ThreeAgents s;
    const ExplainRecord rec = s.sim.explain(s.a);
    ASSERT_EQ(rec.lines.size(), 2u);
    ui::SvgPicture pic = orca::test::svgPicture(s.sim, rec);
    std::string svg = ui::renderSvg(pic);
    EXPECT_EQ(countOf(svg, "class=\"construction\""), 0u);

    for (int phase = 0; phase < ui::ConstructionState::kPhases; ++phase) {
        ui::ConstructionState c;
        c.active = true;
        c.neighbor = 1;
        c.phase = phase;
        pic.construction = ui::constructionGeometry(rec, c);
        ASSERT_TRUE(pic.construction);
        svg = ui::renderSvg(pic);
        const auto panelAt = svg.find("id=\"velocity-panel\"");
        ASSERT_NE(panelAt, std::string::npos);
        // One group in each view, for the line the step shows; the panel shows only the step.
        EXPECT_EQ(countOf(svg,
                          "class=\"construction\" data-line=\"1\" data-phase=\"" +
                              std::to_string(phase) + "\"",
                          0, panelAt),
                  1u);
        EXPECT_EQ(countOf(svg, "class=\"construction\"", panelAt), 1u);
        EXPECT_EQ(countOf(svg, "class=\"half-plane\"", panelAt), 0u);
        // The world view's other overlays stay, faded.
        EXPECT_EQ(countOf(svg, "class=\"faded\"", 0, panelAt), 1u);
        EXPECT_EQ(countOf(svg, "class=\"half-plane\"", 0, panelAt), 2u);
        // The panel's caption and legend are construction mode's.
        EXPECT_NE(svg.find(ui::panelSpaceCaption(&*pic.construction), panelAt), std::string::npos);
        for (const ui::LegendItem& it : ui::constructionLegend(*pic.construction))
            EXPECT_NE(svg.find(">" + it.text + "</text>", panelAt), std::string::npos) << it.text;
        // Phase 2 draws the half-plane through v_A + share·u: one line in each view.
        EXPECT_EQ(countOf(svg, "class=\"construction-line\""), phase == 2 ? 2u : 0u);
    }
}

TEST(SvgExport, SolveModeIsAGroupInThePanel) {
    ThreeAgents s;
    ExplainOptions o;
    o.lpTrace = true;
    const ExplainRecord rec = s.sim.explain(s.a, o);
    ASSERT_TRUE(rec.lpTrace);
    ui::SvgPicture pic = orca::test::svgPicture(s.sim, rec);
    const int steps = ui::solveStepCount(rec);
    ASSERT_GE(steps, 3); // start, a line, result
    for (int step = 0; step < steps; ++step) {
        pic.solve = ui::solveFrame(rec, step);
        const std::string svg = ui::renderSvg(pic);
        const auto panelAt = svg.find("id=\"velocity-panel\"");
        ASSERT_NE(panelAt, std::string::npos);
        EXPECT_EQ(countOf(svg, "class=\"solve\" data-step=\"" + std::to_string(step) + "\""), 1u);
        EXPECT_LT(panelAt, svg.find("class=\"solve\""));
        EXPECT_EQ(countOf(svg, "class=\"half-plane\"", panelAt), 0u); // the step, not the overlays
        EXPECT_EQ(countOf(svg, "class=\"line-under-test\""), pic.solve->line >= 0 ? 1u : 0u);
        EXPECT_EQ(countOf(svg, "class=\"v-new\"", panelAt),
                  pic.solve->kind == ui::SolveStepKind::Result ? 1u : 0u);
        for (const ui::LegendItem& it : ui::solveLegend())
            EXPECT_NE(svg.find(">" + it.text + "</text>", panelAt), std::string::npos) << it.text;
    }
}

TEST(SvgExport, EachViewIsCroppedToItsContentWithoutChrome) {
    ThreeAgents s;
    const ExplainRecord rec = s.sim.explain(s.a);
    ui::SvgPicture pic = orca::test::svgPicture(s.sim, rec);
    // Zoomed out: the scene fills a small part of the world view.
    pic.camera.setScale(pic.camera.scale() * 0.3);

    pic.view = ui::PictureView::World;
    std::string svg = ui::renderSvg(pic);
    ui::Rect box = viewBox(svg);
    const ui::Rect& vp = pic.camera.viewport();
    EXPECT_TRUE(vp.contains(box.min) && vp.contains(box.max));
    EXPECT_LT(box.size().x, 0.8 * vp.size().x); // cropped, not the whole view
    for (const Vec2 p : s.sim.positions())      // every agent inside, with its radius
        EXPECT_TRUE(box.expanded(-0.5 * pic.camera.scale()).contains(pic.camera.worldToScreen(p)));
    EXPECT_EQ(svg.find("id=\"velocity-panel\""), std::string::npos);
    EXPECT_NE(svg.find("data-view=\"world\""), std::string::npos);

    pic.view = ui::PictureView::Velocity;
    svg = ui::renderSvg(pic);
    box = viewBox(svg);
    EXPECT_EQ(box.min, pic.panel->canvas.min);
    EXPECT_EQ(box.max, pic.panel->canvas.max);
    EXPECT_EQ(svg.find("id=\"world-view\""), std::string::npos);
    EXPECT_NE(svg.find("class=\"legend\""), std::string::npos); // inside the figure
    // No title bar, no summary lines.
    EXPECT_EQ(svg.find(std::string(">") + ui::kVelocityPanelTitle + "<"), std::string::npos);
    for (const std::string& line : ui::summaryLines(rec))
        EXPECT_EQ(svg.find(">" + line + "<"), std::string::npos) << line;

    // Both: the two together, no band above the canvas where the window's title was.
    pic.view = ui::PictureView::Both;
    svg = ui::renderSvg(pic);
    box = viewBox(svg);
    const ui::Rect world = [&] {
        ui::SvgPicture w = pic;
        w.view = ui::PictureView::World;
        return ui::pictureViewRect(w);
    }();
    EXPECT_NEAR(box.min.x, world.min.x, 0.01); // (two decimals in the file)
    EXPECT_NEAR(box.max.x, pic.panel->canvas.max.x, 0.01);
    EXPECT_NEAR(box.min.y, std::min(world.min.y, pic.panel->canvas.min.y), 0.01);
    EXPECT_GT(box.min.y, pic.frame.min.y);
}

TEST(SvgExport, ViewNames) {
    for (const ui::PictureView v :
         {ui::PictureView::Both, ui::PictureView::World, ui::PictureView::Velocity})
        EXPECT_EQ(ui::parsePictureView(ui::pictureViewName(v)), v);
    EXPECT_FALSE(ui::parsePictureView("panel"));
    EXPECT_FALSE(ui::parsePictureView("World"));
    EXPECT_FALSE(ui::parsePictureView(""));
    EXPECT_EQ(ui::pictureViewNames(), "both, world, velocity");
}
