// The bundled scenes (scenes/*.json) and the scene JSON Schema (assets/scene.schema.json).

#include <gtest/gtest.h>

#include "common/files.hpp"

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <numbers>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;

const fs::path kSourceDir = ORCA_SOURCE_DIR;

using orca::test::readFile;

std::vector<fs::path> bundledScenes() {
    std::vector<fs::path> out;
    for (const auto& e : fs::directory_iterator(kSourceDir / "scenes")) {
        if (e.path().extension() == ".json") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

TEST(BundledScenes, EveryOneLoadsCleanlyAndResavesByteForByte) {
    const std::vector<fs::path> files = bundledScenes();
    ASSERT_GE(files.size(), 6u);
    for (const fs::path& file : files) {
        SCOPED_TRACE(file.string());
        LoadResult r;
        ASSERT_NO_THROW(r = loadScene(file));
        EXPECT_TRUE(r.warnings.empty());
        EXPECT_GE(r.scene.agents.size(), 1u);
        EXPECT_FALSE(r.scene.name.empty());
        EXPECT_FALSE(r.scene.description.empty());
        EXPECT_EQ(serializeScene(r.scene), readFile(file));
        const Simulator sim = buildSimulator(r.scene);
        EXPECT_EQ(sim.agentCount(), r.scene.agents.size());
        EXPECT_EQ(sim.obstacleCount(), r.scene.obstacles.size());
    }
}

TEST(BundledScenes, ExpectedFilesArePresent) {
    for (const char* name : {"welcome.json", "circle.json", "blocks.json", "head_on.json",
                             "dense_convergence.json", "concave_obstacle.json", "crossing.json"}) {
        EXPECT_TRUE(fs::exists(kSourceDir / "scenes" / name)) << name;
    }
    EXPECT_TRUE(fs::exists(kSourceDir / "scenes" / "README.md"));
}

// The default scene is a new user's first impression: it must show ORCA working, quickly and
// cleanly (every agent at its goal in about a minute of simulated time, no overlap, no stall).
TEST(BundledScenes, WelcomeResolvesWithoutOverlap) {
    const LoadResult r = loadScene(kSourceDir / "scenes" / "welcome.json");
    EXPECT_TRUE(r.warnings.empty());
    Simulator sim = buildSimulator(r.scene);
    ASSERT_GE(sim.agentCount(), 12u);
    ASSERT_GE(sim.obstacleCount(), 1u);
    std::uint64_t arrived = 0;
    for (std::uint64_t step = 1; step <= 300 && arrived == 0; ++step) {
        sim.step();
        const ClearanceStats c = sim.clearance();
        ASSERT_EQ(c.overlappingPairs, 0u) << "step " << step;
        ASSERT_GE(c.minObstacleClearance, 0.0) << "step " << step;
        if (sim.atGoalCount() == sim.agentCount()) arrived = step;
    }
    EXPECT_GT(arrived, 0u) << "not everyone arrived within 300 steps";
    EXPECT_LE(arrived, 240u);
    // Its view block selects an agent, so the overlays show at once, and carries the hint.
    const auto& view = r.scene.extra.at("view");
    EXPECT_FALSE(view.at("select").empty());
    EXPECT_FALSE(view.at("hint").get<std::string>().empty());
}

TEST(BundledScenes, CircleMatchesRvo2FloatArithmetic) {
    const Scene s = loadScene(kSourceDir / "scenes" / "circle.json").scene;
    ASSERT_EQ(s.agents.size(), 250u);
    for (std::size_t i = 0; i < 250; ++i) {
        // RVO2 examples/Circle.cc: 200.0F * Vector2(std::cos(float(i) * RVO_TWO_PI / 250.0F),
        // std::sin(...)), all in float (glibc cosf/sinf, as RVO2 computes them).
        const float twoPi = 6.28318530717958647692F;
        const float angle = static_cast<float>(i) * twoPi / 250.0F;
        const float x = 200.0F * std::cos(angle);
        const float y = 200.0F * std::sin(angle);
        const SceneAgent& a = s.agents[i];
        EXPECT_EQ(a.position.x, static_cast<double>(x)) << i;
        EXPECT_EQ(a.position.y, static_cast<double>(y)) << i;
        ASSERT_TRUE(a.goal.has_value());
        EXPECT_EQ(a.goal->x, -static_cast<double>(x)) << i;
        EXPECT_EQ(a.goal->y, -static_cast<double>(y)) << i;
    }
    const AgentParams& d = s.agentDefaults;
    EXPECT_EQ(d.radius, 1.5);
    EXPECT_EQ(d.maxSpeed, 2.0);
    EXPECT_EQ(d.prefSpeed, 1.0);
    EXPECT_EQ(d.neighborDist, 15.0);
    EXPECT_EQ(d.maxNeighbors, 10);
    EXPECT_EQ(d.timeHorizon, 10.0);
    EXPECT_EQ(d.timeHorizonObst, 10.0);
    EXPECT_EQ(s.simulation.params.timeStep, 0.25);
}

TEST(BundledScenes, BlocksMatchesRvo2) {
    const Scene s = loadScene(kSourceDir / "scenes" / "blocks.json").scene;
    ASSERT_EQ(s.agents.size(), 100u);
    std::size_t k = 0;
    for (int i = 0; i < 5; ++i) {
        for (int j = 0; j < 5; ++j) {
            const double a = 55.0 + 10.0 * i;
            const double b = 55.0 + 10.0 * j;
            const Vec2 expected[4][2] = {{{a, b}, {-75, -75}},
                                         {{-a, b}, {75, -75}},
                                         {{a, -b}, {-75, 75}},
                                         {{-a, -b}, {75, 75}}};
            for (const auto& e : expected) {
                EXPECT_EQ(s.agents[k].position, e[0]) << k;
                EXPECT_EQ(s.agents[k].goal, e[1]) << k;
                ++k;
            }
        }
    }
    ASSERT_EQ(s.obstacles.size(), 4u);
    for (const SceneObstacle& o : s.obstacles)
        EXPECT_GT(signedArea(o.vertices), 0.0);
    EXPECT_EQ(s.agentDefaults.goalRadius, 20.0);
    EXPECT_EQ(s.agentDefaults.radius, 2.0);
    EXPECT_EQ(s.agentDefaults.timeHorizon, 5.0);
    EXPECT_EQ(s.agentDefaults.timeHorizonObst, 5.0);
}

TEST(BundledScenes, ConcaveObstacleHasAConcaveVertex) {
    const Scene s = loadScene(kSourceDir / "scenes" / "concave_obstacle.json").scene;
    ASSERT_FALSE(s.obstacles.empty());
    const std::vector<Vec2>& v = s.obstacles[0].vertices;
    int concave = 0;
    for (std::size_t i = 0; i < v.size(); ++i) {
        const Vec2 prev = v[(i + v.size() - 1) % v.size()];
        const Vec2 next = v[(i + 1) % v.size()];
        if (det(prev - next, v[i] - prev) < 0.0) ++concave; // the core's convexity rule
    }
    EXPECT_GE(concave, 1);
}

TEST(BundledScenes, GeneratorIsInSyncWithTheFiles) {
    if (std::system("command -v python3 > /dev/null 2>&1") != 0) {
        GTEST_SKIP() << "python3 not available";
    }
    const std::string command =
        "python3 \"" + (kSourceDir / "scripts" / "make_scenes.py").string() + "\" --check";
    EXPECT_EQ(std::system(command.c_str()), 0) << "run scripts/make_scenes.py";
}

// ---- Schema
// --------------------------------------------------------------------------------------

std::set<std::string> propertyNames(const nlohmann::json& schemaObject) {
    std::set<std::string> out;
    for (auto it = schemaObject.at("properties").begin(); it != schemaObject.at("properties").end();
         ++it) {
        out.insert(it.key());
    }
    return out;
}

/// Follows a local "$ref" ("#/$defs/name").
const nlohmann::json& resolve(const nlohmann::json& root, const nlohmann::json& node) {
    if (!node.contains("$ref")) return node;
    const std::string ref = node.at("$ref").get<std::string>();
    return root.at(nlohmann::json::json_pointer(ref.substr(1)));
}

TEST(SceneSchema, DescribesExactlyTheKeysTheLoaderKnows) {
    const nlohmann::json schema =
        nlohmann::json::parse(readFile(kSourceDir / "assets" / "scene.schema.json"));
    EXPECT_EQ(schema.at("$schema"), "https://json-schema.org/draft/2020-12/schema");
    EXPECT_EQ(propertyNames(schema),
              (std::set<std::string>{"format", "version", "name", "description", "simulation",
                                     "agentDefaults", "detour", "agents", "obstacles"}));
    const nlohmann::json& detour = resolve(schema, schema.at("properties").at("detour"));
    EXPECT_EQ(propertyNames(detour),
              (std::set<std::string>{"enabled", "cellSize", "influenceRadius", "enterSpeedRatio",
                                     "enterGoalDistance", "sampleDistance", "exitAlignedDegrees",
                                     "exitGoalDistance", "neighborFallback", "stillSpeed",
                                     "stillSeconds"}));
    EXPECT_EQ(detour.at("additionalProperties"), false);
    EXPECT_TRUE(resolve(schema, schema.at("properties").at("agents")).contains("items"));
    const nlohmann::json& sim = resolve(schema, schema.at("properties").at("simulation"));
    EXPECT_EQ(propertyNames(sim),
              (std::set<std::string>{"timeStep", "responsibility", "staticResponsibility",
                                     "lp3BisectorWeight", "routing", "deadlockBreaking", "time",
                                     "step"}));
    EXPECT_EQ(sim.at("additionalProperties"), false);
    const std::set<std::string> params = {
        "radius",      "maxSpeed",        "prefSpeed",  "neighborDist",   "maxNeighbors",
        "timeHorizon", "timeHorizonObst", "goalRadius", "waypointRadius", "avoidanceWeight"};
    const nlohmann::json& defaults = resolve(schema, schema.at("properties").at("agentDefaults"));
    EXPECT_EQ(propertyNames(defaults), params);
    EXPECT_EQ(defaults.at("additionalProperties"), false);
    const nlohmann::json& agent =
        resolve(schema, resolve(schema, schema.at("properties").at("agents")).at("items"));
    std::set<std::string> agentKeys = params;
    agentKeys.insert(
        {"id", "position", "velocity", "goal", "prefVelocity", "static", "waypoints", "state"});
    EXPECT_EQ(propertyNames(agent), agentKeys);
    EXPECT_EQ(agent.at("additionalProperties"), false);
    const nlohmann::json& obstacle =
        resolve(schema, resolve(schema, schema.at("properties").at("obstacles")).at("items"));
    EXPECT_EQ(propertyNames(obstacle), (std::set<std::string>{"id", "vertices"}));
    EXPECT_EQ(obstacle.at("additionalProperties"), false);
}

TEST(SceneSchema, EveryPropertyHasADescription) {
    const nlohmann::json schema =
        nlohmann::json::parse(readFile(kSourceDir / "assets" / "scene.schema.json"));
    std::vector<std::string> missing;
    // Walk every "properties" map in the document.
    std::vector<std::pair<std::string, const nlohmann::json*>> stack = {{"", &schema}};
    while (!stack.empty()) {
        auto [path, node] = stack.back();
        stack.pop_back();
        if (node->is_object()) {
            if (node->contains("properties")) {
                for (auto it = node->at("properties").begin(); it != node->at("properties").end();
                     ++it) {
                    const nlohmann::json& prop = resolve(schema, it.value());
                    if (!prop.contains("description") && !it.value().contains("description")) {
                        missing.push_back(path + "/" + it.key());
                    }
                }
            }
            for (auto it = node->begin(); it != node->end(); ++it) {
                stack.emplace_back(path + "/" + it.key(), &it.value());
            }
        } else if (node->is_array()) {
            for (const auto& e : *node)
                stack.emplace_back(path + "[]", &e);
        }
    }
    EXPECT_TRUE(missing.empty()) << ::testing::PrintToString(missing);
}

} // namespace
} // namespace orca::scene
