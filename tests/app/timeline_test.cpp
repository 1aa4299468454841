// Time travel in the app without a window: the timeline bar's step <-> pixel mapping, zoom
// about the cursor, marker aggregation and hit-testing; the events panel's filtering and the
// transport's previous / next event; and the app's recording: every step at the head recorded,
// seeking bit-exact, stepping from the past replays, a parameter edit at a past step cuts the
// future and its undo brings the recording back.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"
#include "orca/ui/events_panel.hpp"
#include "orca/ui/timeline_bar.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;
using ui::TimelineMarker;
using ui::TimelineView;
using ui::TimelineZoom;

namespace {

Event ev(std::uint64_t step, EventKind kind, std::vector<std::uint32_t> agents,
         double value = 0.0) {
    Event e;
    e.step = step;
    e.kind = kind;
    e.agents = std::move(agents);
    e.value = value;
    return e;
}

} // namespace

// ---- Mapping and zoom ----------------------------------------------------------------------

TEST(TimelineView, MapsStepsToPixelsAndBack) {
    const TimelineView v{100.0, 300.0, 50.0, 400.0}; // 2 px per step
    EXPECT_DOUBLE_EQ(v.stepToX(100.0), 50.0);
    EXPECT_DOUBLE_EQ(v.stepToX(300.0), 450.0);
    EXPECT_DOUBLE_EQ(v.stepToX(200.0), 250.0);
    EXPECT_DOUBLE_EQ(v.xToStep(250.0), 200.0);
    EXPECT_EQ(v.stepAt(251.2, 0, 1000), 201u); // nearest step
    EXPECT_EQ(v.stepAt(0.0, 100, 300), 100u);  // clamped to the recording
    EXPECT_EQ(v.stepAt(1e6, 100, 300), 300u);
}

TEST(TimelineZoom, WholeRangeUntilZoomedAndAtLeastOneStepWide) {
    TimelineZoom z;
    const TimelineView v = z.view(0, 400, 10.0, 800.0);
    EXPECT_DOUBLE_EQ(v.start, 0.0);
    EXPECT_DOUBLE_EQ(v.end, 400.0);
    const TimelineView one = z.view(7, 7, 0.0, 100.0); // only the start recorded
    EXPECT_DOUBLE_EQ(one.start, 7.0);
    EXPECT_DOUBLE_EQ(one.end, 8.0);
}

TEST(TimelineZoom, ZoomAboutTheCursorKeepsItsStepFixed) {
    TimelineZoom z;
    const TimelineView v = z.view(0, 400, 0.0, 800.0); // 2 px per step
    const double x = 600.0;                            // step 300
    z.zoomAbout(v, 0, 400, x, 4.0);
    ASSERT_TRUE(z.zoomed);
    const TimelineView w = z.view(0, 400, 0.0, 800.0);
    EXPECT_DOUBLE_EQ(w.end - w.start, 100.0);
    EXPECT_NEAR(w.xToStep(x), 300.0, 1e-9);
    // Near the end the window stays inside the recording.
    z.zoomAbout(w, 0, 400, 799.0, 1.0);
    const TimelineView w2 = z.view(0, 400, 0.0, 800.0);
    EXPECT_LE(w2.end, 400.0);
    // Not narrower than kMinSpan; zooming out past the whole range resets.
    for (int i = 0; i < 20; ++i)
        z.zoomAbout(z.view(0, 400, 0.0, 800.0), 0, 400, 400.0, 2.0);
    const TimelineView narrow = z.view(0, 400, 0.0, 800.0);
    EXPECT_DOUBLE_EQ(narrow.end - narrow.start, TimelineZoom::kMinSpan);
    z.zoomAbout(narrow, 0, 400, 400.0, 1e-3);
    EXPECT_FALSE(z.zoomed);
}

TEST(TimelineZoom, PanAndFollowStayInsideTheRecording) {
    TimelineZoom z;
    z.zoomAbout(z.view(0, 1000, 0.0, 1000.0), 0, 1000, 0.0, 10.0); // [0, 100]
    z.pan(0, 1000, -50.0);
    EXPECT_DOUBLE_EQ(z.view(0, 1000, 0.0, 1000.0).start, 0.0);
    z.follow(0, 1000, 450);
    const TimelineView v = z.view(0, 1000, 0.0, 1000.0);
    EXPECT_LE(v.start, 450.0);
    EXPECT_GE(v.end, 450.0);
    EXPECT_DOUBLE_EQ(v.end - v.start, 100.0);
}

