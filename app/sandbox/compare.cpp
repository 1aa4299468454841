#include "compare.hpp"

#include "orca/events_json.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

void refreshMetrics(SandboxContext& ctx) {
    CompareState& c = ctx.compare;
    if (c.version == ctx.stateVersion) return;
    c.original = measureRun(ctx.sim, ctx.timeline.history.events(), c.comparison.fromStep());
    c.branch = c.comparison.metrics();
    c.version = ctx.stateVersion;
}

nlohmann::ordered_json metricsJson(const RunMetrics& m) {
    return {{"step", m.step},
            {"agentsAtGoal", m.agentsAtGoal},
            {"overlappingPairs", m.overlappingPairs},
            {"lp3Agents", m.lp3Agents},
            {"events", eventCountsJson(m.eventCounts)}};
}

} // namespace

bool startBranch(SandboxContext& ctx, const std::vector<std::string>& assignments,
                 bool selectedOnly, std::string& error) {
    BranchChange change;
    for (const std::string& a : assignments) {
        if (!change.set(a, ctx.sim.params(), error)) return false;
    }
    if (change.empty()) {
        error = "nothing to change: type NAME=VALUE, e.g. timeHorizon=5";
        return false;
    }
    if (selectedOnly) {
        for (std::size_t i = 0; i < ctx.sim.agentCount(); ++i) {
            if (ctx.selection.contains(ctx.sim.agentIdAt(i))) change.agents.push_back(i);
        }
    }
    try {
        ctx.compare.comparison.start(ctx.sim, change);
    } catch (const InvalidArgument& e) {
        error = e.what();
        return false;
    }
    ctx.compare.version = ~std::uint64_t{0};
    error.clear();
    return true;
}

void stopBranch(SandboxContext& ctx) {
    if (ctx.compare.comparison.active()) ctx.compare.comparison.stop();
}

void followBranch(SandboxContext& ctx) {
    if (ctx.compare.comparison.active()) ctx.compare.comparison.follow(ctx.sim.stepCount());
}

void drawCompareWindow(SandboxContext& ctx) {
    if (!ctx.panels.compare) return;
    CompareState& c = ctx.compare;
    ui::ComparePanelInput in;
    in.active = c.comparison.active();
    in.currentStep = ctx.sim.stepCount();
    in.selectedCount = ctx.selection.size();
    in.error = c.error;
    if (in.active) {
        refreshMetrics(ctx);
        in.fromStep = c.comparison.fromStep();
        in.change = c.comparison.change().describe(ctx.sim.params());
        in.original = c.original;
        in.branch = c.branch;
    }
    const ui::ComparePanelOutput out = ui::drawComparePanel(c.form, in, &ctx.panels.compare);
    if (out.start) {
        ctx.running = false;
        if (startBranch(ctx, *out.start, out.selectedOnly, c.error))
            setNote(ctx, "branch from step " + std::to_string(ctx.sim.stepCount()) + ": " +
                             c.comparison.change().describe(ctx.sim.params()));
    }
    if (out.stop) stopBranch(ctx);
}

void drawBranchWorld(SandboxContext& ctx, ImDrawList& dl) {
    const Comparison& cmp = ctx.compare.comparison;
    if (!cmp.active() || cmp.branch().agentCount() != ctx.sim.agentCount()) return;
    std::vector<double> radii;
    radii.reserve(cmp.branch().agentCount());
    for (const AgentParams& p : cmp.branch().agentParams()) radii.push_back(p.radius);
    ui::drawBranchGhosts(dl, ctx.camera, ctx.sim.positions(), cmp.branch().positions(), radii);
}

nlohmann::ordered_json compareJson(const SandboxContext& ctx) {
    const Comparison& cmp = ctx.compare.comparison;
    if (!cmp.active()) return nullptr;
    const RunMetrics original =
        measureRun(ctx.sim, ctx.timeline.history.events(), cmp.fromStep());
    return {{"from", cmp.fromStep()},
            {"change", cmp.change().describe(ctx.sim.params())},
            {"branchStep", cmp.branch().stepCount()},
            {"branchStateHash", formatStateHash(cmp.branch().stateHash())},
            {"original", metricsJson(original)},
            {"branch", metricsJson(cmp.metrics())}};
}

} // namespace orca::app
