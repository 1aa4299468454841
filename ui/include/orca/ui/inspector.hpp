#pragma once
/// \file inspector.hpp
/// The inspector: per selected agent, its state and the explain record of its next step
/// (neighbours, half-planes, LP result, v_new).

#include <span>
#include <string>
#include <vector>

#include "orca/explain.hpp"

namespace orca {
class Simulator;
}

namespace orca::ui {

/// The "Inspector" window. `records` are dry-run explain records of the selected agents
/// (selection order); `names` their user ids from the scene file ("" when none), indexed by
/// agent order (may be empty). The primary agent's section is open by default.
void drawInspector(const Simulator& sim, std::span<const ExplainRecord> records, AgentId primary,
                   std::span<const std::string> names, bool* open);

} // namespace orca::ui
