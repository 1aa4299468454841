#pragma once
// Scenes for the event detector's tests: crowds in which every kind of event happens.

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "orca/events.hpp"
#include "orca/simulator.hpp"

namespace orca::testing_scenes {

/// The crowd of crowdScene().
struct CrowdShape {
    double spread = 1.4;   ///< half the square's side, in sqrt(agents)
    bool obstacle = true;  ///< a 3 x 3 square obstacle in the middle
    bool waypoints = true; ///< every fifth goal agent through a waypoint
};

/// A crowd in a square too small for it: random radii in [0.4, 1.0], goals across it, every
/// tenth agent static, so that it overlaps, stalls, falls back to LP3 and arrives (and with
/// the obstacle and waypoints, penetrates and reaches waypoints).
inline Simulator crowdScene(std::size_t n, std::uint32_t seed, const CrowdShape& shape) {
    Simulator sim;
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    const double side = std::sqrt(static_cast<double>(n)) * shape.spread;
    if (shape.obstacle) {
        const std::vector<Vec2> square{{-1.5, -1.5}, {1.5, -1.5}, {1.5, 1.5}, {-1.5, 1.5}};
        sim.addObstacle(square);
    }
    for (std::size_t i = 0; i < n; ++i) {
        AgentDef d;
        d.position.x = side * u(rng);
        d.position.y = side * u(rng);
        d.params.radius = 0.4 + 0.3 * (u(rng) + 1.0);
        d.params.neighborDist = 5.0;
        d.params.timeHorizon = 2.0;
        if (i % 10 == 3) {
            d.isStatic = true;
        } else {
            d.hasGoal = true;
            d.goal = {-d.position.x, -d.position.y};
            if (shape.waypoints && i % 5 == 1) d.waypoints = {{d.position.y, -d.position.x}};
        }
        sim.addAgent(d);
    }
    return sim;
}

/// crowdScene with its obstacle and waypoints: every kind of event happens.
inline Simulator eventScene(std::size_t n, std::uint32_t seed) {
    return crowdScene(n, seed, CrowdShape{});
}

/// Sensitive thresholds: oscillations after 2 flips of more than 60 degrees, stalls after 0.5 s.
inline EventParams sensitiveEvents() {
    EventParams p;
    p.oscillationFlips = 2;
    p.oscillationDegrees = 60.0;
    p.stallSeconds = 0.5;
    p.stallSpeedRatio = 0.3;
    return p;
}

} // namespace orca::testing_scenes
