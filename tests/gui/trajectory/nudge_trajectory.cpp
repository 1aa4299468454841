// Writes a trajectory CSV with one velocity ORCA would not choose (tests/gui/trajectory):
//
//   orca_nudge_trajectory SCENE IN.csv OUT.csv STEP AGENT
//
// Follows IN.csv with the conformance checker up to the frame before STEP, explains AGENT's
// decision from there (the state and preferred velocities `orca conform` uses) and replaces
// the velocity the file records for AGENT at STEP with one 0.3 m/s outside the decision's first
// ORCA half-plane (right of line 0). Prints the velocity written and exits 0; 1 when the file
// does not have that step, or the agent has no half-plane there.
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "orca/conformance.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/trajectory_csv.hpp"

int main(int argc, char** argv) {
    if (argc != 6) {
        std::fprintf(stderr, "usage: orca_nudge_trajectory SCENE IN.csv OUT.csv STEP AGENT\n");
        return 2;
    }
    try {
        const orca::scene::Scene scene = orca::scene::loadScene(argv[1]).scene;
        const orca::scene::Recording run = orca::scene::loadTrajectoryCsv(argv[2]);
        const auto step = std::stoull(argv[4]);
        const auto agent = static_cast<std::size_t>(std::stoul(argv[5]));
        orca::ConformanceChecker checker;
        checker.begin(orca::scene::buildSimulator(scene));
        std::size_t k = 0;
        for (; k < run.frames.size() && run.frames[k].step < step; ++k) {
            const orca::scene::RecordingFrame& f = run.frames[k];
            checker.frame(f.step, f.position, f.velocity, f.prefVelocity);
        }
        if (k == 0 || k >= run.frames.size() || run.frames[k].step != step) {
            std::fprintf(stderr, "no frame of step %llu after another\n",
                         static_cast<unsigned long long>(step));
            return 1;
        }
        orca::Simulator sim;
        sim.restore(checker.shadow().snapshot());
        if (!run.frames[k].prefVelocity.empty())
            orca::applyRecordedPrefVelocities(sim, run.frames[k].prefVelocity);
        const orca::ExplainRecord r = sim.explain(sim.agentIdAt(agent));
        if (r.lines.empty()) {
            std::fprintf(stderr, "agent %zu has no half-plane at step %llu\n", agent,
                         static_cast<unsigned long long>(step));
            return 1;
        }
        const orca::Line& l = r.lines[0].line;
        const orca::Vec2 bad = l.point + orca::Vec2(l.direction.y, -l.direction.x) * 0.3;

        std::ifstream in(argv[2]);
        std::ofstream out(argv[3]);
        const std::string key = std::to_string(step) + "," + std::to_string(agent) + ",";
        std::string line;
        bool replaced = false;
        while (std::getline(in, line)) {
            if (line.rfind(key, 0) == 0) {
                std::vector<std::string> fields;
                std::stringstream ss(line);
                for (std::string f; std::getline(ss, f, ',');)
                    fields.push_back(f);
                char v[64];
                std::snprintf(v, sizeof v, "%.17g", bad.x);
                fields.at(4) = v;
                std::snprintf(v, sizeof v, "%.17g", bad.y);
                fields.at(5) = v;
                line.clear();
                for (std::size_t i = 0; i < fields.size(); ++i)
                    line += (i ? "," : "") + fields[i];
                replaced = true;
            }
            out << line << "\n";
        }
        if (!replaced) return 1;
        std::printf("agent %zu at step %llu: v = (%.17g, %.17g), ORCA's (%.17g, %.17g)\n", agent,
                    static_cast<unsigned long long>(step), bad.x, bad.y, r.newVelocity.x,
                    r.newVelocity.y);
        return 0;
    } catch (const std::exception& e) {
        std::fprintf(stderr, "orca_nudge_trajectory: %s\n", e.what());
        return 1;
    }
}
