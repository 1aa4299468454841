// Routes in the sandbox without a window: the Routes and Roadmap layers' names in --layers and
// the settings file, waypoint edits (insert, append, move, remove) as undoable scene edits that
// the saved scene carries, the goal tool's picking on routes, the drawn routes, and Why?'s Try
// fix (a Compare branch and a verdict) and Apply (one undoable scene edit).
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "orca/scene/fixes.hpp"
#include "orca/scene/scene.hpp"
#include "orca/ui/route_view.hpp"

#include "layers.hpp"
#include "sandbox.hpp"
#include "shell/settings.hpp"

namespace fs = std::filesystem;
using namespace orca;
using namespace orca::app;

namespace {

const fs::path kScenes = fs::path(ORCA_SOURCE_DIR) / "scenes";

scene::Scene routeScene() {
    scene::Scene s;
    s.name = "routes";
    s.agentDefaults.radius = 0.5;
    scene::SceneAgent a;
    a.position = {0.0, 0.0};
    a.goal = Vec2{10.0, 0.0};
    scene::SceneAgent b; // no goal: no route
    b.position = {0.0, 6.0};
    s.agents = {a, b};
    return s;
}

void install(SandboxContext& ctx, const scene::Scene& s) {
    setEmptyScene(ctx);
    ASSERT_TRUE(commitScene(ctx, s, "setup"));
    ctx.doc.history.clear();
    ctx.doc.unsaved.reset(ctx.doc.scene);
}

std::string text(const SandboxContext& ctx) {
    return scene::serializeScene(ctx.doc.scene);
}

// A camera of 20 pixels per world unit centred on the origin, 800 x 600.
void setCamera(SandboxContext& ctx) {
    ctx.view.camera.setViewport({{0.0, 0.0}, {800.0, 600.0}});
    ctx.view.camera.setCenter({5.0, 0.0});
    ctx.view.camera.setScale(20.0);
}

} // namespace

TEST(RouteLayers, NamesParseAndRoundTripThroughTheSettings) {
    ViewLayers l;
    EXPECT_FALSE(l.world.routes); // off by default: a crowd's routes are a lot of lines
    EXPECT_FALSE(l.world.roadmap);
    std::string err;
    ASSERT_TRUE(parseLayerList("routes,roadmap", l, err)) << err;
    EXPECT_TRUE(l.world.routes);
    EXPECT_TRUE(l.world.roadmap);
    EXPECT_EQ(layerListString(l), "routes,roadmap");
    ASSERT_NE(findLayer("routes"), nullptr);
    ASSERT_NE(findLayer("roadmap"), nullptr);

    Settings s;
    s.layers.world.routes = true;
    s.layers.world.roadmap = false;
    Settings back;
    ASSERT_TRUE(settingsFromText(settingsToText(s), back, err)) << err;
    EXPECT_TRUE(back.layers.world.routes);
    EXPECT_FALSE(back.layers.world.roadmap);
    s.layers.world.routes = false;
    s.layers.world.roadmap = true;
    ASSERT_TRUE(settingsFromText(settingsToText(s), back, err)) << err;
    EXPECT_FALSE(back.layers.world.routes);
    EXPECT_TRUE(back.layers.world.roadmap);
}

TEST(Waypoints, SceneEditsValidate) {
    scene::Scene s = routeScene();
    std::string err;
    EXPECT_TRUE(insertWaypoint(s, 0, 0, {5.0, 2.0}, err)) << err;
    EXPECT_TRUE(insertWaypoint(s, 0, 1, {8.0, 2.0}, err)) << err;
    EXPECT_TRUE(insertWaypoint(s, 0, 0, {2.0, 1.0}, err)) << err; // before the first
    EXPECT_EQ(s.agents[0].waypoints, (std::vector<Vec2>{{2.0, 1.0}, {5.0, 2.0}, {8.0, 2.0}}));
    EXPECT_FALSE(insertWaypoint(s, 0, 5, {1.0, 1.0}, err)); // past the end
    EXPECT_FALSE(insertWaypoint(s, 1, 0, {1.0, 1.0}, err)); // no goal
    EXPECT_NE(err.find("no goal"), std::string::npos) << err;
    EXPECT_FALSE(insertWaypoint(s, 7, 0, {1.0, 1.0}, err)); // no such agent
    EXPECT_FALSE(moveWaypoint(s, 0, 3, {1.0, 1.0}, err));
    EXPECT_FALSE(moveWaypoint(s, 0, 0, {std::nan(""), 1.0}, err));
    EXPECT_TRUE(moveWaypoint(s, 0, 1, {5.0, -2.0}, err));
    EXPECT_EQ(s.agents[0].waypoints[1], (Vec2{5.0, -2.0}));
    // Removing a reached waypoint keeps the agent heading for the same one.
    s.agents[0].routeProgress = 2;
    EXPECT_TRUE(removeWaypoint(s, 0, 0, err));
    EXPECT_EQ(s.agents[0].routeProgress, 1u);
    EXPECT_FALSE(removeWaypoint(s, 0, 2, err));
}

