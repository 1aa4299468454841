#pragma once
/// \file diagnosis.hpp
/// "Why?": a diagnosis of one agent at one step. It names the half-planes that bind the
/// agent's new velocity (with their provenance), picks one class from a fixed list, and says in
/// a plain sentence what is going on and what to change. docs/diagnosis.md has the exact rule
/// of each class and the order in which they are tried.
///
/// The diagnosed decision is the one the agent makes from the simulator's current state (what
/// Simulator::explain returns and `orca explain --steps S` prints), judged together with the
/// agent's recent history (one AgentSample per step, supplied by the caller or collected by
/// diagnoseAfterSteps / diagnoseAt). Diagnosing changes nothing: what-ifs run on a private copy
/// (Simulator::snapshot / restore).
///
/// Indices: agents and obstacles are named by their position in the simulator's order (= file
/// order for a loaded scene), never by id, so the output can be read against the scene file.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "orca/explain.hpp"
#include "orca/fixes.hpp"
#include "orca/simulator.hpp"

namespace orca {

class History;

/// The fixed list of diagnoses, in the order docs/diagnosis.md describes them (not the order
/// in which they are tried: see diagnose()).
enum class DiagnosisClass : std::uint8_t {
    None,               ///< Moving as preferred, or ordinary avoidance: nothing to fix.
    SymmetricDeadlock,  ///< A mirror-image pair heading for each other; neither steps aside.
    StaticWall,         ///< Blocked by static agents (which never give way).
    ObstacleTrap,       ///< v_pref points into an obstacle or a concave pocket.
    CrowdPressure,      ///< LP3 (no velocity satisfies every half-plane) most of the window.
    NeighborTruncation, ///< maxNeighbors reached and a dropped neighbour would constrain v_new.
    ShortHorizon,       ///< An unseen agent within τ, or τ shorter than a step (contacts).
    GoalCircling,       ///< Near the goal, but goalRadius is below what speed and Δt can hit.
    /// Counterflow at a gap narrower than two agents: agents heading through it in opposite
    /// directions press against each other in it or at its mouth.
    BottleneckJam,
    /// Agents (more than a mirror pair) blocking each other for seconds, no obstacle involved.
    GroupDeadlock,
};

/// Number of DiagnosisClass values.
inline constexpr std::size_t kDiagnosisClassCount = 10;

/// Stable kebab-case name: "none", "symmetric-deadlock", "static-wall", "obstacle-trap",
/// "crowd-pressure", "neighbor-truncation", "short-horizon", "goal-circling",
/// "bottleneck-jam", "group-deadlock".
[[nodiscard]] std::string_view toString(DiagnosisClass c);
/// The class with that name (as toString gives it), or nullopt.
[[nodiscard]] std::optional<DiagnosisClass> diagnosisClassFromString(std::string_view name);

/// One step of an agent's recent history (the caller keeps one per step, oldest first).
struct AgentSample {
    /// The velocity chosen in that step (= v after the step; units/s).
    Vec2 velocity{0.0, 0.0};
    /// The preferred velocity handed to the solver in that step, detour substitution included
    /// (units/s).
    Vec2 prefVelocity{0.0, 0.0};
    /// LP2 was infeasible in that step, so LP3 chose the velocity.
    bool lp3 = false;
    /// The agent followed the detour field in that step.
    bool detouring = false;
};

/// Where a binding half-plane came from.
enum class ConstraintSource : std::uint8_t {
    Agent,    ///< An agent neighbour (ExplainLine::otherAgent).
    Obstacle, ///< An obstacle segment (ExplainLine::obstacle, segment).
};

/// A half-plane that holds v_new where it is: with LP2 feasible, one whose boundary passes
/// through v_new (an active constraint); with LP3, one of the lines at the largest violation,
/// or an obstacle line (hard in LP3) through v_new.
struct BindingConstraint {
    /// Index into ExplainRecord::lines (obstacle lines first, then agent lines).
    std::size_t lineIndex = 0;
    ConstraintSource source = ConstraintSource::Agent;
    /// Agent lines: the neighbour's index in agent order.
    std::optional<std::uint32_t> agent;
    /// Agent lines: the neighbour is static (never gives way).
    bool agentStatic = false;
    /// Obstacle lines: the obstacle's index in obstacle order.
    std::optional<std::uint32_t> obstacle;
    /// Obstacle lines: the segment's first vertex within the obstacle.
    std::uint32_t segment = 0;
    /// The geometric case that built the line (explain_json's case names).
    LineCase lineCase = LineCase::AgentCutoffCircle;
    /// det(d, v_new − q) = −violation (velocity units): 0 on the line (LP2's active
    /// constraints, within DiagnosisParams::bindingTolerance), negative when v_new violates it
    /// (LP3's penetration depth).
    double slack = 0.0;
    /// The half-plane (agent's absolute velocity space; permitted side = left).
    Line line;
    /// Agents: centre distance. Obstacles: distance to the segment (world units).
    double distance = 0.0;
    /// Time until contact at the current velocities (s; 0 = overlapping; +inf = never).
    double timeToCollision = 0.0;
};

/// Thresholds of the rules (docs/diagnosis.md). Defaults are what `orca diagnose` uses.
struct DiagnosisParams {
    /// Length of the recent window (s, >= 0): crowd pressure is judged over it.
    double windowSeconds = 2.0;
    /// How much of the agent's past is looked at for persistence (s, >= 0): how long it has
    /// been stalled (`stalledSeconds`) is counted within it.
    double historySeconds = 10.0;
    /// Stalled: a decision whose progress (see `progress`) is below this fraction ...
    double stallProgress = 0.1;
    /// ... in every step of the last stallSeconds (s) makes the agent *stalled*: the blocking
    /// classes are then tried before the configuration ones, and it is never `none`.
    double stallSeconds = 2.0;
    /// A line binds when |det(d, q − v_new)| <= this (velocity units, > 0). LP results lie on
    /// their lines up to rounding (~1e-15 × the velocities), so 1e-6 only absorbs rounding.
    double bindingTolerance = 1e-6;
    /// "Moving as preferred": |v_new − v_pref| <= this × |v_pref| (fraction, >= 0).
    double preferredTolerance = 0.1;
    /// "Hindered": progress along v_pref below this fraction of the reachable preferred speed
    /// min(|v_pref|, maxSpeed) ((0, 1]). The blocking classes need it.
    double hinderedProgress = 0.5;
    /// Crowd pressure when LP3 ran in more than this fraction of the window's decisions
    /// ([0, 1)).
    double lp3Fraction = 0.5;
    /// Mirror images: |v_pref,B − σ(v_pref,A)| and |v_B − σ(v_A)| at most this × the larger
    /// preferred speed, where σ reflects about the perpendicular bisector of the two centres
    /// (fraction, >= 0).
    double mirrorTolerance = 0.05;
    /// Mirror images must head for each other: cos(angle between v_pref,A and p_B − p_A) at
    /// least this ([-1, 1]; 0.5 = within 60°).
    double mirrorApproachCos = 0.5;
    /// Neighbour truncation needs the what-if v_new (every neighbour in range seen) to differ
    /// by more than this × maxSpeed (fraction, >= 0).
    double truncationChange = 0.05;
    /// Goal circling: steps of the unobstructed goal approach that are predicted (>= 1).
    std::uint32_t goalPredictionSteps = 256;
};

/// The diagnosis of one agent at one step.
struct Diagnosis {
    /// The agent's index in agent order.
    std::size_t agent = 0;
    /// Simulator::stepCount() of the diagnosed state (the decision of the next step).
    std::uint64_t step = 0;
    DiagnosisClass cls = DiagnosisClass::None;
    /// What is going on, naming agents and obstacles by index, with numbers.
    std::string sentence;
    /// What to change (a parameter and value, a waypoint, the detour field, a perturbation).
    std::string suggestion;
    /// The binding half-planes, in line order.
    std::vector<BindingConstraint> binding;
    /// |v_new| = maxSpeed (within bindingTolerance): the speed limit binds too.
    bool speedLimitBinding = false;
    /// Agents behind the class (agent order), most relevant first: the mirror partner, the
    /// static agents of the wall, the unseen or dropped neighbours, the crowd's binding lines;
    /// for `none`, the agents it gives way to.
    std::vector<std::uint32_t> responsibleAgents;
    /// Obstacles behind the class (obstacle order).
    std::vector<std::uint32_t> responsibleObstacles;

