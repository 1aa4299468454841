// The Parameters panel takes its labels, drag ranges, formats and tooltips from the parameter
// table (orca/parameters.hpp) through ui::paramWidget, a pure function.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "orca/parameters.hpp"
#include "orca/ui/params_panel.hpp"

namespace orca::ui {
namespace {

TEST(ParamsPanel, EveryWidgetComesFromItsRow) {
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(std::string(row.name));
        const ParamWidget w = paramWidget(row, row.defaultValue);
        EXPECT_EQ(w.label, row.ui.label);
        EXPECT_EQ(w.tooltip.rfind(std::string(row.doc) + '\n', 0), 0u) << w.tooltip;
        if (row.kind == ParamKind::Boolean) continue;
        EXPECT_EQ(w.min, row.ui.min);
        EXPECT_EQ(w.max, row.ui.max);
        EXPECT_NE(w.tooltip.find("valid: " + formatRange(row.range)), std::string::npos);
        EXPECT_NE(w.tooltip.find("default: " + formatValue(row.defaultValue)), std::string::npos);
        if (!row.unit.empty()) {
            EXPECT_NE(w.tooltip.find("unit: " + std::string(row.unit)), std::string::npos);
        }
        if (row.ui.speed > 0.0) {
            EXPECT_EQ(w.speed, static_cast<float>(row.ui.speed));
        } else {
            // 0.5 % of the value, at least 0.001.
            EXPECT_FLOAT_EQ(paramWidget(row, 100.0).speed, 0.5f);
            EXPECT_FLOAT_EQ(paramWidget(row, 0.0).speed, 0.001f);
        }
    }
}

// What the panel showed before the table (labels, drag ranges, formats): the same pixels.
TEST(ParamsPanel, LabelsRangesAndFormatsAreAsBefore) {
    using Want = std::tuple<const char*, const char*, double, double, const char*>;
    const std::vector<Want> want = {
        {"timeStep", "time step (s)", 0.001, 10.0, "%.4f"},
        {"responsibility", "responsibility", 0.01, 1.0, "%.3f"},
        {"staticResponsibility", "static responsibility", 0.01, 1.0, "%.3f"},
        {"lp3BisectorWeight", "LP3 bisector weight", 0.01, 100.0, "%.3f"},
        {"cellSize", "cell size", 0.0, 100.0, "%.3f"},
        {"influenceRadius", "influence radius", 0.0, 1000.0, "%.3f"},
        {"enterSpeedRatio", "enter speed ratio", 0.0, 1.0, "%.3f"},
        {"enterGoalDistance", "enter goal distance", 0.0, 1000.0, "%.3f"},
        {"sampleDistance", "sample distance", 0.0, 100.0, "%.3f"},
        {"exitAlignedDegrees", "exit aligned (deg)", 0.0, 90.0, "%.3f"},
        {"exitGoalDistance", "exit goal distance", 0.0, 1000.0, "%.3f"},
        {"stillSpeed", "still speed", 0.0, 100.0, "%.3f"},
        {"stillSeconds", "still seconds", 0.0, 1000.0, "%.3f"},
        {"radius", "radius", 0.001, 1e4, "%.3f"},
        {"maxSpeed", "max speed", 0.0, 1e4, "%.3f"},
        {"prefSpeed", "pref speed", 0.0, 1e4, "%.3f"},
        {"neighborDist", "neighbour dist", 0.0, 1e5, "%.3f"},
        {"maxNeighbors", "max neighbours", 0.0, 10000.0, "%d"},
        {"timeHorizon", "time horizon (s)", 0.001, 1e4, "%.3f"},
        {"timeHorizonObst", "obst. horizon (s)", 0.001, 1e4, "%.3f"},
        {"goalRadius", "goal radius", -1.0, 1e4, "auto: radius (%.3g)"}, // default -1
    };
    for (const auto& [name, label, lo, hi, format] : want) {
        SCOPED_TRACE(name);
        const ParamRow* row = findParameter(name);
        ASSERT_NE(row, nullptr);
        const ParamWidget w = paramWidget(*row, row->defaultValue);
        EXPECT_EQ(w.label, label);
        EXPECT_EQ(w.min, lo);
        EXPECT_EQ(w.max, hi);
        EXPECT_EQ(w.format, format);
    }
    EXPECT_EQ(paramWidget(*findParameter("maxNeighbors"), 10.0).speed, 0.2f);
    EXPECT_EQ(paramWidget(*findParameter("enabled"), 0.0).label, "enabled (D)");
    EXPECT_EQ(paramWidget(*findParameter("neighborFallback"), 0.0).label, "neighbour fallback");
}

// What the drag shows (ImGui prints the value with the widget's format).
std::string shown(const char* name, double value) {
    const ParamWidget w = paramWidget(*findParameter(name), value);
    char buf[64];
    std::snprintf(buf, sizeof buf, w.format.c_str(), value);
    return buf;
}

// A negative goal or waypoint radius is a stand-in for the agent's radius (twice it for a
// waypoint), not a length: the field says so instead of "-1.000".
TEST(ParamsPanel, NegativeGoalAndWaypointRadiiShowWhatTheyStandFor) {
    EXPECT_EQ(shown("goalRadius", -1.0), "auto: radius (-1)");
    EXPECT_EQ(shown("waypointRadius", -1.0), "auto: 2 x radius (-1)");
    EXPECT_EQ(shown("goalRadius", -0.25), "auto: radius (-0.25)");
    // Real lengths stay lengths.
    EXPECT_EQ(shown("goalRadius", 0.5), "0.500");
    EXPECT_EQ(shown("waypointRadius", 0.0), "0.000");
    EXPECT_EQ(shown("radius", 0.5), "0.500");
}

TEST(ParamsPanel, AgentRowsMapToAgentFields) {
    for (const ParamRow& row : parameterTable()) {
        SCOPED_TRACE(std::string(row.name));
        const AgentField f = agentFieldOf(row);
        if (row.scope != ParamScope::Agent) {
            EXPECT_EQ(f, AgentField::Count);
            continue;
        }
        ASSERT_NE(f, AgentField::Count);
        EXPECT_EQ(fieldName(f), row.name);
        // An edit of the field writes the row's member, and sameField sees it.
        AgentDef a;
        AgentDef b;
        const double v = row.defaultValue + 2.0;
        applyAgentEdit(b, AgentEdit{f, v, {}, false});
        EXPECT_EQ(row.getAgent(b.params), v);
        EXPECT_FALSE(sameField(a, b, f));
        EXPECT_TRUE(sameField(b, b, f));
    }
    AgentDef d;
    applyAgentEdit(d, AgentEdit{AgentField::MaxNeighbors, 6.6, {}, false});
    EXPECT_EQ(d.params.maxNeighbors, 7);
}

} // namespace
} // namespace orca::ui
