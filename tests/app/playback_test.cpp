// Recordings (.orcarec) in the app without a window (app/sandbox/playback): opening one, the
// frames applied to the simulator (bit for bit, with the recorded step numbers), seeking and
// stepping to the end, a configuration change mid-recording, the decision explained from a
// frame equal to the one the core made, events found in the frames, and what editing does.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "common/files.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/ui/event_kinds.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;
using scene::Recording;
using scene::RecordingEncoding;
using scene::RecordingFrame;
using scene::RecordingWriter;

namespace {

// Six agents on a circle of radius 4, each heading for the opposite point.
scene::Scene circle(int n = 6) {
    scene::Scene s;
    s.name = "playback circle";
    s.simulation.params.timeStep = 0.25;
    s.agentDefaults.radius = 0.5;
    s.agentDefaults.maxSpeed = 1.5;
    s.agentDefaults.prefSpeed = 1.2;
    s.agentDefaults.neighborDist = 10.0;
    s.agentDefaults.timeHorizon = 4.0;
    for (int i = 0; i < n; ++i) {
        const double a = 2.0 * std::numbers::pi * i / n + 0.1;
        scene::SceneAgent agent;
        agent.position = {4.0 * std::cos(a), 4.0 * std::sin(a)};
        agent.goal = Vec2(-agent.position.x, -agent.position.y);
        s.agents.push_back(agent);
    }
    return s;
}

// Records a run as `orca run --recording` does: the scene, then after every step the state
// and the preferred velocities the step was given. The first `skip` steps are run before
// recording starts (a recording started mid-run); at step `changeAt` (if any) an agent and an
// obstacle are added: a new scene record, then a frame of the same step with the new agent.
struct Run {
    int skip = 0;
    int steps = 20;
    int changeAt = -1;
};

Recording writeRun(const fs::path& path, const Run& run) {
    scene::Scene cur = circle();
    Simulator sim = scene::buildSimulator(cur);
    for (int i = 0; i < run.skip; ++i)
        sim.step();
    RecordingWriter out(path, RecordingEncoding::Float64);
    auto prefs = [&] {
        std::vector<Vec2> pv(sim.agentCount());
        for (std::size_t i = 0; i < pv.size(); ++i)
            pv[i] = sim.prefVelocityAt(i);
        return pv;
    };
    auto frame = [&](const std::vector<Vec2>& pv) {
        out.writeFrame(sim.stepCount(), sim.time(), sim.positions(), sim.velocities(), pv);
    };
    out.writeScene(scene::captureState(cur, sim));
    frame(prefs());
    for (int s = 0; s < run.steps; ++s) {
        if (run.skip + s == run.changeAt) {
            cur = scene::captureState(cur, sim);
            scene::SceneAgent late;
            late.position = {0.0, 7.0};
            late.goal = Vec2(0.0, -7.0);
            cur.agents.push_back(late);
            cur.obstacles.push_back({std::nullopt, {{6.0, -1.0}, {7.0, -1.0}, {7.0, 1.0}}});
            sim = scene::buildSimulator(cur);
            out.writeScene(cur);
            frame(prefs());
        }
        const std::vector<Vec2> pv = prefs();
        sim.step();
        frame(pv);
    }
    out.finish();
    return scene::loadRecording(path);
}

void openOrDie(SandboxContext& ctx, const fs::path& file) {
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;
    ASSERT_TRUE(ctx.playback.active);
}

// The simulator shows frame k exactly.
void expectFrame(const SandboxContext& ctx, const RecordingFrame& f) {
    const auto p = ctx.session.sim.positions();
    const auto v = ctx.session.sim.velocities();
    ASSERT_EQ(p.size(), f.position.size());
    for (std::size_t i = 0; i < p.size(); ++i) {
        EXPECT_EQ(p[i], f.position[i]) << "agent " << i;
        EXPECT_EQ(v[i], f.velocity[i]) << "agent " << i;
    }
    EXPECT_EQ(ctx.session.sim.stepCount(), f.step);
    EXPECT_EQ(ctx.session.sim.time(), f.time);
}

} // namespace

TEST(Playback, DecisionFramesFollowSteps) {
    Recording rec;
    const std::pair<int, int> kFrames[] = {{3, 0}, {4, 0}, {4, 0}, {5, 0}, {5, 1}, {6, 1}};
    for (const auto& [step, config] : kFrames) {
        RecordingFrame f;
        f.step = static_cast<std::uint64_t>(step);
        f.scene = static_cast<std::size_t>(config);
        rec.frames.push_back(f);
    }
    EXPECT_EQ(decisionFrame(rec, 0), 1u);           // step 3 -> 4
    EXPECT_EQ(decisionFrame(rec, 1), std::nullopt); // an edited state of step 4 comes next
    EXPECT_EQ(decisionFrame(rec, 2), 3u);           // from the edited state
    EXPECT_EQ(decisionFrame(rec, 3), std::nullopt); // a new configuration comes next
    EXPECT_EQ(decisionFrame(rec, 4), 5u);
    EXPECT_EQ(decisionFrame(rec, 5), std::nullopt); // the last frame
}

