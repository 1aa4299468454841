// Lint rules about routes: waypoints against obstacles, straight legs that cross obstacles (with
// the fix that adds the roadmap's corners as waypoints), legs the roadmap cannot route either,
// long waypoint lists, and the routing choice. The roadmap is built once per lint, on first use
// (Context::roadmap()), and only when some leg crosses an obstacle; the last one built is kept
// for the next lint of the same obstacles.

#include <algorithm>
#include <bit>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "lint_rules.hpp"
#include "orca/geometry.hpp"

namespace orca::scene::lint {

namespace {

/// The first remaining stop of `a` (its routeProgress, clamped).
std::size_t firstStop(const SceneAgent& a) {
    return std::min<std::size_t>(a.routeProgress, a.waypoints.size());
}

/// Where the leg to `stop` starts: the agent's position for the first remaining leg, else the
/// waypoint before.
Vec2 legFrom(const SceneAgent& a, std::size_t stop) {
    return stop == firstStop(a) ? a.position : a.waypoints[stop - 1];
}

/// The leg's end: waypoint `stop`, or the goal for stop == waypoints.size().
Vec2 legTo(const SceneAgent& a, std::size_t stop) {
    return stop < a.waypoints.size() ? a.waypoints[stop] : *a.goal;
}

std::string stopPath(std::size_t i, const SceneAgent& a, std::size_t stop) {
    return stop < a.waypoints.size() ? agentPath(i) + ".waypoints[" + std::to_string(stop) + "]"
                                     : agentPath(i) + ".goal";
}

/// "from agents[3] to its goal", "from agents[3]'s waypoints[0] to its waypoints[1]".
std::string legText(std::size_t i, const SceneAgent& a, std::size_t stop) {
    std::string out = "from " + agentPath(i);
    if (stop != firstStop(a)) out += "'s waypoints[" + std::to_string(stop - 1) + "]";
    out += " to its ";
    out += stop < a.waypoints.size() ? "waypoints[" + std::to_string(stop) + "]" : "goal";
    return out;
}

/// Fills the route cache for `roadmap`: connected components of its graph (union-find over
/// the edges) and a grid over its nodes, cells about Roadmap::searchRadius() wide.
void buildRouteCache(RouteCache& cache, const Roadmap& roadmap) {
    cache.built = true;
    const std::span<const Vec2> nodes = roadmap.nodes();
    std::vector<std::uint32_t> parent(nodes.size());
    for (std::uint32_t n = 0; n < parent.size(); ++n)
        parent[n] = n;
    const auto find = [&](std::uint32_t n) {
        while (parent[n] != n)
            n = parent[n] = parent[parent[n]];
        return n;
    };
    for (const auto& [a, b] : roadmap.edges())
        parent[find(a)] = find(b);
    cache.component.resize(nodes.size());
    for (std::uint32_t n = 0; n < nodes.size(); ++n)
        cache.component[n] = find(n);
    if (nodes.empty()) return;
    Vec2 lo = nodes[0];
    Vec2 hi = nodes[0];
    for (const Vec2 q : nodes) {
        lo = {std::min(lo.x, q.x), std::min(lo.y, q.y)};
        hi = {std::max(hi.x, q.x), std::max(hi.y, q.y)};
    }
    // About two nodes per cell, at most 256 cells along an axis.
    const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
    cache.cell = std::max({roadmap.searchRadius() / 4.0, extent / 256.0, 1e-9});
    cache.min = lo;
    cache.cellsX = static_cast<std::ptrdiff_t>((hi.x - lo.x) / cache.cell) + 1;
    cache.cellsY = static_cast<std::ptrdiff_t>((hi.y - lo.y) / cache.cell) + 1;
    cache.cells.assign(static_cast<std::size_t>(cache.cellsX * cache.cellsY), {});
    for (std::uint32_t n = 0; n < nodes.size(); ++n) {
        const auto x = static_cast<std::ptrdiff_t>((nodes[n].x - lo.x) / cache.cell);
        const auto y = static_cast<std::ptrdiff_t>((nodes[n].y - lo.y) / cache.cell);
        cache.cells[static_cast<std::size_t>(y * cache.cellsX + x)].push_back(n);
    }
}

/// The component of a node that `p` sees with `radius` (Roadmap::visible, the strict test),
/// looking at the grid's cells in rings round p, nearest first; none when p sees no node.
std::optional<std::uint32_t> seenComponent(const RouteCache& cache, const Roadmap& roadmap, Vec2 p,
                                           double radius) {
    if (cache.cells.empty()) return std::nullopt;
    const std::span<const Vec2> nodes = roadmap.nodes();
    const auto clampCell = [](double t, std::ptrdiff_t cells) {
        if (!(t > 0.0)) return std::ptrdiff_t{0};
        if (t >= static_cast<double>(cells - 1)) return cells - 1;
        return static_cast<std::ptrdiff_t>(t);
    };
    const std::ptrdiff_t cx = clampCell((p.x - cache.min.x) / cache.cell, cache.cellsX);
    const std::ptrdiff_t cy = clampCell((p.y - cache.min.y) / cache.cell, cache.cellsY);
    const std::ptrdiff_t rings = std::max(cache.cellsX, cache.cellsY);
    for (std::ptrdiff_t ring = 0; ring <= rings; ++ring) {
        for (std::ptrdiff_t y = std::max<std::ptrdiff_t>(cy - ring, 0);
             y <= std::min(cy + ring, cache.cellsY - 1); ++y) {
            for (std::ptrdiff_t x = std::max<std::ptrdiff_t>(cx - ring, 0);
                 x <= std::min(cx + ring, cache.cellsX - 1); ++x) {
                if (std::max(std::abs(x - cx), std::abs(y - cy)) != ring) continue;
                for (const std::uint32_t n :
                     cache.cells[static_cast<std::size_t>(y * cache.cellsX + x)])
                    if (roadmap.visible(p, nodes[n], radius)) return cache.component[n];
            }
        }
    }
    return std::nullopt;
}

/// Whether the roadmap leads agent i round its blocked leg (false without a roadmap): exactly
/// Roadmap::reachable. A quick test decides most legs first, and it is only ever sufficient:
/// the leg is routable when the agent sees the target (steer()'s direct case), or when the
/// start sees a node and a node sees the target (with the roadmap's edge radius) in the same
/// component of the full visibility graph; Roadmap::visible is at least as strict as the
/// roadmap's own tests, so such nodes are ones steer() may pick and ones the target links to.
/// Otherwise Roadmap::reachable answers (one Dijkstra). Answers are kept per leg.
bool routable(Context& c, std::size_t i, const BlockedLeg& leg) {
    Roadmap* roadmap = c.roadmap();
    if (roadmap == nullptr) return false;
    RouteCache& cache = c.routeCache;
    const auto key = std::make_pair(i, leg.stop);
    if (const auto it = cache.routable.find(key); it != cache.routable.end()) return it->second;
    if (!cache.built) buildRouteCache(cache, *roadmap);
    const SceneAgent& a = c.scene.agents[i];
    const Vec2 from = legFrom(a, leg.stop);
    const Vec2 to = legTo(a, leg.stop);
    const double r = c.params[i].radius;
    bool result = roadmap->visible(from, to, r);
    if (!result && roadmap->fullGraph()) {
        const auto start = seenComponent(cache, *roadmap, from, std::min(r, roadmap->edgeRadius()));
        const auto end =
            start ? seenComponent(cache, *roadmap, to, roadmap->edgeRadius()) : std::nullopt;
        result = start && end && *start == *end;
    }
    if (!result) result = roadmap->reachable(from, r, to);
    cache.routable.emplace(key, result);
    return result;
}

bool anyBlocked(const ObstacleContacts& contacts) {
    return !contacts.blocked.empty();
}

/// How far a disk of radius r at p sits in a valid obstacle: > 0 when it overlaps it or its
/// centre is inside (the fixes' re-check; the checks use the contacts' index).
bool diskTouches(const std::vector<Vec2>& v, Vec2 p, double r) {
    if (v.size() >= 3 && pointInPolygon(v, p)) return true;
    const std::size_t edges = v.size() == 2 ? 1 : v.size();
    for (std::size_t e = 0; e < edges; ++e)
        if (distSqPointSegment(v[e], v[(e + 1) % v.size()], p) < r * r) return true;
    return false;
}

/// The N of "...waypoints[N]" at the end of a path.
std::optional<std::size_t> waypointIndex(const std::string& path) {
    const std::string key = ".waypoints[";
    const std::size_t at = path.rfind(key);
    if (at == std::string::npos || path.empty() || path.back() != ']') return std::nullopt;
    std::size_t value = 0;
    std::size_t k = at + key.size();
    if (k + 1 >= path.size()) return std::nullopt;
    for (; k + 1 < path.size(); ++k) {
        if (!std::isdigit(static_cast<unsigned char>(path[k]))) return std::nullopt;
        value = value * 10 + static_cast<std::size_t>(path[k] - '0');
    }
    return value;
}

constexpr const char* kAddWaypoints = "Add waypoints round the obstacle";

} // namespace

// ---- The roadmap --------------------------------------------------------------------------------

namespace {

/// The last roadmap a lint built, with what it was built from. The app lints after every edit,
/// and most edits leave the obstacles and the largest radius alone: building the roadmap is by
/// far the costliest part of a lint (about 0.6 s for 500 boxes), so a lint whose input is the
/// same takes a copy (copies share the immutable graph). A roadmap is a pure function of its
/// input, so the cache never changes a result. One entry, guarded for concurrent lints.
struct LastRoadmap {
    std::mutex mutex;
    std::vector<std::vector<Vec2>> polygons;
    double clearance = 0.0;
    std::optional<Roadmap> roadmap; ///< none: build() refused this input
};

/// Bit for bit (so that -0 and 0 differ: the cached roadmap is exactly the one built).
bool sameBits(double a, double b) {
    return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b);
}

bool samePolygons(const std::vector<std::vector<Vec2>>& a,
                  const std::vector<std::vector<Vec2>>& b) {
    if (a.size() != b.size()) return false;
    for (std::size_t k = 0; k < a.size(); ++k) {
        if (a[k].size() != b[k].size()) return false;
        for (std::size_t v = 0; v < a[k].size(); ++v)
            if (!sameBits(a[k][v].x, b[k][v].x) || !sameBits(a[k][v].y, b[k][v].y)) return false;
    }
    return true;
}

LastRoadmap& lastRoadmap() {
    static LastRoadmap last;
    return last;
}

} // namespace

