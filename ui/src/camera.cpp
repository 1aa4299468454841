#include "orca/ui/camera.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "orca/simulator.hpp"

namespace orca::ui {

void Rect::include(Vec2 p) {
    min.x = std::min(min.x, p.x);
    min.y = std::min(min.y, p.y);
    max.x = std::max(max.x, p.x);
    max.y = std::max(max.y, p.y);
}

Rect Rect::empty() {
    constexpr double inf = std::numeric_limits<double>::infinity();
    return {{inf, inf}, {-inf, -inf}};
}

void Camera::setScale(double s) {
    if (!std::isfinite(s)) return;
    m_scale = std::clamp(s, kMinScale, kMaxScale);
}

Rect Camera::visibleWorld() const {
    const Vec2 a = screenToWorld(m_viewport.min);
    const Vec2 b = screenToWorld(m_viewport.max);
    return {{std::min(a.x, b.x), std::min(a.y, b.y)}, {std::max(a.x, b.x), std::max(a.y, b.y)}};
}

void Camera::pan(Vec2 screenDelta) {
    m_center.x -= screenDelta.x / m_scale;
    m_center.y += screenDelta.y / m_scale;
}

void Camera::zoomAbout(Vec2 screenPoint, double factor) {
    const Vec2 anchor = screenToWorld(screenPoint);
    setScale(m_scale * factor);
    const Vec2 vc = m_viewport.center();
    m_center.x = anchor.x - (screenPoint.x - vc.x) / m_scale;
    m_center.y = anchor.y + (screenPoint.y - vc.y) / m_scale;
}

void Camera::fit(const Rect& world, double marginScreen, double defaultScale) {
    if (world.isEmpty()) {
        m_center = Vec2(0.0);
        setScale(defaultScale);
        return;
    }
    m_center = world.center();
    const Vec2 view = m_viewport.size();
    // A margin larger than the viewport would give a negative size: then ignore the margin.
    Vec2 room = view - Vec2(2.0 * marginScreen);
    if (room.x <= 1.0 || room.y <= 1.0) room = view;
    // A single point (or a line) has no extent to fit: show a few units around it.
    const Vec2 extent{std::max(world.size().x, 1e-3), std::max(world.size().y, 1e-3)};
    const double s = std::min(room.x / extent.x, room.y / extent.y);
    setScale(s > 0.0 ? s : defaultScale);
}

void Camera::fitInto(const Rect& world, const Rect& screenArea, double marginScreen,
                     double defaultScale) {
    const Rect viewport = m_viewport;
    m_viewport = screenArea;
    fit(world, marginScreen, defaultScale);
    m_viewport = viewport;
    // Keep the world point at the area's centre there, now measured from the viewport's.
    const Vec2 d = screenArea.center() - viewport.center();
    m_center.x -= d.x / m_scale;
    m_center.y += d.y / m_scale;
}

Rect sceneBounds(const Simulator& sim) {
    Rect r = Rect::empty();
    const auto positions = sim.positions();
    const auto params = sim.agentParams();
    for (std::size_t i = 0; i < positions.size(); ++i) {
        r.include(Rect{positions[i], positions[i]}.expanded(params[i].radius));
        if (sim.hasGoalAt(i)) r.include(sim.goalAt(i));
    }
    for (std::size_t i = 0; i < sim.obstacleCount(); ++i)
        for (const Vec2& v : sim.obstacleVertices(sim.obstacleIdAt(i)))
            r.include(v);
    return r;
}

} // namespace orca::ui
