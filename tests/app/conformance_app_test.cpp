// The app's face of conformance (app/sandbox/playback/recording_analysis.hpp): the decision shown
// at a recording's frame is the conformance checker's (`orca conform`'s "orca" velocity, bit for
// bit, also where goals, the detour field and deadlock breaking act), deviations become events
// at the frame their decision was made from, seeking restores the checker's shadow from
// snapshots and gives what the sequential pass gives, and trajectory CSVs play against a scene.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "common/files.hpp"
#include "orca/conformance.hpp"
#include "orca/scene/conform.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/trajectory_csv.hpp"
#include "orca/ui/event_kinds.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;
using scene::Recording;
using scene::RecordingEncoding;
using scene::RecordingFrame;

namespace {

const fs::path kScenes = fs::path(ORCA_SOURCE_DIR) / "scenes";

// A run of our simulator as `orca run --recording` records it: after every step the state and
// the preferred velocities the step was given (Simulator::prefVelocityAt before it).
std::vector<RecordingFrame> simulate(const scene::Scene& s, int steps) {
    Simulator sim = scene::buildSimulator(s);
    std::vector<RecordingFrame> frames;
    auto prefs = [&] {
        std::vector<Vec2> pv(sim.agentCount());
        for (std::size_t i = 0; i < pv.size(); ++i)
            pv[i] = sim.prefVelocityAt(i);
        return pv;
    };
    auto take = [&](std::vector<Vec2> pv) {
        RecordingFrame f;
        f.step = sim.stepCount();
        f.time = sim.time();
        f.position.assign(sim.positions().begin(), sim.positions().end());
        f.velocity.assign(sim.velocities().begin(), sim.velocities().end());
        f.prefVelocity = std::move(pv);
        frames.push_back(std::move(f));
    };
    take(prefs());
    for (int k = 0; k < steps; ++k) {
        std::vector<Vec2> pv = prefs();
        sim.step();
        take(std::move(pv));
    }
    return frames;
}

Recording write(const fs::path& file, const scene::Scene& s,
                const std::vector<RecordingFrame>& frames) {
    scene::RecordingWriter out(file, RecordingEncoding::Float64);
    out.writeScene(s);
    for (const RecordingFrame& f : frames)
        out.writeFrame(f.step, f.time, f.position, f.velocity, f.prefVelocity);
    out.finish();
    return scene::loadRecording(file);
}

void openOrDie(SandboxContext& ctx, const fs::path& file) {
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;
    ASSERT_TRUE(ctx.playback.active);
}

// ORCA's velocity of every agent-step, as the conformance check computes it (tolerance 0: every
// agent-step whose velocity is not ORCA's to the bit is listed with ORCA's; the others are
// the recorded ones).
std::map<std::pair<std::uint64_t, std::size_t>, Vec2> orcaVelocities(const Recording& rec) {
    ConformanceOptions o;
    o.tolerance = 0.0;
    o.keepAll = true;
    std::map<std::pair<std::uint64_t, std::size_t>, Vec2> out;
    for (const ConformanceDeviation& d : scene::checkConformance(rec, o).report.deviations)
        out[{d.step, d.agent}] = d.orca;
    return out;
}

// The app's v_new for every agent at the frame on screen equals ORCA's for the next step.
std::size_t
expectDecisionsAreTheCheckers(const SandboxContext& ctx, const Recording& rec, std::size_t k,
                              const std::map<std::pair<std::uint64_t, std::size_t>, Vec2>& orca) {
    const auto d = decisionFrame(rec, k);
    if (!d) return 0;
    const Simulator& sim = ctx.session.sim;
    std::size_t compared = 0;
    for (std::size_t a = 0; a < sim.agentCount(); ++a) {
        if (sim.isStaticAt(a)) continue;
        const Vec2 vNew = sim.explain(sim.agentIdAt(a)).newVelocity;
        const auto it = orca.find({rec.frames[*d].step, a});
        const Vec2 expected = it != orca.end() ? it->second : rec.frames[*d].velocity[a];
        EXPECT_EQ(vNew.x, expected.x) << "frame " << k << ", agent " << a;
        EXPECT_EQ(vNew.y, expected.y) << "frame " << k << ", agent " << a;
        ++compared;
    }
    return compared;
}

// The decision from frame k as the sandbox explained it before: goals and routes dropped, the
// recorded v_pref set, plain ORCA from the recorded state.
Vec2 goalDroppingDecision(const Recording& rec, std::size_t k, std::size_t agent) {
    scene::Scene s = rec.scenes[rec.frames[k].scene];
    for (scene::SceneAgent& a : s.agents) {
        a.goal.reset();
        a.waypoints.clear();
        if (!a.prefVelocity) a.prefVelocity = Vec2(0.0, 0.0);
    }
    Simulator sim = scene::buildSimulator(s);
    putFrameState(sim, rec.frames[k]);
    const auto pv = decisionPrefVelocities(rec, k);
    for (std::size_t i = 0; i < pv.size(); ++i)
        sim.setPrefVelocity(sim.agentIdAt(i), pv[i]);
    return sim.explain(sim.agentIdAt(agent)).newVelocity;
}

} // namespace

