// Layout that fits any screen (issue 26): new windows beside the others, shrunk to the room
// left (ui/window_placement.hpp); the part of the view beside a floating window; the lesson
// window's controls and the velocity panel's plot in small windows at large UI scales
// (headless ImGui).
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "orca/simulator.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/lesson_panel.hpp"
#include "orca/ui/velocity_panel.hpp"
#include "orca/ui/window_placement.hpp"

#include "imgui_test_context.hpp"

using namespace orca;
using namespace orca::ui;

namespace {

bool overlaps(const Rect& a, const Rect& b) {
    return std::min(a.max.x, b.max.x) > std::max(a.min.x, b.min.x) &&
           std::min(a.max.y, b.max.y) > std::max(a.min.y, b.min.y);
}

bool inside(const Rect& inner, const Rect& outer) {
    return inner.min.x >= outer.min.x - 1e-9 && inner.min.y >= outer.min.y - 1e-9 &&
           inner.max.x <= outer.max.x + 1e-9 && inner.max.y <= outer.max.y + 1e-9;
}

// The app's windows at a display size and UI scale (fs: the font size): the lesson window at
// the left (30 font sizes, at most 34 % of the width), the velocity panel docked at the right
// third, over the world view between the menu bar and the status bar.
struct Screen {
    Rect view;
    Rect lesson;
    Rect velocity;
};

Screen screen(double w, double h, double scale) {
    const double fs = 13.0 * scale;
    const double top = fs + 8.0;
    const double bottom = h - (fs + 8.0) * 2.0; // status bar and timeline
    Screen s;
    s.view = {{0.0, top}, {w, bottom}};
    const double lessonW = std::min(30.0 * fs, std::floor(w * 0.34));
    s.lesson = {{10.0, top + 10.0}, {10.0 + lessonW, bottom - 10.0}};
    s.velocity = {{std::floor(w * 2.0 / 3.0), top}, {w, bottom}};
    return s;
}

} // namespace

TEST(WindowLayout, APanelOpenedWithALessonGoesBesideItAtEveryScreen) {
    struct Case {
        double w, h, scale;
    };
    for (const Case c : {Case{1280, 720, 1.75}, Case{1920, 1080, 2.5}, Case{1280, 720, 1.0},
                         Case{3840, 2160, 2.5}, Case{1280, 800, 1.0}}) {
        const Screen s = screen(c.w, c.h, c.scale);
        const Rect taken[] = {s.lesson, s.velocity};
        // The parameters panel: 340 x 480 at 100 %.
        const Vec2 want{340.0 * c.scale, 480.0 * c.scale};
        const Vec2 minSize{16.0 * 13.0 * c.scale, 10.0 * 13.0 * c.scale};
        const Rect r =
            chooseWindowRect(s.view, want, minSize, CrowdDensity::build(s.view, {}), taken);
        SCOPED_TRACE(std::to_string(c.w) + "x" + std::to_string(c.h) + " @" +
                     std::to_string(c.scale));
        EXPECT_FALSE(overlaps(r, s.lesson));
        EXPECT_FALSE(overlaps(r, s.velocity));
        EXPECT_TRUE(inside(r, s.view));
        EXPECT_GE(r.size().x, minSize.x - 1e-9);
        EXPECT_GE(r.size().y, minSize.y - 1e-9);
    }
}

TEST(WindowLayout, AWindowThatFitsKeepsItsSizeAndAvoidsTheCrowd) {
    const Rect view{{0, 20}, {1200, 760}};
    std::vector<Vec2> agents;
    for (int i = 0; i < 100; ++i)
        agents.push_back({50.0 + (i % 10) * 30.0, 100.0 + (i / 10) * 50.0}); // the left part
    const CrowdDensity crowd = CrowdDensity::build(view, agents);
    const Rect taken[] = {{{800, 20}, {1200, 760}}};
    const Rect r = chooseWindowRect(view, {300, 250}, {200, 150}, crowd, taken);
    EXPECT_DOUBLE_EQ(r.size().x, 300.0);
    EXPECT_DOUBLE_EQ(r.size().y, 250.0);
    EXPECT_FALSE(overlaps(r, taken[0]));
    EXPECT_DOUBLE_EQ(crowd.covered(r), 0.0);
}

TEST(WindowLayout, WindowsOpenedOneAfterAnotherNeverCoverEachOther) {
    const Rect view{{0, 20}, {1280, 680}};
    const CrowdDensity none = CrowdDensity::build(view, {});
    std::vector<Rect> open;
    for (int k = 0; k < 4; ++k) {
        const Rect r = chooseWindowRect(view, {400, 300}, {250, 150}, none, open);
        for (const Rect& o : open)
            EXPECT_FALSE(overlaps(r, o)) << "window " << k;
        EXPECT_TRUE(inside(r, view));
        open.push_back(r);
    }
}

TEST(WindowLayout, ShrinksIntoTheGapBetweenWindows) {
    const Rect view{{0, 40}, {1280, 640}};
    const Rect taken[] = {{{10, 50}, {450, 630}}, {{853, 40}, {1280, 640}}};
    const Rect r =
        chooseWindowRect(view, {700, 800}, {300, 200}, CrowdDensity::build(view, {}), taken);
    EXPECT_FALSE(overlaps(r, taken[0]));
    EXPECT_FALSE(overlaps(r, taken[1]));
    EXPECT_GE(r.size().x, 300.0);
    EXPECT_LE(r.size().x, 853.0 - 450.0);
    EXPECT_LE(r.size().y, 600.0); // never taller than the view
}

