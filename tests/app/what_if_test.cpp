// Live what-if without a window: a previewed velocity / v_pref / position changes the
// simulator (and so the dry-run explain record) at once; Esc reverts to the same bits; Keep
// makes it an undoable edit — of the scene at step 0, of the run from a later step (the
// recorded future is cut, undo brings it back), or a v_pref parameter edit.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "orca/scene/scene.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

const fs::path kScenes = fs::path(ORCA_SOURCE_DIR) / "scenes";

void load(SandboxContext& ctx, const char* name) {
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, kScenes / name, error)) << error;
}

std::uint64_t hashAfter(const char* name, int steps) {
    Simulator sim = scene::buildSimulator(scene::loadScene(kScenes / name).scene);
    for (int i = 0; i < steps; ++i)
        sim.step();
    return sim.stateHash();
}

/// The primary agent's line built by neighbour `other` (index into its lines), or -1.
int lineOf(const ExplainRecord& rec, AgentId other) {
    for (std::size_t k = 0; k < rec.lines.size(); ++k)
        if (rec.lines[k].otherAgent == other) return static_cast<int>(k);
    return -1;
}

} // namespace

TEST(WhatIf, ADraggedNeighbourVelocityMovesTheHalfPlaneAndEscRevertsBitExact) {
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "crossing.json");
    stepSimulation(ctx, 20);
    selectAgents(ctx, {0});
    refreshRecords(ctx.explain, ctx.session);
    const ExplainRecord* rec = primaryRecord(ctx.explain);
    ASSERT_NE(rec, nullptr);
    ASSERT_FALSE(rec->agentNeighbors.empty());
    const AgentId other = rec->agentNeighbors.front().id;
    const int k = lineOf(*rec, other);
    ASSERT_GE(k, 0);
    const Line before = rec->lines[static_cast<std::size_t>(k)].line;
    const std::uint64_t hash = ctx.session.sim.stateHash();
    const std::size_t otherIndex = *ctx.session.sim.indexOf(other);

    const Vec2 v = ctx.session.sim.velocity(other);
    whatIfSet(ctx, WhatIfTarget::Velocity, otherIndex, v + Vec2(0.0, 1.0));
    EXPECT_TRUE(ctx.whatIf.active);
    refreshRecords(ctx.explain, ctx.session);
    rec = primaryRecord(ctx.explain);
    ASSERT_NE(rec, nullptr);
    const int k2 = lineOf(*rec, other);
    ASSERT_GE(k2, 0);
    const Line after = rec->lines[static_cast<std::size_t>(k2)].line;
    EXPECT_TRUE(after.point != before.point || after.direction != before.direction);
    EXPECT_EQ(ctx.session.sim.velocity(other), v + Vec2(0.0, 1.0));

    applyAction(ctx, Action::ClearSelection); // Esc: reverts the preview, keeps the selection
    EXPECT_FALSE(ctx.whatIf.active);
    EXPECT_EQ(ctx.session.sim.stateHash(), hash);
    EXPECT_EQ(ctx.explain.selection.size(), 1u);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 20u); // nothing was cut
}

TEST(WhatIf, KeepingAVelocityAtALaterStepEditsTheRunAndUndoBringsTheRecordingBack) {
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "dense_convergence.json");
    stepSimulation(ctx, 80);
    const std::uint64_t head = ctx.session.sim.stateHash();
    seekTo(ctx, 30);
    whatIfSet(ctx, WhatIfTarget::Velocity, 3, Vec2(0.5, -0.5));
    applyAction(ctx, Action::KeepWhatIf);
    EXPECT_FALSE(ctx.whatIf.active);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 30u); // the future was cut
    EXPECT_EQ(ctx.session.sim.velocity(ctx.session.sim.agentIdAt(3)), Vec2(0.5, -0.5));
    EXPECT_FALSE(ctx.doc.unsaved.unsaved()); // the scene (the start) did not change
    stepSimulation(ctx, 10);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 40u);
    EXPECT_NE(ctx.session.sim.stateHash(), hashAfter("dense_convergence.json", 40));

    undoEdit(ctx);
    EXPECT_EQ(ctx.session.sim.stepCount(), 30u);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 80u);
    EXPECT_EQ(ctx.session.sim.stateHash(), hashAfter("dense_convergence.json", 30));
    applyAction(ctx, Action::RecordingEnd);
    EXPECT_EQ(ctx.session.sim.stateHash(), head);
}

TEST(WhatIf, KeepingAPositionAtStepZeroIsAnUndoableSceneEdit) {
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "crossing.json");
    const Vec2 start = ctx.doc.scene.agents[1].position;
    whatIfSet(ctx, WhatIfTarget::Position, 1, start + Vec2(2.0, 0.0));
    // Stepping runs the preview: it is kept first.
    stepSimulation(ctx, 1);
    EXPECT_FALSE(ctx.whatIf.active);
    EXPECT_EQ(ctx.doc.scene.agents[1].position, start + Vec2(2.0, 0.0));
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    undoEdit(ctx);
    EXPECT_EQ(ctx.doc.scene.agents[1].position, start);
    EXPECT_EQ(ctx.session.sim.position(ctx.session.sim.agentIdAt(1)), start);
}

