// Parameter edits go into both the simulator and the scene; unsaved-change tracking and the
// prompt before losing changes; restart and save keep the edits.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "orca/scene/scene.hpp"

#include "sandbox.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

const fs::path kScenes = fs::path(ORCA_SOURCE_DIR) / "scenes";

scene::Scene twoAgentScene() {
    scene::Scene s;
    s.name = "two";
    s.agentDefaults.radius = 0.5;
    scene::SceneAgent a;
    a.position = {0.0, 0.0};
    a.goal = Vec2{10.0, 0.0};
    scene::SceneAgent b;
    b.position = {5.0, 1.0};
    b.prefVelocity = Vec2{-1.0, 0.0};
    s.agents = {a, b};
    return s;
}

ui::AgentEdit number(ui::AgentField f, double v) {
    return ui::AgentEdit{f, v, {}, false};
}

void loadOrDie(SandboxContext& ctx, const fs::path& file) {
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, file, error)) << error;
}

} // namespace

TEST(SceneEdit, AgentEditReachesSimulatorAndScene) {
    scene::Scene scene = twoAgentScene();
    Simulator sim = scene::buildSimulator(scene);
    sim.step(); // edits keep the running state (position, velocity)
    const Vec2 pos = sim.position(sim.agentIdAt(0));
    const AgentId ids[] = {sim.agentIdAt(0), sim.agentIdAt(1)};
    std::string err;
    ASSERT_TRUE(applyAgentEdit(scene, sim, ids, number(ui::AgentField::MaxSpeed, 3.5), err)) << err;
    EXPECT_EQ(sim.agentParams(ids[0]).maxSpeed, 3.5);
    EXPECT_EQ(sim.agentParams(ids[1]).maxSpeed, 3.5);
    EXPECT_EQ(scene.agents[0].overrides.maxSpeed, 3.5);
    EXPECT_EQ(scene.agents[1].overrides.maxSpeed, 3.5);
    EXPECT_EQ(sim.position(ids[0]), pos);
    EXPECT_EQ(scene.agents[0].position, (Vec2{0.0, 0.0})); // the scene keeps its start state

    // Back to the default value: the override disappears (minimal files).
    ASSERT_TRUE(applyAgentEdit(
        scene, sim, ids, number(ui::AgentField::MaxSpeed, scene.agentDefaults.maxSpeed), err));
    EXPECT_FALSE(scene.agents[0].overrides.maxSpeed.has_value());

    // Every field: a simulator rebuilt from the edited scene has the edited parameters.
    const AgentId one[] = {ids[1]};
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::Radius, 0.8), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::PrefSpeed, 0.7), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::NeighborDist, 4.0), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::MaxNeighbors, 3.0), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::TimeHorizon, 2.0), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::TimeHorizonObst, 1.5), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one, number(ui::AgentField::GoalRadius, 0.25), err));
    ASSERT_TRUE(applyAgentEdit(scene, sim, one,
                               ui::AgentEdit{ui::AgentField::Goal, 0, {7.0, 7.0}, true}, err));
    const Simulator rebuilt = scene::buildSimulator(scene);
    const AgentParams& p = rebuilt.agentParams(rebuilt.agentIdAt(1));
    const AgentParams& q = sim.agentParams(ids[1]);
    EXPECT_EQ(p.radius, 0.8);
    EXPECT_EQ(p.radius, q.radius);
    EXPECT_EQ(p.prefSpeed, q.prefSpeed);
    EXPECT_EQ(p.neighborDist, q.neighborDist);
    EXPECT_EQ(p.maxNeighbors, 3);
    EXPECT_EQ(p.timeHorizon, q.timeHorizon);
    EXPECT_EQ(p.timeHorizonObst, q.timeHorizonObst);
    EXPECT_EQ(p.goalRadius, 0.25);
    EXPECT_TRUE(rebuilt.hasGoal(rebuilt.agentIdAt(1)));
    EXPECT_EQ(rebuilt.goalAt(1), (Vec2{7.0, 7.0}));
    EXPECT_FALSE(scene.agents[1].prefVelocity.has_value());

    // Constant preferred velocity and static.
    ASSERT_TRUE(applyAgentEdit(
        scene, sim, one, ui::AgentEdit{ui::AgentField::PrefVelocity, 0, {0.5, 0.0}, false}, err));
    EXPECT_FALSE(sim.hasGoal(ids[1]));
    EXPECT_EQ(sim.prefVelocity(ids[1]), (Vec2{0.5, 0.0}));
    EXPECT_FALSE(scene.agents[1].goal.has_value());
    EXPECT_EQ(scene.agents[1].prefVelocity, (Vec2{0.5, 0.0}));
    ASSERT_TRUE(
        applyAgentEdit(scene, sim, one, ui::AgentEdit{ui::AgentField::Static, 0, {}, true}, err));
    EXPECT_TRUE(sim.isStatic(ids[1]));
    EXPECT_TRUE(scene.agents[1].isStatic);
}

