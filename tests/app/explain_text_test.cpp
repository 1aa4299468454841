// Unit tests of the explain overlays' words (explain_text.hpp) and the geometry that carries
// the share of u (explain_geometry.hpp): captions, legends and tooltips follow the share each
// line was built with (SimulationParams::responsibility, staticResponsibility, 1 for
// obstacles), and read as before at RVO2's ½.

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "orca/simulator.hpp"
#include "orca/ui/explain_geometry.hpp"
#include "orca/ui/explain_text.hpp"

using orca::AgentId;
using orca::ExplainLine;
using orca::ExplainRecord;
using orca::LineCase;
using orca::SimulationParams;
using orca::Vec2;
namespace ui = orca::ui;

namespace {

bool contains(const std::string& s, const std::string& part) {
    return s.find(part) != std::string::npos;
}

// A walks right toward B (head-on, as in overlay_test's HeadOn) and a static agent S stands
// below A's path; `params` sets the shares. Lines: [0] toward B, [1] toward S (nearest first
// is B at 4 < S at 5).
struct WithStatic {
    orca::Simulator sim;
    AgentId a;
    AgentId b;
    AgentId s;
    explicit WithStatic(const SimulationParams& params) : sim(params) {
        orca::AgentDef d;
        d.params.radius = 1.0;
        d.params.maxSpeed = 2.0;
        d.params.timeHorizon = 2.0;
        d.velocity = {1.0, 0.0};
        d.prefVelocity = {1.0, 0.0};
        a = sim.addAgent(d);
        d.position = {4.0, 0.0};
        d.velocity = {-1.0, 0.0};
        d.prefVelocity = {-1.0, 0.0};
        b = sim.addAgent(d);
        d.position = {3.0, -4.0};
        d.velocity = {0.0, 0.0};
        d.prefVelocity = {0.0, 0.0};
        d.isStatic = true;
        s = sim.addAgent(d);
    }
    [[nodiscard]] ExplainRecord record() const { return sim.explain(a); }
};

SimulationParams shares(double responsibility, double staticResponsibility) {
    SimulationParams p;
    p.responsibility = responsibility;
    p.staticResponsibility = staticResponsibility;
    return p;
}

int lineOf(const ExplainRecord& rec, AgentId other) {
    for (std::size_t k = 0; k < rec.lines.size(); ++k)
        if (rec.lines[k].otherAgent == other) return static_cast<int>(k);
    return -1;
}

} // namespace

TEST(ExplainText, ShareOfUFollowsTheRule) {
    EXPECT_EQ(ui::shareOfU(0.5), "\xC2\xBDu");  // ½u
    EXPECT_EQ(ui::shareOfU(0.75), "\xC2\xBEu"); // ¾u
    EXPECT_EQ(ui::shareOfU(0.25), "\xC2\xBCu"); // ¼u
    EXPECT_EQ(ui::shareOfU(1.0), "u");
    EXPECT_EQ(ui::shareOfU(0.6), "0.6\xC2\xB7u"); // 0.6·u
    EXPECT_EQ(ui::shareOfU(1.0 / 3.0), "0.333\xC2\xB7u");
    EXPECT_EQ(ui::shareCoefficient(1.0), "");
    EXPECT_EQ(ui::shareCoefficient(0.5), "\xC2\xBD");
}

TEST(ExplainText, CaptionAtRvo2HalfReadsAsBefore) {
    const WithStatic w(shares(0.5, 0.5));
    const ExplainRecord rec = w.record();
    const int k = lineOf(rec, w.b);
    ASSERT_GE(k, 0);
    EXPECT_EQ(rec.lines[static_cast<std::size_t>(k)].share, 0.5);
    const std::string c = ui::constructionCaption(rec, k, 2);
    EXPECT_EQ(c.rfind("3/3  Each agent takes half the responsibility: ORCA_A|B is the half-plane "
                      "in A's absolute velocity space through v_A + \xC2\xBDu = (",
                      0),
              0u)
        << c;
    EXPECT_TRUE(contains(c, "B builds the mirror image with -\xC2\xBDu.")) << c;
    // The geometry's caption is this text.
    ui::ConstructionState st;
    st.neighbor = k;
    st.phase = 2;
    const auto g = ui::constructionGeometry(rec, st);
    ASSERT_TRUE(g.has_value());
    EXPECT_EQ(g->caption, c);
    EXPECT_EQ(g->share, 0.5);
    EXPECT_EQ(ui::uArrowLegend(rec), "v -> v+\xC2\xBDu");
}

