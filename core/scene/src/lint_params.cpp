// Lint rules about the simulation block and agent parameters.

#include <algorithm>
#include <cmath>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "lint_rules.hpp"

namespace orca::scene::lint {

namespace {

// ---- Simulation block ---------------------------------------------------------------------------

/// The rows that simulation-invalid checks: the simulation and detour rows that are numbers (a
/// boolean cannot be invalid in a Scene). Their finding's path is qualifiedName(row).
bool simulationChecked(const ParamRow& row) {
    return row.scope != ParamScope::Agent && row.kind != ParamKind::Boolean;
}

bool positiveFinite(double v) {
    return std::isfinite(v) && v > 0.0;
}

/// The usable agents, and the moving ones among them.
struct AgentSets {
    std::vector<std::size_t> all;
    std::vector<std::size_t> moving;
};

AgentSets agentSets(const Context& c) {
    AgentSets sets;
    for (std::size_t i = 0; i < c.scene.agents.size(); ++i) {
        if (c.ok[i]) sets.all.push_back(i);
        if (c.moving(i)) sets.moving.push_back(i);
    }
    return sets;
}

Vec2 where(const Context& c, const Group& g) {
    return c.scene.agents[g.agents.front()].position;
}

} // namespace

void checkSimulationInvalid(Context& c) {
    const SimulationParams& params = c.scene.simulation.params;
    for (const ParamRow& row : parameterTable()) {
        if (!simulationChecked(row)) continue;
        const double v = row.getSimulation(params);
        if (check(row, v).empty()) continue;
        const std::string path = qualifiedName(row);
        c.add(path,
              path + " is " + num(v) + " but must be " + requirement(row) +
                  ", so the simulator refuses the scene",
              {{Kind::Simulation, 0, 0}}, {0.0, 0.0},
              "Reset to default (" + num(row.defaultValue) + ")");
    }
}

// ---- Agent parameters ---------------------------------------------------------------------------

/// param-invalid: agentDefaults first, then overrides.
void checkParamInvalid(Context& c) {
    const Scene& s = c.scene;
    {
        AgentParams defaults = s.agentDefaults;
        AgentOverrides none;
        forEachAgentParam(none, defaults, [&](std::string_view key, auto&, auto& value) {
            if (paramValid(key, static_cast<double>(value))) return;
            std::vector<std::size_t> users;
            for (std::size_t i = 0; i < s.agents.size(); ++i)
                if (!overridden(s.agents[i].overrides, key)) users.push_back(i);
            AgentParams builtIn;
            AgentOverrides o;
            double reset = 0.0;
            withParam(o, builtIn, key, [&](auto&, auto& v) { reset = static_cast<double>(v); });
            c.add(
                "agentDefaults." + std::string(key),
                "agentDefaults." + std::string(key) + " is " + num(static_cast<double>(value)) +
                    ", which the simulator rejects (" + plural(users.size(), "agent") + " use it)",
                agentElements(users), users.empty() ? Vec2{0.0, 0.0} : s.agents[users[0]].position,
                "Reset to default (" + num(reset) + ")");
        });
    }
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        AgentOverrides o = s.agents[i].overrides;
        AgentParams unused;
        forEachAgentParam(o, unused, [&](std::string_view key, auto& value, auto&) {
            if (!value || paramValid(key, static_cast<double>(*value))) return;
            c.add(agentPath(i) + '.' + std::string(key),
                  agentPath(i) + '.' + std::string(key) + " is " +
                      num(static_cast<double>(*value)) + ", which the simulator rejects",
                  {agentElement(i)}, s.agents[i].position, "Use agentDefaults");
        });
    }
}

void checkRadiusHuge(Context& c) {
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> hit;
    for (std::size_t i : sets.all)
        if (c.params[i].radius > c.options.maxRadius) hit.push_back(i);
    for (const Group& g : groupByParams(c, hit, {"radius"})) {
        const double r = c.params[g.agents.front()].radius;
        c.add(groupPath(c, g, "radius"),
              "radius " + num(r) + " of " + groupWho(g, sets.all.size()) + " is above " +
                  num(c.options.maxRadius) +
                  ", which looks like a unit mistake (ORCA's neighbour ranges and time "
                  "horizons are then far too small for such agents)",
              agentElements(g.agents), where(c, g));
    }
}

