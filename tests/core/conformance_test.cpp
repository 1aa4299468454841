// ConformanceChecker (conformance.hpp): our own runs conform exactly, whatever drives them; a
// single changed velocity is caught at its step and agent with the state the decision came
// from; preferred velocities of goal agents are compared, those of the others are used.
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "orca/conformance.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

/// A recorded state: what the checker reads per frame.
struct Frame {
    std::uint64_t step = 0;
    std::vector<Vec2> position;
    std::vector<Vec2> velocity;
    std::vector<Vec2> pref;
};

Frame capture(const Simulator& sim, std::vector<Vec2> pref = {}) {
    Frame f;
    f.step = sim.stepCount();
    f.position.assign(sim.positions().begin(), sim.positions().end());
    f.velocity.assign(sim.velocities().begin(), sim.velocities().end());
    f.pref = std::move(pref);
    return f;
}

std::vector<Vec2> prefs(const Simulator& sim) {
    std::vector<Vec2> v(sim.agentCount());
    for (std::size_t i = 0; i < v.size(); ++i)
        v[i] = sim.prefVelocityAt(i);
    return v;
}

/// Eight agents swapping places across a square obstacle, with goals, a static agent in the
/// way and the detour field on: every kind of state the recording does not hold moves.
Simulator crowd(int threads = 1) {
    Simulator sim;
    SimulationParams params = sim.params();
    params.detour.enabled = true;
    sim.setParams(params);
    for (int k = 0; k < 8; ++k) {
        const double a = 2.0 * std::numbers::pi * k / 8.0;
        AgentDef d;
        d.position = {12.0 * std::cos(a), 12.0 * std::sin(a)};
        d.hasGoal = true;
        d.goal = -d.position;
        d.params.radius = 1.0;
        d.params.maxSpeed = 2.0;
        sim.addAgent(d);
    }
    AgentDef wall;
    wall.position = {0.0, 6.0};
    wall.isStatic = true;
    sim.addAgent(wall);
    const std::vector<Vec2> square{{-1.0, -1.0}, {1.0, -1.0}, {1.0, 1.0}, {-1.0, 1.0}};
    sim.addObstacle(square);
    sim.setThreadCount(threads);
    return sim;
}

/// Runs `steps` steps of `sim`, recording each state (and the preferred velocities of each
/// step, taken before it), then checks the recording with a fresh copy of the start.
ConformanceReport runAndCheck(Simulator sim, Simulator shadow, int steps,
                              ConformanceOptions options = {}) {
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 0; s < steps; ++s) {
        std::vector<Vec2> p = prefs(sim);
        sim.step();
        frames.push_back(capture(sim, std::move(p)));
    }
    ConformanceChecker checker(options);
    checker.begin(std::move(shadow));
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    return checker.report();
}

TEST(Conformance, OurOwnRunConformsExactly) {
    for (int threads : {1, 2}) {
        const ConformanceReport r = runAndCheck(crowd(threads), crowd(3 - threads), 200);
        EXPECT_EQ(r.steps, 200u);
        EXPECT_EQ(r.agents, 9u);
        EXPECT_EQ(r.checkedAgentSteps, 200u * 8u) << "the static agent is not checked";
        EXPECT_EQ(r.deviatingAgentSteps, 0u);
        EXPECT_EQ(r.maxDifference, 0.0) << "bit for bit, not merely within the tolerance";
        EXPECT_EQ(r.uncheckedFrames, 1u) << "only the first frame is a base";
        EXPECT_EQ(r.prefMismatchAgentSteps, 0u);
        EXPECT_FALSE(r.firstDeviation);
    }
}

TEST(Conformance, ARunWithoutRecordedPreferredVelocitiesConformsToo) {
    // (A trajectory CSV without pvx,pvy: goal agents steer by their goals in the shadow.)
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim)};
    for (int s = 0; s < 120; ++s) {
        sim.step();
        frames.push_back(capture(sim));
    }
    ConformanceChecker checker;
    checker.begin(crowd());
    for (const Frame& f : frames)
        EXPECT_EQ(checker.frame(f.step, f.position, f.velocity, {}), 0u);
    EXPECT_EQ(checker.report().maxDifference, 0.0);
}

