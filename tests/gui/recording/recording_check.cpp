// Checks the sandbox's state dump against the recording it shows (tests/gui/recording.cmake):
//
//   orca_recording_check RECORDING DUMP FRAME AGENT
//
// - the dump's "recording" block describes the file (frames, first and last step, encoding,
//   scenes, not cut short) and sits at frame FRAME, and "step" is that frame's recorded step;
// - every agent's dumped position is the frame's (to float precision: a float32 recording's
//   numbers are exact in double, so they must in fact be equal);
// - "explain" holds agent AGENT's record, decided from the frame's state: its position and
//   velocity are the frame's, its v_pref the next recorded step's;
// - the recorded velocity of that step is ORCA's v_new to float precision (the program ran
//   this core: RVO2's face rounds the core's double answer to float).
// Prints what it compared; exits 1 with the differences otherwise.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "orca/scene/recording.hpp"

namespace {

int failures = 0;

void check(bool ok, const std::string& what) {
    if (!ok) {
        std::printf("FAILED: %s\n", what.c_str());
        ++failures;
    }
}

// Equal to float precision (relative 1e-6, absolute 1e-6 near zero).
bool close(double a, double b) {
    return std::fabs(a - b) <= 1e-6 * std::max(1.0, std::fabs(b));
}

bool closeVec(const nlohmann::json& j, orca::Vec2 v) {
    return j.is_array() && j.size() == 2 && close(j[0].get<double>(), v.x) &&
           close(j[1].get<double>(), v.y);
}

std::string text(orca::Vec2 v) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "(%.9g, %.9g)", v.x, v.y);
    return buf;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 5) {
        std::fprintf(stderr, "usage: orca_recording_check RECORDING DUMP FRAME AGENT\n");
        return 2;
    }
    try {
        const orca::scene::Recording rec = orca::scene::loadRecording(argv[1]);
        std::ifstream in(argv[2]);
        const nlohmann::json dump = nlohmann::json::parse(in);
        const std::size_t k = std::stoul(argv[3]);
        const std::size_t agent = std::stoul(argv[4]);
        if (k + 1 >= rec.frames.size()) {
            std::printf("FAILED: frame %zu has no next frame in a recording of %zu\n", k,
                        rec.frames.size());
            return 1;
        }
        const orca::scene::RecordingFrame& f = rec.frames[k];
        const orca::scene::RecordingFrame& next = rec.frames[k + 1];

        const nlohmann::json& r = dump.at("recording");
        check(r.is_object(), "the dump has a recording block");
        check(r.at("frames") == rec.frames.size(), "recording.frames");
        check(r.at("firstStep") == rec.frames.front().step, "recording.firstStep");
        check(r.at("lastStep") == rec.frames.back().step, "recording.lastStep");
        check(r.at("scenes") == rec.scenes.size(), "recording.scenes");
        check(r.at("encoding") ==
                  (rec.encoding == orca::scene::RecordingEncoding::Float32 ? "float32" : "float64"),
              "recording.encoding");
        check(r.at("truncated") == false, "recording.truncated");
        check(r.at("frame") == k, "recording.frame");
        check(dump.at("step") == f.step, "step is the frame's recorded step");
        check(dump.at("timeline").at("current") == k, "timeline.current is the frame");

        const nlohmann::json& agents = dump.at("agents");
        check(agents.size() == f.position.size(), "one dumped agent per recorded agent");
        std::size_t equal = 0;
        for (std::size_t i = 0; i < agents.size() && i < f.position.size(); ++i) {
            const nlohmann::json& p = agents[i].at("position");
            if (!closeVec(p, f.position[i]))
                check(false, "agent " + std::to_string(i) + " at " + p.dump() + ", recorded " +
                                 text(f.position[i]));
            else if (p[0].get<double>() == f.position[i].x && p[1].get<double>() == f.position[i].y)
                ++equal;
        }

        const nlohmann::json& e = dump.at("explain");
        check(e.is_object(), "the dump has the selected agent's explain record");
        if (e.is_object()) {
            check(e.at("agent") == agent, "explain.agent");
            check(closeVec(e.at("position"), f.position[agent]), "explain.position is the frame's");
            check(closeVec(e.at("velocity"), f.velocity[agent]), "explain.velocity is the frame's");
            check(closeVec(e.at("prefVelocity"), next.prefVelocity[agent]),
                  "explain.prefVelocity is the next step's recorded one");
            check(e.at("lines").is_array(), "explain.lines");
        }
        const nlohmann::json& d = r.at("decision");
        check(d.is_object() && d.at("agent") == agent, "recording.decision of the agent");
        double difference = -1.0;
        if (d.is_object()) {
            check(d.at("recordedStep") == next.step, "recording.decision.recordedStep");
            check(closeVec(d.at("recordedVelocity"), next.velocity[agent]),
                  "recording.decision.recordedVelocity");
            difference = d.at("difference").get<double>();
            check(difference <= 1e-5, "the recorded velocity is ORCA's v_new to float precision");
            if (e.is_object())
                check(closeVec(d.at("newVelocity"), {e.at("newVelocity")[0].get<double>(),
                                                     e.at("newVelocity")[1].get<double>()}),
                      "decision.newVelocity is the explain record's");
        }
        std::printf("frame %zu (step %llu): %zu agents, %zu positions bit-equal to the "
                    "recording; agent %zu: %zu half-planes, recorded v %s, |v_rec - v_new| = "
                    "%.3g\n",
                    k, static_cast<unsigned long long>(f.step), agents.size(), equal, agent,
                    e.is_object() ? e.at("lines").size() : 0, text(next.velocity[agent]).c_str(),
                    difference);
    } catch (const std::exception& e) {
        std::printf("FAILED: %s\n", e.what());
        return 1;
    }
    return failures == 0 ? 0 : 1;
}
