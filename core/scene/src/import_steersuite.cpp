// SteerSuite test cases (SteerBenchTestCase XML) -> scene (docs/import.md, "SteerSuite").
// SteerSuite's ground plane is (x, z) with y up; our plane is (x, y) = (x, -z), the view
// from above (+y) with x to the right, so turns keep their sense and thetaY (a rotation
// about +y) is a counter-clockwise rotation in our plane.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <numbers>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "import_support.hpp"
#include "orca/geometry.hpp"
#include "orca/scene/import.hpp"

namespace orca::scene {

namespace {

using namespace detail;

// SteerSuite's RVO2 steering module defaults (its RVO2D_Parameters), which a test case
// cannot set except through a goal's <Behaviour>: radius 0.5 (the test cases' usual value),
// speed 1.33, neighbour distance 10, 10 neighbours, both time horizons 2; Δt 0.05 (its
// default 20 frames per second).
constexpr double kRadius = 0.5;
constexpr double kSpeed = 1.33;
constexpr double kTimeStep = 0.05;
constexpr int kCircleSides = 16;

struct Bounds {
    double xmin = 0, xmax = 0, zmin = 0, zmax = 0;
};

struct Tuple {
    bool random = false;
    double x = 0, z = 0;
};

// A goal as imported: a point (seek), a constant direction (flow) or nothing usable.
struct Goal {
    enum Kind { Point, Direction, Idle } kind = Point;
    std::optional<Vec2> point; // nullopt with Point = random target
    Vec2 direction{0.0, 0.0};
    std::optional<double> speed;
    std::string what;
};

struct AgentSpec {
    std::string name;
    double radius = kRadius;
    std::optional<Tuple> position;
    std::optional<Tuple> direction;
    double speed = 0.0;
    std::vector<Goal> goals;
    AgentOverrides behaviour; // from a goal's <Behaviour> rvo_* parameters
};

Vec2 toPlane(double x, double z) {
    return Vec2{x, 0.0 - z};
}

class SteerSuiteImporter {
  public:
    SteerSuiteImporter(XmlInput& in, ImportResult& result, std::uint32_t seed)
        : m_in(in), m_r(result), m_rng(seed) {}

    void run() {
        const pugi::xml_node root = m_in.doc.document_element();
        Scene& scene = m_r.scene;
        scene.simulation.params.timeStep = kTimeStep;
        AgentParams& d = scene.agentDefaults;
        d.radius = kRadius;
        d.maxSpeed = kSpeed;
        d.prefSpeed = kSpeed;
        d.neighborDist = 10.0;
        d.maxNeighbors = 10;
        d.timeHorizon = 2.0;
        d.timeHorizonObst = 2.0;
        m_r.notes.push_back("SteerSuite test cases carry no ORCA parameters: defaults of "
                            "SteerSuite's RVO2 module used (radius 0.5, maxSpeed and prefSpeed "
                            "1.33, neighborDist 10, maxNeighbors 10, timeHorizon 2, "
                            "timeHorizonObst 2, timeStep 0.05); a goal's desiredSpeed sets "
                            "the agent's prefSpeed");
        m_r.notes.push_back("coordinates: our (x, y) = SteerSuite's (x, -z), the view from "
                            "above; y (height) is ignored");

        // Pass 1: the header and the obstacles (random ones first drawn here), so that random
        // agent positions and targets can avoid them; pass 2: the agents, in file order.
        for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
            if (n.type() != pugi::node_element) continue;
            const std::string_view name = localName(n);
            if (name == "header")
                readHeader(n);
            else if (name == "obstacle")
                readBox(n);
            else if (name == "orientedBoxObstacle" || name == "orientedWallObstacle")
                readOrientedBox(n, name == "orientedWallObstacle");
            else if (name == "circleObstacle")
                readCircle(n);
            else if (name == "polygonObstacle")
                readPolygon(n);
            else if (name == "obstacleRegion")
                readObstacleRegion(n);
        }
        if (scene.name.empty()) scene.name = std::filesystem::path(m_in.file).stem().string();
        for (pugi::xml_node n = root.first_child(); n; n = n.next_sibling()) {
            if (n.type() != pugi::node_element) continue;
            const std::string_view name = localName(n);
            if (name == "agent")
                readAgent(n);
            else if (name == "agentRegion")
                readAgentRegion(n);
            else if (name == "agentEmitter")
                m_r.dropped.push_back({what(n) + nameOf(n),
                                       "an emitter creates agents while the simulation runs; "
                                       "a scene's agents all exist from the start"});
            else if (name == "suggestedCameraView")
                noteOnce("suggested camera views ignored");
            else if (name != "header" && name != "obstacle" && name != "orientedBoxObstacle" &&
                     name != "orientedWallObstacle" && name != "circleObstacle" &&
                     name != "polygonObstacle" && name != "obstacleRegion")
                unknown(n);
        }
        m_agentDrops.flushInto(m_r);
        finishObstacles(m_r, std::move(m_obstacles));
    }

