// Simulator::watchSteps and what the event detector takes from it: revisions that change with
// every change of the state, the per-agent flags a watched step notes, the velocities before
// the step, and a detector reading those flags reporting exactly what reading every agent
// reports.
#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "orca/events.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"

#include "event_scenes.hpp"

namespace orca {
namespace {

using testing_scenes::eventScene;
using testing_scenes::sensitiveEvents;

TEST(StepWatch, EveryChangeOfTheStateGivesANewRevision) {
    Simulator sim = eventScene(30, 2);
    const Simulator other = eventScene(30, 2);
    std::set<std::uint64_t> seen{sim.revision(), other.revision()};
    EXPECT_EQ(seen.size(), 2u) << "two simulators never share a revision";
    EXPECT_FALSE(sim.lastChangeWasStep());

    auto stepped = [&] {
        const std::uint64_t before = sim.revision();
        sim.step();
        EXPECT_TRUE(sim.lastChangeWasStep());
        EXPECT_EQ(sim.revisionBeforeLastStep(), before);
        EXPECT_TRUE(seen.insert(sim.revision()).second);
    };
    auto edited = [&](const char* what) {
        EXPECT_TRUE(seen.insert(sim.revision()).second) << what;
        EXPECT_FALSE(sim.lastChangeWasStep()) << what;
        EXPECT_TRUE(sim.previousVelocities().empty()) << what;
        stepped();
    };
    stepped();
    const AgentId a = sim.agentIdAt(5);
    sim.setPosition(a, {0.25, 9.0});
    edited("setPosition");
    sim.setVelocity(a, {0.5, 0.0});
    edited("setVelocity");
    AgentDef def = sim.agent(a);
    def.params.radius = 0.3;
    sim.setAgent(a, def);
    edited("setAgent");
    sim.setDetourState(a, DetourMode::Normal, 0.0);
    edited("setDetourState");
    sim.setStallSeconds(a, 0.0);
    edited("setStallSeconds");
    sim.setRouteProgress(sim.agentIdAt(1), 0);
    edited("setRouteProgress");
    const AgentId added = sim.addAgent(def);
    edited("addAgent");
    sim.removeAgent(added);
    edited("removeAgent");
    const std::vector<Vec2> box{{20, 20}, {21, 20}, {21, 21}, {20, 21}};
    const ObstacleId o = sim.addObstacle(box);
    edited("addObstacle");
    const std::vector<Vec2> wider{{20, 20}, {22, 20}, {22, 21}, {20, 21}};
    sim.setObstacle(o, wider);
    edited("setObstacle");
    sim.removeObstacle(o);
    edited("removeObstacle");
    sim.setParams(sim.params());
    edited("setParams");
    sim.setClock(sim.time(), sim.stepCount());
    edited("setClock");
    const SimulatorState state = sim.snapshot();
    sim.step();
    sim.restore(state);
    edited("restore");

    // Reading, explaining and the thread count change nothing.
    const std::uint64_t r = sim.revision();
    (void)sim.snapshot();
    (void)sim.explain(a);
    (void)sim.clearance();
    sim.setThreadCount(2);
    EXPECT_EQ(sim.revision(), r);
    EXPECT_TRUE(sim.lastChangeWasStep());
}

/// Steps `sim` under `watch` (kFlip for a turn of more than `flipAngle` radians) and checks
/// every agent's flags against the same conditions in other words; counts the set bits.
void stepAndCheckFlags(Simulator& sim, const StepWatch& watch, double flipAngle,
                       std::size_t (&seen)[6]) {
    const std::size_t n = sim.agentCount();
    const std::vector<Vec2> before(sim.velocities().begin(), sim.velocities().end());
    std::vector<std::uint32_t> progress(n);
    for (std::size_t i = 0; i < n; ++i)
        progress[i] = sim.routeProgressAt(i);
    sim.step();
    const auto flags = sim.lastStepFlags();
    ASSERT_EQ(flags.size(), n);
    EXPECT_EQ(sim.lastStepWatch(), watch);
    const auto prev = sim.previousVelocities();
    ASSERT_EQ(prev.size(), n);
    const auto lp3 = sim.lastStepLp3();
    ASSERT_EQ(lp3.size(), n);
    for (std::size_t i = 0; i < n; ++i) {
        EXPECT_EQ(prev[i], before[i]) << "agent " << i;
        const Vec2 u = before[i];
        const Vec2 v = sim.velocities()[i];
        const AgentParams& p = sim.agentParams()[i];
        const bool moving = !sim.isStaticAt(i);
        const bool atGoal = sim.atGoalAt(i);
        // The same conditions in other words: speeds compared, angles from atan2.
        const bool slow = moving && sim.hasGoalAt(i) && !atGoal && p.prefSpeed > 0.0 &&
                          std::hypot(v.x, v.y) < watch.slowSpeedRatio * p.prefSpeed;
        double turn = std::abs(std::atan2(v.y, v.x) - std::atan2(u.y, u.x));
        if (turn > std::numbers::pi) turn = 2.0 * std::numbers::pi - turn;
        const double tiny = 1e-6 * p.maxSpeed;
        const bool flip = moving && std::hypot(u.x, u.y) > tiny && std::hypot(v.x, v.y) > tiny &&
                          turn > flipAngle;
        const bool expected[6] = {lp3[i] != 0, atGoal, sim.detourModeAt(i) == DetourMode::Detouring,
                                  slow,        flip,   sim.routeProgressAt(i) != progress[i]};
        for (int b = 0; b < 6; ++b) {
            const bool got = (flags[i] >> b) & 1u;
            EXPECT_EQ(got, expected[b])
                << "step " << sim.stepCount() << " agent " << i << " bit " << b;
            seen[b] += got ? 1 : 0;
        }
    }
}

TEST(StepWatch, AWatchedStepNotesWhatHoldsForEveryAgent) {
    Simulator sim = eventScene(200, 3);
    sim.setThreadCount(2);
    const std::size_t n = sim.agentCount();
    const double cos60 = std::cos(60.0 * std::numbers::pi / 180.0);
    const StepWatch watch{0.3, cos60};
    sim.step();
    EXPECT_TRUE(sim.lastStepFlags().empty()) << "no watch, no flags";
    EXPECT_EQ(sim.previousVelocities().size(), n) << "the velocities before a step are kept";
    sim.watchSteps(watch);

    std::size_t seen[6] = {};
    for (int s = 0; s < 150; ++s)
        stepAndCheckFlags(sim, watch, std::numbers::pi / 3.0, seen);
    for (int b : {0, 1, 3, 4, 5})
        EXPECT_GT(seen[b], 0u) << "bit " << b << " never set: the scene does not test it";

    // An edit after the step: its notes no longer describe the state.
    sim.setVelocity(sim.agentIdAt(0), {0.1, 0.0});
    EXPECT_TRUE(sim.lastStepFlags().empty());
    EXPECT_TRUE(sim.previousVelocities().empty());
}

// The step keeps per-agent thresholds for kSlow and kFlip between steps: they follow every
// change of an agent (static, goal, prefSpeed, maxSpeed), of the agents, of the watch, and a
// restore.
TEST(StepWatch, TheFlagsFollowEveryChangeOfTheAgentsAndOfTheWatch) {
    Simulator sim = eventScene(200, 3);
    sim.setThreadCount(2);
    StepWatch watch{0.3, std::cos(60.0 * std::numbers::pi / 180.0)};
    sim.watchSteps(watch);
    std::size_t seen[6] = {};
    for (int s = 0; s < 20; ++s)
        stepAndCheckFlags(sim, watch, std::numbers::pi / 3.0, seen);

    // Agent 0 becomes static, agent 1 wants to go three times as fast (slow now), agent 2
    // loses its goal, agent 3 gets a far smaller maxSpeed.
    auto edit = [&](std::size_t i, auto change) {
        AgentDef def = sim.agent(sim.agentIdAt(i));
        change(def);
        sim.setAgent(sim.agentIdAt(i), def);
    };
    edit(0, [](AgentDef& d) { d.isStatic = true; });
    edit(1, [](AgentDef& d) { d.params.prefSpeed *= 3.0; });
    edit(2, [](AgentDef& d) { d.hasGoal = false; });
    edit(3, [](AgentDef& d) { d.params.maxSpeed *= 0.1; });
    for (int s = 0; s < 10; ++s)
        stepAndCheckFlags(sim, watch, std::numbers::pi / 3.0, seen);

    // A new agent, one removed.
    AgentDef added = sim.agent(sim.agentIdAt(5));
    added.position += Vec2(0.3, 0.2);
    sim.addAgent(added);
    sim.removeAgent(sim.agentIdAt(7));
    for (int s = 0; s < 10; ++s)
        stepAndCheckFlags(sim, watch, std::numbers::pi / 3.0, seen);

    // Another watch: most agents are slow at 0.95 of prefSpeed, and a turn of 30° flips.
    watch = {0.95, std::cos(30.0 * std::numbers::pi / 180.0)};
    sim.watchSteps(watch);
    const std::size_t slowBefore = seen[3];
    for (int s = 0; s < 10; ++s)
        stepAndCheckFlags(sim, watch, std::numbers::pi / 6.0, seen);
    EXPECT_GT(seen[3] - slowBefore, 10u * 20u) << "the new ratio makes many agents slow";

    // A restore of another crowd, whose agents want to go three times as fast; then preferred
    // velocities set before every step, as programs do (they leave the thresholds alone).
    Simulator other = eventScene(150, 5);
    for (std::size_t i = 0; i < other.agentCount(); ++i) {
        AgentDef def = other.agent(other.agentIdAt(i));
        def.params.prefSpeed *= 3.0;
        other.setAgent(other.agentIdAt(i), def);
    }
    sim.restore(other.snapshot());
    sim.watchSteps(watch);
    const std::size_t slowAfterRestore = seen[3];
    for (int s = 0; s < 10; ++s) {
        for (std::size_t i = 0; i < sim.agentCount(); i += 3)
            sim.setPrefVelocity(sim.agentIdAt(i), {0.5, -0.25});
        stepAndCheckFlags(sim, watch, std::numbers::pi / 6.0, seen);
    }
    EXPECT_GT(seen[3] - slowAfterRestore, 10u * 20u);
}

/// A detector that reads every agent at each observation: a copy has no scratch, so it cannot
/// take a step's flags.
/// A contact watch for `sim`: its largest radius, and twice the farthest move of a step at
/// its largest maxSpeed, with the detector's margin.
StepWatch contactWatch(const Simulator& sim) {
    StepWatch w;
    double maxSpeed = 0.0;
    for (const AgentParams& p : sim.agentParams()) {
        w.contactRadius = std::max(w.contactRadius, p.radius);
        maxSpeed = std::max(maxSpeed, p.maxSpeed);
    }
    w.contactReach = 2.0 * maxSpeed * sim.params().timeStep * (1.0 + 1e-6);
    return w;
}

TEST(StepWatch, ARestoreEndsTheWatch) {
    // The steps after a restore replay a recording (History::seek): nobody observes them, so
    // they run unwatched until an observer asks again.
    Simulator sim = eventScene(60, 2);
    const StepWatch watch{0.3, 0.0};
    sim.watchSteps(watch);
    sim.step();
    ASSERT_EQ(sim.lastStepFlags().size(), sim.agentCount());
    const SimulatorState state = sim.snapshot();
    sim.step();
    EXPECT_EQ(sim.lastStepFlags().size(), sim.agentCount()) << "the watch holds from step to step";
    sim.restore(state);
    sim.step();
    EXPECT_TRUE(sim.lastChangeWasStep());
    EXPECT_TRUE(sim.lastStepFlags().empty()) << "a restore ends the watch";
    EXPECT_TRUE(sim.lastStepContacts().empty());
    sim.watchSteps(watch);
    sim.step();
    EXPECT_EQ(sim.lastStepFlags().size(), sim.agentCount());
    // Edits do not end it (the detector tells an edited state by its revision).
    sim.setVelocity(sim.agentIdAt(0), {0.0, 0.0});
    sim.step();
    EXPECT_EQ(sim.lastStepFlags().size(), sim.agentCount());
}

TEST(StepWatch, ContactsHoldEveryPairThatMayOverlapAfterTheStep) {
    // A crowd of mixed radii (0.4 to 1.0) pressed together, every tenth agent static: the
    // contacts a watched step lists are exactly the pairs, not both static, that were closer
    // than r_i + r_j + contactReach before its move (each once or twice, i < j), so they hold
    // every pair that overlaps after it. Checked against every pair.
    for (int threads : {1, 2}) {
        Simulator sim = testing_scenes::crowdScene(300, 11, {1.2, false, false});
        sim.setThreadCount(threads);
        const StepWatch watch = contactWatch(sim);
        const auto params = sim.agentParams();
        int complete = 0;
        std::size_t overlapping = 0;
        for (int s = 0; s < 80; ++s) {
            sim.watchSteps(watch);
            const std::vector<Vec2> before(sim.positions().begin(), sim.positions().end());
            sim.step();
            std::set<std::pair<std::uint32_t, std::uint32_t>> listed;
            for (const auto& [i, j] : sim.lastStepContacts()) {
                ASSERT_NE(i, j);
                listed.insert({std::min(i, j), std::max(i, j)}); // (either way round)
            }
            if (!sim.lastStepContactsComplete()) continue;
            ++complete;
            const auto pos = sim.positions();
            for (std::uint32_t i = 0; i < pos.size(); ++i) {
                for (std::uint32_t j = i + 1; j < pos.size(); ++j) {
                    if (sim.isStaticAt(i) && sim.isStaticAt(j)) continue;
                    const double reach = params[i].radius + params[j].radius + watch.contactReach;
                    const double was = length(before[j] - before[i]);
                    const bool near = was < reach * (1.0 - 1e-9);
                    const bool far = was > reach * (1.0 + 1e-9);
                    if (near) {
                        EXPECT_TRUE(listed.count({i, j})) << i << "," << j << " step " << s;
                    }
                    if (far) {
                        EXPECT_FALSE(listed.count({i, j})) << i << "," << j << " step " << s;
                    }
                    if (length(pos[j] - pos[i]) < params[i].radius + params[j].radius) {
                        ++overlapping;
                        EXPECT_TRUE(listed.count({i, j})) << "overlap " << i << "," << j;
                    }
                }
            }
        }
        EXPECT_GT(complete, 70) << threads << " threads";
        EXPECT_GT(overlapping, 50u) << "the crowd overlaps";
    }
}

TEST(StepWatch, ContactsAreIncompleteWhenTheyCannotHoldEveryPair) {
    auto crowd = [] { return testing_scenes::crowdScene(200, 4, {1.2, false, false}); };
    auto completeAfterStep = [](Simulator& sim, const StepWatch& watch) {
        sim.watchSteps(watch);
        sim.step();
        return sim.lastStepContactsComplete();
    };
    const StepWatch watch = contactWatch(crowd());
    {
        Simulator sim = crowd();
        ASSERT_TRUE(completeAfterStep(sim, watch));
    }

    // No contact watch: none listed.
    Simulator plain = crowd();
    plain.watchSteps(StepWatch{});
    plain.step();
    EXPECT_FALSE(plain.lastStepContactsComplete());
    EXPECT_TRUE(plain.lastStepContacts().empty());

    // An agent's neighbours stop short of the reach (a full list of one, a neighbour distance
    // shorter than two radii and the reach, no neighbours): from the grid, the step looks at
    // every agent within reach of it instead, and the contacts stay complete; from the
    // candidate lists (every agent within neighborDist), only the full list of one can.
    for (const auto change : {+[](AgentDef& d) { d.params.maxNeighbors = 1; },
                              +[](AgentDef& d) { d.params.neighborDist = 0.5; },
                              +[](AgentDef& d) { d.params.maxNeighbors = 0; }}) {
        Simulator sim = crowd();
        const AgentId a = sim.agentIdAt(0);
        AgentDef d = sim.agent(a);
        change(d);
        sim.setAgent(a, d);
        const bool listsHold = d.params.maxNeighbors > 0 && d.params.neighborDist > 1.0;
        int gridSteps = 0;
        int listSteps = 0;
        for (int s = 0; s < 40; ++s) {
            const std::vector<Vec2> before(sim.positions().begin(), sim.positions().end());
            const bool complete = completeAfterStep(sim, watch);
            const bool lists = sim.lastStepStats().neighborLists;
            (lists ? listSteps : gridSteps) += 1;
            EXPECT_EQ(complete, !lists || listsHold) << "step " << s << (lists ? " lists" : "");
            if (!complete) continue;
            std::set<std::uint32_t> partners;
            for (const auto& [i, j] : sim.lastStepContacts()) {
                if (i == 0) partners.insert(j); // (either way round)
                if (j == 0) partners.insert(i);
            }
            const auto params = sim.agentParams();
            for (std::uint32_t j = 1; j < before.size(); ++j) {
                const double reach = params[0].radius + params[j].radius + watch.contactReach;
                if (length(before[j] - before[0]) < reach * (1.0 - 1e-9)) {
                    EXPECT_TRUE(partners.count(j)) << "0," << j << " step " << s;
                }
            }
        }
        EXPECT_GT(gridSteps, 0);
        EXPECT_GT(listSteps, 0);
    }
    // A radius above the watch's contactRadius (a static agent's too).
    Simulator wide = crowd();
    AgentDef d = wide.agent(wide.agentIdAt(3)); // (static)
    ASSERT_TRUE(d.isStatic);
    d.params.radius = watch.contactRadius * 1.5;
    wide.setAgent(wide.agentIdAt(3), d);
    EXPECT_FALSE(completeAfterStep(wide, watch));
    StepWatch widened = watch;
    widened.contactRadius = d.params.radius;
    Simulator wide2 = crowd();
    wide2.setAgent(wide2.agentIdAt(3), d);
    EXPECT_TRUE(completeAfterStep(wide2, widened));

    // A radius that grows past contactRadius between two steps of a running crowd, shrinks
    // back and grows again, then a snapshot from before it grew restored: the step's largest
    // radius follows each change (it is kept from one step to the next while none happens).
    Simulator grown = crowd();
    const SimulatorState start = grown.snapshot();
    ASSERT_TRUE(completeAfterStep(grown, watch));
    const AgentId g = grown.agentIdAt(5);
    AgentDef gd = grown.agent(g);
    const double radius = gd.params.radius;
    for (const double r : {watch.contactRadius * 1.5, radius, watch.contactRadius * 1.5}) {
        gd.params.radius = r;
        grown.setAgent(g, gd);
        EXPECT_EQ(completeAfterStep(grown, watch), r <= watch.contactRadius) << r;
        EXPECT_EQ(completeAfterStep(grown, watch), r <= watch.contactRadius) << r;
    }
    grown.restore(start);
    EXPECT_TRUE(completeAfterStep(grown, watch));

    // A move farther than half the reach (velocities given to the step, above maxSpeed).
    Simulator fast = crowd();
    fast.watchSteps(watch);
    std::vector<Vec2> v(fast.agentCount(), Vec2(0.0));
    v[1] = {watch.contactReach / fast.params().timeStep, 0.0};
    fast.stepWithVelocities(v);
    EXPECT_FALSE(fast.lastStepContactsComplete());
    v[1] = {0.49 * watch.contactReach / fast.params().timeStep, 0.0};
    fast.stepWithVelocities(v);
    EXPECT_TRUE(fast.lastStepContactsComplete());

    // An edit after the step: the contacts are the step's, no longer the state's.
    fast.setVelocity(fast.agentIdAt(1), {0.0, 0.0});
    EXPECT_FALSE(fast.lastStepContactsComplete());
    EXPECT_TRUE(fast.lastStepContacts().empty());
}

void observeReadingEveryAgent(EventDetector& det, const Simulator& sim, std::vector<Event>& out) {
    EventDetector copy = det;
    copy.observe(sim, out);
    det = copy;
}

TEST(StepWatch, ReadingTheFlagsGivesTheEventsOfReadingEveryAgent) {
    for (int threads : {1, 2}) {
        Simulator sim = eventScene(300, 5);
        sim.setThreadCount(threads);
        EventDetector flagged(sensitiveEvents());
        EventDetector everyAgent(sensitiveEvents());
        std::vector<Event> a;
        std::vector<Event> b;
        flagged.reset(sim, a);
        everyAgent.reset(sim, b);
        int contactSteps = 0;
        for (int s = 1; s <= 200; ++s) {
            sim.step();
            contactSteps += sim.lastStepContactsComplete() ? 1 : 0;
            flagged.observe(sim, a);
            observeReadingEveryAgent(everyAgent, sim, b);
            if (s % 37 == 0) {
                // An edit between two observations: the next one cannot use the flags.
                const AgentId id = sim.agentIdAt(static_cast<std::size_t>(s) % sim.agentCount());
                sim.setVelocity(id, -sim.velocity(id));
            }
        }
        EXPECT_EQ(a, b) << threads << " threads";
        EXPECT_GT(contactSteps, 150) << "the flag path's overlaps came from the step's contacts";
        std::size_t kinds[kEventKindCount] = {};
        for (const Event& e : a)
            ++kinds[static_cast<std::size_t>(e.kind)];
        for (EventKind k :
             {EventKind::OverlapBegin, EventKind::OverlapEnd, EventKind::ObstaclePenetration,
              EventKind::Lp3Begin, EventKind::Lp3End, EventKind::Stalled, EventKind::Oscillation,
              EventKind::Arrived, EventKind::WaypointReached})
            EXPECT_GT(kinds[static_cast<std::size_t>(k)], 0u) << toString(k);
    }
}

} // namespace
} // namespace orca