Roadmap* Context::roadmap() {
    if (!m_roadmapTried) {
        m_roadmapTried = true;
        double largest = 0.0;
        for (std::size_t i = 0; i < scene.agents.size(); ++i)
            if (moving(i) && scene.agents[i].goal) largest = std::max(largest, params[i].radius);
        std::vector<std::vector<Vec2>> polygons;
        for (std::size_t k = 0; k < scene.obstacles.size(); ++k) {
            if (!usable(k)) continue;
            polygons.push_back(scene.obstacles[k].vertices);
            // The simulator takes only counter-clockwise polygons (obstacle-clockwise reports
            // the others); routing round the repaired one is what the author will get.
            if (shape(k).check.clockwise)
                std::reverse(polygons.back().begin(), polygons.back().end());
        }
        if (largest > 0.0 && !polygons.empty()) {
            const double clearance = kRoadmapClearanceRatio * largest;
            LastRoadmap& last = lastRoadmap();
            const std::lock_guard<std::mutex> lock(last.mutex);
            if (!sameBits(last.clearance, clearance) || !samePolygons(last.polygons, polygons)) {
                Roadmap built;
                last.roadmap.reset();
                if (built.build(polygons, clearance)) last.roadmap = std::move(built);
                last.polygons = std::move(polygons);
                last.clearance = clearance;
            }
            if (last.roadmap) m_roadmap = *last.roadmap;
        }
    }
    return m_roadmap ? &*m_roadmap : nullptr;
}

