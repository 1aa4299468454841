// Simulator::explain: the dry-run path of the step, which records one agent's whole decision.
#include <algorithm>
#include <cmath>

#include "agent_decision.hpp"
#include "agent_grid.hpp"
#include "detour_policy.hpp"
#include "neighbor_lists.hpp"
#include "neighbor_select.hpp"
#include "orca/simulator.hpp"

namespace orca {

namespace {

/// Time until a point moving with velocity `v` from the origin enters the disk D(c, R)
/// (0 if inside, +inf if never).
double timeToDisk(Vec2 c, double radius, Vec2 v) {
    const double cSq = absSq(c);
    if (cSq <= radius * radius) return 0.0;
    const double a = absSq(v);
    if (a <= 0.0) return std::numeric_limits<double>::infinity();
    const double b = dot(c, v);
    const double disc = b * b - a * (cSq - radius * radius);
    if (b <= 0.0 || disc < 0.0) return std::numeric_limits<double>::infinity();
    return (b - std::sqrt(disc)) / a;
}

/// Time until a disk of radius r at the origin moving with `v` touches segment [a, b].
double timeToSegment(Vec2 a, Vec2 b, double radius, Vec2 v) {
    if (distSqPointSegment(a, b, Vec2(0.0)) <= radius * radius) return 0.0;
    double best = std::min(timeToDisk(a, radius, v), timeToDisk(b, radius, v));
    // The side of the capsule facing the origin: the segment offset by r toward the origin.
    const Vec2 dir = b - a;
    const double lenSq = absSq(dir);
    if (lenSq > 0.0) {
        Vec2 n = perp(dir) / std::sqrt(lenSq);
        if (dot(n, -a) < 0.0) n = -n; // point n toward the origin
        const double dist = dot(n, -a);
        const double speedToward = -dot(n, v);
        if (speedToward > 0.0) {
            const double t = (dist - radius) / speedToward;
            const Vec2 hit = v * t - n * radius; // contact point on the segment (relative)
            const double s = dot(hit - a, dir) / lenSq;
            if (t >= 0.0 && s >= 0.0 && s <= 1.0) best = std::min(best, t);
        }
    }
    return best;
}

} // namespace

ExplainRecord Simulator::explain(AgentId id, const ExplainOptions& options) const {
    (void)require(id); // throws for an invalid id
    std::vector<ExplainRecord> records = explain(std::span<const AgentId>(&id, 1), options);
    return std::move(records.front());
}

std::vector<ExplainRecord> Simulator::explain(std::span<const AgentId> ids,
                                              const ExplainOptions& options) const {
    std::vector<ExplainRecord> out;
    if (ids.empty()) return out;
    // A private index (and detour field, if the stored one is stale) of the current state;
    // the simulator itself is not touched.
    detail::AgentGrid grid;
    buildGrid(grid);
    detail::DetourSources sources;
    DetourField localField;
    const DetourField* field = &m_detourField;
    if (m_params.detour.enabled) {
        sources.find(*this, m_agentsVersion);
        if (sources.stale(m_detourField, m_detourSignature)) {
            detail::buildDetourField(*this, sources.indices, localField);
            field = &localField;
        }
    } else {
        sources.none(m_pos.size());
    }
    const detail::DetourPolicy detour(*this, *field, sources.isSource);
    for (AgentId id : ids) {
        const auto index = indexOf(id);
        if (index) explainAgent(*index, grid, nullptr, detour, options, out.emplace_back());
    }
    return out;
}

void Simulator::explainAgent(std::size_t i, const detail::AgentGrid& grid,
                             const detail::NeighborLists* lists, const detail::DetourPolicy& detour,
                             const ExplainOptions& options, ExplainRecord& rec) const {
    rec = ExplainRecord{};
    rec.agent = m_ids[i];
    rec.step = m_stepCount;
    rec.isStatic = m_static[i] != 0;
    rec.position = m_pos[i];
    rec.velocity = m_vel[i];
    rec.prefVelocity = prefVelocityAt(i);
    rec.params = m_agentParams[i];
    if (rec.isStatic) return; // static agents decide nothing

    detail::Scratch s;
    const AgentParams& p = m_agentParams[i];
    detail::AgentView a{m_pos[i], m_vel[i], rec.prefVelocity, &p};
    if (p.maxNeighbors > 0 && lists != nullptr) {
        detail::selectFromList(a.position, p.neighborDist * p.neighborDist,
                               static_cast<std::size_t>(p.maxNeighbors), m_pos.data(),
                               lists->candidates(static_cast<std::uint32_t>(i)), s);
    } else if (p.maxNeighbors > 0) {
        grid.nearest(a.position, static_cast<std::uint32_t>(i), p.neighborDist * p.neighborDist,
                     static_cast<std::size_t>(p.maxNeighbors), s.neighbors, s.ranges);
        s.neighborCount = s.neighbors.size();
    }
    if (m_params.deadlockBreaking) {
        // Same order as the step: neighbours, deadlock breaking's yield, then the detour.
        a.prefVelocity = yieldedPrefVelocity(
            i, a.prefVelocity,
            std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount));
        rec.prefVelocity = a.prefVelocity;
    }
    const bool detours = detour.applies(i);
    if (detours) {
        // Same order as the step: neighbours, then the detour substitution of v_pref.
        a.prefVelocity = detour.prefVelocity(
            i, a.prefVelocity,
            std::span<const detail::Neighbor>(s.neighbors.data(), s.neighborCount), rec.detour);
        rec.prefVelocity = a.prefVelocity;
    }
    if (options.lpTrace) rec.lpTrace.emplace();
    const SolveResult r =
        detail::decide(a, static_cast<std::uint32_t>(i), m_params, m_vertices, m_obstacleGrid,
                       agentArrays(), s, true, rec.lpTrace ? &*rec.lpTrace : nullptr);
    if (detours) detour.afterSolve(i, r.velocity, rec.detour);

