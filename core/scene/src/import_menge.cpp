// Menge scenes (Experiment) with their behaviour (BFSM) -> scene (docs/import.md, "Menge").
// Menge is 2-D: our (x, y) is Menge's (x, y).
#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <vector>

#include "import_menge_support.hpp"
#include "orca/geometry.hpp"
#include "orca/scene/import.hpp"

namespace orca::scene {

namespace {

using namespace detail;

// Menge's defaults (its agent initializer and ORCA model): radius 0.2, max_speed 2.5,
// pref_speed 1.34, neighbor_dist 5, max_neighbors 10, tau 2.5, tauObst 0.15; time_step 0.1.
AgentParams mengeDefaults() {
    AgentParams p;
    p.radius = 0.2;
    p.maxSpeed = 2.5;
    p.prefSpeed = 1.34;
    p.neighborDist = 5.0;
    p.maxNeighbors = 10;
    p.timeHorizon = 2.5;
    p.timeHorizonObst = 0.15;
    return p;
}

// A Menge value distribution: dist="c" value, "u" min max, "n" mean stddev.
struct Distribution {
    char kind = 'c';
    double a = 0.0, b = 0.0;
    double draw(ImportRng& rng) const {
        if (kind == 'u') return rng.uniform(a, b);
        if (kind == 'n') return rng.normal(a, b);
        return a;
    }
};

// One parameter of a profile: a constant or a distribution drawn per agent.
struct Profile {
    std::string name;
    std::string inherits;
    std::map<std::string, Distribution> values; // r, max_speed, pref_speed, ..., tau, tauObst
    bool resolved = false;
};

class MengeImporter {
  public:
    MengeImporter(XmlInput& scene, const std::optional<MengeBehaviour>& behaviour,
                  ImportResult& result, std::uint32_t seed)
        : m_in(scene), m_behaviour(behaviour), m_r(result), m_rng(seed) {}