TEST(ExplainText, CaptionNamesResponsibilityThreeQuarters) {
    const WithStatic w(shares(0.75, 0.5));
    const ExplainRecord rec = w.record();
    const int k = lineOf(rec, w.b);
    ASSERT_GE(k, 0);
    const ExplainLine& l = rec.lines[static_cast<std::size_t>(k)];
    EXPECT_EQ(l.share, 0.75);
    const std::string c = ui::constructionCaption(rec, k, 2);
    EXPECT_TRUE(contains(c, "Each agent takes \xC2\xBE of u (responsibility 0.75")) << c;
    EXPECT_TRUE(contains(c, "through v_A + \xC2\xBEu = (")) << c;
    EXPECT_TRUE(contains(c, "mirror image with -\xC2\xBEu")) << c;
    EXPECT_FALSE(contains(c, "half the responsibility")) << c;
    EXPECT_FALSE(contains(c, "\xC2\xBD")) << c;
    // The other phases do not depend on the share.
    EXPECT_EQ(ui::constructionCaption(rec, k, 0).rfind("1/3", 0), 0u);
    EXPECT_EQ(ui::constructionCaption(rec, k, 1).rfind("2/3", 0), 0u);
    // Legend: agents at ¾, the static one at ½, in increasing order.
    EXPECT_EQ(ui::uArrowLegend(rec), "v -> v+\xC2\xBDu or v+\xC2\xBEu");
    const std::string tip = ui::describeLine(rec, k);
    EXPECT_TRUE(contains(tip, "A takes \xC2\xBEu")) << tip;
}

TEST(ExplainText, CaptionAtResponsibilityOneTakesAllOfU) {
    const WithStatic w(shares(1.0, 1.0));
    const ExplainRecord rec = w.record();
    const int k = lineOf(rec, w.b);
    ASSERT_GE(k, 0);
    const std::string c = ui::constructionCaption(rec, k, 2);
    EXPECT_TRUE(contains(c, "Each agent takes all of u (responsibility 1")) << c;
    EXPECT_TRUE(contains(c, "through v_A + u = (")) << c;
    EXPECT_TRUE(contains(c, "mirror image with -u.")) << c;
    EXPECT_EQ(ui::uArrowLegend(rec), "v -> v+u");
}

TEST(ExplainText, StaticNeighbourCaptionSaysAAloneTakesItsShare) {
    for (const double share : {0.5, 1.0}) {
        const WithStatic w(shares(0.5, share));
        const ExplainRecord rec = w.record();
        const int k = lineOf(rec, w.s);
        ASSERT_GE(k, 0);
        const ExplainLine& l = rec.lines[static_cast<std::size_t>(k)];
        EXPECT_TRUE(l.otherStatic);
        EXPECT_EQ(l.share, share);
        const std::string c = ui::constructionCaption(rec, k, 2);
        EXPECT_EQ(c.rfind("3/3  B is static", 0), 0u) << c;
        EXPECT_FALSE(contains(c, "mirror image")) << c; // B builds no line
        EXPECT_TRUE(contains(c, "v_A + " + ui::shareOfU(share) + " = (")) << c;
        EXPECT_TRUE(contains(c, share < 1.0 ? "A can graze B" : "A avoids B fully")) << c;
        EXPECT_TRUE(
            contains(ui::describeLine(rec, k), "static neighbour, A takes " + ui::shareOfU(share)));
    }
}

TEST(ExplainText, ObstacleLinesTakeTheWholeU) {
    SimulationParams p;
    p.responsibility = 0.75;
    orca::Simulator sim(p);
    orca::AgentDef d;
    d.velocity = {1.0, 0.0};
    d.prefVelocity = {1.0, 0.0};
    const AgentId a = sim.addAgent(d);
    sim.addObstacle(std::vector<Vec2>{{3.0, -2.0}, {4.0, -2.0}, {4.0, 2.0}, {3.0, 2.0}});
    const ExplainRecord rec = sim.explain(a);
    ASSERT_GE(rec.numObstacleLines, 1u);
    EXPECT_EQ(rec.lines[0].share, 1.0);
    const std::string c = ui::constructionCaption(rec, 0, 2);
    EXPECT_TRUE(contains(c, "whole u")) << c;
    EXPECT_TRUE(contains(c, "through v_A + u = (")) << c;
    EXPECT_TRUE(contains(ui::describeLine(rec, 0), "A takes u"));
    // No agent line: the legend keeps RVO2's ½ (its colour is the agent lines').
    EXPECT_EQ(ui::uArrowLegend(rec), "v -> v+\xC2\xBDu");
    // The u arrow ends on the line.
    const Vec2 tip = ui::uArrowTip(rec, rec.lines[0]);
    EXPECT_NEAR(orca::violation(rec.lines[0].line, tip), 0.0, 1e-12);
}