TEST(Waypoints, EveryEditIsOneUndoStepAndTheSavedSceneHasThem) {
    SandboxContext ctx;
    ctx.interactive = false;
    install(ctx, routeScene());
    std::vector<std::string> states{text(ctx)};
    selectAgents(ctx, {0});

    ASSERT_TRUE(appendWaypointEdit(ctx, {5.0, 3.0}));
    states.push_back(text(ctx));
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(ctx.doc.history.undoLabel(), "Insert waypoint 1 of agent #0");
    ASSERT_TRUE(insertWaypointEdit(ctx, {0, 1}, {8.0, 3.0}));
    states.push_back(text(ctx));
    ASSERT_TRUE(moveWaypointEdit(ctx, {0, 0}, {4.0, 4.0}));
    states.push_back(text(ctx));
    EXPECT_EQ(ctx.doc.history.undoLabel(), "Move waypoint 1 of agent #0");
    ASSERT_TRUE(removeWaypointEdit(ctx, {0, 1}));
    states.push_back(text(ctx));
    EXPECT_EQ(ctx.doc.scene.agents[0].waypoints, (std::vector<Vec2>{{4.0, 4.0}}));
    // The simulator follows the scene.
    ASSERT_EQ(ctx.session.sim.waypointsAt(0).size(), 1u);
    EXPECT_EQ(ctx.session.sim.waypointsAt(0)[0], (Vec2{4.0, 4.0}));
    // Refused edits change nothing and record nothing.
    EXPECT_FALSE(insertWaypointEdit(ctx, {1, 0}, {1.0, 1.0}));
    EXPECT_EQ(text(ctx), states.back());
    EXPECT_EQ(ctx.doc.history.undoCount(), 4u);

    // The scene file carries them ("waypoints").
    const std::string saved = scene::serializeScene(ctx.doc.scene);
    EXPECT_NE(saved.find("\"waypoints\""), std::string::npos) << saved;
    EXPECT_EQ(scene::parseScene(saved, "saved").scene.agents[0].waypoints,
              ctx.doc.scene.agents[0].waypoints);

    for (std::size_t k = states.size() - 1; k > 0; --k) {
        undoEdit(ctx);
        EXPECT_EQ(text(ctx), states[k - 1]) << "undo to state " << k - 1;
    }
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
    for (std::size_t k = 1; k < states.size(); ++k) {
        redoEdit(ctx);
        EXPECT_EQ(text(ctx), states[k]) << "redo to state " << k;
    }
}

TEST(Waypoints, DeleteRemovesTheClickedWaypointWithTheGoalTool) {
    SandboxContext ctx;
    ctx.interactive = false;
    scene::Scene s = routeScene();
    s.agents[0].waypoints = {{3.0, 2.0}, {6.0, 2.0}};
    install(ctx, s);
    selectAgents(ctx, {0});
    setTool(ctx, Tool::Goal);
    ctx.routes.waypoint = WaypointRef{0, 1};
    deleteSelection(ctx);
    EXPECT_EQ(ctx.doc.scene.agents.size(), 2u); // the agent stays
    EXPECT_EQ(ctx.doc.scene.agents[0].waypoints, (std::vector<Vec2>{{3.0, 2.0}}));
    EXPECT_FALSE(ctx.routes.waypoint);
    undoEdit(ctx);
    EXPECT_EQ(ctx.doc.scene.agents[0].waypoints.size(), 2u);
}

