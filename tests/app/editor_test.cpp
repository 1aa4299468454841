// Scene authoring without a window: every edit goes through the history and undoes to a
// byte-identical scene, editing restarts a running simulation, obstacles drawn clockwise are
// closed counter-clockwise, reversed (W) clockwise obstacles are left
// out of the simulation (not fatal), clipboard and duplicate, snapping, picking, parameter
// edits, lint fixes, autosave and recovery.
#include <gtest/gtest.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"

#include "sandbox.hpp"
#include "shell/end_signals.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

scene::Scene baseScene() {
    scene::Scene s;
    s.name = "editor";
    s.agentDefaults.radius = 0.5;
    scene::SceneAgent a;
    a.position = {0.0, 0.0};
    a.goal = Vec2{10.0, 0.0};
    scene::SceneAgent b;
    b.position = {5.0, 3.0};
    b.overrides.maxSpeed = 3.0;
    s.agents = {a, b};
    scene::SceneObstacle o;
    o.vertices = {{-4.0, -4.0}, {-2.0, -4.0}, {-2.0, -2.0}, {-4.0, -2.0}};
    s.obstacles = {o};
    return s;
}

// A context holding `s` as if just loaded (nothing to undo, nothing unsaved).
void install(SandboxContext& ctx, const scene::Scene& s) {
    setEmptyScene(ctx);
    ASSERT_TRUE(commitScene(ctx, s, "setup"));
    ctx.doc.history.clear();
    ctx.doc.unsaved.reset(ctx.doc.scene);
    ctx.doc.unsaved.update(ctx.doc.scene);
}

std::string text(const SandboxContext& ctx) {
    return scene::serializeScene(ctx.doc.scene);
}

