#include "orca/scene/lint.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string_view>
#include <utility>

#include <glm/common.hpp>

#include "orca/obstacles.hpp"
#include "orca/point_grid.hpp"
#include "orca/scene/generators.hpp"

namespace orca::scene {

namespace {

using Kind = LintElement::Kind;

// ---- Constants of the fixes (documented in docs/lint.md) ----------------------------------------

/// "Nudge apart" / "Nudge out" / "Move goal out" leave this much room beyond touching, as a
/// fraction of the sum of the radii (pairs) or of the radius (obstacles): enough to survive
/// rounding and to be visible, small enough not to change the scene's layout.
constexpr double kNudgeMargin = 0.01;
/// "Nudge out" repeats the push from the nearest edge at most this often (in a concave corner
/// the first push can land on the neighbouring edge); when the agent still overlaps, the fix
/// gives up and leaves the scene untouched.
constexpr int kNudgeIterations = 16;
/// "Perturb" shifts the later agent of a head-on pair sideways by this fraction of its radius.
/// Measured on scenes/head_on.json: any offset above ~1e-12 of the distance breaks the tie,
/// and 1% of the radius is invisible in the layout.
constexpr double kPerturbRatio = 0.01;
/// applyLintFix re-checks a head-on pair with this (looser than default) tolerance, so that a
/// pair found with a custom LintOptions::headOnTolerance up to this value can still be fixed.
constexpr double kHeadOnFixTolerance = 1e-6;
/// Edges shorter than this are "tiny": the solver's epsilon (RVO_EPSILON, kEpsilon = 1e-5).
constexpr double kTinyEdge = kEpsilon;
/// max-neighbors-low stops counting an agent's neighbours here (the fix never needs more,
/// and a huge neighbour range must not make linting quadratic).
constexpr std::size_t kMaxNeighborCount = 1000;
/// Best known radius of a disk holding k unit disks (k = 1..20), for goal-crowded. Beyond 20,
/// sqrt(k / density) + 0.5 is used (density from LintOptions).
constexpr std::array<double, 21> kCirclePacking = {0.0,   1.0,   2.0,   2.155, 2.414, 2.701, 3.0,
                                                   3.0,   3.304, 3.613, 3.813, 3.923, 4.029, 4.236,
                                                   4.328, 4.521, 4.615, 4.792, 4.863, 4.863, 5.122};

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

/// The simulator's rule for each agent parameter (Simulator::validate).
bool paramValid(std::string_view key, double v) {
    if (key == "goalRadius") return std::isfinite(v); // negative = "use the radius"
    if (key == "radius" || key == "timeHorizon" || key == "timeHorizonObst")
        return std::isfinite(v) && v > 0.0;
    return std::isfinite(v) && v >= 0.0;
}

bool paramsValid(const AgentParams& p) {
    bool ok = true;
    const AgentOverrides none;
    AgentParams copy = p;
    forEachAgentParam(none, copy, [&](std::string_view key, const auto&, const auto& value) {
        ok = ok && paramValid(key, static_cast<double>(value));
    });
    return ok;
}

double effectiveGoalRadius(const AgentParams& p) {
    return p.goalRadius >= 0.0 ? p.goalRadius : p.radius;
}

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

bool overridden(const AgentOverrides& o, std::string_view key) {
    bool set = false;
    AgentOverrides copy = o;
    AgentParams unused;
    withParam(copy, unused, key, [&](auto& override, auto&) { set = override.has_value(); });
    return set;
}

// ---- Geometry -----------------------------------------------------------------------------------

/// Parameter t along a->b of the crossing with c->d (lines not parallel), else the closest
/// endpoint's parameter; used only to order crossings and to place markers.
double crossingParam(Vec2 a, Vec2 b, Vec2 c, Vec2 d) {
    const Vec2 r = b - a;
    const Vec2 s = d - c;
    const double den = det(r, s);
    if (den != 0.0) return std::clamp(det(c - a, s) / den, 0.0, 1.0);
    const double lenSq = absSq(r);
    if (lenSq <= 0.0) return 0.0;
    return std::clamp(std::min(dot(c - a, r), dot(d - a, r)) / lenSq, 0.0, 1.0);
}

/// Edge count of an obstacle: n for polygons, 1 for a 2-vertex segment.
std::size_t edgeCount(const std::vector<Vec2>& v) {
    return v.size() == 2 ? 1 : v.size();
}

struct Nearest {
    Vec2 point{0.0, 0.0};
    std::size_t edge = 0;
    double distSq = std::numeric_limits<double>::infinity();
};

Nearest nearestOnBoundary(const std::vector<Vec2>& v, Vec2 p) {
    Nearest best;
    const std::size_t n = v.size();
    for (std::size_t e = 0; e < edgeCount(v); ++e) {
        const Vec2 q = closestPointOnSegment(v[e], v[(e + 1) % n], p);
        const double d = absSq(q - p);
        if (d < best.distSq) best = {q, e, d};
    }
    return best;
}

/// How deep a disk of radius r at p sits in the obstacle: the distance it must move to be
/// just clear (0 = clear). For 2-vertex segments only the distance counts.
double penetration(const std::vector<Vec2>& v, Vec2 p, double r) {
    const Nearest near = nearestOnBoundary(v, p);
    const double d = std::sqrt(near.distSq);
    if (v.size() >= 3 && pointInPolygon(v, p)) return d + r;
    return d < r ? r - d : 0.0;
}

/// Moves a disk (centre p, radius r) out of the obstacle to clearance r * (1 + margin) from
/// the nearest boundary point, repeating in concave corners. nullopt when it cannot get out.
std::optional<Vec2> pushOut(const std::vector<Vec2>& v, Vec2 p, double r) {
    const double clearance = r * (1.0 + kNudgeMargin);
    const bool ccw = v.size() < 3 || signedArea(v) > 0.0;
    for (int it = 0; it < kNudgeIterations; ++it) {
        if (penetration(v, p, r) <= 0.0) return p;
        const Nearest near = nearestOnBoundary(v, p);
        const bool inside = v.size() >= 3 && pointInPolygon(v, p);
        Vec2 dir = inside ? near.point - p : p - near.point;
        const double len = length(dir);
        if (len > 0.0) {
            dir /= len;
        } else {
            // On the boundary: leave along the edge's outer normal (right of a CCW edge; the
            // right of the segment's direction for a 2-vertex wall).
            const Vec2 a = v[near.edge];
            const Vec2 b = v[(near.edge + 1) % v.size()];
            const Vec2 along = b - a;
            const double l = length(along);
            if (!(l > 0.0)) return std::nullopt;
            const Vec2 right{along.y / l, -along.x / l};
            dir = ccw ? right : -right;
        }
        p = near.point + dir * clearance;
        if (!finite(p)) return std::nullopt;
    }
    if (penetration(v, p, r) <= 0.0) return p;
    return std::nullopt;
}

// ---- Obstacle structure -------------------------------------------------------------------------

struct PolygonProblem {
    const char* rule = nullptr; ///< null = structurally fine
    std::string message;
    std::string path;
    std::vector<LintElement> elements;
    Vec2 where{0.0, 0.0};
    std::string fixLabel;
};

/// The first structural problem of obstacle `k` (same checks and order as checkPolygon, with
/// the elements to highlight); duplicates are returned one per repeated vertex in `more`.
PolygonProblem structuralProblem(const std::vector<Vec2>& v, std::size_t k,
                                 std::vector<PolygonProblem>* more) {
    PolygonProblem p;
    const std::size_t n = v.size();
    const std::string path = obstaclePath(k);
    if (n < 2) {
        p.rule = "obstacle-too-few-vertices";
        p.path = path + ".vertices";
        p.message = "obstacle " + path + " has " + plural(n, "vertex") +
                    "; an obstacle needs at least 2 (2 = a thin wall), so the simulator rejects it";
        if (n == 1) p.where = v[0];
        p.elements = {obstacleElement(k)};
        p.fixLabel = "Delete obstacle";
        return p;
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (!finite(v[i])) {
            p.rule = "obstacle-non-finite";
            p.path = vertexPath(k, i);
            p.message = "vertex " + std::to_string(i) + " of obstacle " + path +
                        " is not a finite number, so the simulator rejects the obstacle";
            p.elements = {obstacleElement(k), {Kind::Vertex, k, i}};
            for (const Vec2& q : v) {
                if (finite(q)) {
                    p.where = q;
                    break;
                }
            }
            p.fixLabel = "Delete obstacle";
            return p;
        }
    }
    // Repeated vertices: each later copy of a point is one issue.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        if (v[a].x != v[b].x) return v[a].x < v[b].x;
        if (v[a].y != v[b].y) return v[a].y < v[b].y;
        return a < b;
    });
    std::vector<PolygonProblem> duplicates;
    for (std::size_t s = 1; s < n; ++s) {
        std::size_t first = s - 1;
        while (first > 0 && v[order[first - 1]] == v[order[s]])
            --first;
        if (v[order[first]] != v[order[s]]) continue;
        const std::size_t a = order[first];
        const std::size_t b = order[s];
        PolygonProblem d;
        d.rule = "obstacle-duplicate-vertex";
        d.path = vertexPath(k, b);
        const bool adjacent = b == a + 1 || (a == 0 && b == n - 1);
        d.message = "vertices " + std::to_string(a) + " and " + std::to_string(b) +
                    " of obstacle " + path + " are the same point" +
                    (adjacent ? " (a zero-length edge, which has no direction)"
                              : " (the outline pinches there)") +
                    ", so the simulator rejects the obstacle";
        d.elements = {obstacleElement(k), {Kind::Vertex, k, a}, {Kind::Vertex, k, b}};
        d.where = v[b];
        d.fixLabel = "Remove duplicate vertex";
        duplicates.push_back(std::move(d));
    }
    if (!duplicates.empty()) {
        std::sort(duplicates.begin(), duplicates.end(),
                  [](const PolygonProblem& x, const PolygonProblem& y) {
                      return x.elements[2].sub < y.elements[2].sub;
                  });
        p = std::move(duplicates.front());
        if (more != nullptr) more->assign(duplicates.begin() + 1, duplicates.end());
        return p;
    }
    if (n == 2) return p;

