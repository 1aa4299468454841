#pragma once
// Why? -> Try fix / Apply. Try fix runs one of the diagnosis's fixes as a Compare branch from
// the current step (orca::applyFix on the branch's simulator: ghosts in the world view as the
// run goes on, metrics in the Compare window, B) and, at once, the verdict: the original and the
// fixed run, copied from this step, kTryFixSeconds ahead side by side (scene::verifyFix, on a
// worker thread), in one line. Apply edits the scene with the fix (scene::applyFix) as one
// undoable edit; the run restarts from step 0 as after any scene edit.

#include <cstddef>
#include <cstdint>
#include <future>
#include <optional>
#include <string>

#include "orca/fixes.hpp"
#include "orca/scene/fixes.hpp"

namespace orca::app {

struct SandboxContext;

/// How far ahead Try fix compares the runs (simulated seconds; at most kTryFixMaxSteps steps).
inline constexpr double kTryFixSeconds = 120.0;
inline constexpr std::uint64_t kTryFixMaxSteps = 20'000;

struct FixTrialState {
    std::size_t chosen = 0; ///< the fix the Why? window has chosen
    // The last trial: of which fix, of which agent, from which step.
    std::string label;
    std::size_t fixIndex = 0;
    std::size_t agent = 0;
    std::uint64_t step = 0;
    std::size_t candidates = 0;                  ///< how many fixes the diagnosis offered
    std::future<scene::FixVerification> pending; ///< the verdict being computed
    std::optional<scene::FixVerification> verification;
    std::string error;
    double timeStep = 0.0; ///< Δt of the runs (the verdict's seconds)
};

/// The steps Try fix looks ahead for a run with time step `dt`.
[[nodiscard]] std::uint64_t tryFixSteps(double dt);

/// The verdict in one line, e.g. "After 120 s (1200 steps): at goal 2 -> 16 of 16, stalled
/// 14 -> 0, overlaps 0 -> 0 pair-steps: the fix helps."
[[nodiscard]] std::string fixVerdictLine(const scene::FixVerification& v, double timeStep);

/// Try fix `index` of the current diagnosis (Why?): starts the branch and the verdict. False
/// (with a message) when there is no such fix or the simulator rejects it.
bool tryDiagnosisFix(SandboxContext& ctx, std::size_t index);
/// Apply fix `index` of the current diagnosis to the scene (one undo step). False when refused.
bool applyDiagnosisFix(SandboxContext& ctx, std::size_t index);
/// Collects a finished verdict (every frame; waits for it when `wait`).
void pollFixTrial(SandboxContext& ctx, bool wait = false);

} // namespace orca::app
