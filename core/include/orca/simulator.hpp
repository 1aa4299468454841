#pragma once
/// \file simulator.hpp
/// The ORCA simulator: agents, obstacles, one deterministic (optionally parallel) step, and the
/// explain API that reports why each agent chose its velocity.
///
/// Determinism: a step reads only the state before the step, every agent's decision is
/// computed independently, and ties are broken by agent order, so the result is bit-identical
/// for any thread count. Agents keep insertion order (removal preserves the order of the rest).

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <utility>
#include <vector>

#include "orca/explain.hpp"
#include "orca/geometry.hpp"
#include "orca/obstacles.hpp"
#include "orca/roadmap.hpp"
#include "orca/slot_table.hpp"
#include "orca/types.hpp"

namespace orca {

namespace detail {
class AgentGrid;
class ThreadPool;
class DetourPolicy;
class NeighborLists;
struct StepWorkspace;
struct AgentArrays;
struct Neighbor;
} // namespace detail

/// Counters of the last step.
struct StepStats {
    std::size_t lp3Agents = 0;       ///< Agents whose LP2 was infeasible, so LP3 chose v_new.
    std::size_t detouringAgents = 0; ///< Agents that followed the detour field in this step.
    std::size_t movingAgents = 0;    ///< Non-static agents that were solved.
    std::size_t goalAgents = 0;      ///< Agents with a goal.
    std::size_t agentsAtGoal = 0;    ///< Of those, at their goal after the step.
    /// The step chose neighbours from its candidate lists rather than a grid (speed only: the
    /// neighbours are the same; docs/core.md, "Candidate lists").
    bool neighborLists = false;
    /// No agent moved farther than this in the step's move: the largest speed × Δt plus the
    /// rounding of p + v·Δt at the largest coordinate (the bound the candidate lists keep).
    double maxMove = 0.0;
};

/// What step() notes about every agent for an observer while a watch is set
/// (Simulator::watchSteps; the EventDetector sets one so that it only looks at the agents whose
/// flags say something happened). The tests are the detector's (docs/events.md).
struct StepWatch {
    /// kSlow: a non-static goal agent, not at its goal, with prefSpeed > 0 and |v| below this
    /// fraction of prefSpeed.
    double slowSpeedRatio = 0.0;
    /// kFlip: a non-static agent whose velocity turned from the step before by an angle whose
    /// cosine is below this (both velocities longer than 1e-6 x maxSpeed); below -1 = never.
    double cosFlip = -2.0;
    /// Contacts (lastStepContacts): with contactReach >= 0, the step lists the pairs of agents
    /// closer than r_i + r_j + contactReach before its move, from the neighbours it chose, and
    /// says whether those hold every such pair. contactRadius: the largest radius the lists
    /// are searched for (a larger one makes the step's list incomplete).
    double contactReach = -1.0;
    double contactRadius = 0.0;
    friend bool operator==(const StepWatch&, const StepWatch&) = default;
};

/// The bits of Simulator::lastStepFlags().
namespace step_flag {
inline constexpr std::uint8_t kLp3 = 1;       ///< LP3 chose the agent's velocity
inline constexpr std::uint8_t kAtGoal = 2;    ///< Simulator::atGoalAt after the move
inline constexpr std::uint8_t kDetouring = 4; ///< detour mode after the step is Detouring
inline constexpr std::uint8_t kSlow = 8;      ///< StepWatch::slowSpeedRatio's test
inline constexpr std::uint8_t kFlip = 16;     ///< StepWatch::cosFlip's test
inline constexpr std::uint8_t kWaypoint = 32; ///< the move reached a waypoint of its route
} // namespace step_flag

/// Clearance measurements on the current state.
struct ClearanceStats {
    /// min over agent pairs of |p_i - p_j| - r_i - r_j (world units; negative = overlap depth),
    /// leaving out pairs of two static agents (fixed scenery). +inf when no pair lies within
    /// the search range.
    double minAgentClearance = std::numeric_limits<double>::infinity();
    /// Number of agent pairs that overlap (clearance < 0).
    std::size_t overlappingPairs = 0;
    /// min over agents of (distance to the nearest obstacle segment - radius); negative when
    /// an agent overlaps an obstacle or its centre is inside a polygon. +inf without obstacles
    /// in range.
    double minObstacleClearance = std::numeric_limits<double>::infinity();
};

/// Thrown for invalid agent parameters or obstacle polygons (the message says what is wrong).
class InvalidArgument : public std::invalid_argument {
  public:
    using std::invalid_argument::invalid_argument;
};

/// Thrown by step() instead of producing a non-finite state (a NaN or infinite velocity or
/// position), which valid input should never do: the message names the step, the agent (its
/// index in agent order) and the value. When a decision is non-finite the simulator is left
/// exactly in its state before the step; when a position overflows (|p| near 1.8e308) the move
/// has happened and every later step refuses too.
class NonFiniteState : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

struct SimulatorState;

class Simulator {
  public:
    explicit Simulator(const SimulationParams& params = {});
    ~Simulator();
    Simulator(Simulator&&) noexcept;
    Simulator& operator=(Simulator&&) noexcept;
    Simulator(const Simulator&) = delete;
    Simulator& operator=(const Simulator&) = delete;