    void run() {
        const pugi::xml_node root = m_in.doc.document_element();
        m_r.scene.agentDefaults = mengeDefaults();
        m_r.scene.simulation.params.timeStep = 0.1;
        m_r.notes.push_back(
            "Menge defaults used where a profile sets nothing: radius 0.2, maxSpeed 2.5, "
            "prefSpeed 1.34, neighborDist 5, maxNeighbors 10, timeHorizon 2.5, "
            "timeHorizonObst 0.15, timeStep 0.1");
        static const std::set<std::string_view> kModels = {"OpenSteer", "GCF",        "Helbing",
                                                           "Johansson", "Karamouzas", "Zanlungo",
                                                           "Dummy",     "PedVO",      "ORCA"};
        for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
            if (n.type() != pugi::node_element) continue;
            const std::string_view name = localName(n);
            if (name == "AgentProfile")
                readProfile(n);
            else if (name == "Common") {
                if (n.attribute("time_step")) {
                    const double dt =
                        attributeNumber(m_in, n, "time_step", std::nullopt, Bound::Positive);
                    if (dt < 1e-6) failAt(m_in, n, "expected a time step >= 1e-6 s", "time_step");
                    m_r.scene.simulation.params.timeStep = dt;
                }
            } else if (name == "SpatialQuery") {
                if (std::string_view(n.attribute("type").value()) == "nav_mesh")
                    m_r.notes.push_back("the navigation-mesh spatial query is replaced by our "
                                        "own neighbour search");
            } else if (name == "Elevation") {
                m_r.dropped.push_back({elementPath(n), "elevation (terrain height) has no "
                                                       "counterpart: the scene is flat"});
            } else if (name != "AgentGroup" && name != "ObstacleSet" && !kModels.count(name)) {
                unknown(n);
            }
        }
        for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
            if (n.type() != pugi::node_element) continue;
            if (localName(n) == "AgentGroup") readGroup(n);
        }
        std::vector<RawObstacle> obstacles;
        for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
            if (n.type() != pugi::node_element || localName(n) != "ObstacleSet") continue;
            readObstacleSet(n, obstacles);
        }
        finishObstacles(m_r, std::move(obstacles));
        flushDrops();
    }

  private:
    XmlInput& m_in;
    const std::optional<MengeBehaviour>& m_behaviour;
    ImportResult& m_r;
    ImportRng m_rng;
    std::map<std::string, Profile> m_profiles;
    DropGatherer m_agentDrops; // per-agent drops, gathered
    std::set<std::string> m_noted;

    void unknown(const pugi::xml_node& n) {
        m_r.notes.push_back("unknown element <" + std::string(localName(n)) + "> at " +
                            positionText(m_in, n) + " (" + elementPath(n) + ") ignored");
    }
    void noteOnce(const std::string& s) {
        if (m_noted.insert(s).second) m_r.notes.push_back(s);
    }
    void agentDrop(const std::string& what, const std::string& why) { m_agentDrops.add(what, why); }
    void flushDrops() { m_agentDrops.flushInto(m_r); }

    // ---- distributions and profiles --------------------------------------------------------

    Distribution readDistribution(const pugi::xml_node& n, const std::string& prefix) {
        Distribution d;
        const std::string kind = n.attribute((prefix + "dist").c_str()).value();
        auto num = [&](const std::string& a) {
            return attributeNumber(m_in, n, a.c_str(), std::nullopt);
        };
        if (kind == "u") {
            d.kind = 'u';
            d.a = num(prefix + "min");
            d.b = num(prefix + "max");
        } else if (kind == "n") {
            d.kind = 'n';
            d.a = num(prefix + "mean");
            d.b = attributeNumber(m_in, n, (prefix + "stddev").c_str(), std::nullopt,
                                  Bound::NonNegative);
        } else if (kind == "c" || kind.empty()) {
            d.a = num(prefix + "value");
        } else {
            failAt(m_in, n, "distribution \"" + kind + "\" not supported (c, u and n are)",
                   (prefix + "dist").c_str());
        }
        return d;
    }

    void readProfile(const pugi::xml_node& n) {
        Profile p;
        p.name = n.attribute("name").value();
        if (p.name.empty()) failAt(m_in, n, "a profile needs a name", "name");
        p.inherits = n.attribute("inherits").value();
        static const char* const kCommon[] = {"r", "max_speed", "pref_speed", "neighbor_dist",
                                              "max_neighbors"};
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view cn = localName(c);
            if (cn == "Common") {
                for (const char* key : kCommon)
                    if (c.attribute(key))
                        p.values[key] =
                            Distribution{'c', attributeNumber(m_in, c, key, std::nullopt), 0.0};
                for (pugi::xml_node prop = c.first_child(); prop; prop = prop.next_sibling()) {
                    if (prop.type() != pugi::node_element) continue;
                    if (localName(prop) != "Property") {
                        unknown(prop);
                        continue;
                    }
                    const std::string key = prop.attribute("name").value();
                    if (std::find(std::begin(kCommon), std::end(kCommon), key) == std::end(kCommon))
                        continue;
                    p.values[key] = readDistribution(prop, "");
                    noteOnce("profile properties with distributions are drawn per agent "
                             "(seeded)");
                }
            } else if (cn == "ORCA") {
                for (const char* key : {"tau", "tauObst"})
                    if (c.attribute(key))
                        p.values[key] =
                            Distribution{'c', attributeNumber(m_in, c, key, std::nullopt), 0.0};
            }
        }
        m_profiles[p.name] = std::move(p);
    }

    // The profile's values with those it inherits (nearest first).
    std::map<std::string, Distribution> profileValues(const std::string& name,
                                                      const pugi::xml_node& at) {
        std::map<std::string, Distribution> values;
        std::string current = name;
        for (int depth = 0; !current.empty(); ++depth) {
            const auto it = m_profiles.find(current);
            if (it == m_profiles.end())
                failAt(m_in, at, "no AgentProfile named \"" + current + "\"");
            if (depth > 100) failAt(m_in, at, "profiles inherit from each other in a cycle");
            for (const auto& [k, v] : it->second.values)
                values.emplace(k, v);
            current = it->second.inherits;
        }
        return values;
    }

    // ---- agent groups ----------------------------------------------------------------------

    std::string chooseProfile(const pugi::xml_node& sel) {
        const std::string type = sel.attribute("type").value();
        if (type == "const" || type.empty()) return sel.attribute("name").value();
        std::vector<std::pair<std::string, double>> options;
        for (pugi::xml_node p = sel.first_child(); p; p = p.next_sibling())
            if (p.type() == pugi::node_element && localName(p) == "Profile")
                options.emplace_back(
                    p.attribute("name").value(),
                    type == "weighted" ? attributeNumber(m_in, p, "weight", 1.0, Bound::NonNegative)
                                       : 1.0);
        if (options.empty() || (type != "random" && type != "weighted"))
            failAt(m_in, sel,
                   "profile selector \"" + type +
                       "\" not supported (const, random "
                       "and weighted are)");
        double total = 0.0;
        for (const auto& o : options)
            total += o.second;
        double u = m_rng.unit() * total;
        for (const auto& o : options) {
            if (u < o.second) return o.first;
            u -= o.second;
        }
        return options.back().first;
    }

    std::vector<Vec2> generate(const pugi::xml_node& g, bool& ok) {
        ok = true;
        const std::string type = g.attribute("type").value();
        std::vector<Vec2> out;
        if (type == "explicit" || type == "nav_mesh_explicit") {
            for (pugi::xml_node a = g.first_child(); a; a = a.next_sibling())
                if (a.type() == pugi::node_element && localName(a) == "Agent")
                    out.push_back({attributeNumber(m_in, a, "p_x", std::nullopt),
                                   attributeNumber(m_in, a, "p_y", std::nullopt)});
            if (out.size() > kMaxImportedItems) failAt(m_in, g, "too many agents");
            if (type == "nav_mesh_explicit")
                noteOnce("agents of nav_mesh_explicit generators placed at their explicit "
                         "positions (the navigation mesh is not read)");
            return out;
        }
        if (type == "rect_grid") {
            const Vec2 anchor{attributeNumber(m_in, g, "anchor_x", std::nullopt),
                              attributeNumber(m_in, g, "anchor_y", std::nullopt)};
            const Vec2 offset{attributeNumber(m_in, g, "offset_x", std::nullopt),
                              attributeNumber(m_in, g, "offset_y", std::nullopt)};
            const std::size_t nx = attributeCount(m_in, g, "count_x", std::nullopt);
            const std::size_t ny = attributeCount(m_in, g, "count_y", std::nullopt);
            if (nx * ny > kMaxImportedItems) failAt(m_in, g, "count_x * count_y is too large");
            const double rotation = attributeNumber(m_in, g, "rotation", 0.0);
            for (std::size_t j = 0; j < ny; ++j)
                for (std::size_t i = 0; i < nx; ++i)
                    out.push_back(anchor + rotateDegrees(Vec2{static_cast<double>(i) * offset.x,
                                                              static_cast<double>(j) * offset.y},
                                                         rotation));
        } else if (type == "hex_lattice") {
            out = hexLattice(g);
        } else {
            agentDrop(elementPath(g) + " (type \"" + type + "\")",
                      "agent generator not supported: its agents (how many is not known "
                      "without it) are not imported");
            ok = false;
            return out;
        }
        // displace_*: a random offset of random direction and distributed length.
        if (g.attribute("displace_dist")) {
            const Distribution d = readDistribution(g, "displace_");
            for (Vec2& p : out) {
                const double len = d.draw(m_rng);
                const double angle = m_rng.uniform(0.0, 2.0 * std::numbers::pi);
                p += len * Vec2{std::cos(angle), std::sin(angle)};
            }
        }
        return out;
    }

    // A hexagonal lattice at the given density: neighbours d = sqrt(2 / (sqrt(3) density))
    // apart, rows h = d sqrt(3) / 2 apart, every other row shifted by d / 2; as many per row
    // as fit in `width`, rows until `population` is reached (the last row completed).
    std::vector<Vec2> hexLattice(const pugi::xml_node& g) {
        const Vec2 anchor{attributeNumber(m_in, g, "anchor_x", std::nullopt),
                          attributeNumber(m_in, g, "anchor_y", std::nullopt)};
        const double density = attributeNumber(m_in, g, "density", std::nullopt, Bound::Positive);
        const double width = attributeNumber(m_in, g, "width", std::nullopt, Bound::Positive);
        const std::size_t population = attributeCount(m_in, g, "population", std::nullopt);
        const double rotation = attributeNumber(m_in, g, "rotation", 0.0);
        const std::string align = g.attribute("alignment").value();
        const std::string rows = g.attribute("row_direction").value();
        const double d = std::sqrt(2.0 / (std::sqrt(3.0) * density));
        const double h = d * std::sqrt(3.0) / 2.0;
        const bool alongX = rows != "y";
        // Along the front edge (local x): spacing d (rows along x) or h (rows along y).
        const double across = alongX ? d : h;
        const std::size_t perLine =
            std::max<std::size_t>(1, static_cast<std::size_t>(std::floor(width / across)) + 1);
        const std::size_t lines = (population + perLine - 1) / perLine;
        if (lines * perLine > kMaxImportedItems) failAt(m_in, g, "population too large");
        const double span = static_cast<double>(perLine - 1) * across;
        const double x0 = align == "left" ? 0.0 : align == "right" ? -span : -span / 2.0;
        std::vector<Vec2> out;
        for (std::size_t k = 0; k < lines; ++k) {
            for (std::size_t i = 0; i < perLine; ++i) {
                Vec2 local;
                if (alongX) {
                    local = {x0 + static_cast<double>(i) * d + (k % 2 ? d / 2.0 : 0.0),
                             static_cast<double>(k) * h};
                } else {
                    local = {x0 + static_cast<double>(i) * h,
                             static_cast<double>(k) * d + (i % 2 ? d / 2.0 : 0.0)};
                }
                out.push_back(anchor + rotateDegrees(local, rotation));
            }
        }
        noteOnce("hex_lattice generators laid out by our own lattice at the same density, "
                 "width and population (positions may differ from Menge's)");
        return out;
    }

    void readGroup(const pugi::xml_node& group) {
        const pugi::xml_node profileSel = child(group, "ProfileSelector");
        const pugi::xml_node stateSel = child(group, "StateSelector");
        for (pugi::xml_node c = group.first_child(); c; c = c.next_sibling())
            if (c.type() == pugi::node_element && localName(c) != "ProfileSelector" &&
                localName(c) != "StateSelector" && localName(c) != "Generator")
                unknown(c);
        if (!profileSel) failAt(m_in, group, "expected <ProfileSelector>");
        std::string state;
        if (stateSel) {
            const std::string type = stateSel.attribute("type").value();
            if (type != "const" && !type.empty())
                failAt(m_in, stateSel, "state selector \"" + type + "\" not supported (const is)");
            state = stateSel.attribute("name").value();
        }
        for (pugi::xml_node g = group.first_child(); g; g = g.next_sibling()) {
            if (g.type() != pugi::node_element || localName(g) != "Generator") continue;
            bool ok = false;
            const std::vector<Vec2> positions = generate(g, ok);
            if (!ok) continue;
            if (m_r.scene.agents.size() + positions.size() > kMaxImportedItems)
                failAt(m_in, g,
                       "more agents than an import creates (at most " +
                           std::to_string(kMaxImportedItems) + ")");
            for (const Vec2& p : positions) {
                if (!withinSceneLimits(p)) {
                    agentDrop(elementPath(g), "agent position beyond ±1e7");
                    continue;
                }
                addAgent(p, chooseProfile(profileSel), profileSel, state,
                         stateSel ? stateSel : group);
            }
        }
    }

    void addAgent(Vec2 position, const std::string& profile, const pugi::xml_node& profileAt,
                  const std::string& state, const pugi::xml_node& stateAt) {
        SceneAgent a;
        a.position = position;
        const auto values = profileValues(profile, profileAt);
        const AgentParams& d = m_r.scene.agentDefaults;
        auto set = [&](const char* key, std::optional<double>& field, double def, Bound bound) {
            const auto it = values.find(key);
            if (it == values.end()) return;
            double v = it->second.draw(m_rng);
            if (bound == Bound::Positive && !(v > 0.0))
                failAt(m_in, profileAt,
                       std::string("profile \"") + profile + "\": " + key + " must be > 0 (drew " +
                           std::to_string(v) + ")");
            // A normal draw beyond the file's range: below 0 for a speed or distance, above 1e7.
            v = std::clamp(v, 0.0, kMaxMagnitude);
            if (v != def) field = v;
        };
        AgentOverrides& o = a.overrides;
        set("r", o.radius, d.radius, Bound::Positive);
        set("max_speed", o.maxSpeed, d.maxSpeed, Bound::NonNegative);
        set("pref_speed", o.prefSpeed, d.prefSpeed, Bound::NonNegative);
        set("neighbor_dist", o.neighborDist, d.neighborDist, Bound::NonNegative);
        set("tau", o.timeHorizon, d.timeHorizon, Bound::Positive);
        set("tauObst", o.timeHorizonObst, d.timeHorizonObst, Bound::Positive);
        if (const auto it = values.find("max_neighbors"); it != values.end()) {
            const double v = std::round(std::clamp(it->second.draw(m_rng), 0.0, kMaxMagnitude));
            if (v > 2147483647.0) failAt(m_in, profileAt, "max_neighbors too large");
            if (static_cast<int>(v) != d.maxNeighbors) o.maxNeighbors = static_cast<int>(v);
        }
        route(a, state, stateAt);
        m_r.scene.agents.push_back(std::move(a));
    }

    // ---- behaviour: the agent's route through its states ----------------------------------

    // The goal point the state picks for an agent at `from`; nullopt = none (stays).
    // `inradius` is the picked goal's (MengeGoal::inradius; 0 for a mirrored point).
    std::optional<Vec2> pickGoal(const MengeState& s, Vec2 from, bool& stop, double& inradius) {
        stop = false;
        inradius = 0.0;
        const std::string& sel = s.selector;
        if (sel == "identity" || sel.empty()) {
            stop = true;
            return std::nullopt;
        }
        if (sel == "mirror") {
            return Vec2{s.mirrorX ? 0.0 - from.x : from.x, s.mirrorY ? 0.0 - from.y : from.y};
        }
        const auto setIt =
            s.goalSet ? m_behaviour->goalSets.find(*s.goalSet) : m_behaviour->goalSets.end();
        if (setIt == m_behaviour->goalSets.end() || setIt->second.empty()) {
            if (sel == "explicit" || sel == "nearest" || sel == "farthest" || sel == "random" ||
                sel == "weighted") {
                agentDrop(s.what + " goal selector \"" + sel + "\"",
                          "its goal set is missing or empty (or holds only goals not "
                          "imported)");
                stop = true;
                return std::nullopt;
            }
        }
        if (sel == "explicit") {
            const auto it = s.goal ? setIt->second.find(*s.goal) : setIt->second.end();
            if (it == setIt->second.end()) {
                agentDrop(s.what + " goal selector \"explicit\"", "its goal is not in the goal set "
                                                                  "(or was not imported)");
                stop = true;
                return std::nullopt;
            }
            inradius = it->second.inradius;
            return it->second.point;
        }
        if (sel == "nearest" || sel == "farthest") {
            // Decided from where the agent enters the state, as Menge does.
            const MengeGoal* best = nullptr;
            double bestDist = 0.0;
            for (const auto& [id, g] : setIt->second) {
                const double dist = length(g.point - from);
                if (!best || (sel == "nearest" ? dist < bestDist : dist > bestDist)) {
                    best = &g;
                    bestDist = dist;
                }
            }
            inradius = best->inradius;
            return best->point;
        }
        if (sel == "random" || sel == "weighted") {
            double total = 0.0;
            for (const auto& [id, g] : setIt->second)
                total += sel == "weighted" ? g.weight : 1.0;
            double u = m_rng.unit() * total;
            for (const auto& [id, g] : setIt->second) {
                const double w = sel == "weighted" ? g.weight : 1.0;
                if (u < w) {
                    inradius = g.inradius;
                    return g.point;
                }
                u -= w;
            }
            inradius = setIt->second.rbegin()->second.inradius;
            return setIt->second.rbegin()->second.point;
        }
        agentDrop(s.what + " goal selector \"" + sel + "\"",
                  sel == "shared"
                      ? "a shared goal selector naming a state that does not exist (or shared "
                        "selectors naming each other in a cycle): the agent has no goal from "
                        "this state on"
                      : "goal selector not supported (explicit, identity, nearest, farthest, "
                        "random, weighted, mirror and shared are): the agent has no goal from "
                        "this state on");
        stop = true;
        return std::nullopt;
    }

    void route(SceneAgent& a, const std::string& start, const pugi::xml_node& at) {
        if (!m_behaviour) return; // noted once for the import
        std::vector<Vec2> points;
        std::vector<double> reached; // per waypoint: goal_reached distance + region inradius
        std::set<std::string> visited;
        std::string current = start;
        Vec2 where = a.position;
        bool first = true;
        while (true) {
            const auto it = m_behaviour->states.find(current);
            if (it == m_behaviour->states.end())
                failAt(m_in, at, "the behaviour has no state named \"" + current + "\"");
            const MengeState& s = it->second;
            visited.insert(current);
            const std::string& vel = s.velocity;
            if (vel == "zero") break;
            if (vel == "const_dir") {
                if (first && points.empty() && length(s.direction) > 0.0) {
                    const double pref =
                        a.overrides.prefSpeed.value_or(m_r.scene.agentDefaults.prefSpeed);
                    a.prefVelocity = normalize(s.direction) * pref;
                } else {
                    agentDrop(s.what + " velocity component \"const_dir\"",
                              "a constant direction is imported only in an agent's first "
                              "state (as a constant preferred velocity)");
                }
                break;
            }
            bool stop = false;
            double inradius = 0.0;
            const std::optional<Vec2> goal = pickGoal(s, where, stop, inradius);
            if (stop) break;
            if (vel == "road_map") {
                m_r.scene.simulation.params.routing = Routing::Roadmap;
                noteOnce("road_map velocity components: the scene uses our roadmap routing "
                         "(a visibility graph over the obstacles, not the file's graph)");
            } else if (vel != "goal") {
                agentDrop(s.what + " velocity component \"" + vel + "\"",
                          "not supported (goal, zero, const_dir and road_map are): the agent "
                          "walks straight to the state's goal");
            }
            if (goal) {
                points.push_back(*goal);
                where = *goal;
            }
            first = false;
            if (s.final) break;
            const auto tr = m_behaviour->transitions.find(current);
            if (tr == m_behaviour->transitions.end() || tr->second.empty()) break;
            const MengeTransition& t = tr->second.front();
            if (tr->second.size() > 1 || t.to.empty() ||
                (t.condition != "goal_reached" && t.condition != "auto")) {
                agentDrop(s.what + " transition" +
                              (t.to.empty() ? std::string() : " to \"" + t.to + "\"") +
                              " (condition \"" + t.condition + "\"" +
                              (tr->second.size() > 1 ? ", one of several" : "") + ")",
                          "only a single goal_reached or auto transition becomes the next leg "
                          "of a route; others need a state machine: the agent stops at its "
                          "last goal");
                break;
            }
            if (visited.count(t.to)) {
                agentDrop(s.what + " transition to \"" + t.to + "\"",
                          "the route returns to a state it has visited (a cycle): the agent "
                          "stops at its last goal");
                break;
            }
            if (points.size() > kMaxWaypoints) break;
            if (goal)
                reached.push_back(t.condition == "goal_reached" ? t.distance + inradius : 0.0);
            current = t.to;
        }
        if (!points.empty()) {
            a.goal = points.back();
            points.pop_back();
            reached.resize(points.size());
            a.waypoints = std::move(points);
            setWaypointRadius(a, reached);
        }
    }

    // Menge leaves a state when the agent is within goal_reached's distance of its goal
    // region: the scene's waypointRadius (one per agent) is the smallest such reach of its
    // waypoints, so that every waypoint is reached inside its region. A reach of 0 (a point
    // goal at Menge's default distance 0) keeps the default, twice the radius.
    void setWaypointRadius(SceneAgent& a, const std::vector<double>& reached) {
        if (reached.empty()) return;
        const auto [lo, hi] = std::minmax_element(reached.begin(), reached.end());
        if (!(*lo > 0.0)) {
            if (*hi > 0.0)
                noteOnce("goal_reached distances on a route with a point goal at distance 0: "
                         "the default waypointRadius (twice the radius) is kept");
            return;
        }
        a.overrides.waypointRadius = std::min(*lo, kMaxMagnitude);
        noteOnce("goal_reached distances (plus the goal region's inradius) become the agents' "
                 "waypointRadius");
        if (*hi > *lo)
            noteOnce("different goal_reached reaches on one route: waypointRadius is the "
                     "smallest");
    }

    // ---- obstacles -------------------------------------------------------------------------

    void readObstacleSet(const pugi::xml_node& set, std::vector<RawObstacle>& out) {
        const std::string type = set.attribute("type").value();
        if (type != "explicit") {
            m_r.dropped.push_back({elementPath(set) + " (type \"" + type + "\")",
                                   "obstacle set type not supported (explicit is): its "
                                   "obstacles are not imported"});
            return;
        }
        if (set.attribute("class"))
            noteOnce("obstacle classes ignored: every agent avoids every obstacle");
        for (pugi::xml_node o = set.first_child(); o; o = o.next_sibling()) {
            if (o.type() != pugi::node_element) continue;
            if (localName(o) != "Obstacle") {
                unknown(o);
                continue;
            }
            RawObstacle raw{elementPath(o), {}, attributeNumber(m_in, o, "closed", 1.0) != 0.0};
            for (pugi::xml_node v = o.first_child(); v; v = v.next_sibling()) {
                if (v.type() != pugi::node_element) continue;
                if (localName(v) != "Vertex") {
                    unknown(v);
                    continue;
                }
                raw.vertices.push_back({attributeNumber(m_in, v, "p_x", std::nullopt),
                                        attributeNumber(m_in, v, "p_y", std::nullopt)});
            }
            out.push_back(std::move(raw));
        }
    }
};

} // namespace

