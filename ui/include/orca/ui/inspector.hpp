#pragma once
/// \file inspector.hpp
/// The inspector: per selected agent, its state and the explain record of its next step
/// (neighbours, half-planes, LP result, v_new).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "orca/explain.hpp"
#include "orca/ui/agent_history.hpp"

namespace orca {
class Simulator;
}

namespace orca::ui {

/// The "Inspector" window. `records` are dry-run explain records of the selected agents
/// (selection order); `names` their user ids from the scene file ("" when none), indexed by
/// agent order (may be empty). The primary agent's section is open by default. With `history`,
/// the primary agent's section starts with its history plots; returns the step clicked in them.
std::optional<std::uint64_t> drawInspector(const Simulator& sim,
                                           std::span<const ExplainRecord> records, AgentId primary,
                                           std::span<const std::string> names, bool* open,
                                           const AgentHistoryView* history = nullptr);

} // namespace orca::ui