TEST(SceneEdit, InvalidValuesAreRejectedWithoutChangingAnything) {
    scene::Scene scene = twoAgentScene();
    Simulator sim = scene::buildSimulator(scene);
    const scene::Scene before = scene;
    const AgentId ids[] = {sim.agentIdAt(0), sim.agentIdAt(1)};
    std::string err;
    EXPECT_FALSE(applyAgentEdit(scene, sim, ids, number(ui::AgentField::Radius, 0.0), err));
    EXPECT_NE(err.find("radius"), std::string::npos) << err;
    EXPECT_FALSE(applyAgentEdit(scene, sim, ids, number(ui::AgentField::TimeHorizon, -1.0), err));
    EXPECT_FALSE(
        applyAgentEdit(scene, sim, ids, number(ui::AgentField::MaxSpeed, std::nan("")), err));
    EXPECT_TRUE(scene == before);
    EXPECT_EQ(sim.agentParams(ids[0]).radius, 0.5);
    EXPECT_EQ(sim.agentParams(ids[1]).timeHorizon, before.agentDefaults.timeHorizon);

    SimulationParams p = sim.params();
    p.timeStep = 0.0;
    EXPECT_FALSE(applySimulationEdit(scene, sim, p, err));
    p = sim.params();
    p.responsibility = 1.5;
    EXPECT_FALSE(applySimulationEdit(scene, sim, p, err));
    EXPECT_TRUE(scene == before);
    p = sim.params();
    p.timeStep = 0.1;
    ASSERT_TRUE(applySimulationEdit(scene, sim, p, err)) << err;
    EXPECT_EQ(sim.params().timeStep, 0.1);
    EXPECT_EQ(scene.simulation.params.timeStep, 0.1);
}

TEST(SceneEdit, MixedDetectionAndApplyToDefinition) {
    AgentDef a;
    AgentDef b;
    b.params.radius = 2.0;
    EXPECT_FALSE(ui::sameField(a, b, ui::AgentField::Radius));
    EXPECT_TRUE(ui::sameField(a, b, ui::AgentField::MaxSpeed));
    b.hasGoal = true;
    EXPECT_FALSE(ui::sameField(a, b, ui::AgentField::HasGoal));
    ui::applyAgentEdit(a, ui::AgentEdit{ui::AgentField::HasGoal, 0, {}, true});
    EXPECT_TRUE(a.hasGoal);
    EXPECT_EQ(a.goal, a.position); // a new goal starts where the agent is
    ui::applyAgentEdit(a, ui::AgentEdit{ui::AgentField::HasGoal, 0, {}, false}, {0.3, 0.4});
    EXPECT_FALSE(a.hasGoal);
    EXPECT_EQ(a.prefVelocity, (Vec2{0.3, 0.4})); // keeps the v_pref it had
}

TEST(SceneEdit, DetourKeySwitchesTheFieldLiveAndInTheScene) {
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "detour_wall.json");
    ASSERT_TRUE(ctx.session.sim.params().detour.enabled);
    stepSimulation(ctx, 40);
    const Vec2 pos = ctx.session.sim.position(ctx.session.sim.agentIdAt(0));

    applyAction(ctx, Action::ToggleDetour);
    EXPECT_FALSE(ctx.session.sim.params().detour.enabled);
    EXPECT_FALSE(ctx.doc.scene.simulation.params.detour.enabled);
    EXPECT_EQ(ctx.session.sim.stepCount(), 40u); // live: the run goes on from where it was
    EXPECT_EQ(ctx.session.sim.position(ctx.session.sim.agentIdAt(0)), pos);
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());

    ctx.requests.restart = true; // restart keeps the edit
    applyRequests(ctx);
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u);
    EXPECT_FALSE(ctx.session.sim.params().detour.enabled);

    applyAction(ctx, Action::ToggleDetour); // back as saved
    EXPECT_TRUE(ctx.session.sim.params().detour.enabled);
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
}