// ---- Aggregation and hit-testing -----------------------------------------------------------

TEST(TimelineMarkers, NearbyEventsOfALaneMergeWithCounts) {
    // 2 px per step; bins of 5 px: steps 10, 11, 12 merge; 20 does not; the LP3 event at 11
    // is in another lane and stays apart.
    const std::vector<Event> events = {
        ev(10, EventKind::OverlapBegin, {1, 2}), ev(11, EventKind::OverlapBegin, {3, 4}),
        ev(11, EventKind::Lp3Begin, {5}),        ev(12, EventKind::OverlapEnd, {1, 2}, 0.1),
        ev(20, EventKind::OverlapEnd, {3, 4}),
    };
    const TimelineView v{0.0, 100.0, 0.0, 200.0};
    std::vector<TimelineMarker> m;
    ui::aggregateMarkers(events, v, 5.0, m);
    ASSERT_EQ(m.size(), 3u);
    EXPECT_EQ(m[0].lane, ui::EventLane::Overlap);
    EXPECT_EQ(m[0].count, 3u);
    EXPECT_EQ(m[0].firstStep, 10u);
    EXPECT_EQ(m[0].lastStep, 12u);
    EXPECT_DOUBLE_EQ(m[0].x0, 20.0);
    EXPECT_DOUBLE_EQ(m[0].x1, 24.0);
    EXPECT_EQ(m[0].kindCounts[static_cast<std::size_t>(EventKind::OverlapBegin)], 2u);
    EXPECT_EQ(m[0].dominantKind(), EventKind::OverlapBegin);
    EXPECT_EQ(m[1].lane, ui::EventLane::Lp3);
    EXPECT_EQ(m[1].firstEvent, 2u);
    EXPECT_EQ(m[2].count, 1u);
    EXPECT_EQ(m[2].firstStep, 20u);
    // Zoomed in (20 px per step) nothing merges.
    ui::aggregateMarkers(events, TimelineView{0.0, 50.0, 0.0, 1000.0}, 5.0, m);
    EXPECT_EQ(m.size(), 5u);
    // Only what is visible.
    ui::aggregateMarkers(events, TimelineView{15.0, 30.0, 0.0, 300.0}, 5.0, m);
    ASSERT_EQ(m.size(), 1u);
    EXPECT_EQ(m[0].firstEvent, 4u);
}

TEST(TimelineMarkers, TenThousandEventsStayAFewHundredMarkers) {
    std::vector<Event> events;
    for (std::uint32_t i = 0; i < 10000; ++i)
        events.push_back(ev(i / 4, static_cast<EventKind>(i % kEventKindCount), {i % 100}));
    std::vector<TimelineMarker> m;
    ui::aggregateMarkers(events, TimelineView{0.0, 2500.0, 0.0, 1000.0}, 5.0, m);
    EXPECT_LE(m.size(), ui::kEventLaneCount * (1000 / 5 + 1));
    std::size_t total = 0;
    for (const TimelineMarker& k : m)
        total += k.count;
    EXPECT_EQ(total, events.size()); // every event is in exactly one marker
}

TEST(TimelineMarkers, HitTestPicksTheLaneAndTheNearestMarker) {
    std::vector<TimelineMarker> m(3);
    m[0].lane = ui::EventLane::Overlap;
    m[0].x0 = 10.0;
    m[0].x1 = 20.0;
    m[1].lane = ui::EventLane::Overlap;
    m[1].x0 = m[1].x1 = 40.0;
    m[2].lane = ui::EventLane::Lp3;
    m[2].x0 = m[2].x1 = 15.0;
    const double top = 100.0;
    const double lane = 8.0; // overlap row [100, 108), LP3 row [116, 124)
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {15.0, 104.0}), 0u);
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {42.0, 101.0}), 1u); // within the slop
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {30.0, 104.0}), std::nullopt);
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {15.0, 120.0}), 2u);
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {15.0, 112.0}), std::nullopt); // obstacle row
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {15.0, 99.0}), std::nullopt);  // the ruler
    EXPECT_EQ(ui::hitTestMarker(m, top, lane, {15.0, 1000.0}), std::nullopt);
}

