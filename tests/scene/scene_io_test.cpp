// Scene files v1: parsing, error messages, saving, round trips.

#include <gtest/gtest.h>

#include "common/files.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "orca/scene/scene.hpp"

namespace orca::scene {
namespace {

namespace fs = std::filesystem;

std::uint64_t bits(double v) {
    std::uint64_t b = 0;
    std::memcpy(&b, &v, sizeof b);
    return b;
}

using orca::test::readFile;

void writeFile(const fs::path& path, const std::string& text) {
    std::ofstream out(path, std::ios::binary);
    out << text;
}

using orca::test::TempDir;

/// The example of the product issue.
const std::string kIssueExample = R"({ "format": "orca-scene", "version": 1,
  "name": "Circle", "description": "250 agents cross to the opposite side",
  "simulation": { "timeStep": 0.25 },
  "agentDefaults": { "radius": 1.5, "maxSpeed": 2, "prefSpeed": 1,
    "neighborDist": 15, "maxNeighbors": 10, "timeHorizon": 10, "timeHorizonObst": 10 },
  "agents": [
    { "position": [200, 0], "goal": [-200, 0] },
    { "position": [0, 5], "velocity": [0.5, 0], "prefVelocity": [1, 0], "radius": 1 },
    { "position": [3, 3] } ],
  "obstacles": [ { "vertices": [[-10, 40], [-40, 40], [-40, 10], [-10, 10]] } ] }
)";

/// A minimal scene with the given agents array body and extra top-level members (each
/// followed by a comma).
std::string sceneText(const std::string& agents, const std::string& members = "") {
    return R"({"format": "orca-scene", "version": 1, )" + members + R"("agents": [)" + agents +
           "]}";
}

// ---- Loading the issue's example ---------------------------------------------------------------

TEST(SceneLoad, IssueExampleLoadsEveryField) {
    const LoadResult r = parseScene(kIssueExample, "example.json");
    EXPECT_TRUE(r.warnings.empty());
    const Scene& s = r.scene;
    EXPECT_EQ(s.name, "Circle");
    EXPECT_EQ(s.description, "250 agents cross to the opposite side");
    EXPECT_EQ(s.simulation.params.timeStep, 0.25);
    EXPECT_EQ(s.simulation.params.responsibility, 0.5);
    EXPECT_EQ(s.simulation.params.lp3BisectorWeight, 1.0);
    EXPECT_EQ(s.simulation.time, 0.0);
    EXPECT_EQ(s.simulation.step, 0u);
    EXPECT_EQ(s.agentDefaults.radius, 1.5);
    EXPECT_EQ(s.agentDefaults.maxNeighbors, 10);
    EXPECT_EQ(s.agentDefaults.goalRadius, -1.0);
    ASSERT_EQ(s.agents.size(), 3u);
    EXPECT_EQ(s.agents[0].position, Vec2(200, 0));
    ASSERT_TRUE(s.agents[0].goal.has_value());
    EXPECT_EQ(*s.agents[0].goal, Vec2(-200, 0));
    EXPECT_FALSE(s.agents[0].velocity.has_value());
    EXPECT_FALSE(s.agents[0].overrides.radius.has_value());
    ASSERT_TRUE(s.agents[1].velocity.has_value());
    EXPECT_EQ(*s.agents[1].velocity, Vec2(0.5, 0));
    ASSERT_TRUE(s.agents[1].prefVelocity.has_value());
    EXPECT_EQ(*s.agents[1].prefVelocity, Vec2(1, 0));
    EXPECT_EQ(s.agents[1].overrides.radius, 1.0);
    EXPECT_FALSE(s.agents[2].goal.has_value());
    EXPECT_FALSE(s.agents[2].prefVelocity.has_value());
    ASSERT_EQ(s.obstacles.size(), 1u);
    EXPECT_EQ(s.obstacles[0].vertices.size(), 4u);
    EXPECT_TRUE(s.extra.empty());
}

TEST(SceneLoad, DefaultsWhenBlocksAreAbsent) {
    const Scene s = parseScene(sceneText(R"({"position": [1, 2]})"), "min.json").scene;
    const AgentParams builtIn;
    const SimulationParams sim;
    EXPECT_EQ(s.simulation.params.timeStep, sim.timeStep);
    EXPECT_EQ(s.agentDefaults.radius, builtIn.radius);
    EXPECT_EQ(s.agentDefaults.maxSpeed, builtIn.maxSpeed);
    EXPECT_EQ(s.agentDefaults.prefSpeed, builtIn.prefSpeed);
    EXPECT_EQ(s.agentDefaults.neighborDist, builtIn.neighborDist);
    EXPECT_EQ(s.agentDefaults.maxNeighbors, builtIn.maxNeighbors);
    EXPECT_EQ(s.agentDefaults.timeHorizon, builtIn.timeHorizon);
    EXPECT_EQ(s.agentDefaults.timeHorizonObst, builtIn.timeHorizonObst);
    EXPECT_EQ(s.agentDefaults.goalRadius, -1.0);
    EXPECT_TRUE(s.name.empty());
    EXPECT_TRUE(s.obstacles.empty());
}

TEST(SceneLoad, EmptyAgentsArrayIsValid) {
    EXPECT_TRUE(parseScene(sceneText(""), "empty.json").scene.agents.empty());
}

