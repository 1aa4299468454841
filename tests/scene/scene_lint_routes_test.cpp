// The linter's route rules (lint_routes.cpp): each fires where it should and is silent where it
// should not, each fix makes its finding disappear, and a large scene with routes lints fast.

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "common/sanitized.hpp"
#include "orca/roadmap.hpp"
#include "orca/scene/lint.hpp"

namespace orca::scene {
namespace {

using Kind = LintElement::Kind;

using orca::test::kSanitized;
using Points = std::vector<Vec2>;

/// As scene_lint_test.cpp's sceneOf: agent defaults that trigger nothing (radius 1, maxSpeed 1,
/// prefSpeed 1, neighborDist 10, maxNeighbors 10, τ = τo = 5, Δt = 0.25), loaded as written.
Scene sceneOf(const std::string& agents, const std::string& obstacles = "",
              const std::string& simulation = "") {
    nlohmann::json j = nlohmann::json::parse(R"({"format": "orca-scene", "version": 1,
        "simulation": {"timeStep": 0.25},
        "agentDefaults": {"radius": 1, "maxSpeed": 1, "prefSpeed": 1, "neighborDist": 10,
                          "maxNeighbors": 10, "timeHorizon": 5, "timeHorizonObst": 5}})");
    j["simulation"].update(nlohmann::json::parse("{" + simulation + "}"));
    j["agents"] = nlohmann::json::parse("[" + agents + "]");
    if (!obstacles.empty()) j["obstacles"] = nlohmann::json::parse("[" + obstacles + "]");
    return parseScene(j.dump(), "lint.json", LoadOptions{.repairWinding = false}).scene;
}

std::vector<LintIssue> withRule(const Scene& s, const std::string& rule) {
    std::vector<LintIssue> out;
    for (const LintIssue& i : lintScene(s))
        if (i.rule == rule) out.push_back(i);
    return out;
}

bool has(const Scene& s, const std::string& rule) {
    return !withRule(s, rule).empty();
}

std::string allFindings(const Scene& s) {
    std::string out;
    for (const LintIssue& i : lintScene(s))
        out += "\n  " + i.rule + " at " + i.jsonPath + ": " + i.message;
    return out;
}

LintIssue one(const Scene& s, const std::string& rule) {
    const std::vector<LintIssue> found = withRule(s, rule);
    EXPECT_EQ(found.size(), 1u) << "rule " << rule << "; lint found:" << allFindings(s);
    return found.empty() ? LintIssue{} : found.front();
}

/// Applies the fix of the one `rule` issue and checks that it is gone afterwards and cannot be
/// applied twice.
void fix(Scene& s, const std::string& rule) {
    const LintIssue issue = one(s, rule);
    ASSERT_FALSE(issue.fixLabel.empty()) << rule;
    std::string error;
    ASSERT_TRUE(applyLintFix(s, issue, &error)) << rule << ": " << error;
    EXPECT_FALSE(has(s, rule)) << rule << " is still reported after its fix:" << allFindings(s);
    EXPECT_FALSE(applyLintFix(s, issue, &error)) << rule;
    EXPECT_FALSE(error.empty());
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

const std::string kSquare = R"({"vertices": [[0, 0], [4, 0], [4, 4], [0, 4]]})";
// A closed room, x and y from 10 to 20, of four walls 1 thick.
const std::string kRoom = R"({"vertices": [[10, 10], [20, 10], [20, 11], [10, 11]]},
    {"vertices": [[10, 19], [20, 19], [20, 20], [10, 20]]},
    {"vertices": [[10, 11], [11, 11], [11, 19], [10, 19]]},
    {"vertices": [[19, 11], [20, 11], [20, 19], [19, 19]]})";

// ---- waypoint-in-obstacle -----------------------------------------------------------------------

TEST(LintRoutes, WaypointInAnObstacleIsDeleted) {
    Scene s = sceneOf(R"({"position": [-5, 2], "goal": [-5, 10], "waypoints": [[-5, 6], [2, 2]]})",
                      kSquare);
    const LintIssue i = one(s, "waypoint-in-obstacle");
    EXPECT_EQ(i.severity, LintSeverity::Error);
    EXPECT_EQ(i.jsonPath, "agents[0].waypoints[1]");
    EXPECT_EQ(i.elements, (std::vector<LintElement>{{Kind::Agent, 0, 0}, {Kind::Obstacle, 0, 0}}));
    EXPECT_EQ(i.where, Vec2(2, 2));
    EXPECT_EQ(i.fixLabel, "Delete waypoint");
    EXPECT_TRUE(contains(i.message, "lies inside obstacles[0]")) << i.message;
    EXPECT_FALSE(has(s, "goal-unreachable-straight")); // one finding for one mistake
    fix(s, "waypoint-in-obstacle");
    EXPECT_EQ(s.agents[0].waypoints, (Points{{-5, 6}}));

    // Closer than the radius (1) to the obstacle: also reported; 1.5 away: not.
    EXPECT_TRUE(
        contains(one(sceneOf(R"({"position": [-5, 2], "goal": [-5, 10], "waypoints": [[-0.5, 2]]})",
                             kSquare),
                     "waypoint-in-obstacle")
                     .message,
                 "lies too close to obstacles[0]"));
    EXPECT_FALSE(has(
        sceneOf(R"({"position": [-5, 2], "goal": [-5, 10], "waypoints": [[-1.5, 2]]})", kSquare),
        "waypoint-in-obstacle"));
    // A waypoint already reached no longer matters.
    Scene reached =
        sceneOf(R"({"position": [-5, 6], "goal": [-5, 10], "waypoints": [[2, 2]]})", kSquare);
    reached.agents[0].routeProgress = 1;
    EXPECT_TRUE(lintScene(reached).empty()) << allFindings(reached);
}

// ---- goal-unreachable-straight, per leg ---------------------------------------------------------

TEST(LintRoutes, StraightRuleChecksEveryRemainingLeg) {
    // The first leg (to the waypoint) crosses the square; the leg to the goal does not.
    Scene s = sceneOf(R"({"position": [-5, 2], "goal": [10, 8], "waypoints": [[10, 2]]})", kSquare);
    LintIssue i = one(s, "goal-unreachable-straight");
    EXPECT_EQ(i.jsonPath, "agents[0].waypoints[0]");
    EXPECT_TRUE(contains(i.message, "the straight leg from agents[0] to its waypoints[0] crosses "
                                    "obstacles[0]"))
        << i.message;
    EXPECT_TRUE(contains(i.message, "\"routing\": \"roadmap\"")) << i.message;
    EXPECT_EQ(i.where, Vec2(0, 2));
    // A leg from a waypoint to the goal.
    s = sceneOf(R"({"position": [-5, 8], "goal": [10, 2], "waypoints": [[-5, 2]]})", kSquare);
    i = one(s, "goal-unreachable-straight");
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_TRUE(contains(i.message, "from agents[0]'s waypoints[0] to its goal")) << i.message;
    // Waypoints round the square: every leg is clear.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [-5, 2], "goal": [10, 2],
                                      "waypoints": [[-2, 6], [6, 6]]})",
                                  kSquare))
                    .empty());
    // The blocked leg already walked (routeProgress 1): only position -> goal is left.
    s = sceneOf(R"({"position": [10, 3], "goal": [10, 8], "waypoints": [[-5, 2]]})", kSquare);
    EXPECT_TRUE(has(s, "goal-unreachable-straight"));
    s.agents[0].routeProgress = 1;
    EXPECT_FALSE(has(s, "goal-unreachable-straight"));
    // Roadmap routing: the simulator routes round the square, so the straight rule is silent.
    EXPECT_TRUE(lintScene(sceneOf(R"({"position": [-5, 2], "goal": [10, 2]})", kSquare,
                                  R"("routing": "roadmap")"))
                    .empty());
}

