// Solve mode's stepping logic (solve_view.hpp): the LP trace of a record as numbered steps,
// each with its narration, the optimum before and after, the LP1 interval and its clipping
// lines, LP3's projected lines — pure functions, hand-checked on small programs.

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "orca/linear_program.hpp"
#include "orca/lp_trace.hpp"
#include "orca/ui/solve_view.hpp"

using orca::ExplainLine;
using orca::ExplainRecord;
using orca::Line;
using orca::LineCase;
using orca::Vec2;
namespace ui = orca::ui;

namespace {

ExplainLine agentLine(Line l, LineCase c, std::uint32_t neighbour) {
    ExplainLine e;
    e.line = l;
    e.lineCase = c;
    e.otherAgent = {neighbour, 0};
    return e;
}

// Solves the record's lines as the simulator would and stores the trace.
void solve(ExplainRecord& rec, double weight = 1.0) {
    std::vector<Line> lines;
    for (const ExplainLine& l : rec.lines)
        lines.push_back(l.line);
    std::vector<Line> scratch;
    orca::LpTrace trace;
    const orca::SolveResult r = orca::solveVelocity(
        lines, rec.numObstacleLines, rec.params.maxSpeed, rec.prefVelocity, weight, scratch, trace);
    rec.newVelocity = r.velocity;
    rec.lp2Fail = r.lp2Fail;
    rec.lp3Ran = r.lp3Ran;
    rec.lp3Depth = r.lp3Depth;
    rec.lpTrace = trace;
}

// y >= 1, x <= 0.5, x + y <= 1.2, y <= 1.5; radius 2, v_pref (1.5, 0): LP2 succeeds at
// (0.2, 1) on lines 0 and 2 (see tests/core/lp_trace_test.cpp for the numbers).
ExplainRecord feasibleRecord() {
    ExplainRecord rec;
    rec.agent = {1, 0};
    rec.params.maxSpeed = 2.0;
    rec.prefVelocity = {1.5, 0.0};
    rec.lines.push_back(agentLine({{0.0, 1.0}, {1.0, 0.0}}, LineCase::AgentCutoffCircle, 3));
    rec.lines.push_back(agentLine({{0.5, 0.0}, {0.0, 1.0}}, LineCase::AgentLeftLeg, 5));
    rec.lines.push_back(
        agentLine({{0.6, 0.6}, Vec2(-1.0, 1.0) / std::sqrt(2.0)}, LineCase::AgentRightLeg, 6));
    rec.lines.push_back(agentLine({{0.0, 1.5}, {-1.0, 0.0}}, LineCase::AgentCutoffCircle, 8));
    rec.agentNeighbors.resize(4);
    solve(rec);
    return rec;
}

TEST(SolveView, NoTraceNoSteps) {
    ExplainRecord rec;
    EXPECT_EQ(ui::solveStepCount(rec), 0);
    EXPECT_EQ(ui::solveFrame(rec, 3).count, 0);
}

TEST(SolveView, Lp2StepsNarrateAndMoveTheOptimum) {
    const ExplainRecord rec = feasibleRecord();
    ASSERT_EQ(ui::solveStepCount(rec), 6); // start, 4 lines, result

    const ui::SolveFrame s0 = ui::solveFrame(rec, 0);
    EXPECT_EQ(s0.kind, ui::SolveStepKind::Start);
    EXPECT_EQ(s0.narration,
              "start: v_opt = v_pref = (1.50, 0.00); 4 lines to insert, obstacle lines first");

    const ui::SolveFrame s1 = ui::solveFrame(rec, 1);
    EXPECT_EQ(s1.kind, ui::SolveStepKind::Lp2Line);
    EXPECT_EQ(s1.line, 0);
    EXPECT_EQ(s1.inserted, 0);
    EXPECT_EQ(s1.narration, "line 0, neighbour #3, cut-off circle: v_opt violates it by 1 "
                            "\xE2\x86\x92 solve on the line: t \xE2\x88\x88 [-1.732, 1.732] "
                            "(the disk) \xE2\x86\x92 v_opt = (1.50, 1.00)");
    EXPECT_NEAR(s1.after.x, 1.5, 1e-12);
    EXPECT_NEAR(s1.after.y, 1.0, 1e-12);

    // Line 1: the interval is clipped on the left by line 0 at (0.5, 1); v_opt lands there.
    const ui::SolveFrame s2 = ui::solveFrame(rec, 2);
    EXPECT_EQ(s2.narration, "line 1, neighbour #5, left leg: v_opt violates it by 1 "
                            "\xE2\x86\x92 solve on the line: t \xE2\x88\x88 [1.000, 1.936] "
                            "(disk [-1.936, 1.936], clipped by line 0) \xE2\x86\x92 "
                            "v_opt = (0.50, 1.00)");
    EXPECT_EQ(s2.before, s1.after);
    ASSERT_EQ(s2.clipLines, std::vector<int>{0});
    EXPECT_NEAR(s2.clipPoints[0].x, 0.5, 1e-12);
    EXPECT_NEAR(s2.clipPoints[0].y, 1.0, 1e-12);
    EXPECT_TRUE(s2.hasLp1);
    EXPECT_FALSE(s2.empty);
    EXPECT_NEAR(s2.from.y, 1.0, 1e-12);           // tLeft = 1 on x = 0.5
    EXPECT_NEAR(s2.to.y, std::sqrt(3.75), 1e-12); // the disk's end
    EXPECT_NEAR(s2.diskA.y, -std::sqrt(3.75), 1e-12);

    const ui::SolveFrame s4 = ui::solveFrame(rec, 4);
    EXPECT_TRUE(s4.held);
    EXPECT_FALSE(s4.hasLp1);
    EXPECT_EQ(s4.narration, "line 3, neighbour #8, cut-off circle: v_opt satisfies it (margin "
                            "0.5) \xE2\x86\x92 keep v_opt = (0.20, 1.00)");
    EXPECT_EQ(s4.before, s4.after);

    const ui::SolveFrame s5 = ui::solveFrame(rec, 5);
    EXPECT_EQ(s5.kind, ui::SolveStepKind::Result);
    EXPECT_EQ(s5.after, rec.newVelocity);
    EXPECT_EQ(s5.narration, "result: v_new = (0.20, 1.00); binding lines 0, 2");

    // Out-of-range steps clamp.
    EXPECT_EQ(ui::solveFrame(rec, 99).index, 5);
    EXPECT_EQ(ui::solveFrame(rec, -3).index, 0);
}

TEST(SolveView, Lp2FailureThenLp3WithTheBisectorWeight) {
    // y >= 1 and x >= 0.5 in the unit disk: LP2 fails at line 1, LP3 builds one bisector.
    ExplainRecord rec;
    rec.agent = {1, 0};
    rec.params.maxSpeed = 1.0;
    rec.lines.push_back(agentLine({{0.0, 1.0}, {1.0, 0.0}}, LineCase::AgentCutoffCircle, 2));
    rec.lines.push_back(agentLine({{0.5, 0.0}, {0.0, -1.0}}, LineCase::AgentRightLeg, 4));
    rec.agentNeighbors.resize(2);
    solve(rec, 2.0);
    ASSERT_EQ(ui::solveStepCount(rec), 5); // start, 2 LP2 lines, 1 LP3 line, result

    const ui::SolveFrame fail = ui::solveFrame(rec, 2);
    EXPECT_EQ(fail.kind, ui::SolveStepKind::Lp2Fail);
    EXPECT_TRUE(fail.empty);
    EXPECT_EQ(fail.narration, "line 1, neighbour #4, right leg: v_opt violates it by 0.5 "
                              "\xE2\x86\x92 solve on the line: t \xE2\x88\x88 [-0.866, -1.000] "
                              "(disk [-0.866, 0.866], clipped by line 0) is empty \xE2\x86\x92 "
                              "LP2 fails; LP3 from line 1");
    EXPECT_EQ(fail.after, fail.before);

    const ui::SolveFrame lp3 = ui::solveFrame(rec, 3);
    EXPECT_EQ(lp3.kind, ui::SolveStepKind::Lp3Line);
    EXPECT_FALSE(lp3.held);
    ASSERT_EQ(lp3.projected.size(), 1u);
    EXPECT_EQ(lp3.projectedFrom[0], 0);
    const double n = std::sqrt(5.0);
    EXPECT_NEAR(lp3.projected[0].direction.x, 2.0 / n, 1e-12);
    EXPECT_NEAR(lp3.projected[0].direction.y, 1.0 / n, 1e-12);
    EXPECT_EQ(lp3.push, Vec2(1.0, 0.0));
    EXPECT_NEAR(lp3.distance, 0.8 - 2.0 * std::sqrt(0.11), 1e-12);
    EXPECT_NE(lp3.narration.find("1 bisector line (w = 2)"), std::string::npos) << lp3.narration;
    EXPECT_NE(lp3.narration.find("distance 0.137"), std::string::npos) << lp3.narration;

    const ui::SolveFrame result = ui::solveFrame(rec, 4);
    EXPECT_EQ(result.after, rec.newVelocity);
    EXPECT_EQ(result.binding, std::vector<std::size_t>{1});
    EXPECT_NE(result.narration.find("LP3: largest violation 0.137"), std::string::npos);
}

TEST(SolveView, CaseNames) {
    EXPECT_EQ(ui::caseName(LineCase::AgentLeftLeg), "left leg");
    EXPECT_EQ(ui::caseName(LineCase::ObstacleCutoffLine), "cut-off line");
}

} // namespace