TEST(SceneLoad, AllKeysAreRead) {
    const std::string text = R"({"format": "orca-scene", "version": 1,
      "simulation": {"timeStep": 0.1, "responsibility": 1, "lp3BisectorWeight": 2.5,
                     "time": 12.5, "step": 125},
      "agentDefaults": {"radius": 0.5, "maxSpeed": 3, "prefSpeed": 2, "neighborDist": 7,
                        "maxNeighbors": 4, "timeHorizon": 3, "timeHorizonObst": 1.5,
                        "goalRadius": 0.25},
      "agents": [
        {"id": "a", "position": [1, 2], "velocity": [0.5, -0.5], "goal": [3, 4], "radius": 0.75,
         "maxSpeed": 1, "prefSpeed": 0.5, "neighborDist": 5, "maxNeighbors": 2,
         "timeHorizon": 2, "timeHorizonObst": 1, "goalRadius": 0},
        {"id": 17, "position": [0, 0], "static": true, "velocity": [0, 0]},
        {"position": [5, 5], "static": false, "prefVelocity": [0, 1]}],
      "obstacles": [{"id": "wall", "vertices": [[0, 10], [5, 10]]}]})";
    const Scene s = parseScene(text, "all.json").scene;
    EXPECT_EQ(s.simulation.params.timeStep, 0.1);
    EXPECT_EQ(s.simulation.params.responsibility, 1.0);
    EXPECT_EQ(s.simulation.params.lp3BisectorWeight, 2.5);
    EXPECT_EQ(s.simulation.time, 12.5);
    EXPECT_EQ(s.simulation.step, 125u);
    EXPECT_EQ(s.agentDefaults.goalRadius, 0.25);
    EXPECT_EQ(s.agentDefaults.timeHorizonObst, 1.5);
    const SceneAgent& a = s.agents[0];
    EXPECT_EQ(a.id, nlohmann::json("a"));
    EXPECT_EQ(a.overrides.radius, 0.75);
    EXPECT_EQ(a.overrides.maxSpeed, 1.0);
    EXPECT_EQ(a.overrides.prefSpeed, 0.5);
    EXPECT_EQ(a.overrides.neighborDist, 5.0);
    EXPECT_EQ(a.overrides.maxNeighbors, 2);
    EXPECT_EQ(a.overrides.timeHorizon, 2.0);
    EXPECT_EQ(a.overrides.timeHorizonObst, 1.0);
    EXPECT_EQ(a.overrides.goalRadius, 0.0);
    EXPECT_EQ(s.agents[1].id, nlohmann::json(17));
    EXPECT_TRUE(s.agents[1].isStatic);
    EXPECT_FALSE(s.agents[2].isStatic);
    EXPECT_EQ(s.obstacles[0].id, nlohmann::json("wall"));
}

TEST(SceneLoad, IntegralFloatCountsAreAccepted) {
    // JSON Schema's "integer" accepts 10.0; so does the loader.
    const Scene s = parseScene(sceneText(R"({"position": [0, 0], "maxNeighbors": 3.0})",
                                         R"("simulation": {"step": 40.0},)"),
                               "f.json")
                        .scene;
    EXPECT_EQ(s.agents[0].overrides.maxNeighbors, 3);
    EXPECT_EQ(s.simulation.step, 40u);
}

// ---- Broken inputs
// -------------------------------------------------------------------------------

struct BrokenCase {
    std::string name;
    std::string text;
    std::string path;     ///< expected jsonPath()
    std::string fragment; ///< expected part of message()
    int line = 0;         ///< expected line (syntax errors only)
    int column = 0;
};

std::ostream& operator<<(std::ostream& os, const BrokenCase& c) {
    return os << c.name;
}

