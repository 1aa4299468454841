// The bottleneck generators of generators.hpp: a doorway in a wall and counterflow in a
// corridor, with their walls as obstacles and, on request, waypoints that route the agents
// through the bottleneck; and the scene the `orca generate doorway|corridor` command writes.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "orca/scene/generators.hpp"

#include "generators_support.hpp"

namespace orca::scene {

namespace {

using namespace gen;

/// The prototype-copy rules of the header (generators.cpp has the same for the other
/// generators): no id, detour state reset, a goal clears prefVelocity, a static prototype gets
/// neither goals nor waypoints.
class RoutedAgentMaker {
  public:
    explicit RoutedAgentMaker(const SceneAgent& prototype) : m_prototype(prototype) {
        m_prototype.id.reset();
        m_prototype.goal.reset();
        m_prototype.waypoints.clear();
        m_prototype.routeProgress = 0;
        m_prototype.detourMode = DetourMode::Normal;
        m_prototype.stillSeconds = 0.0;
        if (m_prototype.isStatic) m_prototype.prefVelocity.reset();
    }

    [[nodiscard]] SceneAgent operator()(Vec2 position, Vec2 goal, std::vector<Vec2> waypoints) {
        SceneAgent a = m_prototype;
        a.position = position;
        if (a.isStatic) {
            m_droppedGoals = true;
            return a;
        }
        a.goal = goal;
        a.prefVelocity.reset();
        a.waypoints = std::move(waypoints);
        return a;
    }

    [[nodiscard]] std::string note() const {
        return m_droppedGoals ? "static agents get no goals nor waypoints (they never move)" : "";
    }

