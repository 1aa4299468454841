// The label layout (ui/label_layout.hpp), window placement and the docked panel's leftover
// area (ui/window_placement.hpp), Camera::fitInto and the velocity panel's focus box.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/label_layout.hpp"
#include "orca/ui/window_placement.hpp"

using namespace orca;
using namespace orca::ui;

namespace {

LabelRequest req(Vec2 anchor, const char* text, int priority, LabelSide side = LabelSide::Right,
                 const char* shortText = nullptr) {
    LabelRequest r;
    r.anchor = anchor;
    r.text = text;
    r.size = {8.0 * static_cast<double>(std::string(text).size()), 14.0};
    if (shortText) {
        r.shortText = shortText;
        r.shortSize = {8.0 * static_cast<double>(std::string(shortText).size()), 14.0};
    }
    r.priority = priority;
    r.side = side;
    return r;
}

void expectNoOverlaps(const LabelLayout& l) {
    const auto placed = l.placed();
    for (std::size_t i = 0; i < placed.size(); ++i) {
        for (std::size_t j = i + 1; j < placed.size(); ++j)
            EXPECT_FALSE(rectsOverlap(placed[i].rect, placed[j].rect))
                << l.textOf(placed[i]) << " / " << l.textOf(placed[j]);
        for (const Rect& r : l.reserved())
            EXPECT_FALSE(rectsOverlap(placed[i].rect, r)) << l.textOf(placed[i]);
    }
}

const Rect kBounds{{0.0, 0.0}, {400.0, 300.0}};

} // namespace

TEST(LabelLayout, RectsOverlapIgnoresTouchingEdges) {
    EXPECT_TRUE(rectsOverlap({{0, 0}, {10, 10}}, {{5, 5}, {15, 15}}));
    EXPECT_FALSE(rectsOverlap({{0, 0}, {10, 10}}, {{10, 0}, {20, 10}}));
    EXPECT_FALSE(rectsOverlap({{0, 0}, {10, 10}}, {{0, 11}, {10, 20}}));
}

TEST(LabelLayout, ALoneLabelGoesToItsPreferredSide) {
    LabelLayout l;
    l.gap = 6.0;
    l.add(req({100, 100}, "v_new", 10, LabelSide::BelowRight));
    l.place(kBounds);
    ASSERT_EQ(l.placed().size(), 1u);
    const PlacedLabel& p = l.placed()[0];
    EXPECT_GT(p.rect.min.x, 100.0); // right of the anchor
    EXPECT_GT(p.rect.min.y, 100.0); // below it
    EXPECT_FALSE(p.leader);
    EXPECT_FALSE(p.abbreviated);
}

TEST(LabelLayout, LabelsAtOneSpotAreSpreadWithoutOverlap) {
    // v, v_pref, v_new, LP3 depth and line indices on (nearly) the same point: the case of
    // dense_convergence's agent #34.
    LabelLayout l;
    l.add(req({200, 150}, "v", 90, LabelSide::AboveLeft));
    l.add(req({201, 149}, "v_pref", 85, LabelSide::AboveRight));
    l.add(req({200, 151}, "v_new", 100, LabelSide::BelowRight));
    l.add(req({200, 150}, "LP3 depth 0.00497", 95, LabelSide::BelowRight, "LP3"));
    for (int i = 0; i < 10; ++i)
        l.add(req({199.0 + i * 0.3, 150.0}, std::to_string(i).c_str(), 40));
    l.place(kBounds);
    EXPECT_EQ(l.dropped(), 0u);
    expectNoOverlaps(l);
    // The highest priority keeps its preferred spot.
    const PlacedLabel& first = l.placed()[0];
    EXPECT_EQ(l.textOf(first), "v_new");
    EXPECT_FALSE(first.leader);
    // Some went farther out, with a leader line.
    bool anyLeader = false;
    for (const PlacedLabel& p : l.placed())
        anyLeader = anyLeader || p.leader;
    EXPECT_TRUE(anyLeader);
}