TEST(Waypoints, PickingFindsWaypointsThenLegs) {
    SandboxContext ctx;
    ctx.interactive = false;
    scene::Scene s = routeScene();
    s.agents[0].waypoints = {{3.0, 4.0}, {6.0, 4.0}};
    install(ctx, s);
    setCamera(ctx);
    const ui::Camera& cam = ctx.view.camera;
    // Nothing is picked on an unselected agent's route.
    EXPECT_EQ(pickRoute(ctx, cam.worldToScreen({3.0, 4.0})).kind, RouteHit::Kind::None);
    selectAgents(ctx, {0});
    RouteHit h = pickRoute(ctx, cam.worldToScreen({6.0, 4.0}) + Vec2{3.0, 2.0});
    EXPECT_EQ(h.kind, RouteHit::Kind::Waypoint);
    EXPECT_EQ(h.ref, (WaypointRef{0, 1}));
    // The middle of the second leg (waypoint 1 -> waypoint 2): an insert at index 1.
    h = pickRoute(ctx, cam.worldToScreen({4.5, 4.0}) + Vec2{0.0, 3.0});
    EXPECT_EQ(h.kind, RouteHit::Kind::Leg);
    EXPECT_EQ(h.ref, (WaypointRef{0, 1}));
    EXPECT_NEAR(h.point.x, 4.5, 1e-9);
    EXPECT_NEAR(h.point.y, 4.0, 1e-9);
    // The last leg (waypoint 2 -> goal): an append.
    h = pickRoute(ctx, cam.worldToScreen({8.0, 2.0}));
    EXPECT_EQ(h.kind, RouteHit::Kind::Leg);
    EXPECT_EQ(h.ref, (WaypointRef{0, 2}));
    EXPECT_EQ(pickRoute(ctx, cam.worldToScreen({0.0, -5.0})).kind, RouteHit::Kind::None);
}

TEST(Routes, DrawnRoutesFollowTheStateAndTheSelection) {
    SandboxContext ctx;
    ctx.interactive = false;
    scene::Scene s = routeScene();
    s.agents[0].waypoints = {{3.0, 4.0}, {6.0, 4.0}};
    install(ctx, s);
    ui::WorldRoutes r = refreshRoutes(ctx);
    EXPECT_TRUE(r.selected->routes.empty());
    EXPECT_EQ(r.all, nullptr); // the layer is off
    selectAgents(ctx, {0, 1});
    r = refreshRoutes(ctx);
    ASSERT_EQ(r.selected->routes.size(), 1u); // agent 1 has no goal
    const ui::AgentRoute& route = r.selected->routes[0];
    EXPECT_EQ(route.points, (std::vector<Vec2>{{0.0, 0.0}, {3.0, 4.0}, {6.0, 4.0}, {10.0, 0.0}}));
    EXPECT_EQ(route.stops, (std::vector<std::uint32_t>{1, 2, 3}));
    EXPECT_TRUE(route.reached.empty());

    ctx.view.layers.world.routes = true;
    r = refreshRoutes(ctx);
    ASSERT_NE(r.all, nullptr);
    EXPECT_EQ(r.all->routes.size(), 1u);
    // Cached while the state stays; recomputed after a step.
    const ui::RouteSet* before = r.all;
    EXPECT_EQ(refreshRoutes(ctx).all, before);
    EXPECT_FALSE(ctx.routes.all.stale(ctx.session.stateVersion));
    stepSimulation(ctx, 1);
    EXPECT_TRUE(ctx.routes.all.stale(ctx.session.stateVersion));
    r = refreshRoutes(ctx);
    EXPECT_NE(r.all->routes[0].points[0], (Vec2{0.0, 0.0})); // the agent moved
}

TEST(Routes, ReachedWaypointsAreListedApart) {
    Simulator sim;
    AgentDef a;
    a.position = {0.0, 0.0};
    a.hasGoal = true;
    a.goal = {10.0, 0.0};
    a.waypoints = {{2.0, 0.0}, {5.0, 0.0}};
    a.routeProgress = 1;
    sim.addAgent(a);
    const std::size_t agents[] = {0};
    const ui::RouteSet set = ui::computeRoutes(sim, agents);
    ASSERT_EQ(set.routes.size(), 1u);
    EXPECT_EQ(set.routes[0].reached, (std::vector<Vec2>{{2.0, 0.0}}));
    EXPECT_EQ(set.routes[0].firstWaypoint, 1u);
    EXPECT_EQ(set.routes[0].stops.size(), 2u); // waypoint 2, goal
    EXPECT_EQ(ui::waypointLabel(1), "2");
}

