#pragma once
// Live what-if (inspect tool, paused): drag the tip of an agent's velocity arrow (the selected
// agent's or a neighbour's), the tip of the selected agent's v_pref, or Ctrl+drag an agent's
// body. The simulator itself is changed for the preview, so the dry-run explain record and
// everything drawn follow the drag. Esc reverts; Keep (Enter) commits: a v_pref becomes an
// undoable parameter edit (it cuts the recorded future at a later step); a position or a
// velocity at step 0 becomes an undoable scene edit, at a later step an edit of the run from
// that step on (the recorded future is cut; Ctrl+Z puts it back).

#include <cstddef>
#include <optional>
#include <string>

#include "orca/history.hpp"
#include "orca/state.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;

enum class WhatIfTarget { Position, Velocity, PrefVelocity };

struct WhatIfState {
    bool active = false;   ///< a change is previewed (not kept yet)
    bool dragging = false; ///< the mouse holds a handle
    WhatIfTarget target = WhatIfTarget::Velocity;
    AgentId agent;
    Vec2 grabOffset{0.0, 0.0}; ///< handle point - mouse world point at the grab
    Vec2 value{0.0, 0.0};      ///< the previewed position / velocity / v_pref
    Vec2 originalValue{0.0, 0.0};
    std::optional<SimulatorState> original; ///< the state before the preview
};

/// The handle under the mouse, if any (screen-space hit test; for the hover cursor and tests).
struct WhatIfHandle {
    WhatIfTarget target;
    std::size_t agent; ///< index
    Vec2 point;        ///< world point of the handle
};
[[nodiscard]] std::optional<WhatIfHandle> whatIfHandleAt(const SandboxContext& ctx, Vec2 mouse,
                                                         bool ctrl);
/// Whether handles are offered now (inspect tool, paused, a primary agent, no dialog).
[[nodiscard]] bool whatIfAvailable(const SandboxContext& ctx);
/// Every handle offered now (for the state dump: end-to-end tests drag them).
[[nodiscard]] std::vector<WhatIfHandle> whatIfHandles(const SandboxContext& ctx);
[[nodiscard]] const char* whatIfTargetName(WhatIfTarget t);

/// Mouse handling; true when it took the mouse this frame (the click must not select).
bool whatIfWorldInput(SandboxContext& ctx, Vec2 mouse, bool mouseInWorld);
/// Handles, the dragged arrow and the "what-if" bar (Keep / Revert).
void drawWhatIf(SandboxContext& ctx, ImDrawList& dl, Vec2 mouse, bool mouseInWorld);
/// Sets the previewed value of `target` of agent `agent` (index) as a drag would.
void whatIfSet(SandboxContext& ctx, WhatIfTarget target, std::size_t agent, Vec2 value);
/// Esc: back to the state before the preview. False when nothing was previewed.
bool whatIfRevert(SandboxContext& ctx);
/// Enter / Keep: commits the previewed change (see the file comment). False when none.
bool whatIfKeep(SandboxContext& ctx);
/// Anything that steps, seeks or edits keeps a pending preview first (call before).
void whatIfSettle(SandboxContext& ctx);

} // namespace orca::app
