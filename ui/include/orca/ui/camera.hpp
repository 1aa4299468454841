#pragma once
/// \file camera.hpp
/// World <-> screen transform of the sandbox's world view.
///
/// Screen coordinates are ImGui's display coordinates (window points, y down); the GL backend
/// scales them to framebuffer pixels by io.DisplayFramebufferScale, so the camera is HiDPI
/// correct without knowing about pixels. World coordinates are the simulator's (y up).

#include <optional>

#include "orca/geometry.hpp"

namespace orca {
class Simulator;
}

namespace orca::ui {

/// Axis-aligned rectangle (world or screen units).
struct Rect {
    Vec2 min{0.0, 0.0};
    Vec2 max{0.0, 0.0};

    [[nodiscard]] Vec2 size() const { return max - min; }
    [[nodiscard]] Vec2 center() const { return (min + max) * 0.5; }
    [[nodiscard]] bool contains(Vec2 p) const {
        return p.x >= min.x && p.x <= max.x && p.y >= min.y && p.y <= max.y;
    }
    [[nodiscard]] bool intersects(const Rect& o) const {
        return o.min.x <= max.x && o.max.x >= min.x && o.min.y <= max.y && o.max.y >= min.y;
    }
    [[nodiscard]] Rect expanded(double d) const { return {min - Vec2(d), max + Vec2(d)}; }
    /// Grows the rectangle to include `p`.
    void include(Vec2 p);
    void include(const Rect& r) {
        include(r.min);
        include(r.max);
    }
    /// An "empty" rectangle that any include() replaces.
    [[nodiscard]] static Rect empty();
    [[nodiscard]] bool isEmpty() const { return min.x > max.x || min.y > max.y; }
};

class Camera {
  public:
    static constexpr double kMinScale = 1e-6;
    static constexpr double kMaxScale = 1e6;

    /// The part of the screen that shows the world (screen units).
    void setViewport(const Rect& viewport) { m_viewport = viewport; }
    [[nodiscard]] const Rect& viewport() const { return m_viewport; }

    /// World point at the centre of the viewport.
    [[nodiscard]] Vec2 center() const { return m_center; }
    void setCenter(Vec2 c) { m_center = c; }
    /// Screen units per world unit.
    [[nodiscard]] double scale() const { return m_scale; }
    void setScale(double s);

    [[nodiscard]] Vec2 worldToScreen(Vec2 w) const {
        const Vec2 vc = m_viewport.center();
        return {vc.x + (w.x - m_center.x) * m_scale, vc.y - (w.y - m_center.y) * m_scale};
    }
    [[nodiscard]] Vec2 screenToWorld(Vec2 s) const {
        const Vec2 vc = m_viewport.center();
        return {m_center.x + (s.x - vc.x) / m_scale, m_center.y - (s.y - vc.y) / m_scale};
    }
    /// The world rectangle visible in the viewport.
    [[nodiscard]] Rect visibleWorld() const;

    /// Moves the view with the cursor: the world follows a drag of `screenDelta`.
    void pan(Vec2 screenDelta);
    /// Multiplies the scale by `factor`, keeping the world point under `screenPoint` fixed.
    void zoomAbout(Vec2 screenPoint, double factor);
    /// Centres `world` in the viewport and zooms so that it fits with `marginScreen` to spare
    /// on every side. An empty rectangle resets to the origin at `defaultScale`.
    void fit(const Rect& world, double marginScreen = 24.0, double defaultScale = 10.0);
    /// The same into `screenArea`, a part of the viewport (the part a docked panel leaves):
    /// `world` is centred there, the viewport is unchanged.
    void fitInto(const Rect& world, const Rect& screenArea, double marginScreen = 24.0,
                 double defaultScale = 10.0);

  private:
    Rect m_viewport{{0.0, 0.0}, {1280.0, 800.0}};
    Vec2 m_center{0.0, 0.0};
    double m_scale = 10.0;
};

/// Bounding box of everything in the simulator worth looking at: agent disks, their goals and
/// obstacle vertices. Empty rectangle for an empty simulator.
[[nodiscard]] Rect sceneBounds(const Simulator& sim);

} // namespace orca::ui