TEST(ExplainText, OutOfRangeLinesHaveNoCaption) {
    const ExplainRecord rec;
    EXPECT_TRUE(ui::constructionCaption(rec, 0, 0).empty());
    EXPECT_TRUE(ui::constructionCaption(rec, -1, 2).empty());
}

TEST(ExplainGeometry, NeighbourAndSegmentInTheWorldFromTheVo) {
    const WithStatic w(shares(0.5, 0.5));
    const ExplainRecord rec = w.record();
    const int k = lineOf(rec, w.b);
    ASSERT_GE(k, 0);
    const auto nb = ui::neighborInWorld(rec, rec.lines[static_cast<std::size_t>(k)]);
    ASSERT_TRUE(nb.has_value());
    EXPECT_NEAR(nb->position.x, 4.0, 1e-12);
    EXPECT_NEAR(nb->position.y, 0.0, 1e-12);
    EXPECT_NEAR(nb->radius, 1.0, 1e-12);
    EXPECT_FALSE(ui::obstacleSegmentInWorld(rec, ExplainLine{}).has_value());
    EXPECT_FALSE(ui::neighborInWorld(rec, ExplainLine{}).has_value());
}

TEST(ExplainText, AvoidanceWeightsSayWhoTakesWhat) {
    // Head-on, weights 2 (A) and 1 (B): A takes 2/3 of u, B 1/3 through v_B - 1/3u.
    auto pairWith = [](double wa, double wb) {
        auto sim = std::make_unique<orca::Simulator>();
        orca::AgentDef d;
        d.params.radius = 1.0;
        d.params.timeHorizon = 5.0;
        d.position = {-6.0, 0.0};
        d.velocity = d.prefVelocity = {1.0, 0.0};
        d.params.avoidanceWeight = wa;
        sim->addAgent(d);
        d.position = {6.0, 0.4};
        d.velocity = d.prefVelocity = {-1.0, 0.0};
        d.params.avoidanceWeight = wb;
        sim->addAgent(d);
        return sim;
    };
    auto sim = pairWith(2.0, 1.0);
    ExplainRecord rec = sim->explain(sim->agentIdAt(0));
    ASSERT_EQ(rec.lines.size(), 1u);
    std::string c = ui::constructionCaption(rec, 0, 2);
    EXPECT_TRUE(contains(c, "Avoidance weights 2 : 1, so A takes 0.667 of u and B takes 0.333 "
                            "(together exactly u)."))
        << c;
    EXPECT_TRUE(contains(c, "line through v_B - 0.333\xC2\xB7u.")) << c;
    EXPECT_FALSE(contains(c, "mirror image")) << c;
    EXPECT_TRUE(contains(ui::describeLine(rec, 0), "A takes 0.667\xC2\xB7u, B 0.333\xC2\xB7u"));
    // Weights 0 (A) and 1: A never yields, its line passes through v_A itself.
    sim = pairWith(0.0, 1.0);
    rec = sim->explain(sim->agentIdAt(0));
    c = ui::constructionCaption(rec, 0, 2);
    EXPECT_TRUE(contains(c, "A takes none of u and B takes all (together exactly u).")) << c;
    EXPECT_TRUE(contains(c, "A's weight 0 never yields to B")) << c;
    EXPECT_TRUE(contains(c, "through v_A + 0\xC2\xB7u = (1, 0)")) << c;
    rec = sim->explain(sim->agentIdAt(1));
    c = ui::constructionCaption(rec, 0, 2);
    EXPECT_TRUE(contains(c, "B's weight 0 never yields to A: A avoids for both.")) << c;
    // Equal weights read as before (RVO2's words at 1/2).
    sim = pairWith(3.0, 3.0);
    rec = sim->explain(sim->agentIdAt(0));
    c = ui::constructionCaption(rec, 0, 2);
    EXPECT_TRUE(contains(c, "Each agent takes half the responsibility")) << c;
    EXPECT_TRUE(contains(c, "mirror image")) << c;
}