// ---- Checks -------------------------------------------------------------------------------------

void checkWaypointInObstacle(Context& c) {
    const Scene& s = c.scene;
    const ObstacleContacts& contacts = c.contacts();
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const std::vector<std::pair<std::size_t, std::size_t>>& hits = contacts.waypointHits[i];
        for (std::size_t h = 0; h < hits.size(); ++h) {
            const auto [w, k] = hits[h];
            if (h > 0 && hits[h - 1].first == w) continue; // one finding per waypoint
            const Vec2 p = s.agents[i].waypoints[w];
            const std::vector<Vec2>& v = s.obstacles[k].vertices;
            c.add(stopPath(i, s.agents[i], w),
                  "waypoint " + std::to_string(w) + " of " + agentPath(i) + " lies " +
                      (v.size() >= 3 && pointInPolygon(v, p) ? "inside " : "too close to ") +
                      obstaclePath(k) + ": the agent (radius " + num(c.params[i].radius) +
                      ") cannot stand there, so it presses against the obstacle on its way and "
                      "may never count the waypoint as reached",
                  {agentElement(i), obstacleElement(k)}, p, "Delete waypoint");
        }
    }
}

void checkGoalUnreachableStraight(Context& c) {
    if (c.scene.simulation.params.routing != Routing::Straight) return;
    const ObstacleContacts& contacts = c.contacts();
    if (!anyBlocked(contacts)) return;
    const Scene& s = c.scene;
    for (const auto& [k, agents] : contacts.blocked) {
        std::vector<LintElement> elements = {obstacleElement(k)};
        bool anyRoutable = false;
        for (std::size_t i : agents) {
            elements.push_back(agentElement(i));
            elements.push_back(goalElement(i));
            for (const BlockedLeg& leg : contacts.blockedLegs[i])
                anyRoutable = anyRoutable || routable(c, i, leg);
        }
        const std::size_t first = agents.front();
        const SceneAgent& a = s.agents[first];
        const std::size_t stop = contacts.blockedLegs[first].front().stop;
        const std::string who = agents.size() == 1
                                    ? "the straight leg " + legText(first, a, stop) + " crosses "
                                    : "straight legs of " + plural(agents.size(), "agent") + " (" +
                                          agentList(agents) + "; the first " +
                                          legText(first, a, stop) + ") cross ";
        c.add(stopPath(first, a, stop),
              who + obstaclePath(k) +
                  ": ORCA is local and plans no paths, so they may stall against it (the detour "
                  "field only leads round static agents); add waypoints round it, or set "
                  "\"routing\": \"roadmap\" in the simulation block" +
                  (anyRoutable ? "" : " (the roadmap finds no way round it either)"),
              std::move(elements), contacts.blockedAt.at(k), anyRoutable ? kAddWaypoints : "");
    }
}

