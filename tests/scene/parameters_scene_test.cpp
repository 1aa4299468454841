// The scene library against the parameter table (orca/parameters.hpp): the loader takes each
// parameter's file range from its row, the saver and the key lists its names, the linter its
// checks, and `orca compare --set` its names.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "orca/parameters.hpp"
#include "orca/scene/compare.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/scene.hpp"

namespace orca {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// Where a row's value goes in a file: its block, or the first agent for `perAgent`.
std::string sceneWith(const ParamRow& row, const std::string& value, bool perAgent) {
    std::string pair = "\"";
    pair.append(row.name).append("\": ").append(value);
    std::string blocks;
    std::string agentExtra;
    switch (row.scope) {
    case ParamScope::Simulation:
        blocks = "\"simulation\": {" + pair + "}, ";
        break;
    case ParamScope::Detour:
        blocks = "\"detour\": {" + pair + "}, ";
        break;
    case ParamScope::Agent:
        if (perAgent) {
            agentExtra = ", " + pair;
        } else {
            blocks = "\"agentDefaults\": {" + pair + "}, ";
        }
        break;
    }
    return R"({"format": "orca-scene", "version": 1, )" + blocks +
           R"("agents": [{"position": [0, 0])" + agentExtra + "}]}";
}

std::string pathOf(const ParamRow& row, bool perAgent) {
    switch (row.scope) {
    case ParamScope::Simulation:
        return "simulation." + std::string(row.name);
    case ParamScope::Detour:
        return "detour." + std::string(row.name);
    case ParamScope::Agent:
        break;
    }
    return (perAgent ? "agents[0]." : "agentDefaults.") + std::string(row.name);
}

/// The value `row` has after loading `scene`.
double loadedValue(const ParamRow& row, const scene::Scene& s, bool perAgent) {
    if (row.scope != ParamScope::Agent) return row.getSimulation(s.simulation.params);
    return row.getAgent(perAgent ? s.resolvedParams(s.agents[0]) : s.agentDefaults);
}

/// Values just outside the file range of a number row, and the range's ends that belong to it
/// (or the nearest value inside an open end).
struct Probe {
    std::vector<double> outside;
    std::vector<double> inside;
};

Probe probe(const ParamRow& row) {
    const ParamRange& r = row.fileRange;
    const bool integer = row.kind == ParamKind::Integer;
    Probe p;
    if (r.hasMin()) {
        p.outside.push_back(r.minOpen ? r.min : integer ? r.min - 1 : std::nextafter(r.min, -kInf));
        p.inside.push_back(r.minOpen ? std::nextafter(r.min, kInf) : r.min);
    }
    if (r.hasMax()) {
        p.outside.push_back(r.maxOpen ? r.max : integer ? r.max + 1 : std::nextafter(r.max, kInf));
        p.inside.push_back(r.maxOpen ? std::nextafter(r.max, -kInf) : r.max);
    }
    return p;
}

TEST(ParametersScene, LoaderTakesEachRowsFileRange) {
    for (const ParamRow& row : parameterTable()) {
        if (row.kind == ParamKind::Boolean) continue;
        for (const bool perAgent : {false, true}) {
            if (perAgent && row.scope != ParamScope::Agent) continue;
            const std::string path = pathOf(row, perAgent);
            SCOPED_TRACE(path);
            const Probe p = probe(row);
            ASSERT_FALSE(p.outside.empty()); // every row of a file is bounded
            for (const double v : p.outside) {
                const std::string text = sceneWith(row, formatValue(v), perAgent);
                SCOPED_TRACE(text);
                try {
                    (void)scene::parseScene(text, "t.json");
                    ADD_FAILURE() << "loaded";
                } catch (const scene::SceneError& e) {
                    EXPECT_EQ(e.jsonPath(), path);
                }
            }
            for (const double v : p.inside) {
                const std::string text = sceneWith(row, formatValue(v), perAgent);
                SCOPED_TRACE(text);
                const scene::Scene s = scene::parseScene(text, "t.json").scene;
                EXPECT_EQ(loadedValue(row, s, perAgent), v);
            }
        }
    }
}

TEST(ParametersScene, LoaderMessagesSayTheRange) {
    auto messageOf = [](std::string_view name, const std::string& value) {
        try {
            (void)scene::parseScene(sceneWith(*findParameter(name), value, false), "t.json");
        } catch (const scene::SceneError& e) {
            return e.message();
        }
        return std::string("loaded");
    };
    EXPECT_EQ(messageOf("simulation.staticResponsibility", "1.25"),
              "expected a number in (0, 1], got 1.25");
    EXPECT_EQ(messageOf("simulation.timeStep", "0"), "expected a number in [1e-6, 1e7], got 0");
    EXPECT_EQ(messageOf("detour.enterSpeedRatio", "2"), "expected a number in [0, 1], got 2");
    EXPECT_EQ(messageOf("detour.exitAlignedDegrees", "90.5"),
              "expected a number of degrees in [0, 90], got 90.5");
    EXPECT_EQ(messageOf("detour.cellSize", "-1"), "expected a number >= 0 (not negative), got -1");
    EXPECT_EQ(messageOf("detour.stillSeconds", "1e8"),
              "the value 100000000 is out of range (values must lie within -1e7..1e7)");
    EXPECT_EQ(messageOf("agent.maxNeighbors", "2147483648"),
              "the value 2147483648 is too large (at most 2147483647)");
    EXPECT_EQ(messageOf("agent.maxNeighbors", "1.5"),
              "expected a non-negative integer, got number 1.5");
    EXPECT_EQ(messageOf("agent.goalRadius", "-1"), "expected a number >= 0 (not negative), got -1");
}

TEST(ParametersScene, DetourReportsLowerBoundsBeforeUpperOnes) {
    // As before the table: every number against its lower bound first, then the upper bounds.
    const std::string text = R"({"format": "orca-scene", "version": 1,
        "detour": {"enterSpeedRatio": 2, "stillSeconds": -1}, "agents": []})";
    try {
        (void)scene::parseScene(text, "t.json");
        ADD_FAILURE() << "loaded";
    } catch (const scene::SceneError& e) {
        EXPECT_EQ(e.jsonPath(), "detour.stillSeconds");
    }
}

