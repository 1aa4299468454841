// The metrics ring buffer and the samples the sandbox records per step.
#include <gtest/gtest.h>

#include <filesystem>
#include <limits>

#include "orca/ui/metrics_panel.hpp"

#include "sandbox.hpp"

using orca::ui::MetricsHistory;
using orca::ui::MetricsSample;

TEST(MetricsHistory, KeepsTheLastNOldestFirst) {
    MetricsHistory h(4);
    EXPECT_EQ(h.size(), 0u);
    EXPECT_EQ(h.latest(), nullptr);
    for (std::uint64_t i = 1; i <= 6; ++i) {
        MetricsSample s;
        s.step = i;
        h.push(s);
    }
    ASSERT_EQ(h.size(), 4u);
    EXPECT_EQ(h.at(0).step, 3u);
    EXPECT_EQ(h.at(3).step, 6u);
    EXPECT_EQ(h.latest()->step, 6u);
    h.clear();
    EXPECT_EQ(h.size(), 0u);
}

TEST(MetricsHistory, StepsRecordSamplesAndClearanceOnlyWhenThePanelIsOpen) {
    using namespace orca::app;
    SandboxContext ctx;
    std::string error;
    ASSERT_TRUE(loadSceneFile(
        ctx, std::filesystem::path(ORCA_SOURCE_DIR) / "scenes" / "crossing.json", error))
        << error;
    stepSimulation(ctx, 3);
    ASSERT_EQ(ctx.session.metricsHistory.size(), 3u);
    EXPECT_FALSE(ctx.session.metricsHistory.at(0).hasClearance);
    EXPECT_EQ(ctx.session.metricsHistory.at(2).step, 3u);
    EXPECT_EQ(ctx.session.metricsHistory.at(2).goalAgents, 12u);
    ctx.windows.panels.metrics = true;
    stepSimulation(ctx, 1);
    EXPECT_TRUE(ctx.session.metricsHistory.latest()->hasClearance);
    EXPECT_GT(ctx.session.metricsHistory.latest()->minClearance, 0.0);
    ctx.requests.restart = true;
    applyRequests(ctx);
    EXPECT_EQ(ctx.session.metricsHistory.size(), 0u);
}

// A small overlap is an overlap: "%.3f" printed -0.0004 as "-0.000", which reads as none.
TEST(MetricsFormat, SmallOverlapsKeepTheirDigits) {
    using orca::ui::formatClearance;
    EXPECT_EQ(formatClearance(-0.0004), "-0.0004");
    EXPECT_EQ(formatClearance(0.00042), "0.00042");
    EXPECT_EQ(formatClearance(-3e-5), "-3e-05");
    EXPECT_EQ(formatClearance(-0.00004, 4), "-4e-05");
    // Values the decimals show, and zero, as before.
    EXPECT_EQ(formatClearance(-0.002), "-0.002");
    EXPECT_EQ(formatClearance(0.25), "0.250");
    EXPECT_EQ(formatClearance(-0.0004, 4), "-0.0004");
    EXPECT_EQ(formatClearance(0.0), "0.000");
    EXPECT_EQ(formatClearance(std::numeric_limits<double>::infinity()), "-");
}
