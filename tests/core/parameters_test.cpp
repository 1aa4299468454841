// The parameter table (orca/parameters.hpp): rows against the structs, every row's check at
// its bounds, NaN and infinity, and the Simulator's messages.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>
#include <string>

#include "orca/parameters.hpp"
#include "orca/simulator.hpp"

namespace orca {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
const double kNaN = std::nan("");

TEST(Parameters, OneRowPerMemberInMemberOrder) {
    std::vector<std::string> names;
    for (const ParamRow& row : parameterTable())
        names.push_back(qualifiedName(row));
    EXPECT_EQ(names, (std::vector<std::string>{"simulation.timeStep",
                                               "simulation.responsibility",
                                               "simulation.staticResponsibility",
                                               "simulation.lp3BisectorWeight",
                                               "detour.enabled",
                                               "detour.cellSize",
                                               "detour.influenceRadius",
                                               "detour.enterSpeedRatio",
                                               "detour.enterGoalDistance",
                                               "detour.sampleDistance",
                                               "detour.exitAlignedDegrees",
                                               "detour.exitGoalDistance",
                                               "detour.neighborFallback",
                                               "detour.stillSpeed",
                                               "detour.stillSeconds",
                                               "agent.radius",
                                               "agent.maxSpeed",
                                               "agent.prefSpeed",
                                               "agent.neighborDist",
                                               "agent.maxNeighbors",
                                               "agent.timeHorizon",
                                               "agent.timeHorizonObst",
                                               "agent.goalRadius",
                                               "agent.waypointRadius",
                                               "agent.avoidanceWeight"}));
    std::size_t total = 0;
    for (ParamScope s : {ParamScope::Simulation, ParamScope::Detour, ParamScope::Agent}) {
        for (const ParamRow& row : parameterTable(s))
            EXPECT_EQ(row.scope, s) << row.name;
        total += parameterTable(s).size();
    }
    EXPECT_EQ(total, parameterTable().size());
    std::set<std::string_view> unique;
    for (const ParamRow& row : parameterTable())
        unique.insert(row.name);
    EXPECT_EQ(unique.size(), parameterTable().size()) << "plain names must be unique";
}

TEST(Parameters, DefaultsAreTheStructsDefaults) {
    const SimulationParams s;
    const AgentParams a;
    for (const ParamRow& row : parameterTable()) {
        EXPECT_EQ(row.defaultValue, valueOf(row, s, a)) << row.name;
        EXPECT_TRUE(check(row, row.defaultValue).empty()) << row.name;
    }
    // And the values themselves (RVO2's Circle example; detour off).
    auto d = [](std::string_view name) { return findParameter(name)->defaultValue; };
    EXPECT_EQ(d("timeStep"), 0.25);
    EXPECT_EQ(d("responsibility"), 0.5);
    EXPECT_EQ(d("staticResponsibility"), 0.5);
    EXPECT_EQ(d("lp3BisectorWeight"), 1.0);
    EXPECT_EQ(d("enabled"), 0.0);
    EXPECT_EQ(d("enterSpeedRatio"), 0.25);
    EXPECT_EQ(d("exitAlignedDegrees"), 10.0);
    EXPECT_EQ(d("stillSpeed"), 0.05);
    EXPECT_EQ(d("stillSeconds"), 1.0);
    EXPECT_EQ(d("radius"), 1.5);
    EXPECT_EQ(d("maxSpeed"), 2.0);
    EXPECT_EQ(d("prefSpeed"), 1.0);
    EXPECT_EQ(d("neighborDist"), 15.0);
    EXPECT_EQ(d("maxNeighbors"), 10.0);
    EXPECT_EQ(d("timeHorizon"), 10.0);
    EXPECT_EQ(d("timeHorizonObst"), 10.0);
    EXPECT_EQ(d("goalRadius"), -1.0);
}

TEST(Parameters, KindsFollowTheMemberTypes) {
    for (const ParamRow& row : parameterTable()) {
        const bool isBool = row.name == "enabled" || row.name == "neighborFallback";
        const ParamKind want = isBool                       ? ParamKind::Boolean
                               : row.name == "maxNeighbors" ? ParamKind::Integer
                                                            : ParamKind::Real;
        EXPECT_EQ(row.kind, want) << row.name;
    }
}

TEST(Parameters, AccessorsReadAndWriteTheirMember) {
    for (const ParamRow& row : parameterTable()) {
        SimulationParams s;
        AgentParams a;
        const double v = row.kind == ParamKind::Boolean ? 1.0 : row.defaultValue + 3.0;
        if (row.scope == ParamScope::Agent) {
            ASSERT_NE(row.setAgent, nullptr);
            EXPECT_EQ(row.getSimulation, nullptr);
            row.setAgent(a, v);
            EXPECT_NE(a, AgentParams{}) << row.name;
        } else {
            ASSERT_NE(row.setSimulation, nullptr);
            EXPECT_EQ(row.getAgent, nullptr);
            row.setSimulation(s, v);
            EXPECT_NE(s, SimulationParams{}) << row.name;
        }
        EXPECT_EQ(valueOf(row, s, a), v) << row.name;
        // Exactly one member changed: every other row still reads its default.
        for (const ParamRow& other : parameterTable()) {
            if (&other != &row) {
                EXPECT_EQ(valueOf(other, s, a), other.defaultValue) << other.name;
            }
        }
    }
    AgentParams a;
    findParameter("maxNeighbors")->setAgent(a, 6.6);
    EXPECT_EQ(a.maxNeighbors, 7);
}

TEST(Parameters, FindByPlainAndQualifiedName) {
    ASSERT_NE(findParameter("timeStep"), nullptr);
    EXPECT_EQ(findParameter("simulation.timeStep"), findParameter("timeStep"));
    EXPECT_EQ(findParameter("detour.cellSize")->scope, ParamScope::Detour);
    EXPECT_EQ(findParameter("agent.radius")->name, "radius");
    EXPECT_EQ(findParameter("agent.timeStep"), nullptr);
    EXPECT_EQ(findParameter("detour.radius"), nullptr);
    EXPECT_EQ(findParameter("tau"), nullptr);
    EXPECT_EQ(findParameter(""), nullptr);
    EXPECT_EQ(findParameter("radiusx"), nullptr);
}

/// The largest double below / the smallest above v.
double below(double v) {
    return std::nextafter(v, -kInf);
}
double above(double v) {
    return std::nextafter(v, kInf);
}

TEST(Parameters, EveryCheckAcceptsItsBoundsAndRejectsBeyond) {
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(std::string(row.name));
        const ParamRange& r = row.range;
        EXPECT_FALSE(check(row, kNaN).empty());
        EXPECT_FALSE(check(row, kInf).empty());
        EXPECT_FALSE(check(row, -kInf).empty());
        if (row.kind == ParamKind::Boolean) {
            EXPECT_TRUE(check(row, 0.0).empty());
            EXPECT_TRUE(check(row, 1.0).empty());
            EXPECT_FALSE(check(row, 0.5).empty());
            EXPECT_FALSE(check(row, 2.0).empty());
            EXPECT_FALSE(check(row, -1.0).empty());
            continue;
        }
        const bool integer = row.kind == ParamKind::Integer;
        const double step = integer ? 1.0 : 0.0; // 0: the next double
        auto next = [&](double v) { return integer ? v + step : above(v); };
        auto prev = [&](double v) { return integer ? v - step : below(v); };
        if (r.hasMin()) {
            EXPECT_EQ(check(row, r.min).empty(), !r.minOpen) << r.min;
            EXPECT_TRUE(check(row, next(r.min)).empty()) << next(r.min);
            EXPECT_FALSE(check(row, prev(r.min)).empty()) << prev(r.min);
        } else {
            EXPECT_TRUE(check(row, -1e300).empty());
            EXPECT_TRUE(check(row, -std::numeric_limits<double>::max()).empty());
        }
        if (r.hasMax()) {
            EXPECT_EQ(check(row, r.max).empty(), !r.maxOpen) << r.max;
            EXPECT_TRUE(check(row, prev(r.max)).empty()) << prev(r.max);
            EXPECT_FALSE(check(row, next(r.max)).empty()) << next(r.max);
        } else if (integer) {
            EXPECT_TRUE(check(row, std::numeric_limits<int>::max()).empty());
            EXPECT_FALSE(check(row, std::numeric_limits<int>::max() + 1.0).empty());
        } else {
            EXPECT_TRUE(check(row, 1e300).empty());
            EXPECT_TRUE(check(row, std::numeric_limits<double>::max()).empty());
        }
        if (integer) {
            EXPECT_FALSE(check(row, row.defaultValue + 0.5).empty());
        }
        // The file range is never wider than what the Simulator accepts, except a default
        // sentinel the file writes by omission.
        const ParamRange& f = row.fileRange;
        if (f.hasMin()) {
            EXPECT_TRUE(check(row, f.minOpen ? next(f.min) : f.min).empty());
        }
        if (f.hasMax()) {
            EXPECT_TRUE(check(row, f.maxOpen ? prev(f.max) : f.max).empty());
        }
        EXPECT_TRUE(f.hasMin() && f.hasMax()) << "a file number is bounded (±1e7)";
    }
}

