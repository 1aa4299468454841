// Lint rules about agents: their values, pairs of agents (copies, overlaps, crowding) and
// head-on pairs.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "lint_rules.hpp"

namespace orca::scene::lint {

// ---- Spatial index over agents ------------------------------------------------------------------

/// max-neighbors-low's range for agent i: min(neighborDist, maxSpeed x timeHorizon + 2 radius).
double crowdRange(const AgentParams& p) {
    return std::min(p.neighborDist, p.maxSpeed * p.timeHorizon + 2.0 * p.radius);
}

void buildIndex(const Scene& s, const std::vector<AgentParams>& params,
                const std::vector<std::uint8_t>& ok, AgentIndex& index) {
    std::vector<Vec2> pos;
    std::vector<double> sizes;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        if (!ok[i]) continue;
        index.sceneIndex.push_back(i);
        pos.push_back(s.agents[i].position);
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
    index.grid.build(pos, cell);
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

namespace {

/// Every vector the agent has is finite (agents with a non-finite one get agent-non-finite
/// only).
bool valuesFinite(const SceneAgent& a) {
    return finite(a.position) && (!a.velocity || finite(*a.velocity)) &&
           (!a.goal || finite(*a.goal)) && (!a.prefVelocity || finite(*a.prefVelocity));
}

bool movesWhileStatic(const SceneAgent& a) {
    return a.goal || a.prefVelocity ||
           (a.velocity && (a.velocity->x != 0.0 || a.velocity->y != 0.0));
}

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

/// True when no agent other than i and j is within i's or j's neighborDist, neither at the
/// start nor where and when the pair would meet (every agent walking straight at its preferred
/// speed; `walks` holds walkOf of every agent): a crowd converging on the same spot breaks the
/// pair's symmetry there.
bool isolatedPair(const Context& c, AgentIndex& index,
                  const std::vector<std::optional<Walk>>& walks, std::size_t i, std::size_t j) {
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
    const std::optional<Walk>& wi = walks[i];
    const std::optional<Walk>& wj = walks[j];
    if (!wi || !wj) return true;
    // They close the gap to contact at the sum of their speeds (headOn: one line, opposite).
    const double gap = length(wj->start - wi->start) - c.params[i].radius - c.params[j].radius;
    const double closing = length(wi->velocity) + length(wj->velocity);
    if (!(closing > 0.0)) return true;
    const double t = std::max(0.0, gap) / closing;
    const Vec2 meet = (wi->at(t) + wj->at(t)) * 0.5;
    const double range = std::max(c.params[i].neighborDist, c.params[j].neighborDist);
    for (std::size_t k = 0; k < c.scene.agents.size(); ++k) {
        if (k == i || k == j || !c.ok[k]) continue;
        const Vec2 where = walks[k] ? walks[k]->at(t) : c.scene.agents[k].position;
        if (absSq(where - meet) < range * range) return false;
    }
    return true;
}

} // namespace

std::optional<Walk> walkOf(const SceneAgent& a, const AgentParams& p) {
    if (a.isStatic) return std::nullopt;
    Walk w;
    w.start = a.position;
    if (a.goal) {
        const Vec2 d = *a.goal - a.position;
        const double len = length(d);
        const double speed = std::min(p.prefSpeed, p.maxSpeed);
        if (!(len > 0.0) || !(speed > 0.0)) return std::nullopt;
        w.velocity = d * (speed / len);
        w.duration = len / speed;
    } else if (a.prefVelocity) {
        Vec2 v = *a.prefVelocity;
        const double len = length(v);
        if (!(len > 0.0) || !(p.maxSpeed > 0.0)) return std::nullopt;
        if (len > p.maxSpeed) v = v * (p.maxSpeed / len);
        w.velocity = v;
        w.duration = std::numeric_limits<double>::infinity();
    } else {
        return std::nullopt;
    }
    return w;
}

// ---- Agent values -------------------------------------------------------------------------------

/// Non-finite values (an editor can produce them; files cannot hold them): the first one of
/// each agent.
void checkAgentNonFinite(Context& c) {
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        const std::string path = agentPath(i);
        const std::pair<const char*, std::optional<Vec2>> vectors[] = {
            {"position", a.position},
            {"velocity", a.velocity},
            {"goal", a.goal},
            {"prefVelocity", a.prefVelocity}};
        for (const auto& [key, value] : vectors) {
            if (value && !finite(*value)) {
                c.add(path + '.' + key,
                      path + '.' + key +
                          " is not a finite number, so the simulator rejects the agent",
                      {agentElement(i)}, finite(a.position) ? a.position : Vec2{0.0, 0.0},
                      "Delete agent");
                break;
            }
        }
    }
}

void checkStaticAgentMoving(Context& c) {
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        if (!valuesFinite(a) || !a.isStatic || !movesWhileStatic(a)) continue;
        const std::string path = agentPath(i);
        const char* key = a.goal ? "goal" : a.prefVelocity ? "prefVelocity" : "velocity";
        c.add(path + '.' + key,
              "static agent " + path + " has a " + key +
                  ", but static agents never move (the file cannot be saved like this)",
              {agentElement(i)}, a.position, "Clear goal and velocities");
    }
}

