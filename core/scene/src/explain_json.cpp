#include "orca/scene/explain_json.hpp"

#include <cmath>
#include <string>

namespace orca {

namespace {

using Json = nlohmann::ordered_json;

Json agentIndex(const Simulator& sim, AgentId id) {
    const auto i = sim.indexOf(id);
    return i ? Json(*i) : Json(nullptr);
}

Json obstacleIndex(const Simulator& sim, ObstacleId id) {
    for (std::size_t i = 0; i < sim.obstacleCount(); ++i)
        if (sim.obstacleIdAt(i) == id) return Json(i);
    return Json(nullptr);
}

Json paramsJson(const AgentParams& p) {
    Json j;
    j["radius"] = p.radius;
    j["maxSpeed"] = p.maxSpeed;
    j["prefSpeed"] = p.prefSpeed;
    j["neighborDist"] = p.neighborDist;
    j["maxNeighbors"] = p.maxNeighbors;
    j["timeHorizon"] = p.timeHorizon;
    j["timeHorizonObst"] = p.timeHorizonObst;
    j["goalRadius"] = effectiveGoalRadius(p);
    return j;
}

const char* failureName(Lp1Failure f) {
    switch (f) {
    case Lp1Failure::None:
        return "none";
    case Lp1Failure::Disk:
        return "disk";
    case Lp1Failure::Parallel:
        return "parallel";
    case Lp1Failure::Empty:
        return "empty";
    }
    return "none";
}

Json interval(double left, double right) {
    if (std::isnan(left) || std::isnan(right)) return Json(nullptr);
    return Json::array({finiteOrNull(left), finiteOrNull(right)});
}

Json nanToNull(double v) {
    return std::isnan(v) ? Json(nullptr) : finiteOrNull(v);
}

Json lp1Json(const Lp1Trace& t) {
    Json j;
    j["disk"] = interval(t.diskLeft, t.diskRight);
    Json clips = Json::array();
    for (const Lp1Clip& c : t.clips) {
        Json e;
        e["line"] = c.line;
        e["bound"] = c.parallel ? "parallel" : (c.right ? "right" : "left");
        e["at"] = nanToNull(c.at);
        e["interval"] = interval(c.tLeft, c.tRight);
        clips.push_back(std::move(e));
    }
    j["clips"] = std::move(clips);
    j["interval"] = interval(t.tLeft, t.tRight);
    j["tProjected"] = nanToNull(t.tProjected);
    j["t"] = nanToNull(t.t);
    j["failure"] = t.ok() ? Json(nullptr) : Json(failureName(t.failure));
    return j;
}

Json lp2StepsJson(const Lp2Trace& t) {
    Json steps = Json::array();
    for (const Lp2Step& s : t.steps) {
        Json e;
        e["line"] = s.line;
        e["before"] = toJson(s.before);
        e["violation"] = s.violation;
        e["held"] = s.held;
        if (!s.held) e["lp1"] = lp1Json(s.lp1);
        e["after"] = toJson(s.after);
        steps.push_back(std::move(e));
    }
    return steps;
}

Json lpTraceJson(const LpTrace& t) {
    Json j;
    j["lp2Start"] = toJson(t.lp2.start);
    j["lp2"] = lp2StepsJson(t.lp2);
    // On failure the failing line is the last step; on success failIndex == steps.size().
    j["lp2FailIndex"] =
        t.lp2.failIndex < t.lp2.steps.size() ? Json(t.lp2.failIndex) : Json(nullptr);
    j["lp2Result"] = toJson(t.lp2.result);
    j["bisectorWeight"] = t.bisectorWeight;
    Json lp3 = Json::array();
    for (const Lp3Step& s : t.lp3) {
        Json e;
        e["line"] = s.line;
        e["before"] = toJson(s.before);
        e["distanceBefore"] = s.distanceBefore;
        e["violation"] = s.violation;
        e["rebuilt"] = s.rebuilt;
        if (s.rebuilt) {
            Json projected = Json::array();
            for (const Lp3ProjectedLine& p : s.projected) {
                Json pe;
                pe["from"] = p.source;
                pe["kind"] = p.obstacle ? "obstacle" : (p.parallel ? "midway" : "bisector");
                pe["point"] = toJson(p.line.point);
                pe["direction"] = toJson(p.line.direction);
                projected.push_back(std::move(pe));
            }
            e["projected"] = std::move(projected);
            Json inner;
            inner["direction"] = toJson(s.inner.optVelocity);
            inner["start"] = toJson(s.inner.start);
            inner["steps"] = lp2StepsJson(s.inner);
            inner["failIndex"] = s.innerFailed ? Json(s.inner.failIndex) : Json(nullptr);
            inner["result"] = toJson(s.inner.result);
            e["inner"] = std::move(inner);
        }
        e["after"] = toJson(s.after);
        e["distance"] = s.distance;
        lp3.push_back(std::move(e));
    }
    j["lp3"] = std::move(lp3);
    j["lp3Distance"] = t.lp3Distance;
    j["binding"] = t.binding;
    j["result"] = toJson(t.result);
    return j;
}

} // namespace

Json finiteOrNull(double v) {
    return std::isfinite(v) ? Json(v) : Json(nullptr);
}

Json toJson(Vec2 v) {
    return Json::array({finiteOrNull(v.x), finiteOrNull(v.y)});
}

Json toJsonPoints(std::span<const Vec2> points) {
    Json out = Json::array();
    for (Vec2 p : points)
        out.push_back(toJson(p));
    return out;
}

Json toJson(const VelocityObstacle& vo) {
    Json j;
    j["colliding"] = vo.colliding;
    if (!vo.colliding) {
        j["leftLeg"] = toJson(vo.leftLeg);
        j["rightLeg"] = toJson(vo.rightLeg);
    }
    j["cutoffCenter"] = toJson(vo.cutoffCenter);
    if (vo.cutoffCenter2 != vo.cutoffCenter) j["cutoffCenter2"] = toJson(vo.cutoffCenter2);
    j["cutoffRadius"] = vo.cutoffRadius;
    j["offset"] = toJson(vo.offset);
    return j;
}

Json toJson(const ExplainRecord& rec, const Simulator& sim) {
    Json j;
    j["agent"] = agentIndex(sim, rec.agent);
    j["step"] = rec.step;
    j["static"] = rec.isStatic;
    j["position"] = toJson(rec.position);
    j["velocity"] = toJson(rec.velocity);
    j["prefVelocity"] = toJson(rec.prefVelocity);
    j["params"] = paramsJson(rec.params);

    Json neighbors = Json::array();
    for (const ExplainAgentNeighbor& n : rec.agentNeighbors) {
        Json e;
        e["agent"] = agentIndex(sim, n.id);
        e["distance"] = std::sqrt(n.distSq);
        neighbors.push_back(std::move(e));
    }
    j["neighbors"] = std::move(neighbors);

    Json obstacles = Json::array();
    for (const ExplainObstacleNeighbor& o : rec.obstacleNeighbors) {
        Json e;
        e["obstacle"] = obstacleIndex(sim, o.obstacle);
        e["segment"] = o.segment;
        e["distance"] = std::sqrt(o.distSq);
        e["outcome"] = std::string(toString(o.outcome));
        e["line"] = o.lineIndex >= 0 ? Json(o.lineIndex) : Json(nullptr);
        if (o.hasVo) e["vo"] = toJson(o.vo);
        obstacles.push_back(std::move(e));
    }
    j["obstacleNeighbors"] = std::move(obstacles);

    Json lines = Json::array();
    for (std::size_t k = 0; k < rec.lines.size(); ++k) {
        const ExplainLine& l = rec.lines[k];
        Json e;
        e["index"] = k;
        e["case"] = std::string(toString(l.lineCase));
        if (isObstacleCase(l.lineCase)) {
            e["obstacle"] = obstacleIndex(sim, l.obstacle);
            e["segment"] = l.segment;
        } else {
            e["neighbor"] = agentIndex(sim, l.otherAgent);
        }
        e["point"] = toJson(l.line.point);
        e["direction"] = toJson(l.line.direction);
        e["u"] = toJson(l.u);
        e["share"] = l.share;
        if (!isObstacleCase(l.lineCase)) {
            e["neighborShare"] = l.otherShare;
            e["neighborWeight"] = l.otherWeight;
        }
        e["relativeVelocity"] = toJson(l.relativeVelocity);
        e["distance"] = l.distance;
        e["timeToCollision"] = finiteOrNull(l.timeToCollision);
        e["violation"] = l.violation;
        e["vo"] = toJson(l.vo);
        lines.push_back(std::move(e));
    }
    j["numObstacleLines"] = rec.numObstacleLines;
    j["lines"] = std::move(lines);

    j["feasibleRegion"] = toJsonPoints(rec.feasibleRegion);
    j["lp2FailIndex"] = rec.lp2Failed() ? Json(rec.lp2Fail) : Json(nullptr);
    j["lp2Velocity"] = toJson(rec.lp2Velocity);
    j["lp3"] = rec.lp3Ran;
    j["lp3Depth"] = rec.lp3Depth;
    j["newVelocity"] = toJson(rec.newVelocity);
    if (rec.detour.enabled) {
        const ExplainDetour& d = rec.detour;
        Json dj;
        dj["mode"] = std::string(toString(d.mode));
        dj["nextMode"] = std::string(toString(d.nextMode));
        dj["reason"] = std::string(toString(d.reason));
        dj["goalPrefVelocity"] = toJson(d.goalPrefVelocity);
        if (d.sampleRadius > 0.0) {
            dj["samplePoint"] = toJson(d.samplePoint);
            dj["sampleRadius"] = d.sampleRadius;
            dj["sampledDirection"] = toJson(d.sampledDirection);
            dj["usedFallback"] = d.usedFallback;
        }
        j["detour"] = std::move(dj);
    }
    if (rec.lpTrace) j["lpTrace"] = lpTraceJson(*rec.lpTrace);
    return j;
}

} // namespace orca
