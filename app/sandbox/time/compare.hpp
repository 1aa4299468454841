#pragma once
// Compare in the sandbox: a branch split off the current step with changed parameters
// (orca::Comparison), following the original run in lockstep as it steps and seeks, drawn as
// ghost outlines, its metrics beside the original's in the Compare window.

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/scene/compare.hpp"
#include "orca/ui/compare_panel.hpp"

#include "cache_stamp.hpp"
#include "time/fix_trial.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;

struct CompareState {
    Comparison comparison;
    ui::CompareForm form;
    std::string error;   ///< the last rejected branch
    RunMetrics original; ///< measured for `stamp`
    RunMetrics branch;
    CacheStamp stamp; ///< the state version the metrics were measured for
    /// The branch is a diagnosis's fix (Why? -> Try fix): its label ("" for a NAME=VALUE one).
    std::string fixLabel;
    FixTrialState trial; ///< Try fix's verdict (fix_trial.hpp)
};

/// Splits a branch off the current step: `assignments` are NAME=VALUE (BranchChange::set), for
/// the selected agents only when `selectedOnly`. False with `error` when one is rejected.
bool startBranch(SandboxContext& ctx, const std::vector<std::string>& assignments,
                 bool selectedOnly, std::string& error);
/// Ends the branch (a new recording or an edit of the original makes it meaningless).
void stopBranch(SandboxContext& ctx);
/// Brings the branch to the original's current step (after a step or a seek).
void followBranch(SandboxContext& ctx);
/// The Compare window (when open).
void drawCompareWindow(SandboxContext& ctx);
/// The branch's agents as ghost outlines in the world view (when a branch is active).
void drawBranchWorld(SandboxContext& ctx, ImDrawList& dl);
/// The state dump's "compare" block (null without a branch).
[[nodiscard]] nlohmann::ordered_json compareJson(const SandboxContext& ctx);

} // namespace orca::app