TEST(LintRoutes, AddWaypointsRoundTheObstacleUsesTheRoadmapCorners) {
    // Radius 1, clearance 1.1: the square's corner nodes sit 1.1 out along both axes. Below the
    // square's middle (y = 1 < 2) the way under it is the shorter one.
    Scene s = sceneOf(R"({"position": [-5, 1], "goal": [10, 1]},
                         {"position": [-5, -6], "goal": [10, -6]})",
                      kSquare);
    const LintIssue i = one(s, "goal-unreachable-straight");
    EXPECT_EQ(i.fixLabel, "Add waypoints round the obstacle");
    fix(s, "goal-unreachable-straight");
    ASSERT_EQ(s.agents[0].waypoints.size(), 2u);
    EXPECT_NEAR(s.agents[0].waypoints[0].x, -1.1, 1e-9);
    EXPECT_NEAR(s.agents[0].waypoints[0].y, -1.1, 1e-9);
    EXPECT_NEAR(s.agents[0].waypoints[1].x, 5.1, 1e-9);
    EXPECT_NEAR(s.agents[0].waypoints[1].y, -1.1, 1e-9);
    EXPECT_TRUE(s.agents[1].waypoints.empty()); // its path was clear
    EXPECT_TRUE(lintScene(s).empty()) << allFindings(s);
    // And the agent gets there: 20 units at speed 1, Δt 0.25.
    Simulator sim = buildSimulator(s);
    for (int k = 0; k < 200; ++k)
        sim.step();
    EXPECT_TRUE(sim.atGoalAt(0));

    // A blocked leg from a waypoint gets its corners before the leg's end.
    Scene w = sceneOf(R"({"position": [-5, 8], "goal": [10, 1], "waypoints": [[-5, 1]]})", kSquare);
    fix(w, "goal-unreachable-straight");
    ASSERT_EQ(w.agents[0].waypoints.size(), 3u);
    EXPECT_EQ(w.agents[0].waypoints[0], Vec2(-5, 1));
    EXPECT_NEAR(w.agents[0].waypoints[1].y, -1.1, 1e-9);
}

