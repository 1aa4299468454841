#pragma once
/// \file detour_policy.hpp
/// The detour state machine of a step (docs/core.md, "Detour flow field"): which agents feed
/// the field, the exit checks and the field sample before an agent's solve, the enter check
/// after it, and the mode and still-time bookkeeping after the move. It reads the simulator's
/// pre-step state through its public accessors only, so Simulator::step() and the explain
/// path share one set of rules.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "orca/detour.hpp"
#include "orca/explain.hpp"
#include "orca/geometry.hpp"
#include "orca/simulator.hpp"

namespace orca::detail {

struct Neighbor;

/// The detour field's sources in a state: agents marked static, and agents with no goal (or
/// at it) that have been still for `DetourParams::stillSeconds`.
struct DetourSources {
    std::vector<std::uint32_t> indices; ///< agent indices, in agent order
    std::vector<std::uint8_t> isSource; ///< per agent: 1 for a source
    /// Hash of the set (indices, positions), the agents' version and the field's parameters.
    std::uint64_t signature = 0;

    /// The sources of `sim`'s current state. `agentsVersion` changes whenever agents are added,
    /// removed or edited.
    void find(const Simulator& sim, std::uint64_t agentsVersion);
    /// No sources (detour off): every agent's flag is 0.
    void none(std::size_t agentCount) { isSource.assign(agentCount, 0); }
    /// True when `field`, built for the signature `builtFor`, is not the field of these sources.
    [[nodiscard]] bool stale(const DetourField& field, std::uint64_t builtFor) const {
        return signature != builtFor || field.empty() != indices.empty();
    }
};

/// Builds the field of `sources` (cell size and influence radii from the parameters, or
/// derived from the agents' radii).
void buildDetourField(const Simulator& sim, std::span<const std::uint32_t> sources,
                      DetourField& field);

/// The per-agent rules of one decision, around the ORCA solve.
class DetourPolicy {
  public:
    DetourPolicy(const Simulator& sim, const DetourField& field,
                 std::span<const std::uint8_t> isSource);

    /// True when agent i follows the rules in this decision (detour on and it has a goal).
    [[nodiscard]] bool applies(std::size_t i) const {
        return m_params.enabled && m_sim.hasGoalAt(i);
    }
    /// Before the solve: exit checks and the field sample; returns the v_pref to hand to ORCA.
    /// `neighbors` are the agent's neighbours (for the fallback).
    Vec2 prefVelocity(std::size_t i, Vec2 goalPref, std::span<const Neighbor> neighbors,
                      ExplainDetour& info) const;
    /// After the solve: the enter check; sets info.nextMode and info.reason.
    void afterSolve(std::size_t i, Vec2 newVelocity, ExplainDetour& info) const;
    /// The outcome for a moving agent the rules do not apply to: normal next, and `Disabled`
    /// as the reason when it was detouring.
    /// (Inline: the step calls it for every moving agent.)
    void notApplied(std::size_t i, ExplainDetour& info) const {
        info.nextMode = DetourMode::Normal;
        info.reason = m_sim.detourModeAt(i) != DetourMode::Normal ? DetourReason::Disabled
                                                                  : DetourReason::None;
    }

  private:
    const Simulator& m_sim;
    const DetourParams& m_params;
    const DetourField& m_field;
    std::span<const std::uint8_t> m_isSource;
};

/// After the move, per agent: the mode for the next step, the last transition's reason (kept
/// when this decision had none), and how long the agent has been below the still speed.
inline void advanceDetourState(std::uint8_t nextMode, std::uint8_t reason, Vec2 velocity, double dt,
                               double stillSpeedSq, std::uint8_t& mode, std::uint8_t& lastReason,
                               double& stillSeconds) {
    mode = nextMode;
    if (reason != 0) lastReason = reason;
    stillSeconds = absSq(velocity) < stillSpeedSq ? stillSeconds + dt : 0.0;
}

} // namespace orca::detail