    // ---- Parameters ------------------------------------------------------------------------
    [[nodiscard]] const SimulationParams& params() const { return m_params; }
    /// Throws InvalidArgument for a non-positive/non-finite time step, responsibility outside
    /// (0, 1] or a non-positive bisector weight.
    void setParams(const SimulationParams& params);
    /// Worker threads used by step() (>= 1). Results do not depend on it.
    void setThreadCount(int threads);
    [[nodiscard]] int threadCount() const { return m_threadCount; }
    /// Runs body(begin, end, worker) over [0, n) in chunks of `grain` items on the simulator's
    /// threads (the caller's included; worker < threadCount()) and returns when all are done:
    /// for work that reads the simulator between steps, such as the event detector. `body`
    /// must write per item or per worker only, so that what it computes does not depend on
    /// the thread count. Not to be called from inside a step or another parallelChunks.
    void parallelChunks(std::size_t n, std::size_t grain,
                        const std::function<void(std::size_t, std::size_t, int)>& body) const;

    // ---- Agents ----------------------------------------------------------------------------
    /// Reserves storage for `agents` agents in total (avoids growth slack when the count is
    /// known, e.g. when loading a scene).
    void reserveAgents(std::size_t agents);
    /// Adds an agent at the end of the agent order. Throws InvalidArgument for non-finite
    /// values, radius <= 0, negative speeds/distances/counts or non-positive time horizons.
    AgentId addAgent(const AgentDef& def);
    /// Removes an agent; its id becomes invalid. Returns false if the id is not valid.
    bool removeAgent(AgentId id);
    /// Removes every agent and obstacle, resets time.
    void clear();
    [[nodiscard]] bool contains(AgentId id) const;
    [[nodiscard]] std::size_t agentCount() const { return m_pos.size(); }
    /// The id of the agent at position `index` of the agent order.
    [[nodiscard]] AgentId agentIdAt(std::size_t index) const { return m_ids[index]; }
    /// Position of an agent in the agent order, or nullopt for an invalid id.
    [[nodiscard]] std::optional<std::size_t> indexOf(AgentId id) const;

    // Accessors (docs/core.md, "Accessors"): `x(id)` by id (throws InvalidArgument for an
    // invalid id), `xAt(index)` by position in the agent order (unchecked), `xs()` a dense
    // view in agent order (valid until agents are added or removed).

