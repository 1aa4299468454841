// The path of a step, in the order it runs: the clock says how many steps are owed; what must
// not be left pending when the run moves on (a what-if preview) is settled once, before, by
// the feature that owns it; then each step is stepped, recorded, and what follows the run
// (trails, metrics) refreshed. Nothing else steps the simulator. With a recording open the
// steps are its frames (playback/playback.hpp).

#include <chrono>
#include <cstdio>
#include <string>
#include <utility>

#include "sandbox.hpp"

namespace orca::app {

namespace {

using Clock = std::chrono::steady_clock;

// The clock: the steps owed this frame while running, plus requested single steps.
int stepsOwed(Session& session, double frameSeconds) {
    int steps = 0;
    if (session.running)
        steps = session.clock.stepsFor(frameSeconds, session.sim.params().timeStep,
                                       session.clockSettings);
    else
        session.clock.reset();
    return steps + std::exchange(session.pendingSingleSteps, 0);
}

// The step: false when the core's guard stopped it (the run pauses with a message).
bool stepOnce(SandboxContext& ctx) {
    const auto t0 = Clock::now();
    try {
        ctx.session.sim.step();
    } catch (const NonFiniteState& e) {
        // Valid scenes never get here; if one does, stop rather than draw NaN agents.
        std::fprintf(stderr, "%s\n", e.what());
        ctx.session.running = false;
        ctx.windows.messages.push("The simulation stopped",
                                  std::string(e.what()) +
                                      "\n\nThe simulation is paused here; step back on "
                                      "the timeline or edit the scene.");
        return false;
    }
    ctx.session.stepTiming.add(
        std::chrono::duration<double, std::milli>(Clock::now() - t0).count());
    return true;
}

// The refresh: what follows the run step by step (trails, the metrics' sample).
void refreshAfterStep(SandboxContext& ctx) {
    const StepStats& st = ctx.session.sim.lastStepStats();
    ui::MetricsSample s;
    s.agentsAtGoal = st.agentsAtGoal;
    s.goalAgents = st.goalAgents;
    s.lp3Agents = st.lp3Agents;
    sampleShownState(ctx, s);
}

} // namespace

void sampleShownState(SandboxContext& ctx, ui::MetricsSample s) {
    if (ctx.view.layers.world.trails) ctx.view.renderer.sampleTrails(ctx.session.sim);
    s.step = ctx.session.sim.stepCount();
    if (ctx.windows.panels.metrics) {
        // A pass over all agents: only while somebody looks at it.
        const ClearanceStats c = ctx.session.sim.clearance();
        s.hasClearance = true;
        s.minClearance = c.minAgentClearance;
        s.overlappingPairs = c.overlappingPairs;
    }
    ctx.session.metricsHistory.push(s);
}

void stepSimulation(SandboxContext& ctx, int steps) {
    if (steps <= 0) return;
    if (ctx.playback.active) { // a recording: its next frames, never a simulated step
        playbackStep(ctx, steps);
        return;
    }
    whatIfSettle(ctx); // stepping runs the previewed change: it is kept first
    for (int i = 0; i < steps; ++i) {
        if (!stepOnce(ctx)) break;
        recordStep(ctx);   // the timeline: the recording and the inspector's trace
        followBranch(ctx); // Compare: the branch keeps up with the run
        refreshAfterStep(ctx);
    }
    ++ctx.session.stateVersion;
}

void advanceSimulation(SandboxContext& ctx, double frameSeconds) {
    stepSimulation(ctx, stepsOwed(ctx.session, frameSeconds));
}

} // namespace orca::app