  private:
    SceneAgent m_prototype;
    bool m_droppedGoals = false;
};

/// A group's block: `count` agents in `lanes` lanes across (offsets along the unit vector
/// `across`, centred, `spacing` apart) and rows behind each other; row k's centres are at
/// front − (k·spacing + setback(lane))·forward. Row by row, front first; a last, partial row is
/// centred.
template <class Setback>
std::vector<Vec2> block(Vec2 front, Vec2 forward, Vec2 across, int count, int lanes, double spacing,
                        Setback setback) {
    std::vector<Vec2> out;
    out.reserve(static_cast<std::size_t>(count));
    for (int j = 0; j < count; ++j) {
        const int row = j / lanes;
        const int lane = j % lanes;
        const int inRow = std::min(lanes, count - row * lanes);
        const double lateral = (static_cast<double>(lane) - 0.5 * static_cast<double>(inRow - 1));
        out.push_back(front - forward * (static_cast<double>(row) * spacing + setback(lane)) +
                      across * (lateral * spacing));
    }
    return out;
}

/// x ↦ 2·axis − x.
Vec2 mirrorX(Vec2 p, double axis) {
    return {2.0 * axis - p.x, p.y};
}

/// The spacing to use: `spacing`, or 3·r when negative; throws when it is 0, not finite or
/// too small for the agents not to overlap.
double resolveSpacing(std::string_view generator, double spacing, double radius) {
    requireFinite(generator, "spacing", spacing);
    if (spacing < 0.0) return 3.0 * radius;
    if (!(spacing > 0.0)) {
        invalid(generator, "spacing must be > 0, or negative for 3 × the radius (got " +
                               number(spacing) + ")");
    }
    if (spacing < 2.0 * radius) {
        invalid(generator, "spacing must be at least 2 × the radius " + number(radius) +
                               " so that the agents do not overlap (got " + number(spacing) + ")");
    }
    return spacing;
}

/// The walls' vertices and the waypoints must be within the scene format's limits too.
void requireRoutesWithinSceneLimits(std::string_view generator, const GeneratorResult& result) {
    const auto beyond = [&]() {
        invalid(generator, "the walls or waypoints would lie beyond ±" + number(kMaxMagnitude) +
                               " (the scene format's limit); make the layout smaller");
    };
    for (const SceneObstacle& o : result.obstacles)
        for (const Vec2 v : o.vertices)
            if (!withinSceneLimits(v)) beyond();
    for (const SceneAgent& a : result.agents)
        for (const Vec2 w : a.waypoints)
            if (!withinSceneLimits(w)) beyond();
}

} // namespace

// ---- Doorway ----------------------------------------------------------------------------------

GeneratorResult generate(const Doorway& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const Doorway& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "doorway";
    requireFinite(kName, "center", params.center);
    requireCount(kName, "perSide", params.perSide, kMaxGeneratedAgents / 2);
    requirePositive(kName, "wallThickness", params.wallThickness);
    requireFinite(kName, "distance", params.distance);
    requireFinite(kName, "gapWidth", params.gapWidth);
    const double radius = checkSurroundings(kName, surroundings, prototype);
    const double gap = params.gapWidth < 0.0 ? 2.4 * radius : params.gapWidth;
    if (!(gap > 0.0)) invalid(kName, "gapWidth must be > 0 (got " + number(gap) + ")");
    requirePositive(kName, "wallLength", params.wallLength);
    if (!(params.wallLength > gap)) {
        invalid(kName, "wallLength must be more than the gap " + number(gap) + " (got " +
                           number(params.wallLength) + ")");
    }
    const double spacing = resolveSpacing(kName, params.spacing, radius);
    if (params.distance < radius) {
        invalid(kName, "distance must be at least the radius " + number(radius) +
                           ", else the front row overlaps the wall (got " +
                           number(params.distance) + ")");
    }

    const Vec2 c = params.center;
    const double halfThick = 0.5 * params.wallThickness;
    GeneratorResult result;
    result.obstacles.push_back(
        {std::nullopt, rectangleRegion({c.x - halfThick, c.y - 0.5 * params.wallLength},
                                       {c.x + halfThick, c.y - 0.5 * gap})});
    result.obstacles.push_back(
        {std::nullopt, rectangleRegion({c.x - halfThick, c.y + 0.5 * gap},
                                       {c.x + halfThick, c.y + 0.5 * params.wallLength})});

    const int lanes =
        std::max(1, static_cast<int>(std::ceil(std::sqrt(static_cast<double>(params.perSide)))));
    const double approach = halfThick + 2.0 * radius;
    const Vec2 before{c.x - approach, c.y};
    const Vec2 beyond{c.x + approach, c.y};

    RoutedAgentMaker make(prototype);
    result.agents.reserve(2 * static_cast<std::size_t>(params.perSide));
    for (int side = 0; side < 2; ++side) {
        // The staggered fronts of the header: lane j of side s stands (2j + s)·spacing /
        // (2·lanes) farther back, so that no two agents are the same distance from the wall.
        const auto setback = [&](int lane) {
            return static_cast<double>(2 * lane + side) * spacing / static_cast<double>(2 * lanes);
        };
        const double sign = side == 0 ? 1.0 : -1.0; // walking direction along x
        const std::vector<Vec2> positions =
            block({c.x - sign * (halfThick + params.distance), c.y}, {sign, 0.0}, {0.0, 1.0},
                  params.perSide, lanes, spacing, setback);
        for (const Vec2 position : positions) {
            std::vector<Vec2> waypoints;
            if (params.routes) {
                waypoints = side == 0 ? std::vector<Vec2>{before, beyond}
                                      : std::vector<Vec2>{beyond, before};
            }
            result.agents.push_back(make(position, mirrorX(position, c.x), std::move(waypoints)));
        }
    }
    requireWithinSceneLimits(kName, result.agents);
    requireRoutesWithinSceneLimits(kName, result);
    keepClear(result, surroundings, radius);
    if (gap < 2.0 * radius) {
        appendNote(result.note, "the gap " + number(gap) + " is narrower than an agent (" +
                                    number(2.0 * radius) + "): nobody gets through");
    }
    appendNote(result.note, make.note());
    return result;
}

// ---- Corridor ---------------------------------------------------------------------------------

GeneratorResult generate(const CorridorCounterflow& params, const SceneAgent& prototype) {
    return generate(params, prototype, Surroundings{});
}

GeneratorResult generate(const CorridorCounterflow& params, const SceneAgent& prototype,
                         const Surroundings& surroundings) {
    constexpr std::string_view kName = "corridor";
    requireFinite(kName, "center", params.center);
    requireCount(kName, "perFlow", params.perFlow, kMaxGeneratedAgents / 2);
    requirePositive(kName, "length", params.length);
    requirePositive(kName, "wallThickness", params.wallThickness);
    requireNonNegative(kName, "distance", params.distance);
    requireFinite(kName, "width", params.width);
    const double radius = checkSurroundings(kName, surroundings, prototype);
    if (!(params.width > 2.0 * radius)) {
        invalid(kName, "width must be more than 2 × the radius " + number(radius) + " (got " +
                           number(params.width) + ")");
    }
    if (params.keepRight && params.width < 4.0 * radius) {
        invalid(kName, "keepRight needs width >= 4 × the radius " + number(radius) +
                           ", so that each lane is clear of its wall (got " + number(params.width) +
                           ")");
    }
    const double spacing = resolveSpacing(kName, params.spacing, radius);

    const Vec2 c = params.center;
    const double halfLength = 0.5 * params.length;
    const double halfWidth = 0.5 * params.width;
    GeneratorResult result;
    result.obstacles.push_back(
        {std::nullopt, rectangleRegion({c.x - halfLength, c.y - halfWidth - params.wallThickness},
                                       {c.x + halfLength, c.y - halfWidth})});
    result.obstacles.push_back(
        {std::nullopt,
         rectangleRegion({c.x - halfLength, c.y + halfWidth},
                         {c.x + halfLength, c.y + halfWidth + params.wallThickness})});

    // Lanes: as many as fit between the walls, centre to centre within width − 2r (computed in
    // double first: the ratio may exceed any int).
    const double fitting = std::floor((params.width - 2.0 * radius) / spacing) + 1.0;
    const int lanes = static_cast<int>(std::min(fitting, static_cast<double>(params.perFlow)));
    const std::vector<Vec2> flow0 =
        block({c.x - halfLength - params.distance, c.y}, {1.0, 0.0}, {0.0, 1.0}, params.perFlow,
              lanes, spacing, [](int) { return 0.0; });
    const double lane = 0.25 * params.width;

    RoutedAgentMaker make(prototype);
    result.agents.reserve(2 * flow0.size());
    for (int flow = 0; flow < 2; ++flow) {
        for (const Vec2 p0 : flow0) {
            const Vec2 position = flow == 0 ? p0 : mirrorX(p0, c.x);
            std::vector<Vec2> waypoints;
            if (params.keepRight) {
                // Right of +x is −y; right of −x is +y. Entrance first.
                waypoints = flow == 0 ? std::vector<Vec2>{{c.x - halfLength, c.y - lane},
                                                          {c.x + halfLength, c.y - lane}}
                                      : std::vector<Vec2>{{c.x + halfLength, c.y + lane},
                                                          {c.x - halfLength, c.y + lane}};
            }
            result.agents.push_back(make(position, mirrorX(position, c.x), std::move(waypoints)));
        }
    }
    requireWithinSceneLimits(kName, result.agents);
    requireRoutesWithinSceneLimits(kName, result);
    keepClear(result, surroundings, radius);
    appendNote(result.note, make.note());
    return result;
}

// ---- The scene --------------------------------------------------------------------------------

AgentParams bottleneckAgentDefaults() {
    AgentParams p;
    p.radius = 0.5;
    p.maxSpeed = 1.5;
    p.prefSpeed = 1.2;
    p.neighborDist = 10.0;
    p.maxNeighbors = 10;
    p.timeHorizon = 3.0;
    p.timeHorizonObst = 2.0;
    return p;
}

Scene bottleneckScene(const GeneratorResult& result, std::string name, std::string description) {
    Scene s;
    s.name = std::move(name);
    s.description = std::move(description);
    s.simulation.params.timeStep = 0.1;
    s.agentDefaults = bottleneckAgentDefaults();
    s.agents = result.agents;
    s.obstacles = result.obstacles;
    return s;
}

} // namespace orca::scene