TEST(Playback, OpensARecordingStartedMidRunAtItsFirstFrame) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "run.orcarec";
    const Recording rec = writeRun(file, {.skip = 7, .steps = 12});
    ASSERT_EQ(rec.frames.size(), 13u);
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    EXPECT_EQ(ctx.playback.frame, 0u);
    expectFrame(ctx, rec.frames[0]);
    EXPECT_EQ(ctx.session.sim.stepCount(), 7u); // the recorded step, not the frame
    EXPECT_FALSE(ctx.session.running);
    // Not a file Save writes: no scene file, nothing unsaved, a .json proposed beside it.
    EXPECT_TRUE(ctx.doc.sceneFile.empty());
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(newSceneFile(ctx.doc), dir.path() / "run.json");
    // The state dump's blocks.
    const auto j = recordingJson(ctx);
    EXPECT_EQ(j["frames"], 13);
    EXPECT_EQ(j["firstStep"], 7);
    EXPECT_EQ(j["lastStep"], 19);
    EXPECT_EQ(j["encoding"], "float64");
    EXPECT_EQ(j["truncated"], false);
    EXPECT_EQ(j["scenes"], 1);
    const auto t = timelineJson(ctx);
    EXPECT_EQ(t["first"], 0);
    EXPECT_EQ(t["last"], 12);
    EXPECT_EQ(t["current"], 0);
}

TEST(Playback, StepsSeeksAndStopsAtTheEndOfTheRecording) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "run.orcarec";
    const Recording rec = writeRun(file, {.skip = 3, .steps = 15});
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    stepSimulation(ctx, 1);
    expectFrame(ctx, rec.frames[1]);
    EXPECT_EQ(seekTo(ctx, 9), 9u);
    expectFrame(ctx, rec.frames[9]);
    applyAction(ctx, Action::StepBack);
    expectFrame(ctx, rec.frames[8]);
    applyAction(ctx, Action::RecordingEnd);
    expectFrame(ctx, rec.frames[15]);
    applyAction(ctx, Action::RecordingStart);
    expectFrame(ctx, rec.frames[0]);
    EXPECT_EQ(seekTo(ctx, 999), 15u); // clamped

    // Playing runs to the last frame and stops there; stepping past it refuses.
    seekTo(ctx, 10);
    ctx.session.running = true;
    stepSimulation(ctx, 40);
    expectFrame(ctx, rec.frames[15]);
    EXPECT_FALSE(ctx.session.running);
    EXPECT_NE(ctx.windows.note.find("End of recording"), std::string::npos) << ctx.windows.note;
    bool warning = false;
    EXPECT_EQ(playbackStatus(ctx, warning).substr(0, 28), "end of recording (frame 15);");
    EXPECT_TRUE(warning);
    stepSimulation(ctx, 1);
    expectFrame(ctx, rec.frames[15]);
    EXPECT_TRUE(ctx.playback.active);
    // Restart goes back to the recording's start.
    restartScene(ctx);
    expectFrame(ctx, rec.frames[0]);
}

TEST(Playback, AConfigurationChangeAppliesAtItsFrame) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "change.orcarec";
    const Recording rec = writeRun(file, {.skip = 0, .steps = 12, .changeAt = 5});
    ASSERT_EQ(rec.scenes.size(), 2u);
    ASSERT_EQ(rec.frames.size(), 14u); // 13 steps' frames and the new configuration's
    EXPECT_EQ(rec.frames[6].step, 5u); // the same step as frame 5, with the new agent
    EXPECT_EQ(rec.frames[6].scene, 1u);
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    selectAgents(ctx, {2});
    seekTo(ctx, 5);
    EXPECT_EQ(ctx.session.sim.agentCount(), 6u);
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 0u);
    stepSimulation(ctx, 1);
    expectFrame(ctx, rec.frames[6]);
    EXPECT_EQ(ctx.session.sim.agentCount(), 7u);
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 1u);
    EXPECT_EQ(ctx.explain.selection.primaryIndex(ctx.session.sim), 2u); // kept by index
    EXPECT_EQ(ctx.doc.scene.agents.size(), 7u);
    seekTo(ctx, 13);
    expectFrame(ctx, rec.frames[13]);
    seekTo(ctx, 2); // and back to the first configuration
    expectFrame(ctx, rec.frames[2]);
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 0u);
    // No decision leads from frame 5 to frame 6 (a new configuration comes next).
    seekTo(ctx, 5);
    EXPECT_FALSE(recordedDecision(ctx, 2).has_value());
    seekTo(ctx, 6);
    ASSERT_TRUE(recordedDecision(ctx, 6).has_value()); // the new agent's first decision
    EXPECT_EQ(recordedDecision(ctx, 6)->step, 6u);
}