TEST(Conformance, AProgramThatSetsPreferredVelocitiesEveryStepConforms) {
    // RVO2's style: no goals, the program sets v_pref before each step (and it changes).
    auto make = [] {
        Simulator sim;
        for (int k = 0; k < 6; ++k) {
            AgentDef d;
            d.position = {3.0 * k, (k % 2) * 0.5};
            sim.addAgent(d);
        }
        return sim;
    };
    Simulator sim = make();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 0; s < 80; ++s) {
        std::vector<Vec2> p(sim.agentCount());
        for (std::size_t i = 0; i < p.size(); ++i) {
            p[i] = {std::cos(0.05 * s + static_cast<double>(i)), std::sin(0.03 * s)};
            sim.setPrefVelocity(sim.agentIdAt(i), p[i]);
        }
        sim.step();
        frames.push_back(capture(sim, p));
    }
    ConformanceChecker checker;
    checker.begin(make());
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    EXPECT_EQ(checker.report().deviatingAgentSteps, 0u);
    EXPECT_EQ(checker.report().maxDifference, 0.0);

    // Without the recorded preferred velocities the shadow keeps the constant ones (zero):
    // nearly every step departs.
    ConformanceChecker blind;
    blind.begin(make());
    for (const Frame& f : frames)
        blind.frame(f.step, f.position, f.velocity, {});
    EXPECT_GT(blind.report().deviatingAgentSteps, 400u);
}

TEST(Conformance, ASingleNudgedVelocityIsCaughtAtItsStepAndAgent) {
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 0; s < 100; ++s) {
        std::vector<Vec2> p = prefs(sim);
        sim.step();
        frames.push_back(capture(sim, std::move(p)));
    }
    const Vec2 truth = frames[57].velocity[5];
    frames[57].velocity[5].x += 0.001; // (step 57, agent 5)

    ConformanceChecker checker;
    int hookCalls = 0;
    checker.onFirstDeviation([&](const ConformanceDeviation& d, const Simulator& before) {
        ++hookCalls;
        // The state the decision was made from: step 56's, and its decision is ORCA's.
        EXPECT_EQ(before.stepCount(), 56u);
        EXPECT_EQ(before.positions()[5], frames[56].position[5]);
        const ExplainRecord rec = before.explain(before.agentIdAt(d.agent));
        EXPECT_EQ(rec.newVelocity, truth);
    });
    checker.begin(crowd());
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    const ConformanceReport& r = checker.report();
    ASSERT_TRUE(r.firstDeviation);
    EXPECT_EQ(r.firstDeviation->step, 57u);
    EXPECT_EQ(r.firstDeviation->agent, 5u);
    EXPECT_EQ(r.firstDeviation->orca, truth);
    EXPECT_EQ(r.firstDeviation->recorded, frames[57].velocity[5]);
    EXPECT_NEAR(r.firstDeviation->difference, 0.001, 1e-12);
    EXPECT_EQ(hookCalls, 1);
    // The nudge is in the recorded state of step 57 too, which step 58's decisions start
    // from: agent 5 itself (its velocity is an input of its next decision) may depart at 58,
    // nothing departs before 57 or after 58.
    EXPECT_GE(r.deviatingAgentSteps, 1u);
    EXPECT_NEAR(r.maxDifference, 0.001, 2e-3);
}

TEST(Conformance, AProgramThatDepartsTwiceDepartsAtExactlyThoseAgentSteps) {
    // The program halves agent 2's velocity at steps 10 and 40 and moves by it (its run is
    // consistent: positions, detour and deadlock states follow what it did). Every other
    // decision of the run is ORCA's from the state it reached, so exactly those two
    // agent-steps depart, and nothing echoes later: after a departure the checker's shadow
    // follows the recorded velocities (Simulator::stepWithVelocities), as the program did.
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 1; s <= 60; ++s) {
        std::vector<Vec2> p = prefs(sim);
        if (s == 10 || s == 40) {
            Simulator probe = crowd();
            probe.restore(sim.snapshot());
            probe.step();
            std::vector<Vec2> v(probe.velocities().begin(), probe.velocities().end());
            v[2] *= 0.5;
            sim.stepWithVelocities(v);
            ASSERT_EQ(sim.velocities()[2], v[2]);
        } else {
            sim.step();
        }
        frames.push_back(capture(sim, std::move(p)));
    }
    ConformanceOptions options;
    options.keepAll = true;
    ConformanceChecker checker(options);
    checker.begin(crowd());
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    const ConformanceReport& r = checker.report();
    ASSERT_EQ(r.deviations.size(), 2u);
    EXPECT_EQ(r.deviations[0].step, 10u);
    EXPECT_EQ(r.deviations[0].agent, 2u);
    EXPECT_EQ(r.deviations[1].step, 40u);
    EXPECT_EQ(r.deviations[1].agent, 2u);
    EXPECT_EQ(r.deviations[1].recorded, 0.5 * r.deviations[1].orca);
    EXPECT_EQ(r.deviatingAgentSteps, 2u);
}

