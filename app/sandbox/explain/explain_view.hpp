#pragma once
// The explain part of the sandbox's context: the selection, what the solver will decide for
// it (dry-run explain records), the hovered agent and half-plane, construction and solve mode.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/explain_overlay.hpp"
#include "orca/ui/solve_view.hpp"

#include "cache_stamp.hpp"
#include "explain/selection.hpp"
#include "session.hpp"

namespace orca::app {

struct ExplainView {
    Selection selection;
    /// The selected agents' records (selection order), refreshed when the state version or
    /// the selection changes (refreshRecords).
    std::vector<ExplainRecord> records;
    CacheStamp recordsStamp;
    ui::ConstructionState construction;
    /// Solve mode: the primary record then carries its LP trace (refreshRecords asks for it).
    ui::SolveState solve;
    ui::OverlayHover overlayHover; ///< last frame's hover (world or panel), highlighted
    ui::VelocityPanel velocityPanel;
    std::optional<std::size_t> hoveredAgent; ///< index, this frame
    ExplainRecord hoverRecord;               ///< for the hover tooltip (neighbour count)
    AgentId hoverRecordAgent;
    CacheStamp hoverRecordStamp;
};

/// Makes `records` match the selection and the session's state (dry run, changes nothing).
void refreshRecords(ExplainView& explain, const Session& session);
/// The primary selected agent's record, or nullptr.
[[nodiscard]] const ExplainRecord* primaryRecord(const ExplainView& explain);

} // namespace orca::app
