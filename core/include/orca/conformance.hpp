#pragma once
/// \file conformance.hpp
/// Conformance: where does a recorded run depart from ORCA? For every recorded step, ORCA's
/// new velocity is recomputed from the recorded state of the step before (positions,
/// velocities, and the preferred velocities the program gave) and compared with the velocity
/// the run recorded (docs/conformance.md).
///
/// The checker follows the run with a simulator of its own (the "shadow"): before each checked
/// step it takes the recorded positions and velocities, steps once, compares, and then takes
/// the recorded state again, so a deviation never carries into the next step. What a recording
/// does not hold (detour modes and timers, deadlock-breaking timers, route progress) evolves in
/// the shadow as it does in our simulator, which makes our own runs conform exactly; after a
/// step that deviated, the shadow takes that step again with the recorded velocities
/// (Simulator::stepWithVelocities), so those states follow the recorded run, not ORCA's answer.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "orca/simulator.hpp"
#include "orca/state.hpp"
#include "orca/types.hpp"

namespace orca {

/// The tolerance for runs recorded in double (ConformanceOptions::tolerance): our own runs
/// differ by exactly 0, RVO2 compiled with double by at most 5e-11 m/s in the crowds measured
/// (docs/conformance.md).
inline constexpr double kExactConformanceTolerance = 1e-9;
/// The tolerance for runs recorded in float (RVO2's own state, float32 recordings): float
/// round-off, amplified by nearly parallel half-planes, moves RVO2's answers by up to 0.0129 m/s
/// (0.65 % of maxSpeed) on its Circle example against ORCA in double.
inline constexpr double kFloatConformanceTolerance = 2e-2;

struct ConformanceOptions {
    /// A velocity deviates when |recorded − ORCA| > tolerance × max(1, the agent's maxSpeed)
    /// (m/s). kExactConformanceTolerance for runs recorded in double, kFloatConformanceTolerance
    /// for runs recorded in float. Finite and >= 0.
    double tolerance = kExactConformanceTolerance;
    /// Keep every deviation (ConformanceReport::deviations), not only the first.
    bool keepAll = false;
};

/// One agent-step whose recorded velocity is not ORCA's.
struct ConformanceDeviation {
    std::uint64_t step = 0; ///< the recorded step whose velocity was checked
    std::size_t agent = 0;  ///< index in agent order
    Vec2 recorded{0.0};     ///< the velocity the run recorded after the step
    Vec2 orca{0.0};         ///< ORCA's new velocity from the recorded state before it
    double difference = 0.0;
};

/// A goal agent whose recorded preferred velocity is not the one its goal or route gives.
/// (Goal agents steer by their goal in the shadow, as in our simulator; the recorded value is
/// only compared.)
struct PrefVelocityMismatch {
    std::uint64_t step = 0;
    std::size_t agent = 0;
    Vec2 recorded{0.0};
    Vec2 fromGoal{0.0};
};

struct ConformanceReport {
    std::uint64_t steps = 0; ///< steps checked
    std::size_t agents = 0;  ///< the most agents a checked step had
    std::uint64_t checkedAgentSteps = 0;
    std::uint64_t deviatingAgentSteps = 0;
    double maxDifference = 0.0;        ///< over every checked agent-step (m/s)
    std::uint64_t uncheckedFrames = 0; ///< frames taken as a new base (first, edits, gaps)
    std::optional<ConformanceDeviation> firstDeviation;
    std::vector<ConformanceDeviation> deviations; ///< all of them, with keepAll
    std::uint64_t prefMismatchAgentSteps = 0;
    std::optional<PrefVelocityMismatch> firstPrefMismatch;
};

/// The recorded preferred velocities of one step, as the check uses them: each agent without
/// a goal takes its own (Simulator::setPrefVelocity); goal agents and static agents keep
/// theirs (a goal agent steers by its goal or route, as in our simulator). `prefVelocity` in
/// agent order, the simulator's agent count (std::invalid_argument otherwise).
void applyRecordedPrefVelocities(Simulator& sim, std::span<const Vec2> prefVelocity);

/// Checks a run frame by frame. Give it the configuration (begin), then every recorded frame
/// in order (frame): a frame whose step number follows the base's is checked against it and
/// becomes the next base; any other frame (the first, an edited state recorded with the same
/// step number, a gap) only becomes the base.
class ConformanceChecker {
  public:
    /// Called once, for the first deviation, with the shadow in the state the decision was
    /// made from (the recorded state before the step, its preferred velocities set): explain
    /// the agent from it (Simulator::explain) for the record.
    using FirstDeviationHook =
        std::function<void(const ConformanceDeviation&, const Simulator& before)>;

    explicit ConformanceChecker(ConformanceOptions options = {});

    /// Starts following a configuration: `shadow` holds it (agents in the recording's agent
    /// order) and its state is the base; its step count is the base's step number. Called
    /// again at each configuration change.
    void begin(Simulator shadow);
    /// One recorded frame: the state after step `step` and the preferred velocities that step
    /// was given (empty: the run did not record them; non-goal agents then keep the
    /// configuration's constant ones). Every span has the configuration's agent count
    /// (std::invalid_argument otherwise). Returns the number of deviating agents of this
    /// frame (0 for a frame that only became the base).
    std::size_t frame(std::uint64_t step, std::span<const Vec2> position,
                      std::span<const Vec2> velocity, std::span<const Vec2> prefVelocity);

    void onFirstDeviation(FirstDeviationHook hook) { m_hook = std::move(hook); }
    /// The shadow, in the state of the last frame given (recorded positions and velocities,
    /// the states a recording does not hold as the check followed them): what the next
    /// step's decision is made from, once applyRecordedPrefVelocities gave it that step's
    /// preferred velocities. (To explain a frame's decision, or to resume a check there from
    /// a snapshot: begin() with a simulator restored from shadow().snapshot().)
    [[nodiscard]] const Simulator& shadow() const;
    [[nodiscard]] const ConformanceReport& report() const { return m_report; }
    [[nodiscard]] const ConformanceOptions& options() const { return m_options; }

  private:
    void takeState(std::uint64_t step, std::span<const Vec2> position,
                   std::span<const Vec2> velocity);

    ConformanceOptions m_options;
    ConformanceReport m_report;
    FirstDeviationHook m_hook;
    std::optional<Simulator> m_shadow;
    std::uint64_t m_baseStep = 0;
    SimulatorState m_before; ///< the shadow before the step being checked
};

} // namespace orca