std::vector<BrokenCase> brokenCases() {
    const std::string header = "{\n  \"format\": \"orca-scene\",\n  \"version\": 1,\n";
    const std::string square = "[[0, 0], [4, 0], [4, 4], [0, 4]]";
    return {
        // Syntax errors: FILE:LINE:COLUMN, no path.
        {"TrailingComma", header + "  \"agents\": [\n    { \"position\": [1, 2], },\n  ]\n}\n", "",
         "trailing comma", 5, 27},
        {"MissingBracket", header + "  \"agents\": [\n    { \"position\": [1, 2] }\n", "",
         "the file ends early", 6, 1},
        {"Comment", header + "  // the agents\n  \"agents\": []\n}\n", "",
         "JSON does not allow comments", 4, 3},
        {"SingleQuotes", header + "  'agents': []\n}\n", "", "double quotes", 4, 3},
        {"NaNLiteral", header + "  \"agents\": [ { \"position\": [NaN, 0] } ]\n}\n", "",
         "JSON has no NaN or Infinity", 4, 30},
        {"BadLiteral", header + "  \"agents\": [ { \"position\": [1, 2], \"static\": tru } ]\n}\n",
         "", "invalid literal; last read:", 4, 50},
        {"MissingColon", header + "  \"agents\" []\n}\n", "", "expected ':'", 4, 12},
        {"TextAfterEnd", sceneText("") + "\n}", "", "more text after the end", 2, 1},
        {"EmptyFile", "  \n", "", "the file is empty", 1, 1},
        {"NulBytes", std::string(64, '\0'), "", "contains a NUL byte (at byte 0): it is binary", 1,
         1},
        {"NulInside", header + "  \"agents\": [" + std::string(1, '\0') + "]\n}\n", "",
         "contains a NUL byte (at byte " + std::to_string(header.size() + 13) + ")", 4, 14},
        {"InvalidUtf8", "{\"format\": \"\xff\"}", "", "ill-formed UTF-8", 1, 13},

        // The header.
        {"TopLevelArray", "[1, 2]", "", "expected a JSON object at the top level, got an array"},
        {"MissingFormat", R"({"version": 1, "agents": []})", "", "missing required key \"format\""},
        {"WrongFormat", R"({"format": "orca", "version": 1, "agents": []})", "format",
         "expected \"orca-scene\", got string \"orca\""},
        {"NewerVersion", R"({"format": "orca-scene", "version": 2, "agents": []})", "version",
         "written by a newer version"},
        {"VersionZero", R"({"format": "orca-scene", "version": 0, "agents": []})", "version",
         "unsupported scene format version 0"},
        {"VersionString", R"({"format": "orca-scene", "version": "1", "agents": []})", "version",
         "expected the integer 1, got string \"1\""},
        {"MissingAgents", R"({"format": "orca-scene", "version": 1})", "",
         "missing required key \"agents\""},
        {"AgentsNotArray", sceneText("").replace(sceneText("").find('['), 2, "{}"), "agents",
         "expected an array, got an object"},
        {"NameNotString", sceneText("", R"("name": 5,)"), "name",
         "expected a string, got number 5"},

        // Agents: types and values.
        {"AgentNotObject", sceneText("[1, 2]"), "agents[0]", "expected an object, got an array"},
        {"MissingPosition", sceneText(R"({"position": [0, 0]}, {"goal": [1, 1]})"), "agents[1]",
         "missing required key \"position\""},
        {"PositionString", sceneText(R"({"position": "abc"})"), "agents[0].position",
         "expected [x, y] (an array of 2 numbers), got string \"abc\""},
        {"PositionThreeNumbers", sceneText(R"({"position": [1, 2, 3]})"), "agents[0].position",
         "got an array of 3 elements"},
        {"CoordinateString", sceneText(R"({"position": [1, "abc"]})"), "agents[0].position[1]",
         "expected a number, got string \"abc\""},
        {"CoordinateNull", sceneText(R"({"position": [null, 1]})"), "agents[0].position[0]",
         "expected a number, got null"},
        {"CoordinateBool", sceneText(R"({"position": [true, 1]})"), "agents[0].position[0]",
         "expected a number, got boolean true"},
        {"CoordinateTooLarge", sceneText(R"({"position": [0, 0], "goal": [2e7, 0]})"),
         "agents[0].goal[0]", "out of range"},
        {"CoordinateInfinite", sceneText(R"({"position": [1e999, 0]})"), "agents[0].position[0]",
         "the number 1e999 is too large"},
        {"VelocityTooLarge", sceneText(R"({"position": [0, 0], "velocity": [0, -1.5e7]})"),
         "agents[0].velocity[1]", "out of range"},
        {"NegativeRadius", sceneText(R"({"position": [0, 0], "radius": -1})"), "agents[0].radius",
         "expected a number > 0, got -1"},
        {"ZeroRadius", sceneText(R"({"position": [0, 0]}, {"position": [5, 0], "radius": 0})"),
         "agents[1].radius", "expected a number > 0, got 0"},
        {"RadiusString", sceneText(R"({"position": [0, 0], "radius": "big"})"), "agents[0].radius",
         "expected a number, got string \"big\""},
        {"NegativeMaxSpeed", sceneText(R"({"position": [0, 0], "maxSpeed": -2})"),
         "agents[0].maxSpeed", "expected a number >= 0"},
        {"NegativePrefSpeed", sceneText(R"({"position": [0, 0], "prefSpeed": -0.5})"),
         "agents[0].prefSpeed", "expected a number >= 0"},
        {"NegativeNeighborDist", sceneText(R"({"position": [0, 0], "neighborDist": -1})"),
         "agents[0].neighborDist", "expected a number >= 0"},
        {"FractionalMaxNeighbors", sceneText(R"({"position": [0, 0], "maxNeighbors": 2.5})"),
         "agents[0].maxNeighbors", "expected a non-negative integer, got number 2.5"},
        {"NegativeMaxNeighbors", sceneText(R"({"position": [0, 0], "maxNeighbors": -1})"),
         "agents[0].maxNeighbors", "expected a non-negative integer, got number -1"},
        {"HugeMaxNeighbors", sceneText(R"({"position": [0, 0], "maxNeighbors": 3000000000})"),
         "agents[0].maxNeighbors", "too large"},
        {"ZeroTimeHorizonObst", sceneText(R"({"position": [0, 0], "timeHorizonObst": 0})"),
         "agents[0].timeHorizonObst", "expected a number > 0"},
        {"NegativeGoalRadius", sceneText(R"({"position": [0, 0], "goalRadius": -1})"),
         "agents[0].goalRadius", "expected a number >= 0"},
        {"StaticNotBool", sceneText(R"({"position": [0, 0], "static": 1})"), "agents[0].static",
         "expected true or false, got number 1"},
        {"IdFloat", sceneText(R"({"id": 1.5, "position": [0, 0]})"), "agents[0].id",
         "expected a string or an integer, got number 1.5"},
        {"GoalAndPrefVelocity",
         sceneText(R"({"position": [0, 0], "goal": [1, 1], "prefVelocity": [1, 0]})"), "agents[0]",
         "a goal or a constant prefVelocity, not both"},
        {"StaticWithGoal", sceneText(R"({"position": [0, 0], "static": true, "goal": [1, 1]})"),
         "agents[0].goal", "a static agent cannot have a goal (static agents never move)"},
        {"StaticWithPrefVelocity",
         sceneText(R"({"position": [0, 0], "static": true, "prefVelocity": [1, 1]})"),
         "agents[0].prefVelocity", "a static agent cannot have a prefVelocity"},
        {"StaticMoving", sceneText(R"({"position": [0, 0], "static": true, "velocity": [1, 0]})"),
         "agents[0].velocity", "static agent's velocity must be [0, 0] or absent"},

        // Unknown and repeated keys.
        {"MisspeltAgentKey",
         sceneText(R"({"position": [0, 0]}, {"position": [3, 0]}, {"position": [6, 0]},
                      {"position": [9, 0], "raduis": 2})"),
         "agents[3]", "unknown key \"raduis\" (did you mean \"radius\"?)"},
        {"MisspeltDefaultsKey", sceneText("", R"("agentDefaults": {"maxspeed": 2},)"),
         "agentDefaults", "unknown key \"maxspeed\" (did you mean \"maxSpeed\"?)"},
        {"MisspeltSimulationKey", sceneText("", R"("simulation": {"timestep": 0.1},)"),
         "simulation", "unknown key \"timestep\" (did you mean \"timeStep\"?)"},
        {"MisspeltObstacleKey", sceneText("", R"("obstacles": [{"verts": [[0, 0], [1, 0]]}],)"),
         "obstacles[0]", "unknown key \"verts\" (did you mean \"vertices\"?)"},
        {"UnrelatedAgentKey", sceneText(R"({"position": [0, 0], "colour": "red"})"), "agents[0]",
         "unknown key \"colour\" (valid keys: id, position, velocity"},
        {"TopLevelObstacle", sceneText("", R"("obstacle": [],)"), "",
         "unknown top-level key \"obstacle\" (did you mean \"obstacles\"?)"},
        {"TopLevelAgnets", R"({"format": "orca-scene", "version": 1, "agents": [], "agnets": []})",
         "", "unknown top-level key \"agnets\" (did you mean \"agents\"?)"},
        {"TopLevelSimulaton", sceneText("", R"("simulaton": {"timeStep": 0.1},)"), "",
         "unknown top-level key \"simulaton\" (did you mean \"simulation\"?)"},
        {"DuplicateAgentKey", sceneText(R"({"position": [0, 0], "radius": 1, "radius": 2})"),
         "agents[0]", "duplicate key \"radius\""},
        {"DuplicateTopLevelKey", sceneText(R"({"position": [0, 0]})", R"("agents": [],)"), "",
         "duplicate key \"agents\""},
        {"DuplicateInExtraBlock", sceneText("", R"("view": {"zoom": 1, "zoom": 2},)"), "view",
         "duplicate key \"zoom\""},
        {"DuplicateInVertexList",
         sceneText("", R"("obstacles": [{"vertices": [[0, 0], [1, 0]], "vertices": []}],)"),
         "obstacles[0]", "duplicate key \"vertices\""},

        // Simulation block.
        {"SimulationNotObject", sceneText("", R"("simulation": [],)"), "simulation",
         "expected an object, got an array"},
        {"ZeroTimeStep", sceneText("", R"("simulation": {"timeStep": 0},)"), "simulation.timeStep",
         "expected a number in [1e-6, 1e7], got 0"},
        {"TimeStepString", sceneText("", R"("simulation": {"timeStep": "fast"},)"),
         "simulation.timeStep", "expected a number, got string \"fast\""},
        {"ResponsibilityAboveOne", sceneText("", R"("simulation": {"responsibility": 1.5},)"),
         "simulation.responsibility", "expected a number in (0, 1], got 1.5"},
        {"ZeroBisectorWeight", sceneText("", R"("simulation": {"lp3BisectorWeight": 0},)"),
         "simulation.lp3BisectorWeight", "expected a number > 0"},
        {"NegativeTime", sceneText("", R"("simulation": {"time": -1},)"), "simulation.time",
         "expected a number >= 0"},
        {"FractionalStep", sceneText("", R"("simulation": {"step": 2.5},)"), "simulation.step",
         "expected a non-negative integer"},
        {"StepAboveInt64", sceneText("", R"("simulation": {"step": 18446744073709551615},)"),
         "simulation.step",
         "the value 18446744073709551615 is too large (at most 9223372036854775807)"},
        {"StepAsHugeFloat", sceneText("", R"("simulation": {"step": 1e19},)"), "simulation.step",
         "is too large (at most 9223372036854775807)"},
        {"TinyTimeStep", sceneText("", R"("simulation": {"timeStep": 1e-161},)"),
         "simulation.timeStep", "expected a number in [1e-6, 1e7], got 1e-161"},
        {"ZeroDefaultTimeHorizon", sceneText("", R"("agentDefaults": {"timeHorizon": 0},)"),
         "agentDefaults.timeHorizon", "expected a number > 0"},

        // Obstacles.
        {"ObstaclesNotArray", sceneText("", R"("obstacles": {},)"), "obstacles",
         "expected an array, got an object"},
        {"ObstacleWithoutVertices", sceneText("", R"("obstacles": [{"id": "x"}],)"), "obstacles[0]",
         "missing required key \"vertices\""},
        {"OneVertex", sceneText("", R"("obstacles": [{"vertices": [[0, 0]]}],)"),
         "obstacles[0].vertices", "at least 2 vertices"},
        {"BadVertex",
         sceneText("", R"("obstacles": [{"vertices": [[0, 0], [4, 0], [4, 4], [0]]}],)"),
         "obstacles[0].vertices[3]", "expected [x, y]"},
        {"VertexOutOfRange",
         sceneText("", R"("obstacles": [{"vertices": [[0, 0], [4, 0], [4, 1e8]]}],)"),
         "obstacles[0].vertices[2][1]", "out of range"},
        {"VertexInfinite", sceneText("", R"("obstacles": [{"vertices": [[0, 0], [1, 0]]},
                                        {"vertices": [[0, 0], [4, 0], [4, -1e999]]}],)"),
         "obstacles[1].vertices[2][1]", "the number -1e999 is too large"},
        {"RepeatedVertex", sceneText("", R"("obstacles": [{"vertices": )" + square + R"(},
                                        {"vertices": [[0, 0], [4, 0], [4, 0], [0, 4]]}],)"),
         "obstacles[1].vertices", "are the same point"},
        {"CollinearVertices",
         sceneText("", R"("obstacles": [{"vertices": [[0, 0], [1, 1], [2, 2]]}],)"),
         "obstacles[0].vertices", "collinear"},
        {"SelfIntersecting",
         sceneText("", R"("obstacles": [{"vertices": [[0, 0], [4, 4], [4, 0], [0, 4]]}],)"),
         "obstacles[0].vertices", "self-intersecting"},

        // Hostile input. The path of deep nesting is shortened, not 255 times "[0]" (issue 25).
        {"DeepNesting",
         sceneText("", "\"deep\": " + std::string(300, '[') + std::string(300, ']') + ","),
         "deep[0][0]\u2026(\u00d7255)\u2026[0]", "nesting is deeper than 256 levels"},
        {"DeepNestingOfObjects",
         sceneText(
             "", "\"deep\": " +
                     [] {
                         std::string t;
                         for (int i = 0; i < 300; ++i)
                             t += "{\"a\": ";
                         return t + "1" + std::string(300, '}');
                     }() +
                     ","),
         "deep.a.a\u2026(\u00d7255)\u2026.a", "nesting is deeper than 256 levels"},
    };
}

