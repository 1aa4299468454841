// RVO::RVOSimulator's obstacles (core/rvo2): vertex numbering, processObstacles, visibility.
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

namespace {

using RVO::RVOSimulator;
using RVO::Vector2;

/// The square [x0, x0 + size] x [y0, y0 + size], counter-clockwise from its lower left corner.
std::vector<Vector2> square(float x0, float y0, float size) {
    return {Vector2(x0, y0), Vector2(x0 + size, y0), Vector2(x0 + size, y0 + size),
            Vector2(x0, y0 + size)};
}

TEST(Rvo2Obstacles, VerticesOfTwoPolygonsAreNumberedConsecutively) {
    RVOSimulator sim;
    const std::vector<Vector2> triangle = {Vector2(0.0F, 0.0F), Vector2(4.0F, 0.0F),
                                           Vector2(0.0F, 3.0F)};
    const std::vector<Vector2> wall = {Vector2(10.0F, 0.0F), Vector2(10.0F, 5.0F)};
    EXPECT_EQ(sim.addObstacle(triangle), 0u);
    EXPECT_EQ(sim.addObstacle(wall), 3u); // its first vertex follows the triangle's three
    ASSERT_EQ(sim.getNumObstacleVertices(), 5u);
    EXPECT_EQ(sim.getObstacleVertex(1), Vector2(4.0F, 0.0F));
    EXPECT_EQ(sim.getObstacleVertex(4), Vector2(10.0F, 5.0F));
    // Each polygon is a cycle of its own.
    EXPECT_EQ(sim.getNextObstacleVertexNo(0), 1u);
    EXPECT_EQ(sim.getNextObstacleVertexNo(1), 2u);
    EXPECT_EQ(sim.getNextObstacleVertexNo(2), 0u);
    EXPECT_EQ(sim.getPrevObstacleVertexNo(0), 2u);
    EXPECT_EQ(sim.getPrevObstacleVertexNo(2), 1u);
    // A two-vertex wall: each end is the other's next and previous.
    EXPECT_EQ(sim.getNextObstacleVertexNo(3), 4u);
    EXPECT_EQ(sim.getPrevObstacleVertexNo(3), 4u);
    EXPECT_EQ(sim.getNextObstacleVertexNo(4), 3u);
    EXPECT_EQ(sim.getPrevObstacleVertexNo(4), 3u);
    // Numbers exist before processObstacles (RVO2 numbers vertices as they are added), and
    // stay the same after it.
    sim.processObstacles();
    EXPECT_EQ(sim.getNumObstacleVertices(), 5u);
    EXPECT_EQ(sim.getObstacleVertex(3), Vector2(10.0F, 0.0F));
}

TEST(Rvo2Obstacles, FewerThanTwoVerticesIsRvoError) {
    RVOSimulator sim;
    EXPECT_EQ(sim.addObstacle({}), RVO::RVO_ERROR);
    EXPECT_EQ(sim.addObstacle({Vector2(1.0F, 1.0F)}), RVO::RVO_ERROR);
    EXPECT_EQ(sim.getNumObstacleVertices(), 0u); // nothing added
    EXPECT_EQ(sim.addObstacle(square(0.0F, 0.0F, 1.0F)), 0u);
}

TEST(Rvo2Obstacles, TakeEffectAtProcessObstacles) {
    // An agent walking up into a wall across its path: before processObstacles it walks
    // through (RVO2: obstacles are not in the simulation yet), after it, it is stopped.
    auto finalY = [](bool process) {
        RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 2.0F, 0.5F, 2.0F);
        const std::size_t a = sim.addAgent(Vector2(0.0F, -3.0F));
        sim.addObstacle({Vector2(5.0F, 0.0F), Vector2(-5.0F, 0.0F)}); // a thin wall at y = 0
        if (process) sim.processObstacles();
        for (int k = 0; k < 40; ++k) {
            sim.setAgentPrefVelocity(a, Vector2(0.0F, 1.0F));
            sim.doStep();
        }
        return sim.getAgentPosition(a).y();
    };
    EXPECT_GT(finalY(false), 6.0F);  // 40 steps of 0.25 s at 1 unit/s from y = -3: y = 7
    EXPECT_LT(finalY(true), -0.49F); // held a radius below the wall
}

TEST(Rvo2Obstacles, LaterObstaclesWaitForTheNextProcessObstacles) {
    RVOSimulator sim;
    sim.addObstacle(square(0.0F, 0.0F, 2.0F));
    sim.processObstacles();
    sim.addObstacle(square(10.0F, 0.0F, 2.0F));
    // The first square blocks; the second one is not processed yet.
    EXPECT_FALSE(sim.queryVisibility(Vector2(1.0F, -5.0F), Vector2(1.0F, 5.0F)));
    EXPECT_TRUE(sim.queryVisibility(Vector2(11.0F, -5.0F), Vector2(11.0F, 5.0F)));
    sim.processObstacles();
    EXPECT_FALSE(sim.queryVisibility(Vector2(11.0F, -5.0F), Vector2(11.0F, 5.0F)));
    EXPECT_EQ(sim.getNumObstacleVertices(), 8u);
}

TEST(Rvo2Obstacles, QueryVisibility) {
    RVOSimulator sim;
    sim.addObstacle(square(-1.0F, 0.0F, 2.0F)); // [-1, 1] x [0, 2]
    // Nothing is processed yet: everything is visible (RVO2's documented answer).
    EXPECT_TRUE(sim.queryVisibility(Vector2(0.0F, -3.0F), Vector2(0.0F, 5.0F)));
    sim.processObstacles();
    EXPECT_FALSE(sim.queryVisibility(Vector2(0.0F, -3.0F), Vector2(0.0F, 5.0F)));  // through it
    EXPECT_TRUE(sim.queryVisibility(Vector2(-3.0F, -3.0F), Vector2(-3.0F, 5.0F))); // beside it
    // Touching counts as blocked: the segment along x = -1 grazes the left edge.
    EXPECT_FALSE(sim.queryVisibility(Vector2(-1.0F, -3.0F), Vector2(-1.0F, 5.0F)));
    // With a radius: the segment x = -3 is exactly 2 from the edge x = -1.
    EXPECT_TRUE(sim.queryVisibility(Vector2(-3.0F, -3.0F), Vector2(-3.0F, 5.0F), 2.0F));
    EXPECT_FALSE(sim.queryVisibility(Vector2(-3.0F, -3.0F), Vector2(-3.0F, 5.0F), 2.5F));
    // The distance is the segment's, not its line's: a short segment below the square.
    EXPECT_TRUE(sim.queryVisibility(Vector2(-5.0F, -3.0F), Vector2(5.0F, -3.0F), 2.9F));
    EXPECT_FALSE(sim.queryVisibility(Vector2(-5.0F, -3.0F), Vector2(5.0F, -3.0F), 3.1F));
    EXPECT_TRUE(sim.queryVisibility(Vector2(-9.0F, 5.0F), Vector2(-5.0F, 1.0F), 3.0F));
    // The two-argument form is radius 0.
    EXPECT_TRUE(sim.queryVisibility(Vector2(-5.0F, -0.5F), Vector2(5.0F, -0.5F)));
    EXPECT_TRUE(sim.queryVisibility(Vector2(-5.0F, -0.5F), Vector2(5.0F, -0.5F), 0.0F));
    EXPECT_FALSE(sim.queryVisibility(Vector2(-5.0F, -0.5F), Vector2(5.0F, -0.5F), 0.6F));
}

} // namespace