    // ---- The numbers that justify the class (velocities in units/s, lengths in world units,
    //      times in s). NaN = does not apply. ---------------------------------------------------
    Vec2 position{0.0, 0.0};
    Vec2 velocity{0.0, 0.0};     ///< v before the step.
    Vec2 prefVelocity{0.0, 0.0}; ///< v_pref handed to the solver (detour included).
    Vec2 newVelocity{0.0, 0.0};  ///< v_new.
    double prefSpeed = 0.0;      ///< |v_pref|.
    double speed = 0.0;          ///< |v_new|.
    /// dot(v_new, v̂_pref) / min(|v_pref|, maxSpeed): 1 = full preferred progress (1 when
    /// there is nothing to make: |v_pref| = 0 or maxSpeed = 0).
    double progress = 1.0;
    /// |v_new − v_pref| / |v_pref| (0 when |v_pref| = 0 and v_new = 0).
    double deviation = 0.0;
    bool lp3 = false;      ///< LP3 chose v_new.
    double lp3Depth = 0.0; ///< LP3's largest agent-line violation (0 without LP3).
    /// Decisions judged for crowd pressure: the window's samples plus the diagnosed one.
    std::size_t windowDecisions = 1;
    double lp3Fraction = 0.0;    ///< Of those, the fraction that used LP3.
    double detourFraction = 0.0; ///< Of the samples, the fraction spent detouring (0 if none).
    double meanSpeed = std::numeric_limits<double>::quiet_NaN(); ///< Mean |v| over the samples.
    std::size_t neighborCount = 0; ///< Agent neighbours the solver used.
    int maxNeighbors = 0;
    /// Other agents strictly within neighborDist (what maxNeighbors would have to cover).
    std::size_t agentsInRange = 0;
    /// v_new of the what-if with maxNeighbors = agentsInRange (when it was run).
    std::optional<Vec2> truncationVelocity;
    /// Smallest time to contact over the agent's lines (+inf when none).
    double minTimeToCollision = std::numeric_limits<double>::infinity();
    /// Distance to the goal (NaN without a goal) and the effective goal radius.
    double goalDistance = std::numeric_limits<double>::quiet_NaN();
    double goalRadius = std::numeric_limits<double>::quiet_NaN();
    /// Goal circling: the closest the unobstructed approach gets within goalPredictionSteps.
    double predictedClosest = std::numeric_limits<double>::quiet_NaN();
    /// How long the agent has been stalled (s): the newest run of samples whose progress was
    /// below stallProgress, times Δt (0 when the last sample made progress).
    double stalledSeconds = 0.0;
    /// Bottleneck jam: the gap's width (world units; NaN otherwise), its centre, and the unit
    /// vector across it (from the first obstacle's side to the second's).
    double gapWidth = std::numeric_limits<double>::quiet_NaN();
    Vec2 gapCenter{0.0, 0.0};
    Vec2 gapAcross{0.0, 0.0};
    /// Obstacle trap: suggested waypoints, in walking order (intermediate goals of the shortest
    /// path round the obstacles, each corner pushed out by twice the agent's radius); empty
    /// when no such path was found or the class is another.
    std::vector<Vec2> waypoints;
    /// The parameter value the suggestion proposes (NaN when it proposes none): neighborDist
    /// (short-horizon, unseen agent), timeHorizon or timeHorizonObst (short-horizon, contact),
    /// maxNeighbors (neighbor-truncation) or goalRadius (goal-circling).
    double suggestedValue = std::numeric_limits<double>::quiet_NaN();
    /// Symmetric deadlock: the agent whose goal the suggestion moves (the later one of the pair
    /// in agent order, as the linter's Perturb fix) and its new goal. Unset otherwise, or when
    /// that agent has a constant prefVelocity instead of a goal.
    std::optional<std::uint32_t> suggestedAgent;
    std::optional<Vec2> suggestedGoal;
    /// The parameter suggestedValue is for ("neighborDist", "maxNeighbors"...), or empty.
    std::string suggestedParameter;
    /// The suggestion as fixes that can be applied (fixes.hpp), best first; the next ones are
    /// the candidates to try when the first does not help. Empty when there is nothing to fix.
    std::vector<DiagnosisFix> fixes;