TEST(Unsaved, TrackerComparesWithTheSavedScene) {
    scene::Scene s = twoAgentScene();
    UnsavedTracker t;
    t.reset(s);
    EXPECT_FALSE(t.unsaved());
    s.agents[0].overrides.radius = 0.9;
    t.update(s);
    EXPECT_TRUE(t.unsaved());
    s.agents[0].overrides.radius.reset(); // undone by hand
    t.update(s);
    EXPECT_FALSE(t.unsaved());
}

TEST(Unsaved, EditsMarkTheSceneAndLoadingOrQuittingAsksFirst) {
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "crossing.json");
    ASSERT_TRUE(selectByIndex(ctx.explain, ctx.session.sim, {0, 3}, ctx.windows.paramsError));
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    refreshRecords(ctx.explain, ctx.session);
    ASSERT_EQ(ctx.explain.records.size(), 2u);
    const std::uint64_t version = ctx.session.stateVersion;

    ASSERT_TRUE(editAgents(ctx, number(ui::AgentField::NeighborDist, 1.0)));
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_GT(ctx.session.stateVersion, version);
    // The records were refreshed at once (a dry run: no step was taken).
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u);
    EXPECT_EQ(ctx.explain.records[0].params.neighborDist, 1.0);
    EXPECT_TRUE(ctx.explain.records[0].agentNeighbors.empty());

    // Opening another scene waits for the prompt.
    requestLoad(ctx, kScenes / "circle.json");
    EXPECT_FALSE(ctx.requests.load.has_value());
    EXPECT_EQ(ctx.windows.dialog, Dialog::Unsaved);
    answerUnsaved(ctx, PromptAnswer::Cancel);
    EXPECT_FALSE(ctx.requests.load.has_value());
    EXPECT_FALSE(ctx.windows.guarded.has_value());

    requestQuit(ctx);
    EXPECT_FALSE(ctx.requests.quit);
    answerUnsaved(ctx, PromptAnswer::Discard);
    EXPECT_TRUE(ctx.requests.quit);
    ctx.requests.quit = false;

    requestLoad(ctx, kScenes / "circle.json");
    answerUnsaved(ctx, PromptAnswer::Discard);
    ASSERT_TRUE(ctx.requests.load.has_value());
    applyRequests(ctx);
    EXPECT_EQ(ctx.doc.sceneFile, kScenes / "circle.json");
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    EXPECT_TRUE(ctx.explain.selection.empty()); // cleared on load

    // Without unsaved changes nothing asks.
    requestLoad(ctx, kScenes / "crossing.json");
    EXPECT_TRUE(ctx.requests.load.has_value());
    EXPECT_EQ(ctx.windows.dialog, Dialog::None);
}

TEST(Unsaved, RestartKeepsEditsSelectionAndUnsavedMark) {
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "crossing.json");
    ASSERT_TRUE(selectByIndex(ctx.explain, ctx.session.sim, {2}, ctx.windows.paramsError));
    ASSERT_TRUE(editAgents(ctx, number(ui::AgentField::Radius, 0.75)));
    stepSimulation(ctx, 5);
    ctx.requests.restart = true;
    applyRequests(ctx);
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u);
    EXPECT_EQ(ctx.explain.selection.primaryIndex(ctx.session.sim), 2u);
    EXPECT_EQ(ctx.session.sim.agentParams(ctx.session.sim.agentIdAt(2)).radius, 0.75);
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(ctx.session.metricsHistory.size(), 0u); // plots restart with the run
}

TEST(Unsaved, SaveWritesTheEditedSceneWithTheViewAndClearsTheMark) {
    const fs::path dir = fs::path(testing::TempDir()) / "orca_gui_save";
    fs::remove_all(dir);
    fs::create_directories(dir);
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "crossing.json");
    ASSERT_TRUE(selectByIndex(ctx.explain, ctx.session.sim, {1}, ctx.windows.paramsError));
    ASSERT_TRUE(editAgents(ctx, number(ui::AgentField::MaxSpeed, 2.25)));
    SimulationParams p = ctx.session.sim.params();
    p.responsibility = 0.75;
    ASSERT_TRUE(editSimulation(ctx, p));
    stepSimulation(ctx, 10); // the running state is not what gets saved
    ctx.view.camera.setCenter({3.0, -2.0});
    ctx.view.camera.setScale(17.0);
    ctx.view.layers.overlay.voCones = false;

    const fs::path out = dir / "edited.json";
    ASSERT_TRUE(saveSceneAs(ctx, out));
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(ctx.doc.sceneFile, out);

    const scene::LoadResult back = scene::loadScene(out);
    EXPECT_EQ(back.scene.agents[1].overrides.maxSpeed, 2.25);
    EXPECT_EQ(back.scene.simulation.params.responsibility, 0.75);
    EXPECT_EQ(back.scene.agents[1].position, ctx.doc.scene.agents[1].position);
    EXPECT_EQ(back.scene.simulation.step, 0u);
    ASSERT_TRUE(back.scene.extra.contains("view"));

    // Loading it restores the camera and the layers.
    SandboxContext other;
    loadOrDie(other, out);
    EXPECT_FALSE(other.view.fitRequested);
    EXPECT_EQ(other.view.camera.center(), (Vec2{3.0, -2.0}));
    EXPECT_EQ(other.view.camera.scale(), 17.0);
    EXPECT_FALSE(other.view.layers.overlay.voCones);
    EXPECT_FALSE(other.doc.unsaved.unsaved());

    // A failed save keeps the unsaved mark and the file name.
    ASSERT_TRUE(editAgents(ctx, number(ui::AgentField::MaxSpeed, 2.5)));
    EXPECT_FALSE(saveSceneAs(ctx, dir / "no-such-dir" / "x.json"));
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(ctx.doc.sceneFile, out);
    EXPECT_FALSE(ctx.windows.messages.empty());
}

