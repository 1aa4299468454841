#include <gtest/gtest.h>

#include "orca/simulator.hpp"
#include "orca/ui/camera.hpp"

using orca::Vec2;
using orca::ui::Camera;
using orca::ui::Rect;

namespace {

Camera makeCamera() {
    Camera c;
    c.setViewport({{0.0, 20.0}, {800.0, 620.0}}); // 800 x 600 below a 20-unit menu bar
    c.setCenter({5.0, -3.0});
    c.setScale(4.0);
    return c;
}

} // namespace

TEST(Camera, CentreOfViewportShowsCentre) {
    const Camera c = makeCamera();
    const Vec2 s = c.worldToScreen({5.0, -3.0});
    EXPECT_DOUBLE_EQ(s.x, 400.0);
    EXPECT_DOUBLE_EQ(s.y, 320.0);
}

TEST(Camera, WorldYUpIsScreenYDown) {
    const Camera c = makeCamera();
    // One world unit up/right = 4 screen units up (smaller y) / right.
    const Vec2 up = c.worldToScreen({5.0, -2.0});
    const Vec2 right = c.worldToScreen({6.0, -3.0});
    EXPECT_DOUBLE_EQ(up.y, 316.0);
    EXPECT_DOUBLE_EQ(right.x, 404.0);
}

TEST(Camera, RoundTrip) {
    const Camera c = makeCamera();
    for (const Vec2 w : {Vec2(0.0, 0.0), Vec2(-123.5, 77.25), Vec2(1e4, -1e4)}) {
        const Vec2 back = c.screenToWorld(c.worldToScreen(w));
        EXPECT_NEAR(back.x, w.x, 1e-9 * (1.0 + std::abs(w.x)));
        EXPECT_NEAR(back.y, w.y, 1e-9 * (1.0 + std::abs(w.y)));
    }
}

TEST(Camera, ZoomKeepsPointUnderCursorFixed) {
    Camera c = makeCamera();
    const Vec2 cursor{123.0, 456.0};
    const Vec2 before = c.screenToWorld(cursor);
    c.zoomAbout(cursor, 2.5);
    EXPECT_DOUBLE_EQ(c.scale(), 10.0);
    const Vec2 after = c.screenToWorld(cursor);
    EXPECT_NEAR(after.x, before.x, 1e-12);
    EXPECT_NEAR(after.y, before.y, 1e-12);
}

TEST(Camera, ZoomIsClamped) {
    Camera c = makeCamera();
    c.zoomAbout({0.0, 0.0}, 1e30);
    EXPECT_DOUBLE_EQ(c.scale(), Camera::kMaxScale);
    c.zoomAbout({0.0, 0.0}, 1e-60);
    EXPECT_DOUBLE_EQ(c.scale(), Camera::kMinScale);
}

TEST(Camera, PanMovesWorldWithCursor) {
    Camera c = makeCamera();
    const Vec2 grabbed = c.screenToWorld({300.0, 200.0});
    c.pan({+40.0, -10.0});
    const Vec2 now = c.worldToScreen(grabbed);
    EXPECT_NEAR(now.x, 340.0, 1e-12);
    EXPECT_NEAR(now.y, 190.0, 1e-12);
}

TEST(Camera, FitShowsWholeRectWithMargin) {
    Camera c = makeCamera();
    const Rect world{{-200.0, -50.0}, {200.0, 50.0}};
    c.fit(world, 24.0);
    // Width-limited: (800 - 48) / 400.
    EXPECT_DOUBLE_EQ(c.scale(), 752.0 / 400.0);
    EXPECT_EQ(c.center(), Vec2(0.0, 0.0));
    const Rect visible = c.visibleWorld();
    EXPECT_LE(visible.min.x, world.min.x);
    EXPECT_GE(visible.max.x, world.max.x);
    EXPECT_LE(visible.min.y, world.min.y);
    EXPECT_GE(visible.max.y, world.max.y);
}

TEST(Camera, FitOfEmptyRectResetsToOrigin) {
    Camera c = makeCamera();
    c.fit(Rect::empty(), 24.0, 10.0);
    EXPECT_EQ(c.center(), Vec2(0.0, 0.0));
    EXPECT_DOUBLE_EQ(c.scale(), 10.0);
}

TEST(SceneBounds, CoversAgentDisksGoalsAndObstacles) {
    orca::Simulator sim;
    orca::AgentDef a;
    a.position = {1.0, 2.0};
    a.params.radius = 0.5;
    a.hasGoal = true;
    a.goal = {-10.0, 3.0};
    sim.addAgent(a);
    const Vec2 square[] = {{4.0, -6.0}, {6.0, -6.0}, {6.0, -4.0}, {4.0, -4.0}};
    sim.addObstacle(square);
    const Rect r = orca::ui::sceneBounds(sim);
    EXPECT_DOUBLE_EQ(r.min.x, -10.0);
    EXPECT_DOUBLE_EQ(r.max.x, 6.0);
    EXPECT_DOUBLE_EQ(r.min.y, -6.0);
    EXPECT_DOUBLE_EQ(r.max.y, 3.0);
    EXPECT_TRUE(orca::ui::sceneBounds(orca::Simulator{}).isEmpty());
}