void checkGoalAndPrefVelocity(Context& c) {
    const Scene& s = c.scene;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        if (!valuesFinite(a) || !a.goal || !a.prefVelocity) continue;
        const std::string path = agentPath(i);
        c.add(path,
              path + " has both a goal and a constant prefVelocity; the goal would overwrite "
                     "prefVelocity every step (the file cannot be saved like this)",
              {agentElement(i), goalElement(i)}, a.position, "Remove prefVelocity");
    }
}

/// Agent positions and goals, then the first far vertex of each valid obstacle.
void checkCoordinateHuge(Context& c) {
    const Scene& s = c.scene;
    const double maxCoord = c.options.maxCoordinate;
    for (std::size_t i = 0; i < s.agents.size(); ++i) {
        const SceneAgent& a = s.agents[i];
        if (!valuesFinite(a)) continue;
        const std::string path = agentPath(i);
        const std::pair<const char*, std::optional<Vec2>> points[] = {{"position", a.position},
                                                                      {"goal", a.goal}};
        for (const auto& [key, value] : points) {
            if (value && (std::abs(value->x) > maxCoord || std::abs(value->y) > maxCoord)) {
                c.add(path + '.' + key,
                      path + '.' + key + " lies beyond " + num(maxCoord) +
                          " from the origin; so far out, the solver's absolute epsilon (1e-5) "
                          "approaches the spacing of doubles and results lose precision",
                      {std::string_view(key) == "goal" ? goalElement(i) : agentElement(i)}, *value);
            }
        }
    }
    for (std::size_t k = 0; k < s.obstacles.size(); ++k) {
        if (!c.usable(k)) continue;
        const std::vector<Vec2>& v = s.obstacles[k].vertices;
        for (std::size_t i = 0; i < v.size(); ++i) {
            if (std::abs(v[i].x) > maxCoord || std::abs(v[i].y) > maxCoord) {
                c.add(vertexPath(k, i),
                      "vertex " + std::to_string(i) + " of " + obstaclePath(k) + " lies beyond " +
                          num(maxCoord) +
                          " from the origin; so far out, the solver's absolute epsilon (1e-5) "
                          "approaches the spacing of doubles and results lose precision",
                      {obstacleElement(k), {Kind::Vertex, k, i}}, v[i]);
                break;
            }
        }
    }
}

// ---- Pairs of agents ----------------------------------------------------------------------------

/// An agent placed exactly on an earlier one with the same goal: one finding per later copy,
/// naming the first copy.
void checkDuplicateAgents(Context& c) {
    const Scene& s = c.scene;
    AgentIndex& index = c.agentIndex();
    for (std::size_t g = 0; g < index.sceneIndex.size(); ++g) {
        const std::size_t i = index.sceneIndex[g];
        const SceneAgent& a = s.agents[i];
        const double ri = c.params[i].radius;
        index.grid.candidatesNear(a.position, 2.0 * ri, index.near);
        std::optional<std::size_t> firstCopy;
        for (const std::uint32_t point : index.near) {
            const std::size_t j = index.sceneIndex[point];
            if (j < i && duplicates(a, s.agents[j]) && (!firstCopy || j < *firstCopy))
                firstCopy = j;
        }
        if (firstCopy) {
            const std::size_t j = *firstCopy;
            const bool scenery = a.isStatic && s.agents[j].isStatic;
            c.add(scenery ? LintSeverity::Warning : LintSeverity::Error, agentPath(i),
                  agentPath(i) + " is a copy of " + agentPath(j) +
                      " (same position and goal), most likely pasted twice: the two start on top "
                      "of each other",
                  {agentElement(j), agentElement(i)}, a.position, "Delete duplicate");
        }
    }
}