// ---- goal-unreachable-roadmap
// ---------------------------------------------------------------------

TEST(LintRoutes, GoalInAClosedRoomIsUnreachableOnTheRoadmap) {
    const Scene s = sceneOf(R"({"position": [0, 15], "goal": [15, 15]})", kRoom);
    const LintIssue i = one(s, "goal-unreachable-roadmap");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[0].goal");
    EXPECT_EQ(i.elements, (std::vector<LintElement>{
                              {Kind::Agent, 0, 0}, {Kind::Goal, 0, 0}, {Kind::Obstacle, 2, 0}}));
    EXPECT_EQ(i.where, Vec2(15, 15));
    EXPECT_TRUE(i.fixLabel.empty());
    EXPECT_TRUE(contains(i.message, "clearance 1.1")) << i.message;
    // The straight rule still reports the leg, without a fix (and no suggestion of routing).
    const LintIssue straight = one(s, "goal-unreachable-straight");
    EXPECT_TRUE(straight.fixLabel.empty());
    EXPECT_TRUE(contains(straight.message, "the roadmap finds no way round it either"));
    EXPECT_FALSE(has(s, "routing-roadmap-suggested"));
    // With roadmap routing it is the same finding.
    EXPECT_TRUE(
        has(sceneOf(R"({"position": [0, 15], "goal": [15, 15]})", kRoom, R"("routing": "roadmap")"),
            "goal-unreachable-roadmap"));
    // A room with a door (no right wall): reachable, so silent; the straight leg has a fix.
    const std::string open = kRoom.substr(0, kRoom.rfind(",\n"));
    const Scene withDoor = sceneOf(R"({"position": [30, 15], "goal": [15, 15]},
                                      {"position": [0, 15], "goal": [15, 15]})",
                                   open);
    EXPECT_FALSE(has(withDoor, "goal-unreachable-roadmap")) << allFindings(withDoor);
    EXPECT_EQ(one(withDoor, "goal-unreachable-straight").fixLabel,
              "Add waypoints round the obstacle");
}

// ---- waypoints-many
// -------------------------------------------------------------------------------

TEST(LintRoutes, MoreThanAHundredWaypointsIsAWarning) {
    std::string waypoints;
    for (int k = 1; k <= 101; ++k)
        waypoints += (k > 1 ? ", [" : "[") + std::to_string(k) + ", 0]";
    const Scene many =
        sceneOf(R"({"position": [0, 0], "goal": [200, 0], "waypoints": [)" + waypoints + "]}");
    const LintIssue i = one(many, "waypoints-many");
    EXPECT_EQ(i.severity, LintSeverity::Warning);
    EXPECT_EQ(i.jsonPath, "agents[0].waypoints");
    EXPECT_TRUE(contains(i.message, "has 101 waypoints")) << i.message;
    Scene hundred = many;
    hundred.agents[0].waypoints.pop_back();
    EXPECT_FALSE(has(hundred, "waypoints-many"));
}

// ---- routing ------------------------------------------------------------------------------------

TEST(LintRoutes, RoadmapRoutingIsSuggestedForBlockedLegs) {
    Scene s = sceneOf(R"({"position": [-5, 1], "goal": [10, 1]})", kSquare);
    const LintIssue i = one(s, "routing-roadmap-suggested");
    EXPECT_EQ(i.severity, LintSeverity::Info);
    EXPECT_EQ(i.jsonPath, "simulation.routing");
    EXPECT_EQ(i.elements, (std::vector<LintElement>{{Kind::Simulation, 0, 0}}));
    EXPECT_EQ(i.fixLabel, "Use roadmap routing");
    fix(s, "routing-roadmap-suggested");
    EXPECT_EQ(s.simulation.params.routing, Routing::Roadmap);
    EXPECT_TRUE(lintScene(s).empty()) << allFindings(s); // the straight rule is gone too
    // Nothing blocked: no suggestion.
    EXPECT_FALSE(has(sceneOf(R"({"position": [-5, 6], "goal": [10, 6]})", kSquare),
                     "routing-roadmap-suggested"));
}