TEST(WindowLayout, NoRoomAtAllStillStaysInsideTheView) {
    const Rect view{{0, 40}, {800, 600}};
    const Rect taken[] = {{{0, 40}, {800, 600}}};
    const Rect r =
        chooseWindowRect(view, {2000, 2000}, {300, 200}, CrowdDensity::build(view, {}), taken);
    EXPECT_TRUE(inside(r, view));
}

TEST(WindowLayout, LargestPartBesideAFloatingWindow) {
    const Rect view{{0, 30}, {1280, 740}};
    // The hint bar across the top: the view below it.
    const Rect hint{{300, 38}, {980, 70}};
    const Rect below = largestPartBeside(view, hint);
    EXPECT_DOUBLE_EQ(below.min.y, 70.0);
    EXPECT_DOUBLE_EQ(below.min.x, 0.0);
    EXPECT_DOUBLE_EQ(below.max.x, 1280.0);
    // Help down the left side: the view right of it.
    const Rect help{{10, 80}, {470, 730}};
    const Rect right = largestPartBeside(below, help);
    EXPECT_DOUBLE_EQ(right.min.x, 470.0);
    EXPECT_DOUBLE_EQ(right.min.y, 70.0);
    // A window elsewhere leaves the view as it is.
    EXPECT_DOUBLE_EQ(largestPartBeside(view, {{0, 800}, {100, 900}}).max.y, 740.0);
}

TEST(WindowLayout, LessonControlsStayInsideASmallWindowAtALargeScale) {
    orca::testing::ImGuiContextScope imgui;
    ImGui::GetIO().DisplaySize = {1280.0f, 720.0f};
    ImGui::GetIO().FontGlobalScale = 1.75f;
    std::string longText;
    for (int i = 0; i < 200; ++i)
        longText += "word ";
    LessonPanelInput in;
    in.lessonTitle = "A lesson";
    in.pageTitle = "A page";
    in.text = longText;
    in.page = 1;
    in.pages = 5;
    in.hasTask = true;
    in.taskText = longText; // a task longer than the window
    in.taskProgress = "progress";
    in.docked = true;
    in.pos = {10.0f, 40.0f};
    in.size = {430.0f, 520.0f};
    bool open = true;
    LessonPanelOutput out;
    for (int f = 0; f < 3; ++f) {
        ImGui::NewFrame();
        out = drawLessonPanel(in, &open);
        ImGui::Render();
    }
    const float bottom = out.windowPos.y + out.windowSize.y;
    EXPECT_GT(out.controlsMax.y, out.controlsMin.y);
    EXPECT_LE(out.controlsMax.y, bottom) << "the page buttons are cut off";
    EXPECT_GE(out.controlsMin.y, out.windowPos.y);
}

TEST(WindowLayout, VelocityPlotKeepsItsSizeOrSaysWhyNot) {
    orca::testing::ImGuiContextScope imgui;
    ImGui::GetIO().DisplaySize = {1280.0f, 720.0f};
    ImGui::GetIO().FontGlobalScale = 1.75f;
    Simulator sim;
    AgentDef d;
    d.velocity = {1.0, 0.0};
    d.prefVelocity = {1.0, 0.0};
    const AgentId a = sim.addAgent(d);
    for (int i = 0; i < 6; ++i) { // neighbours: a long summary above the plot
        d.position = {3.0, -3.0 + i * 1.2};
        d.velocity = {-1.0, 0.0};
        d.prefVelocity = {-1.0, 0.0};
        sim.addAgent(d);
    }
    const ExplainRecord rec = sim.explain(a);
    OverlayLayers layers;
    ConstructionState construction;
    construction.active = true; // the phase buttons and the caption too
    VelocityPanel panel;
    bool open = true;
    auto draw = [&](ImVec2 size) {
        for (int f = 0; f < 4; ++f) {
            ImGui::NewFrame();
            ImGui::SetNextWindowPos({850.0f, 40.0f}, ImGuiCond_Always);
            ImGui::SetNextWindowSize(size, ImGuiCond_Always);
            panel.draw(&rec, layers, {}, construction, &open);
            ImGui::Render();
        }
    };
    draw({427.0f, 380.0f}); // a short panel at 175 %: the text alone would fill it
    ASSERT_FALSE(panel.plotRect().isEmpty()) << panel.plotReason();
    EXPECT_GE(panel.plotRect().size().x, VelocityPanel::kMinPlotSide);
    EXPECT_GE(panel.plotRect().size().y, VelocityPanel::kMinPlotSide);
    EXPECT_LE(panel.plotRect().max.y, 40.0 + 380.0);
    EXPECT_TRUE(panel.plotReason().empty());
    draw({140.0f, 200.0f}); // too narrow for any plot: the panel says so
    EXPECT_TRUE(panel.plotRect().isEmpty());
    EXPECT_NE(panel.plotReason().find("150"), std::string::npos) << panel.plotReason();
}
