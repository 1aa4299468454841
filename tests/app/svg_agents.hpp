#pragma once
// The agents the SVG tests (pictures_test.cpp, shared_style_test.cpp) draw: radius 0.5, maxSpeed
// 1.5, neighborDist 10, τ 5, walking at `velocity` (also their constant preferred velocity).

#include "orca/simulator.hpp"

namespace orca::test {

inline AgentDef svgAgent(Vec2 position, Vec2 velocity) {
    AgentDef d;
    d.position = position;
    d.velocity = velocity;
    d.prefVelocity = velocity;
    d.params.radius = 0.5;
    d.params.maxSpeed = 1.5;
    d.params.neighborDist = 10.0;
    d.params.timeHorizon = 5.0;
    return d;
}

} // namespace orca::test