    // All collinear (checkPolygon's tolerance: relative to the polygon's extent).
    Vec2 lo = v[0];
    Vec2 hi = v[0];
    for (const Vec2& q : v) {
        lo = glm::min(lo, q);
        hi = glm::max(hi, q);
    }
    const double extentSq = absSq(hi - lo);
    bool allCollinear = true;
    for (std::size_t i = 1; i + 1 < n && allCollinear; ++i) {
        if (std::abs(det(v[i] - v[0], v[i + 1] - v[0])) > 1e-12 * extentSq) allCollinear = false;
    }
    if (allCollinear) {
        p.rule = "obstacle-collinear";
        p.path = path + ".vertices";
        p.message = "all " + std::to_string(n) + " vertices of obstacle " + path +
                    " lie on one line, so the polygon has no inside and the simulator rejects "
                    "it; a thin wall is a 2-vertex segment";
        p.elements = {obstacleElement(k)};
        p.where = (lo + hi) * 0.5;
        p.fixLabel = "Replace with segment";
        return p;
    }

    // Self-intersection, in checkPolygon's order.
    auto intersecting = [&](std::size_t i, std::size_t j, Vec2 where) {
        p.rule = "obstacle-self-intersecting";
        p.path = path + ".vertices";
        p.message = "edges " + std::to_string(i) + " and " + std::to_string(j) + " of obstacle " +
                    path +
                    " cross, so it has no consistent inside and outside for ORCA's obstacle "
                    "lines and the simulator rejects it";
        p.elements = {obstacleElement(k), {Kind::Edge, k, i}, {Kind::Edge, k, j}};
        p.where = where;
        p.fixLabel = "Delete obstacle";
    };
    for (std::size_t i = 0; i < n; ++i) {
        const Vec2 a = v[i];
        const Vec2 b = v[(i + 1) % n];
        const Vec2 c = v[(i + 2) % n];
        if (det(b - a, c - b) == 0.0 && dot(b - a, c - b) < 0.0) {
            intersecting(i, (i + 1) % n, b);
            return p;
        }
        for (std::size_t j = i + 2; j < n; ++j) {
            if (i == 0 && j == n - 1) continue;
            const Vec2 d0 = v[j];
            const Vec2 d1 = v[(j + 1) % n];
            if (segmentsTouch(a, b, d0, d1)) {
                intersecting(i, j, a + crossingParam(a, b, d0, d1) * (b - a));
                return p;
            }
        }
    }
    return p;
}

// ---- Issue building -----------------------------------------------------------------------------

struct Context {
    const Scene& scene;
    const LintOptions& options;
    std::vector<AgentParams> params; ///< resolved, per agent
    std::vector<std::uint8_t> ok;    ///< finite values and valid parameters
    std::vector<LintIssue> issues;

    LintIssue& add(const char* rule, LintSeverity severity, std::string path, std::string message,
                   std::vector<LintElement> elements, Vec2 where, std::string fixLabel = {}) {
        LintIssue issue;
        issue.rule = rule;
        issue.severity = severity;
        issue.jsonPath = std::move(path);
        issue.message = std::move(message);
        issue.elements = std::move(elements);
        issue.where = finite(where) ? where : Vec2{0.0, 0.0};
        issue.fixLabel = std::move(fixLabel);
        issues.push_back(std::move(issue));
        return issues.back();
    }

    [[nodiscard]] bool moving(std::size_t i) const {
        return ok[i] != 0 && !scene.agents[i].isStatic;
    }
};

void resolveAgents(Context& c) {
    const Scene& s = c.scene;
    c.params.resize(s.agents.size());
    c.ok.assign(s.agents.size(), 0);
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        c.params[i] = s.resolvedParams(a);
        const bool values = finite(a.position) && (!a.velocity || finite(*a.velocity)) &&
                            (!a.goal || finite(*a.goal)) &&
                            (!a.prefVelocity || finite(*a.prefVelocity));
        c.ok[i] = values && paramsValid(c.params[i]) ? 1 : 0;
    }
}

// ---- Simulation block ---------------------------------------------------------------------------

struct SimulationKey {
    const char* path;
    double SimulationParams::*member; ///< or null for detour keys
    double DetourParams::*detourMember;
    const char* range; ///< the valid range, for the message
    bool (*valid)(double);
};

bool positiveFinite(double v) {
    return std::isfinite(v) && v > 0.0;
}
bool unitInterval(double v) {
    return std::isfinite(v) && v > 0.0 && v <= 1.0;
}
bool nonNegativeFinite(double v) {
    return std::isfinite(v) && v >= 0.0;
}
bool ratio(double v) {
    return v >= 0.0 && v <= 1.0;
}
bool degrees(double v) {
    return v >= 0.0 && v <= 90.0;
}

const std::array<SimulationKey, 13> kSimulationKeys = {{
    {"simulation.timeStep", &SimulationParams::timeStep, nullptr, "a finite number > 0",
     positiveFinite},
    {"simulation.responsibility", &SimulationParams::responsibility, nullptr, "in (0, 1]",
     unitInterval},
    {"simulation.staticResponsibility", &SimulationParams::staticResponsibility, nullptr,
     "in (0, 1]", unitInterval},
    {"simulation.lp3BisectorWeight", &SimulationParams::lp3BisectorWeight, nullptr,
     "a finite number > 0", positiveFinite},
    {"detour.cellSize", nullptr, &DetourParams::cellSize, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.influenceRadius", nullptr, &DetourParams::influenceRadius, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.enterSpeedRatio", nullptr, &DetourParams::enterSpeedRatio, "in [0, 1]", ratio},
    {"detour.enterGoalDistance", nullptr, &DetourParams::enterGoalDistance, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.sampleDistance", nullptr, &DetourParams::sampleDistance, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.exitAlignedDegrees", nullptr, &DetourParams::exitAlignedDegrees, "in [0, 90]",
     degrees},
    {"detour.exitGoalDistance", nullptr, &DetourParams::exitGoalDistance, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.stillSpeed", nullptr, &DetourParams::stillSpeed, "a finite number >= 0",
     nonNegativeFinite},
    {"detour.stillSeconds", nullptr, &DetourParams::stillSeconds, "a finite number >= 0",
     nonNegativeFinite},
}};

double& simulationValue(SimulationParams& p, const SimulationKey& key) {
    return key.member != nullptr ? p.*key.member : p.detour.*key.detourMember;
}

void lintSimulation(Context& c) {
    SimulationParams params = c.scene.simulation.params;
    const SimulationParams defaults;
    for (const SimulationKey& key : kSimulationKeys) {
        const double v = simulationValue(params, key);
        if (key.valid(v)) continue;
        SimulationParams d = defaults;
        c.add("simulation-invalid", LintSeverity::Error, key.path,
              std::string(key.path) + " is " + num(v) + " but must be " + key.range +
                  ", so the simulator refuses the scene",
              {{Kind::Simulation, 0, 0}}, {0.0, 0.0},
              "Reset to default (" + num(simulationValue(d, key)) + ")");
    }
}

// ---- Agent values -------------------------------------------------------------------------------

