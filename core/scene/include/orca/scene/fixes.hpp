#pragma once
/// \file fixes.hpp
/// A diagnosis's fix (orca/fixes.hpp) applied to a scene file from step 0 (`orca diagnose
/// --fix-out`), its JSON, and the proof that it helps: the original and the fixed run side by
/// side for N steps (`orca diagnose --verify N`, the app's Try fix). docs/diagnosis.md, "Fixes".
///
/// Target `orca_scene`.

#include <cstddef>
#include <cstdint>

#include <nlohmann/json.hpp>

#include "orca/fixes.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

/// Applies a fix to `scene` as an edit of the file: a parameter for every agent goes into
/// agentDefaults (and the agents' overrides of that key are dropped), waypoints replace the
/// agent's route after its first `kept` ones, routing and deadlock breaking go into the
/// simulation block, an obstacle's vertices are replaced. Agent and obstacle indices are the
/// scene's. Throws std::invalid_argument (a sentence) for an index out of range, an unknown
/// parameter, or a value the format does not accept; `scene` is then unchanged.
void applyFix(Scene& scene, const DiagnosisFix& fix);

/// How a run ends up after some steps.
struct RunOutcome {
    std::size_t goalAgents = 0;
    std::size_t agentsAtGoal = 0;
    /// Goal agents not at their goal that have moved slower than 5 % of their prefSpeed for the
    /// last 2 s (the `stalled` event's rule) at the end.
    std::size_t stalledAgents = 0;
    /// Sum over the steps of the number of overlapping agent pairs.
    std::uint64_t overlapPairSteps = 0;
};

/// The original and the fixed run, side by side.
struct FixVerification {
    std::uint64_t steps = 0;
    RunOutcome before; ///< the original run
    RunOutcome after;  ///< the fixed run
    /// More agents at their goal; or as many, and fewer stalled.
    bool improved = false;
};

/// Runs `original` and `fixed` (copies: the arguments are not changed) `steps` steps in
/// lockstep with `threads` worker threads and compares how they end. NonFiniteState from either
/// run propagates.
[[nodiscard]] FixVerification verifyFix(const Simulator& original, const Simulator& fixed,
                                        std::uint64_t steps, int threads = 1);

[[nodiscard]] nlohmann::ordered_json toJson(const DiagnosisFix& fix);
[[nodiscard]] nlohmann::ordered_json toJson(const RunOutcome& outcome);
[[nodiscard]] nlohmann::ordered_json toJson(const FixVerification& verification);

} // namespace orca::scene
