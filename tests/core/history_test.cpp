// History: seeking to any recorded step gives the bits of a straight run; keyframes thin out
// under the memory budget; edits cut the recorded future and a copy brings it back.
#include <random>
#include <stdexcept>

#include <gtest/gtest.h>

#include "orca/history.hpp"

namespace orca {
namespace {

Simulator makeCrowd(int agents, int threads = 1) {
    SimulationParams sp;
    sp.timeStep = 0.1;
    Simulator sim(sp);
    sim.setThreadCount(threads);
    std::mt19937 rng(11);
    std::uniform_real_distribution<double> u(-10.0, 10.0);
    for (int i = 0; i < agents; ++i) {
        AgentDef d;
        d.position = {u(rng), u(rng)};
        d.params.radius = 0.5;
        d.params.neighborDist = 5.0;
        d.params.maxNeighbors = 8;
        d.hasGoal = true;
        d.goal = -d.position;
        sim.addAgent(d);
    }
    return sim;
}

HistoryParams noEvents() {
    HistoryParams p;
    p.detectEvents = false;
    return p;
}

/// Records `steps` steps, returning the stateHash of every step (index = step).
std::vector<std::uint64_t> recordRun(Simulator& sim, History& h, int steps) {
    std::vector<std::uint64_t> hashes{sim.stateHash()};
    h.start(sim);
    for (int s = 0; s < steps; ++s) {
        sim.step();
        h.record(sim);
        hashes.push_back(sim.stateHash());
    }
    return hashes;
}

TEST(History, SeekToEveryStepEqualsTheStraightRun) {
    Simulator sim = makeCrowd(30);
    History h(noEvents());
    const std::vector<std::uint64_t> hashes = recordRun(sim, h, 100);
    EXPECT_EQ(h.firstStep(), 0u);
    EXPECT_EQ(h.lastStep(), 100u);
    EXPECT_EQ(h.keyframeInterval(), 8u);
    EXPECT_EQ(h.keyframeCount(), 13u); // steps 0, 8, ..., 96
    Simulator other;
    other.setThreadCount(2);
    for (std::uint64_t s = 0; s <= 100; ++s) {
        EXPECT_EQ(h.seek(sim, s), s);
        EXPECT_EQ(sim.stepCount(), s);
        EXPECT_EQ(sim.stateHash(), hashes[s]) << "step " << s;
        h.seek(other, 100 - s);
        EXPECT_EQ(other.stateHash(), hashes[100 - s]) << "step " << 100 - s;
    }
    // Out of range: clamped to the recording.
    EXPECT_EQ(h.seek(sim, 1000), 100u);
    EXPECT_EQ(sim.stateHash(), hashes[100]);
}

TEST(History, RecordingStartsAtTheSimulatorsStep) {
    Simulator sim = makeCrowd(10);
    for (int s = 0; s < 5; ++s)
        sim.step();
    History h(noEvents());
    h.start(sim);
    EXPECT_EQ(h.firstStep(), 5u);
    EXPECT_THROW(h.record(sim), std::logic_error); // not stepped
    sim.step();
    sim.step();
    EXPECT_THROW(h.record(sim), std::logic_error); // skipped one
    EXPECT_EQ(h.seek(sim, 0), 5u);
}

TEST(History, ThinsKeyframesUnderTheBudgetAndStaysExact) {
    Simulator sim = makeCrowd(200);
    HistoryParams p = noEvents();
    p.memoryBudget = std::size_t(1) << 20; // the minimum
    p.initialInterval = 1;
    History h(p);
    const std::vector<std::uint64_t> hashes = recordRun(sim, h, 600);
    // One keyframe holds ~200 × 43 bytes of dynamics: 1 MiB fits ~120 of them.
    EXPECT_GE(h.keyframeInterval(), 4u);
    EXPECT_LE(h.bytes(), p.memoryBudget + (std::size_t(64) << 10));
    const std::vector<std::uint64_t> steps = h.keyframeSteps();
    ASSERT_FALSE(steps.empty());
    EXPECT_EQ(steps.front(), 0u);
    for (std::uint64_t s : steps)
        EXPECT_EQ(s % h.keyframeInterval(), 0u);
    std::mt19937 rng(3);
    for (int k = 0; k < 25; ++k) {
        const std::uint64_t s = rng() % 601;
        h.seek(sim, s);
        EXPECT_EQ(sim.stateHash(), hashes[s]) << "step " << s;
    }
    // Shrinking the budget later thins at once.
    const std::uint32_t before = h.keyframeInterval();
    h.setMemoryBudget(std::size_t(1) << 20);
    EXPECT_GE(h.keyframeInterval(), before);
}

TEST(History, AnEditAtAPastStepCutsTheFutureAndACopyBringsItBack) {
    Simulator sim = makeCrowd(30);
    History h(noEvents());
    const std::vector<std::uint64_t> hashes = recordRun(sim, h, 80);
    const History before = h; // what an undo stack keeps

    h.seek(sim, 37);
    SimulationParams sp = sim.params();
    sp.responsibility = 1.0;
    sim.setParams(sp);
    h.edit(sim);
    EXPECT_EQ(h.lastStep(), 37u);
    EXPECT_EQ(sim.stateHash(), hashes[37]); // same positions, other parameters
    for (int s = 0; s < 20; ++s) {
        sim.step();
        h.record(sim);
    }
    const std::uint64_t edited57 = sim.stateHash();
    EXPECT_NE(edited57, hashes[57]);
    // Before the edit: the old past; at and after it: the edited run.
    h.seek(sim, 36);
    EXPECT_EQ(sim.stateHash(), hashes[36]);
    EXPECT_EQ(sim.params().responsibility, 0.5);
    h.seek(sim, 37);
    EXPECT_EQ(sim.params().responsibility, 1.0);
    h.seek(sim, 57);
    EXPECT_EQ(sim.stateHash(), edited57);

    // Undo: the copy still reaches the cut future.
    h = before;
    EXPECT_EQ(h.lastStep(), 80u);
    h.seek(sim, 80);
    EXPECT_EQ(sim.stateHash(), hashes[80]);
    EXPECT_EQ(sim.params().responsibility, 0.5);
}

TEST(History, CutAfterKeepsThePast) {
    Simulator sim = makeCrowd(20);
    History h(noEvents());
    const std::vector<std::uint64_t> hashes = recordRun(sim, h, 50);
    h.cutAfter(20);
    EXPECT_EQ(h.lastStep(), 20u);
    for (std::uint64_t s : h.keyframeSteps())
        EXPECT_LE(s, 20u);
    h.seek(sim, 20);
    EXPECT_EQ(sim.stateHash(), hashes[20]);
    // Recording on from the cut gives the same run again (nothing was edited).
    for (int s = 0; s < 10; ++s) {
        sim.step();
        h.record(sim);
    }
    EXPECT_EQ(sim.stateHash(), hashes[30]);
    h.seek(sim, 29);
    EXPECT_EQ(sim.stateHash(), hashes[29]);
}

TEST(History, EditThatChangesTheAgentsStartsEventDetectionOver) {
    Simulator sim = makeCrowd(10);
    History h(noEvents());
    recordRun(sim, h, 30);
    h.seek(sim, 12);
    sim.addAgent(AgentDef{});
    h.edit(sim);
    EXPECT_EQ(h.lastStep(), 12u);
    h.seek(sim, 12);
    EXPECT_EQ(sim.agentCount(), 11u);
    h.seek(sim, 11);
    EXPECT_EQ(sim.agentCount(), 10u);
}

TEST(History, EventsMatchADetectorRunAndResumeExactlyAfterACut) {
    // A dense crowd with overlaps, LP3 spells and arrivals.
    Simulator sim = makeCrowd(60);
    std::vector<Event> straight;
    {
        Simulator plain = makeCrowd(60);
        EventDetector detector;
        detector.reset(plain, straight);
        for (int s = 0; s < 300; ++s) {
            plain.step();
            detector.observe(plain, straight);
        }
    }
    ASSERT_FALSE(straight.empty());
    History h;
    recordRun(sim, h, 300);
    EXPECT_EQ(h.events(), straight);

    // Cut in the middle of the run (not on a keyframe) and record again: the detector resumes
    // from the keyframe copy and finds the same events.
    h.cutAfter(123);
    for (const Event& e : h.events())
        EXPECT_LE(e.step, 123u);
    h.seek(sim, 123);
    // The seek's replay (from the keyframe at 120) ran unwatched: nobody observed it.
    EXPECT_TRUE(sim.lastChangeWasStep());
    EXPECT_TRUE(sim.lastStepFlags().empty());
    for (int s = 123; s < 300; ++s) {
        sim.step();
        h.record(sim);
        // The detector asks for its watch again when it observes the first step at the head.
        if (s > 123) {
            EXPECT_EQ(sim.lastStepFlags().size(), sim.agentCount()) << "step " << s + 1;
        }
    }
    EXPECT_EQ(h.events(), straight);
}

TEST(History, AnEditReportsItsTransitionsAtTheEditedStep) {
    Simulator sim = makeCrowd(2);
    // Two agents far apart; the edit moves one onto the other at step 10.
    History h;
    recordRun(sim, h, 20);
    h.seek(sim, 10);
    const std::size_t before = h.events().size();
    sim.setPosition(sim.agentIdAt(1), sim.position(sim.agentIdAt(0)) + Vec2(0.3, 0.0));
    h.edit(sim);
    ASSERT_GT(h.events().size(), before);
    const Event& e = h.events().back();
    EXPECT_EQ(e.step, 10u);
    EXPECT_EQ(e.kind, EventKind::OverlapBegin);
    EXPECT_EQ(e.agents, (std::vector<std::uint32_t>{0, 1}));
}

TEST(History, RecordInTwoPartsEqualsRecord) {
    // recordEvents() then recordState() (how `orca run --record --events` times the two) keeps
    // the same events, keyframes and bytes as record(); a second recordEvents() detects nothing
    // new, and a cut between the two parts drops the half-recorded step's events.
    Simulator a = makeCrowd(40);
    Simulator b = makeCrowd(40);
    History whole;
    History parts;
    whole.start(a);
    parts.start(b);
    for (int s = 0; s < 60; ++s) {
        a.step();
        b.step();
        whole.record(a);
        parts.recordEvents(b);
        parts.recordEvents(b);
        parts.recordState(b);
    }
    EXPECT_EQ(parts.events(), whole.events());
    EXPECT_EQ(parts.keyframeSteps(), whole.keyframeSteps());
    EXPECT_EQ(parts.bytes(), whole.bytes());
    ASSERT_FALSE(whole.events().empty());

    b.step();
    parts.recordEvents(b);
    EXPECT_THROW(parts.recordEvents(a), std::logic_error); // not one step past the head
    parts.cutAfter(60);                                    // (the head: nothing recorded after it)
    parts.cutAfter(50);
    for (const Event& e : parts.events())
        EXPECT_LE(e.step, 50u);
    parts.seek(b, 50);
    for (int s = 50; s < 60; ++s) {
        b.step();
        parts.record(b);
    }
    EXPECT_EQ(parts.events(), whole.events());
}

} // namespace
} // namespace orca
