// An RVO2-style program against the installed orca::rvo2: eight agents swap places across a
// ring around a square, steered by preferred velocities set each step. Exits 0 when the
// numbers are right, 1 with a message otherwise.
#include <RVO.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <vector>

namespace {

int failures = 0;

void check(bool ok, const char* what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what);
        ++failures;
    }
}

} // namespace

int main(int argc, char** argv) {
    RVO::RVOSimulator* sim = new RVO::RVOSimulator();
    sim->setTimeStep(0.25F);
    sim->setAgentDefaults(15.0F, 10, 5.0F, 5.0F, 1.0F, 2.0F);
    std::vector<RVO::Vector2> goals;
    for (int i = 0; i < 8; ++i) {
        const float angle = static_cast<float>(i) * 0.785398163F;
        const RVO::Vector2 p = 20.0F * RVO::Vector2(std::cos(angle), std::sin(angle));
        check(sim->addAgent(p) == static_cast<std::size_t>(i), "agents numbered in add order");
        goals.push_back(-p);
    }
    std::vector<RVO::Vector2> square;
    square.push_back(RVO::Vector2(-3.0F, -3.0F));
    square.push_back(RVO::Vector2(3.0F, -3.0F));
    square.push_back(RVO::Vector2(3.0F, 3.0F));
    square.push_back(RVO::Vector2(-3.0F, 3.0F));
    check(sim->addObstacle(square) == 0, "first vertex number");
    sim->processObstacles();
    check(!sim->queryVisibility(RVO::Vector2(-10.0F, 0.0F), RVO::Vector2(10.0F, 0.0F)),
          "the square blocks the view");

    float minGap = 1e9F;
    float elapsed = 0.0F;
    int steps = 0;
    bool arrived = false;
    while (!arrived && steps < 2000) {
        for (std::size_t i = 0; i < sim->getNumAgents(); ++i) {
            RVO::Vector2 toGoal = goals[i] - sim->getAgentPosition(i);
            if (RVO::absSq(toGoal) > 1.0F) toGoal = RVO::normalize(toGoal);
            sim->setAgentPrefVelocity(i, toGoal);
        }
        sim->doStep();
        ++steps;
        elapsed += 0.25F;
        arrived = true;
        for (std::size_t i = 0; i < sim->getNumAgents(); ++i) {
            if (RVO::absSq(sim->getAgentPosition(i) - goals[i]) > 1.0F) arrived = false;
            check(RVO::abs(sim->getAgentVelocity(i)) <= 2.0F + 1e-5F, "speed within maxSpeed");
            for (std::size_t j = i + 1; j < sim->getNumAgents(); ++j) {
                const float gap =
                    RVO::abs(sim->getAgentPosition(i) - sim->getAgentPosition(j)) - 2.0F;
                if (gap < minGap) minGap = gap;
            }
        }
    }
    check(arrived, "every agent reached its goal");
    check(minGap > -0.01F, "no two agents overlapped");
    check(sim->getGlobalTime() == elapsed, "the clock is the float sum of the time steps");
    check(sim->getAgentNumAgentNeighbors(0) <= 7, "neighbour count");
    if (argc > 1) sim->saveScene(argv[1]); // the scene library is linked too
    std::printf("rvo2_crowd: %d steps, smallest gap %.4f, %d failure(s)\n", steps,
                static_cast<double>(minGap), failures);
    delete sim;
    return failures == 0 ? 0 : 1;
}