fs::path tempDir(const std::string& name) {
    const fs::path d = fs::temp_directory_path() / ("orca-editor-test-" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

// The base scene, saved to DIR/scene.json, with its recovery file DIR/recovery.json and a
// 60-second autosave.
void installSavedWithRecovery(SandboxContext& ctx, const fs::path& dir) {
    install(ctx, baseScene());
    ctx.doc.sceneFile = dir / "scene.json";
    scene::saveScene(ctx.doc.scene, ctx.doc.sceneFile);
    ctx.doc.recoveryFile = dir / "recovery.json";
    ctx.doc.autosave = AutosaveTimer(60.0);
}

std::string readText(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

} // namespace

TEST(Editor, EveryEditUndoesToTheByteIdenticalScene) {
    SandboxContext ctx;
    install(ctx, baseScene());
    std::vector<std::string> states{text(ctx)};
    auto record = [&] { states.push_back(text(ctx)); };

    selectAgents(ctx, {1});
    nudgeSelection(ctx, {1.0, 0.0});
    record();
    sealEdits(ctx);
    duplicateSelection(ctx);
    record();
    ctx.editor.obstacles = {0};
    reverseSelectedWinding(ctx);
    record();
    setTool(ctx, Tool::Obstacle);
    ctx.editor.drawing = {{6.0, 6.0}, {8.0, 6.0}, {7.0, 8.0}};
    ASSERT_TRUE(closeDrawing(ctx));
    record();
    selectAgents(ctx, {0, 2});
    ctx.editor.obstacles = {};
    deleteSelection(ctx);
    record();
    ASSERT_EQ(ctx.doc.history.undoCount(), states.size() - 1);
    EXPECT_EQ(ctx.doc.scene.agents.size(), 1u);
    EXPECT_EQ(ctx.session.sim.agentCount(), 1u); // the simulation follows the scene

    for (std::size_t i = states.size() - 1; i > 0; --i) {
        undoEdit(ctx);
        ASSERT_EQ(text(ctx), states[i - 1]) << "undo to state " << i - 1;
        ASSERT_EQ(ctx.session.sim.agentCount(), ctx.doc.scene.agents.size());
    }
    EXPECT_FALSE(ctx.doc.unsaved.unsaved()); // back to the scene as loaded
    for (std::size_t i = 1; i < states.size(); ++i) {
        redoEdit(ctx);
        ASSERT_EQ(text(ctx), states[i]) << "redo to state " << i;
    }
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
}

TEST(Editor, EditingPausesAndRestartsARunningSimulation) {
    SandboxContext ctx;
    install(ctx, baseScene());
    ctx.session.running = true;
    stepSimulation(ctx, 5);
    ASSERT_EQ(ctx.session.sim.stepCount(), 5u);
    scene::Scene after = ctx.doc.scene;
    after.agents[1].position = {6.0, 3.0};
    ASSERT_TRUE(commitScene(ctx, after, "Move"));
    EXPECT_FALSE(ctx.session.running);
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u);
    EXPECT_EQ(ctx.session.sim.positions()[1], (Vec2{6.0, 3.0}));
    EXPECT_EQ(ctx.session.sim.positions()[0], (Vec2{0.0, 0.0})); // back at the scene's start
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_FALSE(commitScene(ctx, after, "Nothing")); // no change, no step
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
}

TEST(Editor, ObstacleDrawnClockwiseIsClosedCounterClockwise) {
    SandboxContext ctx;
    install(ctx, baseScene());
    setTool(ctx, Tool::Obstacle);
    // A square's corners clicked clockwise: the tool reverses them (first vertex kept), so the
    // simulation takes the obstacle, and the status bar says so.
    ctx.editor.drawing = {{10.0, 10.0}, {10.0, 12.0}, {12.0, 12.0}, {12.0, 10.0}};
    ASSERT_TRUE(closeDrawing(ctx));
    ASSERT_EQ(ctx.doc.scene.obstacles.size(), 2u);
    EXPECT_EQ(ctx.doc.scene.obstacles[1].vertices,
              (std::vector<Vec2>{{10.0, 10.0}, {12.0, 10.0}, {12.0, 12.0}, {10.0, 12.0}}));
    EXPECT_TRUE(ctx.editor.skippedObstacles.empty());
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 2u);
    EXPECT_NE(ctx.windows.note.find("reversed to counter-clockwise"), std::string::npos)
        << ctx.windows.note;
    EXPECT_EQ(ctx.editor.obstacles, (std::vector<std::size_t>{1})); // the new one is selected
    // Counter-clockwise clicks are kept as they are, with no note about winding.
    ctx.windows.note.clear();
    setTool(ctx, Tool::Obstacle);
    ctx.editor.drawing = {{20.0, 20.0}, {22.0, 20.0}, {22.0, 22.0}};
    ASSERT_TRUE(closeDrawing(ctx));
    EXPECT_EQ(ctx.doc.scene.obstacles[2].vertices,
              (std::vector<Vec2>{{20.0, 20.0}, {22.0, 20.0}, {22.0, 22.0}}));
    EXPECT_EQ(ctx.windows.note.find("reversed"), std::string::npos) << ctx.windows.note;
    // W still reverses on purpose: then the simulation leaves it out, and undo brings it back.
    ctx.editor.obstacles = {1};
    reverseSelectedWinding(ctx);
    EXPECT_EQ(ctx.editor.skippedObstacles, (std::vector<std::size_t>{1}));
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 2u);
    undoEdit(ctx);
    EXPECT_TRUE(ctx.editor.skippedObstacles.empty());
    EXPECT_EQ(ctx.session.sim.obstacleCount(), 3u);
}