namespace {

/// Moving agents that want to go somewhere (a goal away from their position, or a non-zero
/// prefVelocity).
bool wantsToMove(const SceneAgent& a) {
    return (a.goal && *a.goal != a.position) || (a.prefVelocity && absSq(*a.prefVelocity) > 0.0);
}

} // namespace

/// max-speed-zero: agents that want to go somewhere but cannot.
void checkMaxSpeedZero(Context& c) {
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> noMax;
    for (std::size_t i : sets.moving) {
        if (!wantsToMove(c.scene.agents[i])) continue;
        if (c.params[i].maxSpeed == 0.0) noMax.push_back(i);
    }
    for (const Group& g : groupByParams(c, noMax, {"maxSpeed"})) {
        c.add(groupPath(c, g, "maxSpeed"),
              "maxSpeed is 0 for " + groupWho(g, sets.moving.size()) +
                  ", which have somewhere to go: ORCA clamps every velocity to maxSpeed, so "
                  "they never move (make them static if that is the intent)",
              agentElements(g.agents), where(c, g));
    }
}

/// pref-speed-zero: agents with a goal whose preferred speed is 0 (maxSpeed 0 is
/// max-speed-zero).
void checkPrefSpeedZero(Context& c) {
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> noPref;
    for (std::size_t i : sets.moving) {
        const SceneAgent& a = c.scene.agents[i];
        if (!wantsToMove(a)) continue;
        if (c.params[i].maxSpeed != 0.0 && a.goal && c.params[i].prefSpeed == 0.0)
            noPref.push_back(i);
    }
    for (const Group& g : groupByParams(c, noPref, {"prefSpeed"})) {
        c.add(groupPath(c, g, "prefSpeed"),
              "prefSpeed is 0 for " + groupWho(g, sets.moving.size()) +
                  ", which have a goal: their preferred velocity is always zero, so they "
                  "never head for it",
              agentElements(g.agents), where(c, g));
    }
}

void checkPrefSpeedAboveMax(Context& c) {
    const Scene& s = c.scene;
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> hit;
    for (std::size_t i : sets.moving) {
        const SceneAgent& a = s.agents[i];
        if (a.goal && c.params[i].prefSpeed > c.params[i].maxSpeed) hit.push_back(i);
        if (a.prefVelocity && length(*a.prefVelocity) > c.params[i].maxSpeed &&
            c.params[i].maxSpeed > 0.0) {
            c.add(agentPath(i) + ".prefVelocity",
                  "the constant prefVelocity of " + agentPath(i) + " (speed " +
                      num(length(*a.prefVelocity)) + ") exceeds its maxSpeed " +
                      num(c.params[i].maxSpeed) +
                      ", so ORCA always caps it and the agent never gets its preferred velocity",
                  {agentElement(i)}, a.position);
        }
    }
    for (const Group& g : groupByParams(c, hit, {"prefSpeed", "maxSpeed"})) {
        const AgentParams& p = c.params[g.agents.front()];
        if (p.maxSpeed == 0.0) continue; // reported as max-speed-zero
        c.add(groupPath(c, g, "prefSpeed"),
              "prefSpeed " + num(p.prefSpeed) + " exceeds maxSpeed " + num(p.maxSpeed) + " for " +
                  groupWho(g, sets.moving.size()) +
                  ": ORCA never picks a velocity faster than maxSpeed, so they never reach "
                  "their preferred speed",
              agentElements(g.agents), where(c, g));
    }
}

void checkTimeStepVsHorizon(Context& c) {
    const double dt = c.scene.simulation.params.timeStep;
    if (!positiveFinite(dt)) return;
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> hit;
    for (std::size_t i : sets.moving)
        if (std::min(c.params[i].timeHorizon, c.params[i].timeHorizonObst) < dt) hit.push_back(i);
    for (const Group& g : groupByParams(c, hit, {"timeHorizon", "timeHorizonObst"})) {
        const AgentParams& p = c.params[g.agents.front()];
        const bool agentsShort = p.timeHorizon < dt;
        const char* key = agentsShort ? "timeHorizon" : "timeHorizonObst";
        const double tau = agentsShort ? p.timeHorizon : p.timeHorizonObst;
        std::vector<LintElement> elements = agentElements(g.agents);
        elements.push_back({Kind::Simulation, 0, 0});
        c.add(groupPath(c, g, key),
              std::string(key) + " " + num(tau) + " s of " + groupWho(g, sets.moving.size()) +
                  " is shorter than the time step " + num(dt) +
                  " s: ORCA only avoids collisions predicted within that horizon, so they "
                  "react less than one step before contact and avoidance turns into "
                  "overlap and the collision case's push",
              std::move(elements), where(c, g));
    }
}

