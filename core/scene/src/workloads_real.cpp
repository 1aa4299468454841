// The real-scene benchmark set (workloads.hpp): hallway, concentric rings, office, forest,
// bottleneck, gathering and a large space, with the classic collections' agent parameters.
#include <algorithm>
#include <cmath>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "orca/scene/workloads.hpp"

namespace orca::scene {

namespace {

/// The collections' parameters (radius 0.5, neighborDist 10, maxNeighbors 10, τ 2, Δt 0.05).
Scene realBase(const std::string& name, const std::string& description) {
    Scene s;
    s.name = name;
    s.description = description;
    s.simulation.params.timeStep = 0.05;
    AgentParams& p = s.agentDefaults;
    p.radius = 0.5;
    p.maxSpeed = 2.0;
    p.prefSpeed = 1.33;
    p.neighborDist = 10.0;
    p.maxNeighbors = 10;
    p.timeHorizon = 2.0;
    p.timeHorizonObst = 2.0;
    return s;
}

/// Rounded to float (a float implementation starts at the same point).
Vec2 f(double x, double y) {
    return {static_cast<float>(x), static_cast<float>(y)};
}

struct Random {
    std::mt19937 rng;
    explicit Random(std::uint32_t seed) : rng(seed) {}
    double unit() { return static_cast<double>(rng()) / 4294967296.0; }
    double in(double lo, double hi) { return lo + (hi - lo) * unit(); }
};

/// Whether p is at least `clearance` from every box of `s` (boxes are axis-aligned
/// rectangles: their first and third vertices are opposite corners) and at least `spacing` from
/// every agent of `s` (0: agents not checked). O(agents + boxes): the scenes are built once.
bool clearSpot(const Scene& s, Vec2 p, double clearance, double spacing) {
    for (const SceneObstacle& o : s.obstacles) {
        const Vec2 lo = o.vertices[0];
        const Vec2 hi = o.vertices[2];
        const double dx = std::max({lo.x - p.x, 0.0, p.x - hi.x});
        const double dy = std::max({lo.y - p.y, 0.0, p.y - hi.y});
        if (dx * dx + dy * dy < clearance * clearance) return false;
    }
    if (spacing > 0.0)
        for (const SceneAgent& a : s.agents)
            if (absSq(a.position - p) < spacing * spacing) return false;
    return true;
}

/// A spot from `draw` that is clear (see clearSpot), drawing again until one is (at most 1,000
/// tries, then the last one).
template <class Draw> Vec2 clearDraw(const Scene& s, Draw&& draw, double spacing) {
    Vec2 p = draw();
    for (int tries = 0; tries < 1000 && !clearSpot(s, p, 0.6, spacing); ++tries)
        p = draw();
    return p;
}

void addAgent(Scene& s, Vec2 position, Vec2 goal) {
    SceneAgent a;
    a.position = position;
    a.goal = goal;
    s.agents.push_back(a);
}

void addBox(Scene& s, double x0, double y0, double x1, double y1) {
    s.obstacles.push_back({std::nullopt, {f(x0, y0), f(x1, y0), f(x1, y1), f(x0, y1)}});
}

Scene hallway() {
    Scene s = realBase("Hallway (50)", "Two flows of 25 pass each other in a hallway 8 wide");
    addBox(s, -30.0, -5.0, 30.0, -4.0);
    addBox(s, -30.0, 4.0, 30.0, 5.0);
    for (int k = 0; k < 50; ++k) {
        const int side = k < 25 ? -1 : 1;
        const int i = k % 25;
        const double x = side * (20.0 + 1.5 * (i / 5));
        const double y = -3.0 + 1.5 * (i % 5);
        addAgent(s, f(x, y), f(-x, y));
    }
    return s;
}

Scene concentric() {
    Scene s = realBase("Concentric circles (250)",
                       "250 agents on five rings (radii 10 to 30) cross to the antipode");
    for (int ring = 0; ring < 5; ++ring) {
        const double radius = 10.0 + 5.0 * ring;
        for (int k = 0; k < 50; ++k) {
            const double a = 2.0 * 3.14159265358979323846 * (k + 0.5 * ring) / 50.0;
            const Vec2 p = f(radius * std::cos(a), radius * std::sin(a));
            addAgent(s, p, -p);
        }
    }
    return s;
}

Scene office() {
    Scene s = realBase("Office (400)", "400 agents walk between 20 desks to random goals");
    for (int i = 0; i < 5; ++i)
        for (int j = 0; j < 4; ++j) {
            const double x = -30.0 + 15.0 * i;
            const double y = -22.5 + 15.0 * j;
            addBox(s, x - 3.0, y - 1.0, x + 3.0, y + 1.0);
        }
    Random r(400);
    // Agents on a jittered grid in the aisles (between the desk rows), goals likewise.
    auto aisle = [&r](int k) {
        const int row = k % 5;
        const double y = -30.0 + 15.0 * row + r.in(-2.5, 2.5);
        return f(r.in(-38.0, 38.0), y);
    };
    for (int k = 0; k < 400; ++k) {
        const Vec2 p = clearDraw(
            s, [&] { return aisle(k); }, 1.1);
        const Vec2 g = clearDraw(
            s, [&] { return aisle(k + 2); }, 0.0);
        addAgent(s, p, g);
    }
    return s;
}

Scene forest() {
    Scene s = realBase("Forest (500)", "500 agents cross a forest of 700 small square obstacles");
    Random r(500);
    // 700 boxes of side 0.6 on a jittered 28 x 25 grid over [-28, 28] x [-25, 25].
    for (int i = 0; i < 28; ++i)
        for (int j = 0; j < 25; ++j) {
            const double x = -27.0 + 2.0 * i + r.in(-0.5, 0.5);
            const double y = -24.0 + 2.0 * j + r.in(-0.5, 0.5);
            addBox(s, x - 0.3, y - 0.3, x + 0.3, y + 0.3);
        }
    for (int k = 0; k < 500; ++k) {
        const int side = k % 2 == 0 ? -1 : 1;
        const Vec2 p = clearDraw(
            s, [&] { return f(side * (32.0 + 12.0 * r.unit()), -24.0 + 48.0 * r.unit()); }, 1.1);
        addAgent(s, p, f(-p.x, -24.0 + 48.0 * r.unit()));
    }
    return s;
}

Scene bottleneck() {
    Scene s = realBase("Bottleneck (1000)",
                       "Two groups of 500 swap sides through a gap 3 wide in a wall");
    addBox(s, -0.5, -60.0, 0.5, -1.5);
    addBox(s, -0.5, 1.5, 0.5, 60.0);
    for (int k = 0; k < 1000; ++k) {
        const int side = k < 500 ? -1 : 1;
        const int i = k % 500;
        const double x = side * (5.0 + 1.5 * (i / 25));
        const double y = -18.0 + 1.5 * (i % 25);
        addAgent(s, f(x, y), f(-x, y));
    }
    return s;
}

Scene gathering() {
    Scene s = realBase("Gathering (2000)",
                       "2,000 agents in a 60 x 60 square converge on a 10 x 10 square in its "
                       "middle (hundreds within neighborDist of each)");
    Random r(2000);
    for (int k = 0; k < 2000; ++k) {
        const int row = k / 45;
        const int col = k % 45;
        const double x = -33.0 + 1.5 * col + r.in(-0.2, 0.2);
        const double y = -33.0 + 1.5 * row + r.in(-0.2, 0.2);
        addAgent(s, f(x, y), f(r.in(-5.0, 5.0), r.in(-5.0, 5.0)));
    }
    return s;
}

Scene space() {
    Scene s = realBase("Space (5000)",
                       "5,000 agents cross a space of 5,000 small boxes inside four walls");
    Random r(5000);
    const double half = 160.0;
    addBox(s, -half - 1.0, -half - 1.0, half + 1.0, -half);
    addBox(s, -half - 1.0, half, half + 1.0, half + 1.0);
    addBox(s, -half - 1.0, -half, -half, half);
    addBox(s, half, -half, half + 1.0, half);
    // 5,000 boxes of side 1 on a jittered 100 x 50 grid (every other column pair is an aisle).
    for (int i = 0; i < 100; ++i)
        for (int j = 0; j < 50; ++j) {
            const double x = -150.0 + 3.0 * i + r.in(-0.5, 0.5);
            const double y = -150.0 + 6.0 * j + r.in(-1.0, 1.0);
            addBox(s, x - 0.5, y - 0.5, x + 0.5, y + 0.5);
        }
    // Agents in the free rows between the box rows, goals in other free rows.
    auto freeSpot = [&r] {
        const int row = static_cast<int>(r.unit() * 50.0);
        return f(r.in(-155.0, 155.0), -147.0 + 6.0 * row + r.in(-0.8, 0.8));
    };
    for (int k = 0; k < 5000; ++k) {
        const Vec2 p = clearDraw(s, freeSpot, 1.1);
        addAgent(s, p, clearDraw(s, freeSpot, 0.0));
    }
    return s;
}

} // namespace

std::vector<std::string> realSceneNames() {
    return {"hallway50",      "concentric250", "office400", "forest500",
            "bottleneck1000", "gathering2000", "space5000"};
}

Scene realSceneWorkload(const std::string& name) {
    if (name == "hallway50") return hallway();
    if (name == "concentric250") return concentric();
    if (name == "office400") return office();
    if (name == "forest500") return forest();
    if (name == "bottleneck1000") return bottleneck();
    if (name == "gathering2000") return gathering();
    if (name == "space5000") return space();
    throw std::invalid_argument("no real scene called \"" + name + "\"");
}

} // namespace orca::scene