TEST(WhatIf, KeepingAPrefVelocityIsAParameterEdit) {
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "crossing.json");
    stepSimulation(ctx, 15);
    whatIfSet(ctx, WhatIfTarget::PrefVelocity, 2, Vec2(0.0, 1.0));
    EXPECT_EQ(ctx.session.sim.prefVelocity(ctx.session.sim.agentIdAt(2)), Vec2(0.0, 1.0));
    EXPECT_TRUE(whatIfKeep(ctx));
    ASSERT_TRUE(ctx.doc.scene.agents[2].prefVelocity.has_value());
    EXPECT_EQ(*ctx.doc.scene.agents[2].prefVelocity, Vec2(0.0, 1.0));
    EXPECT_FALSE(ctx.doc.scene.agents[2].goal.has_value());
    EXPECT_EQ(ctx.session.sim.prefVelocity(ctx.session.sim.agentIdAt(2)), Vec2(0.0, 1.0));
    EXPECT_EQ(ctx.timeline.history.lastStep(), 15u);
    undoEdit(ctx);
    EXPECT_TRUE(ctx.doc.scene.agents[2].goal.has_value());
    EXPECT_EQ(ctx.session.sim.stateHash(), hashAfter("crossing.json", 15));
}

TEST(WhatIf, ParameterAndRunEditsShareOneCutStackUndoneNewestFirst) {
    // A v_pref kept at step 50 (a parameter edit: its own undo step), then a velocity kept at
    // step 20 (a run edit: no undo step): both cut the recording and wait on the one stack;
    // Ctrl+Z takes the run edit back first, then the parameter edit, each with its recording.
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "dense_convergence.json");
    stepSimulation(ctx, 80);
    const std::uint64_t head = ctx.session.sim.stateHash();
    seekTo(ctx, 50);
    whatIfSet(ctx, WhatIfTarget::PrefVelocity, 2, Vec2(0.0, 1.0));
    ASSERT_TRUE(whatIfKeep(ctx));
    EXPECT_EQ(ctx.timeline.history.lastStep(), 50u);
    ASSERT_EQ(ctx.timeline.cut.size(), 1u);
    EXPECT_EQ(ctx.timeline.cut.back().edit, CutRecording::Edit::Parameter);
    stepSimulation(ctx, 10);
    const std::uint64_t afterParameter = ctx.session.sim.stateHash();
    seekTo(ctx, 20);
    whatIfSet(ctx, WhatIfTarget::Velocity, 3, Vec2(0.5, -0.5));
    ASSERT_TRUE(whatIfKeep(ctx));
    EXPECT_EQ(ctx.timeline.history.lastStep(), 20u);
    ASSERT_EQ(ctx.timeline.cut.size(), 2u);
    EXPECT_EQ(ctx.timeline.cut.back().edit, CutRecording::Edit::Run);
    EXPECT_EQ(ctx.timeline.cut.back().step, 20u);

    undoEdit(ctx); // the run edit: the recording up to step 60 (with the v_pref) is back
    EXPECT_EQ(ctx.session.sim.stepCount(), 20u);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 60u);
    EXPECT_EQ(ctx.timeline.cut.size(), 1u);
    ASSERT_TRUE(ctx.doc.scene.agents[2].prefVelocity.has_value()); // the scene edit stays
    applyAction(ctx, Action::RecordingEnd);
    EXPECT_EQ(ctx.session.sim.stateHash(), afterParameter);

    undoEdit(ctx); // the parameter edit: the scene reverts and the first recording is back
    EXPECT_EQ(ctx.session.sim.stepCount(), 50u);
    EXPECT_EQ(ctx.timeline.history.lastStep(), 80u);
    EXPECT_TRUE(ctx.timeline.cut.empty());
    EXPECT_TRUE(ctx.doc.scene.agents[2].goal.has_value());
    applyAction(ctx, Action::RecordingEnd);
    EXPECT_EQ(ctx.session.sim.stateHash(), head);
}

TEST(WhatIf, ARunEditIsNoLongerUndoneOnceTheSceneWasEditedAfterIt) {
    SandboxContext ctx;
    ctx.interactive = false;
    load(ctx, "dense_convergence.json");
    stepSimulation(ctx, 40);
    seekTo(ctx, 20);
    whatIfSet(ctx, WhatIfTarget::Velocity, 3, Vec2(0.5, -0.5));
    ASSERT_TRUE(whatIfKeep(ctx));
    ASSERT_EQ(ctx.timeline.cut.size(), 1u);
    // A parameter edit after it: the next Ctrl+Z is that edit's.
    const scene::Scene before = ctx.doc.scene;
    ui::AgentEdit edit;
    edit.field = ui::AgentField::MaxSpeed;
    edit.number = 1.5;
    const AgentId first = ctx.session.sim.agentIdAt(0);
    ASSERT_TRUE(editAgents(ctx, edit, std::span<const AgentId>(&first, 1)));
    EXPECT_EQ(ctx.timeline.history.lastStep(), 20u);
    undoEdit(ctx);
    EXPECT_EQ(ctx.doc.scene.agents[0].overrides.maxSpeed, before.agents[0].overrides.maxSpeed);
    EXPECT_EQ(ctx.session.sim.stepCount(), 20u);
    // The scene changed twice since the run edit: the next Ctrl+Z does not bring back the
    // recording the run edit cut (it was of a run before those edits), and drops its entry.
    undoEdit(ctx);
    EXPECT_NE(ctx.timeline.history.lastStep(), 40u); // the recording before it stays gone
    for (const CutRecording& c : ctx.timeline.cut)
        EXPECT_NE(c.edit, CutRecording::Edit::Run);
}
