// The event detector: every kind on hand-built scenes with hand-checked steps and values, the
// step numbering, copies, thread counts, repeated observations and agent edits.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <optional>
#include <random>
#include <set>
#include <vector>

#include <gtest/gtest.h>

#include "orca/events.hpp"
#include "orca/simulator.hpp"

#include "event_scenes.hpp"

namespace orca {
namespace {

AgentDef agentAt(double x, double y, double radius = 0.5) {
    AgentDef d;
    d.position = {x, y};
    d.params.radius = radius;
    return d;
}

/// An agent that ignores other agents (no agent half-planes): v_new = v_pref exactly.
AgentDef blindToward(double x, double y, double gx, double gy, double radius = 0.5) {
    AgentDef d = agentAt(x, y, radius);
    d.params.maxNeighbors = 0;
    d.hasGoal = true;
    d.goal = {gx, gy};
    return d;
}

Event ev(std::uint64_t step, EventKind kind, std::vector<std::uint32_t> agents, double value = 0.0,
         std::optional<std::uint32_t> obstacle = std::nullopt) {
    Event e;
    e.step = step;
    e.kind = kind;
    e.agents = std::move(agents);
    e.obstacle = obstacle;
    e.value = value;
    return e;
}

std::vector<Event> ofKind(const std::vector<Event>& events, EventKind kind) {
    std::vector<Event> out;
    for (const Event& e : events)
        if (e.kind == kind) out.push_back(e);
    return out;
}

/// Steps `sim` `steps` times, observing after each step; returns every event from reset on.
std::vector<Event> runEvents(Simulator& sim, int steps, EventDetector& det) {
    std::vector<Event> events;
    det.reset(sim, events);
    for (int s = 0; s < steps; ++s) {
        sim.step();
        det.observe(sim, events);
    }
    return events;
}

/// A deterministic crowd: `n` agents of mixed radii in a square too small for them, goals
/// across it, every tenth agent static.
Simulator makeCrowd(std::size_t n, std::uint32_t seed) {
    return testing_scenes::crowdScene(n, seed, {1.6, false, false});
}

TEST(Events, KindNamesRoundTrip) {
    for (std::size_t k = 0; k < kEventKindCount; ++k) {
        const auto kind = static_cast<EventKind>(k);
        EXPECT_EQ(eventKindFromString(toString(kind)), kind);
    }
    EXPECT_EQ(toString(EventKind::ObstaclePenetration), "obstacle-penetration");
    EXPECT_EQ(toString(EventKind::DetourExit), "detour-exit");
    EXPECT_EQ(toString(EventKind::OverlapFloodBegin), "overlap-flood-begin");
    EXPECT_EQ(toString(EventKind::OverlapFloodEnd), "overlap-flood-end");
    EXPECT_FALSE(eventKindFromString("overlap"));
    EXPECT_FALSE(eventKindFromString(""));
}

TEST(Events, HeadOnPairOverlapsAndArrivesAtHandCheckedSteps) {
    // Two blind agents (radius 0.5) walk through each other on the x axis at 1 unit/s,
    // Δt = 0.25: the gap after s steps is 10 - 0.5 s. At s = 18 the centres are exactly 1 apart
    // (touching, not overlapping: the test is strict); at s = 19 they are 0.5 apart, depth 0.5.
    // They coincide at s = 20 (depth 1, the deepest) and are 1 apart again at s = 22.
    // Arrival: at x = 4 (s = 36) the goal is 1 away, then v = goal - p: 4.25 (s = 37),
    // 4.4375 (38), 4.578125 (39), which is within the goal radius 0.5 (distance 0.421875).
    Simulator sim;
    sim.addAgent(blindToward(-5, 0, 5, 0));
    sim.addAgent(blindToward(5, 0, -5, 0));
    EventDetector det;
    const std::vector<Event> events = runEvents(sim, 45, det);
    const std::vector<Event> expected{
        ev(19, EventKind::OverlapBegin, {0, 1}, 0.5),
        ev(22, EventKind::OverlapEnd, {0, 1}, 1.0),
        ev(39, EventKind::Arrived, {0}),
        ev(39, EventKind::Arrived, {1}),
    };
    EXPECT_EQ(events, expected);
}

TEST(Events, OverlapsAtTheInitialStateAreStepZero) {
    Simulator sim;
    sim.addAgent(agentAt(0, 0, 1.0));
    sim.addAgent(agentAt(1.5, 0, 1.0)); // 1.5 apart, radii sum 2: depth 0.5
    AgentDef s1 = agentAt(10, 0, 1.0);
    s1.isStatic = true;
    AgentDef s2 = agentAt(11, 0, 1.0);
    s2.isStatic = true; // two static agents overlap: scenery, never reported
    sim.addAgent(s1);
    sim.addAgent(s2);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::OverlapBegin, {0, 1}, 0.5)});
}

TEST(Events, ObstaclePenetrationBeginsOncePerContact) {
    // The square [0, 2] x [0, 2]; an agent of radius 0.5 moved around by edits at step 0.
    Simulator sim;
    const std::vector<Vec2> square{{0, 0}, {2, 0}, {2, 2}, {0, 2}};
    sim.addObstacle(square);
    const std::vector<Vec2> segment{{10, 0}, {10, 4}};
    sim.addObstacle(segment);
    const AgentId a = sim.addAgent(agentAt(-1, 1));
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_TRUE(events.empty()); // 1 away from the square
    sim.setPosition(a, {-0.5, 1});
    det.observe(sim, events);
    EXPECT_TRUE(events.empty()); // touching (distance = radius) is no penetration
    sim.setPosition(a, {-0.25, 1});
    det.observe(sim, events); // 0.25 from the left edge: depth 0.5 - 0.25
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 0.25, 0u)});
    events.clear();
    sim.setPosition(a, {1, 1.5}); // centre inside, 0.5 from the top edge: still the same contact
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    sim.setPosition(a, {-3, 1}); // out
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    sim.setPosition(a, {1, 1.5}); // in again: a new contact, depth 0.5 + 0.5
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 1.0, 0u)});
    events.clear();
    sim.setPosition(a, {10.375, 3}); // 0.375 from the thin segment: depth 0.125
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 0.125, 1u)});

    // Starting inside is reported by reset at step 0: centre (1, 1), 1 from every edge.
    Simulator inside;
    inside.addObstacle(square);
    inside.addAgent(agentAt(1, 1));
    events.clear();
    EventDetector det2;
    det2.reset(inside, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 1.5, 0u)});
}