class SceneBroken : public ::testing::TestWithParam<BrokenCase> {};

TEST_P(SceneBroken, IsRejectedWithPathAndMessage) {
    const BrokenCase& c = GetParam();
    try {
        (void)parseScene(c.text, "broken.json");
        FAIL() << "accepted:\n" << c.text;
    } catch (const SceneError& e) {
        const std::string what = e.what();
        EXPECT_EQ(e.file(), "broken.json");
        EXPECT_EQ(e.jsonPath(), c.path) << what;
        EXPECT_NE(e.message().find(c.fragment), std::string::npos)
            << "message: " << e.message() << "\nexpected fragment: " << c.fragment;
        EXPECT_NE(what.find(e.message()), std::string::npos);
        if (c.line > 0) {
            EXPECT_EQ(e.line(), c.line) << what;
            EXPECT_EQ(e.column(), c.column) << what;
            EXPECT_EQ(what.rfind("broken.json:" + std::to_string(c.line) + ":" +
                                     std::to_string(c.column) + ": error: ",
                                 0),
                      0u)
                << what;
        } else {
            EXPECT_EQ(e.line(), 0);
            EXPECT_EQ(e.column(), 0);
            const std::string prefix = c.path.empty() ? std::string("broken.json: error: ")
                                                      : "broken.json: error: at " + c.path + ": ";
            EXPECT_EQ(what.rfind(prefix, 0), 0u) << what;
        }
    }
}

INSTANTIATE_TEST_SUITE_P(Table, SceneBroken, ::testing::ValuesIn(brokenCases()),
                         [](const ::testing::TestParamInfo<BrokenCase>& row) {
                             return row.param.name;
                         });

TEST(SceneBrokenTable, HasEnoughRows) {
    EXPECT_GE(brokenCases().size(), 30u);
}

TEST(SceneLoad, ShortUnknownTopLevelKeysNeedOneEditToCountAsMisspelt) {
    // "note" is two edits from "name"; for keys of 4 letters or fewer only one edit counts as
    // a misspelling, so it is kept as an extra block, while "nme" is rejected.
    const Scene s = parseScene(sceneText("", R"("note": "hi",)"), "n.json").scene;
    EXPECT_EQ(s.extra.value("note", ""), "hi");
    EXPECT_THROW((void)parseScene(sceneText("", R"("nme": "x",)"), "n.json"), SceneError);
    // Far from every known key: kept.
    EXPECT_EQ(parseScene(sceneText("", R"("view": {"zoom": 2},)"), "v.json").scene.extra.size(),
              1u);
}