TEST(Editor, SelfIntersectingOrTooShortDrawingsDoNotClose) {
    SandboxContext ctx;
    install(ctx, baseScene());
    setTool(ctx, Tool::Obstacle);
    ctx.editor.drawing = {{0.0, 0.0}, {2.0, 2.0}, {2.0, 0.0}, {0.0, 2.0}}; // a bow tie
    EXPECT_FALSE(closeDrawing(ctx));
    EXPECT_EQ(ctx.doc.scene.obstacles.size(), 1u);
    EXPECT_EQ(ctx.editor.drawing.size(), 4u); // kept for the author to fix
    deleteSelection(ctx);                     // while drawing: drops the last vertex
    EXPECT_EQ(ctx.editor.drawing.size(), 3u);
    // One click then Enter: the lone vertex is discarded (it would join the next obstacle's
    // clicks: two walls drawn one after the other would become one triangle).
    ctx.editor.drawing = {{0.0, 0.0}};
    EXPECT_FALSE(closeDrawing(ctx));
    EXPECT_TRUE(ctx.editor.drawing.empty());
    EXPECT_NE(ctx.windows.note.find("lone vertex was discarded"), std::string::npos);
    ctx.editor.drawing.push_back({0.0, 10.0});
    ctx.editor.drawing.push_back({4.0, 10.0}); // two vertices: a wall segment
    EXPECT_TRUE(closeDrawing(ctx));
    EXPECT_EQ(ctx.doc.scene.obstacles.back().vertices.size(), 2u);
    EXPECT_TRUE(ctx.editor.skippedObstacles.empty());
}

TEST(Editor, DeletingVerticesDownToAWallThenTheObstacle) {
    SandboxContext ctx;
    install(ctx, baseScene());
    setTool(ctx, Tool::Select);
    ctx.editor.vertex = VertexRef{0, 1};
    deleteSelection(ctx);
    EXPECT_EQ(ctx.doc.scene.obstacles[0].vertices,
              (std::vector<Vec2>{{-4.0, -4.0}, {-2.0, -2.0}, {-4.0, -2.0}}));
    ctx.editor.vertex = VertexRef{0, 0};
    deleteSelection(ctx);
    EXPECT_EQ(ctx.doc.scene.obstacles[0].vertices.size(), 2u);
    ctx.editor.vertex = VertexRef{0, 0};
    deleteSelection(ctx);
    EXPECT_TRUE(ctx.doc.scene.obstacles.empty());
    EXPECT_EQ(ctx.doc.history.undoCount(), 3u);
}

TEST(Editor, DuplicateAndPasteAddCopiesBesideAndSelectThem) {
    SandboxContext ctx;
    install(ctx, baseScene());
    ctx.editor.snap = true;
    ctx.editor.snapStep = 1.0;
    selectAgents(ctx, {1});
    duplicateSelection(ctx);
    ASSERT_EQ(ctx.doc.scene.agents.size(), 3u);
    // One diameter and a half to the right (2·0.5 + 0.5 = 1.5), rounded up to the grid: 2.
    EXPECT_EQ(ctx.doc.scene.agents[2].position, (Vec2{7.0, 3.0}));
    EXPECT_EQ(ctx.doc.scene.agents[2].overrides.maxSpeed, 3.0);
    EXPECT_EQ(selectedAgents(ctx), (std::vector<std::size_t>{2}));

    copySelection(ctx);
    paste(ctx, Vec2{20.2, -9.7}); // centred at the mouse, on the grid
    ASSERT_EQ(ctx.doc.scene.agents.size(), 4u);
    EXPECT_EQ(ctx.doc.scene.agents[3].position, (Vec2{20.0, -10.0}));
    EXPECT_EQ(selectedAgents(ctx), (std::vector<std::size_t>{3}));
}

TEST(Editor, PasteIntoAnotherSceneKeepsEachAgentsParameters) {
    SandboxContext ctx;
    install(ctx, baseScene()); // radius 0.5 by default, agent 1 maxSpeed 3
    selectAgents(ctx, {0, 1});
    copySelection(ctx);
    scene::Scene other;
    other.agentDefaults.radius = 1.5;
    other.agentDefaults.maxSpeed = 3.0;
    install(ctx, other); // another scene: the clipboard stays
    paste(ctx, std::nullopt);
    ASSERT_EQ(ctx.doc.scene.agents.size(), 2u);
    const AgentParams p0 = ctx.doc.scene.resolvedParams(ctx.doc.scene.agents[0]);
    const AgentParams p1 = ctx.doc.scene.resolvedParams(ctx.doc.scene.agents[1]);
    EXPECT_EQ(p0.radius, 0.5);
    EXPECT_EQ(p0.maxSpeed, 2.0); // the first scene's default
    EXPECT_EQ(p1.radius, 0.5);
    EXPECT_EQ(p1.maxSpeed, 3.0);
    EXPECT_FALSE(
        ctx.doc.scene.agents[1].overrides.maxSpeed); // equal to the new default: no override
    EXPECT_EQ(ctx.doc.scene.agents[0].goal, (Vec2{11.0, -1.0})); // goals move with their agents
}

