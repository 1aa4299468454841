// Unit tests of the explain overlays: pure geometry helpers (half-plane clipping, VO outline and
// containment, LP3 marker, construction geometry), hover hit-testing, tooltip text, the velocity
// panel's transform, and drawing into an ImGui context without a window (panel hover and fit,
// world-view hover, the LP3 marker, trails and selection rings of the world renderer).

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <imgui.h>

#include "orca/geometry.hpp"
#include "orca/orca_lines.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/world_renderer.hpp"

#include "imgui_test_context.hpp"

using orca::AgentId;
using orca::ExplainLine;
using orca::ExplainRecord;
using orca::Line;
using orca::LineCase;
using orca::Vec2;
using orca::VelocityObstacle;
namespace ui = orca::ui;
using orca::testing::ImGuiContextScope;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

double polygonArea(const ui::SmallPolygon& p) {
    std::vector<Vec2> pts(p.points.begin(), p.points.begin() + p.count);
    return orca::signedArea(pts);
}

ExplainLine makeLine(Vec2 point, Vec2 direction, LineCase c) {
    ExplainLine l;
    l.line = {point, direction};
    l.lineCase = c;
    return l;
}

// A record with three agent lines, v_new = (0, 0) and LP2 failing at line 1:
//   line 0: x = 1 going up (permitted x < 1): satisfied with margin 1;
//   line 1: y = -0.3 going left (permitted y < -0.3): violated by 0.3 (the most violated);
//   line 2: x = -0.1 going down (permitted x > -0.1): satisfied with margin 0.1.
// The LP3 foot on line 1 is (0, -0.3).
ExplainRecord infeasibleRecord() {
    ExplainRecord rec;
    rec.agent = {7, 0};
    rec.params.maxSpeed = 2.0;
    rec.lines.push_back(makeLine({1.0, 0.0}, {0.0, 1.0}, LineCase::AgentCutoffCircle));
    rec.lines.push_back(makeLine({0.0, -0.3}, {-1.0, 0.0}, LineCase::AgentLeftLeg));
    rec.lines.push_back(makeLine({-0.1, 0.0}, {0.0, -1.0}, LineCase::AgentColliding));
    rec.agentNeighbors.resize(3);
    for (ExplainLine& l : rec.lines)
        l.violation = orca::violation(l.line, rec.newVelocity);
    rec.lp2Fail = 1;
    rec.lp3Ran = true;
    rec.lp3Depth = 0.3;
    return rec;
}

int backgroundVertices() {
    return ImGui::GetBackgroundDrawList()->VtxBuffer.Size;
}

} // namespace

// ---- Half-plane and line clipping ---------------------------------------------------------------

TEST(OverlayClip, HalfPlaneSplitsRectangle) {
    const ui::Rect r{{0.0, 0.0}, {4.0, 2.0}};
    const Line up{{1.0, 0.0}, {0.0, 1.0}}; // x = 1, permitted side (left) is x < 1
    const ui::SmallPolygon permitted = ui::clipRectToHalfPlane(r, up, true);
    const ui::SmallPolygon forbidden = ui::clipRectToHalfPlane(r, up, false);
    ASSERT_EQ(permitted.count, 4);
    ASSERT_EQ(forbidden.count, 4);
    EXPECT_NEAR(polygonArea(permitted), 2.0, 1e-12); // counter-clockwise, [0,1] x [0,2]
    EXPECT_NEAR(polygonArea(forbidden), 6.0, 1e-12); // [1,4] x [0,2]
    for (int i = 0; i < permitted.count; ++i)
        EXPECT_LE(permitted.points[static_cast<std::size_t>(i)].x, 1.0 + 1e-12);
}

TEST(OverlayClip, DiagonalHalfPlaneCutsCornerTriangle) {
    // The line x + y = 1 going from (1,0) towards (0,1): its left (permitted) side holds the
    // origin, det((-1,1)/√2, (0,0) - (1,0)) = 1/√2 > 0: the corner triangle of area 0.5.
    const ui::Rect r{{0.0, 0.0}, {2.0, 2.0}};
    const Line l{{1.0, 0.0}, orca::normalize(Vec2(-1.0, 1.0))};
    const ui::SmallPolygon permitted = ui::clipRectToHalfPlane(r, l, true);
    ASSERT_EQ(permitted.count, 3);
    EXPECT_NEAR(polygonArea(permitted), 0.5, 1e-12);
    const ui::SmallPolygon forbidden = ui::clipRectToHalfPlane(r, l, false);
    EXPECT_EQ(forbidden.count, 5);
    EXPECT_NEAR(polygonArea(forbidden), 3.5, 1e-12);
}

TEST(OverlayClip, HalfPlaneMissingRectangleIsEmpty) {
    const ui::Rect r{{0.0, 0.0}, {1.0, 1.0}};
    const Line farRight{{5.0, 0.0}, {0.0, 1.0}}; // permitted x < 5: all of r
    EXPECT_EQ(ui::clipRectToHalfPlane(r, farRight, false).count, 0);
    EXPECT_NEAR(polygonArea(ui::clipRectToHalfPlane(r, farRight, true)), 1.0, 1e-12);
}

