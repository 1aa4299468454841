#pragma once
/// \file diagnosis_json.hpp
/// JSON form of a diagnosis (what `orca diagnose` prints; docs/diagnosis.md shows an example).
/// Agents and obstacles are named by their index (agent / obstacle order = file order for a
/// loaded scene); line cases use explain_json's names. Part of `orca_scene` (nlohmann/json).

#include <nlohmann/json.hpp>

#include "orca/diagnosis.hpp"

namespace orca {

/// One binding half-plane: {"line", "source": "agent" | "obstacle", "agent" and "static" or
/// "obstacle" and "segment", "case", "slack", "point", "direction", "distance",
/// "timeToCollision" (null = never)}.
[[nodiscard]] nlohmann::ordered_json toJson(const BindingConstraint& b);
/// The whole diagnosis: {"agent", "step", "class", "sentence", "suggestion", "binding",
/// "speedLimitBinding", "responsibleAgents", "responsibleObstacles", "suggestedValue",
/// "suggestedAgent", "suggestedGoal", "waypoints", "measures"}.
/// Non-finite numbers (n/a, never) are null.
[[nodiscard]] nlohmann::ordered_json toJson(const Diagnosis& d);

} // namespace orca