/// What the fix raises neighborDist to: maxSpeed x timeHorizon, but never past what a scene
/// file accepts.
double neighborDistTarget(const AgentParams& p) {
    return std::min(p.maxSpeed * p.timeHorizon, fileMaxOf("neighborDist"));
}

void checkNeighborDistShort(Context& c) {
    const AgentSets sets = agentSets(c);
    std::vector<std::size_t> hit;
    for (std::size_t i : sets.moving) {
        const AgentParams& p = c.params[i];
        if (p.neighborDist < p.maxSpeed * p.timeHorizon) hit.push_back(i);
    }
    for (const Group& g : groupByParams(c, hit, {"neighborDist", "maxSpeed", "timeHorizon"})) {
        const AgentParams& p = c.params[g.agents.front()];
        const double need = p.maxSpeed * p.timeHorizon;
        const double target = neighborDistTarget(p);
        std::string message = "neighborDist " + num(p.neighborDist) + " of " +
                              groupWho(g, sets.moving.size()) +
                              " is shorter than maxSpeed x timeHorizon = " + num(need) +
                              ": agents that could collide within the time horizon are not "
                              "considered until they are closer, so avoidance starts late and "
                              "is abrupt";
        if (target < need)
            message += " (a scene's neighborDist is at most " + num(target) +
                       ": lower maxSpeed or timeHorizon)";
        c.add(groupPath(c, g, "neighborDist"), std::move(message), agentElements(g.agents),
              where(c, g),
              p.neighborDist < target ? "Raise neighborDist to " + num(target) : std::string());
    }
}

// ---- Fixes --------------------------------------------------------------------------------------

bool fixSimulationInvalid(Scene& scene, const LintIssue& issue, std::string* error) {
    for (const ParamRow& row : parameterTable()) {
        if (!simulationChecked(row) || issue.jsonPath != qualifiedName(row)) continue;
        SimulationParams& params = scene.simulation.params;
        if (check(row, row.getSimulation(params)).empty())
            return fail(error, issue.jsonPath + " is valid now");
        row.setSimulation(params, row.defaultValue);
        return true;
    }
    return fail(error, "unknown simulation key " + issue.jsonPath);
}

bool fixParamInvalid(Scene& scene, const LintIssue& issue, std::string* error) {
    const std::string key = lastKey(issue.jsonPath);
    if (issue.jsonPath.rfind("agentDefaults.", 0) == 0) {
        AgentOverrides o;
        AgentParams builtIn;
        bool changed = false;
        withParam(o, scene.agentDefaults, key, [&](auto&, auto& value) {
            if (paramValid(key, static_cast<double>(value))) return;
            withParam(o, builtIn, key, [&](auto&, auto& fresh) {
                value = static_cast<std::decay_t<decltype(value)>>(fresh);
            });
            changed = true;
        });
        return changed ? true : fail(error, issue.jsonPath + " is valid now");
    }
    const auto i = pathIndex(issue.jsonPath, "agents");
    if (!i || *i >= scene.agents.size()) return fail(error, "no agent at " + issue.jsonPath);
    AgentParams unused;
    bool changed = false;
    withParam(scene.agents[*i].overrides, unused, key, [&](auto& override, auto&) {
        if (!override || paramValid(key, static_cast<double>(*override))) return;
        override.reset();
        changed = true;
    });
    return changed ? true : fail(error, issue.jsonPath + " is valid now");
}

bool fixNeighborDistShort(Scene& scene, const LintIssue& issue, std::string* error) {
    if (issue.jsonPath == "agentDefaults.neighborDist") {
        AgentParams& d = scene.agentDefaults;
        const double target = neighborDistTarget(d);
        if (!(d.neighborDist < target))
            return fail(error, "agentDefaults.neighborDist cannot be raised further now");
        d.neighborDist = target;
        return true;
    }
    bool changed = false;
    for (std::size_t i : elementAgents(issue, scene.agents.size())) {
        const AgentParams p = scene.resolvedParams(scene.agents[i]);
        const double target = neighborDistTarget(p);
        if (scene.agents[i].isStatic || !(p.neighborDist < target)) continue;
        scene.agents[i].overrides.neighborDist = target;
        changed = true;
    }
    return changed ? true : fail(error, "no agent's neighborDist can be raised further now");
}

} // namespace orca::scene::lint