TEST(AppConformance, TheDecisionAtEveryFrameOfADetourRunIsTheCheckers) {
    // scenes/detour_field.json: goal agents round static ones with the detour field on. The old
    // explanation (goals dropped, plain ORCA on the recorded v_pref) misses the detour field's
    // replacement of v_pref; the checker's shadow follows the detour modes and timers.
    test::TempDir dir("conform_app");
    const scene::Scene s = scene::loadScene(kScenes / "detour_field.json").scene;
    const fs::path file = dir.path() / "detour.orcarec";
    const Recording rec = write(file, s, simulate(s, 240));
    const auto orca = orcaVelocities(rec);
    EXPECT_TRUE(orca.empty()) << "our own run conforms to the bit";
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, file);
    std::size_t compared = 0;
    std::size_t oldDiffers = 0;
    for (std::size_t k = 0; k + 1 < rec.frames.size(); ++k) {
        if (k > 0) stepSimulation(ctx, 1); // played forward: one frame fed to the checker
        ASSERT_EQ(ctx.playback.frame, k);
        compared += expectDecisionsAreTheCheckers(ctx, rec, k, orca);
        for (std::size_t a = 0; a < rec.frames[k].position.size(); ++a)
            if (!ctx.session.sim.isStaticAt(a) &&
                goalDroppingDecision(rec, k, a) != rec.frames[k + 1].velocity[a])
                ++oldDiffers;
    }
    EXPECT_GT(compared, 1500u);
    EXPECT_GT(oldDiffers, 0u) << "the goal-dropping explanation differed somewhere";
    std::printf("detour_field: %zu agent-steps compared; the goal-dropping explanation differed "
                "in %zu\n",
                compared, oldDiffers);
    // Through the selection and the dump too.
    seekTo(ctx, 30);
    selectAgents(ctx, {5});
    refreshRecords(ctx.explain, ctx.session);
    const auto j = recordingJson(ctx);
    EXPECT_EQ(j["decision"]["orcaVelocity"][0], rec.frames[31].velocity[5].x);
    EXPECT_EQ(j["decision"]["difference"], 0.0);
    EXPECT_EQ(j["decision"]["deviates"], false);
    EXPECT_TRUE(j["decision"]["violatedLines"].empty());
    playbackFrame(ctx); // the whole pass (not interactive)
    const auto c = recordingJson(ctx)["conformance"];
    EXPECT_EQ(c["deviatingAgentSteps"], 0);
    EXPECT_EQ(c["maxDifference"], 0.0);
    EXPECT_EQ(c["tolerance"], kExactConformanceTolerance);
    EXPECT_EQ(c["precision"], "float64");
    EXPECT_EQ(c["done"], true);
    EXPECT_GT(c["checkedAgentSteps"].get<std::uint64_t>(), 1500u);
}