TEST(LabelLayout, PriorityDecidesWhoIsDroppedAndShortTextIsTried) {
    // A box just big enough for one label around the anchor.
    const Rect tiny{{0, 0}, {70, 24}};
    LabelLayout l;
    l.gap = 2.0;
    const std::size_t low = l.add(req({4, 12}, "low", 1));
    const std::size_t high = l.add(req({4, 12}, "highest", 9));
    l.place(tiny);
    ASSERT_EQ(l.placed().size(), 1u);
    EXPECT_EQ(l.placed()[0].request, high);
    EXPECT_EQ(l.dropped(), 1u);
    (void)low;

    LabelLayout s;
    s.gap = 2.0;
    s.add(req({4, 12}, "a very long label", 5, LabelSide::Right, "short"));
    s.place(tiny);
    ASSERT_EQ(s.placed().size(), 1u);
    EXPECT_TRUE(s.placed()[0].abbreviated);
    EXPECT_EQ(s.textOf(s.placed()[0]), "short");
}

TEST(LabelLayout, ReservedRectanglesAndBoundsAreRespected) {
    LabelLayout l;
    l.reserve({{100, 80}, {300, 120}}); // a legend right of the anchor
    l.add(req({100, 100}, "v", 10, LabelSide::Right));
    l.place(kBounds);
    ASSERT_EQ(l.placed().size(), 1u);
    expectNoOverlaps(l);
    // Near the right edge: the label goes left instead of leaving the bounds.
    LabelLayout e;
    e.add(req({398, 100}, "v_pref", 10, LabelSide::Right));
    e.place(kBounds);
    ASSERT_EQ(e.placed().size(), 1u);
    EXPECT_LE(e.placed()[0].rect.max.x, kBounds.max.x);
}

TEST(LabelLayout, FixedLabelsStayOrGo) {
    LabelLayout l;
    LabelRequest axis = req({0, 0}, "0.5", 1);
    axis.fixed = true;
    axis.fixedAt = {200, 150};
    l.add(axis);
    l.add(req({190, 150}, "v_new", 100, LabelSide::Right)); // wants the axis value's spot
    l.place(kBounds);
    ASSERT_EQ(l.placed().size(), 1u);
    EXPECT_EQ(l.textOf(l.placed()[0]), "v_new");
    expectNoOverlaps(l);
}

TEST(LabelLayout, IsDeterministic) {
    auto run = [] {
        LabelLayout l;
        for (int i = 0; i < 30; ++i)
            l.add(req({150.0 + (i % 5) * 3.0, 140.0 + (i / 5) * 2.0}, std::to_string(i).c_str(),
                      i % 3));
        l.place(kBounds);
        std::vector<double> out;
        for (const PlacedLabel& p : l.placed())
            out.insert(out.end(), {static_cast<double>(p.request), p.rect.min.x, p.rect.min.y});
        return out;
    };
    EXPECT_EQ(run(), run());
}

TEST(LabelLayout, CandidatesStartAtThePreferredSideAndLeadersComeLater) {
    std::size_t leaderFrom = 0;
    const auto c = labelCandidates({100, 100}, {20, 10}, LabelSide::Above, 5.0, &leaderFrom);
    ASSERT_EQ(c.size(), 24u);
    EXPECT_EQ(leaderFrom, 8u);
    EXPECT_DOUBLE_EQ(c[0].max.y, 95.0); // above, 5 px away
    EXPECT_DOUBLE_EQ(c[0].center().x, 100.0);
    EXPECT_LT(c[8].max.y, c[0].max.y); // the next ring is farther
}

TEST(LabelSide, PointsWhereTheDirectionPoints) {
    EXPECT_EQ(labelSideToward({1, 0}), LabelSide::Right);
    EXPECT_EQ(labelSideToward({0, -1}), LabelSide::Above); // screen y is down
    EXPECT_EQ(labelSideToward({-1, 1}), LabelSide::BelowLeft);
}

TEST(WindowPlacement, AvoidsTheCrowd) {
    const Rect view{{0, 20}, {900, 700}};
    // A crowd on the left half: the window goes to the right.
    std::vector<Vec2> agents;
    for (int i = 0; i < 200; ++i)
        agents.push_back({20.0 + (i % 20) * 20.0, 40.0 + (i / 20) * 60.0});
    const CrowdDensity crowd = CrowdDensity::build(view, agents);
    EXPECT_NEAR(crowd.covered(view), 200.0, 1e-6);
    const Vec2 p = chooseWindowPos(view, {300, 250}, crowd, {});
    EXPECT_GT(p.x, 450.0);
    EXPECT_DOUBLE_EQ(crowd.covered({p, p + Vec2(300, 250)}), 0.0);
}