    /// Snapshot of an agent as a definition (current position and velocity).
    [[nodiscard]] AgentDef agent(AgentId id) const;
    /// Replaces everything about an agent (position, velocity, params, goal, static flag).
    void setAgent(AgentId id, const AgentDef& def);
    [[nodiscard]] Vec2 position(AgentId id) const { return m_pos[require(id)]; }
    [[nodiscard]] std::span<const Vec2> positions() const { return m_pos; }
    void setPosition(AgentId id, Vec2 p);
    [[nodiscard]] Vec2 velocity(AgentId id) const { return m_vel[require(id)]; }
    [[nodiscard]] std::span<const Vec2> velocities() const { return m_vel; }
    void setVelocity(AgentId id, Vec2 v);
    /// Sets the constant preferred velocity (AgentDef::prefVelocity, used while the agent has no
    /// goal) and nothing else: cheaper than setAgent, which re-reads every parameter and drops
    /// the step's candidate lists. Throws InvalidArgument when not finite.
    void setPrefVelocity(AgentId id, Vec2 v);
    /// Rounds every agent's position and velocity to the nearest float, as a program that holds
    /// them in floats sees them (RVO2 does: core/rvo2). A coordinate beyond float's range keeps
    /// its double. Each agent moves by at most half a float ulp of its coordinates, which the
    /// step's candidate lists take into account instead of being dropped.
    void roundStateToFloat();
    /// The preferred velocity the agent will use in the next step (from its goal or constant).
    [[nodiscard]] Vec2 prefVelocity(AgentId id) const { return prefVelocityAt(require(id)); }
    [[nodiscard]] Vec2 prefVelocityAt(std::size_t index) const;
    [[nodiscard]] const AgentParams& agentParams(AgentId id) const {
        return m_agentParams[require(id)];
    }
    [[nodiscard]] std::span<const AgentParams> agentParams() const { return m_agentParams; }
    /// Every agent's radius (agent order), dense: agentParams()[i].radius.
    [[nodiscard]] std::span<const double> radii() const { return m_radius; }
    [[nodiscard]] bool isStatic(AgentId id) const { return isStaticAt(require(id)); }
    [[nodiscard]] bool isStaticAt(std::size_t index) const { return m_static[index] != 0; }
    [[nodiscard]] bool hasGoal(AgentId id) const { return hasGoalAt(require(id)); }
    [[nodiscard]] bool hasGoalAt(std::size_t index) const { return m_hasGoal[index] != 0; }
    /// The goal (meaningful when the agent has one).
    [[nodiscard]] Vec2 goalAt(std::size_t index) const { return m_goal[index]; }
    /// True when the agent has a goal, has reached all its waypoints and is within its goal
    /// radius of the goal.
    [[nodiscard]] bool atGoal(AgentId id) const { return atGoalAt(require(id)); }
    [[nodiscard]] bool atGoalAt(std::size_t index) const;

    // ---- Routes (docs/core.md, "Routes") ----------------------------------------------------
    /// The agent's waypoints, visited in order before its goal (empty for most agents).
    [[nodiscard]] std::span<const Vec2> waypointsAt(std::size_t index) const {
        return m_waypoints[index];
    }
    /// How many of its waypoints the agent has reached (<= waypointsAt(index).size()).
    [[nodiscard]] std::uint32_t routeProgressAt(std::size_t index) const {
        return m_routeProgress[index];
    }
    /// The point the agent's route heads for now: its next waypoint, or its goal once every
    /// waypoint is reached (meaningful for an agent with a goal).
    [[nodiscard]] Vec2 targetAt(std::size_t index) const {
        const std::vector<Vec2>& w = m_waypoints[index];
        return m_routeProgress[index] < w.size() ? w[m_routeProgress[index]] : m_goal[index];
    }
    /// The point the agent's preferred velocity heads for in the next step: targetAt() with
    /// straight routing; with roadmap routing, the farthest point of its shortest path to the
    /// target that it can see (the target itself when visible).
    [[nodiscard]] Vec2 steerPointAt(std::size_t index) const;
    /// How long the agent has been stalled, as deadlock breaking counts it (s; always 0 with
    /// deadlock breaking off).
    [[nodiscard]] double stallSecondsAt(std::size_t index) const { return m_stallSeconds[index]; }
    /// Restores a stall timer (a saved state). Finite and >= 0.
    void setStallSeconds(AgentId id, double seconds);
    /// The preferred velocity before deadlock breaking's turn (= prefVelocityAt with it off).
    [[nodiscard]] Vec2 basePrefVelocityAt(std::size_t index) const;
    /// Sets how many waypoints the agent has reached. Throws InvalidArgument beyond its count.
    void setRouteProgress(AgentId id, std::uint32_t progress);
    /// The roadmap of the obstacles as routing uses it (built on first use after the obstacles,
    /// the agents' largest radius or the routing changed; empty with straight routing).
    [[nodiscard]] const Roadmap& roadmap() const;