TEST(Editor, NudgesMergeIntoOneStepUntilSealed) {
    SandboxContext ctx;
    install(ctx, baseScene());
    selectAgents(ctx, {0});
    ctx.editor.obstacles = {0};
    for (int i = 0; i < 3; ++i)
        nudgeSelection(ctx, {0.0, 1.0});
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
    EXPECT_NEAR(ctx.doc.scene.agents[0].position.y, 0.3, 1e-12);
    EXPECT_NEAR(ctx.doc.scene.obstacles[0].vertices[0].y, -3.7, 1e-12);
    ctx.editor.nudgeBig = true;
    sealEdits(ctx);
    nudgeSelection(ctx, {-1.0, 0.0});
    EXPECT_EQ(ctx.doc.history.undoCount(), 2u);
    EXPECT_NEAR(ctx.doc.scene.agents[0].position.x, -1.0, 1e-12);
}

TEST(Editor, SnapRoundsToTheGridWithoutNegativeZero) {
    EditorState e;
    EXPECT_EQ(snapPoint(e, {1.26, -0.4}), (Vec2{1.26, -0.4}));
    e.snap = true;
    e.snapStep = 0.5;
    const Vec2 p = snapPoint(e, {1.26, -0.2});
    EXPECT_EQ(p, (Vec2{1.5, 0.0}));
    EXPECT_FALSE(std::signbit(p.y));
}

TEST(Editor, PickingPrefersVerticesThenAgentsThenGoalsThenEdges) {
    SandboxContext ctx;
    install(ctx, baseScene());
    ctx.view.camera.setViewport({{0.0, 0.0}, {800.0, 600.0}});
    ctx.view.camera.setCenter({0.0, 0.0});
    ctx.view.camera.setScale(20.0);
    auto at = [&](Vec2 w) { return pickForEdit(ctx, ctx.view.camera.worldToScreen(w)); };
    EXPECT_EQ(at({-2.0, -4.0}).kind, EditHit::Kind::Vertex);
    EXPECT_EQ(at({-2.0, -4.0}).sub, 1u);
    EXPECT_EQ(at({5.1, 3.0}).kind, EditHit::Kind::Agent);
    EXPECT_EQ(at({5.1, 3.0}).index, 1u);
    EXPECT_EQ(at({10.0, 0.1}).kind, EditHit::Kind::Goal);
    const EditHit edge = at({-3.0, -4.1});
    EXPECT_EQ(edge.kind, EditHit::Kind::Edge);
    EXPECT_EQ(edge.sub, 0u);
    EXPECT_NEAR(edge.point.y, -4.0, 1e-12);
    EXPECT_EQ(at({-3.0, -3.0}).kind, EditHit::Kind::Obstacle);
    EXPECT_EQ(at({30.0, 30.0}).kind, EditHit::Kind::None);
}

TEST(Editor, ParameterEditsAreUndoableAndASliderDragIsOneStep) {
    SandboxContext ctx;
    install(ctx, baseScene());
    selectAgents(ctx, {0});
    const std::string before = text(ctx);
    for (const double r : {0.6, 0.7, 0.8})
        ASSERT_TRUE(editAgents(ctx, ui::AgentEdit{ui::AgentField::Radius, r, {}, false}));
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
    EXPECT_EQ(ctx.doc.scene.agents[0].overrides.radius, 0.8);
    SimulationParams p = ctx.session.sim.params();
    p.timeStep = 0.1;
    ASSERT_TRUE(editSimulation(ctx, p));
    EXPECT_EQ(ctx.doc.history.undoCount(), 2u);
    undoEdit(ctx);
    EXPECT_EQ(ctx.session.sim.params().timeStep, ctx.doc.scene.simulation.params.timeStep);
    EXPECT_NE(ctx.doc.scene.simulation.params.timeStep, 0.1);
    undoEdit(ctx);
    EXPECT_EQ(text(ctx), before);
    EXPECT_EQ(ctx.session.sim.agentParams()[0].radius, 0.5);
}

