#include <gtest/gtest.h>

#include "sim_clock.hpp"

using orca::app::ClockSettings;
using orca::app::RunMode;
using orca::app::SimClock;

TEST(SimClock, RealTimeAccumulatesFractions) {
    SimClock clock;
    ClockSettings s;
    s.timeScale = 1.0;
    // dt = 0.25 s: frames of 0.1 s give a step on the 3rd, 5th (0.5 s) ... frames.
    int steps = 0;
    int perFrame[5];
    for (int i = 0; i < 5; ++i)
        steps += perFrame[i] = clock.stepsFor(0.1, 0.25, s);
    EXPECT_EQ(perFrame[0], 0);
    EXPECT_EQ(perFrame[1], 0);
    EXPECT_EQ(perFrame[2], 1);
    EXPECT_EQ(steps, 2);
    EXPECT_NEAR(clock.owedSeconds(), 0.0, 1e-12);
}

TEST(SimClock, TimeScaleMultiplies) {
    SimClock clock;
    ClockSettings s;
    s.timeScale = 10.0;
    s.maxCatchUpSteps = 100;
    EXPECT_EQ(clock.stepsFor(0.1, 0.25, s), 4); // 1 simulated second
}

TEST(SimClock, CatchUpIsCappedAndBacklogDropped) {
    SimClock clock;
    ClockSettings s;
    s.timeScale = 8.0;
    s.maxCatchUpSteps = 3;
    EXPECT_EQ(clock.stepsFor(0.2, 0.25, s), 3); // 1.6 s owed = 6 steps, capped
    EXPECT_LT(clock.owedSeconds(), 0.25);       // only the partial step is kept
    EXPECT_EQ(clock.stepsFor(0.0, 0.25, s), 0);
}

TEST(SimClock, LongStallsAreNotCaughtUp) {
    SimClock clock;
    ClockSettings s;
    s.timeScale = 1.0;
    s.maxCatchUpSteps = 100;
    // A 10 s stall counts as kMaxFrameSeconds.
    EXPECT_EQ(clock.stepsFor(10.0, 0.05, s),
              static_cast<int>(SimClock::kMaxFrameSeconds / 0.05 + 1e-9));
}

TEST(SimClock, StepsPerFrameIgnoresTime) {
    SimClock clock;
    ClockSettings s;
    s.mode = RunMode::StepsPerFrame;
    s.stepsPerFrame = 7;
    EXPECT_EQ(clock.stepsFor(0.0, 0.25, s), 7);
    EXPECT_EQ(clock.stepsFor(5.0, 0.25, s), 7);
}

TEST(SimClock, ResetForgetsOwedTime) {
    SimClock clock;
    ClockSettings s;
    s.timeScale = 1.0;
    EXPECT_EQ(clock.stepsFor(0.2, 0.25, s), 0);
    clock.reset();
    EXPECT_EQ(clock.stepsFor(0.1, 0.25, s), 0); // 0.1 < 0.25: the earlier 0.2 s is gone
}