// ---- Winding
// -------------------------------------------------------------------------------------

TEST(SceneWinding, ClockwisePolygonIsReversedWithAWarning) {
    const std::string text =
        sceneText("", R"("obstacles": [{"vertices": [[0, 0], [4, 0], [4, 4], [0, 4]]},
                             {"vertices": [[10, 0], [11, 0]]},
                             {"id": "wall", "vertices": [[0, 0], [0, 4], [4, 4], [4, 0]]}],)");
    const LoadResult r = parseScene(text, "cw.json");
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].jsonPath, "obstacles[2]");
    EXPECT_NE(r.warnings[0].message.find("obstacle obstacles[2] (id \"wall\") is clockwise; "
                                         "reversed to counter-clockwise"),
              std::string::npos)
        << r.warnings[0].message;
    const auto& v = r.scene.obstacles[2].vertices;
    EXPECT_GT(signedArea(v), 0.0);
    EXPECT_EQ(v, (std::vector<Vec2>{{4, 0}, {4, 4}, {0, 4}, {0, 0}}));
    // The counter-clockwise square and the segment are untouched.
    EXPECT_EQ(r.scene.obstacles[0].vertices[1], Vec2(4, 0));
    EXPECT_EQ(r.scene.obstacles[1].vertices, (std::vector<Vec2>{{10, 0}, {11, 0}}));
    // Saved counter-clockwise: loading the saved file warns no more.
    EXPECT_TRUE(parseScene(serializeScene(r.scene), "ccw.json").warnings.empty());
}

TEST(SceneWinding, WarningWithoutIdNamesThePath) {
    const LoadResult r = parseScene(
        sceneText("", R"("obstacles": [{"vertices": [[0, 0], [0, 4], [4, 4], [4, 0]]}],)"),
        "cw.json");
    ASSERT_EQ(r.warnings.size(), 1u);
    EXPECT_EQ(r.warnings[0].message,
              "obstacle obstacles[0] is clockwise; reversed to counter-clockwise (agents would "
              "otherwise walk through it)");
}

TEST(SceneWinding, WithoutRepairTheFileIsKeptAsWritten) {
    const std::string text =
        sceneText("", R"("obstacles": [{"vertices": [[0, 0], [0, 4], [4, 4], [4, 0]]},
                             {"vertices": [[10, 0], [11, 0]]}],)");
    const LoadResult r = parseScene(text, "cw.json", LoadOptions{.repairWinding = false});
    EXPECT_TRUE(r.warnings.empty());
    EXPECT_EQ(r.scene.obstacles[0].vertices, (std::vector<Vec2>{{0, 0}, {0, 4}, {4, 4}, {4, 0}}));
    EXPECT_LT(signedArea(r.scene.obstacles[0].vertices), 0.0);
    // The default still repairs; invalid polygons are rejected either way.
    EXPECT_EQ(parseScene(text, "cw.json", LoadOptions{}).warnings.size(), 1u);
    EXPECT_THROW(
        (void)parseScene(
            sceneText("", R"("obstacles": [{"vertices": [[0, 0], [4, 4], [4, 0], [0, 4]]}],)"),
            "x.json", LoadOptions{.repairWinding = false}),
        SceneError);
}

// ---- Round trips
// ---------------------------------------------------------------------------------

TEST(SceneRoundTrip, LoadSaveLoadIsEqualAndSaveIsStable) {
    const Scene first = parseScene(kIssueExample, "example.json").scene;
    const std::string saved = serializeScene(first);
    const Scene second = parseScene(saved, "saved.json").scene;
    EXPECT_TRUE(first == second);
    EXPECT_EQ(serializeScene(second), saved);
}

TEST(SceneRoundTrip, LayoutIsOneAgentPerLineInFixedKeyOrder) {
    const std::string saved = serializeScene(parseScene(kIssueExample, "example.json").scene);
    const std::string expected = R"({
  "format": "orca-scene",
  "version": 1,
  "name": "Circle",
  "description": "250 agents cross to the opposite side",
  "simulation": {
    "timeStep": 0.25
  },
  "agentDefaults": {
    "radius": 1.5,
    "maxSpeed": 2,
    "prefSpeed": 1,
    "neighborDist": 15,
    "maxNeighbors": 10,
    "timeHorizon": 10,
    "timeHorizonObst": 10
  },
  "agents": [
    { "position": [200, 0], "goal": [-200, 0] },
    { "position": [0, 5], "velocity": [0.5, 0], "prefVelocity": [1, 0], "radius": 1 },
    { "position": [3, 3] }
  ],
  "obstacles": [
    { "vertices": [[-10, 40], [-40, 40], [-40, 10], [-10, 10]] }
  ]
}
)";
    EXPECT_EQ(saved, expected);
}

TEST(SceneRoundTrip, KeyOrderIsFixedWhateverTheInputOrder) {
    const std::string text = R"({"agents": [{"radius": 2, "goal": [1, 1], "position": [0, 0],
      "id": "x"}], "obstacles": [{"vertices": [[0, 5], [1, 5]], "id": 3}],
      "agentDefaults": {"goalRadius": 1, "radius": 1}, "simulation": {"step": 3, "time": 0.75},
      "description": "d", "name": "n", "version": 1, "format": "orca-scene"})";
    const std::string saved = serializeScene(parseScene(text, "o.json").scene);
    const char* order[] = {
        "\"format\"",
        "\"version\"",
        "\"name\"",
        "\"description\"",
        "\"simulation\"",
        "\"timeStep\"",
        "\"time\"",
        "\"step\"",
        "\"agentDefaults\"",
        "\"radius\"",
        "\"goalRadius\"",
        "\"agents\"",
        "{ \"id\": \"x\", \"position\": [0, 0], \"goal\": [1, 1], \"radius\": 2 }",
        "\"obstacles\"",
        "{ \"id\": 3, \"vertices\": [[0, 5], [1, 5]] }"};
    std::size_t pos = 0;
    for (const char* key : order) {
        const std::size_t found = saved.find(key, pos);
        ASSERT_NE(found, std::string::npos) << key << " not found in order in\n" << saved;
        pos = found;
    }
}

TEST(SceneRoundTrip, DefaultsAreNotExpandedIntoAgents) {
    const std::string saved =
        serializeScene(parseScene(sceneText(R"({"position": [1, 2]}, {"position": [3, 4],
                                                 "maxNeighbors": 0})"),
                                  "d.json")
                           .scene);
    EXPECT_NE(saved.find("    { \"position\": [1, 2] },\n"), std::string::npos) << saved;
    EXPECT_NE(saved.find("    { \"position\": [3, 4], \"maxNeighbors\": 0 }\n"), std::string::npos)
        << saved;
}