    /// Number of agents with a goal, and how many of them are at it.
    [[nodiscard]] std::size_t goalAgentCount() const;
    [[nodiscard]] std::size_t atGoalCount() const;
    /// True when every agent that has a goal is at it (vacuously true without goal agents).
    [[nodiscard]] bool allAtGoal() const { return atGoalCount() == goalAgentCount(); }

    // ---- Detour (see detour.hpp) ------------------------------------------------------------
    /// The agent's detour mode (for the next step).
    [[nodiscard]] DetourMode detourMode(AgentId id) const { return detourModeAt(require(id)); }
    [[nodiscard]] DetourMode detourModeAt(std::size_t index) const {
        return static_cast<DetourMode>(m_detourMode[index]);
    }
    /// How long the agent has been below the detour still speed (s).
    [[nodiscard]] double stillSeconds(AgentId id) const { return stillSecondsAt(require(id)); }
    [[nodiscard]] double stillSecondsAt(std::size_t index) const { return m_stillSeconds[index]; }
    /// Restores an agent's detour state (e.g. from a saved scene). stillSeconds >= 0.
    void setDetourState(AgentId id, DetourMode mode, double stillSeconds);
    /// The flow field as built for the last step (empty when detour is off).
    [[nodiscard]] const DetourField& detourField() const { return m_detourField; }

    // ---- Obstacles -------------------------------------------------------------------------
    /// Adds a polygon (counter-clockwise; 2 vertices = thin segment). Throws InvalidArgument
    /// when checkPolygon rejects it or it is clockwise (reverse it first).
    ObstacleId addObstacle(std::span<const Vec2> vertices);
    /// Adds several polygons at once (the obstacle index is rebuilt once). All are checked
    /// first: when one is rejected, none is added.
    std::vector<ObstacleId> addObstacles(std::span<const std::vector<Vec2>> polygons);
    bool removeObstacle(ObstacleId id);
    /// Replaces an obstacle's vertices (its id and place in the order stay). Throws
    /// InvalidArgument for an invalid id or a polygon addObstacle would reject.
    void setObstacle(ObstacleId id, std::span<const Vec2> vertices);
    [[nodiscard]] std::size_t obstacleCount() const { return m_obstacles.size(); }
    /// The id of the obstacle at position `index` of the obstacle order.
    [[nodiscard]] ObstacleId obstacleIdAt(std::size_t index) const { return m_obstacleIds[index]; }
    [[nodiscard]] bool contains(ObstacleId id) const;
    [[nodiscard]] std::span<const Vec2> obstacleVertices(ObstacleId id) const;
    /// The flat vertex list the solver uses (links, convexity); rebuilt when obstacles change.
    [[nodiscard]] std::span<const ObstacleVertex> obstacleVertexData() const { return m_vertices; }

    // ---- Stepping --------------------------------------------------------------------------
    /// One step: v_pref from goals, neighbours, ORCA lines, LP2/LP3 for every non-static agent,
    /// then v = v_new and p += v*Δt for all. Time advances by Δt.
    void step();
    /// The same step, also filling `out` with the explain records of `explainFor` (as decided
    /// in this step, from the state before it). Invalid ids are skipped. `options` adds to the
    /// records (e.g. the LP trace); the other agents' decisions never pay for it.
    void step(std::span<const AgentId> explainFor, std::vector<ExplainRecord>& out,
              const ExplainOptions& options = {});
    /// A step whose agents take `velocities` (agent order; static agents ignore theirs) instead
    /// of their decisions: everything else of the step happens as in step() — the decisions
    /// are computed (the detour field, deadlock breaking and routes see them and their state
    /// moves with the given velocities), time advances. For following a recorded run whose
    /// velocities were not ORCA's (conformance.hpp). Throws InvalidArgument when the count
    /// differs from the agents' or a velocity is not finite (nothing changed then).
    void stepWithVelocities(std::span<const Vec2> velocities);
    /// Dry run: the record the next step would produce for `id`. Changes nothing.
    [[nodiscard]] ExplainRecord explain(AgentId id, const ExplainOptions& options = {}) const;
    /// Dry run for several agents (one spatial index for all; invalid ids are skipped).
    [[nodiscard]] std::vector<ExplainRecord> explain(std::span<const AgentId> ids,
                                                     const ExplainOptions& options = {}) const;

