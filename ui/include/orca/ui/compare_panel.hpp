#pragma once
/// \file compare_panel.hpp
/// The Compare window: split a branch off the current step with changed parameters (the whole
/// scene's or the selected agents'), run it in lockstep, and read both runs' metrics and event
/// counts side by side. The branch itself (orca::Comparison) lives in the app; this file only
/// draws — the window, and the branch's agents as ghost outlines in the world view.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/scene/compare.hpp"
#include "orca/ui/camera.hpp"

struct ImDrawList;

namespace orca::ui {

/// What the user types in the window (kept between frames).
struct CompareForm {
    std::string assignments = "timeHorizon=5"; ///< "NAME=VALUE, NAME=VALUE"
    bool selectedOnly = false;                 ///< only the selected agents' parameters
};

struct ComparePanelInput {
    bool active = false;
    std::uint64_t currentStep = 0;
    std::uint64_t fromStep = 0;
    std::string change; ///< the active branch's change, described
    std::size_t selectedCount = 0;
    RunMetrics original;
    RunMetrics branch; ///< valid when active
    std::string error; ///< the last rejected start, shown in red
};

struct ComparePanelOutput {
    /// Start a branch with these assignments (already split at commas), for the selected agents
    /// only when `selectedOnly`.
    std::optional<std::vector<std::string>> start;
    bool selectedOnly = false;
    bool stop = false;
};

/// Splits "a=1, b=2" into {"a=1", "b=2"} (empty parts dropped, spaces trimmed).
[[nodiscard]] std::vector<std::string> splitAssignments(const std::string& text);

/// The "Compare" window.
ComparePanelOutput drawComparePanel(CompareForm& form, const ComparePanelInput& in, bool* open);

/// The branch's agents as dashed-looking ghost outlines (culled to the view), and a thin line
/// from each original agent to its ghost where they differ by more than a pixel.
void drawBranchGhosts(ImDrawList& dl, const Camera& camera, std::span<const Vec2> original,
                      std::span<const Vec2> branch, std::span<const double> radii);

} // namespace orca::ui