TEST(TimelineMarkers, FocusIsTheFirstStepsAgentsOfTheLane) {
    const std::vector<Event> events = {
        ev(5, EventKind::OverlapBegin, {7, 9}), ev(5, EventKind::Lp3Begin, {1}),
        ev(5, EventKind::OverlapBegin, {2, 7}), ev(6, EventKind::OverlapBegin, {3, 4})};
    std::vector<TimelineMarker> m;
    ui::aggregateMarkers(events, TimelineView{0.0, 100.0, 0.0, 100.0}, 5.0, m);
    ASSERT_EQ(m.size(), 2u);
    ASSERT_EQ(m[0].count, 3u); // steps 5, 5, 6
    const ui::MarkerFocus f = ui::markerFocus(events, m[0]);
    EXPECT_EQ(f.step, 5u);
    EXPECT_EQ(f.event, 0u);
    EXPECT_EQ(f.agents, (std::vector<std::uint32_t>{2, 7, 9}));
    EXPECT_EQ(ui::agentList(f.agents), "#2, #7, #9");
    EXPECT_EQ(ui::agentList(f.agents, 2), "#2, #7 +1");
}

// ---- Events panel --------------------------------------------------------------------------

TEST(EventsFilter, ByKindAndAgentWithCounts) {
    const std::vector<Event> events = {
        ev(1, EventKind::OverlapBegin, {0, 1}), ev(2, EventKind::Lp3Begin, {1}),
        ev(3, EventKind::Arrived, {2}), ev(4, EventKind::OverlapEnd, {0, 1}, 0.2)};
    ui::EventFilter f;
    std::vector<std::uint32_t> rows;
    ui::filterEvents(events, f.kinds, f.agent(std::nullopt), rows);
    EXPECT_EQ(rows.size(), 4u);
    f.kinds[static_cast<std::size_t>(EventKind::Arrived)] = false;
    f.agentMode = ui::EventFilter::AgentMode::Index;
    f.agentIndex = 1;
    ui::filterEvents(events, f.kinds, f.agent(std::nullopt), rows);
    EXPECT_EQ(rows, (std::vector<std::uint32_t>{0, 1, 3}));
    f.agentMode = ui::EventFilter::AgentMode::Selected;
    EXPECT_EQ(f.agent(std::nullopt), std::nullopt); // nobody selected: everybody
    EXPECT_EQ(f.agent(std::size_t{2}), 2u);
    const auto counts = ui::countByKind(events, 0u);
    EXPECT_EQ(counts[static_cast<std::size_t>(EventKind::OverlapBegin)], 1u);
    EXPECT_EQ(counts[static_cast<std::size_t>(EventKind::Lp3Begin)], 0u);
    EXPECT_EQ(counts[static_cast<std::size_t>(EventKind::OverlapEnd)], 1u);
}

TEST(EventsFilter, PreviousAndNextEventHonourTheFilter) {
    const std::vector<Event> events = {
        ev(1, EventKind::OverlapBegin, {0, 1}), ev(5, EventKind::Lp3Begin, {1}),
        ev(5, EventKind::Arrived, {2}), ev(9, EventKind::OverlapEnd, {0, 1})};
    ui::EventFilter f;
    EXPECT_EQ(ui::adjacentEvent(events, 0, true, f.kinds, std::nullopt), 0u);
    EXPECT_EQ(ui::adjacentEvent(events, 1, true, f.kinds, std::nullopt), 1u);
    EXPECT_EQ(ui::adjacentEvent(events, 5, true, f.kinds, std::nullopt), 3u);
    EXPECT_EQ(ui::adjacentEvent(events, 9, true, f.kinds, std::nullopt), std::nullopt);
    EXPECT_EQ(ui::adjacentEvent(events, 9, false, f.kinds, std::nullopt), 1u); // first at 5
    EXPECT_EQ(ui::adjacentEvent(events, 5, false, f.kinds, std::nullopt), 0u);
    EXPECT_EQ(ui::adjacentEvent(events, 1, false, f.kinds, std::nullopt), std::nullopt);
    EXPECT_EQ(ui::adjacentEvent(events, 9, false, f.kinds, 2u), 2u);
    f.kinds[static_cast<std::size_t>(EventKind::Lp3Begin)] = false;
    EXPECT_EQ(ui::adjacentEvent(events, 1, true, f.kinds, std::nullopt), 2u);
}

// ---- The app's recording -------------------------------------------------------------------

