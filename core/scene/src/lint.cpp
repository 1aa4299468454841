#include "orca/scene/lint.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <utility>

#include "lint_rules.hpp"

namespace orca::scene {

namespace lint {

// ---- The rule table -----------------------------------------------------------------------------
//
// One row per rule: {id, severity, check, fix (or nullptr), doc}. To add a rule, write its
// check (and fix) in the file of its group, declare them in lint_rules.hpp and add a row here
// (docs/lint.md, "Adding a rule"). The order of the rows does not change the result: findings
// are sorted by severity, element and rule id (see issueLess), and each rule adds its own
// findings in a fixed order.

namespace {

constexpr LintRule kRules[] = {
    // Obstacles (lint_obstacles.cpp)
    {"obstacle-clockwise", LintSeverity::Error, checkObstacleClockwise, fixObstacleClockwise,
     "a polygon drawn clockwise is inside out for ORCA"},
    {"obstacle-self-intersecting", LintSeverity::Error, checkObstacleSelfIntersecting,
     fixDeleteBrokenObstacle, "edges of a polygon cross"},
    {"obstacle-duplicate-vertex", LintSeverity::Error, checkObstacleDuplicateVertex,
     fixObstacleDuplicateVertex, "two vertices of a polygon are the same point"},
    {"obstacle-too-few-vertices", LintSeverity::Error, checkObstacleTooFewVertices,
     fixDeleteBrokenObstacle, "an obstacle with fewer than 2 vertices"},
    {"obstacle-non-finite", LintSeverity::Error, checkObstacleNonFinite, fixDeleteBrokenObstacle,
     "a vertex that is not a finite number"},
    {"obstacle-collinear", LintSeverity::Error, checkObstacleCollinear, fixObstacleCollinear,
     "a polygon whose vertices all lie on one line"},
    {"obstacle-invalid", LintSeverity::Error, checkObstacleInvalid, fixDeleteBrokenObstacle,
     "any other reason the simulator rejects an obstacle"},
    {"obstacle-tiny-edge", LintSeverity::Warning, checkObstacleTinyEdge, fixObstacleTinyEdge,
     "an edge shorter than the solver's epsilon"},
    // Agents (lint_agents.cpp; agent-in-obstacle in lint_obstacles.cpp)
    {"agents-overlap", LintSeverity::Error, checkAgentsOverlap, fixAgentsOverlap,
     "two agents overlap at the start"},
    {"duplicate-agents", LintSeverity::Error, checkDuplicateAgents, fixDuplicateAgents,
     "an agent pasted twice (same position and goal); a warning for two static agents"},
    {"agent-in-obstacle", LintSeverity::Error, checkAgentInObstacle, fixAgentInObstacle,
     "an agent starts inside or overlapping an obstacle; a warning for a static agent"},
    {"agent-non-finite", LintSeverity::Error, checkAgentNonFinite, fixAgentNonFinite,
     "a position, velocity, goal or prefVelocity that is not finite"},
    {"static-agent-moving", LintSeverity::Error, checkStaticAgentMoving, fixStaticAgentMoving,
     "a static agent with a goal, prefVelocity or velocity"},
    {"goal-and-pref-velocity", LintSeverity::Error, checkGoalAndPrefVelocity,
     fixGoalAndPrefVelocity, "an agent with both a goal and a constant prefVelocity"},
    {"coordinate-huge", LintSeverity::Warning, checkCoordinateHuge, nullptr,
     "a position, goal or vertex beyond LintOptions::maxCoordinate"},
    // Goals and paths (lint_obstacles.cpp, lint_goals.cpp; goal-unreachable-straight in
    // lint_routes.cpp)
    {"goal-in-obstacle", LintSeverity::Error, checkGoalInObstacle, fixGoalInObstacle,
     "a goal the agent cannot reach for an obstacle"},
    {"goal-unreachable-straight", LintSeverity::Warning, checkGoalUnreachableStraight,
     fixGoalUnreachableStraight,
     "with straight routing, a leg of the route (to a waypoint or the goal) crosses an obstacle"},
    {"goal-crowded", LintSeverity::Warning, checkGoalCrowded, fixGoalCrowded,
     "agents sharing a goal whose goalRadius cannot hold them all"},
    {"starts-at-goal", LintSeverity::Info, checkStartsAtGoal, nullptr,
     "an agent starts within its goalRadius"},
    // Routes (lint_routes.cpp)
    {"waypoint-in-obstacle", LintSeverity::Error, checkWaypointInObstacle, fixWaypointInObstacle,
     "a waypoint inside an obstacle or closer to it than the agent's radius"},
    {"goal-unreachable-roadmap", LintSeverity::Warning, checkGoalUnreachableRoadmap, nullptr,
     "a leg blocked by an obstacle that the roadmap cannot route round either"},
    {"waypoints-many", LintSeverity::Warning, checkWaypointsMany, nullptr,
     "more than 100 waypoints on one agent"},
    {"routing-roadmap-suggested", LintSeverity::Info, checkRoutingRoadmapSuggested,
     fixRoutingRoadmapSuggested, "straight legs cross obstacles that roadmap routing goes round"},
    {"routing-without-obstacles", LintSeverity::Info, checkRoutingWithoutObstacles,
     fixRoutingWithoutObstacles, "roadmap routing in a scene without obstacles"},
    // Head-on pairs (lint_agents.cpp)
    {"head-on-symmetric", LintSeverity::Warning, checkHeadOnSymmetric, fixHeadOnSymmetric,
     "two agents heading straight for each other along one line"},
    // Avoidance weights (lint_weights.cpp)
    {"weights-zero-pair", LintSeverity::Warning, checkWeightsZeroPair, nullptr,
     "two agents of weight 0 whose walks meet: neither keeps its course"},
    {"weights-without-effect", LintSeverity::Info, checkWeightsWithoutEffect,
     fixWeightsWithoutEffect, "the same avoidance weight on every moving agent"},
    // Parameters (lint_params.cpp; max-neighbors-low in lint_agents.cpp)
    {"neighbor-dist-short", LintSeverity::Warning, checkNeighborDistShort, fixNeighborDistShort,
     "neighborDist below maxSpeed x timeHorizon"},
    {"max-neighbors-low", LintSeverity::Warning, checkMaxNeighborsLow, fixMaxNeighborsLow,
     "more agents in range at the start than maxNeighbors"},
    {"time-step-vs-horizon", LintSeverity::Warning, checkTimeStepVsHorizon, nullptr,
     "a time horizon shorter than the time step"},
    {"param-invalid", LintSeverity::Error, checkParamInvalid, fixParamInvalid,
     "an agent parameter the simulator rejects"},
    {"simulation-invalid", LintSeverity::Error, checkSimulationInvalid, fixSimulationInvalid,
     "a simulation or detour value the simulator rejects"},
    {"max-speed-zero", LintSeverity::Warning, checkMaxSpeedZero, nullptr,
     "maxSpeed 0 for agents that have somewhere to go"},
    {"pref-speed-zero", LintSeverity::Warning, checkPrefSpeedZero, nullptr,
     "prefSpeed 0 for agents with a goal"},
    {"radius-huge", LintSeverity::Warning, checkRadiusHuge, nullptr,
     "a radius above LintOptions::maxRadius"},
    {"pref-speed-above-max", LintSeverity::Info, checkPrefSpeedAboveMax, nullptr,
     "a preferred speed above maxSpeed"},
    {"text-too-long", LintSeverity::Warning, checkTextTooLong, nullptr,
     "a name, agent id or hint longer than the app shows (text_limits.hpp)"},
};

// ---- Ordering -----------------------------------------------------------------------------------

int kindRank(const LintIssue& issue) {
    if (issue.elements.empty()) return 0;
    switch (issue.elements.front().kind) {
    case Kind::Simulation:
        return 0;
    case Kind::Agent:
    case Kind::Goal:
        return 1;
    case Kind::Obstacle:
    case Kind::Vertex:
    case Kind::Edge:
        return 2;
    }
    return 3;
}

bool issueLess(const LintIssue& a, const LintIssue& b) {
    if (a.severity != b.severity) return a.severity < b.severity;
    const int ra = kindRank(a);
    const int rb = kindRank(b);
    if (ra != rb) return ra < rb;
    const LintElement none{};
    const LintElement& ea = a.elements.empty() ? none : a.elements.front();
    const LintElement& eb = b.elements.empty() ? none : b.elements.front();
    if (ea.index != eb.index) return ea.index < eb.index;
    if (ea.sub != eb.sub) return ea.sub < eb.sub;
    if (a.rule != b.rule) return a.rule < b.rule;
    return a.jsonPath < b.jsonPath;
}

} // namespace

std::span<const LintRule> rules() {
    return kRules;
}

// ---- Small helpers ------------------------------------------------------------------------------

std::string num(double v) {
    if (!std::isfinite(v)) return std::isnan(v) ? "NaN" : (v > 0 ? "inf" : "-inf");
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%.6g", v);
    return buf.data();
}

std::string agentPath(std::size_t i) {
    return "agents[" + std::to_string(i) + "]";
}
std::string obstaclePath(std::size_t i) {
    return "obstacles[" + std::to_string(i) + "]";
}
std::string vertexPath(std::size_t o, std::size_t v) {
    return obstaclePath(o) + ".vertices[" + std::to_string(v) + "]";
}

bool finite(Vec2 v) {
    return std::isfinite(v.x) && std::isfinite(v.y);
}

double fileMaxOf(std::string_view agentParam) {
    return findParameter("agent." + std::string(agentParam))->fileRange.max;
}

LintElement agentElement(std::size_t i) {
    return {Kind::Agent, i, 0};
}
LintElement goalElement(std::size_t i) {
    return {Kind::Goal, i, 0};
}
LintElement obstacleElement(std::size_t i) {
    return {Kind::Obstacle, i, 0};
}

/// "agents[3]", "agents[3] and agents[7]", "agents[3], agents[7], agents[9] and 12 more".
std::string agentList(const std::vector<std::size_t>& agents) {
    std::string out;
    const std::size_t shown = std::min<std::size_t>(agents.size(), 3);
    for (std::size_t k = 0; k < shown; ++k) {
        if (k > 0) out += (k + 1 == agents.size()) ? " and " : ", ";
        out += agentPath(agents[k]);
    }
    if (agents.size() > shown) out += " and " + std::to_string(agents.size() - shown) + " more";
    return out;
}

std::string plural(std::size_t n, const char* word) {
    return std::to_string(n) + ' ' + word + (n == 1 ? "" : "s");
}

// ---- Parameters ---------------------------------------------------------------------------------

/// The simulator's rule for each agent parameter (Simulator::validate): the parameter table.
bool paramValid(std::string_view key, double v) {
    for (const ParamRow& row : parameterTable(ParamScope::Agent))
        if (row.name == key) return check(row, v).empty();
    return false;
}

bool paramsValid(const AgentParams& p) {
    return checkAgentParams(p).empty();
}

bool overridden(const AgentOverrides& o, std::string_view key) {
    bool set = false;
    AgentOverrides copy = o;
    AgentParams unused;
    withParam(copy, unused, key, [&](auto& override, auto&) { set = override.has_value(); });
    return set;
}

// ---- Parameter groups ---------------------------------------------------------------------------

std::vector<Group> groupByParams(const Context& c, const std::vector<std::size_t>& agents,
                                 std::initializer_list<std::string_view> keys) {
    std::vector<Group> groups;
    std::map<std::vector<double>, std::size_t> byValues;
    std::optional<std::size_t> defaultsGroup;
    for (std::size_t i : agents) {
        const SceneAgent& a = c.scene.agents[i];
        bool anyOverride = false;
        std::vector<double> values;
        for (std::string_view key : keys) {
            anyOverride = anyOverride || overridden(a.overrides, key);
            AgentOverrides o;
            AgentParams p = c.params[i];
            withParam(o, p, key,
                      [&](auto&, auto& value) { values.push_back(static_cast<double>(value)); });
        }
        if (!anyOverride) {
            if (!defaultsGroup) {
                defaultsGroup = groups.size();
                groups.push_back({true, {}});
            }
            groups[*defaultsGroup].agents.push_back(i);
            continue;
        }
        auto [it, inserted] = byValues.try_emplace(values, groups.size());
        if (inserted) groups.push_back({false, {}});
        groups[it->second].agents.push_back(i);
    }
    return groups;
}

std::vector<LintElement> agentElements(const std::vector<std::size_t>& agents) {
    std::vector<LintElement> out;
    out.reserve(agents.size());
    for (std::size_t i : agents)
        out.push_back(agentElement(i));
    return out;
}

/// "agentDefaults.key" for a defaults group, else "agents[i].key" when the first agent
/// overrides `key`, else "agents[i]".
std::string groupPath(const Context& c, const Group& g, std::string_view key) {
    if (g.fromDefaults) return "agentDefaults." + std::string(key);
    const std::size_t i = g.agents.front();
    if (overridden(c.scene.agents[i].overrides, key)) return agentPath(i) + '.' + std::string(key);
    return agentPath(i);
}

std::string groupWho(const Group& g, std::size_t total) {
    if (g.fromDefaults && g.agents.size() == total && total > 1)
        return "all " + std::to_string(total) + " agents using agentDefaults";
    return agentList(g.agents);
}

// ---- Fix helpers --------------------------------------------------------------------------------

bool fail(std::string* error, std::string message) {
    if (error != nullptr) *error = std::move(message);
    return false;
}

/// The index in "prefix[N]..." or nullopt.
std::optional<std::size_t> pathIndex(const std::string& path, std::string_view prefix) {
    if (path.rfind(prefix, 0) != 0 || path.size() <= prefix.size() + 1 ||
        path[prefix.size()] != '[')
        return std::nullopt;
    std::size_t value = 0;
    std::size_t k = prefix.size() + 1;
    if (k >= path.size() || !std::isdigit(static_cast<unsigned char>(path[k]))) return std::nullopt;
    for (; k < path.size() && std::isdigit(static_cast<unsigned char>(path[k])); ++k)
        value = value * 10 + static_cast<std::size_t>(path[k] - '0');
    if (k >= path.size() || path[k] != ']') return std::nullopt;
    return value;
}

/// The text after the last '.' of a path ("agents[3].radius" -> "radius").
std::string lastKey(const std::string& path) {
    const std::size_t dot = path.rfind('.');
    return dot == std::string::npos ? std::string() : path.substr(dot + 1);
}

std::optional<std::size_t> elementIndex(const LintIssue& issue, Kind kind, std::size_t nth) {
    for (const LintElement& e : issue.elements) {
        if (e.kind != kind) continue;
        if (nth == 0) return e.index;
        --nth;
    }
    return std::nullopt;
}

std::vector<std::size_t> elementAgents(const LintIssue& issue, std::size_t count) {
    std::vector<std::size_t> out;
    for (const LintElement& e : issue.elements)
        if (e.kind == Kind::Agent && e.index < count) out.push_back(e.index);
    return out;
}

// ---- Context ------------------------------------------------------------------------------------

Context::Context(const Scene& s, const LintOptions& o) : scene(s), options(o) {
    params.resize(s.agents.size());
    ok.assign(s.agents.size(), 0);
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        params[i] = s.resolvedParams(a);
        const bool values = finite(a.position) && (!a.velocity || finite(*a.velocity)) &&
                            (!a.goal || finite(*a.goal)) &&
                            (!a.prefVelocity || finite(*a.prefVelocity));
        ok[i] = values && paramsValid(params[i]) ? 1 : 0;
    }
    m_shapes.resize(s.obstacles.size());
}

void Context::run(const LintRule& rule) {
    m_rule = &rule;
    rule.check(*this);
    m_rule = nullptr;
}

LintIssue& Context::add(std::string path, std::string message, std::vector<LintElement> elements,
                        Vec2 where, std::string fixLabel) {
    return add(m_rule->severity, std::move(path), std::move(message), std::move(elements), where,
               std::move(fixLabel));
}

LintIssue& Context::add(LintSeverity severity, std::string path, std::string message,
                        std::vector<LintElement> elements, Vec2 where, std::string fixLabel) {
    LintIssue issue;
    issue.rule = std::string(m_rule->id);
    issue.severity = severity;
    issue.jsonPath = std::move(path);
    issue.message = std::move(message);
    issue.elements = std::move(elements);
    issue.where = finite(where) ? where : Vec2{0.0, 0.0};
    issue.fixLabel = std::move(fixLabel);
    issues.push_back(std::move(issue));
    return issues.back();
}

AgentIndex& Context::agentIndex() {
    if (!m_agentIndex) {
        m_agentIndex.emplace();
        buildIndex(scene, params, ok, *m_agentIndex);
    }
    return *m_agentIndex;
}

const ObstacleShape& Context::shape(std::size_t k) {
    if (!m_shapes[k]) m_shapes[k] = obstacleShape(scene.obstacles[k].vertices, k);
    return *m_shapes[k];
}

const ObstacleContacts& Context::contacts() {
    if (!m_contacts) m_contacts = obstacleContacts(*this);
    return *m_contacts;
}

} // namespace lint

// ---- Public API ---------------------------------------------------------------------------------

const char* severityName(LintSeverity severity) {
    switch (severity) {
    case LintSeverity::Error:
        return "error";
    case LintSeverity::Warning:
        return "warning";
    case LintSeverity::Info:
        return "info";
    }
    return "unknown";
}

std::vector<LintIssue> lintScene(const Scene& scene, const LintOptions& options) {
    lint::Context c(scene, options);
    for (const lint::LintRule& rule : lint::rules())
        c.run(rule);
    std::stable_sort(c.issues.begin(), c.issues.end(), lint::issueLess);
    return std::move(c.issues);
}

bool applyLintFix(Scene& scene, const LintIssue& issue, std::string* error) {
    if (issue.fixLabel.empty()) return lint::fail(error, "the issue has no automatic fix");
    const std::span<const lint::LintRule> table = lint::rules();
    const auto row = std::find_if(table.begin(), table.end(),
                                  [&](const lint::LintRule& r) { return r.id == issue.rule; });
    if (row == table.end() || row->fix == nullptr)
        return lint::fail(error, "no automatic fix for rule " + issue.rule);
    return row->fix(scene, issue, error);
}

} // namespace orca::scene