/// Brute-force depth of the disk (p, r) in a polygon: minimum distance over all edges and an
/// even-odd ray test; negative when they do not intersect.
double bruteDepth(const std::vector<Vec2>& poly, Vec2 p, double r) {
    if (poly.size() == 2) { // a segment: one edge, from its first vertex (docs/events.md)
        const double d = std::sqrt(distSqPointSegment(poly[0], poly[1], p));
        return d < r ? r - d : -1.0;
    }
    double best = 1e300;
    bool inside = false;
    for (std::size_t a = 0; a < poly.size(); ++a) {
        const Vec2 u = poly[a];
        const Vec2 w = poly[(a + 1) % poly.size()];
        best = std::min(best, distSqPointSegment(u, w, p));
        if ((u.y > p.y) != (w.y > p.y) && p.x < (w.x - u.x) * (p.y - u.y) / (w.y - u.y) + u.x)
            inside = !inside;
    }
    const double d = std::sqrt(best);
    return inside ? r + d : (d < r ? r - d : -1.0);
}

TEST(Events, ObstaclePenetrationWhileSteppingAgreesWithBruteForce) {
    // A motionless agent (maxSpeed 0) dragged through a wall by edits between steps, 0.1 per
    // step forward and then back: two contacts, each reported at its first step with the
    // depth of that state.
    Simulator sim;
    const std::vector<Vec2> wall{{0, -5}, {1, -5}, {1, 5}, {0, 5}};
    sim.addObstacle(wall);
    AgentDef d = agentAt(-3, 0.3);
    d.params.maxSpeed = 0.0;
    const AgentId a = sim.addAgent(d);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    std::vector<Event> expected;
    bool was = false;
    for (int s = 1; s <= 120; ++s) {
        sim.step();
        sim.setPosition(a, sim.position(a) + Vec2(s <= 60 ? 0.1 : -0.1, 0.0));
        det.observe(sim, events);
        const double depth = bruteDepth(wall, sim.position(a), 0.5);
        if (depth >= 0.0 && !was)
            expected.push_back(ev(sim.stepCount(), EventKind::ObstaclePenetration, {0}, depth, 0u));
        was = depth >= 0.0;
    }
    ASSERT_EQ(expected.size(), 2u);
    EXPECT_EQ(events, expected);
}

TEST(Events, StalledAfterTwoSecondsThenReArmed) {
    // maxSpeed 0 with a goal: never moves. Δt 0.25, stallSeconds 2 => 8 observed steps below
    // 5 % of prefSpeed: stalled at step 8 with value 2 s, and only once.
    Simulator sim;
    AgentDef d = blindToward(0, 0, 10, 0);
    d.params.maxSpeed = 0.0;
    const AgentId a = sim.addAgent(d);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    for (int s = 1; s <= 10; ++s) {
        sim.step();
        det.observe(sim, events);
    }
    EXPECT_EQ(events, std::vector<Event>{ev(8, EventKind::Stalled, {0}, 2.0)});
    // Let it move (step 11: speed 1, re-armed), then stop it again from step 13 on: the second
    // stall completes after 8 more still steps, at step 20.
    d = sim.agent(a);
    d.params.maxSpeed = 2.0;
    sim.setAgent(a, d);
    sim.step(); // 11
    det.observe(sim, events);
    sim.step(); // 12
    det.observe(sim, events);
    d = sim.agent(a);
    d.params.maxSpeed = 0.0;
    sim.setAgent(a, d);
    for (int s = 13; s <= 25; ++s) {
        sim.step();
        det.observe(sim, events);
    }
    EXPECT_EQ(ofKind(events, EventKind::Stalled),
              (std::vector<Event>{ev(8, EventKind::Stalled, {0}, 2.0),
                                  ev(20, EventKind::Stalled, {0}, 2.0)}));
}

TEST(Events, StallThresholdsAreParameters) {
    // stallSeconds 0.9 at Δt 0.3 is 3 steps (3 * 0.3 rounds below 0.9 in doubles).
    SimulationParams sp;
    sp.timeStep = 0.3;
    Simulator sim(sp);
    AgentDef d = blindToward(0, 0, 10, 0);
    d.params.maxSpeed = 0.04; // 4 % of prefSpeed: below 5 %, above 3 %
    sim.addAgent(d);
    EventDetector det(EventParams{.stallSpeedRatio = 0.05, .stallSeconds = 0.9});
    std::vector<Event> events = runEvents(sim, 5, det);
    ASSERT_EQ(events.size(), 1u);
    EXPECT_EQ(events[0].step, 3u);
    EXPECT_EQ(events[0].kind, EventKind::Stalled);
    EXPECT_DOUBLE_EQ(events[0].value, 0.9);
    Simulator sim2(sp);
    sim2.addAgent(d);
    EventDetector strict(EventParams{.stallSpeedRatio = 0.03, .stallSeconds = 0.9});
    EXPECT_TRUE(runEvents(sim2, 20, strict).empty());
}

TEST(Events, StallOfAnAgentBlockedByAStaticAgent) {
    // Heading straight at a static agent, the mover slows to a crawl in front of it
    // (Simulator test StaticAgentStallsAnExactlyAlignedMover): one stalled event, at the
    // first step where it has been below 0.05 units/s for 8 steps in a row.
    Simulator sim;
    AgentDef s = agentAt(5, 0, 1.5);
    s.isStatic = true;
    sim.addAgent(s);
    AgentDef m = agentAt(0, 0, 1.5);
    m.hasGoal = true;
    m.goal = {10, 0};
    sim.addAgent(m);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    int slowRun = 0;
    std::optional<std::uint64_t> expected;
    for (int step = 1; step <= 200; ++step) {
        sim.step();
        det.observe(sim, events);
        slowRun = length(sim.velocities()[1]) < 0.05 ? slowRun + 1 : 0;
        if (slowRun == 8 && !expected) expected = sim.stepCount();
    }
    const std::vector<Event> stalls = ofKind(events, EventKind::Stalled);
    ASSERT_TRUE(expected);
    ASSERT_EQ(stalls.size(), 1u);
    EXPECT_EQ(stalls[0].step, *expected);
    EXPECT_EQ(stalls[0].agents, std::vector<std::uint32_t>{1});
    EXPECT_DOUBLE_EQ(stalls[0].value, 2.0);
}

/// A blind agent without a goal whose constant v_pref is set before each step.
struct Steered {
    Simulator sim;
    AgentId id;
    EventDetector det;
    std::vector<Event> events;
    explicit Steered(const EventParams& params = {}) : det(params) {
        AgentDef d = agentAt(0, 0);
        d.params.maxNeighbors = 0;
        id = sim.addAgent(d);
        det.reset(sim, events);
    }
    void step(Vec2 prefVelocity) {
        AgentDef d = sim.agent(id);
        d.prefVelocity = prefVelocity;
        sim.setAgent(id, d);
        sim.step();
        det.observe(sim, events);
    }
};