TEST(ParametersScene, AgentKeysAreTheTables) {
    std::vector<std::string_view> keys;
    scene::AgentOverrides o;
    AgentParams p;
    scene::forEachAgentParam(o, p,
                             [&](std::string_view key, auto&, auto&) { keys.push_back(key); });
    std::vector<std::string_view> rows;
    for (const ParamRow& row : parameterTable(ParamScope::Agent))
        rows.push_back(row.name);
    EXPECT_EQ(keys, rows);
}

TEST(ParametersScene, SavedBlocksFollowTheTable) {
    scene::Scene s;
    s.simulation.params.responsibility = 0.75;
    s.simulation.params.detour.enabled = true;
    const std::string text = scene::serializeScene(s);
    // The simulation block: timeStep always, the other rows when not at their default.
    EXPECT_NE(text.find("\"simulation\": {\n    \"timeStep\": 0.25,\n    \"responsibility\": "
                        "0.75\n  }"),
              std::string::npos)
        << text;
    // The detour block: every row, in table order.
    std::size_t at = text.find("\"detour\": {");
    ASSERT_NE(at, std::string::npos) << text;
    for (const ParamRow& row : parameterTable(ParamScope::Detour)) {
        std::string key = "\"";
        key.append(row.name).append("\": ");
        const std::size_t next = text.find(key, at);
        EXPECT_NE(next, std::string::npos) << row.name;
        at = next;
    }
    EXPECT_NE(text.find("\"enabled\": true"), std::string::npos);
    EXPECT_NE(text.find("\"neighborFallback\": false"), std::string::npos);
}

TEST(ParametersScene, LinterFindsEachInvalidSimulationRow) {
    for (const ParamRow& row : parameterTable()) {
        if (row.scope == ParamScope::Agent || row.kind == ParamKind::Boolean) continue;
        SCOPED_TRACE(qualifiedName(row));
        scene::Scene s;
        row.setSimulation(s.simulation.params, -1.0);
        const std::vector<scene::LintIssue> issues = scene::lintScene(s);
        bool found = false;
        for (const scene::LintIssue& issue : issues) {
            if (issue.rule != "simulation-invalid") continue;
            found = true;
            EXPECT_EQ(issue.jsonPath, qualifiedName(row));
            EXPECT_EQ(issue.fixLabel, "Reset to default (" + formatValue(row.defaultValue) + ")");
            EXPECT_TRUE(scene::applyLintFix(s, issue));
            EXPECT_EQ(row.getSimulation(s.simulation.params), row.defaultValue);
        }
        EXPECT_TRUE(found);
    }
}

TEST(ParametersScene, CompareSetTakesAgentAndSimulationRows) {
    const SimulationParams base;
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(qualifiedName(row));
        BranchChange c;
        std::string error;
        const bool ok = c.set(std::string(row.name) + "=1", base, error);
        EXPECT_EQ(ok, row.scope != ParamScope::Detour) << error;
        // Qualified names are not branch names.
        EXPECT_FALSE(c.set(qualifiedName(row) + "=1", base, error));
    }
    BranchChange c;
    std::string error;
    EXPECT_TRUE(c.set("tau=3", base, error));
    EXPECT_EQ(c.agentOverrides.timeHorizon, 3.0);
    EXPECT_FALSE(c.set("maxNeighbors=2.5", base, error));
    EXPECT_EQ(error, "maxNeighbors must be an integer");
}

} // namespace
} // namespace orca