TEST(Editor, LintFixIsOneUndoableEdit) {
    SandboxContext ctx;
    scene::Scene s = baseScene();
    s.agents[1].position = {0.6, 0.0}; // overlaps agent 0 (radii 0.5)
    install(ctx, s);
    refreshLint(ctx);
    const auto& issues = ctx.editor.lint.issues;
    const auto it = std::find_if(issues.begin(), issues.end(), [](const scene::LintIssue& i) {
        return i.rule == "agents-overlap";
    });
    ASSERT_NE(it, issues.end());
    ASSERT_FALSE(it->fixLabel.empty());
    const std::string before = text(ctx);
    ASSERT_TRUE(fixLintIssue(ctx, static_cast<std::size_t>(it - issues.begin())));
    refreshLint(ctx);
    for (const scene::LintIssue& i : ctx.editor.lint.issues)
        EXPECT_NE(i.rule, "agents-overlap");
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
    undoEdit(ctx);
    EXPECT_EQ(text(ctx), before);
}

TEST(Editor, AutosaveWritesTheRecoveryFileAndRestoringBringsTheWorkBack) {
    const fs::path dir = tempDir("recovery");
    SandboxContext ctx;
    installSavedWithRecovery(ctx, dir);
    autosaveTick(ctx, 1000.0);
    EXPECT_FALSE(fs::exists(ctx.doc.recoveryFile)); // nothing unsaved
    scene::Scene after = ctx.doc.scene;
    after.agents[0].position = {1.0, 1.0};
    ASSERT_TRUE(commitScene(ctx, after, "Move"));
    autosaveTick(ctx, 1001.0);
    ASSERT_TRUE(fs::exists(ctx.doc.recoveryFile));

    // The next start: the recovery is offered and restored as unsaved work on the same file.
    SandboxContext next;
    next.doc.recoveryFile = ctx.doc.recoveryFile;
    std::string error;
    next.doc.pendingRecovery = readRecovery(next.doc.recoveryFile, error);
    ASSERT_TRUE(next.doc.pendingRecovery) << error;
    answerRecovery(next, true);
    EXPECT_EQ(next.doc.scene.agents[0].position, (Vec2{1.0, 1.0}));
    EXPECT_EQ(next.doc.sceneFile, ctx.doc.sceneFile);
    EXPECT_TRUE(next.doc.unsaved.unsaved());
    EXPECT_TRUE(fs::exists(next.doc.recoveryFile)); // until the work is saved
    ASSERT_TRUE(saveSceneAs(next, next.doc.sceneFile));
    EXPECT_FALSE(fs::exists(next.doc.recoveryFile));

    // Discarding deletes it.
    ctx.doc.autosave = AutosaveTimer(60.0);
    autosaveTick(ctx, 5000.0);
    ASSERT_TRUE(fs::exists(ctx.doc.recoveryFile));
    SandboxContext third;
    third.doc.recoveryFile = ctx.doc.recoveryFile;
    third.doc.pendingRecovery = readRecovery(third.doc.recoveryFile, error);
    ASSERT_TRUE(third.doc.pendingRecovery);
    answerRecovery(third, false);
    EXPECT_FALSE(fs::exists(third.doc.recoveryFile));
    fs::remove_all(dir);
}