TEST(OverlayClip, LineToRectangle) {
    const ui::Rect r{{0.0, 0.0}, {4.0, 2.0}};
    const auto seg = ui::clipLineToRect({{1.0, 1.0}, {1.0, 0.0}}, r);
    ASSERT_TRUE(seg.has_value());
    EXPECT_DOUBLE_EQ((*seg)[0].x, 0.0);
    EXPECT_DOUBLE_EQ((*seg)[0].y, 1.0);
    EXPECT_DOUBLE_EQ((*seg)[1].x, 4.0);
    EXPECT_DOUBLE_EQ((*seg)[1].y, 1.0);
    // Diagonal through the corner region, in direction order.
    const auto diag = ui::clipLineToRect({{3.0, 0.0}, orca::normalize(Vec2(-1.0, 1.0))}, r);
    ASSERT_TRUE(diag.has_value());
    EXPECT_NEAR((*diag)[0].x, 3.0, 1e-12);
    EXPECT_NEAR((*diag)[1].x, 1.0, 1e-12);
    EXPECT_NEAR((*diag)[1].y, 2.0, 1e-12);
    EXPECT_FALSE(ui::clipLineToRect({{0.0, 5.0}, {1.0, 0.0}}, r).has_value());
}

// ---- VO outline and containment -----------------------------------------------------------------

TEST(OverlayVo, AgentVoTangentsAndContainment) {
    // B 10 to the right, combined radius 2, τ = 5: cut-off circle centred (2, 0), radius 0.4.
    const VelocityObstacle vo =
        orca::agentVelocityObstacle({10.0, 0.0}, {0.0, 0.0}, 2.0, 1.0 / 5.0, 4.0);
    const ui::VoOutline o = ui::voOutline(vo, 16);
    ASSERT_TRUE(o.valid);
    EXPECT_FALSE(o.disk);
    // Tangent points: on the cut-off circle and on the legs through the apex.
    EXPECT_NEAR(orca::length(o.leftTangent - Vec2(2.0, 0.0)), 0.4, 1e-12);
    EXPECT_NEAR(orca::length(o.rightTangent - Vec2(2.0, 0.0)), 0.4, 1e-12);
    EXPECT_NEAR(orca::det(vo.leftLeg, o.leftTangent), 0.0, 1e-12);
    EXPECT_NEAR(orca::det(vo.rightLeg, o.rightTangent), 0.0, 1e-12);
    EXPECT_GT(o.leftTangent.y, 0.0);
    EXPECT_LT(o.rightTangent.y, 0.0);
    // The near boundary goes counter-clockwise through the point nearest the apex.
    bool passesNearest = false;
    for (const Vec2& p : o.nearBoundary) {
        EXPECT_NEAR(orca::length(p - Vec2(2.0, 0.0)), 0.4, 1e-12);
        passesNearest = passesNearest || orca::length(p - Vec2(1.6, 0.0)) < 0.05;
    }
    EXPECT_TRUE(passesNearest);

    EXPECT_TRUE(ui::voContains(vo, {2.0, 0.0}));   // cut-off centre
    EXPECT_TRUE(ui::voContains(vo, {1.65, 0.0}));  // inside the cut-off disk
    EXPECT_FALSE(ui::voContains(vo, {1.5, 0.0}));  // between apex and cut-off: truncated away
    EXPECT_TRUE(ui::voContains(vo, {6.0, 0.5}));   // deep in the cone
    EXPECT_FALSE(ui::voContains(vo, {6.0, 2.0}));  // beyond the left leg (slope 0.2)
    EXPECT_FALSE(ui::voContains(vo, {-2.0, 0.0})); // behind the apex
}

TEST(OverlayVo, CollidingVoIsDisk) {
    const VelocityObstacle vo =
        orca::agentVelocityObstacle({1.0, 0.0}, {0.0, 0.0}, 2.0, 1.0 / 5.0, 4.0);
    ASSERT_TRUE(vo.colliding);
    const ui::VoOutline o = ui::voOutline(vo);
    EXPECT_TRUE(o.valid);
    EXPECT_TRUE(o.disk);
    EXPECT_TRUE(ui::voContains(vo, {4.0, 0.0})); // centre rp/Δt = (4, 0), radius 8
    EXPECT_TRUE(ui::voContains(vo, {-3.9, 0.0}));
    EXPECT_FALSE(ui::voContains(vo, {-4.1, 0.0}));
}

TEST(OverlayVo, SegmentCapsule) {
    // Obstacle segment VO by hand: cut-off centres (-1, 2) and (2, 2), radius 0.5, legs going
    // up and out (left leg up-left, right leg up-right).
    VelocityObstacle vo;
    vo.cutoffCenter = {-1.0, 2.0};
    vo.cutoffCenter2 = {2.0, 2.0};
    vo.cutoffRadius = 0.5;
    vo.leftLeg = orca::normalize(Vec2(-1.0, 2.0));
    vo.rightLeg = orca::normalize(Vec2(1.0, 1.0));
    const ui::VoOutline o = ui::voOutline(vo, 16);
    ASSERT_TRUE(o.valid);
    // The cut-off line (y = 1.5 between the centres) is part of the near boundary.
    bool onCutoffLine = false;
    for (const Vec2& p : o.nearBoundary)
        onCutoffLine = onCutoffLine || (std::abs(p.y - 1.5) < 1e-9 && p.x > -1.01 && p.x < 2.01);
    EXPECT_TRUE(onCutoffLine);
    EXPECT_TRUE(ui::voContains(vo, {0.5, 1.6}));  // in the capsule
    EXPECT_FALSE(ui::voContains(vo, {0.5, 1.4})); // just in front of the cut-off line
    EXPECT_TRUE(ui::voContains(vo, {0.5, 10.0})); // far beyond, between the legs
}

// ---- Hover --------------------------------------------------------------------------------------

