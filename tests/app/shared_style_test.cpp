// Unit tests of the choices the screen and the SVG export share (grid_style.hpp,
// element_colours.hpp, label_style.hpp): grid steps and axis values, label texts and which
// items get one, the legend of the normal overlays — and that the SVG is written from them.

#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "app/svg_agents.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/element_colours.hpp"
#include "orca/ui/grid_style.hpp"
#include "orca/ui/label_style.hpp"
#include "orca/ui/svg_export.hpp"

using namespace orca;

namespace {

// "#rrggbb", as the SVG writes colours.
std::string hexOf(ui::Rgba c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}

// `text` as the SVG writes it (the legend's "v -> v+½u" has a '>').
std::string xml(const std::string& text) {
    std::string out;
    for (const char c : text) {
        if (c == '>')
            out += "&gt;";
        else if (c == '<')
            out += "&lt;";
        else if (c == '&')
            out += "&amp;";
        else
            out += c;
    }
    return out;
}

} // namespace

TEST(GridStyle, NiceStepsAndLineKinds) {
    // World: minor lines at least 24 screen units apart, major on the next power of ten.
    const ui::GridSteps w = ui::worldGridSteps(10.0); // 2.4 m -> 5 m, major 10 m
    EXPECT_DOUBLE_EQ(w.minor, 5.0);
    EXPECT_DOUBLE_EQ(w.major, 10.0);
    // Panel: minor at least 16 screen units apart, major the next coarser nice step.
    const ui::GridSteps p = ui::panelGridSteps(100.0); // 0.16 -> 0.2, major 1
    EXPECT_DOUBLE_EQ(p.minor, 0.2);
    EXPECT_DOUBLE_EQ(p.major, 1.0);
    EXPECT_DOUBLE_EQ(ui::panelGridSteps(40.0).major, 1.0); // 0.4 -> 0.5, major 1 (x2 after 5)
    EXPECT_EQ(ui::gridLineAt(0.0, p), ui::GridLine::Axis);
    EXPECT_EQ(ui::gridLineAt(2.0, p), ui::GridLine::Major);
    EXPECT_EQ(ui::gridLineAt(0.4, p), ui::GridLine::Minor);
    EXPECT_EQ(ui::gridColour(ui::GridLine::Axis, ui::GridView::World).a, ui::palette().kGridAxis.a);
    EXPECT_EQ(ui::gridColour(ui::GridLine::Axis, ui::GridView::Panel).a, 110);
}

TEST(GridStyle, AxisValuesSkipTheOriginAndKeepTheirDistance) {
    const ui::GridSteps s = ui::panelGridSteps(100.0); // major 1 = 100 screen units
    EXPECT_EQ(ui::axisLabelValues(-2.5, 2.5, s, 100.0),
              (std::vector<double>{-2.0, -1.0, 1.0, 2.0}));
    // At 40 units per m/s a major step is 40 units: doubled to 2 (80 units).
    EXPECT_EQ(ui::axisLabelValues(-5.0, 5.0, ui::panelGridSteps(40.0), 40.0),
              (std::vector<double>{-4.0, -2.0, 2.0, 4.0}));
    EXPECT_EQ(ui::axisLabelText(0.5), "0.5");
    EXPECT_EQ(ui::axisLabelText(-2.0), "-2");
}

TEST(LabelStyle, TextsAndWhichItemsGetOne) {
    EXPECT_EQ(ui::agentIdLabel(12), "#12");
    EXPECT_EQ(ui::lp3Label(0.004973).text, "LP3 depth 0.00497");
    EXPECT_STREQ(ui::lp3Label(0.1).shortText, "LP3");
    EXPECT_EQ(ui::lp2FailedCaption(9), "INFEASIBLE: LP2 failed at line 9");
    EXPECT_TRUE(ui::isInfeasibleSummary("infeasible: LP2 failed at line 9, LP3 ran"));
    EXPECT_FALSE(ui::isInfeasibleSummary("feasible: LP2 found v_new"));

    EXPECT_EQ(ui::prefVelocityLabel(false).text, "v_pref");
    EXPECT_EQ(ui::prefVelocityLabel(false).shortText, nullptr);
    EXPECT_EQ(ui::prefVelocityLabel(true).text, "v_pref (detour)");
    EXPECT_STREQ(ui::prefVelocityLabel(true).shortText, "v_pref");
    EXPECT_EQ(hexOf(ui::prefVelocityLabel(true).colour), hexOf(ui::palette().kDetourSample));
    EXPECT_EQ(ui::detourSampleLabel(DetourMode::Detouring).text, "detour sample");

    // Line indices: all in the panel, only the highlighted one in the world view.
    EXPECT_TRUE(ui::lineLabelled(true, false));
    EXPECT_FALSE(ui::lineLabelled(false, false));
    EXPECT_TRUE(ui::lineLabelled(false, true));
    EXPECT_EQ(ui::lineLabel(3, LineCase::AgentCutoffCircle, false).text, "3");
    EXPECT_EQ(hexOf(ui::lineLabel(3, LineCase::ObstacleLeftLeg, false).colour),
              hexOf(ui::palette().kLineObstacle));

    // v_new is labelled unless LP3's label names the same point.
    ui::Lp3Marker m;
    EXPECT_TRUE(ui::newVelocityLabelled(m));
    m.valid = true;
    EXPECT_FALSE(ui::newVelocityLabelled(m));
}

TEST(SharedStyle, TheSvgIsWrittenFromTheSharedTable) {
    // Two agents head-on: A's record has one agent line.
    Simulator sim;
    const auto def = orca::test::svgAgent;
    const AgentId a = sim.addAgent(def({0.0, 0.0}, {1.0, 0.0}));
    sim.addAgent(def({3.0, 0.2}, {-1.0, 0.0}));
    const ExplainRecord rec = sim.explain(a);
    ASSERT_EQ(rec.lines.size(), 1u);

    ui::SvgPicture pic = orca::test::svgPicture(sim, rec);
    pic.world.agentIds = true;
    const std::string svg = ui::renderSvg(pic);
    auto has = [&](const std::string& part) { return svg.find(part) != std::string::npos; };

    // The legend: every entry of overlayLegend, in order.
    const auto legend = svg.find("class=\"legend\"");
    ASSERT_NE(legend, std::string::npos);
    std::size_t at = legend;
    for (const ui::LegendItem& it : ui::overlayLegend(rec, pic.layers)) {
        at = svg.find(">" + xml(it.text) + "</text>", at);
        EXPECT_NE(at, std::string::npos) << it.text;
    }
    // The labels and captions, in their shared colours.
    const ui::OverlayLabel v = ui::velocityLabel();
    EXPECT_TRUE(has(hexOf(v.colour) + "\">" + v.text + "</text>"));
    const ui::OverlayLabel line0 = ui::lineLabel(0, rec.lines[0].lineCase, false);
    EXPECT_TRUE(has(hexOf(line0.colour) + "\">" + line0.text + "</text>"));
    EXPECT_TRUE(has(std::string(">") + ui::kAbsoluteSpaceCaption + "</text>"));
    // The panel is its canvas, a figure on its own: no window title bar.
    EXPECT_FALSE(has(std::string(">") + ui::kVelocityPanelTitle + "</text>"));
    EXPECT_TRUE(has(">" + ui::agentIdLabel(1) + "</text>"));
    // The world view's VO cone in its shared look.
    EXPECT_TRUE(has(hexOf(ui::voLook(ui::VoRole::World).outline)));
}