TEST(SaveScene, ViewBlockKeepsTheSelectionAndForeignKeys) {
    const fs::path dir = fs::temp_directory_path() / "orca-sandbox-save-view";
    fs::remove_all(dir);
    fs::create_directories(dir);
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "welcome.json");
    // The welcome scene's view selects agent 2, plays at 2x and carries a hint.
    EXPECT_EQ(ctx.explain.selection.primaryIndex(ctx.session.sim), std::optional<std::size_t>(2));
    EXPECT_EQ(ctx.session.clockSettings.timeScale, 2.0);
    EXPECT_FALSE(ctx.windows.sceneHint.empty());
    ASSERT_TRUE(selectByIndex(ctx.explain, ctx.session.sim, {7, 4},
                              ctx.windows.paramsError)); // 4 is the primary
    const fs::path out = dir / "mine.json";
    ASSERT_TRUE(saveSceneAs(ctx, out));
    const scene::LoadResult back = scene::loadScene(out);
    const auto& view = back.scene.extra.at("view");
    EXPECT_EQ(view.at("select"), nlohmann::ordered_json::parse("[7, 4]"));
    EXPECT_EQ(view.at("timeScale"), 2);       // not written by the app, but kept
    EXPECT_TRUE(view.at("hint").is_string()); // likewise
    SandboxContext other;
    loadOrDie(other, out);
    EXPECT_EQ(other.explain.selection.primaryIndex(other.session.sim),
              std::optional<std::size_t>(4));
    EXPECT_EQ(other.explain.selection.size(), 2u);
}

TEST(SaveScene, NewSceneIsNamedAfterItsFile) {
    const fs::path dir = fs::temp_directory_path() / "orca-sandbox-save-name";
    fs::remove_all(dir);
    fs::create_directories(dir);
    EXPECT_EQ(sceneNameFromFile("my_crowd.json"), "My crowd");
    EXPECT_EQ(sceneNameFromFile("/a/b/_x_.json"), "X");
    EXPECT_EQ(sceneNameFromFile("___.json"), "Untitled");
    SandboxContext ctx;
    setEmptyScene(ctx);
    ASSERT_TRUE(ctx.doc.scene.name.empty());
    scene::Scene s = ctx.doc.scene;
    s.agents.push_back(scene::SceneAgent{});
    ASSERT_TRUE(commitScene(ctx, s, "Add agent"));
    ASSERT_TRUE(saveSceneAs(ctx, dir / "lobby_test.json"));
    EXPECT_EQ(ctx.doc.scene.name, "Lobby test");
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(scene::loadScene(dir / "lobby_test.json").scene.name, "Lobby test");
    // Saved again elsewhere, it keeps its name.
    ASSERT_TRUE(saveSceneAs(ctx, dir / "copy.json"));
    EXPECT_EQ(scene::loadScene(dir / "copy.json").scene.name, "Lobby test");
}

TEST(Unsaved, BrokenFileKeepsTheCurrentScene) {
    SandboxContext ctx;
    loadOrDie(ctx, kScenes / "crossing.json");
    ctx.requests.load = fs::path(ORCA_SOURCE_DIR) / "tests" / "gui" / "data" / "broken.json";
    applyRequests(ctx);
    EXPECT_EQ(ctx.doc.sceneFile, kScenes / "crossing.json");
    EXPECT_FALSE(ctx.windows.messages.empty());
}