TEST(OverlayHover, NearestLineWithinPixels) {
    ExplainRecord rec = infeasibleRecord();
    // 50 pixels per unit, velocity (0,0) at screen (400, 300). Line 0 (x = 1) is at screen
    // x = 450; line 2 (x = -0.1) at x = 395; line 1 (y = -0.3) at screen y = 315.
    const ui::VelocityTransform t{{400.0, 300.0}, 50.0};
    const ui::Rect clip{{0.0, 0.0}, {800.0, 600.0}};
    const ui::OverlayLayers layers;
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {453.0, 100.0}, 5.0).line, 0);
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {447.0, 100.0}, 5.0).line, 0);
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {600.0, 318.0}, 5.0).line, 1);
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {392.0, 100.0}, 5.0).line, 2);
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {700.0, 100.0}, 5.0).line, -1); // far away
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {453.0, 700.0}, 5.0).line, -1); // outside clip
    // Nearest wins where two lines are within reach (line 2 at 1 px, line 1 at 2 px).
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {396.0, 313.0}, 5.0).line, 2);
    ui::OverlayLayers noLines;
    noLines.halfPlanes = false;
    EXPECT_EQ(ui::hitTest(rec, t, clip, noLines, {453.0, 100.0}, 5.0).line, -1);
}

TEST(OverlayHover, InsideVoOfNeighbour) {
    ExplainRecord rec = infeasibleRecord();
    // Give line 1 a VO in absolute space: cut-off disk centred (2, 0) + offset (0, 3).
    rec.lines[1].vo = orca::agentVelocityObstacle({10.0, 0.0}, {0.0, 3.0}, 2.0, 0.2, 4.0);
    const ui::VelocityTransform t{{400.0, 300.0}, 50.0};
    const ui::Rect clip{{0.0, 0.0}, {1000.0, 600.0}};
    ui::OverlayLayers layers;
    // Velocity (4, 3): in the cone (relative (4, 0)); screen (600, 150), far from every line.
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {600.0, 150.0}, 5.0).line, 1);
    // Velocity (4, 0): relative (4, -3), outside the VO.
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {600.0, 300.0}, 5.0).line, -1);
    layers.voCones = false;
    EXPECT_EQ(ui::hitTest(rec, t, clip, layers, {600.0, 150.0}, 5.0).line, -1);
}

// ---- Text ---------------------------------------------------------------------------------------

TEST(OverlayText, DescribeLineNamesCaseDistanceTimeAndViolation) {
    ExplainRecord rec = infeasibleRecord();
    rec.lines[1].otherAgent = {3, 0};
    rec.lines[1].distance = 4.25;
    rec.lines[1].timeToCollision = kInf;
    const std::string s = ui::describeLine(rec, 1);
    EXPECT_NE(s.find("agent #3"), std::string::npos) << s;
    EXPECT_NE(s.find("agent-left-leg"), std::string::npos) << s;
    EXPECT_NE(s.find("distance 4.25"), std::string::npos) << s;
    EXPECT_NE(s.find("\xE2\x88\x9E"), std::string::npos) << s; // ∞
    EXPECT_NE(s.find("violates it by 0.3"), std::string::npos) << s;
    EXPECT_NE(s.find("LP2 failed here"), std::string::npos) << s;

    rec.lines[0].otherAgent = {4, 2};
    rec.lines[0].timeToCollision = 1.5;
    const std::string f = ui::describeLine(rec, 0, "left (#4)");
    EXPECT_NE(f.find("left (#4)"), std::string::npos) << f;
    EXPECT_EQ(f.find("#4:2"), std::string::npos) << f; // the given name replaces the id
    EXPECT_NE(f.find("time to collision 1.5 s"), std::string::npos) << f;
    EXPECT_EQ(f.find("\xE2\x88\x9E"), std::string::npos) << f;
    EXPECT_NE(f.find("satisfies it (margin 1)"), std::string::npos) << f;
    EXPECT_NE(f.find("agent-cutoff-circle"), std::string::npos) << f;

    EXPECT_EQ(ui::formatAgentId({4, 2}), "#4:2");
    EXPECT_EQ(ui::formatAgentId({12, 0}), "#12");
    EXPECT_TRUE(ui::describeLine(rec, 3).empty());
    EXPECT_TRUE(ui::describeLine(rec, -1).empty());
}

TEST(OverlayText, SummarySaysFeasibleOrInfeasible) {
    ExplainRecord rec = infeasibleRecord();
    const auto lines = ui::summaryLines(rec);
    bool infeasible = false;
    bool depth = false;
    for (const std::string& s : lines) {
        infeasible = infeasible || s.find("infeasible: LP2 failed at line 1") != std::string::npos;
        depth = depth || s.find("LP3 depth 0.3") != std::string::npos;
    }
    EXPECT_TRUE(infeasible);
    EXPECT_TRUE(depth);
    rec.lp2Fail = rec.lines.size();
    rec.feasibleRegion = {{0, 0}, {1, 0}, {0, 1}};
    bool feasible = false;
    for (const std::string& s : ui::summaryLines(rec))
        feasible = feasible || s.find("feasible: LP2 found v_new (region: 3 vertices)") == 0;
    EXPECT_TRUE(feasible);
}

// ---- LP3 marker ---------------------------------------------------------------------------------

TEST(OverlayLp3, MarkerOnMostViolatedLine) {
    ExplainRecord rec = infeasibleRecord();
    const ui::Lp3Marker m = ui::lp3Marker(rec);
    ASSERT_TRUE(m.valid);
    EXPECT_EQ(m.line, 1);
    EXPECT_NEAR(m.depth, 0.3, 1e-12);
    EXPECT_NEAR(m.foot.x, 0.0, 1e-12);
    EXPECT_NEAR(m.foot.y, -0.3, 1e-12);
    EXPECT_NEAR(orca::violation(rec.lines[1].line, m.foot), 0.0, 1e-12);
    rec.lp2Fail = rec.lines.size();
    EXPECT_FALSE(ui::lp3Marker(rec).valid);
}