TEST(Conformance, HandCheckedDifferenceOfALoneAgent) {
    // One agent, nobody near: ORCA's new velocity is the preferred one, (1, 0.5). The program
    // recorded (1.3, 0.1): difference |(0.3, -0.4)| = 0.5. maxSpeed 2: allowed 1e-9 x 2.
    auto make = [] {
        Simulator sim;
        AgentDef d;
        d.params.maxSpeed = 2.0;
        sim.addAgent(d);
        return sim;
    };
    ConformanceChecker checker;
    checker.begin(make());
    const std::vector<Vec2> p0{{0.0, 0.0}}, v0{{0.0, 0.0}};
    EXPECT_EQ(checker.frame(0, p0, v0, {}), 0u);
    const std::vector<Vec2> p1{{0.325, 0.025}}, v1{{1.3, 0.1}}, pref{{1.0, 0.5}};
    EXPECT_EQ(checker.frame(1, p1, v1, pref), 1u);
    const ConformanceReport& r = checker.report();
    ASSERT_TRUE(r.firstDeviation);
    EXPECT_EQ(r.firstDeviation->orca, Vec2(1.0, 0.5));
    EXPECT_NEAR(r.firstDeviation->difference, 0.5, 1e-15);
    // Within a tolerance of 0.25 x max(1, 2) = 0.5: conforms (not strictly more than allowed).
    ConformanceChecker loose(ConformanceOptions{.tolerance = 0.25});
    loose.begin(make());
    loose.frame(0, p0, v0, {});
    EXPECT_EQ(loose.frame(1, p1, v1, pref), 0u);
    EXPECT_EQ(loose.report().maxDifference, r.maxDifference);
}

TEST(Conformance, GoalAgentsComparePreferredVelocitiesInsteadOfTakingThem) {
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 0; s < 20; ++s) {
        std::vector<Vec2> p = prefs(sim);
        sim.step();
        frames.push_back(capture(sim, std::move(p)));
    }
    frames[7].pref[3] = {0.0, 0.0}; // (the program said "stand still"; the goal says go)
    ConformanceChecker checker;
    checker.begin(crowd());
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    const ConformanceReport& r = checker.report();
    EXPECT_EQ(r.prefMismatchAgentSteps, 1u);
    ASSERT_TRUE(r.firstPrefMismatch);
    EXPECT_EQ(r.firstPrefMismatch->step, 7u);
    EXPECT_EQ(r.firstPrefMismatch->agent, 3u);
    EXPECT_EQ(r.deviatingAgentSteps, 0u) << "the velocities are still ORCA's (goal-driven)";
}

TEST(Conformance, EditedStatesAndGapsBecomeTheBaseUnchecked) {
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 0; s < 30; ++s) {
        if (s == 12) {
            // An edit between steps: the program moved agent 1 and recorded the edited state
            // with the same step number.
            sim.setPosition(sim.agentIdAt(1), sim.positions()[1] + Vec2(0.5, -0.25));
            frames.push_back(capture(sim, prefs(sim)));
        }
        std::vector<Vec2> p = prefs(sim);
        sim.step();
        if (s != 20) frames.push_back(capture(sim, std::move(p))); // (step 21 not recorded)
    }
    ConformanceChecker checker;
    checker.begin(crowd());
    for (const Frame& f : frames)
        checker.frame(f.step, f.position, f.velocity, f.pref);
    const ConformanceReport& r = checker.report();
    EXPECT_EQ(r.deviatingAgentSteps, 0u);
    EXPECT_EQ(r.maxDifference, 0.0);
    EXPECT_EQ(r.uncheckedFrames, 3u) << "the start, the edit and the step after the gap";
    EXPECT_EQ(r.steps, 30u - 2u);
}

TEST(Conformance, RefusesWhatDoesNotFit) {
    EXPECT_THROW(ConformanceChecker(ConformanceOptions{.tolerance = -1.0}), std::invalid_argument);
    EXPECT_THROW(ConformanceChecker(ConformanceOptions{.tolerance = std::nan("")}),
                 std::invalid_argument);
    ConformanceChecker checker;
    const std::vector<Vec2> one{{0.0, 0.0}};
    EXPECT_THROW(checker.frame(0, one, one, {}), std::logic_error) << "before begin";
    checker.begin(crowd());
    EXPECT_THROW(checker.frame(0, one, one, {}), std::invalid_argument) << "9 agents, not 1";
}

