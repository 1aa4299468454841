#pragma once
/// \file events_json.hpp
/// JSON form of events (what `orca events` prints; format in docs/events.md). Part of
/// `orca_scene` (nlohmann/json).
///
/// An event is {"step", "kind", "agents", "obstacle", "value"}: agents as an array of indices
/// in agent order (= file order for a loaded scene; empty for the overlap-flood kinds),
/// obstacle as an index in obstacle order or null, value a number (shortest round-trip text,
/// so it parses back bit for bit).

#include <array>
#include <cstddef>
#include <span>

#include <nlohmann/json.hpp>

#include "orca/events.hpp"

namespace orca {

/// {"step": 12, "kind": "overlap-begin", "agents": [3, 7], "obstacle": null, "value": 0.25}.
/// A non-finite value (never produced by EventDetector) is written as null.
[[nodiscard]] nlohmann::ordered_json toJson(const Event& event);
/// The events as a JSON array, in the given order.
[[nodiscard]] nlohmann::ordered_json toJson(std::span<const Event> events);
/// Counts per kind as {"overlap-begin": n, "overlap-end": n, "overlap-flood-begin": n, ...,
/// "detour-exit": n} (every kind, enum order: kEventKindCount members).
[[nodiscard]] nlohmann::ordered_json
eventCountsJson(const std::array<std::size_t, kEventKindCount>& counts);
/// The event `j` describes (the inverse of toJson(const Event&)). Throws
/// nlohmann::json::exception (type_error / out_of_range) for a missing or mistyped member and
/// std::invalid_argument for an unknown kind or a null value.
[[nodiscard]] Event eventFromJson(const nlohmann::ordered_json& j);

} // namespace orca
