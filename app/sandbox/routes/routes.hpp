#pragma once
// Routes in the sandbox: the selected agents' planned routes and the Routes layer's (every goal
// agent), computed once per state and selection and drawn by the world renderer; the Roadmap
// layer's note when the scene routes straight; and waypoint edits (the goal tool's), each one
// undoable scene edit.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "orca/types.hpp"
#include "orca/ui/route_view.hpp"

#include "cache_stamp.hpp"

struct ImDrawList;

namespace orca::app {

struct SandboxContext;

/// A waypoint of the scene: agent index and waypoint index (0-based).
struct WaypointRef {
    std::size_t agent = 0;
    std::size_t index = 0;
    friend bool operator==(const WaypointRef&, const WaypointRef&) = default;
};

struct RoutesState {
    /// The Routes layer's routes, for the state version they were computed for.
    VersionedCache<ui::RouteSet> all;
    /// The selected agents' routes, for `selectedStamp` and the selection `selectedFor`.
    ui::RouteSet selected;
    CacheStamp selectedStamp;
    std::vector<std::size_t> selectedFor;
    double allMs = 0.0; ///< what the last computation of `all` cost (ms)
    /// The goal tool's selected waypoint (Delete removes it).
    std::optional<WaypointRef> waypoint;
};

/// The routes to draw this frame: the selected agents' and, with the Routes layer on, every
/// goal agent's; recomputed only when the state version or the selection changed.
[[nodiscard]] ui::WorldRoutes refreshRoutes(SandboxContext& ctx);

/// The Roadmap layer's note in the world view when there is no roadmap to draw (straight
/// routing, or no obstacles).
void drawRoadmapNote(SandboxContext& ctx, ImDrawList& dl);

/// Where the pointer is on the selected agents' routes (goal tool; the scene's routes at step
/// 0, as edits see them).
struct RouteHit {
    enum class Kind : std::uint8_t { None, Waypoint, Leg };
    Kind kind = Kind::None;
    WaypointRef ref; ///< Waypoint: that waypoint; Leg: the waypoint index an insert would take
    Vec2 point{0.0, 0.0};
};
[[nodiscard]] RouteHit pickRoute(const SandboxContext& ctx, Vec2 screen);

/// Waypoint edits of the scene, each one undoable step (marks the document unsaved); false
/// (with a note saying why) when refused.
bool insertWaypointEdit(SandboxContext& ctx, WaypointRef at, Vec2 point);
bool moveWaypointEdit(SandboxContext& ctx, WaypointRef ref, Vec2 point);
bool removeWaypointEdit(SandboxContext& ctx, WaypointRef ref);
/// Appends a waypoint to the primary selected agent's route (just before its goal).
bool appendWaypointEdit(SandboxContext& ctx, Vec2 point);

} // namespace orca::app