void checkGoalUnreachableRoadmap(Context& c) {
    const ObstacleContacts& contacts = c.contacts();
    if (!anyBlocked(contacts)) return;
    Roadmap* roadmap = c.roadmap();
    if (roadmap == nullptr) return;
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        for (const BlockedLeg& leg : contacts.blockedLegs[i]) {
            if (routable(c, i, leg)) continue;
            const SceneAgent& a = s.agents[i];
            std::vector<LintElement> elements = {agentElement(i)};
            if (leg.stop == a.waypoints.size()) elements.push_back(goalElement(i));
            elements.push_back(obstacleElement(leg.obstacle));
            c.add(stopPath(i, a, leg.stop),
                  "the straight leg " + legText(i, a, leg.stop) + " crosses " +
                      obstaclePath(leg.obstacle) +
                      " and the roadmap finds no way round: the target is closed in, or every "
                      "way round is narrower than twice the roadmap's clearance " +
                      num(roadmap->clearance()) +
                      " (1.1 × the largest radius), so the agent walks straight at it and "
                      "stalls; open the way or move the target",
                  std::move(elements), legTo(a, leg.stop));
            break; // one finding per agent: its first leg the roadmap cannot route
        }
    }
}

void checkWaypointsMany(Context& c) {
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const std::size_t n = s.agents[i].waypoints.size();
        if (n <= kManyWaypoints) continue;
        c.add(agentPath(i) + ".waypoints",
              agentPath(i) + " has " + std::to_string(n) + " waypoints, more than " +
                  std::to_string(kManyWaypoints) +
                  ": a route that long is a path drawn by hand "
                  "(the loader refuses more than " +
                  std::to_string(kMaxWaypoints) +
                  "); \"routing\": \"roadmap\" finds the way round obstacles without waypoints",
              {agentElement(i)}, s.agents[i].position);
    }
}

void checkRoutingRoadmapSuggested(Context& c) {
    if (c.scene.simulation.params.routing != Routing::Straight) return;
    const ObstacleContacts& contacts = c.contacts();
    if (!anyBlocked(contacts) || c.roadmap() == nullptr) return;
    // The agents with a blocked leg; suggested when the roadmap routes at least one such leg.
    std::vector<std::size_t> agents;
    bool anyRoutable = false;
    for (std::size_t i = 0; i < c.scene.agents.size(); ++i) {
        if (contacts.blockedLegs[i].empty()) continue;
        agents.push_back(i);
        for (const BlockedLeg& leg : contacts.blockedLegs[i])
            anyRoutable = anyRoutable || routable(c, i, leg);
    }
    if (!anyRoutable) return;
    c.add("simulation.routing",
          "the straight routes of " + plural(agents.size(), "agent") + " (" + agentList(agents) +
              ") cross obstacles (goal-unreachable-straight); with \"routing\": \"roadmap\" the "
              "simulator leads every agent round the obstacles along the shortest way over a "
              "roadmap of their corners, no waypoints needed",
          {{Kind::Simulation, 0, 0}}, c.scene.agents[agents.front()].position,
          "Use roadmap routing");
}

void checkRoutingWithoutObstacles(Context& c) {
    if (c.scene.simulation.params.routing != Routing::Roadmap || !c.scene.obstacles.empty()) return;
    c.add("simulation.routing",
          "\"routing\": \"roadmap\" in a scene without obstacles: with nothing to route round, "
          "every agent walks straight, exactly as with \"straight\"",
          {{Kind::Simulation, 0, 0}}, {0.0, 0.0}, "Use straight routing");
}