    [[nodiscard]] double time() const { return m_time; }
    [[nodiscard]] std::uint64_t stepCount() const { return m_stepCount; }
    /// Sets the clock (e.g. when resuming a saved state). Does not affect the dynamics.
    void setClock(double time, std::uint64_t stepCount);
    [[nodiscard]] const StepStats& lastStepStats() const { return m_lastStats; }
    /// Per agent (agent order): 1 when the last step had to use LP3 for it. Empty before the
    /// first step and after agents were added or removed.
    [[nodiscard]] std::span<const std::uint8_t> lastStepLp3() const {
        return m_lastLp3.size() == m_pos.size() ? std::span<const std::uint8_t>(m_lastLp3)
                                                : std::span<const std::uint8_t>();
    }

    // ---- Observers ---------------------------------------------------------------------------
    /// Changes with every change of the state (a step, any edit, a restore, new parameters);
    /// never the same number twice in a process, even on two simulators.
    [[nodiscard]] std::uint64_t revision() const { return m_revision; }
    /// Asks every later step to note `watch`'s flags per agent (lastStepFlags). An observer's
    /// request, hence const: it never changes a result, and the last call wins. A restore()
    /// ends it: the steps that replay a recording after a seek are not observed (the History's
    /// detector asks again when it observes the next step at the head), and run unwatched.
    void watchSteps(const StepWatch& watch) const {
        m_watch = watch;
        m_watching = true;
    }
    /// True when the last change of the state was a step (no edit since).
    [[nodiscard]] bool lastChangeWasStep() const { return m_lastChangeStep; }
    /// The revision before the last step (meaningful when lastChangeWasStep()).
    [[nodiscard]] std::uint64_t revisionBeforeLastStep() const { return m_revisionBeforeStep; }
    /// Per agent (agent order), the step_flag bits the last step noted, with the watch it took
    /// them with (lastStepWatch). Empty unless the last change was a step taken with a watch.
    [[nodiscard]] std::span<const std::uint8_t> lastStepFlags() const;
    [[nodiscard]] const StepWatch& lastStepWatch() const { return m_lastWatch; }
    /// Each agent's velocity before the last step (agent order). Empty unless the last change
    /// of the state was a step.
    [[nodiscard]] std::span<const Vec2> previousVelocities() const;
    /// With a watch whose contactReach >= 0: the pairs of agent indices (either way round) the
    /// last step found closer than r_i + r_j + contactReach before its move, in no particular
    /// order, a pair possibly twice (also as (j, i)). Complete (lastStepContactsComplete) when
    /// every pair of agents, not both static, that overlaps after the move is among them: each
    /// moving agent's neighbours reached past r_i + contactRadius + contactReach (or held every
    /// agent within it), no radius exceeded contactRadius and no agent moved farther than
    /// contactReach / 2.
    [[nodiscard]] std::span<const std::pair<std::uint32_t, std::uint32_t>> lastStepContacts() const;
    [[nodiscard]] bool lastStepContactsComplete() const;

    // ---- Snapshots (state.hpp) ---------------------------------------------------------------
    /// Everything that changes a future step (agent order, generational ids, positions,
    /// velocities, parameters, goals, static flags, detour modes and timers, obstacles, clock,
    /// simulation parameters), plus the last step's LP3 flags and counters. The thread count
    /// is not part of it (results do not depend on it). When `previous` is given and its
    /// configuration (everything but the per-step dynamics) equals the current one bit for
    /// bit, the snapshot shares it instead of copying.
    [[nodiscard]] SimulatorState snapshot(const SimulatorState* previous = nullptr) const;
    /// snapshot() into `out`, every field overwritten; its arrays' memory is reused where it
    /// has room (a recording's keyframe memory made ready ahead, history.hpp).
    void snapshotInto(SimulatorState& out, const SimulatorState* previous = nullptr) const;
    /// Puts the simulator back into a snapshot's state: stepping afterwards gives the same
    /// bits as stepping the simulator the snapshot was taken from (for any thread count).
    void restore(const SimulatorState& state);

