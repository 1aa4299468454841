// Simulator::watchSteps and what the event detector takes from it: revisions that change with
// every change of the state, the per-agent flags a watched step notes, the velocities before
// the step, and a detector reading those flags reporting exactly what reading every agent
// reports.
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
    for (int s = 0; s < 150; ++s) {
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
        for (std::size_t i = 0; i < n; ++i) {
            EXPECT_EQ(prev[i], before[i]) << "agent " << i;
            const Vec2 u = before[i];
            const Vec2 v = sim.velocities()[i];
            const AgentParams& p = sim.agentParams()[i];
            const bool moving = !sim.isStaticAt(i);
            const bool atGoal = sim.atGoalAt(i);
            // The same conditions in other words: speeds compared, angles from atan2.
            const bool slow = moving && sim.hasGoalAt(i) && !atGoal && p.prefSpeed > 0.0 &&
                              std::hypot(v.x, v.y) < 0.3 * p.prefSpeed;
            double turn = std::abs(std::atan2(v.y, v.x) - std::atan2(u.y, u.x));
            if (turn > std::numbers::pi) turn = 2.0 * std::numbers::pi - turn;
            const double tiny = 1e-6 * p.maxSpeed;
            const bool flip = moving && std::hypot(u.x, u.y) > tiny &&
                              std::hypot(v.x, v.y) > tiny && turn > std::numbers::pi / 3.0;
            const bool expected[6] = {
                lp3[i] != 0, atGoal, sim.detourModeAt(i) == DetourMode::Detouring,
                slow,        flip,   sim.routeProgressAt(i) != progress[i]};
            for (int b = 0; b < 6; ++b) {
                const bool got = (flags[i] >> b) & 1u;
                EXPECT_EQ(got, expected[b])
                    << "step " << sim.stepCount() << " agent " << i << " bit " << b;
                seen[b] += got ? 1 : 0;
            }
        }
    }
    for (int b : {0, 1, 3, 4, 5})
        EXPECT_GT(seen[b], 0u) << "bit " << b << " never set: the scene does not test it";

    // An edit after the step: its notes no longer describe the state.
    sim.setVelocity(sim.agentIdAt(0), {0.1, 0.0});
    EXPECT_TRUE(sim.lastStepFlags().empty());
    EXPECT_TRUE(sim.previousVelocities().empty());
}

/// A detector that reads every agent at each observation: a copy has no scratch, so it cannot
/// take a step's flags.
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
        for (int s = 1; s <= 200; ++s) {
            sim.step();
            flagged.observe(sim, a);
            observeReadingEveryAgent(everyAgent, sim, b);
            if (s % 37 == 0) {
                // An edit between two observations: the next one cannot use the flags.
                const AgentId id = sim.agentIdAt(static_cast<std::size_t>(s) % sim.agentCount());
                sim.setVelocity(id, -sim.velocity(id));
            }
        }
        EXPECT_EQ(a, b) << threads << " threads";
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