// ---- Construction -------------------------------------------------------------------------------

namespace {

// Two agents head-on: A at the origin moving right at 1, B 10 to the right moving left at 1;
// radii 1 (R = 2), τ = 2. Relative velocity (2, 0); w = rv - rp/τ = (-3, 0): cut-off case,
// u = (R/τ - |w|)·ŵ = (1 - 3)·(-1, 0) = (2, 0); the line passes through v + ½u = (2, 0)
// with direction (ŵ.y, -ŵ.x) = (0, 1).
struct HeadOn {
    orca::Simulator sim;
    AgentId a;
    AgentId b;
    HeadOn() {
        orca::AgentDef d;
        d.params.radius = 1.0;
        d.params.maxSpeed = 2.0;
        d.params.timeHorizon = 2.0;
        d.position = {0.0, 0.0};
        d.velocity = {1.0, 0.0};
        d.prefVelocity = {1.0, 0.0};
        a = sim.addAgent(d);
        d.position = {10.0, 0.0};
        d.velocity = {-1.0, 0.0};
        d.prefVelocity = {-1.0, 0.0};
        b = sim.addAgent(d);
    }
};

} // namespace

TEST(OverlayConstruction, HeadOnPhases) {
    HeadOn h;
    const ExplainRecord rec = h.sim.explain(h.a);
    ASSERT_EQ(rec.lines.size(), 1u);
    ASSERT_EQ(rec.lines[0].lineCase, LineCase::AgentCutoffCircle);

    ui::ConstructionState c;
    c.active = true;
    auto g0 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g0.has_value());
    EXPECT_EQ(g0->line, 0);
    EXPECT_TRUE(g0->relativeSpace);
    EXPECT_NEAR(g0->relativeVelocity.x, 2.0, 1e-12);
    EXPECT_NEAR(g0->relativeVelocity.y, 0.0, 1e-12);
    EXPECT_NEAR(g0->vo.cutoffCenter.x, 5.0, 1e-12);             // rp/τ
    EXPECT_NEAR(g0->vo.cutoffRadius, 1.0, 1e-12);               // R/τ
    EXPECT_FALSE(ui::voContains(g0->vo, g0->relativeVelocity)); // 2 < 5 - 1: before cut-off
    EXPECT_EQ(g0->caption.rfind("1/3", 0), 0u);
    EXPECT_NE(g0->caption.find("outside"), std::string::npos);

    c.phase = 1;
    auto g1 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g1.has_value());
    EXPECT_TRUE(g1->relativeSpace);
    EXPECT_NEAR(g1->uEnd.x, 4.0, 1e-12); // (2,0) + u = (4,0): on the cut-off circle
    EXPECT_NEAR(g1->uEnd.y, 0.0, 1e-12);
    EXPECT_NEAR(orca::length(g1->uEnd - g1->vo.cutoffCenter), g1->vo.cutoffRadius, 1e-12);
    EXPECT_EQ(g1->caption.rfind("2/3", 0), 0u);

    c.phase = 7; // clamped
    auto g2 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g2.has_value());
    EXPECT_EQ(g2->phase, 2);
    EXPECT_FALSE(g2->relativeSpace);
    EXPECT_NEAR(g2->halfPlane.point.x, 2.0, 1e-12); // v_A + ½u
    EXPECT_NEAR(g2->halfPlane.point.y, 0.0, 1e-12);
    EXPECT_NEAR(g2->halfPlane.direction.x, 0.0, 1e-12);
    EXPECT_NEAR(g2->halfPlane.direction.y, 1.0, 1e-12);
    // Perpendicular to u, and v_A itself is permitted.
    EXPECT_NEAR(orca::dot(g2->halfPlane.direction, g2->uEnd - g2->relativeVelocity), 0.0, 1e-12);
    EXPECT_LT(orca::violation(g2->halfPlane, g2->velocity), 0.0);
    EXPECT_EQ(g2->caption.rfind("3/3", 0), 0u);

    // Hover: inside the VO in relative space; near the line in absolute space.
    const ui::VelocityTransform t{{100.0, 300.0}, 40.0};
    const ui::Rect clip{{0.0, 0.0}, {800.0, 600.0}};
    EXPECT_EQ(ui::hitTestConstruction(*g0, t, clip, t.toScreen({5.5, 0.0})).line, 0);
    EXPECT_EQ(ui::hitTestConstruction(*g0, t, clip, t.toScreen({2.0, 0.0})).line, -1);
    EXPECT_EQ(ui::hitTestConstruction(*g2, t, clip, t.toScreen({2.05, 1.0})).line, 0);
    EXPECT_EQ(ui::hitTestConstruction(*g2, t, clip, t.toScreen({3.0, 1.0})).line, -1);

    // Neighbour index is clamped; no agent neighbours: nothing to construct.
    c.neighbor = 5;
    EXPECT_EQ(ui::constructionLine(rec, c), 0);
    ExplainRecord lonely;
    EXPECT_FALSE(ui::constructionGeometry(lonely, c).has_value());
}