void lintAgentValues(Context& c) {
    const Scene& s = c.scene;
    const double maxCoord = c.options.maxCoordinate;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        const std::string path = agentPath(i);
        // Non-finite values (an editor can produce them; files cannot hold them).
        const std::pair<const char*, std::optional<Vec2>> vectors[] = {
            {"position", a.position},
            {"velocity", a.velocity},
            {"goal", a.goal},
            {"prefVelocity", a.prefVelocity}};
        bool nonFinite = false;
        for (const auto& [key, value] : vectors) {
            if (value && !finite(*value)) {
                c.add("agent-non-finite", LintSeverity::Error, path + '.' + key,
                      path + '.' + key +
                          " is not a finite number, so the simulator rejects the agent",
                      {agentElement(i)}, finite(a.position) ? a.position : Vec2{0.0, 0.0},
                      "Delete agent");
                nonFinite = true;
                break;
            }
        }
        if (nonFinite) continue;

        if (a.isStatic && (a.goal || a.prefVelocity ||
                           (a.velocity && (a.velocity->x != 0.0 || a.velocity->y != 0.0)))) {
            const char* key = a.goal ? "goal" : a.prefVelocity ? "prefVelocity" : "velocity";
            c.add("static-agent-moving", LintSeverity::Error, path + '.' + key,
                  "static agent " + path + " has a " + key +
                      ", but static agents never move (the file cannot be saved like this)",
                  {agentElement(i)}, a.position, "Clear goal and velocities");
        }
        if (a.goal && a.prefVelocity) {
            c.add("goal-and-pref-velocity", LintSeverity::Error, path,
                  path + " has both a goal and a constant prefVelocity; the goal would overwrite "
                         "prefVelocity every step (the file cannot be saved like this)",
                  {agentElement(i), goalElement(i)}, a.position, "Remove prefVelocity");
        }
        const std::pair<const char*, std::optional<Vec2>> points[] = {{"position", a.position},
                                                                      {"goal", a.goal}};
        for (const auto& [key, value] : points) {
            if (value && (std::abs(value->x) > maxCoord || std::abs(value->y) > maxCoord)) {
                c.add("coordinate-huge", LintSeverity::Warning, path + '.' + key,
                      path + '.' + key + " lies beyond " + num(maxCoord) +
                          " from the origin; so far out, the solver's absolute epsilon (1e-5) "
                          "approaches the spacing of doubles and results lose precision",
                      {std::string_view(key) == "goal" ? goalElement(i) : agentElement(i)}, *value);
            }
        }
    }
}

// ---- Parameter groups ---------------------------------------------------------------------------

/// Agents sharing one cause of a parameter issue: either all relevant parameters come from
/// agentDefaults (`fromDefaults`), or the agents have the same resolved values.
struct Group {
    bool fromDefaults = false;
    std::vector<std::size_t> agents;
};

/// Groups `agents` by where the parameters `keys` come from, in order of first appearance.
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

void lintParams(Context& c) {
    const Scene& s = c.scene;
    // param-invalid: agentDefaults first, then overrides.
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
                "param-invalid", LintSeverity::Error, "agentDefaults." + std::string(key),
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
            c.add("param-invalid", LintSeverity::Error, agentPath(i) + '.' + std::string(key),
                  agentPath(i) + '.' + std::string(key) + " is " +
                      num(static_cast<double>(*value)) + ", which the simulator rejects",
                  {agentElement(i)}, s.agents[i].position, "Use agentDefaults");
        });
    }

    std::vector<std::size_t> moving;
    std::vector<std::size_t> all;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (c.ok[i]) all.push_back(i);
        if (c.moving(i)) moving.push_back(i);
    }
    const double dt = s.simulation.params.timeStep;
    auto where = [&](const Group& g) { return s.agents[g.agents.front()].position; };

    // radius-huge
    {
        std::vector<std::size_t> hit;
        for (std::size_t i : all)
            if (c.params[i].radius > c.options.maxRadius) hit.push_back(i);
        for (const Group& g : groupByParams(c, hit, {"radius"})) {
            const double r = c.params[g.agents.front()].radius;
            c.add("radius-huge", LintSeverity::Warning, groupPath(c, g, "radius"),
                  "radius " + num(r) + " of " + groupWho(g, all.size()) + " is above " +
                      num(c.options.maxRadius) +
                      ", which looks like a unit mistake (ORCA's neighbour ranges and time "
                      "horizons are then far too small for such agents)",
                  agentElements(g.agents), where(g));
        }
    }

    // max-speed-zero / pref-speed-zero: agents that want to go somewhere but cannot.
    {
        std::vector<std::size_t> noMax;
        std::vector<std::size_t> noPref;
        for (std::size_t i : moving) {
            const SceneAgent& a = s.agents[i];
            const bool wants = (a.goal && *a.goal != a.position) ||
                               (a.prefVelocity && absSq(*a.prefVelocity) > 0.0);
            if (!wants) continue;
            if (c.params[i].maxSpeed == 0.0) {
                noMax.push_back(i);
            } else if (a.goal && c.params[i].prefSpeed == 0.0) {
                noPref.push_back(i);
            }
        }
        for (const Group& g : groupByParams(c, noMax, {"maxSpeed"})) {
            c.add("max-speed-zero", LintSeverity::Warning, groupPath(c, g, "maxSpeed"),
                  "maxSpeed is 0 for " + groupWho(g, moving.size()) +
                      ", which have somewhere to go: ORCA clamps every velocity to maxSpeed, so "
                      "they never move (make them static if that is the intent)",
                  agentElements(g.agents), where(g));
        }
        for (const Group& g : groupByParams(c, noPref, {"prefSpeed"})) {
            c.add("pref-speed-zero", LintSeverity::Warning, groupPath(c, g, "prefSpeed"),
                  "prefSpeed is 0 for " + groupWho(g, moving.size()) +
                      ", which have a goal: their preferred velocity is always zero, so they "
                      "never head for it",
                  agentElements(g.agents), where(g));
        }
    }

    // pref-speed-above-max (info)
    {
        std::vector<std::size_t> hit;
        for (std::size_t i : moving) {
            const SceneAgent& a = s.agents[i];
            if (a.goal && c.params[i].prefSpeed > c.params[i].maxSpeed) hit.push_back(i);
            if (a.prefVelocity && length(*a.prefVelocity) > c.params[i].maxSpeed &&
                c.params[i].maxSpeed > 0.0) {
                c.add(
                    "pref-speed-above-max", LintSeverity::Info, agentPath(i) + ".prefVelocity",
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
            c.add("pref-speed-above-max", LintSeverity::Info, groupPath(c, g, "prefSpeed"),
                  "prefSpeed " + num(p.prefSpeed) + " exceeds maxSpeed " + num(p.maxSpeed) +
                      " for " + groupWho(g, moving.size()) +
                      ": ORCA never picks a velocity faster than maxSpeed, so they never reach "
                      "their preferred speed",
                  agentElements(g.agents), where(g));
        }
    }

    // time-step-vs-horizon
    if (positiveFinite(dt)) {
        std::vector<std::size_t> hit;
        for (std::size_t i : moving)
            if (std::min(c.params[i].timeHorizon, c.params[i].timeHorizonObst) < dt)
                hit.push_back(i);
        for (const Group& g : groupByParams(c, hit, {"timeHorizon", "timeHorizonObst"})) {
            const AgentParams& p = c.params[g.agents.front()];
            const bool agentsShort = p.timeHorizon < dt;
            const char* key = agentsShort ? "timeHorizon" : "timeHorizonObst";
            const double tau = agentsShort ? p.timeHorizon : p.timeHorizonObst;
            std::vector<LintElement> elements = agentElements(g.agents);
            elements.push_back({Kind::Simulation, 0, 0});
            c.add("time-step-vs-horizon", LintSeverity::Warning, groupPath(c, g, key),
                  std::string(key) + " " + num(tau) + " s of " + groupWho(g, moving.size()) +
                      " is shorter than the time step " + num(dt) +
                      " s: ORCA only avoids collisions predicted within that horizon, so they "
                      "react less than one step before contact and avoidance turns into "
                      "overlap and the collision case's push",
                  std::move(elements), where(g));
        }
    }

    // neighbor-dist-short
    {
        std::vector<std::size_t> hit;
        for (std::size_t i : moving) {
            const AgentParams& p = c.params[i];
            if (p.neighborDist < p.maxSpeed * p.timeHorizon) hit.push_back(i);
        }
        for (const Group& g : groupByParams(c, hit, {"neighborDist", "maxSpeed", "timeHorizon"})) {
            const AgentParams& p = c.params[g.agents.front()];
            const double need = p.maxSpeed * p.timeHorizon;
            c.add("neighbor-dist-short", LintSeverity::Warning, groupPath(c, g, "neighborDist"),
                  "neighborDist " + num(p.neighborDist) + " of " + groupWho(g, moving.size()) +
                      " is shorter than maxSpeed x timeHorizon = " + num(need) +
                      ": agents that could collide within the time horizon are not considered "
                      "until they are closer, so avoidance starts late and is abrupt",
                  agentElements(g.agents), where(g), "Raise neighborDist to " + num(need));
        }
    }
}

// ---- Spatial checks between agents --------------------------------------------------------------

struct AgentIndex {
    PointGrid grid;
    std::vector<std::size_t> sceneIndex; ///< grid point -> scene agent
    std::vector<std::uint32_t> near;     ///< query scratch
};

/// max-neighbors-low's range for agent i: min(neighborDist, maxSpeed x timeHorizon + 2 radius).
double crowdRange(const AgentParams& p) {
    return std::min(p.neighborDist, p.maxSpeed * p.timeHorizon + 2.0 * p.radius);
}

void buildIndex(const Scene& s, const std::vector<AgentParams>& params,
                const std::vector<std::uint8_t>& ok, AgentIndex& index) {
    std::vector<Vec2> pos;
    std::vector<double> radius;
    std::vector<double> sizes;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!ok[i]) continue;
        index.sceneIndex.push_back(i);
        pos.push_back(s.agents[i].position);
        radius.push_back(params[i].radius);
        sizes.push_back(
            std::max(2.0 * params[i].radius, s.agents[i].isStatic ? 0.0 : crowdRange(params[i])));
    }
    // Cells about one typical query range (the median, so that a few huge agents do not make
    // every cell huge).
    double cell = 1.0;
    if (!sizes.empty()) {
        std::nth_element(sizes.begin(),
                         sizes.begin() + static_cast<std::ptrdiff_t>(sizes.size() / 2),
                         sizes.end());
        const double median = sizes[sizes.size() / 2];
        if (std::isfinite(median) && median > 0.0) cell = median;
    }
    index.grid.build(pos, radius, cell);
}