TEST(AppConformance, SeekingRestoresFromSnapshotsAndGivesTheSequentialPassesState) {
    test::TempDir dir("conform_app");
    const scene::Scene s = scene::loadScene(kScenes / "detour_field.json").scene;
    const fs::path file = dir.path() / "detour.orcarec";
    const Recording rec = write(file, s, simulate(s, 50));
    // The sequential pass: the shadow after every frame.
    RecordingAnalysis pass(appConformanceOptions(rec), 1, RecordingAnalysis::kDefaultSnapshotBudget,
                           5);
    ConformanceChecker sequential;
    sequential.begin(scene::buildSimulator(s));
    std::vector<std::uint64_t> hashes;
    for (const RecordingFrame& f : rec.frames) {
        sequential.frame(f.step, f.position, f.velocity, f.prefVelocity);
        hashes.push_back(sequential.shadow().stateHash());
    }
    ASSERT_TRUE(pass.advanceTo(rec, rec.frames.size() - 1));
    EXPECT_EQ(pass.snapshots().size(), 11u); // frames 0, 5, ..., 50
    // Jumps in any order restore the nearest snapshot and replay at most interval − 1 frames.
    DecisionState d;
    for (const std::size_t k : {37u, 3u, 50u, 5u, 6u, 49u, 0u, 20u, 21u, 22u}) {
        d.moveTo(rec, pass, k);
        EXPECT_EQ(d.shadow().stateHash(), hashes[k]) << "frame " << k;
        EXPECT_LE(d.replayed(), 4u) << "frame " << k;
    }
    // A move to the next frame feeds one.
    d.moveTo(rec, pass, 23);
    EXPECT_EQ(d.replayed(), 1u);
    EXPECT_EQ(d.shadow().stateHash(), hashes[23]);

    // The app: seeking anywhere shows what playing there shows.
    SandboxContext played;
    played.interactive = false;
    openOrDie(played, file);
    SandboxContext sought;
    sought.interactive = false;
    openOrDie(sought, file);
    stepSimulation(played, 44);
    seekTo(sought, 44);
    EXPECT_EQ(played.session.sim.stateHash(), sought.session.sim.stateHash());
    seekTo(sought, 12);
    seekTo(sought, 44);
    EXPECT_EQ(played.session.sim.stateHash(), sought.session.sim.stateHash());

    // The snapshots' memory stays within the budget: every other one goes.
    RecordingAnalysis tight(appConformanceOptions(rec), 1, 1, 1); // 1 byte: one snapshot left
    ASSERT_TRUE(tight.advanceTo(rec, rec.frames.size() - 1));
    EXPECT_EQ(tight.snapshots().size(), 1u);
    EXPECT_EQ(tight.snapshots()[0].frame, 0u);
    RecordingAnalysis bounded(appConformanceOptions(rec), 1, 4 * pass.snapshots()[1].state.bytes(),
                              1);
    ASSERT_TRUE(bounded.advanceTo(rec, rec.frames.size() - 1));
    EXPECT_LE(bounded.snapshotBytes(), 4 * pass.snapshots()[1].state.bytes());
    EXPECT_GT(bounded.snapshotInterval(), 1u);
    d.moveTo(rec, bounded, 47);
    EXPECT_EQ(d.shadow().stateHash(), hashes[47]);
}

