#include "time/compare.hpp"

#include "orca/scene/events_json.hpp"
#include "sandbox.hpp"

namespace orca::app {

namespace {

void refreshMetrics(SandboxContext& ctx) {
    CompareState& c = ctx.compare;
    if (!c.stamp.stale(ctx.session.stateVersion)) return;
    c.original =
        measureRun(ctx.session.sim, ctx.timeline.history.events(), c.comparison.fromStep());
    c.branch = c.comparison.metrics();
    c.stamp.refresh(ctx.session.stateVersion);
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
    if (ctx.playback.active) {
        error = "a recording's run cannot be branched: its states come from the file, not from "
                "simulating (Simulation > Continue live makes this frame a scene first)";
        return false;
    }
    BranchChange change;
    for (const std::string& a : assignments) {
        if (!change.set(a, ctx.session.sim.params(), error)) return false;
    }
    if (change.empty()) {
        error = "nothing to change: type NAME=VALUE, e.g. timeHorizon=5";
        return false;
    }
    if (selectedOnly) {
        for (std::size_t i = 0; i < ctx.session.sim.agentCount(); ++i) {
            if (ctx.explain.selection.contains(ctx.session.sim.agentIdAt(i)))
                change.agents.push_back(i);
        }
    }
    try {
        ctx.compare.comparison.start(ctx.session.sim, change);
    } catch (const InvalidArgument& e) {
        error = e.what();
        return false;
    }
    ctx.compare.fixLabel.clear();
    ctx.compare.stamp.invalidate();
    error.clear();
    return true;
}

void stopBranch(SandboxContext& ctx) {
    if (ctx.compare.comparison.active()) ctx.compare.comparison.stop();
    ctx.compare.fixLabel.clear();
}

void followBranch(SandboxContext& ctx) {
    if (!ctx.compare.comparison.active()) return;
    try {
        ctx.compare.comparison.follow(ctx.session.sim.stepCount());
    } catch (const NonFiniteState& e) {
        // The branch cannot go on (the core's guard); the comparison ends, the run goes on.
        ctx.compare.comparison.stop();
        ctx.windows.messages.push("The branch stopped", e.what());
    }
}

void drawCompareWindow(SandboxContext& ctx) {
    if (!ctx.windows.panels.compare) return;
    CompareState& c = ctx.compare;
    ui::ComparePanelInput in;
    in.active = c.comparison.active();
    in.currentStep = ctx.session.sim.stepCount();
    in.selectedCount = ctx.explain.selection.size();
    in.error = c.error;
    if (in.active) {
        refreshMetrics(ctx);
        in.fromStep = c.comparison.fromStep();
        in.change = c.fixLabel.empty() ? c.comparison.change().describe(ctx.session.sim.params())
                                       : "fix: " + c.fixLabel;
        in.original = c.original;
        in.branch = c.branch;
    }
    const ui::ComparePanelOutput out =
        ui::drawComparePanel(c.form, in, &ctx.windows.panels.compare);
    if (out.start) {
        ctx.session.running = false;
        if (startBranch(ctx, *out.start, out.selectedOnly, c.error))
            setNote(ctx.windows, "branch from step " + std::to_string(ctx.session.sim.stepCount()) +
                                     ": " +
                                     c.comparison.change().describe(ctx.session.sim.params()));
    }
    if (out.stop) stopBranch(ctx);
}

void drawBranchWorld(SandboxContext& ctx, ImDrawList& dl) {
    const Comparison& cmp = ctx.compare.comparison;
    if (!cmp.active() || cmp.branch().agentCount() != ctx.session.sim.agentCount()) return;
    std::vector<double> radii;
    radii.reserve(cmp.branch().agentCount());
    for (const AgentParams& p : cmp.branch().agentParams())
        radii.push_back(p.radius);
    ui::drawBranchGhosts(dl, ctx.view.camera, ctx.session.sim.positions(), cmp.branch().positions(),
                         radii);
}

nlohmann::ordered_json compareJson(const SandboxContext& ctx) {
    const Comparison& cmp = ctx.compare.comparison;
    if (!cmp.active()) return nullptr;
    const RunMetrics original =
        measureRun(ctx.session.sim, ctx.timeline.history.events(), cmp.fromStep());
    return {{"from", cmp.fromStep()},
            {"change", ctx.compare.fixLabel.empty()
                           ? cmp.change().describe(ctx.session.sim.params())
                           : "fix: " + ctx.compare.fixLabel},
            {"branchStep", cmp.branch().stepCount()},
            {"branchStateHash", formatStateHash(cmp.branch().stateHash())},
            {"original", metricsJson(original)},
            {"branch", metricsJson(cmp.metrics())}};
}

} // namespace orca::app