// A wall x = 3 ((3, -5) — (3, 5), obstacle 0) ahead of A (origin, v = (1, 0), r = 1,
// τo = 4) and agent B behind A at (-4, 0), standing. The wall's line is the cut-off line
// x <= 0.5 (direction (0, 1)); v's nearest point on it is (0.5, 0), so u = (-0.5, 0).
TEST(OverlayConstruction, ObstacleLinesFirstWithWholeU) {
    orca::Simulator sim;
    sim.addObstacle(std::vector<Vec2>{{3.0, -5.0}, {3.0, 5.0}});
    orca::AgentDef d;
    d.params.radius = 1.0;
    d.params.maxSpeed = 2.0;
    d.params.timeHorizonObst = 4.0;
    d.position = {0.0, 0.0};
    d.velocity = {1.0, 0.0};
    d.prefVelocity = {1.0, 0.0};
    const AgentId a = sim.addAgent(d);
    d.position = {-4.0, 0.0};
    d.velocity = {0.0, 0.0};
    d.prefVelocity = {0.0, 0.0};
    (void)sim.addAgent(d);
    const ExplainRecord rec = sim.explain(a);
    ASSERT_EQ(rec.numObstacleLines, 1u);
    ASSERT_EQ(rec.lines.size(), 2u);
    ASSERT_EQ(rec.lines[0].lineCase, LineCase::ObstacleCutoffLine);
    // The walk: the obstacle line, then the agent neighbour (the counter's n).
    EXPECT_EQ(ui::constructionCount(rec), 2);

    ui::ConstructionState c;
    c.active = true;
    const auto g0 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g0.has_value());
    EXPECT_EQ(g0->line, 0);
    EXPECT_EQ(g0->neighbor, 0);
    EXPECT_TRUE(g0->obstacle);
    EXPECT_TRUE(g0->relativeSpace);
    EXPECT_NEAR(g0->relativeVelocity.x, 1.0, 1e-12); // obstacles: relative = absolute = v_A
    EXPECT_NEAR(g0->vo.cutoffCenter.x, 0.75, 1e-12); // left vertex / τo
    EXPECT_NEAR(g0->vo.cutoffRadius, 0.25, 1e-12);   // r / τo
    EXPECT_EQ(g0->caption.rfind("1/3", 0), 0u);
    // Segment 1 runs (3, 5) -> (3, -5): A is on its right (outer) side.
    EXPECT_NE(g0->caption.find("obstacle #0 segment 1, obstacle-cutoff-line"), std::string::npos)
        << g0->caption;

    c.phase = 1;
    const auto g1 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g1.has_value());
    EXPECT_NEAR(g1->uEnd.x, 0.5, 1e-12); // v_A + u, on the cut-off line
    EXPECT_NEAR(g1->uEnd.y, 0.0, 1e-12);

    c.phase = 2;
    const auto g2 = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g2.has_value());
    EXPECT_FALSE(g2->relativeSpace);
    // No ½: the half-plane goes through v_A + u, on the solver's line.
    const Vec2 vu = rec.velocity + rec.lines[0].u;
    EXPECT_NEAR(g2->halfPlane.point.x, vu.x, 1e-12);
    EXPECT_NEAR(g2->halfPlane.point.y, vu.y, 1e-12);
    EXPECT_NEAR(g2->halfPlane.point.x, 0.5, 1e-12);
    EXPECT_NEAR(orca::violation(rec.lines[0].line, g2->halfPlane.point), 0.0, 1e-12);
    EXPECT_NEAR(g2->halfPlane.direction.y, rec.lines[0].line.direction.y, 1e-12);
    EXPECT_NE(g2->caption.find("whole u"), std::string::npos) << g2->caption;

    // Step 1: the agent neighbour, with its ½u; clamped at the end of the walk.
    c.neighbor = 1;
    const auto ga = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(ga.has_value());
    EXPECT_EQ(ga->line, 1);
    EXPECT_FALSE(ga->obstacle);
    EXPECT_NEAR(ga->halfPlane.point.x, rec.lines[1].line.point.x, 1e-12);
    EXPECT_NE(ga->caption.find("half the responsibility"), std::string::npos);
    c.neighbor = 9;
    EXPECT_EQ(ui::constructionLine(rec, c), 1);
}

// World view in construction mode: the other overlays are drawn faint and unlabelled; only the
// current line's u is labelled (phase 2), and the view still reports hover.
TEST(OverlayConstruction, WorldViewDimsOtherOverlays) {
    ImGuiContextScope scope;
    ExplainRecord rec = infeasibleRecord();
    ui::Camera cam;
    cam.setViewport({{0.0, 0.0}, {1280.0, 800.0}});
    cam.setCenter({0.0, 0.0});
    cam.setScale(20.0);
    const ui::OverlayLayers layers;
    ui::ConstructionState c;
    c.active = true;
    c.neighbor = 1;
    c.phase = 2;
    const auto g = ui::constructionGeometry(rec, c);
    ASSERT_TRUE(g.has_value());

    auto draw = [&](const ui::ConstructionGeometry* construction, float* maxOtherAlpha) {
        ui::LabelLayout labels;
        ui::OverlayStyle style;
        style.labels = &labels;
        ImGui::NewFrame();
        ImDrawList& dl = *ImGui::GetBackgroundDrawList();
        const int before = dl.VtxBuffer.Size;
        // Line 0 (x = 1) at screen x = 640 + 40 = 680.
        const ui::OverlayHover h = ui::drawExplainInWorld(dl, cam, rec, layers, style, {},
                                                          {682.0, 100.0}, true, construction);
        // The first vertices are the other overlays (VO cones skipped: no geometry here).
        std::uint32_t maxA = 0;
        for (int i = before; i < std::min(before + 40, dl.VtxBuffer.Size); ++i)
            maxA = std::max(maxA, (dl.VtxBuffer[i].col & IM_COL32_A_MASK) >> IM_COL32_A_SHIFT);
        *maxOtherAlpha = static_cast<float>(maxA);
        ImGui::Render();
        EXPECT_EQ(h.line, 0);
        return labels.requests().size();
    };
    float normalAlpha = 0.0f;
    float dimAlpha = 0.0f;
    const std::size_t normalLabels = draw(nullptr, &normalAlpha);
    const std::size_t constructionLabels = draw(&*g, &dimAlpha);
    EXPECT_GT(normalLabels, 1u);
    EXPECT_EQ(constructionLabels, 1u); // "u" of the current line
    EXPECT_LT(dimAlpha, 0.5f * normalAlpha);
}

