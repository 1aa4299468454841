#pragma once
/// \file orca_lines.hpp
/// Construction of ORCA half-planes (orca-spec sections 4 and 5), as pure functions so each
/// geometric case can be unit-tested and explained.
///
/// Velocity-space conventions: "relative" velocity space is v_A - v_B (agents) or v_A
/// (obstacles, which do not move); the permitted side of every line is on its left.

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "orca/geometry.hpp"

namespace orca {

struct ObstacleVertex;

/// The geometric case that built a half-plane. Names mirror the case comments of RVO2's
/// Agent::computeNewVelocity so the explain output reads against the paper and the code.
enum class LineCase : std::uint8_t {
    AgentCutoffCircle,            ///< Agent, not colliding: projected on the cut-off circle.
    AgentLeftLeg,                 ///< Agent, not colliding: projected on the left leg.
    AgentRightLeg,                ///< Agent, not colliding: projected on the right leg.
    AgentColliding,               ///< Agents overlap: cut-off circle of time Δt.
    ObstacleCollidingLeftVertex,  ///< Agent overlaps the segment's first (left) vertex.
    ObstacleCollidingRightVertex, ///< Agent overlaps the segment's second (right) vertex.
    ObstacleCollidingSegment,     ///< Agent overlaps the segment's interior.
    ObstacleLeftCutoffCircle,     ///< Projected on the cut-off circle of the left vertex.
    ObstacleRightCutoffCircle,    ///< Projected on the cut-off circle of the right vertex.
    ObstacleCutoffLine,           ///< Projected on the cut-off line (the segment scaled by 1/τo).
    ObstacleLeftLeg,              ///< Projected on the left leg.
    ObstacleRightLeg,             ///< Projected on the right leg.
};

/// Stable kebab-case name of a case, e.g. "agent-left-leg" (used in JSON output).
[[nodiscard]] std::string_view toString(LineCase c);
/// True for the cases built by obstacle segments.
[[nodiscard]] inline bool isObstacleCase(LineCase c) {
    return c >= LineCase::ObstacleCollidingLeftVertex;
}

/// What happened to one obstacle neighbour (segment) while building lines.
enum class ObstacleOutcome : std::uint8_t {
    Line,                         ///< It produced a half-plane.
    AlreadyCovered,               ///< Its VO is already covered by earlier obstacle lines: skipped.
    CollidingConcaveVertex,       ///< Overlapping a non-convex vertex: ignored (the neighbouring
                                  ///< segment handles it).
    CollidingVertexOfNextSegment, ///< Overlapping the right vertex, which the next segment
                                  ///< handles (the agent is past the vertex's bisector).
    ObliqueConcaveVertex,         ///< Seen obliquely past a non-convex vertex: skipped.
    ForeignLeftLeg,               ///< Closest VO boundary is a foreign left leg: no constraint.
    ForeignRightLeg,              ///< Closest VO boundary is a foreign right leg: no constraint.
};
[[nodiscard]] std::string_view toString(ObstacleOutcome o);

/// A velocity obstacle in relative velocity space: the cone from the apex (the origin)
/// bounded by two legs and cut off by a circle (agents) or a capsule (obstacle segments).
struct VelocityObstacle {
    Vec2 leftLeg{0.0, 0.0};       ///< Unit direction of the left leg (zero when colliding).
    Vec2 rightLeg{0.0, 0.0};      ///< Unit direction of the right leg (zero when colliding).
    Vec2 cutoffCenter{0.0, 0.0};  ///< Agent: rp/τ. Obstacle: left vertex / τo.
    Vec2 cutoffCenter2{0.0, 0.0}; ///< Obstacle: right vertex / τo. Agent: same as cutoffCenter.
    double cutoffRadius = 0.0;    ///< Agent: (r_A + r_B)/τ. Obstacle: r_A/τo.
    bool colliding = false;       ///< Agents already overlap: the VO is the disk of time Δt
                                  ///< (cutoffCenter = rp/Δt, cutoffRadius = R/Δt, no legs).
    Vec2 offset{0.0, 0.0};        ///< Add to go to A's absolute velocity space (v_B; 0 for
                                  ///< obstacles).
};

/// One agent-agent half-plane with its provenance.
struct AgentLine {
    Line line;        ///< The half-plane, in A's absolute velocity space.
    Vec2 u{0.0, 0.0}; ///< Smallest change of the relative velocity that leaves the VO.
    LineCase lineCase = LineCase::AgentCutoffCircle;
};

/// ORCA half-plane induced on agent A by agent B (orca-spec section 5).
/// \param relPos          p_B - p_A (world units)
/// \param relVel          v_A - v_B (units/s)
/// \param velocity        v_A (units/s)
/// \param combinedRadius  r_A + r_B (> 0)
/// \param invTimeHorizon  1/τ (1/s, > 0)
/// \param invTimeStep     1/Δt (1/s, > 0), used only when the agents already overlap
/// \param responsibility  share of u that A takes (RVO2: 0.5)
[[nodiscard]] AgentLine agentOrcaLine(Vec2 relPos, Vec2 relVel, Vec2 velocity,
                                      double combinedRadius, double invTimeHorizon,
                                      double invTimeStep, double responsibility);

/// The VO of A induced by B, for display (same inputs as agentOrcaLine).
[[nodiscard]] VelocityObstacle agentVelocityObstacle(Vec2 relPos, Vec2 otherVelocity,
                                                     double combinedRadius, double invTimeHorizon,
                                                     double invTimeStep);

/// Explain record of one obstacle neighbour (one directed segment).
struct ObstacleLineRecord {
    std::uint32_t vertex = 0; ///< Global vertex index of the segment's first vertex.
    double distSq = 0.0;      ///< Squared distance from the agent to the segment.
    ObstacleOutcome outcome = ObstacleOutcome::AlreadyCovered;
    LineCase lineCase = LineCase::ObstacleCutoffLine; ///< Valid when outcome == Line.
    std::uint32_t lineIndex = 0; ///< Index into the agent's lines when outcome == Line.
    VelocityObstacle vo;         ///< The segment's VO (legs after the foreign-leg rule).
    bool hasVo = false;          ///< False for skipped-before-geometry outcomes.
    bool leftLegForeign = false;
    bool rightLegForeign = false;
};

/// Builds the obstacle half-planes of one agent (orca-spec section 4), appending to `lines`.
/// \param vertices          all obstacle vertices (see obstacles.hpp)
/// \param segments          the agent's obstacle neighbours: first-vertex indices, nearest first
/// \param segmentDistSq     squared distances matching `segments` (only used for records)
/// \param position, velocity, radius  the agent (world units, units/s)
/// \param invTimeHorizonObst 1/τo (1/s, > 0)
/// \param records           if not null, receives one record per segment (for explain)
void obstacleOrcaLines(std::span<const ObstacleVertex> vertices,
                       std::span<const std::uint32_t> segments,
                       std::span<const double> segmentDistSq, Vec2 position, Vec2 velocity,
                       double radius, double invTimeHorizonObst, std::vector<Line>& lines,
                       std::vector<ObstacleLineRecord>* records);

} // namespace orca
