// RVO::RVOSimulator where RVO2's behaviour is undefined (core/rvo2, docs/rvo2.md "Errors"):
// every case throws the documented exception, with a message naming the call, and changes
// nothing.
#include <cmath>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include <RVO.h>

namespace {

using RVO::RVOSimulator;
using RVO::Vector2;

const float kNan = std::numeric_limits<float>::quiet_NaN();
const float kInf = std::numeric_limits<float>::infinity();

/// Two agents 4 apart, one step taken (so each has one neighbour and one line).
void twoAgents(RVOSimulator& sim) {
    sim.setTimeStep(0.25F);
    sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F);
    sim.addAgent(Vector2(0.0F, 0.0F));
    sim.addAgent(Vector2(4.0F, 0.0F));
    sim.addObstacle({Vector2(0.0F, 3.0F), Vector2(4.0F, 3.0F)});
    sim.processObstacles();
    sim.doStep();
}

/// Expects `call` to throw E whose message starts with "RVO::RVOSimulator::" + `function`.
template <class E>
void expectThrows(const std::function<void()>& call, const std::string& function) {
    try {
        call();
        ADD_FAILURE() << function << ": no exception";
    } catch (const E& e) {
        EXPECT_EQ(std::string(e.what()).rfind("RVO::RVOSimulator::" + function + ": ", 0), 0u)
            << e.what();
    } catch (const std::exception& e) {
        ADD_FAILURE() << function << ": wrong exception type: " << e.what();
    }
}

TEST(Rvo2Errors, BadAgentNumberIsOutOfRange) {
    RVOSimulator sim;
    twoAgents(sim);
    const std::size_t bad = 2;
    const std::size_t huge = std::numeric_limits<std::size_t>::max(); // e.g. a -1 cast
    const Vector2 v(1.0F, 1.0F);
    const std::vector<std::pair<std::string, std::function<void(std::size_t)>>> calls = {
        {"getAgentAgentNeighbor", [&](std::size_t a) { (void)sim.getAgentAgentNeighbor(a, 0); }},
        {"getAgentMaxNeighbors", [&](std::size_t a) { (void)sim.getAgentMaxNeighbors(a); }},
        {"getAgentMaxSpeed", [&](std::size_t a) { (void)sim.getAgentMaxSpeed(a); }},
        {"getAgentNeighborDist", [&](std::size_t a) { (void)sim.getAgentNeighborDist(a); }},
        {"getAgentNumAgentNeighbors",
         [&](std::size_t a) { (void)sim.getAgentNumAgentNeighbors(a); }},
        {"getAgentNumObstacleNeighbors",
         [&](std::size_t a) { (void)sim.getAgentNumObstacleNeighbors(a); }},
        {"getAgentNumORCALines", [&](std::size_t a) { (void)sim.getAgentNumORCALines(a); }},
        {"getAgentObstacleNeighbor",
         [&](std::size_t a) { (void)sim.getAgentObstacleNeighbor(a, 0); }},
        {"getAgentORCALine", [&](std::size_t a) { (void)sim.getAgentORCALine(a, 0); }},
        {"getAgentPosition", [&](std::size_t a) { (void)sim.getAgentPosition(a); }},
        {"getAgentPrefVelocity", [&](std::size_t a) { (void)sim.getAgentPrefVelocity(a); }},
        {"getAgentRadius", [&](std::size_t a) { (void)sim.getAgentRadius(a); }},
        {"getAgentTimeHorizon", [&](std::size_t a) { (void)sim.getAgentTimeHorizon(a); }},
        {"getAgentTimeHorizonObst", [&](std::size_t a) { (void)sim.getAgentTimeHorizonObst(a); }},
        {"getAgentVelocity", [&](std::size_t a) { (void)sim.getAgentVelocity(a); }},
        {"setAgentMaxNeighbors", [&](std::size_t a) { sim.setAgentMaxNeighbors(a, 3); }},
        {"setAgentMaxSpeed", [&](std::size_t a) { sim.setAgentMaxSpeed(a, 1.0F); }},
        {"setAgentNeighborDist", [&](std::size_t a) { sim.setAgentNeighborDist(a, 1.0F); }},
        {"setAgentPosition", [&](std::size_t a) { sim.setAgentPosition(a, v); }},
        {"setAgentPrefVelocity", [&](std::size_t a) { sim.setAgentPrefVelocity(a, v); }},
        {"setAgentRadius", [&](std::size_t a) { sim.setAgentRadius(a, 1.0F); }},
        {"setAgentTimeHorizon", [&](std::size_t a) { sim.setAgentTimeHorizon(a, 1.0F); }},
        {"setAgentTimeHorizonObst", [&](std::size_t a) { sim.setAgentTimeHorizonObst(a, 1.0F); }},
        {"setAgentVelocity", [&](std::size_t a) { sim.setAgentVelocity(a, v); }},
    };
    for (const auto& [name, call] : calls) {
        expectThrows<std::out_of_range>([&] { call(bad); }, name);
        expectThrows<std::out_of_range>([&] { call(huge); }, name);
        EXPECT_NO_THROW(call(1)) << name; // the last agent is fine
    }
    EXPECT_EQ(sim.getNumAgents(), 2u);
}