// ---- Panel transform ----------------------------------------------------------------------------

TEST(VelocityPanelTransform, ZoomAboutCursorKeepsPointFixed) {
    ui::VelocityPanel p;
    p.setCanvas({{100.0, 50.0}, {500.0, 450.0}});
    p.fit({0.5, -0.25}, 2.0);
    EXPECT_NEAR(p.center().x, 0.5, 1e-12);
    EXPECT_NEAR(p.unitsPerPixel(), 4.0 / (400.0 - 24.0), 1e-12);
    const Vec2 cursor{420.0, 130.0};
    const Vec2 before = p.transform().toVelocity(cursor);
    const double upp = p.unitsPerPixel();
    p.zoomAbout(cursor, 2.0);
    EXPECT_NEAR(p.unitsPerPixel(), upp / 2.0, 1e-15);
    const Vec2 after = p.transform().toVelocity(cursor);
    EXPECT_NEAR(after.x, before.x, 1e-12);
    EXPECT_NEAR(after.y, before.y, 1e-12);
    const Vec2 other{150.0, 400.0};
    const Vec2 otherBefore = p.transform().toVelocity(other);
    p.zoomAbout(other, 1.0 / 3.0);
    const Vec2 otherAfter = p.transform().toScreen(otherBefore);
    EXPECT_NEAR(otherAfter.x, other.x, 1e-9);
    EXPECT_NEAR(otherAfter.y, other.y, 1e-9);
    // The canvas centre shows center(); y is up.
    const Vec2 c = p.transform().toScreen(p.center());
    EXPECT_NEAR(c.x, 300.0, 1e-9);
    EXPECT_NEAR(c.y, 250.0, 1e-9);
    EXPECT_LT(p.transform().toScreen(p.center() + Vec2(0.0, 1.0)).y, 250.0);
}

TEST(VelocityPanelTransform, PanFollowsDrag) {
    ui::VelocityPanel p;
    p.setCanvas({{0.0, 0.0}, {400.0, 400.0}});
    p.fit({0.0, 0.0}, 1.0);
    const Vec2 grabbed = p.transform().toVelocity({100.0, 100.0});
    p.pan({30.0, -20.0});
    const Vec2 s = p.transform().toScreen(grabbed);
    EXPECT_NEAR(s.x, 130.0, 1e-9);
    EXPECT_NEAR(s.y, 80.0, 1e-9);
}

// ---- Drawing with an ImGui context --------------------------------------------------------------

TEST(VelocityPanelDraw, FitsAgentAndReportsHoveredLine) {
    ImGuiContextScope scope;
    ExplainRecord rec = infeasibleRecord();
    ui::VelocityPanel panel;
    panel.focusOnSelect = false; // the max-speed disk (Fit), not the decision (Focus)
    ui::ConstructionState construction;
    const ui::OverlayLayers layers;
    bool open = true;
    auto frame = [&](Vec2 mouse) {
        ImGui::GetIO().MousePos = {static_cast<float>(mouse.x), static_cast<float>(mouse.y)};
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0.0f, 0.0f});
        ImGui::SetNextWindowSize({500.0f, 700.0f});
        const ui::OverlayHover h = panel.draw(&rec, layers, {}, construction, &open);
        ImGui::Render();
        return h;
    };
    EXPECT_FALSE(frame({-1000.0, -1000.0}).valid());
    // Fitted on the max-speed disk (radius 2·1.1) in the canvas.
    const ui::Rect canvas = panel.canvas();
    ASSERT_GT(canvas.size().x, 100.0);
    ASSERT_GT(canvas.size().y, 100.0);
    EXPECT_NEAR(panel.center().x, 0.0, 1e-12);
    const double px = std::min(canvas.size().x, canvas.size().y) - 24.0;
    EXPECT_NEAR(panel.unitsPerPixel(), 2.0 * 2.2 / px, 1e-9);

    // Mouse on line 0 (x = 1), 1 px off: hovered. Far from everything: nothing.
    const Vec2 onLine0 = panel.transform().toScreen({1.0, 0.9}) + Vec2(1.0, 0.0);
    EXPECT_EQ(frame(onLine0).line, 0);
    const Vec2 onLine1 = panel.transform().toScreen({-1.2, -0.3});
    EXPECT_EQ(frame(onLine1).line, 1);
    EXPECT_FALSE(frame(panel.transform().toScreen({0.5, 1.5})).valid());
    EXPECT_FALSE(frame({1000.0, 300.0}).valid()); // outside the window

    // No record: a hint and no hover.
    ImGui::NewFrame();
    EXPECT_FALSE(panel.draw(nullptr, layers, {}, construction, &open).valid());
    ImGui::Render();
}

