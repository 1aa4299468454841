#pragma once
/// \file why_panel.hpp
/// "Why?": the core's diagnosis of the primary agent (orca::diagnoseAt) shown in a small
/// window — class, the plain sentence, the suggested fix, the binding half-planes and the
/// agents behind it — and drawn in both views: the binding half-planes emphasised (in the
/// world view around the agent and in the velocity panel) and the responsible neighbours
/// ringed in the world.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <imgui.h>

#include "orca/diagnosis.hpp"
#include "orca/explain.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/palette.hpp"

namespace orca::ui {

/// Draws the half-planes `lines` (indices into rec.lines) emphasised in velocity space (the
/// "why" colour over a dark halo; with `labels`, "bk" beside line k — added to `layout` when
/// given, else placed and drawn here). Out-of-range indices are skipped.
/// `colour` and the label's `prefix` replace the why colour and "b" when given (e.g. the
/// half-planes a recorded velocity violates).
void drawBindingLines(ImDrawList& dl, const VelocityTransform& t, const Rect& clip,
                      const ExplainRecord& rec, std::span<const std::size_t> lines,
                      bool labels = true, LabelLayout* layout = nullptr,
                      const Rgba* colour = nullptr, const char* prefix = "b");

/// A neighbour to ring in the world view.
struct WhyAgentRing {
    Vec2 position{0.0, 0.0};
    double radius = 0.0;
    std::uint32_t index = 0;
};

/// World view: the binding half-planes around the agent (as drawExplainInWorld places velocity
/// space, `style.worldSeconds`) and rings round the responsible agents, labelled (through
/// `style.labels` when set).
void drawWhyInWorld(ImDrawList& dl, const Camera& camera, const ExplainRecord& rec,
                    std::span<const std::size_t> lines, std::span<const WhyAgentRing> agents,
                    const OverlayStyle& style);

/// The fixes part of the window: which of the diagnosis's fixes is chosen and how trying it
/// went (the app runs the trial; the window only shows it).
struct WhyFixView {
    std::size_t chosen = 0; ///< index into Diagnosis::fixes
    bool running = false;   ///< the chosen fix's trial is running
    /// One line: the trial's before/after (empty: not tried at this step).
    std::string verdict;
    bool improved = false; ///< the verdict says the fix helps
    /// Index of the fix to offer when the tried one did not help (none: no other candidate).
    std::optional<std::size_t> next;
};

struct WhyWindowOutput {
    std::optional<std::uint32_t> selectAgent; ///< an agent of the diagnosis was clicked
    std::optional<std::size_t> choose;        ///< a fix was chosen in the list
    std::optional<std::size_t> tryFix;        ///< Try fix (or Try the next) was clicked
    std::optional<std::size_t> applyFix;      ///< Apply was clicked
};

/// The "Why?" window for diagnosis `d` (nullptr: `status` says why there is none, e.g. no
/// agent selected). `open` as in ImGui::Begin. With `fixes` (and fixes in `d`), the fixes are
/// listed with Try fix and Apply, and the trial's verdict below them.
WhyWindowOutput drawWhyWindow(const Diagnosis* d, const std::string& status, bool* open,
                              const WhyFixView* fixes = nullptr);

} // namespace orca::ui