TEST(Editor, AnEndSignalKeepsTheUnsavedSceneForTheNextStartAndQuitsWithoutAPrompt) {
    // SIGTERM (a logout), SIGINT (Ctrl+C), SIGHUP (a closed terminal): nobody may be there to
    // answer a prompt, so the work goes to the recovery file at once, not at the next autosave.
    const fs::path dir = tempDir("end-signal");
    SandboxContext ctx;
    installSavedWithRecovery(ctx, dir);
    EXPECT_TRUE(endOnSignal(ctx, SIGTERM)); // nothing unsaved: just quits
    EXPECT_TRUE(ctx.requests.quit);
    EXPECT_FALSE(fs::exists(ctx.doc.recoveryFile));

    ctx.requests.quit = false;
    scene::Scene after = ctx.doc.scene;
    after.agents[0].position = {2.0, 3.0};
    ASSERT_TRUE(commitScene(ctx, after, "Move"));
    autosaveTick(ctx, 1.0); // not due yet: the autosave would have lost this edit
    ASSERT_FALSE(fs::exists(ctx.doc.recoveryFile));
    EXPECT_TRUE(endOnSignal(ctx, SIGHUP));
    EXPECT_TRUE(ctx.requests.quit);
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
    std::string error;
    const std::optional<Recovered> r = readRecovery(ctx.doc.recoveryFile, error);
    ASSERT_TRUE(r) << error;
    EXPECT_EQ(r->scene.agents[0].position, (Vec2{2.0, 3.0}));
    EXPECT_EQ(r->info.sceneFile, ctx.doc.sceneFile);

    // An older autosave still unanswered is kept, not overwritten; the loss is reported.
    SandboxContext next;
    install(next, baseScene());
    next.doc.recoveryFile = ctx.doc.recoveryFile;
    next.doc.pendingRecovery = readRecovery(next.doc.recoveryFile, error);
    ASSERT_TRUE(next.doc.pendingRecovery) << error;
    after = next.doc.scene;
    after.agents[0].position = {9.0, 9.0};
    ASSERT_TRUE(commitScene(next, after, "Move"));
    EXPECT_FALSE(endOnSignal(next, SIGINT));
    EXPECT_TRUE(next.requests.quit);
    EXPECT_EQ(readRecovery(ctx.doc.recoveryFile, error)->scene.agents[0].position,
              (Vec2{2.0, 3.0}));
    fs::remove_all(dir);
}

TEST(Editor, NotNowKeepsTheOldRecoveryAndTheSessionAutosavesToItsOwn) {
    // Before, "Not now" stopped every autosave of the session (so as not to overwrite the
    // file it put off): a crash then lost all of its edits.
    const fs::path dir = tempDir("not-now");
    SandboxContext first;
    installSavedWithRecovery(first, dir);
    scene::Scene after = first.doc.scene;
    after.agents[0].position = {2.0, 3.0};
    ASSERT_TRUE(commitScene(first, after, "Move"));
    autosaveTick(first, 1000.0);
    const fs::path old = first.doc.recoveryFile;
    ASSERT_TRUE(fs::exists(old));
    const std::string oldText = readText(old);

    SandboxContext next;
    installSavedWithRecovery(next, dir);
    std::string error;
    next.doc.pendingRecovery = readRecovery(old, error);
    ASSERT_TRUE(next.doc.pendingRecovery) << error;
    next.windows.dialog = Dialog::Recover;
    putOffRecovery(next);
    EXPECT_EQ(next.windows.dialog, Dialog::None);
    EXPECT_FALSE(next.doc.pendingRecovery);
    ASSERT_NE(next.doc.recoveryFile, old);
    EXPECT_EQ(next.doc.recoveryFile.parent_path(), dir);
    EXPECT_EQ(next.doc.recoveryFile, next.doc.sessionRecovery.file());
    after = next.doc.scene;
    after.agents[0].position = {7.0, 7.0};
    ASSERT_TRUE(commitScene(next, after, "Move"));
    autosaveTick(next, 1000.0);
    const std::optional<Recovered> own = readRecovery(next.doc.recoveryFile, error);
    ASSERT_TRUE(own) << error;
    EXPECT_EQ(own->scene.agents[0].position, (Vec2{7.0, 7.0}));
    EXPECT_EQ(readText(old), oldText); // the put-off work is untouched
    // A signal now keeps the session's edits too; a clean exit would remove only its own file.
    EXPECT_TRUE(endOnSignal(next, SIGTERM));
    forgetRecovery(next);
    EXPECT_FALSE(fs::exists(next.doc.recoveryFile));
    EXPECT_EQ(readText(old), oldText);
    fs::remove_all(dir);
}

