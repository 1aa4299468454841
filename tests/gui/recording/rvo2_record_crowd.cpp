// A small RVO2-style program (RVO2's C++ API, #include <RVO.h>, run by this core through
// orca_rvo2) that records its run for the sandbox: two groups of five cross a square pillar.
// It runs 8 steps before it starts recording (so the recording starts mid-run, at step 8),
// records 50 steps, and adds a latecomer agent after 25 of them (a configuration change: a new
// scene record mid-recording).
//
//   rvo2_record_crowd OUT.orcarec
#include <RVO.h>

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <exception>
#include <vector>

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: rvo2_record_crowd OUT.orcarec\n");
        return 2;
    }
    try {
        RVO::RVOSimulator sim;
        sim.setTimeStep(0.2F);
        // neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed
        sim.setAgentDefaults(8.0F, 8, 3.0F, 2.0F, 0.45F, 1.6F);
        std::vector<RVO::Vector2> goals;
        for (int i = 0; i < 5; ++i) {
            const float y = -3.0F + 1.5F * static_cast<float>(i);
            sim.addAgent(RVO::Vector2(-9.0F, y));
            goals.push_back(RVO::Vector2(9.0F, -y));
            sim.addAgent(RVO::Vector2(9.0F, y + 0.4F));
            goals.push_back(RVO::Vector2(-9.0F, -y));
        }
        std::vector<RVO::Vector2> pillar;
        pillar.push_back(RVO::Vector2(-1.0F, -1.0F));
        pillar.push_back(RVO::Vector2(1.0F, -1.0F));
        pillar.push_back(RVO::Vector2(1.0F, 1.0F));
        pillar.push_back(RVO::Vector2(-1.0F, 1.0F));
        sim.addObstacle(pillar);
        sim.processObstacles();

        auto steer = [&] {
            for (std::size_t i = 0; i < sim.getNumAgents(); ++i) {
                RVO::Vector2 toGoal = goals[i] - sim.getAgentPosition(i);
                if (RVO::absSq(toGoal) > 1.0F) toGoal = RVO::normalize(toGoal);
                sim.setAgentPrefVelocity(i, 1.3F * toGoal);
            }
        };
        for (int s = 0; s < 8; ++s) {
            steer();
            sim.doStep();
        }
        sim.startRecording(argv[1]);
        for (int s = 0; s < 50; ++s) {
            if (s == 25) {
                sim.addAgent(RVO::Vector2(0.0F, 8.0F));
                goals.push_back(RVO::Vector2(0.0F, -8.0F));
            }
            steer();
            sim.doStep();
        }
        sim.stopRecording();
        std::printf("recorded %zu agents, steps 8-58, to %s\n", sim.getNumAgents(), argv[1]);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "rvo2_record_crowd: %s\n", e.what());
        return 1;
    }
    return 0;
}