    // ---- Analysis --------------------------------------------------------------------------
    /// 64-bit FNV-1a hash of every agent's position and velocity bits, in agent order.
    [[nodiscard]] std::uint64_t stateHash() const;
    /// Clearances of the current state (uses the spatial index; pairs farther apart than
    /// 2*max radius are not overlapping and are only searched up to `range` world units).
    [[nodiscard]] ClearanceStats clearance(double range = 10.0) const;

  private:
    [[nodiscard]] std::size_t require(AgentId id) const;
    /// Every change of the state but a step calls it: a new revision, no last-step notes.
    void touch();
    /// Every change of the configuration (what SimulatorState::Config holds) calls it too.
    void touchConfig();
    void validate(const AgentDef& def) const;
    void storeAgent(std::size_t i, const AgentDef& def);
    void rebuildObstacles();
    /// Re-sizes the obstacle grid's cells to the agents' mean obstacle query range when it
    /// moved by more than a factor of 2 (speed only; results never depend on the cell size).
    void fitObstacleGrid();
    [[nodiscard]] double meanCellSize() const;
    void buildGrid(detail::AgentGrid& grid, detail::ThreadPool* pool = nullptr) const;
    /// The agent arrays a decision reads of its neighbours (agent_decision.hpp).
    [[nodiscard]] detail::AgentArrays agentArrays() const;
    void countCellSize(std::size_t i, int sign);
    /// Agent i's record; its neighbours come from `lists` when given (they hold), else from
    /// `grid` (built over the current positions).
    void explainAgent(std::size_t i, const detail::AgentGrid& grid,
                      const detail::NeighborLists* lists, const detail::DetourPolicy& detour,
                      const ExplainOptions& options, ExplainRecord& rec) const;
    /// True when every agent with a goal walks straight to it: no waypoints anywhere, no
    /// roadmap routing (around obstacles).
    [[nodiscard]] bool straightToGoals() const {
        return m_waypointAgents == 0 &&
               (m_params.routing != Routing::Roadmap || m_obstacles.empty());
    }
    /// Agent i's v_pref straight to its goal: goal − p clamped to prefSpeed (basePrefVelocityAt
    /// when straightToGoals() and the agent has a goal; inline for the step).
    [[nodiscard]] Vec2 straightPrefVelocityAt(std::size_t i) const {
        Vec2 toGoal = m_goal[i] - m_pos[i];
        const double distSq = absSq(toGoal);
        const double prefSpeed = m_agentParams[i].prefSpeed;
        if (distSq > prefSpeed * prefSpeed) toGoal *= prefSpeed / std::sqrt(distSq);
        return toGoal;
    }
    /// Deadlock breaking's turn of agent i's preferred velocity `base` (basePrefVelocityAt):
    /// `base` itself unless it has been stalled long enough.
    [[nodiscard]] Vec2 turnedPrefVelocity(std::size_t i, Vec2 base) const;
    /// Deadlock breaking's yield: a stalled agent with a stalled lower-index neighbour in
    /// contact gives way (v_pref 0) so that one of them can pass; else `pref` unchanged.
    [[nodiscard]] Vec2 yieldedPrefVelocity(std::size_t i, Vec2 pref,
                                           std::span<const detail::Neighbor> neighbors) const;
    /// Positions or agents changed other than by the step's move (state.cpp's restore()).
    void invalidateNeighborLists();

