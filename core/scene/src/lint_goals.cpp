// Lint rules about goals: agents crowding round a shared goal, agents that start at theirs.
// (Goals against obstacles are in lint_obstacles.cpp.)

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

#include "lint_rules.hpp"

namespace orca::scene::lint {

namespace {

/// Best known radius of a disk holding k unit disks (k = 1..20), for goal-crowded. Beyond 20,
/// sqrt(k / density) + 0.5 is used (density from LintOptions).
constexpr std::array<double, 21> kCirclePacking = {0.0,   1.0,   2.0,   2.155, 2.414, 2.701, 3.0,
                                                   3.0,   3.304, 3.613, 3.813, 3.923, 4.029, 4.236,
                                                   4.328, 4.521, 4.615, 4.792, 4.863, 4.863, 5.122};

/// Disk radius (in agent radii) holding k equal disks.
double packingRatio(std::size_t k, double density) {
    if (k < kCirclePacking.size()) return kCirclePacking[k];
    return std::sqrt(static_cast<double>(k) / density) + 0.5;
}

/// The goalRadius that lets every agent of `agents` (sharing one goal) be at the goal at once,
/// rounded up to 0.01.
double crowdedGoalRadius(const std::vector<AgentParams>& params,
                         const std::vector<std::size_t>& agents, double density) {
    double sumSq = 0.0;
    for (std::size_t i : agents)
        sumSq += params[i].radius * params[i].radius;
    const double r = std::sqrt(sumSq / static_cast<double>(agents.size()));
    const double need = r * (packingRatio(agents.size(), density) - 1.0);
    return std::ceil(need * 100.0 - 1e-9) / 100.0;
}

/// Groups of two or more moving agents with exactly the same goal, by first agent.
std::vector<std::vector<std::size_t>> sharedGoals(const Context& c) {
    std::vector<std::size_t> withGoal;
    for (std::size_t i = 0; i < c.scene.agents.size(); ++i)
        if (c.moving(i) && c.scene.agents[i].goal) withGoal.push_back(i);
    const auto goal = [&](std::size_t i) { return *c.scene.agents[i].goal; };
    std::sort(withGoal.begin(), withGoal.end(), [&](std::size_t a, std::size_t b) {
        const Vec2 ga = goal(a);
        const Vec2 gb = goal(b);
        if (ga.x != gb.x) return ga.x < gb.x;
        if (ga.y != gb.y) return ga.y < gb.y;
        return a < b;
    });
    std::vector<std::vector<std::size_t>> groups;
    for (std::size_t k = 0; k < withGoal.size();) {
        std::size_t end = k + 1;
        while (end < withGoal.size() && goal(withGoal[end]) == goal(withGoal[k]))
            ++end;
        if (end - k >= 2)
            groups.emplace_back(withGoal.begin() + static_cast<std::ptrdiff_t>(k),
                                withGoal.begin() + static_cast<std::ptrdiff_t>(end));
        k = end;
    }
    std::sort(groups.begin(), groups.end());
    return groups;
}

} // namespace

void checkGoalCrowded(Context& c) {
    const Scene& s = c.scene;
    const double density = c.options.goalPackingDensity > 0.0 && c.options.goalPackingDensity <= 1.0
                               ? c.options.goalPackingDensity
                               : LintOptions{}.goalPackingDensity;
    for (const std::vector<std::size_t>& agents : sharedGoals(c)) {
        const Vec2 goal = *s.agents[agents.front()].goal;
        double smallest = std::numeric_limits<double>::infinity();
        for (std::size_t i : agents)
            smallest = std::min(smallest, effectiveGoalRadius(c.params[i]));
        const double need = crowdedGoalRadius(c.params, agents, density);
        if (!(smallest < need)) continue;
        const double target = std::min(need, fileMaxOf("goalRadius"));
        std::vector<LintElement> elements;
        for (std::size_t i : agents) {
            elements.push_back(agentElement(i));
            elements.push_back(goalElement(i));
        }
        c.add(agentPath(agents.front()) + ".goal",
              plural(agents.size(), "agent") + " (" + agentList(agents) + ") share the goal (" +
                  num(goal.x) + ", " + num(goal.y) + ") but their goalRadius " + num(smallest) +
                  " cannot hold them all: they jostle round it forever and never all count "
                  "as arrived (needs about " +
                  num(need) + (target < need ? ", more than a scene's goalRadius can be" : "") +
                  ")",
              std::move(elements), goal,
              smallest < target ? "Raise goalRadius to " + num(target) : std::string());
    }
}

void checkStartsAtGoal(Context& c) {
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        if (!c.moving(i) || !a.goal) continue;
        const double r = effectiveGoalRadius(c.params[i]);
        if (absSq(*a.goal - a.position) <= r * r && *a.goal != a.position) {
            c.add(agentPath(i) + ".goal",
                  agentPath(i) + " starts within its goalRadius " + num(r) +
                      " of its goal, so it counts as arrived from the first step",
                  {agentElement(i), goalElement(i)}, a.position);
        }
    }
}

bool fixGoalCrowded(Scene& scene, const LintIssue& issue, std::string* error) {
    const std::vector<std::size_t> agents = elementAgents(issue, scene.agents.size());
    if (agents.size() < 2) return fail(error, "the issue lists no agents");
    const SceneAgent& first = scene.agents[agents.front()];
    std::vector<AgentParams> params(scene.agents.size());
    for (std::size_t i : agents) {
        const SceneAgent& a = scene.agents[i];
        if (!a.goal || !first.goal || *a.goal != *first.goal)
            return fail(error, "the agents no longer share a goal");
        params[i] = scene.resolvedParams(a);
        if (!paramsValid(params[i])) return fail(error, "invalid agent parameters");
    }
    const double need =
        std::min(crowdedGoalRadius(params, agents, LintOptions{}.goalPackingDensity),
                 fileMaxOf("goalRadius"));
    bool changed = false;
    for (std::size_t i : agents) {
        if (effectiveGoalRadius(params[i]) < need) {
            scene.agents[i].overrides.goalRadius = need;
            changed = true;
        }
    }
    return changed ? true : fail(error, "goalRadius is large enough now");
}

} // namespace orca::scene::lint
