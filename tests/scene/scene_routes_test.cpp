// Routes in scene files: "waypoints" per agent, "waypointRadius", "routing" and the saved route
// progress; their round trips and their errors (JSON path and message).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

std::string sceneText(const std::string& agents, const std::string& members = "") {
    return R"({"format": "orca-scene", "version": 1, )" + members + R"("agents": [)" + agents +
           "]}";
}

TEST(SceneRoutes, WaypointsRoutingAndProgressAreReadAndRoundTrip) {
    const std::string text =
        sceneText(R"({ "position": [0, 0], "goal": [10, 0], "waypoints": [[0, 3], [5, 3.5]],
                       "waypointRadius": 0.75, "state": { "routeProgress": 1 } },
                     { "position": [1, 1], "goal": [2, 2] })",
                  R"("simulation": { "timeStep": 0.1, "routing": "roadmap" }, )");
    const Scene scene = parseScene(text, "routes.json").scene;
    EXPECT_EQ(scene.simulation.params.routing, Routing::Roadmap);
    ASSERT_EQ(scene.agents[0].waypoints.size(), 2u);
    EXPECT_EQ(scene.agents[0].waypoints[1], Vec2(5.0, 3.5));
    EXPECT_EQ(scene.agents[0].overrides.waypointRadius, 0.75);
    EXPECT_EQ(scene.agents[0].routeProgress, 1u);
    EXPECT_TRUE(scene.agents[1].waypoints.empty());

    const std::string saved = serializeScene(scene);
    EXPECT_NE(saved.find(R"("routing": "roadmap")"), std::string::npos) << saved;
    EXPECT_NE(saved.find(R"("waypoints": [[0, 3], [5, 3.5]])"), std::string::npos) << saved;
    EXPECT_NE(saved.find(R"("routeProgress": 1)"), std::string::npos) << saved;
    // The default waypoint radius (negative: twice the radius) is left out of agentDefaults.
    EXPECT_EQ(saved.find(R"("waypointRadius": -1)"), std::string::npos) << saved;
    const Scene again = parseScene(saved, "again.json").scene;
    EXPECT_TRUE(again == scene);
    EXPECT_EQ(serializeScene(again), saved);

    // Straight routing is the default and is not written.
    Scene straight = scene;
    straight.simulation.params.routing = Routing::Straight;
    EXPECT_EQ(serializeScene(straight).find("routing"), std::string::npos);
    EXPECT_FALSE(straight == scene);
    Scene moved = scene;
    moved.agents[0].waypoints[0].x = 0.5;
    EXPECT_FALSE(moved == scene);
}

TEST(SceneRoutes, TheSimulatorGetsTheRouteAndASavedStateResumesIt) {
    const std::string text = sceneText(
        R"({ "position": [0, 0], "goal": [10, 0], "waypoints": [[0, 3], [5, 3]], "radius": 0.5 })",
        R"("simulation": { "timeStep": 0.25 }, )");
    const Scene scene = parseScene(text, "routes.json").scene;
    Simulator sim = buildSimulator(scene);
    ASSERT_EQ(sim.waypointsAt(0).size(), 2u);
    for (int s = 0; s < 12; ++s)
        sim.step();
    ASSERT_EQ(sim.routeProgressAt(0), 1u);
    const Scene state = captureState(scene, sim);
    EXPECT_EQ(state.agents[0].routeProgress, 1u);
    Simulator resumed = buildSimulator(parseScene(serializeScene(state), "s.json").scene);
    EXPECT_EQ(resumed.routeProgressAt(0), 1u);
    for (int s = 0; s < 30; ++s) {
        sim.step();
        resumed.step();
    }
    EXPECT_EQ(resumed.stateHash(), sim.stateHash());
}

struct RouteError {
    std::string text;
    std::string path;
    std::string fragment;
};

TEST(SceneRoutes, BadRoutesNameTheirPath) {
    const std::string wp1001 = [] {
        std::string w = "[";
        for (int i = 0; i < 1001; ++i)
            w += std::string(i ? ", " : "") + "[1, 2]";
        return w + "]";
    }();
    const std::vector<RouteError> cases = {
        {sceneText(R"({ "position": [0, 0], "waypoints": [[1, 1]] })"), "agents[0].waypoints",
         "this agent has none"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": [[1, 1], [2]] })"),
         "agents[0].waypoints[1]", "[x, y]"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": [[1, 1e400]] })"),
         "agents[0].waypoints[0][1]", "too large"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": [[1, 1e8]] })"),
         "agents[0].waypoints[0][1]", ""},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": {"x": 1} })"),
         "agents[0].waypoints", "expected an array of [x, y] waypoints"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": )" + wp1001 + "}"),
         "agents[0].waypoints", "at most 1000 waypoints, got 1001"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypoints": [[1, 1]],
                        "state": { "routeProgress": 2 } })"),
         "agents[0].state.routeProgress", "at most the number of waypoints (1), got 2"},
        {sceneText(R"({ "position": [0, 0], "goal": [1, 1], "waypointRadius": -1 })"),
         "agents[0].waypointRadius", ""},
        {sceneText("", R"("agentDefaults": { "waypoints": [[1, 1]] }, )"),
         "agentDefaults.waypoints", "belong to each agent"},
        {sceneText("", R"("simulation": { "routing": "shortest" }, )"), "simulation.routing",
         R"(expected "straight" or "roadmap", got "shortest")"},
        {sceneText("", R"("simulation": { "routing": 1 }, )"), "simulation.routing",
         R"(expected "straight" or "roadmap")"},
    };
    for (const RouteError& c : cases) {
        try {
            (void)parseScene(c.text, "bad.json");
            ADD_FAILURE() << "accepted: " << c.text.substr(0, 200);
        } catch (const SceneError& e) {
            if (!c.path.empty()) {
                EXPECT_EQ(e.jsonPath(), c.path) << e.what();
            }
            EXPECT_NE(std::string(e.what()).find(c.fragment), std::string::npos) << e.what();
        }
    }
}

} // namespace
} // namespace orca::scene