TEST(Playback, TheDecisionOfEveryFrameIsTheOneTheCoreMade) {
    // The run was simulated by the core with goal-driven v_pref: the decision explained from
    // frame k with frame k+1's recorded v_pref is the velocity the core chose, bit for bit.
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "run.orcarec";
    const Recording rec = writeRun(file, {.skip = 2, .steps = 30, .changeAt = 12});
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    std::size_t compared = 0;
    for (std::size_t k = 0; k + 1 < rec.frames.size(); ++k) {
        seekTo(ctx, k);
        for (std::size_t a = 0; a < ctx.session.sim.agentCount(); a += 2) {
            selectAgents(ctx, {a});
            refreshRecords(ctx.explain, ctx.session);
            const ExplainRecord* r = primaryRecord(ctx.explain);
            ASSERT_NE(r, nullptr);
            EXPECT_EQ(r->position, rec.frames[k].position[a]);
            EXPECT_EQ(r->velocity, rec.frames[k].velocity[a]);
            const auto d = recordedDecision(ctx, a);
            if (!d) continue; // frame 12 -> 13: the configuration changes
            EXPECT_EQ(r->prefVelocity, rec.frames[k + 1].prefVelocity[a]) << "frame " << k;
            EXPECT_EQ(r->newVelocity, d->velocity) << "frame " << k << ", agent " << a;
            ++compared;
        }
    }
    EXPECT_GT(compared, 80u);
    // The dump's decision block says the same.
    seekTo(ctx, 4);
    selectAgents(ctx, {1});
    refreshRecords(ctx.explain, ctx.session);
    const auto j = recordingJson(ctx)["decision"];
    EXPECT_EQ(j["agent"], 1);
    EXPECT_EQ(j["recordedStep"], rec.frames[5].step);
    EXPECT_EQ(j["difference"], 0.0);
}

TEST(Playback, EventsAreFoundInTheFramesAtTheirFrameIndex) {
    // Two agents driven into each other by hand (recorded from step 100): their disks
    // (radius 0.5) overlap from frame 5 on (4 - 0.7 k < 1).
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "overlap.orcarec";
    scene::Scene s;
    s.agentDefaults.radius = 0.5;
    s.agents.resize(2);
    s.agents[0].position = {-2.0, 0.0};
    s.agents[1].position = {2.0, 0.0};
    {
        RecordingWriter out(file, RecordingEncoding::Float32);
        out.writeScene(s);
        for (int k = 0; k < 10; ++k) {
            const std::vector<Vec2> p{{-2.0 + 0.35 * k, 0.0}, {2.0 - 0.35 * k, 0.0}};
            const std::vector<Vec2> v{{1.2, 0.0}, {-1.2, 0.0}};
            out.writeFrame(100 + static_cast<std::uint64_t>(k), 0.25 * k, p, v, v);
        }
        out.finish();
    }
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    playbackFrame(ctx); // finds every event at once (not interactive)
    ASSERT_TRUE(ctx.playback.analysis.done(*ctx.playback.recording));
    const std::vector<Event>& all = ctx.playback.analysis.events();
    // (The hand-driven velocities are not ORCA's: deviations too, tests/app/conformance_app.)
    std::vector<Event> events;
    for (const Event& e : all)
        if (e.kind != ui::kDeviationEvent) events.push_back(e);
    ASSERT_FALSE(events.empty());
    EXPECT_EQ(events[0].kind, EventKind::OverlapBegin);
    EXPECT_EQ(events[0].step, 5u); // the frame, whose recorded step is 105
    EXPECT_EQ(events[0].agents, (std::vector<std::uint32_t>{0, 1}));
    // The transport goes there and selects the pair (deviations filtered out).
    ctx.timeline.eventsPanel.filter.kinds[static_cast<std::size_t>(ui::kDeviationEvent)] = false;
    applyAction(ctx, Action::NextEvent);
    EXPECT_EQ(ctx.playback.frame, 5u);
    EXPECT_EQ(ctx.session.sim.stepCount(), 105u);
    EXPECT_EQ(ctx.explain.selection.size(), 2u);
    EXPECT_EQ(timelineJson(ctx)["events"], all.size());
}