TEST(AppConformance, ANudgedVelocityIsADeviationEventAtTheFrameOfItsDecision) {
    test::TempDir dir("conform_app");
    const scene::Scene s = scene::loadScene(kScenes / "crossing.json").scene;
    std::vector<RecordingFrame> frames = simulate(s, 40);
    const fs::path clean = dir.path() / "clean.orcarec";
    (void)write(clean, s, frames);
    // A velocity outside agent 3's first half-plane at step 20 (0.3 m/s right of its line).
    constexpr std::size_t kAgent = 3;
    constexpr std::size_t kStep = 20;
    SandboxContext ctx;
    ctx.interactive = false;
    openOrDie(ctx, clean);
    seekTo(ctx, kStep - 1);
    const ExplainRecord before = ctx.session.sim.explain(ctx.session.sim.agentIdAt(kAgent));
    ASSERT_FALSE(before.lines.empty());
    const Line l = before.lines[0].line;
    const Vec2 bad = l.point + Vec2(l.direction.y, -l.direction.x) * 0.3;
    frames[kStep].velocity[kAgent] = bad;
    const fs::path file = dir.path() / "nudged.orcarec";
    const Recording rec = write(file, s, frames);
    const scene::ConformanceResult conform =
        scene::checkConformance(rec, appConformanceOptions(rec));
    ASSERT_TRUE(conform.report.firstDeviation);

    openOrDie(ctx, file);
    playbackFrame(ctx); // the whole pass (not interactive)
    const std::vector<Event>& events = ctx.playback.analysis.events();
    std::vector<Event> deviations;
    for (const Event& e : events)
        if (e.kind == ui::kDeviationEvent) deviations.push_back(e);
    ASSERT_FALSE(deviations.empty());
    EXPECT_EQ(deviations[0].step, kStep - 1); // the frame the decision was made from
    EXPECT_EQ(deviations[0].agents, (std::vector<std::uint32_t>{kAgent}));
    EXPECT_EQ(deviations[0].value, conform.report.firstDeviation->difference);
    EXPECT_EQ(deviations.size(), conform.report.deviatingAgentSteps);
    for (const Event& e : deviations)
        EXPECT_GE(e.step, kStep - 1);
    // Ordered by frame with the detector's events.
    for (std::size_t i = 1; i < events.size(); ++i)
        EXPECT_LE(events[i - 1].step, events[i].step);

    // The summary, the dump.
    bool deviates = false;
    const std::string summary = conformanceSummary(ctx.playback, deviates);
    EXPECT_TRUE(deviates);
    EXPECT_NE(summary.find("first at step 20 agent #3"), std::string::npos) << summary;
    const auto c = recordingJson(ctx)["conformance"];
    EXPECT_EQ(c["deviatingAgentSteps"], conform.report.deviatingAgentSteps);
    EXPECT_EQ(c["maxDifference"], conform.report.maxDifference);
    EXPECT_EQ(c["firstDeviation"]["step"], kStep);
    EXPECT_EQ(c["firstDeviation"]["agent"], kAgent);

    // Going to the event selects the agent at the frame before the step: its v_new is ORCA's
    // for the check, v_rec the nudged one, outside line 0.
    ctx.timeline.eventsPanel.filter.kinds.fill(false);
    ctx.timeline.eventsPanel.filter.kinds[static_cast<std::size_t>(ui::kDeviationEvent)] = true;
    applyAction(ctx, Action::NextEvent);
    EXPECT_EQ(ctx.playback.frame, kStep - 1);
    EXPECT_EQ(ctx.explain.selection.primaryIndex(ctx.session.sim), kAgent);
    refreshRecords(ctx.explain, ctx.session);
    const ExplainRecord* r = primaryRecord(ctx.explain);
    ASSERT_NE(r, nullptr);
    EXPECT_EQ(r->newVelocity, conform.report.firstDeviation->orca);
    const auto violated = violatedLines(*r, bad);
    ASSERT_FALSE(violated.empty());
    EXPECT_EQ(violated[0].line, 0u);
    EXPECT_NEAR(violated[0].by, 0.3, 1e-12);
    const auto j = recordingJson(ctx)["decision"];
    EXPECT_EQ(j["deviates"], true);
    EXPECT_EQ(j["recordedVelocity"][0], bad.x);
    EXPECT_EQ(j["violatedLines"][0]["line"], 0);
    playbackFrame(ctx);
    ASSERT_TRUE(ctx.explain.velocityPanel.mark);
    EXPECT_TRUE(ctx.explain.velocityPanel.mark->deviates);
    EXPECT_EQ(ctx.explain.velocityPanel.mark->violatedLines.front(), 0u);
    EXPECT_NE(ctx.explain.velocityPanel.mark->caption.find("violates"), std::string::npos);
    // Every decision shown is the checker's, also after the departure.
    const auto orca = orcaVelocities(rec);
    for (std::size_t k = kStep - 2; k < kStep + 4; ++k) {
        seekTo(ctx, k);
        expectDecisionsAreTheCheckers(ctx, rec, k, orca);
    }
}