    // The simulator's state (what a snapshot captures), its settings and the caches derived
    // from them are the members below; accessors read them inline. The step's machinery,
    // whose types are internal to core/src (spatial index, thread pool, per-worker scratch,
    // per-step buffers), is the workspace at the end: it holds nothing a caller can observe.
    SimulationParams m_params;
    int m_threadCount = 1;
    double m_time = 0.0;
    std::uint64_t m_stepCount = 0;
    StepStats m_lastStats;
    std::vector<std::uint8_t> m_lastLp3; ///< per agent: LP3 ran in the last step
    std::uint64_t m_revision = 0;
    std::uint64_t m_revisionBeforeStep = 0;
    std::uint64_t m_configRevision = 0; ///< changes with every change of the configuration
    /// Changes with every change of an agent's definition but its preferred velocity (added,
    /// removed, edited, restored): the step's caches of radii and watch thresholds. Never the
    /// same number twice in a process.
    std::uint64_t m_agentDefsRevision = 0;
    bool m_lastChangeStep = false; ///< no edit since the last step
    mutable StepWatch m_watch;     ///< what later steps note (watchSteps)
    mutable bool m_watching = false;
    StepWatch m_lastWatch;                 ///< what the last step noted
    bool m_lastWatched = false;            ///< the last step noted m_stepFlags
    std::vector<std::uint8_t> m_stepFlags; ///< per agent, the last step's step_flag bits

    // Agents, dense in agent order (structure of arrays).
    std::vector<Vec2> m_pos;
    std::vector<Vec2> m_vel;
    std::vector<Vec2> m_prefVel; ///< constant v_pref for agents without a goal
    std::vector<Vec2> m_goal;
    std::vector<std::vector<Vec2>> m_waypoints; ///< visited in order before the goal
    /// Agents with waypoints: while there are none, v_pref, the at-goal test and the move skip
    /// the route bookkeeping (a sixth of a 10,000-agent circle step read the empty routes).
    std::size_t m_waypointAgents = 0;
    std::vector<std::uint32_t> m_routeProgress; ///< waypoints reached
    std::vector<double> m_stallSeconds;         ///< deadlock breaking's stall timers
    std::vector<AgentParams> m_agentParams;
    std::vector<double> m_radius;     ///< copy of the radii, dense (read by the spatial index)
    std::vector<double> m_weight;     ///< copy of the avoidance weights, dense (the decisions)
    std::size_t m_weightedAgents = 0; ///< agents whose avoidance weight is not 1
    double m_neighborDistSum = 0.0;   ///< over agents that look for neighbours
    std::size_t m_neighborDistCount = 0;
    std::vector<std::uint8_t> m_hasGoal;
    std::vector<std::uint8_t> m_static;
    std::vector<std::uint8_t> m_detourMode;   ///< DetourMode, for the next step
    std::vector<std::uint8_t> m_detourReason; ///< DetourReason of the last transition
    std::vector<double> m_stillSeconds;       ///< time spent below the detour still speed
    std::vector<AgentId> m_ids;
    SlotTable m_agentSlots; ///< generational ids -> agent order

    // Obstacles, in insertion order.
    std::vector<std::vector<Vec2>> m_obstacles;
    std::vector<ObstacleId> m_obstacleIds;
    SlotTable m_obstacleSlots; ///< generational ids -> obstacle order
    std::vector<ObstacleVertex> m_vertices;
    ObstacleGrid m_obstacleGrid;
    double m_obstacleGridRange = 0.0; ///< the query range the grid's cells were sized for

    // Detour field, rebuilt when its sources (or the parameters) change.
    DetourField m_detourField;
    std::uint64_t m_detourSignature = 0;
    std::uint64_t m_agentsVersion = 0; ///< bumped whenever agents are added, removed or edited

    // Roadmap for roadmap routing: a cache of the obstacles and the largest agent radius, built
    // on first use (ensureRoadmap) and kept while they are unchanged.
    mutable Roadmap m_roadmap;
    mutable bool m_roadmapValid = false;          ///< built for the current obstacles
    mutable bool m_roadmapClearanceValid = false; ///< m_roadmapClearance is up to date
    mutable double m_roadmapClearance = 0.0;
    void ensureRoadmap() const;
    [[nodiscard]] double roadmapClearance() const;

    std::unique_ptr<detail::StepWorkspace> m_work; ///< reused by every step (simulator.cpp)
};

} // namespace orca