TEST(Parameters, RangesReadInIntervalNotation) {
    EXPECT_EQ(formatRange(findParameter("timeStep")->range), "[1e-6, inf)");
    EXPECT_EQ(formatRange(findParameter("timeStep")->fileRange), "[1e-6, 1e7]");
    EXPECT_EQ(formatRange(findParameter("responsibility")->range), "(0, 1]");
    EXPECT_EQ(formatRange(findParameter("enterSpeedRatio")->range), "[0, 1]");
    EXPECT_EQ(formatRange(findParameter("maxNeighbors")->fileRange), "[0, 2147483647]");
    EXPECT_EQ(formatRange(findParameter("goalRadius")->range), "(-inf, inf)");
    EXPECT_EQ(formatValue(0.05), "0.05");
    EXPECT_EQ(formatValue(1e-5), "1e-5");
    EXPECT_EQ(formatValue(-1.0), "-1");
}

// The Simulator's messages, as they were before the table (pinned here byte for byte).
TEST(Parameters, SimulatorMessagesAreUnchanged) {
    auto simError = [](auto&& edit) {
        SimulationParams p;
        edit(p);
        Simulator sim;
        try {
            sim.setParams(p);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(simError([](SimulationParams& p) { p.timeStep = 0.0; }),
              "timeStep must be a finite number >= 1e-6 (timeStep = 0.000000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.timeStep = kInf; }),
              "timeStep must be a finite number >= 1e-6 (timeStep = inf)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.responsibility = 1.5; }),
              "responsibility must be in (0, 1] (responsibility = 1.500000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.staticResponsibility = kNaN; }),
              "staticResponsibility must be in (0, 1] (staticResponsibility = nan)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.lp3BisectorWeight = -2.0; }),
              "lp3BisectorWeight must be a finite number > 0 (lp3BisectorWeight = -2.000000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.detour.cellSize = -1.0; }),
              "detour.cellSize must be a finite number >= 0 (cellSize = -1.000000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.detour.stillSeconds = kInf; }),
              "detour.stillSeconds must be a finite number >= 0 (stillSeconds = inf)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.detour.enterSpeedRatio = 1.5; }),
              "detour.enterSpeedRatio must be in [0, 1] (enterSpeedRatio = 1.500000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.detour.exitAlignedDegrees = 100.0; }),
              "detour.exitAlignedDegrees must be in [0, 90] (exitAlignedDegrees = 100.000000)");
    EXPECT_EQ(simError([](SimulationParams& p) { p.detour.enabled = true; }), "(accepted)");

    auto agentError = [](auto&& edit) {
        AgentDef d;
        edit(d.params);
        Simulator sim;
        try {
            (void)sim.addAgent(d);
        } catch (const InvalidArgument& e) {
            return std::string(e.what());
        }
        return std::string("(accepted)");
    };
    EXPECT_EQ(agentError([](AgentParams& p) { p.radius = 0.0; }),
              "agent radius must be > 0 (radius = 0.000000)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.maxSpeed = -1.0; }),
              "agent maxSpeed must be >= 0 (maxSpeed = -1.000000)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.prefSpeed = kNaN; }),
              "agent prefSpeed must be >= 0 (prefSpeed = nan)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.neighborDist = -kInf; }),
              "agent neighborDist must be >= 0 (neighborDist = -inf)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.maxNeighbors = -3; }),
              "agent maxNeighbors must be >= 0 (maxNeighbors = -3)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.timeHorizon = 0.0; }),
              "agent timeHorizon must be > 0 (timeHorizon = 0.000000)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.timeHorizonObst = -0.5; }),
              "agent timeHorizonObst must be > 0 (timeHorizonObst = -0.500000)");
    EXPECT_EQ(agentError([](AgentParams& p) { p.goalRadius = kInf; }),
              "agent goalRadius is not finite");
    EXPECT_EQ(agentError([](AgentParams& p) { p.goalRadius = -5.0; }), "(accepted)");
}

TEST(Parameters, CheckHelpersReportTheFirstError) {
    EXPECT_EQ(checkSimulationParams(SimulationParams{}), "");
    EXPECT_EQ(checkAgentParams(AgentParams{}), "");
    SimulationParams s;
    s.responsibility = 0.0;
    s.timeStep = -1.0;
    EXPECT_EQ(checkSimulationParams(s).rfind("timeStep", 0), 0u);
    AgentParams a;
    a.goalRadius = kNaN;
    a.maxSpeed = -1.0;
    EXPECT_EQ(checkAgentParams(a).rfind("agent maxSpeed", 0), 0u);
    EXPECT_EQ(check(*findParameter("maxNeighbors"), 2.5),
              "agent maxNeighbors must be an integer (maxNeighbors = 2.500000)");
    EXPECT_EQ(check(*findParameter("enabled"), 0.5),
              "detour.enabled must be true or false (enabled = 0.500000)");
}

// The linter's wording of the simulation and detour ranges ("... but must be X").
TEST(Parameters, RequirementsReadAsTheLinterSaysThem) {
    auto req = [](std::string_view name) { return requirement(*findParameter(name)); };
    EXPECT_EQ(req("timeStep"), "a finite number >= 1e-6");
    EXPECT_EQ(req("responsibility"), "in (0, 1]");
    EXPECT_EQ(req("lp3BisectorWeight"), "a finite number > 0");
    EXPECT_EQ(req("cellSize"), "a finite number >= 0");
    EXPECT_EQ(req("enterSpeedRatio"), "in [0, 1]");
    EXPECT_EQ(req("exitAlignedDegrees"), "in [0, 90]");
    EXPECT_EQ(req("radius"), "> 0");
    EXPECT_EQ(req("maxNeighbors"), ">= 0");
    EXPECT_EQ(req("goalRadius"), "finite");
    EXPECT_EQ(req("enabled"), "true or false");
}

TEST(Parameters, EveryRowIsDocumentedAndHasAPanelRange) {
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(std::string(row.name));
        EXPECT_FALSE(row.doc.empty());
        EXPECT_EQ(row.doc.find('\n'), std::string_view::npos) << "one line";
        EXPECT_FALSE(row.ui.label.empty());
        if (row.kind == ParamKind::Boolean) continue;
        EXPECT_LT(row.ui.min, row.ui.max);
        // The panel's soft range lies within the valid range, and holds the default.
        EXPECT_TRUE(check(row, row.ui.min).empty()) << row.ui.min;
        EXPECT_TRUE(check(row, row.ui.max).empty()) << row.ui.max;
        EXPECT_LE(row.ui.min, row.defaultValue);
        EXPECT_GE(row.ui.max, row.defaultValue);
        EXPECT_GE(row.ui.speed, 0.0);
    }
}

} // namespace
} // namespace orca
