// Lint rules about avoidance weights (AgentParams::avoidanceWeight, docs/parameters.md): weights
// that cannot do what they were set for.

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "lint_rules.hpp"

namespace orca::scene::lint {

namespace {

/// weights-zero-pair compares at most this many weight-0 agents pairwise (k² / 2 pairs); beyond
/// it the rule looks at the first ones only (a crowd of weight-0 agents is its own finding).
constexpr std::size_t kMaxZeroWeightAgents = 2000;

/// The smallest |d0 + dv·t| for t in [0, span] (span may be +inf).
double closestOver(Vec2 d0, Vec2 dv, double span) {
    const double vv = absSq(dv);
    double t = vv > 0.0 ? -dot(d0, dv) / vv : 0.0;
    t = std::clamp(t, 0.0, span);
    return length(d0 + dv * t);
}

/// The closest the two walks come: both moving until the first stops at its goal, then the
/// other walking past the one standing there.
double closestApproach(const Walk& a, const Walk& b) {
    const double both = std::min(a.duration, b.duration);
    const Vec2 d0 = b.start - a.start;
    const Vec2 dv = b.velocity - a.velocity;
    double best = closestOver(d0, dv, both);
    if (std::isinf(both)) return best;
    // From `both` on, the one that arrived stands still.
    const Vec2 d1 = d0 + dv * both;
    const Vec2 dv1 = a.duration <= b.duration ? b.velocity : -a.velocity;
    best = std::min(best, closestOver(d1, dv1, std::abs(a.duration - b.duration)));
    return best;
}

} // namespace

/// Two moving agents of weight 0 whose straight walks bring them into contact: between equal
/// weights each takes responsibility's share, so neither keeps its course as weight 0 promises.
void checkWeightsZeroPair(Context& c) {
    const Scene& s = c.scene;
    std::vector<std::size_t> zero;
    for (std::size_t i = 0; i < s.agents.size() && zero.size() < kMaxZeroWeightAgents; ++i)
        if (c.moving(i) && c.params[i].avoidanceWeight == 0.0) zero.push_back(i);
    std::vector<std::optional<Walk>> walks;
    walks.reserve(zero.size());
    for (const std::size_t i : zero)
        walks.push_back(walkOf(s.agents[i], c.params[i]));
    for (std::size_t a = 0; a < zero.size(); ++a) {
        if (!walks[a]) continue;
        for (std::size_t b = a + 1; b < zero.size(); ++b) {
            if (!walks[b]) continue;
            const std::size_t i = zero[a];
            const std::size_t j = zero[b];
            const double contact = c.params[i].radius + c.params[j].radius;
            if (!(closestApproach(*walks[a], *walks[b]) < contact)) continue;
            c.add(agentPath(j) + ".avoidanceWeight",
                  agentPath(i) + " and " + agentPath(j) +
                      " both have avoidanceWeight 0 and their straight walks meet: between equal "
                      "weights each takes responsibility's share (" +
                      num(s.simulation.params.responsibility) +
                      ") of u, so neither keeps its course as weight 0 promises; give one of "
                      "them a positive weight to say which one yields",
                  {agentElement(i), agentElement(j)},
                  (s.agents[i].position + s.agents[j].position) * 0.5);
        }
    }
}

/// Weights set, but every moving agent has the same one: every pair takes responsibility's
/// share, exactly as without weights.
void checkWeightsWithoutEffect(Context& c) {
    const Scene& s = c.scene;
    std::vector<std::size_t> moving;
    for (std::size_t i = 0; i < s.agents.size(); ++i)
        if (c.moving(i)) moving.push_back(i);
    if (moving.size() < 2) return;
    const double w = c.params[moving.front()].avoidanceWeight;
    if (w == 1.0) return; // the default: nothing was set for an effect
    for (const std::size_t i : moving)
        if (c.params[i].avoidanceWeight != w) return;
    const bool fromDefaults = s.agentDefaults.avoidanceWeight == w;
    const std::size_t first = moving.front();
    c.add(fromDefaults ? std::string("agentDefaults.avoidanceWeight")
                       : agentPath(first) + ".avoidanceWeight",
          "every moving agent has avoidanceWeight " + num(w) +
              ": equal weights give every pair responsibility's share, exactly as without "
              "weights, so they change nothing (weights matter between agents of different "
              "weights)",
          agentElements(moving), s.agents[first].position, "Remove the weights");
}

/// Removes every avoidanceWeight: agentDefaults' back to 1 and the agents' overrides.
bool fixWeightsWithoutEffect(Scene& scene, const LintIssue& issue, std::string* error) {
    (void)issue;
    std::optional<double> common;
    for (const SceneAgent& a : scene.agents) {
        if (a.isStatic) continue;
        const double w = scene.resolvedParams(a).avoidanceWeight;
        if (common && *common != w) return fail(error, "the agents' weights differ now");
        common = w;
    }
    if (!common || *common == AgentParams{}.avoidanceWeight)
        return fail(error, "no weight other than 1 to remove");
    scene.agentDefaults.avoidanceWeight = AgentParams{}.avoidanceWeight;
    for (SceneAgent& a : scene.agents)
        a.overrides.avoidanceWeight.reset();
    return true;
}

} // namespace orca::scene::lint