    /// The explain record of the diagnosed decision (binding[k].lineIndex indexes its lines).
    ExplainRecord record;
};

/// Diagnoses agent `agentIndex` (agent order) at the simulator's current state. `recent` holds
/// the agent's samples of the steps that led here, oldest first (may be empty; only the last
/// diagnosisHistorySteps() are used, crowd pressure reads the last diagnosisWindowSteps()).
/// Pure: the simulator is not changed (what-ifs run on a copy made with snapshot/restore).
/// Throws InvalidArgument when the index is out of range.
///
/// Classes are tried in this order, the first that applies wins (docs/diagnosis.md says why):
/// goal-circling, bottleneck-jam, short-horizon, neighbor-truncation, symmetric-deadlock,
/// static-wall, obstacle-trap, crowd-pressure, none. For a *stalled* agent (stalledSeconds >=
/// stallSeconds) the blocking classes come first: goal-circling, bottleneck-jam, group-deadlock
/// (three or more), symmetric-deadlock, static-wall, obstacle-trap, crowd-pressure,
/// short-horizon, neighbor-truncation; and a stalled agent is never `none` (group-deadlock
/// then). Every class but none fills `fixes`.
[[nodiscard]] Diagnosis diagnose(const Simulator& sim, std::size_t agentIndex,
                                 std::span<const AgentSample> recent,
                                 const DiagnosisParams& params = {});

/// The window in steps: ceil(windowSeconds / timeStep) (0 for a window of 0 s).
[[nodiscard]] std::size_t diagnosisWindowSteps(const Simulator& sim,
                                               const DiagnosisParams& params = {});
/// The samples diagnose() uses: ceil(max(windowSeconds, historySeconds) / timeStep).
[[nodiscard]] std::size_t diagnosisHistorySteps(const Simulator& sim,
                                                const DiagnosisParams& params = {});

/// Steps `sim` `steps` times, collecting the agent's samples of the last history, then
/// diagnoses it (the CLI's `orca diagnose SCENE --agent K --step S`). The steps are the same
/// bits as plain step() calls. Throws InvalidArgument when the index is out of range.
[[nodiscard]] Diagnosis diagnoseAfterSteps(Simulator& sim, std::size_t agentIndex,
                                           std::uint64_t steps, const DiagnosisParams& params = {});

/// Diagnoses the agent at recorded step `step` of a History (clamped to [firstStep(),
/// lastStep()]): a scratch simulator is seeked to max(firstStep(), step − history) and stepped
/// to `step`, collecting the samples. `agentIndex` is the agent order at that step. Throws
/// std::logic_error when the history was not started, InvalidArgument for a bad index.
[[nodiscard]] Diagnosis diagnoseAt(const History& history, std::uint64_t step,
                                   std::size_t agentIndex, const DiagnosisParams& params = {});

} // namespace orca
