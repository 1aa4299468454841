#pragma once
// The linter's insides, shared by its rule files (private to orca_scene):
//  - LintRule, a row of the one rule table (lint.cpp, kRules): id, severity, check, fix, doc;
//  - Context, what a check sees: the scene, resolved agent parameters, and indexes built on
//    first use (agent grid, obstacle shapes, agent/obstacle contacts) so that rules sharing
//    one costly pass do not each repeat it;
//  - the helpers the rule files share (paths, elements, parameter groups, geometry).
// The checks and fixes themselves are in lint_params.cpp, lint_agents.cpp, lint_goals.cpp,
// lint_obstacles.cpp and lint_routes.cpp, one group of rules each.

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "orca/obstacles.hpp"
#include "orca/parameters.hpp"
#include "orca/point_grid.hpp"
#include "orca/roadmap.hpp"
#include "orca/scene/lint.hpp"

namespace orca::scene::lint {

using Kind = LintElement::Kind;

class Context;

/// A check: adds the rule's findings for `c.scene` with c.add (which stamps the rule's id).
using CheckFn = void (*)(Context& c);
/// A fix: applies `issue`'s fix to `scene`, re-checking the condition first; false (scene
/// untouched, `error` set when given) when it no longer applies.
using FixFn = bool (*)(Scene& scene, const LintIssue& issue, std::string* error);

/// One row of the rule table.
struct LintRule {
    std::string_view id;   ///< stable kebab-case id ("obstacle-clockwise"), see docs/lint.md
    LintSeverity severity; ///< the rule's severity (a few rules lower it for static scenery)
    CheckFn check;
    FixFn fix;            ///< nullptr: no automatic fix
    std::string_view doc; ///< one line: what the rule finds
};

/// The rule table, in documentation order (lint.cpp).
[[nodiscard]] std::span<const LintRule> rules();

// ---- Constants of the fixes (documented in docs/lint.md) ----------------------------------------

/// "Nudge apart" / "Nudge out" / "Move goal out" leave this much room beyond touching, as a
/// fraction of the sum of the radii (pairs) or of the radius (obstacles): enough to survive
/// rounding and to be visible, small enough not to change the scene's layout.
inline constexpr double kNudgeMargin = 0.01;
/// "Nudge out" repeats the push from the nearest edge at most this often (in a concave corner
/// the first push can land on the neighbouring edge); when the agent still overlaps, the fix
/// gives up and leaves the scene untouched.
inline constexpr int kNudgeIterations = 16;
/// "Perturb" shifts the later agent of a head-on pair sideways by this fraction of its radius.
/// Measured on scenes/head_on.json: any offset above ~1e-12 of the distance breaks the tie,
/// and 1% of the radius is invisible in the layout.
inline constexpr double kPerturbRatio = 0.01;
/// applyLintFix re-checks a head-on pair with this (looser than default) tolerance, so that a
/// pair found with a custom LintOptions::headOnTolerance up to this value can still be fixed.
inline constexpr double kHeadOnFixTolerance = 1e-6;
/// Edges shorter than this are "tiny": the solver's epsilon (RVO_EPSILON, kEpsilon = 1e-5).
inline constexpr double kTinyEdge = kEpsilon;
/// max-neighbors-low stops counting an agent's neighbours here (the fix never needs more,
/// and a huge neighbour range must not make linting quadratic).
inline constexpr std::size_t kMaxNeighborCount = 1000;
/// waypoints-many: more waypoints than this on one agent (the loader refuses kMaxWaypoints).
inline constexpr std::size_t kManyWaypoints = 100;
/// The roadmap's clearance is this × the largest radius of the moving agents with a goal, as
/// the simulator builds it (Simulator::roadmap()).
inline constexpr double kRoadmapClearanceRatio = 1.1;

// ---- Small helpers (lint.cpp) -------------------------------------------------------------------

[[nodiscard]] std::string num(double v);
[[nodiscard]] std::string agentPath(std::size_t i);
[[nodiscard]] std::string obstaclePath(std::size_t i);
[[nodiscard]] std::string vertexPath(std::size_t o, std::size_t v);
[[nodiscard]] bool finite(Vec2 v);
/// The largest value a scene file accepts for an agent parameter ("neighborDist"): a fix that
/// raises a parameter stops there.
[[nodiscard]] double fileMaxOf(std::string_view agentParam);
/// fail()'s text for a fix that would move a point past withinSceneLimits() (it fails rather
/// than write a scene the loader refuses).
inline constexpr const char* kBeyondFileRange =
    "the fix would move it beyond -1e7..1e7, the range of a scene file's coordinates";
[[nodiscard]] LintElement agentElement(std::size_t i);
[[nodiscard]] LintElement goalElement(std::size_t i);
[[nodiscard]] LintElement obstacleElement(std::size_t i);
/// "agents[3]", "agents[3] and agents[7]", "agents[3], agents[7], agents[9] and 12 more".
[[nodiscard]] std::string agentList(const std::vector<std::size_t>& agents);
[[nodiscard]] std::string plural(std::size_t n, const char* word);
[[nodiscard]] std::vector<LintElement> agentElements(const std::vector<std::size_t>& agents);

/// The simulator's rule for each agent parameter (Simulator::validate, i.e. the parameter
/// table's check()); false for a key that is no agent parameter.
[[nodiscard]] bool paramValid(std::string_view key, double v);
[[nodiscard]] bool paramsValid(const AgentParams& p);
using orca::effectiveGoalRadius;

/// Reads or writes one agent parameter by key: `f(optionalOverride&, paramValue&)`.
template <class F> bool withParam(AgentOverrides& o, AgentParams& p, std::string_view key, F&& f) {
    bool found = false;
    forEachAgentParam(o, p, [&](std::string_view k, auto& override, auto& value) {
        if (k == key) {
            f(override, value);
            found = true;
        }
    });
    return found;
}

[[nodiscard]] bool overridden(const AgentOverrides& o, std::string_view key);

// ---- Parameter groups (lint.cpp) ---------------------------------------------------------------

/// Agents sharing one cause of a parameter issue: either all relevant parameters come from
/// agentDefaults (`fromDefaults`), or the agents have the same resolved values.
struct Group {
    bool fromDefaults = false;
    std::vector<std::size_t> agents;
};

/// Groups `agents` by where the parameters `keys` come from, in order of first appearance.
[[nodiscard]] std::vector<Group> groupByParams(const Context& c,
                                               const std::vector<std::size_t>& agents,
                                               std::initializer_list<std::string_view> keys);
/// "agentDefaults.key" for a defaults group, else "agents[i].key" when the first agent
/// overrides `key`, else "agents[i]".
[[nodiscard]] std::string groupPath(const Context& c, const Group& g, std::string_view key);
[[nodiscard]] std::string groupWho(const Group& g, std::size_t total);

// ---- Fix helpers (lint.cpp) ---------------------------------------------------------------------

/// Sets `*error` (when given) and returns false.
bool fail(std::string* error, std::string message);
/// The index in "prefix[N]..." or nullopt.
[[nodiscard]] std::optional<std::size_t> pathIndex(const std::string& path,
                                                   std::string_view prefix);
/// The text after the last '.' of a path ("agents[3].radius" -> "radius").
[[nodiscard]] std::string lastKey(const std::string& path);
[[nodiscard]] std::optional<std::size_t> elementIndex(const LintIssue& issue, Kind kind,
                                                      std::size_t nth = 0);
[[nodiscard]] std::vector<std::size_t> elementAgents(const LintIssue& issue, std::size_t count);

// ---- Spatial index over agents (lint_agents.cpp) ------------------------------------------------

struct AgentIndex {
    PointGrid grid;
    std::vector<std::size_t> sceneIndex; ///< grid point -> scene agent
    std::vector<std::uint32_t> near;     ///< query scratch
};

/// max-neighbors-low's range for agent i: min(neighborDist, maxSpeed x timeHorizon + 2 radius).
[[nodiscard]] double crowdRange(const AgentParams& p);
void buildIndex(const Scene& s, const std::vector<AgentParams>& params,
                const std::vector<std::uint8_t>& ok, AgentIndex& index);
/// Number of other agents strictly within `range` of agent `i`, counting at most `cap`.
[[nodiscard]] std::size_t countWithin(const Scene& s, AgentIndex& index, std::size_t i,
                                      double range, std::size_t cap);
[[nodiscard]] bool duplicates(const SceneAgent& a, const SceneAgent& b);

/// An agent's straight walk at its preferred speed (at most maxSpeed): toward its goal,
/// stopping there, or along its constant preferred velocity, never stopping.
struct Walk {
    Vec2 start{0.0, 0.0};
    Vec2 velocity{0.0, 0.0};
    double duration = 0.0; ///< s; +inf without a goal
    /// Where the walk is at time t >= 0 (at the goal once it arrived).
    [[nodiscard]] Vec2 at(double t) const { return start + velocity * std::min(t, duration); }
};
/// The agent's walk, or nullopt when it does not walk (no goal or preferred velocity, speed 0,
/// static).
[[nodiscard]] std::optional<Walk> walkOf(const SceneAgent& a, const AgentParams& p);

// ---- Obstacle shapes and contacts (lint_obstacles.cpp) -----------------------------------------

/// A structural problem of an obstacle (one finding).
struct PolygonProblem {
    const char* rule = nullptr; ///< null = structurally fine
    std::string message;
    std::string path;
    std::vector<LintElement> elements;
    Vec2 where{0.0, 0.0};
    std::string fixLabel;
};

/// What the obstacle rules need to know of obstacle k, computed once per lint.
struct ObstacleShape {
    PolygonProblem problem;           ///< the first structural problem (rule null: none)
    std::vector<PolygonProblem> more; ///< further repeated vertices
    bool valid = false;               ///< structurally fine and accepted by checkPolygon
    PolygonCheck check;               ///< when structurally fine
    Vec2 centre{0.0, 0.0};            ///< vertex average, when structurally fine
};
[[nodiscard]] ObstacleShape obstacleShape(const std::vector<Vec2>& v, std::size_t k);

/// A leg of an agent's route: from the previous stop (its position for the first remaining
/// leg) to `stop`, a waypoint index, or waypoints.size() for the goal.
struct BlockedLeg {
    std::size_t stop = 0;
    std::size_t obstacle = 0; ///< the first usable obstacle the straight leg crosses
    Vec2 at{0.0, 0.0};        ///< where it crosses it
};

/// Per agent, the usable obstacles its start disk and its goal disk touch (ascending), for
/// agent-in-obstacle, goal-in-obstacle and goal-unreachable-straight, and the route's legs
/// against the obstacles, for the route rules (lint_routes.cpp). Legs already walked (before
/// routeProgress) are not looked at.
struct ObstacleContacts {
    std::vector<std::vector<std::size_t>> inside;   ///< by agent (ok agents only)
    std::vector<std::vector<std::size_t>> goalHits; ///< by agent (moving agents with a goal)
    /// By agent: (waypoint index, obstacle) for each remaining waypoint whose disk of the
    /// agent's radius touches a usable obstacle or lies inside it.
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> waypointHits;
    /// By agent: its remaining legs whose straight segment crosses a usable obstacle, in route
    /// order. Obstacles a leg's end disks touch are left out (agent-, waypoint- and
    /// goal-in-obstacle report those), and so is the leg to a goal in an obstacle.
    std::vector<std::vector<BlockedLeg>> blockedLegs;
    /// goal-unreachable-straight: agents with a blocked leg, grouped by the obstacle their first
    /// blocked leg crosses, and where the first agent's leg crosses it.
    std::map<std::size_t, std::vector<std::size_t>> blocked;
    std::map<std::size_t, Vec2> blockedAt;
};
[[nodiscard]] ObstacleContacts obstacleContacts(Context& c);

/// What the route rules share in one lint (lint_routes.cpp): the connected components of the
/// roadmap's graph and a grid over its nodes, for a quick sufficient test before the exact
/// Roadmap::reachable (which costs a Dijkstra per target), and the answers so far.
struct RouteCache {
    bool built = false;
    std::vector<std::uint32_t> component; ///< per roadmap node
    double cell = 1.0;                    ///< grid cell size (world units)
    Vec2 min{0.0, 0.0};                   ///< grid origin
    std::ptrdiff_t cellsX = 0;
    std::ptrdiff_t cellsY = 0;
    std::vector<std::vector<std::uint32_t>> cells; ///< node indices per cell, row by row
    std::map<std::pair<std::size_t, std::size_t>, bool> routable; ///< by (agent, stop)
};

// ---- Context ------------------------------------------------------------------------------------

class Context {
  public:
    Context(const Scene& scene, const LintOptions& options);