TEST(SceneRoundTrip, ExactDoublesSurvive) {
    const std::vector<double> values = {
        0.1,
        1e-300,
        123456.789012345,
        -0.0,
        0.0,
        5e-324, // smallest subnormal
        2.2250738585072014e-308,
        0.30000000000000004,
        1.0 / 3.0,
        -2.0 / 3.0,
        9999999.999999998,
        1e7,
        -1e7,
        199.9368438720703,
        1e-5,
        0.0001,
        123456789.0 / 1024.0,
        std::nextafter(1.0, 2.0),
        std::nextafter(0.25, 0.0),
    };
    Scene scene;
    for (std::size_t i = 0; i + 1 < values.size(); i += 2) {
        SceneAgent a;
        a.position = {values[i], values[i + 1]};
        a.velocity = Vec2{values[i + 1], values[i]};
        scene.agents.push_back(a);
    }
    scene.simulation.time = 0.1 + 0.2;
    scene.simulation.params.timeStep = 1.0 / 3.0;
    scene.agentDefaults.radius = 0.1 * 3.0;
    const std::string saved = serializeScene(scene);
    const Scene back = parseScene(saved, "exact.json").scene;
    ASSERT_EQ(back.agents.size(), scene.agents.size());
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        EXPECT_EQ(bits(back.agents[i].position.x), bits(scene.agents[i].position.x)) << i;
        EXPECT_EQ(bits(back.agents[i].position.y), bits(scene.agents[i].position.y)) << i;
        EXPECT_EQ(bits(back.agents[i].velocity->x), bits(scene.agents[i].velocity->x)) << i;
        EXPECT_EQ(bits(back.agents[i].velocity->y), bits(scene.agents[i].velocity->y)) << i;
    }
    EXPECT_EQ(bits(back.simulation.time), bits(0.1 + 0.2));
    EXPECT_EQ(bits(back.simulation.params.timeStep), bits(1.0 / 3.0));
    EXPECT_EQ(bits(back.agentDefaults.radius), bits(0.1 * 3.0));
    EXPECT_TRUE(back == scene);
    EXPECT_EQ(serializeScene(back), saved);
    // Shortest forms: integers without ".0", the rest like Python's repr.
    EXPECT_NE(saved.find("[0.1, 1e-300]"), std::string::npos) << saved;
    EXPECT_NE(saved.find("[123456.789012345, -0.0]"), std::string::npos) << saved;
    EXPECT_NE(saved.find("[9999999.999999998, 10000000]"), std::string::npos) << saved;
    EXPECT_NE(saved.find("[1e-05, 0.0001]"), std::string::npos) << saved;
    EXPECT_NE(saved.find("\"radius\": 0.30000000000000004"), std::string::npos) << saved;
}

TEST(SceneRoundTrip, RandomDoublesSurviveBitExactly) {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> mantissa(-1.0, 1.0);
    std::uniform_int_distribution<int> exponent(-300, 7);
    Scene scene;
    for (int i = 0; i < 5000; ++i) {
        SceneAgent a;
        a.position = {std::ldexp(mantissa(rng), exponent(rng)),
                      mantissa(rng) * std::pow(10.0, exponent(rng) % 8)};
        a.goal = Vec2{static_cast<double>(static_cast<float>(mantissa(rng) * 1e6)),
                      std::ldexp(mantissa(rng), exponent(rng))};
        scene.agents.push_back(a);
    }
    const std::string saved = serializeScene(scene);
    const Scene back = parseScene(saved, "random.json").scene;
    ASSERT_EQ(back.agents.size(), scene.agents.size());
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        ASSERT_EQ(bits(back.agents[i].position.x), bits(scene.agents[i].position.x)) << i;
        ASSERT_EQ(bits(back.agents[i].position.y), bits(scene.agents[i].position.y)) << i;
        ASSERT_EQ(bits(back.agents[i].goal->x), bits(scene.agents[i].goal->x)) << i;
        ASSERT_EQ(bits(back.agents[i].goal->y), bits(scene.agents[i].goal->y)) << i;
    }
    EXPECT_EQ(serializeScene(back), saved);
}

TEST(SceneRoundTrip, ShortestRepresentation) {
    // Each value is written with the fewest digits that read back exactly.
    Scene scene;
    SceneAgent a;
    a.position = {0.1 + 0.2, 100.0 / 3.0};
    scene.agents.push_back(a);
    const std::string saved = serializeScene(scene);
    EXPECT_NE(saved.find("[0.30000000000000004, 33.333333333333336]"), std::string::npos) << saved;
}

TEST(SceneRoundTrip, ExtraTopLevelBlocksAreKeptInOrder) {
    const std::string text = R"({"zeta": {"b": 1, "a": [1, 2.0, "x"]}, "format": "orca-scene",
      "version": 1, "view": {"center": [0, 0.5], "zoom": 2.0, "layers": [{"grid": true}]},
      "agents": [{"position": [0, 0]}], "$schema": "../assets/scene.schema.json",
      "alpha": null, "notes": ["first", {"k": -1}]})";
    const Scene s = parseScene(text, "extra.json").scene;
    std::vector<std::string> keys;
    for (auto it = s.extra.begin(); it != s.extra.end(); ++it)
        keys.push_back(it.key());
    EXPECT_EQ(keys, (std::vector<std::string>{"zeta", "view", "$schema", "alpha", "notes"}));
    // Nested order is kept too ("b" before "a").
    EXPECT_EQ(s.extra["zeta"].begin().key(), "b");

    const std::string saved = serializeScene(s);
    const std::size_t agents = saved.find("\"agents\"");
    const std::size_t zeta = saved.find("\"zeta\"");
    const std::size_t view = saved.find("\"view\"");
    const std::size_t schema = saved.find("\"$schema\"");
    const std::size_t notes = saved.find("\"notes\"");
    EXPECT_LT(agents, zeta);
    EXPECT_LT(zeta, view);
    EXPECT_LT(view, schema);
    EXPECT_LT(schema, notes);
    EXPECT_NE(saved.find("\"zoom\": 2.0"), std::string::npos) << saved; // floats stay floats

    const Scene back = parseScene(saved, "extra2.json").scene;
    EXPECT_TRUE(back == s);
    EXPECT_EQ(back.extra.dump(), s.extra.dump());
    EXPECT_EQ(serializeScene(back), saved);
}