TEST(VelocityPanelDraw, KeepsTheSizeTheAppSetElseItsDefault) {
    const ExplainRecord rec = infeasibleRecord();
    const ui::OverlayLayers layers;
    ui::ConstructionState construction;
    bool open = true;
    auto frame = [&](ui::VelocityPanel& panel, const ImVec2* size, ImGuiCond cond) {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos({0.0f, 0.0f});
        if (size) ImGui::SetNextWindowSize(*size, cond);
        (void)panel.draw(&rec, layers, {}, construction, &open);
        ImGui::Render();
    };
    const ImVec2 appSize{500.0f, 600.0f};
    for (const ImGuiCond cond : {ImGuiCond_Always, ImGuiCond_FirstUseEver}) {
        ImGuiContextScope scope;
        ui::VelocityPanel panel;
        panel.focusOnSelect = false;
        for (int i = 0; i < 3; ++i)
            frame(panel, &appSize, cond);
        EXPECT_DOUBLE_EQ(panel.windowRect().size().x, 500.0);
        EXPECT_DOUBLE_EQ(panel.windowRect().size().y, 600.0);
    }
    // No size from the app: the panel's default from the second frame on, fitted to it.
    ImGuiContextScope scope;
    ui::VelocityPanel panel;
    panel.focusOnSelect = false;
    for (int i = 0; i < 3; ++i)
        frame(panel, nullptr, ImGuiCond_Always);
    EXPECT_DOUBLE_EQ(panel.windowRect().size().x, ui::VelocityPanel::kDefaultWidth);
    EXPECT_DOUBLE_EQ(panel.windowRect().size().y, ui::VelocityPanel::kDefaultHeight);
    const double px = std::min(panel.canvas().size().x, panel.canvas().size().y) - 24.0;
    EXPECT_NEAR(panel.unitsPerPixel(), 2.0 * 2.2 / px, 1e-9); // the max-speed disk's fit
}

TEST(OverlayWorldDraw, HoverAndLp3MarkerInWorld) {
    ImGuiContextScope scope;
    ExplainRecord rec = infeasibleRecord();
    rec.position = {10.0, 20.0};
    ui::Camera cam;
    cam.setViewport({{0.0, 0.0}, {1280.0, 800.0}});
    cam.setCenter({10.0, 20.0});
    cam.setScale(20.0);
    const ui::OverlayLayers layers;
    ui::OverlayStyle style;
    style.worldSeconds = 2.0; // velocity x at world p + 2x: 40 px per velocity unit

    auto verticesOf = [&](const ExplainRecord& r) {
        ImGui::NewFrame();
        const int before = backgroundVertices();
        (void)ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, r, layers, style, {},
                                     {0.0, 0.0}, false);
        const int n = backgroundVertices() - before;
        ImGui::Render();
        return n;
    };
    // The same record once LP2 succeeded: no LP3 diamond, depth segment or label.
    ExplainRecord feasible = rec;
    feasible.lp2Fail = feasible.lines.size();
    EXPECT_GT(verticesOf(rec), verticesOf(feasible));

    // Line 0 (x = 1) is at screen x = 640 + 40 = 680.
    ImGui::NewFrame();
    const ui::OverlayHover h = ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, rec,
                                                      layers, style, {}, {682.0, 100.0}, true);
    const ui::OverlayHover none = ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, rec,
                                                         layers, style, {}, {682.0, 100.0}, false);
    ui::OverlayLayers hidden = layers;
    hidden.inWorld = false;
    const ui::OverlayHover off = ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, rec,
                                                        hidden, style, {}, {682.0, 100.0}, true);
    // Inside line 1's VO: velocity (4, 3) (relative (4, 0)) at world p + 2·(4, 3) = (18, 26),
    // screen (800, 280), far from every line. Off when the style says so.
    rec.lines[1].vo = orca::agentVelocityObstacle({10.0, 0.0}, {0.0, 3.0}, 2.0, 0.2, 4.0);
    const ui::OverlayHover inVo = ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, rec,
                                                         layers, style, {}, {800.0, 280.0}, true);
    ui::OverlayStyle noVoHover = style;
    noVoHover.hoverInsideVo = false;
    const ui::OverlayHover inVoOff = ui::drawExplainInWorld(
        *ImGui::GetBackgroundDrawList(), cam, rec, layers, noVoHover, {}, {800.0, 280.0}, true);
    ImGui::Render();
    EXPECT_EQ(h.line, 0);
    EXPECT_FALSE(none.valid());
    EXPECT_FALSE(off.valid());
    EXPECT_EQ(inVo.line, 1);
    EXPECT_FALSE(inVoOff.valid());
}

TEST(WorldRendererExtras, TrailsRestartAndSelectionRing) {
    ImGuiContextScope scope;
    orca::Simulator sim;
    orca::AgentDef d;
    d.params.radius = 1.0;
    for (int i = 0; i < 3; ++i) {
        d.position = {4.0 * i, 0.0};
        d.prefVelocity = {0.0, 1.0};
        (void)sim.addAgent(d);
    }
    ui::Camera cam;
    cam.setViewport({{0.0, 0.0}, {800.0, 600.0}});
    cam.setCenter({4.0, 0.0});
    cam.setScale(20.0);
    ui::WorldViewOptions opts;
    opts.trails = true;
    ui::WorldRenderer r;
    auto draw = [&](std::span<const std::size_t> selected = {}) {
        ImGui::NewFrame();
        const int before = backgroundVertices();
        r.draw(*ImGui::GetBackgroundDrawList(), cam, sim, opts, {}, selected);
        const int n = backgroundVertices() - before;
        ImGui::Render();
        return n;
    };
    draw();
    EXPECT_EQ(r.trailSamples(), 1u);
    draw(); // paused: no new sample
    EXPECT_EQ(r.trailSamples(), 1u);
    for (int i = 0; i < 40; ++i) {
        sim.step();
        draw();
    }
    EXPECT_EQ(r.trailSamples(), ui::WorldRenderer::kTrailLength);
    EXPECT_GT(r.stats().trailSegments, 0u);
    sim.setClock(0.0, 0); // step count went backwards (restart)
    draw();
    EXPECT_EQ(r.trailSamples(), 1u);
    sim.step();
    draw();
    EXPECT_EQ(r.trailSamples(), 2u);
    d.position = {0.0, 8.0};
    (void)sim.addAgent(d); // agent count changed
    draw();
    EXPECT_EQ(r.trailSamples(), 1u);
    opts.trails = false;
    draw();
    EXPECT_EQ(r.trailSamples(), 0u);

    // A selection ring adds geometry; an out-of-range index is ignored.
    const int plain = draw();
    const std::size_t sel[] = {1};
    EXPECT_GT(draw(sel), plain);
    const std::size_t bad[] = {99};
    EXPECT_EQ(draw(bad), plain);
}