TEST(Events, OscillationAfterThreeFlipsWithinTwoSeconds) {
    // v = +x, -x, +x, -x, ...: step 1 sets the first direction, steps 2, 3, 4 are flips
    // (180°) => oscillation at step 4 (value 3), then the window restarts: 5, 6, 7 => step 7.
    Steered st;
    for (int s = 1; s <= 8; ++s)
        st.step(Vec2(s % 2 ? 1.0 : -1.0, 0.0));
    EXPECT_EQ(st.events, (std::vector<Event>{ev(4, EventKind::Oscillation, {0}, 3.0),
                                             ev(7, EventKind::Oscillation, {0}, 3.0)}));
}

TEST(Events, OscillationWindowAndAngle) {
    // Flips 4 steps apart (1 s at Δt 0.25): flips at 5, 9, 13 span 8 steps = 2 s: within.
    {
        Steered st;
        for (int s = 1; s <= 14; ++s)
            st.step(Vec2((s - 1) / 4 % 2 ? -1.0 : 1.0, 0.0));
        EXPECT_EQ(st.events, std::vector<Event>{ev(13, EventKind::Oscillation, {0}, 3.0)});
    }
    // Flips 5 steps apart: 6, 11, 16 span 2.5 s: never three within 2 s.
    {
        Steered st;
        for (int s = 1; s <= 40; ++s)
            st.step(Vec2((s - 1) / 5 % 2 ? -1.0 : 1.0, 0.0));
        EXPECT_TRUE(st.events.empty());
    }
    // Exact right angles are not "more than 90°"; 91° is.
    {
        Steered st;
        for (int s = 1; s <= 12; ++s)
            st.step(s % 2 ? Vec2(1.0, 0.0) : Vec2(0.0, 1.0));
        EXPECT_TRUE(st.events.empty());
        const double a = 91.0 * 3.141592653589793 / 180.0;
        Steered st91;
        for (int s = 1; s <= 4; ++s)
            st91.step(s % 2 ? Vec2(1.0, 0.0) : Vec2(std::cos(a), std::sin(a)));
        EXPECT_EQ(st91.events, std::vector<Event>{ev(4, EventKind::Oscillation, {0}, 3.0)});
    }
    // Stopping in between is no flip: +x, 0, -x, 0, +x, ...
    {
        Steered st;
        const Vec2 seq[4] = {{1.0, 0.0}, {0.0, 0.0}, {-1.0, 0.0}, {0.0, 0.0}};
        for (int s = 1; s <= 16; ++s)
            st.step(seq[(s - 1) % 4]);
        EXPECT_TRUE(st.events.empty());
    }
    // Parameters: 2 flips of more than 45° within 0.5 s.
    {
        Steered st(EventParams{
            .oscillationFlips = 2, .oscillationDegrees = 45.0, .oscillationSeconds = 0.5});
        const double a = 60.0 * 3.141592653589793 / 180.0;
        for (int s = 1; s <= 3; ++s)
            st.step(Vec2(std::cos(a * s), std::sin(a * s)));
        EXPECT_EQ(st.events, std::vector<Event>{ev(3, EventKind::Oscillation, {0}, 2.0)});
    }
}

TEST(Events, ArrivedAtResetAndAgainAfterLeaving) {
    // Already at its goal at step 0; moved 2 away by an edit (no event, no time), it walks
    // back: 1.75, 1.5, 1.25, 1 (step 4), then v = goal - p: 0.75 (5), 0.5625 (6),
    // 0.421875 (7) <= 0.5 => arrived again at step 7.
    Simulator sim;
    const AgentId a = sim.addAgent(blindToward(0, 0, 0, 0));
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::Arrived, {0})});
    events.clear();
    sim.setPosition(a, {2, 0});
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    for (int s = 1; s <= 10; ++s) {
        sim.step();
        det.observe(sim, events);
    }
    EXPECT_EQ(events, std::vector<Event>{ev(7, EventKind::Arrived, {0})});
}

/// detour_wall.json built by hand: one agent, a wall of nine static agents with 0.5 gaps.
Simulator detourWall() {
    SimulationParams sp;
    sp.staticResponsibility = 1.0;
    sp.detour.enabled = true;
    Simulator sim(sp);
    AgentParams p;
    p.radius = 1.0;
    p.maxSpeed = 1.5;
    p.prefSpeed = 1.0;
    p.neighborDist = 10.0;
    p.timeHorizon = 5.0;
    p.timeHorizonObst = 5.0;
    AgentDef mover;
    mover.position = {-12, 0.3};
    mover.hasGoal = true;
    mover.goal = {12, 0.3};
    mover.params = p;
    sim.addAgent(mover);
    for (int k = -4; k <= 4; ++k) {
        AgentDef s;
        s.position = {0, 2.5 * k};
        s.params = p;
        s.isStatic = true;
        sim.addAgent(s);
    }
    return sim;
}

TEST(Events, DetourEnterAndExitFollowTheModeAfterEachStep) {
    Simulator sim = detourWall();
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    std::vector<Event> expected;
    DetourMode mode = sim.detourModeAt(0);
    for (int s = 1; s <= 200; ++s) {
        sim.step();
        det.observe(sim, events);
        const DetourMode now = sim.detourModeAt(0);
        if (now != mode)
            expected.push_back(
                ev(sim.stepCount(),
                   now == DetourMode::Detouring ? EventKind::DetourEnter : EventKind::DetourExit,
                   {0}));
        mode = now;
    }
    std::vector<Event> detours = ofKind(events, EventKind::DetourEnter);
    const std::vector<Event> exits = ofKind(events, EventKind::DetourExit);
    detours.insert(detours.end(), exits.begin(), exits.end());
    std::sort(detours.begin(), detours.end(),
              [](const Event& x, const Event& y) { return x.step < y.step; });
    ASSERT_GE(expected.size(), 2u); // it enters (stalled at the wall) and leaves again
    EXPECT_EQ(expected.front().kind, EventKind::DetourEnter);
    EXPECT_EQ(detours, expected);
    // It gets past the wall and arrives; the wall never overlaps anyone.
    EXPECT_EQ(ofKind(events, EventKind::Arrived).size(), 1u);
    EXPECT_TRUE(ofKind(events, EventKind::OverlapBegin).empty());
}