// ---- Fixes --------------------------------------------------------------------------------------

/// Delete waypoint: only while it still lies in (or too close to) a valid obstacle.
bool fixWaypointInObstacle(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    const auto w = waypointIndex(issue.jsonPath);
    if (!i || !w || *i >= scene.agents.size()) return fail(error, "the agent is gone");
    SceneAgent& a = scene.agents[*i];
    if (*w >= a.waypoints.size() || *w < a.routeProgress)
        return fail(error, "the waypoint is gone or already reached");
    const AgentParams p = scene.resolvedParams(a);
    if (!paramsValid(p)) return fail(error, "invalid agent parameters");
    const Vec2 point = a.waypoints[*w];
    const bool touches =
        std::any_of(scene.obstacles.begin(), scene.obstacles.end(), [&](const SceneObstacle& o) {
            return o.vertices.size() >= 2 && checkPolygon(o.vertices).valid &&
                   diskTouches(o.vertices, point, p.radius);
        });
    if (!touches) return fail(error, "the waypoint is clear of the obstacles now");
    a.waypoints.erase(a.waypoints.begin() + static_cast<std::ptrdiff_t>(*w));
    return true;
}

/// Add waypoints round the obstacle: for every agent of the issue, each blocked leg gets the
/// corners of its roadmap path (Roadmap::path without its two ends) as waypoints before the
/// leg's end. Legs the roadmap cannot route are left as they are.
bool fixGoalUnreachableStraight(Scene& scene, const LintIssue& issue, std::string* error) {
    if (scene.simulation.params.routing != Routing::Straight)
        return fail(error, "the scene uses roadmap routing now");
    const std::vector<std::size_t> agents = elementAgents(issue, scene.agents.size());
    if (agents.empty()) return fail(error, "the issue lists no agents");
    const LintOptions options;
    Context c(scene, options);
    const ObstacleContacts& contacts = c.contacts();
    Roadmap* roadmap = c.roadmap();
    if (roadmap == nullptr) return fail(error, "there is no roadmap to route with");
    std::vector<std::pair<std::size_t, std::vector<Vec2>>> changed;
    for (std::size_t i : agents) {
        const SceneAgent& a = scene.agents[i];
        std::vector<Vec2> waypoints = a.waypoints;
        bool added = false;
        const std::vector<BlockedLeg>& legs = contacts.blockedLegs[i];
        // Back to front, so that the insertions keep the earlier legs' indices.
        for (auto leg = legs.rbegin(); leg != legs.rend(); ++leg) {
            const std::vector<Vec2> path =
                roadmap->path(legFrom(a, leg->stop), c.params[i].radius, legTo(a, leg->stop));
            if (path.size() < 3) continue; // no route (or, unexpectedly, a direct one)
            for (std::size_t k = 1; k + 1 < path.size(); ++k)
                if (!withinSceneLimits(path[k])) return fail(error, kBeyondFileRange);
            waypoints.insert(waypoints.begin() + static_cast<std::ptrdiff_t>(leg->stop),
                             path.begin() + 1, path.end() - 1);
            added = true;
        }
        if (!added) continue;
        if (waypoints.size() > kMaxWaypoints) {
            return fail(error, agentPath(i) + " would get " + std::to_string(waypoints.size()) +
                                   " waypoints, more than a scene file holds (" +
                                   std::to_string(kMaxWaypoints) + ")");
        }
        changed.emplace_back(i, std::move(waypoints));
    }
    if (changed.empty()) return fail(error, "no blocked leg that the roadmap can route round");
    for (auto& [i, waypoints] : changed)
        scene.agents[i].waypoints = std::move(waypoints);
    return true;
}

bool fixRoutingRoadmapSuggested(Scene& scene, const LintIssue&, std::string* error) {
    if (scene.simulation.params.routing != Routing::Straight)
        return fail(error, "the scene uses roadmap routing already");
    const LintOptions options;
    Context c(scene, options);
    if (!anyBlocked(c.contacts())) return fail(error, "no straight leg crosses an obstacle now");
    scene.simulation.params.routing = Routing::Roadmap;
    return true;
}

bool fixRoutingWithoutObstacles(Scene& scene, const LintIssue&, std::string* error) {
    if (scene.simulation.params.routing != Routing::Roadmap || !scene.obstacles.empty())
        return fail(error, "the scene has obstacles or straight routing now");
    scene.simulation.params.routing = Routing::Straight;
    return true;
}

} // namespace orca::scene::lint