ImportResult importMenge(const ImportText& scene, const std::optional<ImportText>& behaviour,
                         const std::optional<ImportText>& project, const ImportOptions& options) {
    ImportResult result;
    result.format = ImportFormat::Menge;
    result.seed = options.seed;
    if (project) {
        result.files.push_back(project->fileName);
        XmlInput p{project->fileName, project->text, {}};
        parseXml(p);
        const pugi::xml_node root = p.doc.document_element();
        const std::string model = root.attribute("model").value();
        if (model.empty())
            result.notes.push_back("the project names no pedestrian model: imported as ORCA");
        else if (model != "orca")
            result.dropped.push_back({"pedestrian model \"" + model + "\"",
                                      "only ORCA is simulated: the agents use the profiles' "
                                      "ORCA parameters (tau, tauObst) or the defaults"});
        for (const pugi::xml_attribute a : root.attributes()) {
            const std::string_view n = a.name();
            if (n != "scene" && n != "behavior" && n != "behaviour" && n != "model" &&
                n != "view" && n != "dumpPath" && n != "duration" && n != "timeStep" &&
                n != "random" && n != "output" && n != "scbVersion" && n != "subSteps")
                result.notes.push_back("project attribute " + std::string(n) + " ignored");
        }
    }
    XmlInput in{scene.fileName, scene.text, {}};
    parseXml(in);
    const pugi::xml_node root = in.doc.document_element();
    if (localName(root) != "Experiment")
        failAt(in, root, "expected the root element <Experiment> (a Menge scene file)");
    result.files.push_back(scene.fileName);
    std::optional<MengeBehaviour> bfsm;
    if (behaviour) {
        result.files.push_back(behaviour->fileName);
        XmlInput b{behaviour->fileName, behaviour->text, {}};
        parseXml(b);
        bfsm = readMengeBehaviour(b, result);
    } else {
        result.notes.push_back("no behaviour file: the agents have no goals (they stand and "
                               "make way)");
    }
    MengeImporter(in, bfsm, result, options.seed).run();
    finishScene(result);
    const std::filesystem::path named =
        project ? std::filesystem::path(project->fileName) : std::filesystem::path(scene.fileName);
    result.scene.name = named.stem().string();
    result.scene.description = "Imported from Menge " +
                               std::string(project ? "project " : "scene ") +
                               named.filename().string();
    return result;
}

} // namespace orca::scene
