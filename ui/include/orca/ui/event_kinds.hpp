#pragma once
/// \file event_kinds.hpp
/// The kinds of event the timeline bar and the Events panel show: the core's (orca::EventKind,
/// found by the event detector) and, after them, the app's own **deviation**: a recorded
/// velocity that is not ORCA's (a recording's conformance check, docs/sandbox.md,
/// "Recordings"). The core's enum has no such kind, so the app gives it the value after the
/// core's last one (an enum with a fixed underlying type holds every value of that type).
///
/// A deviation event is filed at the frame its decision was made from (frame k − 1 for the
/// velocity recorded at frame k): going to it shows the decision beside the recorded velocity.
/// Its `value` is |recorded − ORCA| (m/s), its agent the one that deviated.

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "orca/events.hpp"

namespace orca::ui {

/// The deviation event's kind (after the core's kinds).
inline constexpr EventKind kDeviationEvent = static_cast<EventKind>(kEventKindCount);
/// Kinds shown: the core's and the deviation.
inline constexpr std::size_t kShownEventKindCount = kEventKindCount + 1;

/// "deviation" for the deviation kind, else the core's name (orca::toString).
[[nodiscard]] inline std::string_view eventKindName(EventKind kind) {
    return kind == kDeviationEvent ? std::string_view("deviation") : toString(kind);
}

/// How many positions after its own the step an event names lies: 1 for a deviation (filed at
/// the frame its decision was made from, it names the recorded step of the next frame), else 0.
[[nodiscard]] inline std::uint64_t namedStepOffset(EventKind kind) {
    return kind == kDeviationEvent ? 1 : 0;
}

} // namespace orca::ui