TEST(Events, Lp3SpellsBeginAndEnd) {
    // Two deeply overlapping slow agents: separating within one step needs 3 units/s each,
    // far above maxSpeed 0.1, so LP2 is infeasible from the first step on (lp3-begin at step
    // 1, not 0: nothing has been solved at the initial state); the spell ends once the
    // remaining overlap can be resolved at maxSpeed. lp3-end's value is the spell's length.
    Simulator sim;
    AgentDef a = agentAt(0, 0, 1.0);
    a.params.maxSpeed = 0.1;
    AgentDef b = agentAt(0.5, 0, 1.0);
    b.params.maxSpeed = 0.1;
    sim.addAgent(a);
    sim.addAgent(b);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    std::vector<std::uint64_t> lp3Steps;
    for (int s = 1; s <= 100; ++s) {
        sim.step();
        det.observe(sim, events);
        if (sim.lastStepLp3()[0]) lp3Steps.push_back(sim.stepCount());
    }
    ASSERT_FALSE(lp3Steps.empty());
    EXPECT_EQ(lp3Steps.front(), 1u);
    const std::uint64_t end = lp3Steps.back() + 1;
    ASSERT_EQ(lp3Steps.size(), end - 1); // one spell
    const std::vector<Event> begins = ofKind(events, EventKind::Lp3Begin);
    const std::vector<Event> ends = ofKind(events, EventKind::Lp3End);
    EXPECT_EQ(begins, (std::vector<Event>{ev(1, EventKind::Lp3Begin, {0}),
                                          ev(1, EventKind::Lp3Begin, {1})}));
    EXPECT_EQ(ends, (std::vector<Event>{ev(end, EventKind::Lp3End, {0}, double(end - 1)),
                                        ev(end, EventKind::Lp3End, {1}, double(end - 1))}));
    // And the overlap that caused it: begins at step 0 (depth 1.5), ends with deepest 1.5.
    const std::vector<Event> ob = ofKind(events, EventKind::OverlapBegin);
    ASSERT_EQ(ob.size(), 1u);
    EXPECT_EQ(ob[0], ev(0, EventKind::OverlapBegin, {0, 1}, 1.5));
}

TEST(Events, OrderWithinAStepIsKindThenAgents) {
    // Agent 0 sits on its goal; 1, 2, 3 (radius 1) at x = 0, 1, -1: pairs (1, 2) and (1, 3)
    // are 1 apart (depth 1), (2, 3) exactly 2 apart (touching only). The segment y = -0.75
    // is 0.75 from each of them: depth 0.25.
    Simulator sim;
    sim.addAgent(blindToward(3, 0, 3, 0));
    sim.addAgent(agentAt(0, 0, 1.0));
    sim.addAgent(agentAt(1, 0, 1.0));
    sim.addAgent(agentAt(-1, 0, 1.0));
    sim.addObstacle(std::vector<Vec2>{{-2, -0.75}, {2, -0.75}});
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    const std::vector<Event> expected{
        ev(0, EventKind::OverlapBegin, {1, 2}, 1.0),
        ev(0, EventKind::OverlapBegin, {1, 3}, 1.0),
        ev(0, EventKind::ObstaclePenetration, {1}, 0.25, 0u),
        ev(0, EventKind::ObstaclePenetration, {2}, 0.25, 0u),
        ev(0, EventKind::ObstaclePenetration, {3}, 0.25, 0u),
        ev(0, EventKind::Arrived, {0}),
    };
    EXPECT_EQ(events, expected);
}

TEST(Events, OverlapsAgreeWithBruteForceOnACrowd) {
    Simulator sim = makeCrowd(300, 7);
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    // Brute force: every pair, the same strict test, the same expression.
    struct Open {
        std::uint64_t begin;
        double deepest;
    };
    std::map<std::pair<std::uint32_t, std::uint32_t>, Open> open;
    std::vector<Event> expected;
    auto brute = [&] {
        const auto pos = sim.positions();
        const auto params = sim.agentParams();
        std::map<std::pair<std::uint32_t, std::uint32_t>, double> now;
        for (std::uint32_t i = 0; i < pos.size(); ++i)
            for (std::uint32_t j = i + 1; j < pos.size(); ++j) {
                if (sim.isStaticAt(i) && sim.isStaticAt(j)) continue;
                const double c = length(pos[j] - pos[i]) - params[i].radius - params[j].radius;
                if (c < 0.0) now[{i, j}] = -c;
            }
        std::vector<Event> step;
        for (auto it = open.begin(); it != open.end();) {
            auto n = now.find(it->first);
            if (n == now.end()) {
                step.push_back(ev(sim.stepCount(), EventKind::OverlapEnd,
                                  {it->first.first, it->first.second}, it->second.deepest));
                it = open.erase(it);
            } else {
                it->second.deepest = std::max(it->second.deepest, n->second);
                ++it;
            }
        }
        for (const auto& [pair, depth] : now)
            if (!open.count(pair)) {
                step.push_back(
                    ev(sim.stepCount(), EventKind::OverlapBegin, {pair.first, pair.second}, depth));
                open[pair] = {sim.stepCount(), depth};
            }
        std::sort(step.begin(), step.end(), [](const Event& x, const Event& y) {
            return x.kind != y.kind ? x.kind < y.kind : x.agents < y.agents;
        });
        expected.insert(expected.end(), step.begin(), step.end());
    };
    brute();
    std::size_t overlapSteps = 0;
    for (int s = 0; s < 60; ++s) {
        sim.step();
        det.observe(sim, events);
        brute();
        overlapSteps += sim.clearance().overlappingPairs;
    }
    std::vector<Event> overlaps;
    for (const Event& e : events)
        if (e.kind == EventKind::OverlapBegin || e.kind == EventKind::OverlapEnd)
            overlaps.push_back(e);
    ASSERT_GT(expected.size(), 10u); // the crowd is dense enough to overlap
    EXPECT_EQ(overlaps, expected);
    // Simulator::clearance() counts the same pairs.
    std::size_t fromEvents = 0;
    std::map<std::pair<std::uint32_t, std::uint32_t>, std::uint64_t> begin;
    for (const Event& e : overlaps) {
        if (e.kind == EventKind::OverlapBegin)
            begin[{e.agents[0], e.agents[1]}] = e.step;
        else {
            const std::uint64_t b = begin[{e.agents[0], e.agents[1]}];
            fromEvents += e.step - std::max<std::uint64_t>(b, 1);
            begin.erase({e.agents[0], e.agents[1]});
        }
    }
    for (const auto& [pair, b] : begin)
        fromEvents += 61 - std::max<std::uint64_t>(b, 1);
    EXPECT_EQ(fromEvents, overlapSteps);
}

