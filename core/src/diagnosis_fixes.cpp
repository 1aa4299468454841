// buildFixes: each class's suggestion as fixes that can be applied (fixes.hpp), best first
// (docs/diagnosis.md, "Fixes").
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "diagnosis_rules.hpp"
#include "orca/parameters.hpp"

namespace orca::detail::diagnosis {

namespace {

FixEdit agentParameter(const std::string& name, double value) {
    FixEdit e;
    e.kind = FixEdit::Kind::AgentParameter;
    e.parameter = name;
    e.value = value;
    return e;
}

DiagnosisFix deadlockBreaking() {
    FixEdit e;
    e.kind = FixEdit::Kind::DeadlockBreaking;
    e.on = true;
    return {"Turn on deadlock breaking", {e}};
}

DiagnosisFix roadmapRouting() {
    FixEdit e;
    e.kind = FixEdit::Kind::Routing;
    e.routing = Routing::Roadmap;
    return {"Switch the scene to roadmap routing", {e}};
}

/// Whether the disk (p, r) is clear of every obstacle (outside each polygon, r from each edge).
bool clearOfObstacles(const Simulator& sim, Vec2 p, double r) {
    for (std::size_t k = 0; k < sim.obstacleCount(); ++k) {
        const std::span<const Vec2> poly = sim.obstacleVertices(sim.obstacleIdAt(k));
        if (poly.size() >= 3 && pointInPolygon(poly, p)) return false;
        for (std::size_t a = 0; a < poly.size(); ++a) {
            const std::size_t b = (a + 1) % poly.size();
            if (poly.size() == 2 && a == 1) break;
            if (distSqPointSegment(poly[a], poly[b], p) < r * r) return false;
        }
    }
    return true;
}

/// The bottleneck jam's fixes: a wider gap with a lane per flow, lanes alone (when the gap
/// already holds two), deadlock breaking.
void jamFixes(Context& c) {
    Diagnosis& d = c.d;
    const Simulator& sim = c.sim;
    const Vec2 center = d.gapCenter;
    const Vec2 across = d.gapAcross;
    // The agents that still have to cross, and the largest radius among them.
    const double reach = std::max(24.0 * c.rec.params.radius, c.rec.params.neighborDist);
    std::vector<std::uint32_t> crossing;
    double largest = 0.0;
    const auto positions = sim.positions();
    for (std::size_t j = 0; j < positions.size(); ++j) {
        if (sim.isStaticAt(j) || !sim.hasGoalAt(j) || sim.atGoalAt(j)) continue;
        if (absSq(positions[j] - center) > reach * reach) continue;
        const double rj = sim.agentParams()[j].radius;
        const double side = det(across, positions[j] - center);
        const double toward = det(across, sim.targetAt(j) - center);
        if (toward == 0.0 || (std::fabs(side) > rj && (side > 0.0) == (toward > 0.0))) continue;
        crossing.push_back(static_cast<std::uint32_t>(j));
        largest = std::max(largest, rj);
    }
    const double need = 4.4 * largest; // two agents side by side and a tenth to spare
    const double width = std::max(d.gapWidth, need);
    // Lanes: each flow keeps to the right of the gap's centre line, a quarter of the (new)
    // width off it, with a waypoint before and one after the gap.
    auto lanes = [&](double laneWidth, bool widened, std::vector<FixEdit>& edits) {
        for (std::uint32_t j : crossing) {
            const double rj = sim.agentParams()[j].radius;
            const double toward = det(across, sim.targetAt(j) - center);
            const Vec2 m = (toward > 0.0 ? 1.0 : -1.0) * perp(across); // crossing direction
            const Vec2 right{m.y, -m.x};
            const Vec2 lane = center + right * (0.25 * laneWidth);
            // Before and after the gap: the nearest distance (from 2 radii, in half-radius steps)
            // at which the waypoint is clear of the obstacles (moved ones are not checked).
            double ahead = 2.0 * rj;
            while (ahead < 10.0 * rj && !widened &&
                   !(clearOfObstacles(sim, lane - m * ahead, rj) &&
                     clearOfObstacles(sim, lane + m * ahead, rj)))
                ahead += 0.5 * rj;
            if (widened) ahead = std::max(ahead, 3.0 * rj);
            FixEdit e;
            e.kind = FixEdit::Kind::Waypoints;
            e.agent = j;
            e.kept = sim.routeProgressAt(j);
            e.points = {lane - m * ahead, lane + m * ahead};
            const std::span<const Vec2> route = sim.waypointsAt(j);
            e.points.insert(e.points.end(), route.begin() + sim.routeProgressAt(j), route.end());
            edits.push_back(std::move(e));
        }
    };
    const std::uint32_t first = d.responsibleObstacles.empty() ? 0 : d.responsibleObstacles[0];
    const std::uint32_t second =
        d.responsibleObstacles.size() > 1 ? d.responsibleObstacles[1] : first;
    if (d.gapWidth < need && first != second) {
        // Move the two obstacles apart along the gap, half the missing width each.
        const double shift = 0.5 * (need - d.gapWidth);
        DiagnosisFix fix;
        for (const auto& [o, sign] : {std::pair{first, -1.0}, std::pair{second, 1.0}}) {
            FixEdit e;
            e.kind = FixEdit::Kind::Obstacle;
            e.obstacle = o;
            const std::span<const Vec2> poly = sim.obstacleVertices(sim.obstacleIdAt(o));
            for (Vec2 p : poly)
                e.points.push_back(p + across * (sign * shift));
            fix.edits.push_back(std::move(e));
        }
        lanes(width, true, fix.edits);
        fix.label = "Widen the gap from " + num(d.gapWidth) + " to " + num(need) + " (obstacles " +
                    std::to_string(first) + " and " + std::to_string(second) +
                    " moved apart) and give each flow a lane (waypoints for " +
                    std::to_string(crossing.size()) + " agents)";
        d.fixes.push_back(std::move(fix));
    }
    if (d.gapWidth >= need) {
        DiagnosisFix fix;
        lanes(d.gapWidth, false, fix.edits);
        fix.label = "Give each flow a lane through the gap (waypoints for " +
                    std::to_string(crossing.size()) + " agents)";
        d.fixes.push_back(std::move(fix));
    }
    if (!sim.params().deadlockBreaking) d.fixes.push_back(deadlockBreaking());
}

} // namespace

void buildFixes(Context& c) {
    Diagnosis& d = c.d;
    const Simulator& sim = c.sim;
    switch (d.cls) {
    case DiagnosisClass::None:
        return;
    case DiagnosisClass::GoalCircling:
    case DiagnosisClass::ShortHorizon:
    case DiagnosisClass::NeighborTruncation: {
        if (d.suggestedParameter.empty() || !std::isfinite(d.suggestedValue)) return;
        const ParamRow* row = findParameter(d.suggestedParameter);
        const double now = row ? valueOf(*row, sim.params(), c.rec.params) : 0.0;
        d.fixes.push_back({d.suggestedParameter + " " + num(now) + " → " + num(d.suggestedValue) +
                               " for every agent",
                           {agentParameter(d.suggestedParameter, d.suggestedValue)}});
        return;
    }
    case DiagnosisClass::SymmetricDeadlock:
        if (d.suggestedAgent && d.suggestedGoal) {
            FixEdit e;
            e.kind = FixEdit::Kind::MoveGoal;
            e.agent = *d.suggestedAgent;
            e.points = {*d.suggestedGoal};
            d.fixes.push_back({"Move agent " + std::to_string(*d.suggestedAgent) + "'s goal to " +
                                   vec(*d.suggestedGoal),
                               {e}});
        }
        if (!sim.params().deadlockBreaking) d.fixes.push_back(deadlockBreaking());
        return;
    case DiagnosisClass::StaticWall:
        if (!sim.params().detour.enabled) {
            FixEdit e;
            e.kind = FixEdit::Kind::SimulationParameter;
            e.parameter = "detour.enabled";
            e.value = 1.0;
            d.fixes.push_back({"Enable the detour field", {e}});
        }
        return;
    case DiagnosisClass::ObstacleTrap:
        if (sim.params().routing != Routing::Roadmap) d.fixes.push_back(roadmapRouting());
        if (!d.waypoints.empty()) {
            FixEdit e;
            e.kind = FixEdit::Kind::Waypoints;
            e.agent = static_cast<std::uint32_t>(c.i);
            e.kept = sim.routeProgressAt(c.i);
            e.points = d.waypoints;
            const std::span<const Vec2> route = sim.waypointsAt(c.i);
            e.points.insert(e.points.end(), route.begin() + sim.routeProgressAt(c.i), route.end());
            d.fixes.push_back({"Add " + std::to_string(d.waypoints.size()) +
                                   (d.waypoints.size() == 1 ? " waypoint" : " waypoints") +
                                   " round the obstacle for agent " + std::to_string(c.i),
                               {e}});
        }
        return;
    case DiagnosisClass::CrowdPressure: {
        const double tau = roundUp2(1.5 * c.rec.params.timeHorizon);
        d.fixes.push_back({"timeHorizon " + num(c.rec.params.timeHorizon) + " → " + num(tau) +
                               " s for every agent (react earlier)",
                           {agentParameter("timeHorizon", tau)}});
        if (!sim.params().deadlockBreaking) d.fixes.push_back(deadlockBreaking());
        return;
    }
    case DiagnosisClass::BottleneckJam:
        jamFixes(c);
        return;
    case DiagnosisClass::GroupDeadlock:
        if (!sim.params().deadlockBreaking) d.fixes.push_back(deadlockBreaking());
        return;
    }
}

} // namespace orca::detail::diagnosis