TEST(Rvo2Errors, BadNeighborOrLineNumberIsOutOfRange) {
    RVOSimulator sim;
    twoAgents(sim);
    ASSERT_EQ(sim.getAgentNumAgentNeighbors(0), 1u);
    ASSERT_EQ(sim.getAgentNumObstacleNeighbors(0), 1u);
    ASSERT_EQ(sim.getAgentNumORCALines(0), 2u);
    EXPECT_NO_THROW((void)sim.getAgentAgentNeighbor(0, 0));
    expectThrows<std::out_of_range>([&] { (void)sim.getAgentAgentNeighbor(0, 1); },
                                    "getAgentAgentNeighbor");
    EXPECT_NO_THROW((void)sim.getAgentObstacleNeighbor(0, 0));
    expectThrows<std::out_of_range>([&] { (void)sim.getAgentObstacleNeighbor(0, 1); },
                                    "getAgentObstacleNeighbor");
    EXPECT_NO_THROW((void)sim.getAgentORCALine(0, 1));
    expectThrows<std::out_of_range>([&] { (void)sim.getAgentORCALine(0, 2); }, "getAgentORCALine");
    // Before any step there are none at all.
    RVOSimulator fresh(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F);
    fresh.addAgent(Vector2());
    expectThrows<std::out_of_range>([&] { (void)fresh.getAgentAgentNeighbor(0, 0); },
                                    "getAgentAgentNeighbor");
    expectThrows<std::out_of_range>([&] { (void)fresh.getAgentORCALine(0, 0); },
                                    "getAgentORCALine");
}

TEST(Rvo2Errors, BadVertexNumberIsOutOfRange) {
    RVOSimulator sim;
    sim.addObstacle({Vector2(0.0F, 0.0F), Vector2(1.0F, 0.0F), Vector2(0.0F, 1.0F)});
    EXPECT_NO_THROW((void)sim.getObstacleVertex(2));
    expectThrows<std::out_of_range>([&] { (void)sim.getObstacleVertex(3); }, "getObstacleVertex");
    expectThrows<std::out_of_range>([&] { (void)sim.getNextObstacleVertexNo(3); },
                                    "getNextObstacleVertexNo");
    expectThrows<std::out_of_range>([&] { (void)sim.getPrevObstacleVertexNo(99); },
                                    "getPrevObstacleVertexNo");
}