namespace {

const fs::path kScenes = fs::path(ORCA_SOURCE_DIR) / "scenes";

void loadOrDie(SandboxContext& ctx, const fs::path& file) {
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;
}

std::uint64_t hashAfter(const fs::path& file, int steps) {
    scene::Scene s = scene::loadScene(file).scene;
    Simulator sim = scene::buildSimulator(s);
    for (int i = 0; i < steps; ++i)
        sim.step();
    return sim.stateHash();
}

} // namespace

// Issue 25, item 7: the budget covers everything the recording keeps, events included. The
// keyframes get what the events leave (so they are thinned sooner), and seeking stays exact.
TEST(TimeTravel, BudgetCoversKeyframesAndEvents) {
    SandboxContext ctx;
    ctx.interactive = false;
    ctx.timeline.memoryBudget = std::size_t(3) << 20;
    loadOrDie(ctx, kScenes / "circle.json");
    const History& h = ctx.timeline.history;
    for (int i = 0; i < 1500; ++i) {
        stepSimulation(ctx, 1);
        ASSERT_LE(h.bytes(), ctx.timeline.memoryBudget) << "step " << i + 1;
        // The keyframes' share is what the events and the detector leave.
        ASSERT_EQ(h.params().memoryBudget,
                  std::max<std::size_t>(ctx.timeline.memoryBudget - (h.bytes() - h.keyframeBytes()),
                                        std::size_t(1) << 20));
    }
    EXPECT_GT(h.keyframeInterval(), 8u); // thinned: 250 agents x 1500 steps do not fit at 8
    EXPECT_EQ(ctx.timeline.summarised.restarts, 0u);
    EXPECT_EQ(h.firstStep(), 0u);
    seekTo(ctx, 777);
    EXPECT_EQ(ctx.session.sim.stateHash(), hashAfter(kScenes / "circle.json", 777));
    const auto dump = timelineJson(ctx);
    EXPECT_EQ(dump["budget"], std::size_t(3) << 20);
    EXPECT_TRUE(dump["summarised"].is_null());
}

// When the events alone pass half the budget (2,000 agents converging: ~130 events a step),
// the oldest part's events are counted per kind and the recording starts again at the head:
// memory stays within the budget, and the timeline and the state dump say what was summarised.
TEST(TimeTravel, EventsBeyondHalfTheBudgetAreSummarised) {
    SandboxContext ctx;
    ctx.interactive = false;
    ctx.timeline.memoryBudget = kMinHistoryBudget;
    std::string error;
    ASSERT_TRUE(loadSceneObject(ctx, scene::realSceneWorkload("gathering2000"), {}, error))
        << error;
    const History& h = ctx.timeline.history;
    std::size_t restarts = 0;
    for (int i = 0; i < 300; ++i) {
        stepSimulation(ctx, 1);
        ASSERT_LE(h.bytes(), ctx.timeline.memoryBudget) << "step " << i + 1;
        if (ctx.timeline.summarised.restarts > restarts) {
            restarts = ctx.timeline.summarised.restarts;
            ASSERT_EQ(h.firstStep(), ctx.session.sim.stepCount()); // recording again from here
        }
    }
    const EventSummary& s = ctx.timeline.summarised;
    ASSERT_GE(s.restarts, 1u);
    EXPECT_EQ(s.fromStep, 0u);
    EXPECT_GT(s.toStep, 0u);
    EXPECT_GT(s.events, 10000u);
    std::size_t byKind = 0;
    for (const auto& [kind, n] : s.byKind)
        byKind += n;
    EXPECT_EQ(byKind, s.events);
    EXPECT_GT(s.byKind.at("lp3-begin"), 0u);
    // The recording still works from its new first step.
    const std::uint64_t head = ctx.session.sim.stepCount();
    const std::uint64_t hash = ctx.session.sim.stateHash();
    seekTo(ctx, h.firstStep());
    seekTo(ctx, head);
    EXPECT_EQ(ctx.session.sim.stateHash(), hash);
    const auto dump = timelineJson(ctx);
    ASSERT_TRUE(dump["summarised"].is_object());
    EXPECT_EQ(dump["summarised"]["events"], s.events);
    EXPECT_EQ(dump["summarised"]["toStep"], s.toStep);
    EXPECT_LE(dump["bytes"].get<std::size_t>(), dump["budget"].get<std::size_t>());
}