// ---- Detour (issue 4): the field layer, the detouring colour, the sample overlay -------------

namespace {

/// A wall of static agents and one agent heading through it, detour on, stepped until the
/// agent detours.
struct DetourScene {
    orca::Simulator sim;
    orca::AgentId mover;
    DetourScene() {
        orca::SimulationParams p;
        p.detour.enabled = true;
        p.staticResponsibility = 1.0;
        sim.setParams(p);
        for (int k = -3; k <= 3; ++k) {
            orca::AgentDef s;
            s.position = {0.0, 2.5 * k};
            s.params.radius = 1.0;
            s.isStatic = true;
            (void)sim.addAgent(s);
        }
        orca::AgentDef m;
        m.position = {-8.0, 0.3};
        m.hasGoal = true;
        m.goal = {10.0, 0.3};
        m.params.radius = 1.0;
        mover = sim.addAgent(m);
        for (int s = 0; s < 300 && sim.detourMode(mover) != orca::DetourMode::Detouring; ++s)
            sim.step();
    }
};

} // namespace

TEST(DetourOverlay, FieldLayerSampleAndColour) {
    ImGuiContextScope scope;
    DetourScene scene;
    ASSERT_EQ(scene.sim.detourMode(scene.mover), orca::DetourMode::Detouring);
    ASSERT_FALSE(scene.sim.detourField().empty());
    ui::Camera cam;
    cam.setViewport({{0.0, 0.0}, {800.0, 600.0}});
    cam.setCenter({0.0, 0.0});
    cam.setScale(40.0); // cells of 0.4 are 16 px: tinted cells with arrows
    ui::WorldViewOptions opts;
    ui::WorldRenderer r;
    auto draw = [&] {
        ImGui::NewFrame();
        const int before = backgroundVertices();
        r.draw(*ImGui::GetBackgroundDrawList(), cam, scene.sim, opts);
        const int n = backgroundVertices() - before;
        ImGui::Render();
        return n;
    };
    opts.detourField = false;
    const int without = draw();
    opts.detourField = true;
    const int with = draw();
    // Every visible cell is a tinted quad (4 vertices) plus an arrow: far more geometry.
    EXPECT_GT(with - without, 4 * 100);
    // Zoomed far out the field is thinned (a stride of cells), never one quad per cell.
    cam.setScale(0.5);
    const int thinned = draw();
    opts.detourField = false;
    EXPECT_LT(thinned - draw(), with - without);

    // The detouring agent has its own colour.
    const ui::Rgba detouring = ui::agentFill(ui::AgentState::Detouring);
    const ui::Rgba active = ui::agentFill(ui::AgentState::Active);
    EXPECT_TRUE(detouring.r != active.r || detouring.g != active.g || detouring.b != active.b);

    // The selected agent's record: sample circle, chosen direction, goal v_pref beside the
    // detour v_pref — drawn only with the detour layer on.
    const orca::ExplainRecord rec = scene.sim.explain(scene.mover);
    ASSERT_TRUE(rec.detour.enabled);
    ASSERT_EQ(rec.detour.mode, orca::DetourMode::Detouring);
    ASSERT_NE(rec.prefVelocity, rec.detour.goalPrefVelocity);
    cam.setScale(40.0);
    ui::OverlayLayers layers;
    ui::OverlayStyle style;
    auto overlay = [&] {
        ImGui::NewFrame();
        const int before = backgroundVertices();
        ui::drawExplainInWorld(*ImGui::GetBackgroundDrawList(), cam, rec, layers, style, {},
                               {0.0, 0.0}, false);
        const int n = backgroundVertices() - before;
        ImGui::Render();
        return n;
    };
    const int withDetour = overlay();
    layers.detour = false;
    EXPECT_GT(withDetour, overlay());
}

TEST(VelocityPanelDraw, FocusesANewAgentsDecisionAndLaysOutItsLabels) {
    ImGuiContextScope scope;
    const ExplainRecord rec = infeasibleRecord();
    ui::VelocityPanel panel; // focusOnSelect by default
    ui::ConstructionState construction;
    const ui::OverlayLayers layers;
    bool open = true;
    ImGui::NewFrame();
    ImGui::SetNextWindowPos({0.0f, 0.0f});
    ImGui::SetNextWindowSize({500.0f, 700.0f});
    (void)panel.draw(&rec, layers, {}, construction, &open);
    ImGui::Render();
    const ui::Rect box = ui::focusBox(rec);
    EXPECT_NEAR(panel.center().x, box.center().x, 1e-9);
    EXPECT_NEAR(panel.center().y, box.center().y, 1e-9);
    // Zoomed in beyond the max-speed disk's fit.
    const double px = std::min(panel.canvas().size().x, panel.canvas().size().y) - 24.0;
    EXPECT_LT(panel.unitsPerPixel(), 2.0 * 2.2 / px);
    // Labels were laid out: v, v_pref, the LP3 depth, line indices; none overlaps another.
    const auto placed = panel.labels().placed();
    EXPECT_GE(placed.size(), 3u);
    for (std::size_t i = 0; i < placed.size(); ++i)
        for (std::size_t j = i + 1; j < placed.size(); ++j)
            EXPECT_FALSE(ui::rectsOverlap(placed[i].rect, placed[j].rect));
}