TEST(Events, RandomEditsAgreeWithBruteForce) {
    // A crowd among small obstacles, stepped with random edits between steps (teleports,
    // radius changes, static toggles, removals, additions) and observed once or twice per
    // step: overlap and penetration events equal a brute-force tracking by AgentId, which
    // forgets removed agents silently.
    Simulator sim = makeCrowd(150, 21);
    std::mt19937 rng(5);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<std::vector<Vec2>> obstacles;
    for (int k = 0; k < 12; ++k) {
        const Vec2 c(12.0 * u(rng), 12.0 * u(rng));
        if (k % 3 == 0)
            obstacles.push_back({c, c + Vec2(2.0 * u(rng), 2.0)});
        else
            obstacles.push_back({c, c + Vec2(1.5, 0), c + Vec2(1.5, 1.0), c + Vec2(0, 1.0)});
        sim.addObstacle(obstacles.back());
    }
    EventDetector det;
    std::vector<Event> got;
    std::vector<Event> expected;
    std::map<std::pair<AgentId, AgentId>, double> open; // by ids, lower index first
    std::set<std::pair<AgentId, std::uint32_t>> contacts;
    auto brute = [&] {
        const auto pos = sim.positions();
        const auto params = sim.agentParams();
        const std::size_t n = pos.size();
        std::vector<Event> step;
        std::map<std::pair<AgentId, AgentId>,
                 std::pair<std::pair<std::uint32_t, std::uint32_t>, double>>
            now;
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t j = i + 1; j < n; ++j) {
                if (sim.isStaticAt(i) && sim.isStaticAt(j)) continue;
                const double c = length(pos[j] - pos[i]) - params[i].radius - params[j].radius;
                if (c < 0.0) now[{sim.agentIdAt(i), sim.agentIdAt(j)}] = {{i, j}, -c};
            }
        for (auto it = open.begin(); it != open.end();) {
            const auto a = sim.indexOf(it->first.first);
            const auto b = sim.indexOf(it->first.second);
            if (!a || !b) {
                it = open.erase(it); // removed: forgotten
                continue;
            }
            const auto found = now.find(it->first);
            if (found == now.end()) {
                step.push_back(ev(sim.stepCount(), EventKind::OverlapEnd,
                                  {static_cast<std::uint32_t>(std::min(*a, *b)),
                                   static_cast<std::uint32_t>(std::max(*a, *b))},
                                  it->second));
                it = open.erase(it);
            } else {
                it->second = std::max(it->second, found->second.second);
                ++it;
            }
        }
        for (const auto& [ids, v] : now)
            if (open.emplace(ids, v.second).second)
                step.push_back(ev(sim.stepCount(), EventKind::OverlapBegin,
                                  {v.first.first, v.first.second}, v.second));
        std::set<std::pair<AgentId, std::uint32_t>> touching;
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t o = 0; o < obstacles.size(); ++o) {
                const double depth = bruteDepth(obstacles[o], pos[i], params[i].radius);
                if (depth < 0.0) continue;
                touching.insert({sim.agentIdAt(i), o});
                if (!contacts.count({sim.agentIdAt(i), o}))
                    step.push_back(
                        ev(sim.stepCount(), EventKind::ObstaclePenetration, {i}, depth, o));
            }
        contacts = std::move(touching);
        std::sort(step.begin(), step.end(), [](const Event& x, const Event& y) {
            if (x.kind != y.kind) return x.kind < y.kind;
            if (x.agents != y.agents) return x.agents < y.agents;
            return x.obstacle < y.obstacle;
        });
        expected.insert(expected.end(), step.begin(), step.end());
    };
    auto observe = [&] {
        std::vector<Event> all;
        det.observe(sim, all);
        for (const Event& e : all)
            if (e.kind == EventKind::OverlapBegin || e.kind == EventKind::OverlapEnd ||
                e.kind == EventKind::ObstaclePenetration)
                got.push_back(e);
        brute();
    };
    std::vector<Event> initial;
    det.reset(sim, initial);
    for (const Event& e : initial)
        if (e.kind == EventKind::OverlapBegin || e.kind == EventKind::ObstaclePenetration)
            got.push_back(e);
    brute();
    std::uniform_int_distribution<int> pick(0, 1000);
    for (int s = 0; s < 80; ++s) {
        sim.step();
        observe();
        for (int e = 0; e < 4; ++e) {
            const std::size_t n = sim.agentCount();
            const AgentId id = sim.agentIdAt(static_cast<std::size_t>(pick(rng)) % n);
            AgentDef d = sim.agent(id);
            switch (pick(rng) % 5) {
            case 0:
                sim.setPosition(id, d.position + Vec2(3.0 * u(rng), 3.0 * u(rng)));
                break;
            case 1:
                d.params.radius = 0.3 + 1.5 * (u(rng) + 1.0); // up to 3.3: grows the max
                sim.setAgent(id, d);
                break;
            case 2:
                d.isStatic = !d.isStatic;
                d.hasGoal = !d.isStatic;
                sim.setAgent(id, d);
                break;
            case 3:
                sim.removeAgent(id);
                break;
            default:
                sim.addAgent(agentAt(12.0 * u(rng), 12.0 * u(rng), 0.5 + u(rng) * 0.2));
                break;
            }
        }
        if (s % 2 == 0) observe(); // the edits, at the same step
    }
    ASSERT_GT(expected.size(), 50u);
    ASSERT_EQ(got.size(), expected.size());
    for (std::size_t k = 0; k < got.size(); ++k)
        ASSERT_EQ(got[k], expected[k]) << k;
}

TEST(Events, SameEventsForAnyThreadCount) {
    std::vector<Event> results[2];
    for (int t = 0; t < 2; ++t) {
        Simulator sim = makeCrowd(400, 11);
        sim.setThreadCount(t + 1);
        EventDetector det;
        results[t] = runEvents(sim, 80, det);
    }
    EXPECT_GT(results[0].size(), 20u);
    EXPECT_EQ(results[0], results[1]);
    // A crowd of several detection chunks (EventDetector::kAgentGrain): the per-agent events
    // and the overlap tests run on the simulator's threads, each worker's found apart.
    const std::size_t n = 3 * EventDetector::kAgentGrain + 100;
    std::vector<Event> big[3];
    for (int t = 0; t < 3; ++t) {
        Simulator sim = makeCrowd(n, 12);
        sim.setThreadCount(t == 2 ? 4 : t + 1);
        EventDetector det;
        big[t] = runEvents(sim, 12, det);
    }
    EXPECT_GT(big[0].size(), 500u);
    EXPECT_EQ(big[0], big[1]);
    EXPECT_EQ(big[0], big[2]);
}

TEST(Events, ACopyResumesIdentically) {
    Simulator a = makeCrowd(200, 3);
    Simulator b = makeCrowd(200, 3);
    EventDetector det;
    std::vector<Event> all;
    det.reset(a, all);
    for (int s = 0; s < 30; ++s) {
        a.step();
        b.step();
        det.observe(a, all);
    }
    EventDetector copy = det; // a full snapshot of the tracking
    std::vector<Event> fromOriginal;
    std::vector<Event> fromCopy;
    for (int s = 0; s < 50; ++s) {
        a.step();
        b.step();
        det.observe(a, fromOriginal);
        copy.observe(b, fromCopy);
    }
    EXPECT_FALSE(fromOriginal.empty());
    EXPECT_EQ(fromOriginal, fromCopy);
    // Assignment too, and the copy's bytes are those of the original.
    EventDetector assigned;
    assigned = copy;
    EXPECT_EQ(assigned.bytes(), copy.bytes());
    EXPECT_GT(det.bytes(), 200 * sizeof(AgentId));
}