    // Obstacle neighbours and their lines.
    rec.numObstacleLines = 0;
    rec.lines.resize(s.lines.size());
    for (const ObstacleLineRecord& orec : s.obstacleRecords) {
        const ObstacleVertex& v1 = m_vertices[orec.vertex];
        const ObstacleVertex& v2 = m_vertices[v1.next];
        ExplainObstacleNeighbor& on = rec.obstacleNeighbors.emplace_back();
        on.obstacle = m_obstacleIds[v1.obstacle];
        on.segment = v1.localIndex;
        on.distSq = orec.distSq;
        on.outcome = orec.outcome;
        on.hasVo = orec.hasVo;
        on.vo = orec.vo;
        if (orec.outcome != ObstacleOutcome::Line) continue;
        on.lineIndex = static_cast<int>(orec.lineIndex);
        ExplainLine& el = rec.lines[orec.lineIndex];
        el.line = s.lines[orec.lineIndex];
        el.lineCase = orec.lineCase;
        el.obstacle = on.obstacle;
        el.segment = on.segment;
        el.relativeVelocity = a.velocity;
        // The change from v to the nearest point of the line.
        const Vec2 onLine =
            el.line.point + dot(a.velocity - el.line.point, el.line.direction) * el.line.direction;
        el.u = onLine - a.velocity;
        el.share = 1.0; // obstacles do not move: A takes the whole u
        el.otherShare = 0.0;
        el.vo = orec.vo;
        el.distance = std::sqrt(orec.distSq);
        el.timeToCollision =
            timeToSegment(v1.point - a.position, v2.point - a.position, p.radius, a.velocity);
        ++rec.numObstacleLines;
    }

    // Agent neighbours and their lines (recomputed: agentOrcaLine is a pure function of the
    // same inputs, so the line is the one the solver used).
    const double invTimeHorizon = 1.0 / p.timeHorizon;
    const double invTimeStep = 1.0 / m_params.timeStep;
    const detail::AgentArrays agents = agentArrays();
    for (std::size_t k = 0; k < s.neighborCount; ++k) {
        const detail::Neighbor& nb = s.neighbors[k];
        rec.agentNeighbors.push_back({m_ids[nb.agent], nb.distSq});
        const Vec2 relPos = detail::relativePosition(m_pos[nb.agent], a.position, nb.agent,
                                                     static_cast<std::uint32_t>(i));
        const Vec2 otherVelocity = m_vel[nb.agent];
        const double combinedRadius = p.radius + m_radius[nb.agent];
        const double share =
            detail::shareOfU(m_params, agents, static_cast<std::uint32_t>(i), nb.agent);
        const AgentLine al = agentOrcaLine(relPos, a.velocity - otherVelocity, a.velocity,
                                           combinedRadius, invTimeHorizon, invTimeStep, share);
        ExplainLine& el = rec.lines[rec.numObstacleLines + k];
        el.line = al.line;
        el.lineCase = al.lineCase;
        el.otherAgent = m_ids[nb.agent];
        el.u = al.u;
        el.share = share;
        el.otherStatic = m_static[nb.agent] != 0;
        el.otherShare = el.otherStatic ? 0.0
                                       : detail::shareOfU(m_params, agents, nb.agent,
                                                          static_cast<std::uint32_t>(i));
        el.otherWeight = m_weight[nb.agent];
        el.relativeVelocity = a.velocity - otherVelocity;
        el.vo = agentVelocityObstacle(relPos, otherVelocity, combinedRadius, invTimeHorizon,
                                      invTimeStep);
        el.distance = std::sqrt(nb.distSq);
        el.timeToCollision = timeToDisk(relPos, combinedRadius, el.relativeVelocity);
    }

    rec.lp2Fail = r.lp2Fail;
    rec.lp2Velocity = r.lp2Velocity;
    rec.lp3Ran = r.lp3Ran;
    rec.lp3Depth = r.lp3Depth;
    rec.newVelocity = r.velocity;
    for (ExplainLine& el : rec.lines)
        el.violation = violation(el.line, r.velocity);
    rec.feasibleRegion = feasibleRegion(s.lines, p.maxSpeed);
}

} // namespace orca