/// Number of other agents strictly within `range` of agent `i`, counting at most `cap`.
std::size_t countWithin(const Scene& s, AgentIndex& index, std::size_t i, double range,
                        std::size_t cap) {
    const Vec2 p = s.agents[i].position;
    index.grid.candidatesNear(p, range, index.near);
    const double rangeSq = range * range;
    std::size_t count = 0;
    for (const std::uint32_t point : index.near) {
        const std::size_t j = index.sceneIndex[point];
        if (j == i) continue;
        if (absSq(s.agents[j].position - p) < rangeSq && ++count >= cap) return count;
    }
    return count;
}

bool sameGoal(const SceneAgent& a, const SceneAgent& b) {
    if (a.goal.has_value() != b.goal.has_value()) return false;
    return !a.goal || *a.goal == *b.goal;
}

bool duplicates(const SceneAgent& a, const SceneAgent& b) {
    return a.position == b.position && sameGoal(a, b);
}

/// Overlapping pairs listed one finding each at most (the first by index); more are counted in
/// one summary finding. Agents piled at one point would otherwise give n²/2 findings (2·10⁸ for
/// 20,000 agents: gigabytes, and a linter panel no one can read).
constexpr std::size_t kMaxOverlapFindings = 200;

void lintAgentPairs(Context& c, AgentIndex& index) {
    const Scene& s = c.scene;
    using Pair = std::pair<std::size_t, std::size_t>;
    std::vector<Pair> overlaps; // a max-heap of the kMaxOverlapFindings smallest pairs
    std::size_t overlapCount = 0;
    auto keepOverlap = [&](Pair p) {
        ++overlapCount;
        if (overlaps.size() < kMaxOverlapFindings) {
            overlaps.push_back(p);
            std::push_heap(overlaps.begin(), overlaps.end());
        } else if (p < overlaps.front()) {
            std::pop_heap(overlaps.begin(), overlaps.end());
            overlaps.back() = p;
            std::push_heap(overlaps.begin(), overlaps.end());
        }
    };
    std::vector<std::uint8_t> duplicate(s.agents.size(), 0);
    for (std::size_t g = 0; g < index.sceneIndex.size(); ++g) {
        const std::size_t i = index.sceneIndex[g];
        const SceneAgent& a = s.agents[i];
        const double ri = c.params[i].radius;
        index.grid.candidatesNear(a.position, 2.0 * ri, index.near);
        std::optional<std::size_t> firstCopy;
        for (const std::uint32_t point : index.near) {
            {
                const std::size_t j = index.sceneIndex[point];
                if (j == i) continue;
                const SceneAgent& b = s.agents[j];
                if (j < i && duplicates(a, b)) {
                    if (!firstCopy || j < *firstCopy) firstCopy = j;
                    continue;
                }
                // Each pair is examined from the agent with the larger radius (ties: the
                // lower index), whose query range 2r covers every overlap.
                const double rj = c.params[j].radius;
                if (rj > ri || (rj == ri && j < i)) continue;
                if (a.isStatic && b.isStatic) continue; // fixed scenery may overlap
                if (duplicates(a, b)) continue;         // reported as duplicate-agents
                const double sum = ri + rj;
                if (absSq(b.position - a.position) < sum * sum)
                    keepOverlap({std::min(i, j), std::max(i, j)});
            }
        }
        if (firstCopy) {
            duplicate[i] = 1;
            const std::size_t j = *firstCopy;
            const bool scenery = a.isStatic && s.agents[j].isStatic;
            c.add("duplicate-agents", scenery ? LintSeverity::Warning : LintSeverity::Error,
                  agentPath(i),
                  agentPath(i) + " is a copy of " + agentPath(j) +
                      " (same position and goal), most likely pasted twice: the two start on top "
                      "of each other",
                  {agentElement(j), agentElement(i)}, a.position, "Delete duplicate");
        }
    }
    std::sort(overlaps.begin(), overlaps.end()); // each pair is examined once: no duplicates
    if (overlapCount > overlaps.size()) {
        const auto [i, j] = overlaps.front();
        c.add("agents-overlap", LintSeverity::Error, "agents",
              std::to_string(overlapCount) + " pairs of agents overlap at the start; the first " +
                  std::to_string(overlaps.size()) +
                  " are listed one by one, the rest only counted here: the crowd is packed far "
                  "tighter than its radii allow (spread it out, e.g. with a generator's minimum "
                  "spacing)",
              {agentElement(i), agentElement(j)},
              (s.agents[i].position + s.agents[j].position) * 0.5);
    }
    for (const auto& [i, j] : overlaps) {
        const Vec2 pi = s.agents[i].position;
        const Vec2 pj = s.agents[j].position;
        const double sum = c.params[i].radius + c.params[j].radius;
        const double dist = length(pj - pi);
        c.add("agents-overlap", LintSeverity::Error, agentPath(j) + ".position",
              agentPath(i) + " and " + agentPath(j) + " overlap by " + num(sum - dist) +
                  " at the start: ORCA's guarantees assume disjoint agents, and its collision "
                  "case pushes overlapping pairs apart within one step, a visible jump",
              {agentElement(i), agentElement(j)}, (pi + pj) * 0.5, "Nudge apart");
    }

    // max-neighbors-low
    std::vector<std::size_t> hit;
    std::vector<std::size_t> counts(s.agents.size(), 0);
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!c.moving(i)) continue;
        const AgentParams& p = c.params[i];
        const std::size_t limit = static_cast<std::size_t>(p.maxNeighbors);
        const std::size_t n =
            countWithin(s, index, i, crowdRange(p), std::max(kMaxNeighborCount, limit + 1));
        if (n > limit) {
            counts[i] = n;
            hit.push_back(i);
        }
    }
    std::size_t movingCount = 0;
    for (std::size_t i = 0; i < s.agents.size(); ++i)
        movingCount += c.moving(i) ? 1 : 0;
    for (const Group& g : groupByParams(c, hit, {"maxNeighbors"})) {
        std::size_t most = 0;
        std::size_t worst = g.agents.front();
        for (std::size_t i : g.agents) {
            if (counts[i] > most) {
                most = counts[i];
                worst = i;
            }
        }
        const AgentParams& p = c.params[worst];
        c.add("max-neighbors-low", LintSeverity::Warning, groupPath(c, g, "maxNeighbors"),
              "maxNeighbors " + std::to_string(p.maxNeighbors) + " of " + groupWho(g, movingCount) +
                  " is lower than the " + (most >= kMaxNeighborCount ? "more than " : "") +
                  std::to_string(most) +
                  " agents within min(neighborDist, maxSpeed x timeHorizon + 2 radii) = " +
                  num(crowdRange(p)) + " of " + agentPath(worst) +
                  " at the start: ORCA considers only the nearest maxNeighbors, so it can steer "
                  "into the ones it leaves out",
              agentElements(g.agents), s.agents[worst].position,
              "Raise maxNeighbors to " + std::to_string(most));
    }
}

// ---- Head-on pairs ------------------------------------------------------------------------------

/// An agent's straight travel: the direction it wants to go and how far (inf = no goal).
struct Travel {
    Vec2 dir{0.0, 0.0}; ///< unit
    double reach = 0.0;
};

