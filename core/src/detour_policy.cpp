#include "detour_policy.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>

#include "agent_grid.hpp"

namespace orca::detail {

namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    const auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
    std::nth_element(values.begin(), mid, values.end());
    return *mid;
}

void mixBits(std::uint64_t& h, double v) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    h = (h ^ bits) * 0x100000001b3ull;
}

} // namespace

void DetourSources::find(const Simulator& sim, std::uint64_t agentsVersion) {
    // Sources: agents marked static, and agents with no goal (or at it) that have been still
    // for a while. Agents still heading for their goal never feed the field: a stalled agent
    // is the one that needs to detour, and its own field would send followers around it.
    const DetourParams& d = sim.params().detour;
    const std::span<const Vec2> pos = sim.positions();
    const std::size_t n = sim.agentCount();
    isSource.assign(n, 0);
    indices.clear();
    std::uint64_t h = 0xcbf29ce484222325ull ^ agentsVersion;
    for (double v : {d.cellSize, d.influenceRadius})
        mixBits(h, v);
    for (std::size_t i = 0; i < n; ++i) {
        const bool still =
            (!sim.hasGoalAt(i) || sim.atGoalAt(i)) && sim.stillSecondsAt(i) >= d.stillSeconds;
        if (!sim.isStaticAt(i) && !still) continue;
        indices.push_back(static_cast<std::uint32_t>(i));
        isSource[i] = 1;
        h = (h ^ i) * 0x100000001b3ull;
        mixBits(h, pos[i].x);
        mixBits(h, pos[i].y);
    }
    signature = h;
}

void buildDetourField(const Simulator& sim, std::span<const std::uint32_t> sources,
                      DetourField& field) {
    const DetourParams& d = sim.params().detour;
    if (sources.empty()) {
        field.clear();
        return;
    }
    const std::span<const AgentParams> params = sim.agentParams();
    const std::span<const Vec2> pos = sim.positions();
    std::vector<double> radii;
    radii.reserve(params.size());
    for (const AgentParams& p : params)
        radii.push_back(p.radius);
    std::vector<double> sourceRadii;
    sourceRadii.reserve(sources.size());
    for (std::uint32_t i : sources)
        sourceRadii.push_back(radii[i]);
    const double typical = median(std::move(radii));
    const double cell = d.cellSize > 0.0 ? d.cellSize : 0.4 * median(sourceRadii);
    std::vector<Vec2> centers;
    std::vector<double> influence;
    centers.reserve(sources.size());
    influence.reserve(sources.size());
    for (std::uint32_t i : sources) {
        centers.push_back(pos[i]);
        influence.push_back(d.influenceRadius > 0.0 ? d.influenceRadius
                                                    : params[i].radius + 2.0 * typical);
    }
    field.build(centers, influence, cell);
}

DetourPolicy::DetourPolicy(const Simulator& sim, const DetourField& field,
                           std::span<const std::uint8_t> isSource)
    : m_sim(sim), m_params(sim.params().detour), m_field(field), m_isSource(isSource) {}

Vec2 DetourPolicy::prefVelocity(std::size_t i, Vec2 goalPref, std::span<const Neighbor> neighbors,
                                ExplainDetour& info) const {
    const DetourParams& d = m_params;
    const std::span<const Vec2> pos = m_sim.positions();
    const double r = m_sim.agentParams()[i].radius;
    info.enabled = true;
    info.goalPrefVelocity = goalPref;
    info.mode = m_sim.detourModeAt(i);
    if (info.mode != DetourMode::Detouring) return goalPref;

    auto leave = [&](DetourReason why) {
        info.mode = DetourMode::Normal;
        info.reason = why;
        return goalPref;
    };
    // Leave when the goal is near.
    const double goalDistance = length(m_sim.goalAt(i) - pos[i]);
    const double exitGoal = d.exitGoalDistance > 0.0 ? d.exitGoalDistance : 2.0 * r;
    const double prefSpeed = length(goalPref);
    if (goalDistance <= exitGoal || prefSpeed <= 0.0) return leave(DetourReason::GoalNear);

    // Sample the field around a point moved toward the goal (one distance drives both).
    const Vec2 toGoal = goalPref / prefSpeed;
    const double distance =
        std::max(d.sampleDistance > 0.0 ? d.sampleDistance : r, m_field.cellSize());
    info.samplePoint = pos[i] + toGoal * distance;
    info.sampleRadius = distance;
    Vec2 dir = m_field.sample(info.samplePoint, distance);
    if (absSq(dir) <= 1e-18 && d.neighborFallback) {
        // Estimate from nearby static neighbours with the same rotation rule, keeping only
        // directions counter-clockwise of v_pref (single-direction rule).
        Vec2 sum(0.0);
        for (const Neighbor& nb : neighbors) {
            if (!m_isSource[nb.agent]) continue;
            const Vec2 toNeighbor = pos[nb.agent] - pos[i];
            const double lenSq = absSq(toNeighbor);
            if (lenSq <= 0.0) continue;
            const Vec2 around = perp(toNeighbor) / std::sqrt(lenSq);
            if (isCounterClockwiseOf(goalPref, around)) sum += around;
        }
        dir = sum;
        info.usedFallback = absSq(sum) > 1e-18;
    }
    if (absSq(dir) <= 1e-18) return leave(DetourReason::EmptySample);
    dir = normalize(dir);
    info.sampledDirection = dir;
    // Single-direction rule: a direction clockwise of v_pref ends the detour.
    if (!isCounterClockwiseOf(goalPref, dir)) return leave(DetourReason::Clockwise);
    if (dot(dir, toGoal) >= std::cos(d.exitAlignedDegrees * std::numbers::pi / 180.0))
        return leave(DetourReason::Aligned);
    return dir * prefSpeed;
}

void DetourPolicy::afterSolve(std::size_t i, Vec2 newVelocity, ExplainDetour& info) const {
    const DetourParams& d = m_params;
    info.nextMode = info.mode;
    // Still detouring, or just left in this decision (re-entering waits for the next one).
    if (info.mode == DetourMode::Detouring || info.reason != DetourReason::None) return;
    // Enter when ORCA's speed fell below the threshold far from the goal.
    const double prefSpeed = length(info.goalPrefVelocity);
    const double r = m_sim.agentParams()[i].radius;
    const double enterGoal = d.enterGoalDistance > 0.0 ? d.enterGoalDistance : 4.0 * r;
    if (prefSpeed > 0.0 && length(newVelocity) < d.enterSpeedRatio * prefSpeed &&
        length(m_sim.goalAt(i) - m_sim.positions()[i]) > enterGoal) {
        info.nextMode = DetourMode::Detouring;
        info.reason = DetourReason::Stalled;
    }
}

} // namespace orca::detail