TEST(TimeTravel, RecordsAtTheHeadAndSeeksBitExact) {
    SandboxContext ctx;
    ctx.interactive = false;
    loadOrDie(ctx, kScenes / "circle.json");
    ASSERT_TRUE(ctx.timeline.history.started());
    EXPECT_EQ(ctx.timeline.history.lastStep(), 0u);
    stepSimulation(ctx, 60);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 60u);
    const std::uint64_t head = ctx.session.sim.stateHash();

    const std::uint64_t version = ctx.session.stateVersion;
    EXPECT_EQ(seekTo(ctx, 25), 25u);
    EXPECT_GT(ctx.session.stateVersion, version); // explain records, inspector, overlays refresh
    EXPECT_EQ(ctx.session.sim.stepCount(), 25u);
    EXPECT_EQ(ctx.session.sim.stateHash(), hashAfter(kScenes / "circle.json", 25));

    // Stepping from the past replays (nothing recorded) and reaches the same head.
    stepSimulation(ctx, 35);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 60u);
    EXPECT_EQ(ctx.session.sim.stateHash(), head);
    // At the head, recording continues.
    stepSimulation(ctx, 5);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 65u);

    applyAction(ctx, Action::StepBack);
    EXPECT_EQ(ctx.session.sim.stepCount(), 64u);
    applyAction(ctx, Action::RecordingStart);
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u);
    applyAction(ctx, Action::RecordingEnd);
    EXPECT_EQ(ctx.session.sim.stepCount(), 65u);
    EXPECT_EQ(seekTo(ctx, 1000), 65u); // clamped
}

TEST(TimeTravel, RestartAndSceneEditsStartANewRecording) {
    SandboxContext ctx;
    ctx.interactive = false;
    loadOrDie(ctx, kScenes / "circle.json");
    stepSimulation(ctx, 30);
    const std::uint64_t generation = ctx.timeline.generation;
    restartScene(ctx);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 0u);
    EXPECT_GT(ctx.timeline.generation, generation);
}

TEST(TimeTravel, ParameterEditInThePastCutsTheFutureAndUndoBringsItBack) {
    SandboxContext ctx;
    ctx.interactive = false;
    loadOrDie(ctx, kScenes / "circle.json");
    stepSimulation(ctx, 80);
    const std::uint64_t head = ctx.session.sim.stateHash();
    seekTo(ctx, 40);
    selectAgents(ctx, {0});
    ASSERT_TRUE(editAgents(ctx, ui::AgentEdit{ui::AgentField::MaxSpeed, 0.5, {}, false}))
        << ctx.windows.paramsError;
    EXPECT_EQ(ctx.session.sim.stepCount(), 40u);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 40u); // the future was cut
    stepSimulation(ctx, 10);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 50u); // and is recorded anew
    EXPECT_EQ(ctx.session.sim.agentParams(ctx.session.sim.agentIdAt(0)).maxSpeed, 0.5);

    undoEdit(ctx);
    EXPECT_EQ(ctx.session.sim.stepCount(), 40u); // back where the edit was made, before it
    EXPECT_EQ(ctx.timeline.history.lastStep(), 80u);
    EXPECT_NE(ctx.session.sim.agentParams(ctx.session.sim.agentIdAt(0)).maxSpeed, 0.5);
    EXPECT_FALSE(ctx.doc.scene.agents[0].overrides.maxSpeed.has_value());
    EXPECT_EQ(ctx.session.sim.stateHash(), hashAfter(kScenes / "circle.json", 40));
    applyAction(ctx, Action::RecordingEnd);
    EXPECT_EQ(ctx.session.sim.stateHash(), head);
}

TEST(TimeTravel, FocusingAnEventSeeksAndSelectsItsAgents) {
    SandboxContext ctx;
    ctx.interactive = false;
    loadOrDie(ctx, kScenes / "dense_convergence.json");
    stepSimulation(ctx, 200);
    const auto& events = ctx.timeline.history.events();
    ASSERT_FALSE(events.empty());
    const std::size_t i = events.size() / 2;
    const Event e = events[i];
    focusEvent(ctx, i);
    EXPECT_EQ(ctx.session.sim.stepCount(), e.step);
    std::vector<std::size_t> want(e.agents.begin(), e.agents.end());
    std::vector<std::size_t> got = selectedAgents(ctx);
    std::sort(want.begin(), want.end());
    EXPECT_EQ(got, want);
}
