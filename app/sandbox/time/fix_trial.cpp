#include "time/fix_trial.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <exception>
#include <utility>

#include "sandbox.hpp"

namespace orca::app {

namespace {

std::string arrow(std::size_t a, std::size_t b) {
    return std::to_string(a) + " -> " + std::to_string(b);
}

} // namespace

std::uint64_t tryFixSteps(double dt) {
    if (!(dt > 0.0)) return 1;
    const double steps = std::ceil(kTryFixSeconds / dt - 1e-9);
    return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(steps), 1, kTryFixMaxSteps);
}

std::string fixVerdictLine(const scene::FixVerification& v, double timeStep) {
    char head[96];
    std::snprintf(head, sizeof head,
                  "After %g s (%llu steps): ", static_cast<double>(v.steps) * timeStep,
                  static_cast<unsigned long long>(v.steps));
    std::string line = head;
    line += "at goal " + arrow(v.before.agentsAtGoal, v.after.agentsAtGoal) + " of " +
            std::to_string(v.after.goalAgents);
    line += ", stalled " + arrow(v.before.stalledAgents, v.after.stalledAgents);
    line += ", overlaps " + std::to_string(v.before.overlapPairSteps) + " -> " +
            std::to_string(v.after.overlapPairSteps) + " pair-steps";
    if (v.improved)
        line += ": the fix helps.";
    else if (v.after.agentsAtGoal == v.before.agentsAtGoal &&
             v.after.stalledAgents == v.before.stalledAgents)
        line += ": no better - this fix does not help here.";
    else
        line += ": worse - this fix does not help here.";
    return line;
}

bool tryDiagnosisFix(SandboxContext& ctx, std::size_t index) {
    const Diagnosis* d = currentDiagnosis(ctx);
    if (!d || index >= d->fixes.size()) {
        setNote(ctx.windows, "Try fix: no fix to try (ask Why? for a selected agent first)");
        return false;
    }
    whatIfSettle(ctx);
    ctx.session.running = false;
    const DiagnosisFix& fix = d->fixes[index];
    const Simulator& sim = ctx.session.sim;
    Simulator original;
    original.restore(sim.snapshot());
    Simulator fixed;
    fixed.restore(sim.snapshot());
    try {
        applyFix(fixed, fix);
        ctx.compare.comparison.start(fixed, BranchChange{});
    } catch (const std::exception& e) {
        ctx.windows.messages.push("Try fix", fix.label + ": " + e.what());
        return false;
    }
    FixTrialState& t = ctx.compare.trial;
    if (t.pending.valid()) t.pending.wait(); // the previous verdict is dropped
    t.chosen = index;
    t.label = fix.label;
    t.fixIndex = index;
    t.agent = d->agent;
    t.step = sim.stepCount();
    t.candidates = d->fixes.size();
    t.verification.reset();
    t.error.clear();
    t.timeStep = sim.params().timeStep;
    const std::uint64_t steps = tryFixSteps(t.timeStep);
    t.pending =
        std::async(std::launch::async, [o = std::move(original), f = std::move(fixed), steps]() {
            return scene::verifyFix(o, f, steps, 1);
        });
    ctx.compare.fixLabel = fix.label;
    ctx.compare.stamp.invalidate();
    setNote(ctx.windows, "Trying \"" + fix.label + "\" as a branch from step " +
                             std::to_string(t.step) + " (ghosts; Compare window: B)");
    if (!ctx.interactive) pollFixTrial(ctx, true);
    return true;
}

bool applyDiagnosisFix(SandboxContext& ctx, std::size_t index) {
    const Diagnosis* d = currentDiagnosis(ctx);
    if (!d || index >= d->fixes.size()) {
        setNote(ctx.windows, "Apply: no fix to apply (ask Why? for a selected agent first)");
        return false;
    }
    const DiagnosisFix fix = d->fixes[index];
    scene::Scene after = ctx.doc.scene;
    try {
        scene::applyFix(after, fix);
    } catch (const std::exception& e) {
        ctx.windows.messages.push("Apply fix", fix.label + ": " + e.what());
        return false;
    }
    if (!commitScene(ctx, std::move(after), "Apply fix: " + fix.label)) {
        setNote(ctx.windows, "Apply: \"" + fix.label + "\" changes nothing in the scene");
        return false;
    }
    setNote(ctx.windows, "Applied \"" + fix.label +
                             "\" to the scene (Ctrl+Z undoes it); the run "
                             "restarted from step 0");
    return true;
}

void pollFixTrial(SandboxContext& ctx, bool wait) {
    FixTrialState& t = ctx.compare.trial;
    if (!t.pending.valid()) return;
    if (!wait && t.pending.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return;
    try {
        t.verification = t.pending.get();
    } catch (const std::exception& e) {
        t.error = std::string("the trial stopped: ") + e.what();
    }
}

} // namespace orca::app