TEST(Events, ObservingTheSameStepTwiceReportsOnlyTheEdit) {
    Simulator sim;
    AgentDef still = blindToward(0, 0, 10, 0);
    still.params.maxSpeed = 0.0;
    sim.addAgent(still);
    const AgentId b = sim.addAgent(agentAt(20, 0));
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    for (int s = 1; s <= 7; ++s) {
        sim.step();
        det.observe(sim, events);
    }
    // Observed again at step 7, many times: nothing new, and no simulated time passes, so the
    // still agent does not stall early.
    for (int k = 0; k < 5; ++k)
        det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    // An edit at step 7: b moved onto agent 0 => overlap-begin at step 7 (depth 1 - 0.5).
    sim.setPosition(b, {0.5, 0});
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(7, EventKind::OverlapBegin, {0, 1}, 0.5)});
    events.clear();
    sim.setPosition(b, {20, 0}); // undone: overlap-end at the same step
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(7, EventKind::OverlapEnd, {0, 1}, 0.5)});
    events.clear();
    sim.step(); // step 8: the 8th still step
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(8, EventKind::Stalled, {0}, 2.0)});
}

TEST(Events, AgentsAddedAndRemovedAreFollowedById) {
    Simulator sim;
    const AgentId a = sim.addAgent(agentAt(-20, 0));
    sim.addAgent(agentAt(0, 0, 1.0));
    const AgentId c = sim.addAgent(agentAt(1.5, 0, 1.0)); // overlaps the middle agent
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::OverlapBegin, {1, 2}, 0.5)});
    events.clear();
    // Removing agent 0 renumbers the pair to (0, 1): the overlap goes on, no event.
    sim.removeAgent(a);
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    // A new agent, already at its goal and overlapping nobody: arrived (a condition that
    // holds), at index 2.
    sim.addAgent(blindToward(30, 0, 30, 0));
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::Arrived, {2})});
    events.clear();
    sim.setPosition(c, {5, 0});
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::OverlapEnd, {0, 1}, 0.5)});
    events.clear();
    // Removing an agent in an open overlap forgets it silently.
    sim.setPosition(c, {1, 0});
    det.observe(sim, events);
    ASSERT_EQ(events.size(), 1u);
    sim.removeAgent(c);
    events.clear();
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
}

TEST(Events, ObstaclesAddedAndRemovedAreFollowedById) {
    Simulator sim;
    const ObstacleId first =
        sim.addObstacle(std::vector<Vec2>{{-10, -1}, {-8, -1}, {-8, 1}, {-10, 1}});
    sim.addObstacle(std::vector<Vec2>{{0, -1}, {2, -1}, {2, 1}, {0, 1}});
    sim.addAgent(agentAt(-0.25, 0));
    EventDetector det;
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 0.25, 1u)});
    events.clear();
    sim.removeObstacle(first); // the touched obstacle becomes index 0: same contact
    det.observe(sim, events);
    EXPECT_TRUE(events.empty());
    // A new obstacle under the agent: a new contact.
    sim.addObstacle(std::vector<Vec2>{{-1, -0.25}, {1, -0.25}});
    det.observe(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::ObstaclePenetration, {0}, 0.25, 1u)});
}

/// Overlapping pairs (i < j, not both static) with their depths, by brute force over every
/// pair, with Simulator::clearance()'s expression.
std::map<std::pair<std::uint32_t, std::uint32_t>, double> bruteOverlaps(const Simulator& sim) {
    const auto pos = sim.positions();
    const auto params = sim.agentParams();
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> now;
    for (std::uint32_t i = 0; i < pos.size(); ++i)
        for (std::uint32_t j = i + 1; j < pos.size(); ++j) {
            if (sim.isStaticAt(i) && sim.isStaticAt(j)) continue;
            const double c = length(pos[j] - pos[i]) - params[i].radius - params[j].radius;
            if (c < 0.0) now[{i, j}] = -c;
        }
    return now;
}

/// `n` blind agents (radius 0.5) at the origin, each walking at its own speed (up to 10) in
/// its own direction: a pile-up that spreads into a disk growing 2.5 units per step (Δt 0.25).
Simulator makePileUp(std::size_t n) {
    Simulator sim;
    std::mt19937 rng(17);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (std::size_t i = 0; i < n; ++i) {
        const double angle = 2.0 * std::numbers::pi * u(rng);
        const double speed = 10.0 * std::sqrt(u(rng)) + 0.01; // uniform over the disk
        AgentDef d = blindToward(0, 0, 1e4 * std::cos(angle), 1e4 * std::sin(angle));
        d.params.maxSpeed = speed;
        d.params.prefSpeed = speed;
        sim.addAgent(d);
    }
    return sim;
}