TEST(LintRoutes, RoadmapRoutingWithoutObstaclesIsAnInfo) {
    Scene s = sceneOf(R"({"position": [0, 0], "goal": [10, 0]})", "", R"("routing": "roadmap")");
    const LintIssue i = one(s, "routing-without-obstacles");
    EXPECT_EQ(i.severity, LintSeverity::Info);
    EXPECT_EQ(i.jsonPath, "simulation.routing");
    fix(s, "routing-without-obstacles");
    EXPECT_EQ(s.simulation.params.routing, Routing::Straight);
    EXPECT_FALSE(has(
        sceneOf(R"({"position": [0, 10], "goal": [10, 10]})", kSquare, R"("routing": "roadmap")"),
        "routing-without-obstacles"));
    EXPECT_FALSE(
        has(sceneOf(R"({"position": [0, 0], "goal": [10, 0]})"), "routing-without-obstacles"));
}

// ---- Speed --------------------------------------------------------------------------------------

/// 500 boxes (2 × 2, on a 25 × 20 grid 10 apart) and 1,000 agents in the streets between them,
/// each with two waypoints and a goal at random street points (most legs cross boxes).
Scene routeWorkload(Routing routing) {
    Scene s;
    s.simulation.params.routing = routing;
    s.agentDefaults.radius = 0.5;
    for (int gx = 0; gx < 25; ++gx) {
        for (int gy = 0; gy < 20; ++gy) {
            const Vec2 c{10.0 * gx, 10.0 * gy};
            s.obstacles.push_back(
                {std::nullopt,
                 {c + Vec2(-1, -1), c + Vec2(1, -1), c + Vec2(1, 1), c + Vec2(-1, 1)}});
        }
    }
    std::mt19937 rng(7);
    const auto street = [&]() {
        // A point on a street: x or y halfway between two rows of boxes.
        const double along = static_cast<double>(rng() % 2400) / 10.0;
        const double across = 5.0 + 10.0 * static_cast<double>(rng() % 19);
        return rng() % 2 == 0 ? Vec2(along, across) : Vec2(across, along * 0.79);
    };
    for (int i = 0; i < 1000; ++i) {
        SceneAgent a;
        a.position =
            Vec2(5.0 + 10.0 * (i % 24), 5.0 + 10.0 * ((i / 24) % 19)) + Vec2(0.1 * (i / 456), 0.0);
        a.waypoints = {street(), street()};
        a.goal = street();
        s.agents.push_back(a);
    }
    return s;
}

TEST(LintRoutesSpeed, ThousandAgentsWithWaypointsAndFiveHundredBoxes) {
    // The first lint of these obstacles builds the roadmap; a lint after an edit that leaves the
    // obstacles and the largest radius alone (most edits) reuses it.
    const Scene evict = sceneOf(R"({"position": [-5, 1], "goal": [10, 1]})", kSquare);
    for (const Routing routing : {Routing::Straight, Routing::Roadmap}) {
        const Scene s = routeWorkload(routing);
        (void)lintScene(evict);
        auto t0 = std::chrono::steady_clock::now();
        const std::size_t count = lintScene(s).size();
        auto t1 = std::chrono::steady_clock::now();
        const double first = std::chrono::duration<double, std::milli>(t1 - t0).count();
        double again = 1e9;
        for (int run = 0; run < 3; ++run) {
            t0 = std::chrono::steady_clock::now();
            EXPECT_EQ(lintScene(s).size(), count);
            t1 = std::chrono::steady_clock::now();
            again = std::min(again, std::chrono::duration<double, std::milli>(t1 - t0).count());
        }
        std::printf("lint routes (%s routing), 1000 agents with waypoints, 500 boxes: first "
                    "%.1f ms, again %.1f ms, %zu issues\n",
                    routing == Routing::Straight ? "straight" : "roadmap", first, again, count);
        EXPECT_GT(count, 0u);
        // Far above the measured times, so that a loaded machine does not fail it.
        if (!kSanitized) {
            EXPECT_LT(first, 10000.0);
            EXPECT_LT(again, 1000.0);
        }
    }
    // Of which building the roadmap (once per lint):
    const Scene s = routeWorkload(Routing::Straight);
    std::vector<std::vector<Vec2>> polygons;
    for (const SceneObstacle& o : s.obstacles)
        polygons.push_back(o.vertices);
    double best = 1e9;
    for (int run = 0; run < 3; ++run) {
        Roadmap roadmap;
        const auto t0 = std::chrono::steady_clock::now();
        EXPECT_TRUE(roadmap.build(polygons, 1.1 * 0.5));
        const auto t1 = std::chrono::steady_clock::now();
        best = std::min(best, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }
    std::printf("of which building the roadmap (2,000 nodes): %.1f ms\n", best);
}

} // namespace
} // namespace orca::scene
