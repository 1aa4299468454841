#pragma once
/// \file explain.hpp
/// The explain record: everything the solver saw and decided for one agent in one step, so a
/// UI or a script can show *why* the agent picked its velocity. Filled only on request
/// (Simulator::explain or Simulator::step with a request list); the hot path never builds it.

#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

#include "orca/detour.hpp"
#include "orca/geometry.hpp"
#include "orca/lp_trace.hpp"
#include "orca/orca_lines.hpp"
#include "orca/types.hpp"

namespace orca {

/// One agent neighbour, in the order the solver used them (nearest first).
struct ExplainAgentNeighbor {
    AgentId id;
    double distSq = 0.0; ///< Squared centre distance (world units²).
};

/// One obstacle neighbour (a directed segment of an obstacle), nearest first.
struct ExplainObstacleNeighbor {
    ObstacleId obstacle;
    std::uint32_t segment = 0; ///< Index of the segment's first vertex in the obstacle.
    double distSq = 0.0;       ///< Squared distance from the agent to the segment.
    ObstacleOutcome outcome = ObstacleOutcome::Line;
    int lineIndex = -1;  ///< Index into ExplainRecord::lines, or -1 when skipped.
    bool hasVo = false;  ///< The VO below is meaningful.
    VelocityObstacle vo; ///< The segment's VO (relative = absolute: obstacles are still).
};

/// One half-plane and what built it.
struct ExplainLine {
    Line line; ///< Absolute velocity space of the agent; permitted = left.
    LineCase lineCase = LineCase::AgentCutoffCircle;
    AgentId otherAgent;        ///< The neighbour that induced it (agent lines).
    ObstacleId obstacle;       ///< The obstacle (obstacle lines).
    std::uint32_t segment = 0; ///< First vertex of the segment within the obstacle.
    /// Agent lines: the u of the ORCA construction (smallest change of v_A - v_B leaving the
    /// VO); the line passes through v_A + responsibility*u. Obstacle lines: the change from
    /// v_A to the nearest point of the line.
    Vec2 u{0.0, 0.0};
    /// The share of u this line was built with: it passes through v_A + share*u. Agent lines:
    /// SimulationParams::responsibility, or staticResponsibility when the neighbour is static;
    /// obstacle lines: 1 (obstacles do not move, A takes the whole u). Recorded where the
    /// explain record builds the line; the default is responsibility's default.
    double share = 0.5;
    /// Agent lines: the neighbour is a static agent (it never moves, builds no line of its
    /// own, and share is staticResponsibility).
    bool otherStatic = false;
    /// Agent lines: the share B takes toward A in its own decision. B's u toward A is -u, so
    /// B's line passes through v_B - otherShare*u: equal to share for equal avoidance weights,
    /// the complement under weights (w_B / (w_A + w_B) of twice responsibility, at most 1),
    /// 0 when B is static (it builds no line). Obstacle lines: 0.
    double otherShare = 0.5;
    /// Agent lines: B's avoidance weight (AgentParams::avoidanceWeight; A's is in
    /// ExplainRecord::params). Obstacle lines: 1.
    double otherWeight = 1.0;
    Vec2 relativeVelocity{0.0, 0.0}; ///< v_A - v_B (agents) or v_A (obstacles).
    VelocityObstacle vo;             ///< The VO this line was cut from.
    double distance = 0.0;           ///< Agents: centre distance. Obstacles: distance to segment.
    /// Time until the disks touch at the current relative velocity (s); 0 when already
    /// overlapping; +inf when they never do.
    double timeToCollision = std::numeric_limits<double>::infinity();
    /// det(d, q - v_new): > 0 means the chosen velocity violates this line by that much.
    double violation = 0.0;
};

/// The detour part of a decision (when the scene's detour behaviour is enabled).
struct ExplainDetour {
    bool enabled = false;                     ///< detour is on for this simulation
    DetourMode mode = DetourMode::Normal;     ///< mode used for this decision (after exit checks)
    DetourMode nextMode = DetourMode::Normal; ///< mode for the next step (after the enter check)
    DetourReason reason = DetourReason::None; ///< why it entered or left in this decision
    Vec2 goalPrefVelocity{0.0, 0.0};          ///< v_pref toward the goal, before any substitution
    Vec2 samplePoint{0.0, 0.0};               ///< where the field was sampled (when detouring)
    double sampleRadius = 0.0;
    Vec2 sampledDirection{0.0, 0.0}; ///< unit direction from the field (zero when none)
    bool usedFallback = false;       ///< the direction came from nearby static agents
};

/// What an explain request records beyond the default record.
struct ExplainOptions {
    /// Also record the linear programs step by step (ExplainRecord::lpTrace, lp_trace.hpp).
    bool lpTrace = false;
};

/// The whole decision of one agent for one step.
struct ExplainRecord {
    AgentId agent;
    std::uint64_t step = 0; ///< Simulator step count when the decision was made.
    bool isStatic = false;  ///< Static agents decide nothing (v_new = 0).
    Vec2 position{0.0, 0.0};
    Vec2 velocity{0.0, 0.0};     ///< v before the step.
    Vec2 prefVelocity{0.0, 0.0}; ///< v_pref handed to the linear programs.
    AgentParams params;
    std::vector<ExplainAgentNeighbor> agentNeighbors;
    std::vector<ExplainObstacleNeighbor> obstacleNeighbors;
    /// Obstacle lines first (numObstacleLines of them), then one line per agent neighbour in
    /// agentNeighbors order.
    std::vector<ExplainLine> lines;
    std::size_t numObstacleLines = 0;
    /// Half-planes ∩ the maxSpeed disk as a counter-clockwise polygon (inscribed-disk
    /// approximation); empty when the region is empty.
    std::vector<Vec2> feasibleRegion;
    std::size_t lp2Fail = 0;    ///< Line index where LP2 failed; == lines.size() if it did not.
    Vec2 lp2Velocity{0.0, 0.0}; ///< LP2's result (the best point before the failing line).
    bool lp3Ran = false;
    double lp3Depth = 0.0;      ///< LP3's largest remaining violation of an agent line.
    Vec2 newVelocity{0.0, 0.0}; ///< The chosen velocity.
    ExplainDetour detour;       ///< Detour state and sample (prefVelocity already includes it).
    /// The linear programs as they ran (only when ExplainOptions::lpTrace asked; static agents
    /// have none). lpTrace->result == newVelocity bit for bit.
    std::optional<LpTrace> lpTrace;

    [[nodiscard]] bool lp2Failed() const { return lp2Fail < lines.size(); }
};

} // namespace orca