TEST(Events, OverlapFloodOfAPileUpIsBoundedAndEndsWhenItSpreads) {
    // 2,000 agents at one point overlap in 1,999,000 pairs. With a cap of 1,000 the detector
    // reports one overlap-flood-begin (value: that count) instead, holds no pair and no
    // quadratic candidate list, and reports the flood's end at the first step with at most
    // 1,000 overlapping pairs, followed by an overlap-begin for each of them (brute force).
    constexpr std::size_t kAgents = 2000;
    constexpr std::size_t kCap = 1000;
    EventParams params;
    params.maxOverlapPairs = kCap;
    std::vector<Event> byThreads[2];
    for (int t = 0; t < 2; ++t) {
        Simulator sim = makePileUp(kAgents);
        sim.setThreadCount(t + 1);
        EventDetector det(params);
        std::vector<Event>& events = byThreads[t];
        det.reset(sim, events);
        ASSERT_EQ(events, std::vector<Event>{ev(0, EventKind::OverlapFloodBegin, {},
                                                kAgents * (kAgents - 1) / 2.0)});
        EXPECT_TRUE(det.flooded());
        std::optional<std::uint64_t> end;
        while (!end && sim.stepCount() < 100) {
            const std::size_t before = events.size();
            sim.step();
            det.observe(sim, events);
            // Bounded: the candidate list within its budget (the list and one thread's part).
            EXPECT_LE(det.candidateCapacity(),
                      2 * (EventDetector::kCandidatesPerAgent * kAgents + kCap));
            const std::size_t pairs = sim.clearance(0.0).overlappingPairs;
            if (pairs > kCap) {
                EXPECT_EQ(det.trackedOverlaps(), 0u); // no pair followed
                EXPECT_EQ(events.size(), before) << "step " << sim.stepCount();
                EXPECT_TRUE(det.flooded());
            } else {
                end = sim.stepCount();
                // At the end: the pairs overlapping now (all begun during the flood), then
                // the flood's end with its length in steps.
                std::vector<Event> expected;
                for (const auto& [pair, depth] : bruteOverlaps(sim))
                    expected.push_back(
                        ev(*end, EventKind::OverlapBegin, {pair.first, pair.second}, depth));
                EXPECT_EQ(expected.size(), pairs);
                expected.push_back(
                    ev(*end, EventKind::OverlapFloodEnd, {}, static_cast<double>(*end)));
                EXPECT_EQ(std::vector<Event>(events.begin() + static_cast<std::ptrdiff_t>(before),
                                             events.end()),
                          expected);
                EXPECT_FALSE(det.flooded());
                EXPECT_EQ(det.trackedOverlaps(), pairs);
            }
        }
        ASSERT_TRUE(end);
        EXPECT_GT(*end, 5u); // it took a while to spread below the cap
        // After the flood: per-pair events again, as a brute-force tracker started at the
        // flood's end gives them.
        auto open = bruteOverlaps(sim);
        for (int s = 0; s < 10; ++s) {
            std::vector<Event> got;
            sim.step();
            det.observe(sim, got);
            std::vector<Event> expected;
            const auto now = bruteOverlaps(sim);
            for (auto& [pair, deepest] : open) {
                const auto it = now.find(pair);
                if (it == now.end())
                    expected.push_back(ev(sim.stepCount(), EventKind::OverlapEnd,
                                          {pair.first, pair.second}, deepest));
                else
                    deepest = std::max(deepest, it->second);
            }
            for (const auto& [pair, depth] : now)
                if (!open.count(pair))
                    expected.push_back(ev(sim.stepCount(), EventKind::OverlapBegin,
                                          {pair.first, pair.second}, depth));
            std::erase_if(open, [&](const auto& o) { return !now.count(o.first); });
            for (const auto& [pair, depth] : now)
                open.emplace(pair, depth);
            std::sort(expected.begin(), expected.end(), [](const Event& x, const Event& y) {
                return x.kind != y.kind ? x.kind < y.kind : x.agents < y.agents;
            });
            EXPECT_EQ(ofKind(got, EventKind::OverlapBegin).size() +
                          ofKind(got, EventKind::OverlapEnd).size(),
                      got.size());
            EXPECT_EQ(got, expected) << "step " << sim.stepCount();
            events.insert(events.end(), got.begin(), got.end());
        }
    }
    EXPECT_EQ(byThreads[0], byThreads[1]); // any thread count
}

TEST(Events, OverlapFloodOfADenseSquare) {
    // 2,000 agents (radius 0.5) on a 45 x 45 lattice of spacing 1/45 in a unit square: nearly
    // every pair overlaps (all but those more than 1 apart). The flood's value is their exact
    // count (brute force), and the detector stays within its bounds.
    constexpr std::size_t kCap = 1000;
    Simulator sim;
    for (std::size_t i = 0; i < 2000; ++i) {
        AgentDef d =
            agentAt(static_cast<double>(i % 45) / 45.0, static_cast<double>(i / 45) / 45.0);
        d.params.maxSpeed = 0.0;
        d.params.maxNeighbors = 0; // (no LP3 spells: overlaps only)
        sim.addAgent(d);
    }
    std::size_t pairs = 0; // brute force
    const auto pos = sim.positions();
    for (std::size_t i = 0; i < pos.size(); ++i)
        for (std::size_t j = i + 1; j < pos.size(); ++j)
            pairs += length(pos[j] - pos[i]) - 0.5 - 0.5 < 0.0 ? 1 : 0;
    ASSERT_GT(pairs, 1900000u);
    ASSERT_LT(pairs, 1999000u);
    EventParams params;
    params.maxOverlapPairs = kCap;
    EventDetector det(params);
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{
                          ev(0, EventKind::OverlapFloodBegin, {}, static_cast<double>(pairs))});
    for (int s = 0; s < 20; ++s) { // still flooded: nothing new
        sim.step();
        det.observe(sim, events);
        EXPECT_LE(det.candidateCapacity(), 2 * (EventDetector::kCandidatesPerAgent * 2000 + kCap));
    }
    EXPECT_EQ(events.size(), 1u);
    EXPECT_TRUE(det.flooded());
    EXPECT_EQ(det.trackedOverlaps(), 0u);
    EXPECT_LT(det.bytes(), 2000u * 200u); // per-agent tracking only
}

TEST(Events, OpenOverlapsAreFollowedThroughAFlood) {
    // Cap 2. Agents that cannot move (maxSpeed 0), placed by edits before each step, radius
    // 0.5: 0 and 1 overlap from step 0; at step 1 agents 2, 3, 4 pile up (4 pairs > 2: a
    // flood), but the open spell (0, 1) is still followed: it deepens at step 2 and ends at
    // step 3 with its deepest depth. At step 4 only (2, 3) overlaps: the flood ends after 3
    // steps and (2, 3) begins then.
    Simulator sim;
    std::vector<AgentId> id;
    for (double x : {0.0, 0.5, 10.0, 20.0, 30.0}) {
        AgentDef d = agentAt(x, 0);
        d.params.maxSpeed = 0.0;
        d.params.maxNeighbors = 0;
        id.push_back(sim.addAgent(d));
    }
    EventParams params;
    params.maxOverlapPairs = 2;
    EventDetector det(params);
    std::vector<Event> events;
    det.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(0, EventKind::OverlapBegin, {0, 1}, 0.5)});
    events.clear();
    auto stepWith = [&](auto edit) {
        edit();
        sim.step();
        std::vector<Event> got;
        det.observe(sim, got);
        return got;
    };
    // Step 1: (2, 3) 0.25 apart (depth 0.75), (2, 4) 0.5 (0.5), (3, 4) 0.25 (0.75), (0, 1).
    EXPECT_EQ(stepWith([&] {
                  sim.setPosition(id[3], {10.25, 0});
                  sim.setPosition(id[4], {10.5, 0});
              }),
              std::vector<Event>{ev(1, EventKind::OverlapFloodBegin, {}, 4.0)});
    EXPECT_EQ(det.trackedOverlaps(), 1u);
    EXPECT_EQ(stepWith([&] { sim.setPosition(id[1], {0.25, 0}); }), std::vector<Event>{});
    EXPECT_EQ(stepWith([&] {
                  sim.setPosition(id[1], {5, 0});
              }),
              std::vector<Event>{ev(3, EventKind::OverlapEnd, {0, 1}, 0.75)});
    EXPECT_EQ(stepWith([&] {
                  sim.setPosition(id[4], {30, 0});
              }),
              (std::vector<Event>{ev(4, EventKind::OverlapBegin, {2, 3}, 0.75),
                                  ev(4, EventKind::OverlapFloodEnd, {}, 3.0)}));
    EXPECT_FALSE(det.flooded());
    // Back to normal: the spell (2, 3) ends as usual.
    EXPECT_EQ(stepWith([&] {
                  sim.setPosition(id[3], {20, 0});
              }),
              std::vector<Event>{ev(5, EventKind::OverlapEnd, {2, 3}, 0.75)});
    // A cap of 0 floods at the first overlap.
    EventParams none;
    none.maxOverlapPairs = 0;
    EventDetector zero(none);
    events.clear();
    sim.setPosition(id[1], {0.5, 0});
    zero.reset(sim, events);
    EXPECT_EQ(events, std::vector<Event>{ev(5, EventKind::OverlapFloodBegin, {}, 1.0)});
}

