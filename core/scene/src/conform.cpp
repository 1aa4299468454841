// The conformance check of a recorded run and its JSON (conform.hpp).
#include "orca/scene/conform.hpp"

#include <cmath>
#include <stdexcept>

#include "orca/scene/explain_json.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

double defaultTolerance(const Recording& run) {
    return run.encoding == RecordingEncoding::Float32 ? kFloatConformanceTolerance
                                                      : kExactConformanceTolerance;
}

ConformanceResult checkConformance(const Recording& run, const ConformanceOptions& options,
                                   int threads) {
    if (run.scenes.empty())
        throw std::invalid_argument("conformance: the run has no scene to check against");
    ConformanceResult result;
    ConformanceChecker checker(options);
    checker.onFirstDeviation([&](const ConformanceDeviation& d, const Simulator& before) {
        result.firstExplain = orca::toJson(before.explain(before.agentIdAt(d.agent)), before);
    });
    std::size_t scene = run.scenes.size(); // (none begun yet)
    for (const RecordingFrame& f : run.frames) {
        if (f.scene >= run.scenes.size())
            throw std::invalid_argument("conformance: a frame names scene record " +
                                        std::to_string(f.scene) + " of " +
                                        std::to_string(run.scenes.size()));
        if (f.scene != scene) {
            // A configuration (the first, or a change): its own state is the base.
            scene = f.scene;
            Simulator sim = buildSimulator(run.scenes[scene]);
            sim.setThreadCount(threads);
            checker.begin(std::move(sim));
        }
        checker.frame(f.step, f.position, f.velocity, f.prefVelocity);
    }
    result.report = checker.report();
    return result;
}

namespace {

nlohmann::ordered_json deviationJson(const ConformanceDeviation& d) {
    nlohmann::ordered_json j;
    j["step"] = d.step;
    j["agent"] = d.agent;
    j["recorded"] = orca::toJson(d.recorded);
    j["orca"] = orca::toJson(d.orca);
    j["difference"] = orca::finiteOrNull(d.difference);
    return j;
}

} // namespace

nlohmann::ordered_json toJson(const ConformanceResult& result, const ConformanceOptions& options,
                              RecordingEncoding precision) {
    const ConformanceReport& r = result.report;
    nlohmann::ordered_json j;
    j["steps"] = r.steps;
    j["agents"] = r.agents;
    j["checkedAgentSteps"] = r.checkedAgentSteps;
    j["deviatingAgentSteps"] = r.deviatingAgentSteps;
    j["maxDifference"] = orca::finiteOrNull(r.maxDifference);
    j["tolerance"] = options.tolerance;
    j["precision"] = precision == RecordingEncoding::Float32 ? "float32" : "float64";
    j["conforms"] = r.deviatingAgentSteps == 0;
    j["uncheckedFrames"] = r.uncheckedFrames;
    if (r.firstDeviation) {
        nlohmann::ordered_json d = deviationJson(*r.firstDeviation);
        d["explain"] = result.firstExplain;
        j["firstDeviation"] = std::move(d);
    } else {
        j["firstDeviation"] = nullptr;
    }
    nlohmann::ordered_json pref;
    pref["agentSteps"] = r.prefMismatchAgentSteps;
    if (r.firstPrefMismatch) {
        const PrefVelocityMismatch& m = *r.firstPrefMismatch;
        pref["first"] = {{"step", m.step},
                         {"agent", m.agent},
                         {"recorded", orca::toJson(m.recorded)},
                         {"fromGoal", orca::toJson(m.fromGoal)}};
    } else {
        pref["first"] = nullptr;
    }
    j["prefVelocityMismatches"] = std::move(pref);
    if (options.keepAll) {
        nlohmann::ordered_json all = nlohmann::ordered_json::array();
        for (const ConformanceDeviation& d : r.deviations)
            all.push_back(deviationJson(d));
        j["deviations"] = std::move(all);
    }
    return j;
}

} // namespace orca::scene