std::optional<Travel> travelOf(const SceneAgent& a, const AgentParams& p, double tolerance) {
    if (a.isStatic || !(p.maxSpeed > 0.0)) return std::nullopt;
    Vec2 d{0.0, 0.0};
    double reach = std::numeric_limits<double>::infinity();
    if (a.goal) {
        if (!(p.prefSpeed > 0.0)) return std::nullopt;
        d = *a.goal - a.position;
        reach = length(d);
    } else if (a.prefVelocity) {
        d = *a.prefVelocity;
    }
    const double len = length(d);
    if (!(len > 0.0) || !std::isfinite(len)) return std::nullopt;
    const Vec2 dir = d / len;
    // An initial velocity off the line breaks the symmetry by itself.
    if (a.velocity) {
        const Vec2 v = *a.velocity;
        if (std::abs(det(dir, v)) > tolerance * length(v)) return std::nullopt;
    }
    return Travel{dir, reach};
}

/// True when i and j head straight for each other along one line and would meet.
bool headOn(const Scene& s, const std::vector<AgentParams>& params, std::size_t i, std::size_t j,
            double tolerance) {
    const auto ti = travelOf(s.agents[i], params[i], tolerance);
    const auto tj = travelOf(s.agents[j], params[j], tolerance);
    if (!ti || !tj) return false;
    if (!(dot(ti->dir, tj->dir) < 0.0) || std::abs(det(ti->dir, tj->dir)) > tolerance) return false;
    const Vec2 delta = s.agents[j].position - s.agents[i].position;
    const double dist = length(delta);
    if (!(dist > 0.0) || !(dot(delta, ti->dir) > 0.0)) return false;
    if (std::abs(det(ti->dir, delta)) > tolerance * dist) return false;
    // They meet when their travel together closes the gap to contact.
    return dist - (ti->reach + tj->reach) < params[i].radius + params[j].radius;
}

/// True when no agent other than i and j is within i's or j's neighborDist.
bool isolatedPair(const Context& c, AgentIndex& index, std::size_t i, std::size_t j) {
    for (const std::size_t self : {i, j}) {
        const Vec2 p = c.scene.agents[self].position;
        const double range = c.params[self].neighborDist;
        index.grid.candidatesNear(p, range, index.near);
        for (const std::uint32_t point : index.near) {
            const std::size_t k = index.sceneIndex[point];
            if (k != i && k != j && absSq(c.scene.agents[k].position - p) < range * range)
                return false;
        }
    }
    return true;
}

void lintHeadOn(Context& c, AgentIndex& index) {
    const Scene& s = c.scene;
    const double tol = std::max(c.options.headOnTolerance, 0.0);
    struct Line {
        std::size_t agent;
        Vec2 dir;
    };
    std::vector<Line> lines;
    double scale = 1.0;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!c.moving(i)) continue;
        if (const auto t = travelOf(s.agents[i], c.params[i], tol)) {
            lines.push_back({i, t->dir});
            const Vec2 p = s.agents[i].position;
            scale = std::max({scale, std::abs(p.x), std::abs(p.y)});
        }
    }
    if (lines.size() < 2) return;
    // Lines are bucketed by (direction, offset from the origin), both quantised far more
    // coarsely than the tolerance, so a matching line lies in the same bucket or, when near a
    // bucket edge, in the neighbouring one. The direction is made canonical (x > 0, or x == 0
    // and y > 0) so that opposite headings share a line; near-vertical lines, where that choice
    // flips, are entered under both signs.
    const double angleBin = std::max(1e-6, 10.0 * tol);
    const double offsetBin = 2.0 * angleBin * scale;
    // How far a matching line's keys can be: the angle within tol, the offset within
    // tol * (distance + |position|) <= 3 * tol * scale (plus rounding).
    const double angleSlack = 2.0 * tol + 1e-15;
    const double offsetSlack = 4.0 * tol * scale + 1e-15 * scale;
    struct Entry {
        std::int64_t a;     ///< direction bucket
        std::int64_t b;     ///< offset bucket
        double along;       ///< position along the canonical direction
        std::uint32_t line; ///< index into `lines`
        bool forward;       ///< heading along the canonical direction
    };
    const auto bucket = [](double v, double bin) {
        return static_cast<std::int64_t>(std::floor(std::clamp(v / bin, -1e15, 1e15)));
    };
    const auto canonical = [](Vec2 d, bool flip) {
        const bool forward = d.x > 0.0 || (d.x == 0.0 && d.y > 0.0);
        return (forward != flip) ? d : -d;
    };
    std::vector<Entry> entries;
    entries.reserve(lines.size() + lines.size() / 8);
    for (std::size_t l = 0; l < lines.size(); ++l) {
        const Vec2 d = lines[l].dir;
        const Vec2 p = s.agents[lines[l].agent].position;
        for (const bool flip : {false, true}) {
            const Vec2 e = canonical(d, flip);
            if (flip && !(std::abs(e.x) < angleBin)) break;
            entries.push_back({bucket(e.y, angleBin), bucket(det(e, p), offsetBin), dot(e, p),
                               static_cast<std::uint32_t>(l), e == d});
        }
    }
    const auto byKey = [](const Entry& x, const Entry& y) {
        if (x.a != y.a) return x.a < y.a;
        if (x.b != y.b) return x.b < y.b;
        return x.along < y.along;
    };
    std::sort(entries.begin(), entries.end(), byKey);

    std::set<std::pair<std::size_t, std::size_t>> pairs;
    for (const Entry& f : entries) {
        if (!f.forward) continue;
        const std::size_t fi = lines[f.line].agent;
        const Vec2 e = lines[f.line].dir; // forward: the canonical direction itself
        const double offset = det(e, s.agents[fi].position);
        // Neighbouring buckets only when f's keys lie within the slack of a bucket edge.
        const std::int64_t a0 = bucket(e.y - angleSlack, angleBin);
        const std::int64_t a1 = bucket(e.y + angleSlack, angleBin);
        const std::int64_t b0 = bucket(offset - offsetSlack, offsetBin);
        const std::int64_t b1 = bucket(offset + offsetSlack, offsetBin);
        for (std::int64_t a = a0; a <= a1; ++a) {
            for (std::int64_t b = b0; b <= b1; ++b) {
                // The first few backward agents ahead of f in that bucket (a queue on one line
                // needs only its nearest opposite agent).
                Entry probe = f;
                probe.a = a;
                probe.b = b;
                auto it = std::upper_bound(entries.begin(), entries.end(), probe, byKey);
                int tried = 0;
                for (; it != entries.end() && it->a == a && it->b == b && tried < 4; ++it) {
                    const std::size_t bi = lines[it->line].agent;
                    if (it->forward || bi == fi) continue;
                    ++tried;
                    if (headOn(s, c.params, fi, bi, tol) && isolatedPair(c, index, fi, bi))
                        pairs.emplace(std::min(fi, bi), std::max(fi, bi));
                }
            }
        }
    }
    for (const auto& [i, j] : pairs) {
        const Vec2 pi = s.agents[i].position;
        const Vec2 pj = s.agents[j].position;
        c.add("head-on-symmetric", LintSeverity::Warning, agentPath(j) + ".position",
              agentPath(i) + " and " + agentPath(j) +
                  " head straight for each other along one line with no other agent near: their "
                  "avoidance then points along that line too, so neither steps aside and they "
                  "stall face to face (only rounding may break the tie)",
              {agentElement(i), agentElement(j)}, (pi + pj) * 0.5, "Perturb");
    }
}

// ---- Goals --------------------------------------------------------------------------------------

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

void lintGoals(Context& c) {
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
        std::vector<LintElement> elements;
        for (std::size_t i : agents) {
            elements.push_back(agentElement(i));
            elements.push_back(goalElement(i));
        }
        c.add("goal-crowded", LintSeverity::Warning, agentPath(agents.front()) + ".goal",
              plural(agents.size(), "agent") + " (" + agentList(agents) + ") share the goal (" +
                  num(goal.x) + ", " + num(goal.y) + ") but their goalRadius " + num(smallest) +
                  " cannot hold them all: they jostle round it forever and never all count "
                  "as arrived (needs about " +
                  num(need) + ")",
              std::move(elements), goal, "Raise goalRadius to " + num(need));
    }
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        if (!c.moving(i) || !a.goal) continue;
        const double r = effectiveGoalRadius(c.params[i]);
        if (absSq(*a.goal - a.position) <= r * r && *a.goal != a.position) {
            c.add("starts-at-goal", LintSeverity::Info, agentPath(i) + ".goal",
                  agentPath(i) + " starts within its goalRadius " + num(r) +
                      " of its goal, so it counts as arrived from the first step",
                  {agentElement(i), goalElement(i)}, a.position);
        }
    }
}

// ---- Agents and obstacles -----------------------------------------------------------------------