TEST(Playback, EditingMakesTheFrameAnUnsavedSceneAndNeverWritesTheRecording) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "run.orcarec";
    const Recording rec = writeRun(file, {.skip = 0, .steps = 10});
    const std::string bytes = test::readFile(file);
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    seekTo(ctx, 4);
    // Save while watching writes the frame as a scene; the recording stays open.
    const fs::path saved = dir.path() / "frame4.json";
    ASSERT_TRUE(saveSceneAs(ctx, saved));
    EXPECT_TRUE(ctx.playback.active);
    const scene::Scene frame4 = scene::loadScene(saved).scene;
    EXPECT_EQ(frame4.agents[3].position, rec.frames[4].position[3]);
    EXPECT_EQ(frame4.simulation.step, 4u);
    EXPECT_TRUE(frame4.agents[3].goal.has_value()); // the configuration's goals stay

    // An edit: the frame becomes an unsaved scene, simulated from there.
    selectAgents(ctx, {3});
    ASSERT_TRUE(editAgents(ctx, ui::AgentEdit{ui::AgentField::MaxSpeed, 0.5, {}, false}))
        << ctx.windows.paramsError;
    EXPECT_FALSE(ctx.playback.active);
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_TRUE(ctx.doc.sceneFile.empty());
    EXPECT_EQ(newSceneFile(ctx.doc), dir.path() / "run_step4.json");
    EXPECT_EQ(ctx.session.sim.agentParams()[3].maxSpeed, 0.5);
    EXPECT_EQ(ctx.session.sim.positions()[3], rec.frames[4].position[3]);
    EXPECT_EQ(ctx.session.sim.stepCount(), 4u);
    EXPECT_EQ(ctx.explain.selection.primaryIndex(ctx.session.sim), 3u);
    EXPECT_TRUE(ctx.session.sim.hasGoalAt(3)); // simulated with its goal again
    stepSimulation(ctx, 3);
    EXPECT_EQ(ctx.session.sim.stepCount(), 7u);
    EXPECT_EQ(ctx.timeline.history.firstStep(), 4u);
    EXPECT_EQ(test::readFile(file), bytes);
}

TEST(Playback, ContinueLiveSimulatesOnFromTheLastFrame) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "run.orcarec";
    const Recording rec = writeRun(file, {.skip = 0, .steps = 8});
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    applyAction(ctx, Action::RecordingEnd);
    ASSERT_TRUE(leavePlayback(ctx, "continued live"));
    EXPECT_FALSE(ctx.playback.active);
    expectFrame(ctx, rec.frames[8]);
    // The core continues the run it recorded, bit for bit.
    Simulator sim = scene::buildSimulator(circle());
    for (int i = 0; i < 12; ++i)
        sim.step();
    stepSimulation(ctx, 4);
    EXPECT_EQ(ctx.session.sim.stateHash(), sim.stateHash());
}

TEST(Playback, AFileCutShortOpensWhatWasReadAndSaysSo) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "cut.orcarec";
    const Recording rec = writeRun(file, {.skip = 0, .steps = 10});
    fs::resize_file(file, fs::file_size(file) - 9);
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    EXPECT_TRUE(ctx.playback.recording->truncated);
    EXPECT_EQ(ctx.playback.recording->frames.size(), 10u);
    EXPECT_EQ(ctx.windows.messages.frontTitle(), "Recording cut short");
    applyAction(ctx, Action::RecordingEnd);
    expectFrame(ctx, rec.frames[9]);
    EXPECT_EQ(recordingJson(ctx)["truncated"], true);
}

TEST(Playback, ABrokenRecordingIsRefusedWithTheLoadersMessage) {
    test::TempDir dir("playback");
    const fs::path file = dir.path() / "broken.orcarec";
    (void)writeRun(file, {.skip = 0, .steps = 3});
    std::string bytes = test::readFile(file);
    bytes[8] = 2; // format version 2
    std::ofstream(file, std::ios::binary) << bytes;
    SandboxContext ctx;
    ctx.interactive = false;
    const fs::path crossing = fs::path(ORCA_SOURCE_DIR) / "scenes" / "crossing.json";
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, crossing, error)) << error;
    EXPECT_FALSE(loadSceneFile(ctx, file, error));
    EXPECT_NE(error.find("broken.orcarec"), std::string::npos) << error;
    EXPECT_NE(error.find("at byte 8: recording format version 2"), std::string::npos) << error;
    EXPECT_EQ(ctx.doc.sceneFile, crossing); // kept
    EXPECT_FALSE(ctx.playback.active);
    // Not the signature, but named .orcarec: the recording loader says what it expected.
    std::ofstream(file, std::ios::binary) << "{\"format\": \"orca-scene\"}";
    EXPECT_FALSE(loadSceneFile(ctx, file, error));
    EXPECT_NE(error.find("at byte 0: not an ORCA Sandbox recording"), std::string::npos) << error;
    // A recording under another name is found by its signature.
    const fs::path other = dir.path() / "run.bin";
    (void)writeRun(other, {.skip = 0, .steps = 3});
    EXPECT_TRUE(isRecordingFile(other));
    EXPECT_TRUE(loadSceneFile(ctx, other, error)) << error;
    EXPECT_TRUE(ctx.playback.active);
}
