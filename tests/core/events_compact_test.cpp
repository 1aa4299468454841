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

#include "event_scenes.hpp"

namespace orca {
namespace {

TEST(EventsCompact, ExpandedOnTheKeyframeResumesWithTheSameEvents) {
    constexpr int kSteps = 160;
    const EventParams params = testing_scenes::sensitiveEvents();
    Simulator sim = testing_scenes::eventScene(300, 5);
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
            EXPECT_LT(keyframes.back().compact.bytes(), det.bytes() * 2 / 3) << "step " << s;
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
    Simulator sim = testing_scenes::eventScene(20, 1);
    // Never observed: expands to a fresh detector with the same parameters.
    const EventDetector fresh(testing_scenes::sensitiveEvents());
    const EventDetector back = EventDetector::expand(fresh.compact(), sim);
    EXPECT_EQ(back.params().oscillationFlips, 2);
    std::vector<Event> a, b;
    EventDetector x = fresh;
    EventDetector y = back;
    x.observe(sim, a);
    y.observe(sim, b);
    EXPECT_EQ(a, b);
    // Another agent count than the one observed.
    Simulator other = testing_scenes::eventScene(21, 1);
    EXPECT_THROW((void)EventDetector::expand(x.compact(), other), std::invalid_argument);
}

} // namespace
} // namespace orca
