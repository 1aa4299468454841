#include "orca/scene/diagnosis_json.hpp"

#include <cmath>
#include <string>

#include "orca/scene/explain_json.hpp"
#include "orca/scene/fixes.hpp"

namespace orca {

namespace {

using Json = nlohmann::ordered_json;

} // namespace

Json toJson(const BindingConstraint& b) {
    Json j;
    j["line"] = b.lineIndex;
    if (b.source == ConstraintSource::Obstacle) {
        j["source"] = "obstacle";
        j["obstacle"] = b.obstacle ? Json(*b.obstacle) : Json(nullptr);
        j["segment"] = b.segment;
    } else {
        j["source"] = "agent";
        j["agent"] = b.agent ? Json(*b.agent) : Json(nullptr);
        j["static"] = b.agentStatic;
    }
    j["case"] = std::string(toString(b.lineCase));
    j["slack"] = b.slack;
    j["point"] = toJson(b.line.point);
    j["direction"] = toJson(b.line.direction);
    j["distance"] = b.distance;
    j["timeToCollision"] = finiteOrNull(b.timeToCollision);
    return j;
}

Json toJson(const Diagnosis& d) {
    Json j;
    j["agent"] = d.agent;
    j["step"] = d.step;
    j["class"] = std::string(toString(d.cls));
    j["sentence"] = d.sentence;
    j["suggestion"] = d.suggestion;
    Json binding = Json::array();
    for (const BindingConstraint& b : d.binding)
        binding.push_back(toJson(b));
    j["binding"] = std::move(binding);
    j["speedLimitBinding"] = d.speedLimitBinding;
    j["responsibleAgents"] = d.responsibleAgents;
    j["responsibleObstacles"] = d.responsibleObstacles;
    j["suggestedValue"] = finiteOrNull(d.suggestedValue);
    j["suggestedAgent"] = d.suggestedAgent ? Json(*d.suggestedAgent) : Json(nullptr);
    j["suggestedGoal"] = d.suggestedGoal ? toJson(*d.suggestedGoal) : Json(nullptr);
    j["waypoints"] = toJsonPoints(d.waypoints);
    j["suggestedParameter"] =
        d.suggestedParameter.empty() ? Json(nullptr) : Json(d.suggestedParameter);
    Json fixes = Json::array();
    for (const DiagnosisFix& f : d.fixes)
        fixes.push_back(scene::toJson(f));
    j["fixes"] = std::move(fixes);

    Json m;
    m["position"] = toJson(d.position);
    m["velocity"] = toJson(d.velocity);
    m["prefVelocity"] = toJson(d.prefVelocity);
    m["newVelocity"] = toJson(d.newVelocity);
    m["prefSpeed"] = d.prefSpeed;
    m["speed"] = d.speed;
    m["progress"] = finiteOrNull(d.progress);
    m["deviation"] = finiteOrNull(d.deviation);
    m["lp3"] = d.lp3;
    m["lp3Depth"] = d.lp3Depth;
    m["windowDecisions"] = d.windowDecisions;
    m["lp3Fraction"] = d.lp3Fraction;
    m["detourFraction"] = d.detourFraction;
    m["meanSpeed"] = finiteOrNull(d.meanSpeed);
    m["neighborCount"] = d.neighborCount;
    m["maxNeighbors"] = d.maxNeighbors;
    m["agentsInRange"] = d.agentsInRange;
    m["truncationVelocity"] = d.truncationVelocity ? toJson(*d.truncationVelocity) : Json(nullptr);
    m["minTimeToCollision"] = finiteOrNull(d.minTimeToCollision);
    m["goalDistance"] = finiteOrNull(d.goalDistance);
    m["goalRadius"] = finiteOrNull(d.goalRadius);
    m["predictedClosest"] = finiteOrNull(d.predictedClosest);
    m["stalledSeconds"] = d.stalledSeconds;
    m["gapWidth"] = finiteOrNull(d.gapWidth);
    m["gapCenter"] = std::isfinite(d.gapWidth) ? toJson(d.gapCenter) : Json(nullptr);
    j["measures"] = std::move(m);
    return j;
}

} // namespace orca