TEST(FixTrial, VerdictLineSaysBeforeAndAfter) {
    scene::FixVerification v;
    v.steps = 3000;
    v.before = {16, 2, 14, 0};
    v.after = {16, 16, 0, 5};
    v.improved = true;
    EXPECT_EQ(fixVerdictLine(v, 0.01), "After 30 s (3000 steps): at goal 2 -> 16 of 16, stalled "
                                       "14 -> 0, overlaps 0 -> 5 pair-steps: the fix helps.");
    v.after = v.before;
    v.improved = false;
    EXPECT_NE(fixVerdictLine(v, 0.01).find("does not help"), std::string::npos);
    EXPECT_EQ(tryFixSteps(0.1), 1200u);
    EXPECT_EQ(tryFixSteps(0.25), 480u);
    EXPECT_EQ(tryFixSteps(1e-6), kTryFixMaxSteps);
}

TEST(FixTrial, TryFixBranchesAndApplyIsOneUndoableEdit) {
    SandboxContext ctx;
    ctx.interactive = false;
    std::string error;
    ASSERT_TRUE(loadSceneFile(ctx, kScenes / "diag_bottleneck_jam.json", error)) << error;
    const std::string original = text(ctx);
    stepSimulation(ctx, 1500);
    selectAgents(ctx, {0});
    ctx.timeline.why.open = true;
    refreshWhy(ctx);
    const Diagnosis* d = currentDiagnosis(ctx);
    ASSERT_NE(d, nullptr) << ctx.timeline.why.status;
    ASSERT_FALSE(d->fixes.empty()) << toString(d->cls);
    const std::string label = d->fixes[0].label;

    ASSERT_TRUE(tryDiagnosisFix(ctx, 0));
    EXPECT_TRUE(ctx.compare.comparison.active());
    EXPECT_EQ(ctx.compare.comparison.fromStep(), 1500u);
    EXPECT_EQ(ctx.compare.fixLabel, label);
    // Non-interactive: the verdict is there at once.
    ASSERT_TRUE(ctx.compare.trial.verification) << ctx.compare.trial.error;
    EXPECT_EQ(ctx.compare.trial.verification->steps,
              tryFixSteps(ctx.session.sim.params().timeStep));
    // The window's view of it: the verdict for this agent, and the next candidate if it failed.
    const ui::WhyFixView view = whyFixView(ctx, currentDiagnosis(ctx));
    EXPECT_NE(view.verdict.find("at goal"), std::string::npos) << view.verdict;
    EXPECT_EQ(view.improved, ctx.compare.trial.verification->improved);
    if (!view.improved && d->fixes.size() > 1) {
        EXPECT_EQ(view.next, std::optional<std::size_t>(1));
    }
    // The branch follows the run.
    stepSimulation(ctx, 10);
    EXPECT_EQ(ctx.compare.comparison.branch().stepCount(), 1510u);
    seekTo(ctx, 1500);
    refreshWhy(ctx);
    ASSERT_NE(currentDiagnosis(ctx), nullptr);

    // Apply: the scene edited as scene::applyFix does, one undo step, unsaved.
    scene::Scene expected = ctx.doc.scene;
    scene::applyFix(expected, currentDiagnosis(ctx)->fixes[0]);
    const std::size_t undo = ctx.doc.history.undoCount();
    ASSERT_TRUE(applyDiagnosisFix(ctx, 0));
    EXPECT_EQ(text(ctx), scene::serializeScene(expected));
    EXPECT_EQ(ctx.doc.history.undoCount(), undo + 1);
    EXPECT_EQ(ctx.doc.history.undoLabel(), "Apply fix: " + label);
    EXPECT_TRUE(ctx.doc.unsaved.unsaved());
    EXPECT_EQ(ctx.session.sim.stepCount(), 0u); // rebuilt from the edited scene
    undoEdit(ctx);
    EXPECT_EQ(text(ctx), original);
    EXPECT_FALSE(ctx.doc.unsaved.unsaved());
}

TEST(FixTrial, NothingToTryWithoutADiagnosis) {
    SandboxContext ctx;
    ctx.interactive = false;
    install(ctx, routeScene());
    EXPECT_FALSE(tryDiagnosisFix(ctx, 0));
    EXPECT_FALSE(applyDiagnosisFix(ctx, 0));
    EXPECT_FALSE(ctx.compare.comparison.active());
}