  private:
    XmlInput& m_in;
    ImportResult& m_r;
    ImportRng m_rng;
    std::optional<Bounds> m_world;
    std::vector<RawObstacle> m_obstacles;
    std::set<std::string> m_noted;
    DropGatherer m_agentDrops; // drops of one element repeated for a region's agents

    std::string what(const pugi::xml_node& n) const { return elementPath(n); }
    std::string nameOf(const pugi::xml_node& n) const {
        return quotedName(textOf(child(n, "name")));
    }
    void noteOnce(const std::string& note) {
        if (m_noted.insert(note).second) m_r.notes.push_back(note);
    }
    void unknown(const pugi::xml_node& n) {
        m_r.notes.push_back("unknown element <" + std::string(localName(n)) + "> at " +
                            positionText(m_in, n) + " (" + elementPath(n) + ") ignored");
    }

    Bounds readBounds(const pugi::xml_node& n) {
        Bounds b;
        bool have[4] = {false, false, false, false};
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "xmin")
                b.xmin = elementNumber(m_in, c), have[0] = true;
            else if (name == "xmax")
                b.xmax = elementNumber(m_in, c), have[1] = true;
            else if (name == "zmin")
                b.zmin = elementNumber(m_in, c), have[2] = true;
            else if (name == "zmax")
                b.zmax = elementNumber(m_in, c), have[3] = true;
            else if (name == "ymin" || name == "ymax")
                (void)elementNumber(m_in, c);
            else
                unknown(c);
        }
        static const char* const kNames[4] = {"xmin", "xmax", "zmin", "zmax"};
        for (int i = 0; i < 4; ++i)
            if (!have[i]) failAt(m_in, n, std::string("missing <") + kNames[i] + ">");
        return b;
    }

    // <x>, <y>, <z> or <random>true</random>.
    Tuple readTuple(const pugi::xml_node& n) {
        Tuple t;
        bool hx = false, hz = false, random = false;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "x")
                t.x = elementNumber(m_in, c), hx = true;
            else if (name == "z")
                t.z = elementNumber(m_in, c), hz = true;
            else if (name == "y")
                (void)elementNumber(m_in, c);
            else if (name == "random")
                random = elementBool(m_in, c);
            else
                unknown(c);
        }
        if (random) {
            t.random = true;
            return t;
        }
        if (!hx || !hz) failAt(m_in, n, "expected <x> and <z> (and <y>), or <random>true</random>");
        return t;
    }

    void readHeader(const pugi::xml_node& h) {
        for (pugi::xml_node c = h.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "name")
                m_r.scene.name = collapseSpace(textOf(c));
            else if (name == "description")
                m_r.scene.description = collapseSpace(textOf(c)).substr(0, 500);
            else if (name == "worldBounds")
                m_world = readBounds(c);
            else if (name == "version" || name == "passingCriteria")
                continue;
            else
                unknown(c);
        }
    }

    // ---- obstacles ---------------------------------------------------------------------

    void addBox(const pugi::xml_node& n, double xmin, double xmax, double zmin, double zmax) {
        if (!(xmin < xmax) || !(zmin < zmax)) {
            m_r.dropped.push_back({what(n), "empty box (xmin >= xmax or zmin >= zmax)"});
            return;
        }
        // Counter-clockwise in (x, -z).
        m_obstacles.push_back(
            {what(n),
             {toPlane(xmin, zmax), toPlane(xmax, zmax), toPlane(xmax, zmin), toPlane(xmin, zmin)},
             true});
    }

    void readBox(const pugi::xml_node& n) {
        const Bounds b = readBounds(n);
        addBox(n, b.xmin, b.xmax, b.zmin, b.zmax);
    }

    void readOrientedBox(const pugi::xml_node& n, bool wall) {
        double theta = 0.0;
        std::optional<Tuple> size, position;
        std::optional<Doorway> door;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "thetaY")
                theta = elementNumber(m_in, c);
            else if (name == "size")
                size = readTuple(c);
            else if (name == "position")
                position = readTuple(c);
            else if (wall && name == "doorway")
                door = readDoorway(c);
            else
                unknown(c);
        }
        if (!size || !position) failAt(m_in, n, "expected <size> and <position>");
        if (door && door->random) {
            m_r.dropped.push_back({what(n), "a doorway at a random place is not supported"});
            return;
        }
        if (size->random || position->random) {
            m_r.dropped.push_back({what(n), "random obstacle size or position is not supported "
                                            "(use <obstacleRegion>)"});
            return;
        }
        if (!(size->x > 0.0) || !(size->z > 0.0)) {
            m_r.dropped.push_back({what(n), "empty box (size x or z not > 0)"});
            return;
        }
        const Vec2 c = toPlane(position->x, position->z);
        const double hx = size->x / 2.0;
        const double hy = size->z / 2.0;
        // The pieces along the wall's own x axis: the whole wall, or the two sides of its door
        // (the gap [value - doorRadius, value + doorRadius] from the wall's centre).
        std::vector<std::pair<double, double>> pieces{{-hx, hx}};
        if (door) {
            pieces = {{-hx, std::min(hx, door->at - door->halfWidth)},
                      {std::max(-hx, door->at + door->halfWidth), hx}};
            noteOnce("walls with a doorway: two boxes either side of the gap value ± doorRadius "
                     "along the wall (SteerSuite's own wall code leaves its far piece 1 unit "
                     "short of the wall's end; the scene keeps the wall's full length)");
        }
        for (const auto& [x0, x1] : pieces) {
            if (!(x0 < x1)) continue; // the door reaches the wall's end: no piece on that side
            std::vector<Vec2> v = {{x0, -hy}, {x1, -hy}, {x1, hy}, {x0, hy}};
            for (Vec2& p : v)
                p = c + rotateDegrees(p, theta);
            m_obstacles.push_back({what(n), std::move(v), true});
        }
    }

    /// <doorway>: <value> (the door's centre along the wall, from its centre), <doorRadius>
    /// (half the door's width), <random>.
    struct Doorway {
        double at = 0.0;
        double halfWidth = 0.0;
        bool random = false;
    };

    Doorway readDoorway(const pugi::xml_node& n) {
        Doorway d;
        bool haveValue = false;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "value")
                d.at = elementNumber(m_in, c), haveValue = true;
            else if (name == "doorRadius")
                d.halfWidth = elementNumber(m_in, c, Bound::NonNegative);
            else if (name == "random")
                d.random = elementBool(m_in, c);
            else
                unknown(c);
        }
        if (!haveValue && !d.random)
            failAt(m_in, n,
                   "expected <value> (the door's place along the wall) or "
                   "<random>true</random>");
        return d;
    }

    void readCircle(const pugi::xml_node& n) {
        double radius = 0.0;
        std::optional<Tuple> position;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "radius")
                radius = elementNumber(m_in, c, Bound::Positive);
            else if (name == "position")
                position = readTuple(c);
            else if (name == "height")
                (void)elementNumber(m_in, c);
            else
                unknown(c);
        }
        if (!position || radius <= 0.0) failAt(m_in, n, "expected <radius> and <position>");
        if (position->random) {
            m_r.dropped.push_back({what(n), "random obstacle position is not supported"});
            return;
        }
        // Circumscribed regular polygon: the circle lies inside it.
        const double r = radius / std::cos(std::numbers::pi / kCircleSides);
        const Vec2 c = toPlane(position->x, position->z);
        std::vector<Vec2> v;
        for (int k = 0; k < kCircleSides; ++k) {
            const double a = 2.0 * std::numbers::pi * k / kCircleSides;
            v.push_back(c + r * Vec2{std::cos(a), std::sin(a)});
        }
        noteOnce("circle obstacles approximated by circumscribed regular 16-gons");
        m_obstacles.push_back({what(n), std::move(v), true});
    }

    void readPolygon(const pugi::xml_node& n) {
        RawObstacle o{what(n), {}, true};
        if (const pugi::xml_attribute closed = n.attribute("isClosed")) {
            const std::string_view v = closed.value();
            if (v == "false" || v == "0")
                o.closed = false;
            else if (v != "true" && v != "1")
                failAt(m_in, n, "expected true or false", "isClosed");
        }
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            if (localName(c) != "vertex") {
                unknown(c);
                continue;
            }
            const Tuple t = readTuple(c);
            if (t.random) failAt(m_in, c, "a polygon vertex cannot be random");
            o.vertices.push_back(toPlane(t.x, t.z));
        }
        m_obstacles.push_back(std::move(o));
    }

    void readObstacleRegion(const pugi::xml_node& n) {
        std::size_t count = 0;
        double size = 0.0;
        std::optional<Bounds> region;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "numObstacles")
                count = elementCount(m_in, c);
            else if (name == "obstacleSize")
                size = elementNumber(m_in, c, Bound::Positive);
            else if (name == "obstacleHeight")
                (void)elementNumber(m_in, c);
            else if (name == "regionBounds")
                region = readBounds(c);
            else
                unknown(c);
        }
        if (!region || size <= 0.0)
            failAt(m_in, n, "expected <numObstacles>, <obstacleSize> and <regionBounds>");
        for (std::size_t k = 0; k < count; ++k) {
            const double cx = centred(region->xmin, region->xmax, size / 2.0);
            const double cz = centred(region->zmin, region->zmax, size / 2.0);
            addBox(n, cx - size / 2.0, cx + size / 2.0, cz - size / 2.0, cz + size / 2.0);
        }
        if (count > 0)
            m_r.notes.push_back(what(n) + ": " + std::to_string(count) + " squares of side " +
                                formatNumber(size) + " placed at random in the region (seeded)");
    }

    // A uniform coordinate in [lo + margin, hi - margin] (the middle when that is empty).
    double centred(double lo, double hi, double margin) {
        if (hi - lo <= 2.0 * margin) return (lo + hi) / 2.0;
        return m_rng.uniform(lo + margin, hi - margin);
    }

    static std::string formatNumber(double v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    }

    // ---- agents ------------------------------------------------------------------------

    PlacementIndex m_index;
    std::int64_t m_checkBudget = 200'000'000; // bounds the overlap checks (huge regions)
    bool m_budgetNoted = false;

    bool isFree(Vec2 p, double radius) {
        return m_index.isFree(p, radius, m_obstacles, m_r.scene, m_checkBudget);
    }

    // A random point of `b` (inset by the radius) clear of obstacles and placed agents: up to
    // 50 draws, else the last one (and `overlapped` is set).
    Vec2 randomPoint(const Bounds& b, double radius, bool& overlapped) {
        Vec2 p{0.0, 0.0};
        for (int attempt = 0; attempt < 50; ++attempt) {
            p = toPlane(centred(b.xmin, b.xmax, radius), centred(b.zmin, b.zmax, radius));
            if (m_checkBudget <= 0) {
                if (!m_budgetNoted)
                    m_r.notes.push_back("so many agents and obstacles that later random "
                                        "positions were placed without overlap checks");
                m_budgetNoted = true;
                return p;
            }
            if (isFree(p, radius)) return p;
        }
        overlapped = true;
        return p;
    }

    void readBehaviour(const pugi::xml_node& n, AgentSpec& spec) {
        std::string algorithm = collapseSpace(textOf(child(n, "SteeringAlgorithm")));
        const bool rvo = algorithm.find("rvo") != std::string::npos;
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "SteeringAlgorithm") continue;
            if (name != "Parameters") {
                unknown(c);
                continue;
            }
            for (pugi::xml_node p = c.first_child(); p; p = p.next_sibling()) {
                if (p.type() != pugi::node_element) continue;
                if (localName(p) != "parameter") {
                    unknown(p);
                    continue;
                }
                const std::string key = collapseSpace(textOf(child(p, "key")));
                const pugi::xml_node valueNode = child(p, "value");
                if (!valueNode) failAt(m_in, p, "expected <key> and <value>");
                AgentOverrides& o = spec.behaviour;
                if (key == "rvo_max_speed")
                    o.maxSpeed = elementNumber(m_in, valueNode, Bound::NonNegative);
                else if (key == "rvo_preferred_speed")
                    o.prefSpeed = elementNumber(m_in, valueNode, Bound::NonNegative);
                else if (key == "rvo_neighbor_distance")
                    o.neighborDist = elementNumber(m_in, valueNode, Bound::NonNegative);
                else if (key == "rvo_time_horizon")
                    o.timeHorizon = elementNumber(m_in, valueNode, Bound::Positive);
                else if (key == "rvo_time_horizon_obstacles")
                    o.timeHorizonObst = elementNumber(m_in, valueNode, Bound::Positive);
                else if (key == "rvo_max_neighbors") {
                    const double v = elementNumber(m_in, valueNode, Bound::NonNegative);
                    if (v != std::floor(v) || v > 2147483647.0)
                        failAt(m_in, valueNode, "expected a whole number of neighbours");
                    o.maxNeighbors = static_cast<int>(v);
                } else {
                    m_r.dropped.push_back({elementPath(p) + " \"" + key + "\"",
                                           "a parameter of steering algorithm \"" + algorithm +
                                               "\", which has no ORCA counterpart"});
                }
            }
        }
        if (!rvo && !algorithm.empty())
            noteOnce("goals name steering algorithms other than SteerSuite's RVO2 (" + algorithm +
                     "): the agents are simulated with ORCA");
    }

    Goal readGoal(const pugi::xml_node& g, AgentSpec& spec, bool& dropped) {
        const std::string_view kind = localName(g);
        Goal goal;
        goal.what = elementPath(g);
        dropped = false;
        auto drop = [&](const std::string& why) {
            m_r.dropped.push_back({goal.what, why});
            dropped = true;
        };
        if (kind == "fleeStaticTarget") {
            drop("fleeing a point has no counterpart: a scene goal is a point to reach");
        } else if (kind == "seekDynamicTarget" || kind == "fleeDynamicTarget") {
            drop("the target moves (another agent); a scene goal is a fixed point");
        } else if (kind == "flowDynamicDirection") {
            drop("a direction that changes while running has no counterpart");
        } else if (kind == "groupTarget") {
            drop("group targets have no counterpart");
        } else if (kind != "seekStaticTarget" && kind != "seekAxisAlignedBoxRegion" &&
                   kind != "flowStaticDirection" && kind != "idle") {
            unknown(g);
            drop("unknown goal type <" + std::string(kind) + ">");
        }
        if (dropped) return goal;
        goal.kind = kind == "flowStaticDirection" ? Goal::Direction
                    : kind == "idle"              ? Goal::Idle
                                                  : Goal::Point;
        std::optional<Tuple> target, direction;
        std::optional<Bounds> region;
        bool random = false;
        for (pugi::xml_node c = g.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "targetLocation")
                target = readTuple(c);
            else if (name == "targetDirection")
                direction = readTuple(c);
            else if (name == "desiredSpeed")
                goal.speed = elementNumber(m_in, c, Bound::NonNegative);
            else if (name == "random")
                random = elementBool(m_in, c);
            else if (name == "goalRegionBounds")
                region = readBounds(c);
            else if (name == "Behaviour")
                readBehaviour(c, spec);
            else if (name == "timeDuration") {
                // Not read: it is ignored (and files hold values such as 3e33).
                noteOnce("goals' timeDuration ignored (agents keep heading for a target until "
                         "they reach it)");
            } else if (name == "targetName" || name == "flowType" || name == "state" ||
                       name == "type")
                continue;
            else
                unknown(c);
        }
        if (goal.kind == Goal::Direction) {
            if (!direction || direction->random) {
                drop("a flow without a fixed <targetDirection>");
                return goal;
            }
            const Vec2 d = toPlane(direction->x, direction->z);
            if (length(d) == 0.0) {
                drop("a flow direction of length 0");
                return goal;
            }
            goal.direction = normalize(d);
        } else if (goal.kind == Goal::Point) {
            if (random || (target && target->random)) {
                goal.point = std::nullopt; // drawn when the agent is placed
            } else if (target) {
                goal.point = toPlane(target->x, target->z);
                if (region)
                    noteOnce("goal regions (seekAxisAlignedBoxRegion) imported as their "
                             "targetLocation");
            } else if (region) {
                goal.point = toPlane((region->xmin + region->xmax) / 2.0,
                                     (region->zmin + region->zmax) / 2.0);
                noteOnce("goal regions without a targetLocation imported as the region's "
                         "centre");
            } else {
                failAt(m_in, g, "expected <targetLocation> or <random>true</random>");
            }
        }
        return goal;
    }

    AgentSpec readSpec(const pugi::xml_node& n) {
        AgentSpec spec;
        spec.name = collapseSpace(textOf(child(n, "name")));
        const pugi::xml_node ic = child(n, "initialConditions");
        if (!ic) failAt(m_in, n, "expected <initialConditions>");
        for (pugi::xml_node c = ic.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name == "radius")
                spec.radius = elementNumber(m_in, c, Bound::Positive);
            else if (name == "position")
                spec.position = readTuple(c);
            else if (name == "direction")
                spec.direction = readTuple(c);
            else if (name == "speed")
                spec.speed = elementNumber(m_in, c, Bound::NonNegative);
            else if (name == "color")
                continue;
            else
                unknown(c);
        }
        if (const pugi::xml_node seq = child(n, "goalSequence")) {
            for (pugi::xml_node g = seq.first_child(); g; g = g.next_sibling()) {
                if (g.type() != pugi::node_element) continue;
                bool dropped = false;
                Goal goal = readGoal(g, spec, dropped);
                if (!dropped) spec.goals.push_back(std::move(goal));
            }
        }
        for (pugi::xml_node c = n.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = localName(c);
            if (name != "name" && name != "initialConditions" && name != "goalSequence" &&
                name != "regionBounds" && name != "numAgents")
                unknown(c);
        }
        return spec;
    }

    // One agent from a spec; `region` bounds a random position (else the world bounds).
    void addAgent(const std::string& label, const AgentSpec& spec,
                  const std::optional<Bounds>& region, std::size_t& overlaps) {
        SceneAgent a;
        if (!spec.name.empty()) a.id = spec.name;
        if (spec.radius != kRadius) a.overrides.radius = spec.radius;
        bool overlapped = false;
        if (spec.position && !spec.position->random && !region) {
            a.position = toPlane(spec.position->x, spec.position->z);
        } else {
            const std::optional<Bounds>& b = region ? region : m_world;
            if (!b) {
                m_agentDrops.add(label, "a random position needs the header's <worldBounds>, "
                                        "which this file lacks: the agent is not imported");
                return;
            }
            a.position = randomPoint(*b, spec.radius, overlapped);
        }
        if (spec.speed > 0.0 && spec.direction) {
            Vec2 d;
            if (spec.direction->random) {
                const double angle = m_rng.uniform(0.0, 2.0 * std::numbers::pi);
                d = Vec2{std::cos(angle), std::sin(angle)};
            } else {
                d = toPlane(spec.direction->x, spec.direction->z);
            }
            if (length(d) > 0.0) a.velocity = normalize(d) * spec.speed;
        }
        // Goals: points become waypoints and the last one the goal; a flow is a constant
        // preferred velocity when it is the agent's only goal.
        std::vector<Vec2> points;
        std::optional<double> speed;
        std::optional<Vec2> flow;
        std::optional<std::size_t> lastPoint;
        for (std::size_t i = 0; i < spec.goals.size(); ++i)
            if (spec.goals[i].kind == Goal::Point) lastPoint = i;
        for (std::size_t i = 0; i < spec.goals.size(); ++i) {
            const Goal& g = spec.goals[i];
            if (g.kind == Goal::Idle) {
                // Idle after the last target is what our agents do at their goal anyway.
                if (lastPoint && i < *lastPoint)
                    m_agentDrops.add(g.what, "waiting has no counterpart: the agent heads for "
                                             "its next target at once");
                continue;
            }
            if (g.kind == Goal::Direction) {
                if (spec.goals.size() == 1) {
                    flow = g.direction;
                    if (g.speed) speed = g.speed;
                } else {
                    m_agentDrops.add(g.what, "a flow direction is imported only as an agent's "
                                             "only goal (a constant preferred velocity)");
                }
                continue;
            }
            if (g.point) {
                points.push_back(*g.point);
            } else {
                if (!m_world) {
                    m_agentDrops.add(g.what, "a random target needs the header's "
                                             "<worldBounds>");
                    continue;
                }
                bool ignored = false;
                points.push_back(randomPoint(*m_world, spec.radius, ignored));
            }
            if (!speed && g.speed)
                speed = g.speed;
            else if (speed && g.speed && *g.speed != *speed)
                noteOnce("goals of one agent with different desiredSpeeds: the first one is "
                         "the agent's prefSpeed");
        }
        if (points.size() > kMaxWaypoints + 1) {
            m_agentDrops.add(label, "more than 1000 targets in its goal sequence: the "
                                    "targets after the 1001st are dropped");
            points.resize(kMaxWaypoints + 1);
        }
        if (!points.empty()) {
            a.goal = points.back();
            points.pop_back();
            a.waypoints = std::move(points);
        }
        AgentOverrides& o = a.overrides;
        if (speed && *speed != kSpeed) o.prefSpeed = *speed;
        if (spec.behaviour.maxSpeed) o.maxSpeed = spec.behaviour.maxSpeed;
        if (spec.behaviour.prefSpeed) o.prefSpeed = spec.behaviour.prefSpeed;
        if (spec.behaviour.neighborDist) o.neighborDist = spec.behaviour.neighborDist;
        if (spec.behaviour.maxNeighbors) o.maxNeighbors = spec.behaviour.maxNeighbors;
        if (spec.behaviour.timeHorizon) o.timeHorizon = spec.behaviour.timeHorizon;
        if (spec.behaviour.timeHorizonObst) o.timeHorizonObst = spec.behaviour.timeHorizonObst;
        // ORCA never exceeds maxSpeed: an agent that prefers to walk faster than SteerSuite's
        // default maximum gets that speed as its maximum.
        const double pref = o.prefSpeed.value_or(kSpeed);
        const double maxSpeed = o.maxSpeed.value_or(kSpeed);
        if (pref > maxSpeed) o.maxSpeed = pref;
        if (flow) a.prefVelocity = *flow * pref;
        if (overlapped) ++overlaps;
        m_r.scene.agents.push_back(std::move(a));
    }

    void readAgent(const pugi::xml_node& n) {
        const AgentSpec spec = readSpec(n);
        if (!spec.position) failAt(m_in, child(n, "initialConditions"), "expected <position>");
        std::size_t overlaps = 0;
        addAgent(what(n) + quotedName(spec.name), spec, std::nullopt, overlaps);
        if (overlaps > 0)
            m_r.notes.push_back(what(n) + ": no free random position found in 50 draws; "
                                          "placed where it overlaps");
    }

    void readAgentRegion(const pugi::xml_node& n) {
        const pugi::xml_node countNode = child(n, "numAgents");
        const pugi::xml_node boundsNode = child(n, "regionBounds");
        if (!countNode || !boundsNode) failAt(m_in, n, "expected <numAgents> and <regionBounds>");
        const std::size_t count = elementCount(m_in, countNode);
        const Bounds bounds = readBounds(boundsNode);
        if (m_r.scene.agents.size() + count > kMaxImportedItems)
            failAt(m_in, countNode,
                   "more agents than an import creates (at most " +
                       std::to_string(kMaxImportedItems) + ")");
        AgentSpec spec = readSpec(n);
        if (spec.position && !spec.position->random)
            noteOnce("a region's <position> is ignored: its agents are placed at random in "
                     "the region");
        std::size_t overlaps = 0;
        for (std::size_t k = 0; k < count; ++k)
            addAgent(what(n), spec, bounds, overlaps);
        m_r.notes.push_back(what(n) + ": " + std::to_string(count) +
                            " agents placed at random in the region (seeded)" +
                            (overlaps > 0 ? "; " + std::to_string(overlaps) +
                                                " found no free spot in 50 draws and overlap"
                                          : std::string()));
    }
};

} // namespace

ImportResult importSteerSuite(const ImportText& input, const ImportOptions& options) {
    XmlInput in{input.fileName, input.text, {}};
    parseXml(in);
    const pugi::xml_node root = in.doc.document_element();
    if (localName(root) != "SteerBenchTestCase")
        failAt(in, root, "expected the root element <SteerBenchTestCase> (a SteerSuite test case)");
    ImportResult result;
    result.format = ImportFormat::SteerSuite;
    result.files = {input.fileName};
    result.seed = options.seed;
    SteerSuiteImporter(in, result, options.seed).run();
    finishScene(result);
    result.scene.description =
        "Imported from SteerSuite test case " +
        std::filesystem::path(input.fileName).filename().string() +
        (result.scene.description.empty() ? std::string() : ": " + result.scene.description);
    return result;
}

} // namespace orca::scene