TEST(Rvo2Errors, NonFiniteValuesAreInvalidArguments) {
    RVOSimulator sim;
    twoAgents(sim);
    const Vector2 nan(kNan, 0.0F);
    const Vector2 inf(0.0F, -kInf);
    for (const Vector2& bad : {nan, inf}) {
        expectThrows<std::invalid_argument>([&] { sim.addAgent(bad); }, "addAgent");
        expectThrows<std::invalid_argument>(
            [&] { sim.addAgent(Vector2(), 15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F, bad); }, "addAgent");
        expectThrows<std::invalid_argument>([&] { sim.setAgentPosition(0, bad); },
                                            "setAgentPosition");
        expectThrows<std::invalid_argument>([&] { sim.setAgentVelocity(0, bad); },
                                            "setAgentVelocity");
        expectThrows<std::invalid_argument>([&] { sim.setAgentPrefVelocity(0, bad); },
                                            "setAgentPrefVelocity");
        expectThrows<std::invalid_argument>(
            [&] { sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F, bad); },
            "setAgentDefaults");
        expectThrows<std::invalid_argument>([&] { (void)sim.queryVisibility(bad, Vector2()); },
                                            "queryVisibility");
        expectThrows<std::invalid_argument>(
            [&] { (void)sim.queryVisibility(Vector2(), bad, 1.0F); }, "queryVisibility");
        expectThrows<std::invalid_argument>(
            [&] {
                sim.addObstacle({Vector2(), bad, Vector2(1.0F, 1.0F)});
            },
            "addObstacle");
    }
    for (const float bad : {kNan, kInf, -kInf}) {
        expectThrows<std::invalid_argument>([&] { sim.setAgentMaxSpeed(0, bad); },
                                            "setAgentMaxSpeed");
        expectThrows<std::invalid_argument>([&] { sim.setAgentNeighborDist(0, bad); },
                                            "setAgentNeighborDist");
        expectThrows<std::invalid_argument>([&] { sim.setAgentRadius(0, bad); }, "setAgentRadius");
        expectThrows<std::invalid_argument>([&] { sim.setAgentTimeHorizon(0, bad); },
                                            "setAgentTimeHorizon");
        expectThrows<std::invalid_argument>([&] { sim.setAgentTimeHorizonObst(0, bad); },
                                            "setAgentTimeHorizonObst");
        expectThrows<std::invalid_argument>([&] { sim.setTimeStep(bad); }, "setTimeStep");
        expectThrows<std::invalid_argument>(
            [&] { (void)sim.queryVisibility(Vector2(), Vector2(1.0F, 0.0F), bad); },
            "queryVisibility");
        expectThrows<std::invalid_argument>(
            [&] { sim.addAgent(Vector2(9.0F, 9.0F), bad, 10, 10.0F, 10.0F, 1.0F, 2.0F); },
            "addAgent");
    }
    // Nothing changed.
    EXPECT_EQ(sim.getNumAgents(), 2u);
    EXPECT_EQ(sim.getNumObstacleVertices(), 2u);
    EXPECT_EQ(sim.getAgentRadius(0), 1.0F);
    EXPECT_EQ(sim.getTimeStep(), 0.25F);
    EXPECT_EQ(sim.getAgentPrefVelocity(0), Vector2());
}