struct ObstacleIndex {
    std::vector<std::size_t> sceneIndex; ///< dense obstacle -> scene obstacle
    std::vector<std::pair<Vec2, Vec2>> box;
    std::vector<ObstacleVertex> vertices;
    ObstacleGrid grid;
    std::vector<std::uint32_t> segments;
    std::vector<double> distSq;
};

void buildObstacleIndex(const Scene& s, const std::vector<std::uint8_t>& usable,
                        double typicalRange, ObstacleIndex& index) {
    std::vector<std::vector<Vec2>> polygons;
    for (std::size_t k = 0; k < s.obstacles.size(); ++k) {
        if (!usable[k]) continue;
        std::vector<Vec2> v = s.obstacles[k].vertices;
        // The index only needs segments; CCW order keeps buildObstacleVertices' convexity
        // flags meaningful.
        if (v.size() >= 3 && signedArea(v) < 0.0) std::reverse(v.begin(), v.end());
        Vec2 lo = v[0];
        Vec2 hi = v[0];
        for (const Vec2& q : v) {
            lo = glm::min(lo, q);
            hi = glm::max(hi, q);
        }
        index.sceneIndex.push_back(k);
        index.box.emplace_back(lo, hi);
        polygons.push_back(std::move(v));
    }
    buildObstacleVertices(polygons, index.vertices);
    index.grid.build(index.vertices, typicalRange);
}

/// Scene obstacles (ascending) that the disk (p, r) overlaps or whose polygon contains p.
std::vector<std::size_t> obstaclesHit(const Scene& s, ObstacleIndex& index, Vec2 p, double r) {
    std::vector<std::size_t> hit;
    if (r > 0.0) {
        index.grid.query(index.vertices, p, r, index.segments, index.distSq, false);
        for (std::uint32_t seg : index.segments)
            hit.push_back(index.sceneIndex[index.vertices[seg].obstacle]);
    }
    for (std::size_t d = 0; d < index.sceneIndex.size(); ++d) {
        const auto& [lo, hi] = index.box[d];
        if (p.x < lo.x || p.x > hi.x || p.y < lo.y || p.y > hi.y) continue;
        const std::vector<Vec2>& v = s.obstacles[index.sceneIndex[d]].vertices;
        if (v.size() >= 3 && pointInPolygon(v, p)) hit.push_back(index.sceneIndex[d]);
    }
    std::sort(hit.begin(), hit.end());
    hit.erase(std::unique(hit.begin(), hit.end()), hit.end());
    return hit;
}

/// The first usable obstacle (by distance along the path) that the segment a->b crosses,
/// with the crossing point; obstacles in `skip` are ignored.
std::optional<std::pair<std::size_t, Vec2>> firstCrossing(const Scene& s,
                                                          const ObstacleIndex& index, Vec2 a,
                                                          Vec2 b,
                                                          const std::vector<std::size_t>& skip) {
    const Vec2 lo = glm::min(a, b);
    const Vec2 hi = glm::max(a, b);
    double bestT = std::numeric_limits<double>::infinity();
    std::optional<std::pair<std::size_t, Vec2>> best;
    for (std::size_t d = 0; d < index.sceneIndex.size(); ++d) {
        const auto& [olo, ohi] = index.box[d];
        if (hi.x < olo.x || lo.x > ohi.x || hi.y < olo.y || lo.y > ohi.y) continue;
        const std::size_t k = index.sceneIndex[d];
        if (std::find(skip.begin(), skip.end(), k) != skip.end()) continue;
        const std::vector<Vec2>& v = s.obstacles[k].vertices;
        for (std::size_t e = 0; e < edgeCount(v); ++e) {
            const Vec2 c0 = v[e];
            const Vec2 c1 = v[(e + 1) % v.size()];
            if (!segmentsTouch(a, b, c0, c1)) continue;
            const double t = crossingParam(a, b, c0, c1);
            if (t < bestT) {
                bestT = t;
                best = {k, a + t * (b - a)};
            }
        }
    }
    return best;
}

void lintObstacleContacts(Context& c, const std::vector<std::uint8_t>& usable) {
    const Scene& s = c.scene;
    if (std::none_of(usable.begin(), usable.end(), [](std::uint8_t u) { return u != 0; })) return;
    double typical = 1.0;
    {
        std::vector<double> radii;
        for (std::size_t i = 0; i < s.agents.size(); ++i)
            if (c.ok[i]) radii.push_back(c.params[i].radius);
        if (!radii.empty()) {
            std::nth_element(radii.begin(),
                             radii.begin() + static_cast<std::ptrdiff_t>(radii.size() / 2),
                             radii.end());
            typical = 4.0 * radii[radii.size() / 2];
        }
    }
    ObstacleIndex index;
    buildObstacleIndex(s, usable, typical, index);

    // Goals whose straight path crosses an obstacle, grouped by that obstacle.
    std::map<std::size_t, std::vector<std::size_t>> blocked;
    std::map<std::size_t, Vec2> blockedAt;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!c.ok[i]) continue;
        const SceneAgent& a = s.agents[i];
        const double r = c.params[i].radius;
        const std::vector<std::size_t> inside = obstaclesHit(s, index, a.position, r);
        for (std::size_t k : inside) {
            const double depth = penetration(s.obstacles[k].vertices, a.position, r);
            c.add("agent-in-obstacle", a.isStatic ? LintSeverity::Warning : LintSeverity::Error,
                  agentPath(i) + ".position",
                  agentPath(i) + " starts " +
                      (s.obstacles[k].vertices.size() >= 3 &&
                               pointInPolygon(s.obstacles[k].vertices, a.position)
                           ? "inside "
                           : "overlapping ") +
                      obstaclePath(k) + " (" + num(depth) +
                      " deep): ORCA keeps agents out of obstacles but cannot get them out, so "
                      "it is stuck or pushed through the wall",
                  {agentElement(i), obstacleElement(k)}, a.position, "Nudge out");
        }
        if (a.isStatic || !a.goal) continue;
        const Vec2 g = *a.goal;
        const double goalRadius = effectiveGoalRadius(c.params[i]);
        const std::vector<std::size_t> goalHits = obstaclesHit(s, index, g, r);
        bool goalBlocked = false;
        for (std::size_t k : goalHits) {
            const double need = penetration(s.obstacles[k].vertices, g, r);
            if (!(need > goalRadius)) continue;
            goalBlocked = true;
            c.add("goal-in-obstacle", LintSeverity::Error, agentPath(i) + ".goal",
                  "the goal of " + agentPath(i) + " lies " +
                      (s.obstacles[k].vertices.size() >= 3 &&
                               pointInPolygon(s.obstacles[k].vertices, g)
                           ? "inside "
                           : "too close to ") +
                      obstaclePath(k) + ": the agent (radius " + num(r) +
                      ") cannot get within its goalRadius " + num(goalRadius) +
                      " of it, so it presses against the obstacle forever",
                  {goalElement(i), agentElement(i), obstacleElement(k)}, g, "Move goal out");
        }
        if (goalBlocked) continue;
        std::vector<std::size_t> skip = inside;
        skip.insert(skip.end(), goalHits.begin(), goalHits.end());
        if (const auto crossing = firstCrossing(s, index, a.position, g, skip)) {
            auto [it, inserted] = blocked.try_emplace(crossing->first);
            it->second.push_back(i);
            if (inserted) blockedAt[crossing->first] = crossing->second;
        }
    }
    for (const auto& [k, agents] : blocked) {
        std::vector<LintElement> elements = {obstacleElement(k)};
        for (std::size_t i : agents) {
            elements.push_back(agentElement(i));
            elements.push_back(goalElement(i));
        }
        c.add("goal-unreachable-straight", LintSeverity::Warning,
              agentPath(agents.front()) + ".goal",
              "the straight line from " +
                  (agents.size() == 1
                       ? agentList(agents)
                       : plural(agents.size(), "agent") + " (" + agentList(agents) + ")") +
                  " to " + (agents.size() == 1 ? "its goal" : "their goals") + " crosses " +
                  obstaclePath(k) +
                  ": ORCA is local and plans no paths, so they may stall against it (the detour "
                  "field only leads round static agents); add waypoints or move the goal",
              std::move(elements), blockedAt[k]);
    }
}

// ---- Obstacles ----------------------------------------------------------------------------------