TEST(AppConformance, ATrajectoryCsvPlaysAgainstTheOpenScene) {
    test::TempDir dir("conform_app");
    const fs::path sceneFile = kScenes / "crossing.json";
    const scene::Scene s = scene::loadScene(sceneFile).scene;
    std::vector<RecordingFrame> frames = simulate(s, 25);
    frames[12].velocity[1] += Vec2(0.25, 0.0);
    const fs::path csv = dir.path() / "run.csv";
    {
        std::ofstream out(csv);
        out << "step,agent,x,y,vx,vy,pvx,pvy\n";
        char row[400];
        for (const RecordingFrame& f : frames)
            for (std::size_t a = 0; a < f.position.size(); ++a) {
                std::snprintf(row, sizeof row, "%llu,%zu,%.17g,%.17g,%.17g,%.17g,%.17g,%.17g\n",
                              static_cast<unsigned long long>(f.step), a, f.position[a].x,
                              f.position[a].y, f.velocity[a].x, f.velocity[a].y,
                              f.prefVelocity[a].x, f.prefVelocity[a].y);
                out << row;
            }
    }
    SandboxContext ctx;
    ctx.interactive = false;
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, sceneFile, error)) << error;
    ASSERT_TRUE(openTrajectoryFile(ctx, csv, error)) << error;
    ASSERT_TRUE(ctx.playback.active);
    EXPECT_TRUE(ctx.playback.trajectory);
    EXPECT_EQ(ctx.playback.recording->frames.size(), 26u);
    EXPECT_EQ(playbackTitle(ctx), "run.csv (trajectory against crossing.json, 26 steps)");
    seekTo(ctx, 12);
    EXPECT_EQ(ctx.session.sim.positions()[1], frames[12].position[1]);
    EXPECT_DOUBLE_EQ(ctx.session.sim.time(), 12 * s.simulation.params.timeStep);
    playbackFrame(ctx);
    const auto j = recordingJson(ctx);
    EXPECT_EQ(j["trajectory"], true);
    EXPECT_EQ(j["sceneFile"], sceneFile.string());
    EXPECT_EQ(j["conformance"]["firstDeviation"]["step"], 12);
    EXPECT_EQ(j["conformance"]["firstDeviation"]["agent"], 1);
    // The same as orca conform SCENE RUN.csv.
    Recording run = scene::loadTrajectoryCsv(csv);
    run.scenes = {s};
    const scene::ConformanceResult conform =
        scene::checkConformance(run, appConformanceOptions(run));
    EXPECT_EQ(j["conformance"]["deviatingAgentSteps"], conform.report.deviatingAgentSteps);
    EXPECT_EQ(j["conformance"]["maxDifference"], conform.report.maxDifference);
    // The decision from frame 11 shows ORCA's velocity the check compared.
    seekTo(ctx, 11);
    EXPECT_EQ(ctx.session.sim.explain(ctx.session.sim.agentIdAt(1)).newVelocity,
              conform.report.firstDeviation->orca);

    // A CSV of another scene (a different agent count) is refused, naming both.
    ASSERT_TRUE(loadSceneFile(ctx, kScenes / "detour_field.json", error)) << error;
    EXPECT_FALSE(openTrajectoryFile(ctx, csv, error));
    EXPECT_NE(error.find("run.csv"), std::string::npos) << error;
    EXPECT_NE(error.find("detour_field.json has 46"), std::string::npos) << error;
    EXPECT_FALSE(ctx.playback.active);
    // A broken CSV: the reader's message.
    std::ofstream(dir.path() / "broken.csv") << "step,agent,x\n";
    EXPECT_FALSE(openTrajectoryFile(ctx, dir.path() / "broken.csv", error));
    EXPECT_NE(error.find("broken.csv"), std::string::npos) << error;
}
