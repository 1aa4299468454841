#pragma once
// Parameter edits applied to both the running simulator and the loaded scene (so Restart and
// Save keep them), and tracking of unsaved changes.

#include <span>
#include <string>

#include "orca/scene/history.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"
#include "orca/ui/params_panel.hpp"

namespace orca::app {

/// Applies `edit` to every agent in `ids` (invalid ids skipped): the simulator's agent (its
/// current position and velocity are kept) and the scene's agent at the same index (the
/// per-agent override, the static flag, goal / prefVelocity). All or nothing: when the core
/// rejects a value (InvalidArgument), every agent is restored, the scene is untouched and
/// `error` says why. The simulator must hold the scene's agents in scene order.
bool applyAgentEdit(scene::Scene& scene, Simulator& sim, std::span<const AgentId> ids,
                    const ui::AgentEdit& edit, std::string& error);

/// Sets the simulation parameters of both. Returns false with `error` when the core rejects
/// them (then neither changes).
bool applySimulationEdit(scene::Scene& scene, Simulator& sim, const SimulationParams& params,
                         std::string& error);

/// scene::SceneEdit::diff(before, after, label), completed so that the edit restores every
/// agent's route: the scene library's diff compares agents without their waypoints, route
/// progress and stall timer (core/scene/src/history.cpp), so an edit of a route alone would be
/// empty and its undo would keep the new route. Agents whose route alone changed get a splice
/// of their own (lists of unchanged length), else the agent list is spliced whole.
[[nodiscard]] scene::SceneEdit sceneEditBetween(const scene::Scene& before,
                                                const scene::Scene& after, std::string label);

// ---- Waypoints (an agent's route, the scene key "waypoints") ---------------------------------

/// Inserts a waypoint at `index` (0 = before the first, size = after the last, just before the
/// goal) of agent `agent`'s route. False with `error` when the agent does not exist, has no
/// goal, is static, the index is past the end, the point is not finite or the agent already
/// has kMaxWaypoints.
bool insertWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, Vec2 point,
                    std::string& error);
/// Moves waypoint `index` of agent `agent` to `point`. False with `error` as above.
bool moveWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, Vec2 point,
                  std::string& error);
/// Removes waypoint `index` of agent `agent` (its route progress, if past it, goes back one).
bool removeWaypoint(scene::Scene& scene, std::size_t agent, std::size_t index, std::string& error);

/// Remembers the scene as last saved (or loaded) and tells whether the current one differs.
/// Comparing whole scenes makes an edit that is undone by hand count as no change.
class UnsavedTracker {
  public:
    void reset(const scene::Scene& saved) {
        m_saved = saved;
        m_unsaved = false;
    }
    /// Recompute after an edit.
    void update(const scene::Scene& current) { m_unsaved = !(current == m_saved); }
    [[nodiscard]] bool unsaved() const { return m_unsaved; }

  private:
    scene::Scene m_saved;
    bool m_unsaved = false;
};

} // namespace orca::app
