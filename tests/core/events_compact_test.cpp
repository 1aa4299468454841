// EventDetector::Compact: what a recording keeps beside each keyframe. Expanded on the state it
// was made on, it must resume with exactly the events of the detector it came from — every
// kind, including spells, stalls and oscillation windows open at the keyframe — and hold far
// fewer bytes.
#include <cmath>
#include <random>
#include <stdexcept>
#include <vector>

#include <gtest/gtest.h>

#include "orca/events.hpp"
#include "orca/simulator.hpp"
#include "orca/state.hpp"

namespace orca {
namespace {

/// A crowd in a square too small for it around a square obstacle: goals across it (every
/// fifth agent through a waypoint), every tenth static, so that it overlaps, penetrates,
/// stalls, falls back to LP3 and arrives.
Simulator makeScene(std::size_t n, std::uint32_t seed) {
    Simulator sim;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const double side = std::sqrt(static_cast<double>(n)) * 1.4;
    const std::vector<Vec2> square{{-1.5, -1.5}, {1.5, -1.5}, {1.5, 1.5}, {-1.5, 1.5}};
    sim.addObstacle(square);
    for (std::size_t i = 0; i < n; ++i) {
        AgentDef d;
        d.position = {side * u(rng), side * u(rng)};
        d.params.radius = 0.4 + 0.3 * (u(rng) + 1.0);
        d.params.neighborDist = 5.0;
        d.params.timeHorizon = 2.0;
        if (i % 10 == 3) {
            d.isStatic = true;
        } else {
            d.hasGoal = true;
            d.goal = {-d.position.x, -d.position.y};
            if (i % 5 == 1) d.waypoints = {{d.position.y, -d.position.x}};
        }
        sim.addAgent(d);
    }
    return sim;
}

/// Sensitive thresholds: oscillations after 2 flips of more than 60 degrees, stalls after 0.5 s.
EventParams sensitive() {
    EventParams p;
    p.oscillationFlips = 2;
    p.oscillationDegrees = 60.0;
    p.stallSeconds = 0.5;
    p.stallSpeedRatio = 0.3;
    return p;
}

TEST(EventsCompact, ExpandedOnTheKeyframeResumesWithTheSameEvents) {
    constexpr int kSteps = 160;
    const EventParams params = sensitive();
    Simulator sim = makeScene(300, 5);
    EventDetector det(params);
    std::vector<Event> straight;
    det.reset(sim, straight);
    struct Keyframe {
        SimulatorState state;
        EventDetector::Compact compact;
        std::size_t eventsSoFar = 0;
    };
    std::vector<Keyframe> keyframes;
    for (int s = 1; s <= kSteps; ++s) {
        sim.step();
        det.observe(sim, straight);
        if (s % 9 == 0) {
            keyframes.push_back({sim.snapshot(), det.compact(), straight.size()});
            EXPECT_LT(keyframes.back().compact.bytes(), det.bytes() / 2) << "step " << s;
        }
    }
    std::size_t kinds[kEventKindCount] = {};
    for (const Event& e : straight)
        ++kinds[static_cast<std::size_t>(e.kind)];
    for (EventKind k : {EventKind::OverlapBegin, EventKind::ObstaclePenetration,
                        EventKind::Lp3Begin, EventKind::Stalled, EventKind::Oscillation,
                        EventKind::Arrived, EventKind::WaypointReached})
        EXPECT_GT(kinds[static_cast<std::size_t>(k)], 0u) << toString(k);

    for (const Keyframe& k : keyframes) {
        Simulator resumed;
        resumed.setThreadCount(2);
        resumed.restore(k.state);
        EventDetector back = EventDetector::expand(k.compact, resumed);
        std::vector<Event> events(straight.begin(),
                                  straight.begin() + static_cast<std::ptrdiff_t>(k.eventsSoFar));
        while (resumed.stepCount() < static_cast<std::uint64_t>(kSteps)) {
            resumed.step();
            back.observe(resumed, events);
        }
        EXPECT_EQ(events, straight) << "from step " << k.state.stepCount;
    }
}

TEST(EventsCompact, AnUnobservedDetectorAndAWrongSimulator) {
    Simulator sim = makeScene(20, 1);
    // Never observed: expands to a fresh detector with the same parameters.
    const EventDetector fresh(sensitive());
    const EventDetector back = EventDetector::expand(fresh.compact(), sim);
    EXPECT_EQ(back.params().oscillationFlips, 2);
    std::vector<Event> a, b;
    EventDetector x = fresh;
    EventDetector y = back;
    x.observe(sim, a);
    y.observe(sim, b);
    EXPECT_EQ(a, b);
    // Another agent count than the one observed.
    Simulator other = makeScene(21, 1);
    EXPECT_THROW((void)EventDetector::expand(x.compact(), other), std::invalid_argument);
}

} // namespace
} // namespace orca
