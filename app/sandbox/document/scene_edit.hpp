#pragma once
// Parameter edits applied to both the running simulator and the loaded scene (so Restart and
// Save keep them), and tracking of unsaved changes.

#include <span>
#include <string>

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
