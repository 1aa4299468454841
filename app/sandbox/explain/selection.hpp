#pragma once
// Which agents are selected (by stable id), how a click changes that, and the keyboard walk
// through construction mode.

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"
#include "orca/types.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/explain_overlay.hpp"

namespace orca {
class Simulator;
}

namespace orca::app {

class Selection {
  public:
    /// Plain click: only `id`; Shift+click (`toggle`): add `id`, or remove it when selected.
    /// The clicked agent becomes the primary one (when removed: the last remaining).
    void click(AgentId id, bool toggle);
    /// Plain click on empty space.
    void clickEmpty(bool toggle) {
        if (!toggle) clear();
    }
    void clear();
    void set(std::vector<AgentId> ids); ///< primary = last
    [[nodiscard]] bool contains(AgentId id) const;
    [[nodiscard]] bool empty() const { return m_ids.empty(); }
    [[nodiscard]] std::size_t size() const { return m_ids.size(); }
    /// In selection order.
    [[nodiscard]] std::span<const AgentId> ids() const { return m_ids; }
    /// The last clicked agent still selected (null id when none).
    [[nodiscard]] AgentId primary() const { return m_primary; }

    /// Agent-order indices of the selection in `sim` (invalid ids skipped) and of the primary.
    [[nodiscard]] std::vector<std::size_t> indices(const Simulator& sim) const;
    [[nodiscard]] std::optional<std::size_t> primaryIndex(const Simulator& sim) const;
    /// Remaps the selection from one simulator to another by agent index (restart: the new
    /// simulator holds the same agents in the same order under new ids). Indices past the end
    /// are dropped.
    void remap(const Simulator& from, const Simulator& to);
    /// Drops ids that `sim` no longer holds.
    void prune(const Simulator& sim);

  private:
    std::vector<AgentId> m_ids;
    AgentId m_primary;
};

/// "2,0,5" -> {2, 0, 5} (--select). Returns an error message, empty on success.
[[nodiscard]] std::string parseIndexList(std::string_view text, std::vector<std::size_t>& out);

/// The agent under screen point `screen`: the nearest whose disk (at least `minPixels` in
/// screen radius, so tiny agents stay clickable) contains the point.
[[nodiscard]] std::optional<std::size_t> pickAgent(const Simulator& sim, const ui::Camera& camera,
                                                   Vec2 screen, double minPixels = 4.0);

/// Number of construction phases (VO, + u, half-plane).
inline constexpr int kConstructionPhases = ui::ConstructionState::kPhases;

/// Keeps the construction step inside the record (neighbour index in range).
void clampConstruction(ui::ConstructionState& c, const ExplainRecord* rec);
/// ↑/↓ pick the neighbour (±1, clamped); ←/→ the phase, and past the last (first) phase move
/// on to the next (previous) neighbour.
void stepConstruction(ui::ConstructionState& c, const ExplainRecord* rec, int neighborDelta,
                      int phaseDelta);

} // namespace orca::app