TEST(Rvo2Errors, OutOfRangeParametersAreInvalidArguments) {
    RVOSimulator sim;
    twoAgents(sim);
    // RVO2 documents radius >= 0; the core needs a disk: radius 0 is refused too.
    expectThrows<std::invalid_argument>([&] { sim.setAgentRadius(0, 0.0F); }, "setAgentRadius");
    expectThrows<std::invalid_argument>([&] { sim.setAgentRadius(0, -1.0F); }, "setAgentRadius");
    expectThrows<std::invalid_argument>([&] { sim.setAgentMaxSpeed(0, -0.5F); },
                                        "setAgentMaxSpeed");
    expectThrows<std::invalid_argument>([&] { sim.setAgentNeighborDist(0, -1.0F); },
                                        "setAgentNeighborDist");
    expectThrows<std::invalid_argument>([&] { sim.setAgentTimeHorizon(0, 0.0F); },
                                        "setAgentTimeHorizon");
    expectThrows<std::invalid_argument>([&] { sim.setAgentTimeHorizonObst(0, -2.0F); },
                                        "setAgentTimeHorizonObst");
    expectThrows<std::invalid_argument>([&] { sim.setTimeStep(0.0F); }, "setTimeStep");
    expectThrows<std::invalid_argument>([&] { sim.setTimeStep(-0.25F); }, "setTimeStep");
    expectThrows<std::invalid_argument>([&] { sim.setTimeStep(1e-7F); }, "setTimeStep");
    expectThrows<std::invalid_argument>(
        [&] { sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, -1.0F, 2.0F); }, "setAgentDefaults");
    expectThrows<std::invalid_argument>(
        [&] { sim.addAgent(Vector2(), 15.0F, 10, 0.0F, 10.0F, 1.0F, 2.0F); }, "addAgent");
    expectThrows<std::invalid_argument>(
        [&] { (void)sim.queryVisibility(Vector2(), Vector2(1.0F, 0.0F), -1.0F); },
        "queryVisibility");
    EXPECT_EQ(sim.getAgentRadius(0), 1.0F);
    EXPECT_EQ(sim.getAgentMaxSpeed(0), 2.0F);
    EXPECT_EQ(sim.getNumAgents(), 2u);
    EXPECT_EQ(sim.addAgent(Vector2(9.0F, 9.0F)), 2u); // the defaults were kept too
    EXPECT_EQ(sim.getAgentRadius(2), 1.0F);
    // The constructors check the same way.
    EXPECT_THROW(RVOSimulator(0.0F, 15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F), std::invalid_argument);
    EXPECT_THROW(RVOSimulator(0.25F, 15.0F, 10, 10.0F, 10.0F, -1.0F, 2.0F), std::invalid_argument);
    EXPECT_THROW(RVOSimulator(0.25F, 15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F, Vector2(kNan, 0.0F)),
                 std::invalid_argument);
}

TEST(Rvo2Errors, PolygonsTheCoreRejectsAreInvalidArguments) {
    RVOSimulator sim;
    const std::vector<std::vector<Vector2>> bad = {
        // repeated vertex
        {Vector2(0.0F, 0.0F), Vector2(1.0F, 0.0F), Vector2(1.0F, 0.0F), Vector2(0.0F, 1.0F)},
        {Vector2(2.0F, 2.0F), Vector2(2.0F, 2.0F)}, // a wall of zero length
        // all collinear
        {Vector2(0.0F, 0.0F), Vector2(1.0F, 0.0F), Vector2(2.0F, 0.0F)},
        // edges that cross (a bow tie)
        {Vector2(0.0F, 0.0F), Vector2(2.0F, 2.0F), Vector2(2.0F, 0.0F), Vector2(0.0F, 2.0F)},
        // clockwise: RVO2's inside-out "bounding" obstacle, which the core does not have
        {Vector2(0.0F, 0.0F), Vector2(0.0F, 1.0F), Vector2(1.0F, 1.0F), Vector2(1.0F, 0.0F)},
    };
    for (const auto& polygon : bad)
        expectThrows<std::invalid_argument>([&] { sim.addObstacle(polygon); }, "addObstacle");
    EXPECT_EQ(sim.getNumObstacleVertices(), 0u);
    try {
        sim.addObstacle(bad.back());
    } catch (const std::invalid_argument& e) {
        EXPECT_NE(std::string(e.what()).find("clockwise"), std::string::npos) << e.what();
    }
}

TEST(Rvo2Errors, StepWithoutATimeStepIsALogicError) {
    RVOSimulator sim;
    sim.setAgentDefaults(15.0F, 10, 10.0F, 10.0F, 1.0F, 2.0F);
    sim.addAgent(Vector2());
    expectThrows<std::logic_error>([&] { sim.doStep(); }, "doStep");
    EXPECT_EQ(sim.getGlobalTime(), 0.0F);
    sim.setTimeStep(0.5F);
    EXPECT_NO_THROW(sim.doStep());
    EXPECT_EQ(sim.getGlobalTime(), 0.5F);
}

} // namespace