    const Scene& scene;
    const LintOptions& options;
    std::vector<AgentParams> params; ///< resolved, per agent
    std::vector<std::uint8_t> ok;    ///< finite values and valid parameters
    std::vector<LintIssue> issues;

    /// Runs one rule's check: its findings carry its id.
    void run(const LintRule& rule);

    /// Adds a finding of the running rule with the rule's severity.
    LintIssue& add(std::string path, std::string message, std::vector<LintElement> elements,
                   Vec2 where, std::string fixLabel = {});
    /// The same with another severity (rules that are milder for static scenery).
    LintIssue& add(LintSeverity severity, std::string path, std::string message,
                   std::vector<LintElement> elements, Vec2 where, std::string fixLabel = {});

    [[nodiscard]] bool moving(std::size_t i) const {
        return ok[i] != 0 && !scene.agents[i].isStatic;
    }

    /// The grid over the usable agents (built on first use).
    AgentIndex& agentIndex();
    /// Obstacle k's shape (computed on first use).
    const ObstacleShape& shape(std::size_t k);
    /// Obstacle k is valid (either winding): used by the contact rules.
    bool usable(std::size_t k) { return shape(k).valid; }
    /// Agent/obstacle contacts (computed on first use).
    const ObstacleContacts& contacts();
    /// The roadmap the simulator would route with: the usable obstacles (clockwise ones
    /// reversed) and clearance kRoadmapClearanceRatio × the largest radius of the usable moving
    /// agents with a goal. Built on first use (lint_routes.cpp), at most once per lint; null
    /// when there is no such obstacle or agent, or Roadmap::build refuses the scene.
    Roadmap* roadmap();
    /// The route rules' shared state (filled by lint_routes.cpp on first use).
    RouteCache routeCache;