/// Lints obstacle structure; returns per obstacle whether it is usable for contact checks
/// (valid, either winding).
std::vector<std::uint8_t> lintObstacles(Context& c) {
    const Scene& s = c.scene;
    std::vector<std::uint8_t> usable(s.obstacles.size(), 0);
    for (std::size_t k = 0; k < s.obstacles.size(); ++k) {
        const std::vector<Vec2>& v = s.obstacles[k].vertices;
        std::vector<PolygonProblem> more;
        PolygonProblem p = structuralProblem(v, k, &more);
        if (p.rule != nullptr) {
            c.add(p.rule, LintSeverity::Error, p.path, p.message, p.elements, p.where, p.fixLabel);
            for (PolygonProblem& m : more)
                c.add(m.rule, LintSeverity::Error, m.path, m.message, m.elements, m.where,
                      m.fixLabel);
            continue;
        }
        const PolygonCheck check = checkPolygon(v);
        Vec2 centre{0.0, 0.0};
        for (const Vec2& q : v)
            centre += q;
        centre /= static_cast<double>(v.size());
        if (!check.valid) {
            // A case the checks above do not name: report the simulator's own reason.
            c.add("obstacle-invalid", LintSeverity::Error, obstaclePath(k) + ".vertices",
                  "obstacle " + obstaclePath(k) + " is rejected by the simulator: " + check.error,
                  {obstacleElement(k)}, centre, "Delete obstacle");
            continue;
        }
        usable[k] = 1;
        if (check.clockwise) {
            c.add("obstacle-clockwise", LintSeverity::Error, obstaclePath(k),
                  "obstacle " + obstaclePath(k) +
                      " is clockwise: ORCA takes the right of each edge as the outside, so as "
                      "written it is inside out (RVO2 lets agents walk in from outside; this "
                      "simulator rejects it, and only loading from a file repairs it)",
                  {obstacleElement(k)}, centre, "Reverse winding");
        }
        const double maxCoord = c.options.maxCoordinate;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (std::abs(v[i].x) > maxCoord || std::abs(v[i].y) > maxCoord) {
                c.add("coordinate-huge", LintSeverity::Warning, vertexPath(k, i),
                      "vertex " + std::to_string(i) + " of " + obstaclePath(k) + " lies beyond " +
                          num(maxCoord) +
                          " from the origin; so far out, the solver's absolute epsilon (1e-5) "
                          "approaches the spacing of doubles and results lose precision",
                      {obstacleElement(k), {Kind::Vertex, k, i}}, v[i]);
                break;
            }
        }
        for (std::size_t e = 0; e < edgeCount(v); ++e) {
            const Vec2 a = v[e];
            const Vec2 b = v[(e + 1) % v.size()];
            const double len = length(b - a);
            if (len >= kTinyEdge) continue;
            const std::size_t drop = (e + 1) % v.size();
            c.add("obstacle-tiny-edge", LintSeverity::Warning, vertexPath(k, drop),
                  "edge " + std::to_string(e) + " of " + obstaclePath(k) + " is only " + num(len) +
                      " long, below the solver's epsilon 1e-5: its direction is mostly rounding "
                      "and ORCA's obstacle tests treat it unreliably",
                  {obstacleElement(k), {Kind::Edge, k, e}}, a,
                  v.size() == 2 ? "Delete obstacle" : "Remove vertex");
        }
    }
    return usable;
}

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

// ---- Fixes --------------------------------------------------------------------------------------

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

std::optional<std::size_t> elementIndex(const LintIssue& issue, Kind kind, std::size_t nth = 0) {
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

bool fixSimulation(Scene& scene, const LintIssue& issue, std::string* error) {
    for (const SimulationKey& key : kSimulationKeys) {
        if (issue.jsonPath != key.path) continue;
        double& v = simulationValue(scene.simulation.params, key);
        if (key.valid(v)) return fail(error, issue.jsonPath + " is valid now");
        SimulationParams defaults;
        v = simulationValue(defaults, key);
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

bool fixNeighborDist(Scene& scene, const LintIssue& issue, std::string* error) {
    if (issue.jsonPath == "agentDefaults.neighborDist") {
        AgentParams& d = scene.agentDefaults;
        const double need = d.maxSpeed * d.timeHorizon;
        if (!(d.neighborDist < need) || !std::isfinite(need))
            return fail(error, "agentDefaults.neighborDist is long enough now");
        d.neighborDist = need;
        return true;
    }
    bool changed = false;
    for (std::size_t i : elementAgents(issue, scene.agents.size())) {
        const AgentParams p = scene.resolvedParams(scene.agents[i]);
        const double need = p.maxSpeed * p.timeHorizon;
        if (scene.agents[i].isStatic || !(p.neighborDist < need) || !std::isfinite(need)) continue;
        scene.agents[i].overrides.neighborDist = need;
        changed = true;
    }
    return changed ? true : fail(error, "every agent's neighborDist is long enough now");
}

bool fixMaxNeighbors(Scene& scene, const LintIssue& issue, std::string* error) {
    std::vector<AgentParams> params(scene.agents.size());
    std::vector<std::uint8_t> ok(scene.agents.size(), 0);
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        params[i] = scene.resolvedParams(scene.agents[i]);
        const SceneAgent& a = scene.agents[i];
        ok[i] = finite(a.position) && paramsValid(params[i]) ? 1 : 0;
    }
    AgentIndex index;
    buildIndex(scene, params, ok, index);
    std::size_t most = 0;
    std::vector<std::size_t> low;
    for (std::size_t i : elementAgents(issue, scene.agents.size())) {
        if (!ok[i] || scene.agents[i].isStatic) continue;
        const auto limit = static_cast<std::size_t>(params[i].maxNeighbors);
        const std::size_t n = countWithin(scene, index, i, crowdRange(params[i]),
                                          std::max(kMaxNeighborCount, limit + 1));
        if (n > limit) {
            most = std::max(most, n);
            low.push_back(i);
        }
    }
    if (low.empty()) return fail(error, "maxNeighbors is high enough now");
    const int value = static_cast<int>(std::min<std::size_t>(most, 1u << 30));
    if (issue.jsonPath == "agentDefaults.maxNeighbors") {
        scene.agentDefaults.maxNeighbors = std::max(scene.agentDefaults.maxNeighbors, value);
    } else {
        for (std::size_t i : low)
            scene.agents[i].overrides.maxNeighbors = value;
    }
    return true;
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
    const double need = crowdedGoalRadius(params, agents, LintOptions{}.goalPackingDensity);
    bool changed = false;
    for (std::size_t i : agents) {
        if (effectiveGoalRadius(params[i]) < need) {
            scene.agents[i].overrides.goalRadius = need;
            changed = true;
        }
    }
    return changed ? true : fail(error, "goalRadius is large enough now");
}

bool fixOverlap(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent, 0);
    const auto j = elementIndex(issue, Kind::Agent, 1);
    if (!i || !j || *i >= scene.agents.size() || *j >= scene.agents.size() || *i == *j)
        return fail(error, "the agents are gone");
    SceneAgent& a = scene.agents[*i];
    SceneAgent& b = scene.agents[*j];
    const double sum = scene.resolvedParams(a).radius + scene.resolvedParams(b).radius;
    if (!finite(a.position) || !finite(b.position) || !(sum > 0.0) || !std::isfinite(sum))
        return fail(error, "the agents have invalid values");
    if (a.isStatic && b.isStatic) return fail(error, "both agents are static");
    const Vec2 d = b.position - a.position;
    const double dist = length(d);
    if (!(dist < sum)) return fail(error, "the agents no longer overlap");
    // Along the centre line, symmetrically unless one is static (coincident: along +x).
    const Vec2 dir = dist > 0.0 ? d / dist : Vec2{1.0, 0.0};
    const double push = sum * (1.0 + kNudgeMargin) - dist;
    if (a.isStatic) {
        b.position += dir * push;
    } else if (b.isStatic) {
        a.position -= dir * push;
    } else {
        a.position -= dir * (push * 0.5);
        b.position += dir * (push * 0.5);
    }
    return true;
}

bool fixPushOut(Scene& scene, const LintIssue& issue, bool goal, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    const auto k = elementIndex(issue, Kind::Obstacle);
    if (!i || !k || *i >= scene.agents.size() || *k >= scene.obstacles.size())
        return fail(error, "the agent or obstacle is gone");
    SceneAgent& a = scene.agents[*i];
    const std::vector<Vec2>& v = scene.obstacles[*k].vertices;
    if (checkPolygon(v).valid == false) return fail(error, "the obstacle is invalid");
    const AgentParams p = scene.resolvedParams(a);
    if (!paramsValid(p)) return fail(error, "invalid agent parameters");
    Vec2* point = goal ? (a.goal ? &*a.goal : nullptr) : &a.position;
    if (point == nullptr || !finite(*point)) return fail(error, "the agent has no such point");
    const double depth = penetration(v, *point, p.radius);
    if (goal ? !(depth > effectiveGoalRadius(p)) : !(depth > 0.0))
        return fail(error, "no longer inside the obstacle");
    const std::optional<Vec2> out = pushOut(v, *point, p.radius);
    if (!out) return fail(error, "no free spot found near the obstacle's boundary");
    *point = *out;
    return true;
}

bool fixHeadOn(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent, 0);
    const auto j = elementIndex(issue, Kind::Agent, 1);
    if (!i || !j || *i >= scene.agents.size() || *j >= scene.agents.size() || *i == *j)
        return fail(error, "the agents are gone");
    std::vector<AgentParams> params(scene.agents.size());
    params[*i] = scene.resolvedParams(scene.agents[*i]);
    params[*j] = scene.resolvedParams(scene.agents[*j]);
    const SceneAgent& a = scene.agents[*i];
    const SceneAgent& b = scene.agents[*j];
    const bool valuesOk =
        finite(a.position) && finite(b.position) && (!a.goal || finite(*a.goal)) &&
        (!b.goal || finite(*b.goal)) && (!a.prefVelocity || finite(*a.prefVelocity)) &&
        (!b.prefVelocity || finite(*b.prefVelocity)) && (!a.velocity || finite(*a.velocity)) &&
        (!b.velocity || finite(*b.velocity)) && paramsValid(params[*i]) && paramsValid(params[*j]);
    if (!valuesOk || !headOn(scene, params, *i, *j, kHeadOnFixTolerance))
        return fail(error, "the agents are no longer head-on");
    // Shift the later agent (position and goal, so its heading is kept) to the left of its
    // travel by 1% of its radius.
    const auto travel = travelOf(b, params[*j], kHeadOnFixTolerance);
    const Vec2 offset = perp(travel->dir) * (params[*j].radius * kPerturbRatio);
    SceneAgent& moved = scene.agents[*j];
    moved.position += offset;
    if (moved.goal) *moved.goal += offset;
    return true;
}

