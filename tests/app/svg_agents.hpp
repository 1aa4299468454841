#pragma once
// The agents the SVG tests (pictures_test.cpp, shared_style_test.cpp) draw: radius 0.5, maxSpeed
// 1.5, neighborDist 10, τ 5, walking at `velocity` (also their constant preferred velocity),
// and the picture those tests lay them out in.

#include "orca/simulator.hpp"
#include "orca/ui/camera.hpp"
#include "orca/ui/svg_export.hpp"

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

/// The SVG tests' layout: the world view on the left, the panel's canvas on the right below its
/// (not drawn) title bar and summary lines; `rec` is the selected agent's record.
inline ui::SvgPicture svgPicture(const Simulator& sim, const ExplainRecord& rec) {
    ui::SvgPicture pic;
    pic.sim = &sim;
    pic.camera.setViewport({{0.0, 20.0}, {800.0, 620.0}});
    pic.camera.fit(ui::sceneBounds(sim));
    pic.record = &rec;
    ui::SvgPanel panel;
    panel.window = {{800.0, 20.0}, {1200.0, 620.0}};
    panel.canvas = {{800.0, 120.0}, {1200.0, 620.0}};
    panel.transform = {{1000.0, 370.0}, 100.0};
    pic.panel = panel;
    pic.frame = {{0.0, 20.0}, {1200.0, 620.0}};
    return pic;
}

} // namespace orca::test