  private:
    const LintRule* m_rule = nullptr;
    std::optional<AgentIndex> m_agentIndex;
    std::vector<std::optional<ObstacleShape>> m_shapes;
    std::optional<ObstacleContacts> m_contacts;
    std::optional<Roadmap> m_roadmap;
    bool m_roadmapTried = false;
};

// ---- Checks and fixes, by group -----------------------------------------------------------------

// lint_params.cpp: the simulation block and agent parameters.
void checkSimulationInvalid(Context& c);
void checkParamInvalid(Context& c);
void checkRadiusHuge(Context& c);
void checkMaxSpeedZero(Context& c);
void checkPrefSpeedZero(Context& c);
void checkPrefSpeedAboveMax(Context& c);
void checkTimeStepVsHorizon(Context& c);
void checkNeighborDistShort(Context& c);
bool fixSimulationInvalid(Scene& scene, const LintIssue& issue, std::string* error);
bool fixParamInvalid(Scene& scene, const LintIssue& issue, std::string* error);
bool fixNeighborDistShort(Scene& scene, const LintIssue& issue, std::string* error);

// lint_agents.cpp: agent values, pairs of agents, crowding, head-on pairs.
void checkAgentNonFinite(Context& c);
void checkStaticAgentMoving(Context& c);
void checkGoalAndPrefVelocity(Context& c);
void checkCoordinateHuge(Context& c);
void checkDuplicateAgents(Context& c);
void checkAgentsOverlap(Context& c);
void checkMaxNeighborsLow(Context& c);
void checkHeadOnSymmetric(Context& c);
bool fixAgentNonFinite(Scene& scene, const LintIssue& issue, std::string* error);
bool fixStaticAgentMoving(Scene& scene, const LintIssue& issue, std::string* error);
bool fixGoalAndPrefVelocity(Scene& scene, const LintIssue& issue, std::string* error);
bool fixDuplicateAgents(Scene& scene, const LintIssue& issue, std::string* error);
bool fixAgentsOverlap(Scene& scene, const LintIssue& issue, std::string* error);
bool fixMaxNeighborsLow(Scene& scene, const LintIssue& issue, std::string* error);
bool fixHeadOnSymmetric(Scene& scene, const LintIssue& issue, std::string* error);

// lint_goals.cpp: shared goals and agents that start at their goal.
void checkGoalCrowded(Context& c);
void checkStartsAtGoal(Context& c);
bool fixGoalCrowded(Scene& scene, const LintIssue& issue, std::string* error);

// lint_obstacles.cpp: obstacle structure, and agents and goals against obstacles.
void checkObstacleTooFewVertices(Context& c);
void checkObstacleNonFinite(Context& c);
void checkObstacleDuplicateVertex(Context& c);
void checkObstacleCollinear(Context& c);
void checkObstacleSelfIntersecting(Context& c);
void checkObstacleInvalid(Context& c);
void checkObstacleClockwise(Context& c);
void checkObstacleTinyEdge(Context& c);
void checkAgentInObstacle(Context& c);
void checkGoalInObstacle(Context& c);
bool fixDeleteBrokenObstacle(Scene& scene, const LintIssue& issue, std::string* error);
bool fixObstacleDuplicateVertex(Scene& scene, const LintIssue& issue, std::string* error);
bool fixObstacleCollinear(Scene& scene, const LintIssue& issue, std::string* error);
bool fixObstacleClockwise(Scene& scene, const LintIssue& issue, std::string* error);
bool fixObstacleTinyEdge(Scene& scene, const LintIssue& issue, std::string* error);
bool fixAgentInObstacle(Scene& scene, const LintIssue& issue, std::string* error);
bool fixGoalInObstacle(Scene& scene, const LintIssue& issue, std::string* error);

// lint_routes.cpp: waypoints and routing, and straight legs against obstacles.
void checkWaypointInObstacle(Context& c);
void checkGoalUnreachableStraight(Context& c);
void checkGoalUnreachableRoadmap(Context& c);
void checkWaypointsMany(Context& c);
void checkRoutingRoadmapSuggested(Context& c);
void checkRoutingWithoutObstacles(Context& c);
bool fixWaypointInObstacle(Scene& scene, const LintIssue& issue, std::string* error);
bool fixGoalUnreachableStraight(Scene& scene, const LintIssue& issue, std::string* error);
bool fixRoutingRoadmapSuggested(Scene& scene, const LintIssue& issue, std::string* error);
bool fixRoutingWithoutObstacles(Scene& scene, const LintIssue& issue, std::string* error);

// lint_weights.cpp: avoidance weights.
void checkWeightsZeroPair(Context& c);
void checkWeightsWithoutEffect(Context& c);
bool fixWeightsWithoutEffect(Scene& scene, const LintIssue& issue, std::string* error);

// lint_text.cpp: texts the app shows cut (text_limits.hpp).
void checkTextTooLong(Context& c);

} // namespace orca::scene::lint