TEST(WindowPlacement, EmptyViewStacksDownTheLeftEdgeBesideOtherWindows) {
    const Rect view{{0, 20}, {900, 700}};
    const CrowdDensity none = CrowdDensity::build(view, {});
    const Vec2 first = chooseWindowPos(view, {300, 250}, none, {});
    EXPECT_DOUBLE_EQ(first.x, 10.0);
    EXPECT_DOUBLE_EQ(first.y, 30.0);
    const Rect taken[] = {{first, first + Vec2(300, 250)}};
    const Vec2 second = chooseWindowPos(view, {300, 250}, none, taken);
    EXPECT_FALSE(rectsOverlap({second, second + Vec2(300, 250)}, taken[0]));
}

TEST(WindowPlacement, TooLargeGoesToTheCorner) {
    const Rect view{{0, 20}, {200, 200}};
    const Vec2 p = chooseWindowPos(view, {300, 250}, CrowdDensity::build(view, {}), {});
    EXPECT_DOUBLE_EQ(p.x, 0.0);
    EXPECT_DOUBLE_EQ(p.y, 20.0);
}

TEST(UncoveredArea, IsTheViewLeftOfADockedPanel) {
    const Rect view{{0, 20}, {1200, 760}};
    const Rect right{{800, 20}, {1200, 760}};
    const Rect a = uncoveredArea(view, right);
    EXPECT_DOUBLE_EQ(a.min.x, 0.0);
    EXPECT_DOUBLE_EQ(a.max.x, 800.0);
    EXPECT_DOUBLE_EQ(a.max.y, 760.0);
    const Rect left{{0, 30}, {300, 700}};
    EXPECT_DOUBLE_EQ(uncoveredArea(view, left).min.x, 300.0);
    // A small floating window leaves the whole view.
    const Rect floating{{500, 100}, {800, 300}};
    EXPECT_DOUBLE_EQ(uncoveredArea(view, floating).max.x, 1200.0);
    EXPECT_DOUBLE_EQ(uncoveredArea(view, Rect::empty()).max.x, 1200.0);
}

TEST(Camera, FitIntoCentresTheWorldInTheArea) {
    Camera c;
    c.setViewport({{0, 0}, {1200, 800}});
    const Rect world{{-10, -5}, {10, 5}};
    const Rect area{{0, 0}, {800, 800}};
    c.fitInto(world, area, 0.0);
    EXPECT_DOUBLE_EQ(c.scale(), 40.0); // 20 units across 800 px
    const Vec2 s = c.worldToScreen({0, 0});
    EXPECT_NEAR(s.x, 400.0, 1e-9);
    EXPECT_NEAR(s.y, 400.0, 1e-9);
    EXPECT_NEAR(c.worldToScreen({10, 0}).x, 800.0, 1e-9); // the right edge at the area's
}

TEST(FocusBox, CoversTheDecisionAndNearbyUArrowsButNotFarOnes) {
    ExplainRecord rec;
    rec.params.maxSpeed = 2.0;
    rec.velocity = {1.0, 0.0};
    rec.prefVelocity = {1.2, 0.1};
    rec.newVelocity = {1.1, -0.05};
    ExplainLine nearLine;
    nearLine.lineCase = LineCase::AgentCutoffCircle;
    nearLine.u = {0.0, 0.2};
    nearLine.line.point = rec.velocity + nearLine.u * 0.5;
    nearLine.line.direction = {1.0, 0.0};
    ExplainLine farLine = nearLine;
    farLine.u = {-3.0, 0.0};
    farLine.line.point = rec.velocity + farLine.u * 0.5;
    rec.lines = {nearLine, farLine};
    const Rect box = focusBox(rec);
    EXPECT_TRUE(box.contains(rec.velocity));
    EXPECT_TRUE(box.contains(rec.prefVelocity));
    EXPECT_TRUE(box.contains(rec.newVelocity));
    EXPECT_TRUE(box.contains(rec.velocity + nearLine.u)); // v + u
    EXPECT_FALSE(box.contains(farLine.line.point));
    // Much smaller than the max-speed disk: ½u = 0.1 spans a fair part of the view.
    EXPECT_LT(box.size().x, 1.0);
    EXPECT_GT(0.1 / std::max(box.size().x, box.size().y), 0.25);
}