TEST(SceneRoundTrip, StringsAreEscaped) {
    Scene scene;
    scene.name = "quote \" backslash \\ newline \n tab \t unicode \xc3\xa9";
    scene.description = std::string("control \x01 end");
    const Scene back = parseScene(serializeScene(scene), "s.json").scene;
    EXPECT_EQ(back.name, scene.name);
    EXPECT_EQ(back.description, scene.description);
}

TEST(SceneRoundTrip, SimulationKeysOnlyWhenNotDefault) {
    Scene scene;
    std::string saved = serializeScene(scene);
    EXPECT_EQ(saved.find("responsibility"), std::string::npos);
    EXPECT_EQ(saved.find("\"time\""), std::string::npos);
    EXPECT_EQ(saved.find("goalRadius"), std::string::npos);
    EXPECT_EQ(saved.find("obstacles"), std::string::npos);
    EXPECT_NE(saved.find("\"agents\": []"), std::string::npos);
    scene.simulation.params.responsibility = 1.0;
    scene.simulation.params.lp3BisectorWeight = 0.5;
    scene.simulation.time = 3.0;
    scene.simulation.step = 12;
    scene.agentDefaults.goalRadius = 2.0;
    saved = serializeScene(scene);
    const Scene back = parseScene(saved, "sim.json").scene;
    EXPECT_TRUE(back == scene);
    EXPECT_EQ(back.simulation.step, 12u);
    EXPECT_EQ(back.agentDefaults.goalRadius, 2.0);
}

TEST(SceneEquality, ComparesEveryField) {
    const Scene base = parseScene(kIssueExample, "e.json").scene;
    Scene other = base;
    EXPECT_TRUE(base == other);
    other.agents[1].overrides.maxNeighbors = 3;
    EXPECT_FALSE(base == other);
    other = base;
    other.obstacles[0].vertices[2].y = std::nextafter(10.0, 11.0);
    EXPECT_FALSE(base == other);
    other = base;
    other.extra["view"] = 1;
    EXPECT_FALSE(base == other);
    other = base;
    other.agents[2].id = nlohmann::json(2);
    EXPECT_FALSE(base == other);
    other = base;
    other.agents[0].velocity = Vec2{0, 0}; // present-but-zero differs from absent
    EXPECT_FALSE(base == other);
    other = base;
    other.simulation.step = 1;
    EXPECT_FALSE(base == other);
}

// ---- Files
// ---------------------------------------------------------------------------------------

TEST(SceneFile, MissingFileNamesTheFileAndTheReason) {
    TempDir dir("missing");
    const fs::path path = dir.path() / "nope.json";
    try {
        (void)loadScene(path);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.file(), path.string());
        EXPECT_NE(std::string(e.what()).find(path.string()), std::string::npos);
        EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
            << e.what();
    }
}

TEST(SceneFile, DirectoryIsNotAScene) {
    TempDir dir("isdir");
    try {
        (void)loadScene(dir.path());
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.message(), "not a regular file (directory)") << e.what();
    }
}

TEST(SceneFile, SyntaxErrorNamesTheFile) {
    TempDir dir("syntax");
    const fs::path path = dir.path() / "bad.json";
    writeFile(path, "{\n  \"format\": \"orca-scene\",\n  \"version\": 1,,\n}\n");
    try {
        (void)loadScene(path);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(std::string(e.what()).rfind(path.string() + ":3:", 0), 0u) << e.what();
    }
}

TEST(SceneSave, WritesAndReplacesAtomically) {
    TempDir dir("save");
    const fs::path path = dir.path() / "scene.json";
    Scene scene = parseScene(kIssueExample, "e.json").scene;
    saveScene(scene, path);
    EXPECT_EQ(readFile(path), serializeScene(scene));
    EXPECT_TRUE(loadScene(path).scene == scene);

    scene.name = "Second";
    saveScene(scene, path);
    EXPECT_EQ(loadScene(path).scene.name, "Second");
    EXPECT_EQ(dir.listing(), "scene.json;"); // no temporary files left behind
}

TEST(SceneSave, RelativePathInTheCurrentDirectory) {
    TempDir dir("relative");
    const fs::path old = fs::current_path();
    fs::current_path(dir.path());
    Scene scene;
    scene.name = "relative";
    EXPECT_NO_THROW(saveScene(scene, "rel.json"));
    fs::current_path(old);
    EXPECT_EQ(loadScene(dir.path() / "rel.json").scene.name, "relative");
    EXPECT_EQ(dir.listing(), "rel.json;");
}

TEST(SceneSave, KeepsThePermissionsOfTheReplacedFile) {
    TempDir dir("perms");
    const fs::path path = dir.path() / "scene.json";
    writeFile(path, "old");
    ::chmod(path.c_str(), 0640);
    saveScene(Scene{}, path);
    struct stat st {};
    ASSERT_EQ(::stat(path.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
}

TEST(SceneSave, MissingDirectoryThrowsAndCreatesNothing) {
    TempDir dir("nodir");
    const fs::path path = dir.path() / "does" / "not" / "exist.json";
    try {
        saveScene(Scene{}, path);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.file(), path.string());
        EXPECT_NE(std::string(e.what()).find("No such file or directory"), std::string::npos)
            << e.what();
    }
    EXPECT_EQ(dir.listing(), "");
}

TEST(SceneSave, FailedRenameLeavesTargetAndNoTempFile) {
    // The target is a non-empty directory: creating and writing the temporary file works, the
    // final rename fails; the temporary file must be removed and the target left alone.
    TempDir dir("rename");
    const fs::path target = dir.path() / "scene.json";
    fs::create_directories(target);
    writeFile(target / "keep.txt", "precious");
    EXPECT_THROW(saveScene(Scene{}, target), SceneError);
    EXPECT_EQ(dir.listing(), "scene.json;");
    EXPECT_TRUE(fs::is_directory(target));
    EXPECT_EQ(readFile(target / "keep.txt"), "precious");
}

TEST(SceneSave, ReadOnlyDirectoryKeepsTheOldFile) {
    TempDir dir("readonly");
    const fs::path path = dir.path() / "scene.json";
    const std::string old = serializeScene(parseScene(kIssueExample, "e.json").scene);
    writeFile(path, old);
    fs::permissions(dir.path(), fs::perms::owner_read | fs::perms::owner_exec);
    // Root ignores directory permissions; then there is nothing to test.
    const bool writable = ::access(dir.path().c_str(), W_OK) == 0;
    if (writable) {
        fs::permissions(dir.path(), fs::perms::owner_all);
        GTEST_SKIP() << "directory permissions are not enforced for this user (root?)";
    }
    Scene scene;
    scene.name = "new";
    try {
        saveScene(scene, path);
        ADD_FAILURE() << "saved into a read-only directory";
    } catch (const SceneError& e) {
        EXPECT_NE(std::string(e.what()).find("Permission denied"), std::string::npos) << e.what();
    }
    fs::permissions(dir.path(), fs::perms::owner_all);
    EXPECT_EQ(readFile(path), old);
    EXPECT_EQ(dir.listing(), "scene.json;");
}

TEST(SceneSave, InvalidSceneIsRefusedAndTheOldFileKept) {
    TempDir dir("invalid");
    const fs::path path = dir.path() / "scene.json";
    const std::string old = serializeScene(parseScene(kIssueExample, "e.json").scene);
    writeFile(path, old);
    Scene scene = parseScene(kIssueExample, "e.json").scene;
    scene.agents[2].overrides.radius = 0.0;
    try {
        saveScene(scene, path);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "agents[2].radius");
        EXPECT_NE(e.message().find("not saved"), std::string::npos) << e.what();
    }
    scene.agents[2].overrides.radius.reset();
    scene.agents[0].position.x = std::numeric_limits<double>::quiet_NaN();
    try {
        saveScene(scene, path);
        FAIL();
    } catch (const SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "agents[0].position[0]");
    }
    EXPECT_EQ(readFile(path), old);
    EXPECT_EQ(dir.listing(), "scene.json;");
}

