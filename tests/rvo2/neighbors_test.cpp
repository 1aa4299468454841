// RVO::RVOSimulator's view of the last step (core/rvo2): agent and obstacle neighbours and
// ORCA lines, with hand-checked numbers, and that they stay the last step's until the next.
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

namespace {

using RVO::RVOSimulator;
using RVO::Vector2;

/// Two agents of radius 1 head-on at (-5, 0) and (5, 0), at rest, preferring (±1, 0);
/// τ = 10, Δt = 0.25.
void headOn(RVOSimulator& sim) {
    sim.setTimeStep(0.25F);
    sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F);
    sim.addAgent(Vector2(-5.0F, 0.0F));
    sim.addAgent(Vector2(5.0F, 0.0F));
    sim.setAgentPrefVelocity(0, Vector2(1.0F, 0.0F));
    sim.setAgentPrefVelocity(1, Vector2(-1.0F, 0.0F));
}

TEST(Rvo2Neighbors, NoneBeforeTheFirstStep) {
    RVOSimulator sim;
    headOn(sim);
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(0), 0u);
    EXPECT_EQ(sim.getAgentNumObstacleNeighbors(0), 0u);
    EXPECT_EQ(sim.getAgentNumORCALines(0), 0u);
}

TEST(Rvo2Neighbors, HeadOnPair) {
    // Hand-checked: relative position p = (10, 0), relative velocity 0. w = 0 - p/τ = (-1, 0)
    // lies in front of the cut-off circle (centre p/τ = (1, 0), radius (r_A + r_B)/τ = 0.2),
    // so u goes from 0 to the circle's nearest point (0.8, 0): u = (0.8, 0). Agent 0's line
    // passes through v + u/2 = (0.4, 0) with direction (0, 1): it may take x <= 0.4, and the
    // velocity nearest its preferred (1, 0) is (0.4, 0). Agent 1 mirrors it.
    RVOSimulator sim;
    headOn(sim);
    sim.doStep();
    ASSERT_EQ(sim.getAgentNumAgentNeighbors(0), 1u);
    EXPECT_EQ(sim.getAgentAgentNeighbor(0, 0), 1u);
    EXPECT_EQ(sim.getAgentAgentNeighbor(1, 0), 0u);
    EXPECT_EQ(sim.getAgentNumObstacleNeighbors(0), 0u);
    ASSERT_EQ(sim.getAgentNumORCALines(0), 1u);
    const RVO::Line& line0 = sim.getAgentORCALine(0, 0);
    EXPECT_FLOAT_EQ(line0.point.x(), 0.4F);
    EXPECT_FLOAT_EQ(line0.point.y(), 0.0F);
    EXPECT_FLOAT_EQ(line0.direction.x(), 0.0F);
    EXPECT_FLOAT_EQ(line0.direction.y(), 1.0F);
    const RVO::Line& line1 = sim.getAgentORCALine(1, 0);
    EXPECT_FLOAT_EQ(line1.point.x(), -0.4F);
    EXPECT_FLOAT_EQ(line1.direction.y(), -1.0F);
    EXPECT_FLOAT_EQ(sim.getAgentVelocity(0).x(), 0.4F);
    EXPECT_FLOAT_EQ(sim.getAgentVelocity(0).y(), 0.0F);
    EXPECT_FLOAT_EQ(sim.getAgentPosition(0).x(), -4.9F); // -5 + 0.4 * 0.25
    EXPECT_FLOAT_EQ(sim.getAgentPosition(1).x(), 4.9F);
}

TEST(Rvo2Neighbors, NearestFirstAndCappedByMaxNeighbors) {
    RVOSimulator sim(0.25F, 10.0F, 2, 5.0F, 5.0F, 0.5F, 1.0F);
    sim.addAgent(Vector2(0.0F, 0.0F));
    sim.addAgent(Vector2(6.0F, 0.0F));  // 6 away
    sim.addAgent(Vector2(0.0F, -2.0F)); // 2 away
    sim.addAgent(Vector2(3.0F, 4.0F));  // 5 away
    sim.addAgent(Vector2(0.0F, 30.0F)); // beyond neighborDist
    sim.doStep();
    ASSERT_EQ(sim.getAgentNumAgentNeighbors(0), 2u); // maxNeighbors = 2: the nearest two
    EXPECT_EQ(sim.getAgentAgentNeighbor(0, 0), 2u);
    EXPECT_EQ(sim.getAgentAgentNeighbor(0, 1), 3u);
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(4), 0u);
    EXPECT_EQ(sim.getAgentNumORCALines(0), 2u); // one line per agent neighbour
}