void checkAgentsOverlap(Context& c) {
    const Scene& s = c.scene;
    AgentIndex& index = c.agentIndex();
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
    for (std::size_t g = 0; g < index.sceneIndex.size(); ++g) {
        const std::size_t i = index.sceneIndex[g];
        const SceneAgent& a = s.agents[i];
        const double ri = c.params[i].radius;
        index.grid.candidatesNear(a.position, 2.0 * ri, index.near);
        for (const std::uint32_t point : index.near) {
            const std::size_t j = index.sceneIndex[point];
            if (j == i) continue;
            const SceneAgent& b = s.agents[j];
            // Each pair is examined from the agent with the larger radius (ties: the lower
            // index), whose query range 2r covers every overlap.
            const double rj = c.params[j].radius;
            if (rj > ri || (rj == ri && j < i)) continue;
            if (a.isStatic && b.isStatic) continue; // fixed scenery may overlap
            if (duplicates(a, b)) continue;         // reported as duplicate-agents
            const double sum = ri + rj;
            if (absSq(b.position - a.position) < sum * sum)
                keepOverlap({std::min(i, j), std::max(i, j)});
        }
    }
    std::sort(overlaps.begin(), overlaps.end()); // each pair is examined once: no duplicates
    if (overlapCount > overlaps.size()) {
        const auto [i, j] = overlaps.front();
        c.add("agents",
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
        c.add(agentPath(j) + ".position",
              agentPath(i) + " and " + agentPath(j) + " overlap by " + num(sum - dist) +
                  " at the start: ORCA's guarantees assume disjoint agents, and its collision "
                  "case pushes overlapping pairs apart within one step, a visible jump",
              {agentElement(i), agentElement(j)}, (pi + pj) * 0.5, "Nudge apart");
    }
}

void checkMaxNeighborsLow(Context& c) {
    const Scene& s = c.scene;
    AgentIndex& index = c.agentIndex();
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
        c.add(groupPath(c, g, "maxNeighbors"),
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

void checkHeadOnSymmetric(Context& c) {
    AgentIndex& index = c.agentIndex();
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
    // Every agent's straight walk, once (isolatedPair looks where each is when a pair meets).
    std::vector<std::optional<Walk>> walks(s.agents.size());
    for (std::size_t i = 0; i < s.agents.size(); ++i)
        if (c.ok[i]) walks[i] = walkOf(s.agents[i], c.params[i]);
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
                    if (headOn(s, c.params, fi, bi, tol) && isolatedPair(c, index, walks, fi, bi))
                        pairs.emplace(std::min(fi, bi), std::max(fi, bi));
                }
            }
        }
    }
    for (const auto& [i, j] : pairs) {
        const Vec2 pi = s.agents[i].position;
        const Vec2 pj = s.agents[j].position;
        c.add(agentPath(j) + ".position",
              agentPath(i) + " and " + agentPath(j) +
                  " head straight for each other along one line with no other agent near: their "
                  "avoidance then points along that line too, so neither steps aside and they "
                  "stall face to face (only rounding may break the tie)",
              {agentElement(i), agentElement(j)}, (pi + pj) * 0.5, "Perturb");
    }
}

// ---- Fixes --------------------------------------------------------------------------------------

bool fixAgentNonFinite(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    if (!i || *i >= scene.agents.size()) return fail(error, "the agent is gone");
    const SceneAgent& a = scene.agents[*i];
    const bool bad = !finite(a.position) || (a.velocity && !finite(*a.velocity)) ||
                     (a.goal && !finite(*a.goal)) || (a.prefVelocity && !finite(*a.prefVelocity));
    if (!bad) return fail(error, "the agent's values are finite now");
    scene.agents.erase(scene.agents.begin() + static_cast<std::ptrdiff_t>(*i));
    return true;
}

bool fixStaticAgentMoving(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    if (!i || *i >= scene.agents.size()) return fail(error, "the agent is gone");
    SceneAgent& a = scene.agents[*i];
    if (!a.isStatic || !movesWhileStatic(a))
        return fail(error, "the agent is no longer a moving static agent");
    a.goal.reset();
    a.prefVelocity.reset();
    a.velocity.reset();
    return true;
}

bool fixGoalAndPrefVelocity(Scene& scene, const LintIssue& issue, std::string* error) {
    const auto i = elementIndex(issue, Kind::Agent);
    if (!i || *i >= scene.agents.size()) return fail(error, "the agent is gone");
    SceneAgent& a = scene.agents[*i];
    if (!a.goal || !a.prefVelocity) return fail(error, "the agent no longer has both");
    a.prefVelocity.reset();
    return true;
}

bool fixDuplicateAgents(Scene& scene, const LintIssue& issue, std::string* error) {
    const std::size_t count = scene.agents.size();
    const auto first = elementIndex(issue, Kind::Agent, 0);
    const auto copy = elementIndex(issue, Kind::Agent, 1);
    if (!first || !copy || *first >= count || *copy >= count || *first == *copy)
        return fail(error, "the agents are gone");
    if (!duplicates(scene.agents[*first], scene.agents[*copy]))
        return fail(error, "the agents are no longer copies");
    scene.agents.erase(scene.agents.begin() + static_cast<std::ptrdiff_t>(*copy));
    return true;
}

bool fixAgentsOverlap(Scene& scene, const LintIssue& issue, std::string* error) {
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
    Vec2 pa = a.position;
    Vec2 pb = b.position;
    if (a.isStatic) {
        pb += dir * push;
    } else if (b.isStatic) {
        pa -= dir * push;
    } else {
        pa -= dir * (push * 0.5);
        pb += dir * (push * 0.5);
    }
    if (!withinSceneLimits(pa) || !withinSceneLimits(pb)) return fail(error, kBeyondFileRange);
    a.position = pa;
    b.position = pb;
    return true;
}

bool fixMaxNeighborsLow(Scene& scene, const LintIssue& issue, std::string* error) {
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

bool fixHeadOnSymmetric(Scene& scene, const LintIssue& issue, std::string* error) {
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
    if (!withinSceneLimits(moved.position + offset) ||
        (moved.goal && !withinSceneLimits(*moved.goal + offset)))
        return fail(error, kBeyondFileRange);
    moved.position += offset;
    if (moved.goal) *moved.goal += offset;
    return true;
}

} // namespace orca::scene::lint