TEST(SceneError, WhatFormats) {
    EXPECT_STREQ(SceneError("a.json", "", 3, 7, "bad").what(), "a.json:3:7: error: bad");
    EXPECT_STREQ(SceneError("a.json", "agents[1].radius", 0, 0, "bad").what(),
                 "a.json: error: at agents[1].radius: bad");
    EXPECT_STREQ(SceneError("a.json", "", 0, 0, "bad").what(), "a.json: error: bad");
    const SceneError e("f", "p", 0, 0, "m");
    EXPECT_EQ(e.file(), "f");
    EXPECT_EQ(e.jsonPath(), "p");
    EXPECT_EQ(e.message(), "m");
}

} // namespace
} // namespace orca::scene

// ---- Detour block, static responsibility and agent run-time state (issue 4) ----------------

namespace orca::scene {
namespace {

TEST(SceneDetour, BlockAndStateRoundTrip) {
    const std::string text = R"({"format": "orca-scene", "version": 1,
      "simulation": {"timeStep": 0.1, "staticResponsibility": 1},
      "detour": {"enabled": true, "cellSize": 0.3, "sampleDistance": 1.25, "neighborFallback": true},
      "agents": [{"position": [0, 0], "goal": [5, 0], "state": {"detour": "detouring", "stillSeconds": 0.75}},
                 {"position": [3, 3], "static": true}]})";
    const Scene s = parseScene(text, "d.json").scene;
    const DetourParams& d = s.simulation.params.detour;
    EXPECT_TRUE(d.enabled);
    EXPECT_EQ(d.cellSize, 0.3);
    EXPECT_EQ(d.sampleDistance, 1.25);
    EXPECT_TRUE(d.neighborFallback);
    EXPECT_EQ(d.enterSpeedRatio, DetourParams{}.enterSpeedRatio); // default kept
    EXPECT_EQ(s.simulation.params.staticResponsibility, 1.0);
    EXPECT_EQ(s.agents[0].detourMode, DetourMode::Detouring);
    EXPECT_EQ(s.agents[0].stillSeconds, 0.75);
    const std::string saved = serializeScene(s);
    EXPECT_EQ(parseScene(saved, "d.json").scene, s);
    EXPECT_EQ(serializeScene(parseScene(saved, "d.json").scene), saved);
    EXPECT_NE(saved.find("\"detour\": {"), std::string::npos);
    EXPECT_NE(saved.find("\"state\": { \"detour\": \"detouring\", \"stillSeconds\": 0.75 }"),
              std::string::npos)
        << saved;
    // The simulator gets both.
    Simulator sim = buildSimulator(s);
    EXPECT_TRUE(sim.params().detour.enabled);
    EXPECT_EQ(sim.detourMode(sim.agentIdAt(0)), DetourMode::Detouring);
    EXPECT_EQ(sim.stillSeconds(sim.agentIdAt(0)), 0.75);
    // A plain scene writes neither block nor state.
    const Scene plain = parseScene(R"({"format": "orca-scene", "version": 1,
      "agents": [{"position": [0, 0]}]})",
                                   "p.json")
                            .scene;
    const std::string plainText = serializeScene(plain);
    EXPECT_EQ(plainText.find("detour"), std::string::npos);
    EXPECT_EQ(plainText.find("state"), std::string::npos);
}

TEST(SceneDetour, BrokenBlocksAreReportedWithTheirPath) {
    struct Row {
        const char* json;
        const char* path;
        const char* fragment;
    };
    const Row rows[] = {
        {R"("detour": {"enabled": "yes"})", "detour.enabled", "expected true or false"},
        {R"("detour": {"cellSzie": 1})", "detour", "did you mean \"cellSize\""},
        {R"("detour": {"enterSpeedRatio": 1.5})", "detour.enterSpeedRatio", "[0, 1]"},
        {R"("detour": {"exitAlignedDegrees": 120})", "detour.exitAlignedDegrees", "[0, 90]"},
        {R"("detour": {"sampleDistance": -1})", "detour.sampleDistance", ">= 0"},
        {R"("detour": [])", "detour", "expected an object"},
        {R"("simulation": {"staticResponsibility": 2})", "simulation.staticResponsibility",
         "(0, 1]"},
    };
    for (const Row& row : rows) {
        const std::string text = std::string(R"({"format": "orca-scene", "version": 1, )") +
                                 row.json + R"(, "agents": []})";
        try {
            (void)parseScene(text, "bad.json");
            ADD_FAILURE() << "accepted: " << row.json;
        } catch (const SceneError& e) {
            EXPECT_EQ(e.jsonPath(), row.path) << e.what();
            EXPECT_NE(std::string(e.what()).find(row.fragment), std::string::npos) << e.what();
        }
    }
    const std::string badState = R"({"format": "orca-scene", "version": 1,
      "agents": [{"position": [0, 0], "state": {"detour": "lost"}}]})";
    try {
        (void)parseScene(badState, "bad.json");
        ADD_FAILURE() << "accepted a bad state";
    } catch (const SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "agents[0].state.detour");
    }
}

} // namespace
} // namespace orca::scene