TEST(EndSignals, CatchesTheThreeSignalsOnceEachAndRestoresTheHandlers) {
    struct sigaction ignore {};
    ignore.sa_handler = SIG_IGN;
    sigemptyset(&ignore.sa_mask);
    struct sigaction before[3];
    const int signals[3] = {SIGTERM, SIGINT, SIGHUP};
    for (int k = 0; k < 3; ++k)
        sigaction(signals[k], &ignore, &before[k]);
    {
        EndSignals caught;
        EXPECT_EQ(caught.take(), 0);
        for (const int signal : signals) {
            std::raise(signal);
            EXPECT_EQ(caught.take(), signal);
            EXPECT_EQ(caught.take(), 0);
        }
        std::raise(SIGHUP);
        std::raise(SIGTERM);
        EXPECT_EQ(caught.take(), SIGHUP); // the first one
        {
            EndSignals second; // while the first lives: catches nothing, restores nothing
            std::raise(SIGINT);
            EXPECT_EQ(second.take(), 0);
        }
        EXPECT_EQ(caught.take(), SIGINT);
    }
    for (int k = 0; k < 3; ++k) {
        struct sigaction now {};
        sigaction(signals[k], nullptr, &now);
        EXPECT_EQ(now.sa_handler, SIG_IGN) << signals[k];
        sigaction(signals[k], &before[k], nullptr);
    }
}

TEST(Generators, PreviewIsHeldAfterInsertAndOnAnotherScene) {
    SandboxContext ctx;
    install(ctx, baseScene());
    GeneratorState& g = ctx.editor.generator;
    // A new scene holds the old preview back until the panel shows or a parameter changes.
    EXPECT_TRUE(g.held);
    EXPECT_FALSE(insertGeneratorPreview(ctx));
    g.held = false; // what opening the panel or editing a parameter does
    g.dirty = true;
    g.kind = GeneratorKind::Circle;
    g.circle.center = {100.0, 100.0};
    g.circle.count = 8;
    ASSERT_TRUE(insertGeneratorPreview(ctx));
    EXPECT_EQ(ctx.doc.scene.agents.size(), 10u);
    EXPECT_EQ(ctx.explain.selection.size(), 8u); // the inserted agents are selected
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
    // Held after the insert: no preview drawn, a second click inserts nothing.
    EXPECT_TRUE(g.held);
    EXPECT_EQ(g.heldReason, "inserted");
    EXPECT_TRUE(g.preview.agents.empty());
    EXPECT_FALSE(insertGeneratorPreview(ctx));
    EXPECT_EQ(ctx.doc.scene.agents.size(), 10u);
    // Another scene: held again, with the reason. (Elsewhere: the same spot is taken now.)
    g.held = false;
    g.circle.center = {200.0, 100.0};
    g.dirty = true;
    refreshGeneratorPreview(ctx);
    EXPECT_EQ(g.preview.agents.size(), 8u);
    setEmptyScene(ctx);
    EXPECT_TRUE(g.held);
    EXPECT_EQ(g.heldReason, "another scene was opened");
    EXPECT_TRUE(g.preview.agents.empty());
}