TEST(Events, BelowTheCapEventsAreUnchanged) {
    // The crowd's events with the default cap, and with a cap equal to the most pairs that
    // ever overlap at once, are the same (a step is flooded only above the cap); one less
    // floods at exactly the steps with more overlapping pairs than that.
    std::size_t most = 0;
    std::vector<std::size_t> perStep;
    {
        Simulator sim = makeCrowd(300, 7);
        perStep.push_back(sim.clearance(0.0).overlappingPairs);
        for (int s = 0; s < 60; ++s) {
            sim.step();
            perStep.push_back(sim.clearance(0.0).overlappingPairs);
        }
        most = *std::max_element(perStep.begin(), perStep.end());
    }
    ASSERT_GT(most, 3u);
    auto run = [](std::size_t cap) {
        Simulator sim = makeCrowd(300, 7);
        EventParams params;
        params.maxOverlapPairs = cap;
        EventDetector det(params);
        return runEvents(sim, 60, det);
    };
    const std::vector<Event> reference = run(EventParams{}.maxOverlapPairs);
    EXPECT_GT(ofKind(reference, EventKind::OverlapBegin).size(), 10u);
    EXPECT_TRUE(ofKind(reference, EventKind::OverlapFloodBegin).empty());
    EXPECT_EQ(run(most), reference);
    const std::vector<Event> capped = run(most - 1);
    std::vector<std::uint64_t> floodSteps;
    std::uint64_t since = 0;
    bool flooded = false;
    for (const Event& e : capped) {
        if (e.kind == EventKind::OverlapFloodBegin) {
            EXPECT_FALSE(flooded);
            EXPECT_EQ(e.value, static_cast<double>(perStep[e.step]));
            flooded = true;
            since = e.step;
        } else if (e.kind == EventKind::OverlapFloodEnd) {
            EXPECT_TRUE(flooded);
            EXPECT_EQ(e.value, static_cast<double>(e.step - since));
            for (std::uint64_t s = since; s < e.step; ++s)
                floodSteps.push_back(s);
            flooded = false;
        }
    }
    if (flooded)
        for (std::uint64_t s = since; s < perStep.size(); ++s)
            floodSteps.push_back(s);
    std::vector<std::uint64_t> expected;
    for (std::uint64_t s = 0; s < perStep.size(); ++s)
        if (perStep[s] > most - 1) expected.push_back(s);
    EXPECT_EQ(floodSteps, expected);
    // Everything but overlaps is untouched by the cap.
    auto others = [](const std::vector<Event>& all) {
        std::vector<Event> out;
        for (const Event& e : all)
            if (e.kind > EventKind::OverlapFloodEnd) out.push_back(e);
        return out;
    };
    EXPECT_EQ(others(capped), others(reference));
}

TEST(Events, CandidateListOverflowGivesTheSameEvents) {
    // 300 agents (radius 0.5, fast: the widest skin, 8 radii) in a 12 x 12 square: about 25
    // candidate pairs (within 10 radii) per overlapping pair (within 2 radii). With a cap of
    // 2,000 the candidate budget (48 per agent + 2,000) is too small for them, so the
    // detector sweeps the overlaps directly; as long as no step has more than 2,000
    // overlapping pairs, its events are those of the default detector (which uses the list).
    auto crowd = [] {
        Simulator sim;
        std::mt19937 rng(3);
        std::uniform_real_distribution<double> u(-6.0, 6.0);
        for (int i = 0; i < 300; ++i) {
            AgentDef d = agentAt(u(rng), u(rng));
            d.params.maxSpeed = 4.0;
            d.params.prefSpeed = 2.0;
            d.params.neighborDist = 5.0;
            d.params.timeHorizon = 2.0;
            d.hasGoal = true;
            d.goal = {-d.position.y, d.position.x};
            sim.addAgent(d);
        }
        return sim;
    };
    constexpr std::size_t kCap = 2000;
    {
        // The premise: the candidates overflow the budget at step 0.
        const Simulator sim = crowd();
        const double skin = std::clamp(16.0 * 4.0 * sim.params().timeStep, 1.0, 4.0);
        ASSERT_EQ(skin, 4.0);
        std::size_t candidates = 0;
        const auto pos = sim.positions();
        for (std::size_t i = 0; i < pos.size(); ++i)
            for (std::size_t j = i + 1; j < pos.size(); ++j)
                candidates += length(pos[j] - pos[i]) < 1.0 + skin ? 1 : 0;
        ASSERT_GT(candidates, EventDetector::kCandidatesPerAgent * 300 + kCap);
    }
    Simulator a = crowd();
    Simulator b = crowd();
    EventDetector reference;
    EventParams params;
    params.maxOverlapPairs = kCap;
    EventDetector swept(params);
    std::vector<Event> fromReference;
    std::vector<Event> fromSwept;
    reference.reset(a, fromReference);
    swept.reset(b, fromSwept);
    for (int s = 0; s < 40; ++s) {
        ASSERT_LE(a.clearance(0.0).overlappingPairs, kCap);
        a.step();
        b.step();
        reference.observe(a, fromReference);
        swept.observe(b, fromSwept);
    }
    EXPECT_GT(ofKind(fromReference, EventKind::OverlapBegin).size(), 100u);
    EXPECT_TRUE(ofKind(fromSwept, EventKind::OverlapFloodBegin).empty());
    EXPECT_EQ(fromSwept, fromReference);
}

TEST(Events, BytesGrowWithTheAgents) {
    Simulator sim = makeCrowd(100, 5);
    EventDetector det;
    (void)runEvents(sim, 5, det);
    EventDetector empty;
    std::vector<Event> none;
    Simulator nobody;
    empty.reset(nobody, none);
    EXPECT_TRUE(none.empty());
    // Tracking grows with the agents: at least the ids and per-agent state of 100 agents.
    EXPECT_GT(det.bytes(), empty.bytes() + 100 * sizeof(AgentId));
}

} // namespace
} // namespace orca