bool fixObstacle(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto k = elementIndex(issue, Kind::Obstacle);
    if (!k || *k >= scene.obstacles.size()) return fail(error, "the obstacle is gone");
    std::vector<Vec2>& v = scene.obstacles[*k].vertices;
    const std::string& rule = issue.rule;
    if (rule == "obstacle-clockwise") {
        const PolygonCheck check = checkPolygon(v);
        if (!check.valid || !check.clockwise || v.size() < 3)
            return fail(error, "the obstacle is not a clockwise polygon now");
        std::reverse(v.begin(), v.end());
        return true;
    }
    if (rule == "obstacle-duplicate-vertex") {
        // Elements: the obstacle, the first copy of the point, the later copy (removed).
        std::vector<std::size_t> subs;
        for (const LintElement& e : issue.elements)
            if (e.kind == Kind::Vertex) subs.push_back(e.sub);
        if (subs.size() != 2 || subs[0] == subs[1] || subs[0] >= v.size() || subs[1] >= v.size() ||
            !(v[subs[0]] == v[subs[1]]))
            return fail(error, "the vertices are no longer the same point");
        v.erase(v.begin() + static_cast<std::ptrdiff_t>(subs[1]));
        return true;
    }
    if (rule == "obstacle-tiny-edge") {
        const auto e = std::find_if(issue.elements.begin(), issue.elements.end(),
                                    [](const LintElement& x) { return x.kind == Kind::Edge; });
        if (e == issue.elements.end() || e->sub >= v.size() || v.size() < 2)
            return fail(error, "the edge is gone");
        const std::size_t drop = (e->sub + 1) % v.size();
        const double len = length(v[drop] - v[e->sub]);
        if (!(len < kTinyEdge)) return fail(error, "the edge is not tiny now");
        if (v.size() == 2) {
            scene.obstacles.erase(scene.obstacles.begin() + static_cast<std::ptrdiff_t>(*k));
        } else {
            v.erase(v.begin() + static_cast<std::ptrdiff_t>(drop));
        }
        return true;
    }
    if (rule == "obstacle-collinear") {
        const char* problem = v.size() < 3 ? nullptr : structuralProblem(v, *k, nullptr).rule;
        if (problem == nullptr || std::string_view(problem) != rule)
            return fail(error, "the obstacle is not a collinear polygon now");
        // The two extreme points along the line.
        std::size_t far = 1;
        for (std::size_t m = 1; m < v.size(); ++m)
            if (absSq(v[m] - v[0]) > absSq(v[far] - v[0])) far = m;
        const Vec2 axis = v[far] - v[0];
        std::size_t lo = 0;
        std::size_t hi = 0;
        for (std::size_t m = 0; m < v.size(); ++m) {
            if (dot(v[m], axis) < dot(v[lo], axis)) lo = m;
            if (dot(v[m], axis) > dot(v[hi], axis)) hi = m;
        }
        const std::vector<Vec2> segment = {v[std::min(lo, hi)], v[std::max(lo, hi)]};
        v = segment;
        return true;
    }
    // Delete obstacle: only while the simulator would still reject it.
    const bool broken = v.size() < 2 || !checkPolygon(v).valid;
    if (!broken) return fail(error, "the obstacle is valid now");
    scene.obstacles.erase(scene.obstacles.begin() + static_cast<std::ptrdiff_t>(*k));
    return true;
}

} // namespace

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
    Context c{scene, options, {}, {}, {}};
    resolveAgents(c);
    lintSimulation(c);
    lintAgentValues(c);
    lintParams(c);
    {
        AgentIndex index;
        buildIndex(scene, c.params, c.ok, index);
        lintAgentPairs(c, index);
        lintHeadOn(c, index);
    }
    lintGoals(c);
    const std::vector<std::uint8_t> usable = lintObstacles(c);
    lintObstacleContacts(c, usable);
    std::stable_sort(c.issues.begin(), c.issues.end(), issueLess);
    return std::move(c.issues);
}

bool applyLintFix(Scene& scene, const LintIssue& issue, std::string* error) {
    if (issue.fixLabel.empty()) return fail(error, "the issue has no automatic fix");
    const std::string& rule = issue.rule;
    const std::size_t count = scene.agents.size();
    if (rule == "simulation-invalid") return fixSimulation(scene, issue, error);
    if (rule == "param-invalid") return fixParamInvalid(scene, issue, error);
    if (rule == "neighbor-dist-short") return fixNeighborDist(scene, issue, error);
    if (rule == "max-neighbors-low") return fixMaxNeighbors(scene, issue, error);
    if (rule == "goal-crowded") return fixGoalCrowded(scene, issue, error);
    if (rule == "agents-overlap") return fixOverlap(scene, issue, error);
    if (rule == "agent-in-obstacle") return fixPushOut(scene, issue, false, error);
    if (rule == "goal-in-obstacle") return fixPushOut(scene, issue, true, error);
    if (rule == "head-on-symmetric") return fixHeadOn(scene, issue, error);
    if (rule.rfind("obstacle-", 0) == 0) return fixObstacle(scene, issue, error);
    if (rule == "agent-non-finite") {
        const auto i = elementIndex(issue, Kind::Agent);
        if (!i || *i >= count) return fail(error, "the agent is gone");
        const SceneAgent& a = scene.agents[*i];
        const bool bad = !finite(a.position) || (a.velocity && !finite(*a.velocity)) ||
                         (a.goal && !finite(*a.goal)) ||
                         (a.prefVelocity && !finite(*a.prefVelocity));
        if (!bad) return fail(error, "the agent's values are finite now");
        scene.agents.erase(scene.agents.begin() + static_cast<std::ptrdiff_t>(*i));
        return true;
    }
    if (rule == "static-agent-moving") {
        const auto i = elementIndex(issue, Kind::Agent);
        if (!i || *i >= count) return fail(error, "the agent is gone");
        SceneAgent& a = scene.agents[*i];
        const bool moving = a.goal || a.prefVelocity ||
                            (a.velocity && (a.velocity->x != 0.0 || a.velocity->y != 0.0));
        if (!a.isStatic || !moving)
            return fail(error, "the agent is no longer a moving static agent");
        a.goal.reset();
        a.prefVelocity.reset();
        a.velocity.reset();
        return true;
    }
    if (rule == "goal-and-pref-velocity") {
        const auto i = elementIndex(issue, Kind::Agent);
        if (!i || *i >= count) return fail(error, "the agent is gone");
        SceneAgent& a = scene.agents[*i];
        if (!a.goal || !a.prefVelocity) return fail(error, "the agent no longer has both");
        a.prefVelocity.reset();
        return true;
    }
    if (rule == "duplicate-agents") {
        const auto first = elementIndex(issue, Kind::Agent, 0);
        const auto copy = elementIndex(issue, Kind::Agent, 1);
        if (!first || !copy || *first >= count || *copy >= count || *first == *copy)
            return fail(error, "the agents are gone");
        if (!duplicates(scene.agents[*first], scene.agents[*copy]))
            return fail(error, "the agents are no longer copies");
        scene.agents.erase(scene.agents.begin() + static_cast<std::ptrdiff_t>(*copy));
        return true;
    }
    return fail(error, "no automatic fix for rule " + rule);
}

} // namespace orca::scene