TEST(Generators, DoorwayInsertsItsWallsAndRoutesInOneUndoableEdit) {
    SandboxContext ctx;
    setEmptyScene(ctx);
    GeneratorState& g = ctx.editor.generator;
    g.held = false;
    g.dirty = true;
    g.kind = GeneratorKind::Doorway;
    g.doorway.perSide = 3;
    g.doorway.center = {50.0, 0.0};
    const std::size_t agentsBefore = ctx.doc.scene.agents.size();
    const std::size_t obstaclesBefore = ctx.doc.scene.obstacles.size();
    ASSERT_TRUE(insertGeneratorPreview(ctx)) << g.error;
    EXPECT_EQ(ctx.doc.scene.agents.size(), agentsBefore + 6);
    EXPECT_EQ(ctx.doc.scene.obstacles.size(), obstaclesBefore + 2); // the wall's two halves
    EXPECT_EQ(ctx.doc.scene.agents.back().waypoints.size(), 2u);    // through the gap
    EXPECT_EQ(ctx.doc.history.undoCount(), 1u);
    undoEdit(ctx);
    EXPECT_EQ(ctx.doc.scene.agents.size(), agentsBefore);
    EXPECT_EQ(ctx.doc.scene.obstacles.size(), obstaclesBefore);
    // The corridor too.
    g.held = false;
    g.dirty = true;
    g.kind = GeneratorKind::Corridor;
    g.corridor.perFlow = 2;
    g.corridor.center = {0.0, 80.0};
    ASSERT_TRUE(insertGeneratorPreview(ctx)) << g.error;
    EXPECT_EQ(ctx.doc.scene.agents.size(), agentsBefore + 4);
    EXPECT_EQ(ctx.doc.scene.obstacles.size(), obstaclesBefore + 2);
}

TEST(NewScene, DefaultsPassTheLinter) {
    SandboxContext ctx;
    setEmptyScene(ctx);
    EXPECT_TRUE(scene::lintScene(ctx.doc.scene).empty());
    // Agents placed with the new-agent defaults, a goal each, far apart: still nothing to say.
    scene::Scene s = ctx.doc.scene;
    for (int i = 0; i < 3; ++i) {
        scene::SceneAgent a = ctx.editor.newAgent;
        a.position = {30.0 * i, 0.0};
        a.goal = Vec2{30.0 * i, 40.0};
        s.agents.push_back(a);
    }
    ASSERT_TRUE(commitScene(ctx, s, "Add agents"));
    for (const scene::LintIssue& i : scene::lintScene(ctx.doc.scene))
        ADD_FAILURE() << i.rule << " at " << i.jsonPath << ": " << i.message;
}

TEST(Generators, InsertKeepsClearOfTheSceneAndSaysHowManyWereLeftOut) {
    SandboxContext ctx;
    install(ctx, baseScene()); // agents at (0,0) and (5,3) (radius 0.5), an obstacle at -4..-2
    GeneratorState& g = ctx.editor.generator;
    g.held = false;
    g.kind = GeneratorKind::Grid;
    g.grid.center = {0.0, 0.0};
    g.grid.rows = 5;
    g.grid.columns = 5;
    g.grid.spacing = 2.0; // a block from -4 to 4 over both existing agents' area and the obstacle
    g.grid.withGoals = false;
    g.dirty = true;
    refreshGeneratorPreview(ctx);
    ASSERT_TRUE(g.error.empty()) << g.error;
    EXPECT_EQ(g.preview.requested, 25);
    EXPECT_GT(g.preview.unplaced, 0);
    EXPECT_EQ(g.preview.agents.size() + static_cast<std::size_t>(g.preview.unplaced), 25u);
    EXPECT_NE(g.preview.note.find("placed"), std::string::npos) << g.preview.note;
    const std::size_t placed = g.preview.agents.size();
    ASSERT_TRUE(insertGeneratorPreview(ctx));
    EXPECT_EQ(ctx.doc.scene.agents.size(), 2 + placed);
    EXPECT_NE(ctx.windows.note.find("placed"), std::string::npos)
        << ctx.windows.note; // said in the status bar
    for (const scene::LintIssue& i : scene::lintScene(ctx.doc.scene))
        EXPECT_TRUE(i.rule != "agents-overlap" && i.rule != "agent-in-obstacle")
            << i.rule << ": " << i.message;
    // An edit of the scene makes a new preview around it.
    g.held = false;
    refreshGeneratorPreview(ctx);
    EXPECT_EQ(g.preview.agents.size(), 0u); // every spot is taken now
    EXPECT_EQ(g.preview.unplaced, 25);
}
