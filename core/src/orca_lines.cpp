#include "orca/orca_lines.hpp"

#include <cmath>
#include <limits>

#include "agent_line_kernel.hpp"
#include "orca/obstacles.hpp"

namespace orca {

std::string_view toString(LineCase c) {
    switch (c) {
    case LineCase::AgentCutoffCircle:
        return "agent-cutoff-circle";
    case LineCase::AgentLeftLeg:
        return "agent-left-leg";
    case LineCase::AgentRightLeg:
        return "agent-right-leg";
    case LineCase::AgentColliding:
        return "agent-colliding";
    case LineCase::ObstacleCollidingLeftVertex:
        return "obstacle-colliding-left-vertex";
    case LineCase::ObstacleCollidingRightVertex:
        return "obstacle-colliding-right-vertex";
    case LineCase::ObstacleCollidingSegment:
        return "obstacle-colliding-segment";
    case LineCase::ObstacleLeftCutoffCircle:
        return "obstacle-left-cutoff-circle";
    case LineCase::ObstacleRightCutoffCircle:
        return "obstacle-right-cutoff-circle";
    case LineCase::ObstacleCutoffLine:
        return "obstacle-cutoff-line";
    case LineCase::ObstacleLeftLeg:
        return "obstacle-left-leg";
    case LineCase::ObstacleRightLeg:
        return "obstacle-right-leg";
    }
    return "unknown";
}

std::string_view toString(ObstacleOutcome o) {
    switch (o) {
    case ObstacleOutcome::Line:
        return "line";
    case ObstacleOutcome::AlreadyCovered:
        return "already-covered";
    case ObstacleOutcome::CollidingConcaveVertex:
        return "colliding-concave-vertex";
    case ObstacleOutcome::CollidingVertexOfNextSegment:
        return "colliding-vertex-of-next-segment";
    case ObstacleOutcome::ObliqueConcaveVertex:
        return "oblique-concave-vertex";
    case ObstacleOutcome::ForeignLeftLeg:
        return "foreign-left-leg";
    case ObstacleOutcome::ForeignRightLeg:
        return "foreign-right-leg";
    }
    return "unknown";
}

namespace {

/// Unit vector along `v`, or `fallback` when v is zero or so short that its squared length
/// underflows (|v| below about 1.5e-154, where v / |v| loses its precision or divides by zero).
/// RVO2 divides by zero there (NaN); the cases are measure-zero (an agent centred on a vertex,
/// a velocity on a cut-off centre) but must never poison the simulation.
Vec2 normalizeOr(Vec2 v, Vec2 fallback) {
    const double lenSq = absSq(v);
    return lenSq >= std::numeric_limits<double>::min() ? v / std::sqrt(lenSq) : fallback;
}

/// Leg directions of the cone from the origin tangent to the disk D(rp, radius), with
/// distSq = |rp|² > radius² (orca-spec leftLeg/rightLeg).
Vec2 leftLegOf(Vec2 rp, double distSq, double radius) {
    // distSq > radius² in every caller (overlaps take the collision branches); max(0, .)
    // only guards against rounding at that boundary.
    const double leg = std::sqrt(std::max(0.0, distSq - radius * radius));
    return Vec2(rp.x * leg - rp.y * radius, rp.x * radius + rp.y * leg) / distSq;
}
Vec2 rightLegOf(Vec2 rp, double distSq, double radius) {
    const double leg = std::sqrt(std::max(0.0, distSq - radius * radius));
    return Vec2(rp.x * leg + rp.y * radius, -rp.x * radius + rp.y * leg) / distSq;
}

} // namespace

AgentLine agentOrcaLine(Vec2 relPos, Vec2 relVel, Vec2 velocity, double combinedRadius,
                        double invTimeHorizon, double invTimeStep, double responsibility) {
    // One-element batch of the branch-free kernel the simulator uses, so that explain records
    // and the step compute bit-identical lines. The cases, as RVO2 names them:
    //  * no collision, projection on the cut-off circle (w.rp < 0, (w.rp)² > R²|w|²);
    //  * no collision, projection on the left leg (det(rp, w) > 0) or the right leg;
    //  * collision: projection on the cut-off circle of time Δt.
    // A relative position whose square underflows has no direction: the simulator splits such
    // pairs by agent order (relativePosition) before calling; alone, take +x.
    if (absSq(relPos) < std::numeric_limits<double>::min()) relPos = {1e-9, 0.0};
    double dx, dy, ux, uy;
    std::uint8_t lineCase;
    const detail::AgentLineBatch batch{&relPos.x, &relPos.y, &relVel.x, &relVel.y, &combinedRadius,
                                       &dx,       &dy,       &ux,       &uy,       &lineCase};
    detail::computeAgentLines(1, batch, invTimeHorizon, invTimeStep);
    AgentLine out;
    out.line.direction = {dx, dy};
    out.u = {ux, uy};
    out.lineCase = static_cast<LineCase>(lineCase);
    out.line.point = velocity + responsibility * out.u;
    return out;
}

VelocityObstacle agentVelocityObstacle(Vec2 relPos, Vec2 otherVelocity, double combinedRadius,
                                       double invTimeHorizon, double invTimeStep) {
    VelocityObstacle vo;
    vo.offset = otherVelocity;
    const double distSq = absSq(relPos);
    if (distSq > combinedRadius * combinedRadius) {
        vo.leftLeg = leftLegOf(relPos, distSq, combinedRadius);
        vo.rightLeg = rightLegOf(relPos, distSq, combinedRadius);
        vo.cutoffCenter = invTimeHorizon * relPos;
        vo.cutoffRadius = combinedRadius * invTimeHorizon;
    } else {
        vo.colliding = true;
        vo.cutoffCenter = invTimeStep * relPos;
        vo.cutoffRadius = combinedRadius * invTimeStep;
    }
    vo.cutoffCenter2 = vo.cutoffCenter;
    return vo;
}

void obstacleOrcaLines(std::span<const ObstacleVertex> vertices,
                       std::span<const std::uint32_t> segments,
                       std::span<const double> segmentDistSq, Vec2 position, Vec2 velocity,
                       double radius, double invTimeHorizonObst, std::vector<Line>& lines,
                       std::vector<ObstacleLineRecord>* records) {
    const double invTimeHorizon = invTimeHorizonObst;
    const double radiusSq = radius * radius;
    const double inf = std::numeric_limits<double>::infinity();
    // Only obstacle lines are in `lines` from here on (they are built first).
    const std::size_t firstLine = lines.size();

    for (std::size_t n = 0; n < segments.size(); ++n) {
        const ObstacleVertex* obstacle1 = &vertices[segments[n]];
        const ObstacleVertex* obstacle2 = &vertices[obstacle1->next];

        ObstacleLineRecord* rec = nullptr;
        if (records) {
            rec = &records->emplace_back();
            rec->vertex = segments[n];
            rec->distSq = n < segmentDistSq.size() ? segmentDistSq[n] : 0.0;
        }
        auto addLine = [&](const Line& line, LineCase c) {
            if (rec) {
                rec->outcome = ObstacleOutcome::Line;
                rec->lineCase = c;
                rec->lineIndex = static_cast<std::uint32_t>(lines.size());
            }
            lines.push_back(line);
        };
        auto skip = [&](ObstacleOutcome why) {
            if (rec) rec->outcome = why;
        };

        const Vec2 relativePosition1 = obstacle1->point - position;
        const Vec2 relativePosition2 = obstacle2->point - position;

        // Check if the velocity obstacle of this segment is already taken care of by
        // previously constructed obstacle ORCA lines (both scaled endpoints at least a radius
        // inside the permitted side of one line).
        bool alreadyCovered = false;
        for (std::size_t j = firstLine; j < lines.size(); ++j) {
            if (det(invTimeHorizon * relativePosition1 - lines[j].point, lines[j].direction) -
                        invTimeHorizon * radius >=
                    -kEpsilon &&
                det(invTimeHorizon * relativePosition2 - lines[j].point, lines[j].direction) -
                        invTimeHorizon * radius >=
                    -kEpsilon) {
                alreadyCovered = true;
                break;
            }
        }
        if (alreadyCovered) {
            skip(ObstacleOutcome::AlreadyCovered);
            continue;
        }

        // Not yet covered. Check for collisions.
        const double distSq1 = absSq(relativePosition1);
        const double distSq2 = absSq(relativePosition2);
        const Vec2 obstacleVector = obstacle2->point - obstacle1->point;
        const double s = dot(-relativePosition1, obstacleVector) / absSq(obstacleVector);
        const double distSqLine = absSq(-relativePosition1 - s * obstacleVector);

        Line line;
        line.point = Vec2(0.0, 0.0);

        if (s < 0.0 && distSq1 <= radiusSq) {
            // Collision with left vertex. Ignore if non-convex.
            if (obstacle1->convex) {
                line.direction = normalizeOr(perp(relativePosition1), -obstacle1->unitDir);
                addLine(line, LineCase::ObstacleCollidingLeftVertex);
            } else {
                skip(ObstacleOutcome::CollidingConcaveVertex);
            }
            continue;
        }
        // s == 1 exactly counts as the right vertex too: RVO2 tests s > 1 and then, for an
        // agent overlapping the vertex exactly abreast of it, takes sqrt of a negative number.
        if (s >= 1.0 && distSq2 <= radiusSq) {
            // Collision with right vertex. Ignore if non-convex or if it will be taken care of
            // by the neighbouring obstacle segment.
            if (obstacle2->convex && det(relativePosition2, obstacle2->unitDir) >= 0.0) {
                line.direction = normalizeOr(perp(relativePosition2), -obstacle1->unitDir);
                addLine(line, LineCase::ObstacleCollidingRightVertex);
            } else {
                skip(obstacle2->convex ? ObstacleOutcome::CollidingVertexOfNextSegment
                                       : ObstacleOutcome::CollidingConcaveVertex);
            }
            continue;
        }
        if (s >= 0.0 && s < 1.0 && distSqLine <= radiusSq) {
            // Collision with obstacle segment.
            line.direction = -obstacle1->unitDir;
            addLine(line, LineCase::ObstacleCollidingSegment);
            continue;
        }

        // No collision. Compute the legs. When viewed obliquely, both legs can come from a
        // single vertex. Legs extend the cut-off line at non-convex vertices.
        Vec2 leftLegDirection;
        Vec2 rightLegDirection;
        if (s < 0.0 && distSqLine <= radiusSq) {
            // Obstacle viewed obliquely so that the left vertex defines the velocity obstacle.
            if (!obstacle1->convex) {
                skip(ObstacleOutcome::ObliqueConcaveVertex); // Ignore obstacle.
                continue;
            }
            obstacle2 = obstacle1;
            leftLegDirection = leftLegOf(relativePosition1, distSq1, radius);
            rightLegDirection = rightLegOf(relativePosition1, distSq1, radius);
        } else if (s > 1.0 && distSqLine <= radiusSq) {
            // Obstacle viewed obliquely so that the right vertex defines the velocity obstacle.
            if (!obstacle2->convex) {
                skip(ObstacleOutcome::ObliqueConcaveVertex); // Ignore obstacle.
                continue;
            }
            obstacle1 = obstacle2;
            leftLegDirection = leftLegOf(relativePosition2, distSq2, radius);
            rightLegDirection = rightLegOf(relativePosition2, distSq2, radius);
        } else {
            // Usual situation.
            leftLegDirection = obstacle1->convex ? leftLegOf(relativePosition1, distSq1, radius)
                                                 : -obstacle1->unitDir; // extends cut-off line
            rightLegDirection = obstacle2->convex ? rightLegOf(relativePosition2, distSq2, radius)
                                                  : obstacle1->unitDir; // extends cut-off line
        }

        // Legs can never point into the neighbouring edge at a convex vertex: take the cut-off
        // line of the neighbouring edge instead. If the velocity projects on such a "foreign"
        // leg, no constraint is added.
        const ObstacleVertex& leftNeighbor = vertices[obstacle1->prev];
        bool isLeftLegForeign = false;
        bool isRightLegForeign = false;
        if (obstacle1->convex && det(leftLegDirection, -leftNeighbor.unitDir) >= 0.0) {
            // Left leg points into obstacle.
            leftLegDirection = -leftNeighbor.unitDir;
            isLeftLegForeign = true;
        }
        if (obstacle2->convex && det(rightLegDirection, obstacle2->unitDir) <= 0.0) {
            // Right leg points into obstacle.
            rightLegDirection = obstacle2->unitDir;
            isRightLegForeign = true;
        }

        // Cut-off centres: the segment's endpoints scaled by 1/τo.
        const Vec2 leftCutoff = invTimeHorizon * (obstacle1->point - position);
        const Vec2 rightCutoff = invTimeHorizon * (obstacle2->point - position);
        const Vec2 cutoffVector = rightCutoff - leftCutoff;
        const bool singleVertex = obstacle1 == obstacle2;

        if (rec) {
            rec->hasVo = true;
            rec->vo.leftLeg = leftLegDirection;
            rec->vo.rightLeg = rightLegDirection;
            rec->vo.cutoffCenter = leftCutoff;
            rec->vo.cutoffCenter2 = rightCutoff;
            rec->vo.cutoffRadius = radius * invTimeHorizon;
            rec->leftLegForeign = isLeftLegForeign;
            rec->rightLegForeign = isRightLegForeign;
        }

        // Project the current velocity on the velocity obstacle.
        const double t =
            singleVertex ? 0.5 : dot(velocity - leftCutoff, cutoffVector) / absSq(cutoffVector);
        const double tLeft = dot(velocity - leftCutoff, leftLegDirection);
        const double tRight = dot(velocity - rightCutoff, rightLegDirection);

        if ((t < 0.0 && tLeft < 0.0) || (singleVertex && tLeft < 0.0 && tRight < 0.0)) {
            // Project on left cut-off circle.
            const Vec2 unitW = normalizeOr(velocity - leftCutoff, perp(-obstacle1->unitDir));
            line.direction = Vec2(unitW.y, -unitW.x);
            line.point = leftCutoff + radius * invTimeHorizon * unitW;
            addLine(line, LineCase::ObstacleLeftCutoffCircle);
            continue;
        }
        if (t > 1.0 && tRight < 0.0) {
            // Project on right cut-off circle.
            const Vec2 unitW = normalizeOr(velocity - rightCutoff, perp(-obstacle1->unitDir));
            line.direction = Vec2(unitW.y, -unitW.x);
            line.point = rightCutoff + radius * invTimeHorizon * unitW;
            addLine(line, LineCase::ObstacleRightCutoffCircle);
            continue;
        }

        // Project on left leg, right leg, or cut-off line, whichever is closest to velocity.
        const double distSqCutoff = (t < 0.0 || t > 1.0 || singleVertex)
                                        ? inf
                                        : absSq(velocity - (leftCutoff + t * cutoffVector));
        const double distSqLeft =
            tLeft < 0.0 ? inf : absSq(velocity - (leftCutoff + tLeft * leftLegDirection));
        const double distSqRight =
            tRight < 0.0 ? inf : absSq(velocity - (rightCutoff + tRight * rightLegDirection));

        if (distSqCutoff <= distSqLeft && distSqCutoff <= distSqRight) {
            // Project on cut-off line.
            line.direction = -obstacle1->unitDir;
            line.point = leftCutoff + radius * invTimeHorizon * perp(line.direction);
            addLine(line, LineCase::ObstacleCutoffLine);
            continue;
        }
        if (distSqLeft <= distSqRight) {
            // Project on left leg.
            if (isLeftLegForeign) {
                skip(ObstacleOutcome::ForeignLeftLeg);
                continue;
            }
            line.direction = leftLegDirection;
            line.point = leftCutoff + radius * invTimeHorizon * perp(line.direction);
            addLine(line, LineCase::ObstacleLeftLeg);
            continue;
        }
        // Project on right leg.
        if (isRightLegForeign) {
            skip(ObstacleOutcome::ForeignRightLeg);
            continue;
        }
        line.direction = -rightLegDirection;
        line.point = rightCutoff + radius * invTimeHorizon * perp(line.direction);
        addLine(line, LineCase::ObstacleRightLeg);
    }
}

} // namespace orca
