// Trajectory CSV reader (trajectory_csv.hpp): frames from rows, exact doubles, the precision
// the numbers were written with, and every malformed file refused at its line and column.
#include <string>

#include <gtest/gtest.h>

#include "orca/scene/trajectory_csv.hpp"

namespace orca::scene {
namespace {

TEST(TrajectoryCsv, ReadsFramesWithExactNumbers) {
    const Recording r = parseTrajectoryCsv("step,agent,x,y,vx,vy\n"
                                           "0,0,0.1,-2,0,0\n"
                                           "0,1,3.0000000000000004,4,0,0\n"
                                           "1,0,0.35,-2,1,5e-324\n"
                                           "1,1,3,4.25,0,1\n",
                                           "t.csv");
    ASSERT_EQ(r.frames.size(), 2u);
    EXPECT_EQ(r.frames[0].step, 0u);
    EXPECT_EQ(r.frames[1].step, 1u);
    EXPECT_EQ(r.frames[0].position[1].x, 3.0000000000000004);
    EXPECT_EQ(r.frames[1].velocity[0].y, 5e-324);
    EXPECT_TRUE(r.frames[0].prefVelocity.empty());
    EXPECT_EQ(r.encoding, RecordingEncoding::Float64) << "17 significant digits";
    EXPECT_TRUE(r.scenes.empty());
}

TEST(TrajectoryCsv, NineDigitNumbersAreTheFloatsAProgramHeld) {
    // 59.9177704 names the float 59.917770385742188 (what RVO2 held): read as that float.
    const Recording r = parseTrajectoryCsv("step,agent,x,y,vx,vy,pvx,pvy\r\n"
                                           "4,0,59.9177704,3.14015746,0,0,1,0\r\n"
                                           "4,0,59.9177704,3.14015746,0,0,1,0\r\n",
                                           "f.csv");
    ASSERT_EQ(r.frames.size(), 2u) << "a step may repeat (an edited state)";
    EXPECT_EQ(r.encoding, RecordingEncoding::Float32);
    EXPECT_EQ(r.frames[0].position[0].x, static_cast<double>(59.9177704F));
    EXPECT_EQ(r.frames[0].prefVelocity[0], Vec2(1.0, 0.0));
}

void expectError(const std::string& text, int line, int column, const std::string& what) {
    try {
        (void)parseTrajectoryCsv(text, "bad.csv");
        ADD_FAILURE() << "accepted: " << text;
    } catch (const SceneError& e) {
        EXPECT_EQ(e.file(), "bad.csv");
        EXPECT_EQ(e.line(), line) << e.what();
        EXPECT_EQ(e.column(), column) << e.what();
        EXPECT_NE(e.message().find(what), std::string::npos) << e.what();
    }
}

TEST(TrajectoryCsv, RefusesMalformedFilesAtTheirLineAndColumn) {
    const std::string h = "step,agent,x,y,vx,vy\n";
    expectError("", 1, 1, "empty file");
    expectError("step,agent,x,y\n", 1, 1, "expected the header");
    expectError(h, 2, 1, "no rows after the header");
    expectError(h + "0,1,0,0,0,0\n", 2, 3, "expected agent 0 first");
    expectError(h + "0,0,0,0,0,0\n0,2,0,0,0,0\n", 3, 3, "expected agent 1, found agent 2");
    expectError(h + "0,0,0,0,0,0\n1,1,0,0,0,0\n", 3, 1, "expected step 0");
    expectError(h + "0,0,0,zero,0,0\n", 2, 7, "expected y (a number), found \"zero\"");
    expectError(h + "0,0,0,0,0,nan\n", 2, 11, "vy is not finite");
    expectError(h + "0,0,0,0,0,1e999\n", 2, 11, "expected vy (a number)");
    expectError(h + "0,0,0,0,0\n", 2, 10, "expected vy");
    expectError(h + "0,0,0,0,0,0,7\n", 2, 12, "too many columns");
    expectError(h + "-1,0,0,0,0,0\n", 2, 1, "expected the step (a whole number >= 0)");
    expectError(h + "5,0,0,0,0,0\n4,0,0,0,0,0\n", 3, 1, "steps must not decrease");
    expectError(h + "0,0,0,0,0,0\n0,1,0,0,0,0\n1,0,0,0,0,0\n2,0,0,0,0,0\n", 5, 1,
                "step 1 has 1 agents, the first step had 2");
    expectError(h + "0,0,0,0,0,0\n0,1,0,0,0,0\n1,0,0,0,0,0\n", 4, 1, "may be cut short");
    expectError(h + "0,0,0,0,0,0\n\n1,0,0,0,0,0\n", 4, 1, "a row after a blank line");
}

TEST(TrajectoryCsv, FloatsWrittenInFullAreFloatsToo) {
    // (What `orca recording --csv` writes for a float32 recording.)
    const Recording r = parseTrajectoryCsv(
        "step,agent,x,y,vx,vy\n0,0,59.917770385742188,0.10000000149011612,0,0\n", "t.csv");
    EXPECT_EQ(r.encoding, RecordingEncoding::Float32);
    EXPECT_EQ(r.frames[0].position[0].y, static_cast<double>(0.1F));
}

TEST(TrajectoryCsv, ANumberBeyondFloatsRangeMakesTheFileDouble) {
    const Recording r = parseTrajectoryCsv("step,agent,x,y,vx,vy\n0,0,1e300,0,0,0\n", "t.csv");
    EXPECT_EQ(r.encoding, RecordingEncoding::Float64);
    EXPECT_EQ(r.frames[0].position[0].x, 1e300);
}

TEST(TrajectoryCsv, TrailingBlankLinesAreFine) {
    EXPECT_EQ(parseTrajectoryCsv("step,agent,x,y,vx,vy\n0,0,0,0,0,0\n\n\n", "t.csv").frames.size(),
              1u);
}

TEST(TrajectoryCsv, LoadNamesTheFile) {
    try {
        (void)loadTrajectoryCsv("/nonexistent/t.csv");
        ADD_FAILURE();
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find("/nonexistent/t.csv"), std::string::npos);
    }
}

} // namespace
} // namespace orca::scene
