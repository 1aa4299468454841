#pragma once
/// \file explain_json.hpp
/// JSON form of an explain record (what `orca explain` prints): agents and obstacles are named
/// by their index in the simulator's order (= file order for a loaded scene). Part of
/// `orca_scene` (nlohmann/json).

#include <span>

#include <nlohmann/json.hpp>

#include "orca/explain.hpp"
#include "orca/simulator.hpp"

namespace orca {

/// A number, or null when it is not finite (JSON has no NaN or infinity; +inf is e.g. "never
/// collides"). Every JSON the scene library and the CLI print spells such numbers this way.
[[nodiscard]] nlohmann::ordered_json finiteOrNull(double v);
/// A vector as [x, y].
[[nodiscard]] nlohmann::ordered_json toJson(Vec2 v);
/// Points as [[x, y], ...] (a polyline, a polygon, a list of waypoints).
[[nodiscard]] nlohmann::ordered_json toJsonPoints(std::span<const Vec2> points);
/// A velocity obstacle (relative velocity space plus the offset to absolute space).
[[nodiscard]] nlohmann::ordered_json toJson(const VelocityObstacle& vo);
/// The whole record; `sim` maps ids to indices (agents/obstacles removed since the record was
/// made appear as null).
[[nodiscard]] nlohmann::ordered_json toJson(const ExplainRecord& rec, const Simulator& sim);

} // namespace orca