TEST(Conformance, TheShadowResumesFromItsSnapshot) {
    // A check resumed at step 30 from the shadow's snapshot finds what the whole check finds
    // after it (the app explains and checks from snapshots when it seeks).
    Simulator sim = crowd();
    std::vector<Frame> frames{capture(sim, prefs(sim))};
    for (int s = 1; s <= 60; ++s) {
        std::vector<Vec2> p = prefs(sim);
        if (s == 45) {
            Simulator probe = crowd();
            probe.restore(sim.snapshot());
            probe.step();
            std::vector<Vec2> v(probe.velocities().begin(), probe.velocities().end());
            v[6] *= 0.25;
            sim.stepWithVelocities(v);
        } else {
            sim.step();
        }
        frames.push_back(capture(sim, std::move(p)));
    }
    ConformanceChecker whole;
    whole.begin(crowd());
    SimulatorState at30;
    for (const Frame& f : frames) {
        whole.frame(f.step, f.position, f.velocity, f.pref);
        if (f.step == 30) at30 = whole.shadow().snapshot();
    }
    Simulator resumed = crowd();
    resumed.restore(at30);
    EXPECT_EQ(resumed.stepCount(), 30u);
    ConformanceChecker part;
    part.begin(std::move(resumed));
    for (const Frame& f : frames)
        if (f.step > 30) part.frame(f.step, f.position, f.velocity, f.pref);
    ASSERT_TRUE(part.report().firstDeviation);
    EXPECT_EQ(part.report().firstDeviation->step, 45u);
    EXPECT_EQ(part.report().firstDeviation->agent, 6u);
    EXPECT_EQ(part.report().deviatingAgentSteps, whole.report().deviatingAgentSteps);
    EXPECT_EQ(part.shadow().stateHash(), whole.shadow().stateHash());
    // The decision from frame 44, explained from the shadow with step 45's preferred
    // velocities, is ORCA's answer the report names.
    ConformanceChecker upTo44;
    upTo44.begin(crowd());
    for (const Frame& f : frames)
        if (f.step <= 44) upTo44.frame(f.step, f.position, f.velocity, f.pref);
    Simulator explainer = crowd();
    explainer.restore(upTo44.shadow().snapshot());
    applyRecordedPrefVelocities(explainer, frames[45].pref);
    EXPECT_EQ(explainer.explain(explainer.agentIdAt(6)).newVelocity,
              whole.report().firstDeviation->orca);
}

TEST(StepWithVelocities, MovesByTheGivenVelocitiesAndKeepsStaticAgentsStill) {
    Simulator sim;
    AgentDef a;
    a.prefVelocity = {1.0, 0.0};
    const AgentId mover = sim.addAgent(a);
    AgentDef wall;
    wall.position = {-40.0, 40.0}; // (beyond every neighbour distance)
    wall.isStatic = true;
    const AgentId still = sim.addAgent(wall);
    const std::vector<Vec2> v{{0.5, -0.25}, {3.0, 3.0}};
    sim.stepWithVelocities(v);
    // Δt 0.25 (the default): p = (0, 0) + (0.5, -0.25) x 0.25.
    EXPECT_EQ(sim.position(mover), Vec2(0.125, -0.0625));
    EXPECT_EQ(sim.velocity(mover), Vec2(0.5, -0.25));
    EXPECT_EQ(sim.position(still), Vec2(-40.0, 40.0));
    EXPECT_EQ(sim.velocity(still), Vec2(0.0, 0.0));
    EXPECT_EQ(sim.stepCount(), 1u);
    // The next plain step decides again: the preferred velocity, (1, 0).
    sim.step();
    EXPECT_EQ(sim.velocity(mover), Vec2(1.0, 0.0));
}

TEST(StepWithVelocities, RefusesAWrongCountOrANonFiniteVelocityAndChangesNothing) {
    Simulator sim = crowd();
    const std::uint64_t hash = sim.stateHash();
    EXPECT_THROW(sim.stepWithVelocities(std::vector<Vec2>(3)), InvalidArgument);
    std::vector<Vec2> v(sim.agentCount());
    v[4] = {std::nan(""), 0.0};
    EXPECT_THROW(sim.stepWithVelocities(v), InvalidArgument);
    EXPECT_EQ(sim.stateHash(), hash);
    EXPECT_EQ(sim.stepCount(), 0u);
    // And the next plain step is the plain step (nothing of the refused call stays).
    Simulator twin = crowd();
    sim.step();
    twin.step();
    EXPECT_EQ(sim.stateHash(), twin.stateHash());
}

TEST(StepWithVelocities, GivenTheDecisionsItIsThePlainStep) {
    for (int threads : {1, 2}) {
        Simulator a = crowd(threads);
        Simulator b = crowd(threads);
        for (int s = 0; s < 80; ++s) {
            Simulator probe = crowd();
            probe.restore(b.snapshot());
            probe.step();
            const std::vector<Vec2> v(probe.velocities().begin(), probe.velocities().end());
            a.step();
            b.stepWithVelocities(v);
            ASSERT_EQ(a.stateHash(), b.stateHash()) << "step " << s;
            ASSERT_EQ(a.snapshot().detourMode, b.snapshot().detourMode) << "step " << s;
            ASSERT_EQ(a.snapshot().stillSeconds, b.snapshot().stillSeconds) << "step " << s;
        }
    }
}

} // namespace
} // namespace orca