TEST(Rvo2Neighbors, AgentBelowASquare) {
    // Agent of radius 1 at (0, -3), at rest, preferring (0, 2) (its maxSpeed), τo = 2, under
    // the square [-1, 1] x [0, 2]. Only the bottom edge (vertices 0 -> 1) faces it and lies
    // within τo * maxSpeed + r = 5. Hand-checked (orca-spec section 4): the projection falls
    // mid-edge (s = 0.5), the legs (-0.6, 0.8) and (0.6, 0.8) are both behind v = 0, so v is
    // projected on the cut-off line: the edge scaled by 1/τo, (-0.5, 1.5)-(0.5, 1.5), moved
    // toward the agent by r/τo = 0.5. The line passes through (-0.5, 1) with direction
    // (-1, 0): it allows y <= 1, so the agent goes up at 1 instead of 2.
    RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 2.0F, 1.0F, 2.0F);
    sim.addObstacle(
        {Vector2(-1.0F, 0.0F), Vector2(1.0F, 0.0F), Vector2(1.0F, 2.0F), Vector2(-1.0F, 2.0F)});
    sim.processObstacles();
    const std::size_t a = sim.addAgent(Vector2(0.0F, -3.0F));
    sim.setAgentPrefVelocity(a, Vector2(0.0F, 2.0F));
    sim.doStep();
    ASSERT_EQ(sim.getAgentNumObstacleNeighbors(a), 1u);
    EXPECT_EQ(sim.getAgentObstacleNeighbor(a, 0), 0u); // the edge from vertex 0
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(a), 0u);
    ASSERT_EQ(sim.getAgentNumORCALines(a), 1u);
    const RVO::Line& line = sim.getAgentORCALine(a, 0);
    EXPECT_FLOAT_EQ(line.point.x(), -0.5F);
    EXPECT_FLOAT_EQ(line.point.y(), 1.0F);
    EXPECT_FLOAT_EQ(line.direction.x(), -1.0F);
    EXPECT_FLOAT_EQ(line.direction.y(), 0.0F);
    EXPECT_FLOAT_EQ(sim.getAgentVelocity(a).y(), 1.0F);
    EXPECT_FLOAT_EQ(sim.getAgentPosition(a).y(), -2.75F);
}

TEST(Rvo2Neighbors, ObstacleNeighborNumbersCountEarlierPolygons) {
    // A triangle far away (vertices 0-2), then a thin wall (3, 4) just above the agent. The
    // wall's two directed edges are 3 -> 4, (-5, 1) -> (5, 1), and 4 -> 3; the agent, below,
    // is on the right of 3 -> 4 only, so that edge (first vertex 3) is its neighbour.
    RVOSimulator sim(0.25F, 15.0F, 10, 10.0F, 2.0F, 0.5F, 2.0F);
    sim.addObstacle({Vector2(100.0F, 100.0F), Vector2(104.0F, 100.0F), Vector2(100.0F, 103.0F)});
    sim.addObstacle({Vector2(-5.0F, 1.0F), Vector2(5.0F, 1.0F)});
    sim.processObstacles();
    const std::size_t a = sim.addAgent(Vector2(0.0F, 0.0F));
    sim.doStep();
    ASSERT_EQ(sim.getAgentNumObstacleNeighbors(a), 1u);
    EXPECT_EQ(sim.getAgentObstacleNeighbor(a, 0), 3u);
    EXPECT_EQ(sim.getNextObstacleVertexNo(3), 4u);
}

TEST(Rvo2Neighbors, StayTheLastStepsUntilTheNextStep) {
    RVOSimulator sim;
    headOn(sim);
    sim.doStep();
    const float lineX = sim.getAgentORCALine(0, 0).point.x();
    // Changes after the step do not rewrite what the step saw...
    sim.setAgentPosition(1, Vector2(100.0F, 0.0F));
    sim.setAgentRadius(0, 1.2F);
    sim.setAgentNeighborDist(0, 1.0F);
    sim.setAgentPrefVelocity(0, Vector2(0.0F, 1.0F));
    sim.addObstacle({Vector2(-5.0F, 1.5F), Vector2(5.0F, 1.5F)});
    sim.processObstacles();
    const std::size_t late = sim.addAgent(Vector2(-20.0F, 0.0F));
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(0), 1u);
    EXPECT_EQ(sim.getAgentAgentNeighbor(0, 0), 1u);
    EXPECT_EQ(sim.getAgentNumObstacleNeighbors(0), 0u);
    EXPECT_EQ(sim.getAgentORCALine(0, 0).point.x(), lineX);
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(late), 0u); // added after the step
    EXPECT_EQ(sim.getAgentNumORCALines(late), 0u);
    // ...the next step does: agent 1 is now out of range (and the late agent 15.1 away, beyond
    // agent 0's new neighborDist 1 and its own 15), the wall is in.
    sim.doStep();
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(0), 0u);
    EXPECT_EQ(sim.getAgentNumObstacleNeighbors(0), 1u);
    EXPECT_EQ(sim.getAgentNumAgentNeighbors(late), 0u);
}

TEST(Rvo2Neighbors, QueriedAfterAStepTheyMatchAQueryBeforeAnyChange) {
    // The same step's lines, asked for at once or after edits: identical.
    RVOSimulator first;
    RVOSimulator second;
    headOn(first);
    headOn(second);
    first.doStep();
    second.doStep();
    const RVO::Line expected = first.getAgentORCALine(1, 0);
    second.setAgentTimeHorizon(1, 1.0F);
    second.setTimeStep(1.0F);
    second.setAgentVelocity(1, Vector2(0.0F, 0.0F));
    EXPECT_EQ(second.getAgentORCALine(1, 0).point, expected.point);
    EXPECT_EQ(second.getAgentORCALine(1, 0).direction, expected.direction);
}

} // namespace
