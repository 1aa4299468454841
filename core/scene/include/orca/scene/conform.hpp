#pragma once
/// \file conform.hpp
/// The conformance check of a whole recorded run (`orca conform`, docs/conformance.md): a
/// recording or a trajectory CSV with its scene, frame by frame through orca::ConformanceChecker,
/// and the report as JSON.
#include <nlohmann/json.hpp>

#include "orca/conformance.hpp"
#include "orca/scene/recording.hpp"

namespace orca::scene {

/// The report and, for its first deviation, the explain record of that decision (JSON, agents
/// named by index), or null.
struct ConformanceResult {
    ConformanceReport report;
    nlohmann::ordered_json firstExplain;
};

/// The tolerance a run gets by default: kFloatConformanceTolerance when its numbers are float
/// (a float32 recording, or a trajectory CSV whose every number is a float: a program that holds
/// its state in float, as RVO2 does), else kExactConformanceTolerance.
[[nodiscard]] double defaultTolerance(const Recording& run);

/// Checks every frame of `run` (its scenes give the configurations: a trajectory CSV's loader
/// leaves them empty, so put the scene file's in first). Throws SceneError when a scene cannot
/// be built, std::invalid_argument for a frame that does not fit its scene.
[[nodiscard]] ConformanceResult
checkConformance(const Recording& run, const ConformanceOptions& options, int threads = 1);

/// `orca conform`'s JSON: {"steps", "agents", "checkedAgentSteps", "deviatingAgentSteps",
/// "maxDifference", "tolerance", "precision" ("float32" | "float64"), "conforms",
/// "uncheckedFrames", "firstDeviation": null | {"step", "agent", "recorded", "orca", "difference",
/// "explain"}, "prefVelocityMismatches": {...}} and, with keepAll, "deviations": [...].
[[nodiscard]] nlohmann::ordered_json toJson(const ConformanceResult& result,
                                            const ConformanceOptions& options,
                                            RecordingEncoding precision);

} // namespace orca::scene
