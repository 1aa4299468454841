#include "orca/ui/explain_text.hpp"

#include <algorithm>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "orca/ui/explain_geometry.hpp"

namespace orca::ui {

namespace {

// The fraction sign of a quarter share (UTF-8), or null.
const char* quarterSign(double share) {
    if (share == 0.25) return "\xC2\xBC"; // ¼
    if (share == 0.5) return "\xC2\xBD";  // ½
    if (share == 0.75) return "\xC2\xBE"; // ¾
    return nullptr;
}

// The share in prose, before "of u": "all", "none", "½", "0.6".
std::string shareWord(double share) {
    if (share == 1.0) return "all";
    if (share == 0.0) return "none";
    if (const char* q = quarterSign(share)) return q;
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.3g", share);
    return buf;
}

// Construction captions of an obstacle line: its VO (legs and cut-off of the segment seen
// from A within τo), the full u, the half-plane through v_A + u.
std::string obstacleCaption(const ExplainRecord& rec, const ExplainLine& l, int phase) {
    const std::string who = "obstacle #" + std::to_string(l.obstacle.slot) + " segment " +
                            std::to_string(l.segment) + ", " + std::string(toString(l.lineCase));
    const bool inside = voContains(l.vo, l.relativeVelocity);
    char buf[640];
    switch (phase) {
    case 0:
        if (l.vo.colliding)
            std::snprintf(buf, sizeof buf,
                          "1/3  VO of A induced by %s. A already overlaps the segment: "
                          "the line only pushes A out of it. Obstacles do not move, so "
                          "relative velocity = A's velocity v_A (yellow).",
                          who.c_str());
        else
            std::snprintf(
                buf, sizeof buf,
                "1/3  VO of A induced by %s: the velocities that bring A within its radius "
                "of the segment before tau_obst = %.3g s. Apex at the origin, legs tangent to "
                "the segment's end circles, cut off by the segment scaled by 1/tau_obst (with "
                "circles of radius r_A/tau_obst at its ends). Obstacles do not move: relative "
                "= absolute velocity, so v_A (yellow) is drawn as it is; it is %s the VO.",
                who.c_str(), rec.params.timeHorizonObst, inside ? "inside" : "outside");
        break;
    case 1:
        std::snprintf(buf, sizeof buf,
                      "2/3  u (white) = the smallest change of v_A that reaches the boundary "
                      "of the VO (%s), |u| = %.3g. The boundary's tangent there (dashed) is "
                      "perpendicular to u; A takes all of u, no half.",
                      std::string(toString(l.lineCase)).c_str(), length(l.u));
        break;
    default:
        // The core records share 1 for every obstacle line: the line goes through v_A + u.
        std::snprintf(buf, sizeof buf,
                      "3/3  Obstacles take the whole u: they do not move, so A alone must "
                      "avoid them. The half-plane in A's velocity space goes through v_A + %s "
                      "= (%.3g, %.3g) (no \xC2\xBD), along the VO's boundary there. Shaded "
                      "green = permitted side.",
                      shareOfU(l.share).c_str(), rec.velocity.x + l.u.x, rec.velocity.y + l.u.y);
        break;
    }
    return buf;
}

// Phase 3 of an agent line: the half-plane through v_A + share·u, and who takes which share.
std::string agentHalfPlaneCaption(const ExplainRecord& rec, const ExplainLine& l) {
    const std::string su = shareOfU(l.share);
    char buf[768];
    if (l.otherStatic) {
        std::snprintf(buf, sizeof buf,
                      "3/3  B is static: it never moves and builds no line of its own, so A "
                      "alone takes %s of u (staticResponsibility %g; %s). ORCA_A|B is the "
                      "half-plane in A's absolute velocity space through v_A + %s = (%.3g, "
                      "%.3g), perpendicular to u. Shaded green = permitted side (away from B's "
                      "VO; v_B = 0).",
                      shareWord(l.share).c_str(), l.share,
                      l.share < 1.0 ? "below 1, A can graze B" : "A avoids B fully", su.c_str(),
                      l.line.point.x, l.line.point.y);
    } else if (l.share != l.otherShare) {
        // Avoidance weights: the two agents take different shares of the same u.
        const double together = l.share + l.otherShare;
        const std::string bs = shareOfU(l.otherShare);
        std::string why;
        if (l.share == 0.0)
            why = " A's weight 0 never yields to B: its line passes through v_A itself, B "
                  "avoids for both.";
        else if (l.otherShare == 0.0)
            why = " B's weight 0 never yields to A: A avoids for both.";
        std::snprintf(buf, sizeof buf,
                      "3/3  Avoidance weights %g : %g, so A takes %s of u and B takes %s "
                      "(together %s).%s ORCA_A|B is the half-plane in A's absolute velocity "
                      "space through v_A + %s = (%.3g, %.3g), perpendicular to u. Shaded green "
                      "= permitted side (away from B's VO, translated by v_B). B builds its own "
                      "line through v_B - %s.",
                      rec.params.avoidanceWeight, l.otherWeight, shareWord(l.share).c_str(),
                      shareWord(l.otherShare).c_str(),
                      together > 1.0 + 1e-12   ? "more than u, a margin"
                      : together < 1.0 - 1e-12 ? "less than u, so they can still collide"
                                               : "exactly u",
                      why.c_str(), su.c_str(), l.line.point.x, l.line.point.y, bs.c_str());
    } else if (l.share == 0.5) {
        // RVO2's reciprocity, in the words the articles use.
        std::snprintf(buf, sizeof buf,
                      "3/3  Each agent takes half the responsibility: ORCA_A|B is the "
                      "half-plane in A's absolute velocity space through v_A + %s = (%.3g, "
                      "%.3g), perpendicular to u. Shaded green = permitted side (away from B's "
                      "VO, translated by v_B). B builds the mirror image with -%s.",
                      su.c_str(), l.line.point.x, l.line.point.y, su.c_str());
    } else {
        std::snprintf(buf, sizeof buf,
                      "3/3  Each agent takes %s of u (responsibility %g; together %s): "
                      "ORCA_A|B is the half-plane in A's absolute velocity space through v_A + "
                      "%s = (%.3g, %.3g), perpendicular to u. Shaded green = permitted side "
                      "(away from B's VO, translated by v_B). B builds the mirror image with "
                      "-%s.",
                      shareWord(l.share).c_str(), l.share,
                      l.share > 0.5 ? "more than u, a margin"
                                    : "less than u, so they can still collide",
                      su.c_str(), l.line.point.x, l.line.point.y, su.c_str());
    }
    return buf;
}

std::string agentCaption(const ExplainRecord& rec, const ExplainLine& l, int phase) {
    const std::string who = formatAgentId(l.otherAgent);
    const bool inside = voContains(l.vo, l.relativeVelocity);
    char buf[640];
    switch (phase) {
    case 0:
        if (l.vo.colliding)
            std::snprintf(
                buf, sizeof buf,
                "1/3  VO of A induced by B (agent %s) in relative velocity space v_A - v_B. "
                "The agents already overlap, so the VO is the disk of time step dt: centre "
                "(p_B - p_A)/dt, radius (r_A + r_B)/dt. v_A - v_B (white) is %s it.",
                who.c_str(), inside ? "inside" : "outside");
        else
            std::snprintf(
                buf, sizeof buf,
                "1/3  VO of A induced by B (agent %s) in relative velocity space v_A - v_B: "
                "the relative velocities that bring B's disk within reach before tau = %.3g s. "
                "Apex at the origin, legs tangent to the disk D(p_B - p_A, r_A + r_B), cut off "
                "by the circle centred (p_B - p_A)/tau of radius (r_A + r_B)/tau. "
                "v_A - v_B (yellow) is %s: %s.",
                who.c_str(), rec.params.timeHorizon, inside ? "inside" : "outside",
                inside ? "they collide within tau unless someone changes course"
                       : "no collision within tau at current velocities");
        break;
    case 1:
        std::snprintf(buf, sizeof buf,
                      "2/3  u (white) = the smallest change of v_A - v_B that reaches the VO "
                      "boundary (%s case), |u| = %.3g. %s The boundary's tangent there "
                      "(dashed) is perpendicular to u.",
                      std::string(toString(l.lineCase)).c_str(), length(l.u),
                      inside ? "From inside, u points out of the VO."
                             : "From outside, u points to the VO: A could change that much "
                               "toward B and still not collide.");
        break;
    default:
        return agentHalfPlaneCaption(rec, l);
    }
    return buf;
}

} // namespace

std::string formatAgentId(AgentId id) {
    char buf[32];
    if (id.isNull()) return "#none";
    if (id.generation == 0)
        std::snprintf(buf, sizeof buf, "#%" PRIu32, id.slot);
    else
        std::snprintf(buf, sizeof buf, "#%" PRIu32 ":%" PRIu32, id.slot, id.generation);
    return buf;
}

std::string shareCoefficient(double share) {
    if (share == 1.0) return {};
    if (share == 0.0) return "0\xC2\xB7"; // 0·u
    if (const char* q = quarterSign(share)) return q;
    return shareWord(share) + "\xC2\xB7"; // ·
}

std::string shareOfU(double share) {
    return shareCoefficient(share) + "u";
}

std::string describeLine(const ExplainRecord& rec, int line, std::string_view neighborName) {
    if (line < 0 || static_cast<std::size_t>(line) >= rec.lines.size()) return {};
    const ExplainLine& l = rec.lines[static_cast<std::size_t>(line)];
    const bool obstacle = isObstacleCase(l.lineCase);
    std::string out = "line " + std::to_string(line) + ": ";
    if (!neighborName.empty()) {
        out += neighborName;
    } else if (obstacle) {
        out += "obstacle #" + std::to_string(l.obstacle.slot) + " segment " +
               std::to_string(l.segment);
    } else {
        out += "agent " + formatAgentId(l.otherAgent);
    }
    out += " \xC2\xB7 ";
    out += toString(l.lineCase);
    out += " \xC2\xB7 ";
    if (l.otherStatic) out += "static neighbour, ";
    out += "A takes " + shareOfU(l.share);
    if (!obstacle && !l.otherStatic && l.otherShare != l.share)
        out += ", B " + shareOfU(l.otherShare); // avoidance weights
    char buf[160];
    std::snprintf(buf, sizeof buf, " \xC2\xB7 distance %.3g", l.distance);
    out += buf;
    if (std::isinf(l.timeToCollision))
        out += " \xC2\xB7 time to collision \xE2\x88\x9E"; // ∞
    else if (l.timeToCollision <= 0.0)
        out += " \xC2\xB7 time to collision 0 s (overlapping)";
    else {
        std::snprintf(buf, sizeof buf, " \xC2\xB7 time to collision %.3g s", l.timeToCollision);
        out += buf;
    }
    // Below 1e-9 (velocity units) v_new is on the line: LP1 puts it there up to rounding.
    if (l.violation > 1e-9)
        std::snprintf(buf, sizeof buf, " \xC2\xB7 v_new violates it by %.3g", l.violation);
    else if (l.violation < -1e-9)
        std::snprintf(buf, sizeof buf, " \xC2\xB7 v_new satisfies it (margin %.3g)", -l.violation);
    else
        std::snprintf(buf, sizeof buf, " \xC2\xB7 v_new is on it");
    out += buf;
    if (rec.lp2Failed() && static_cast<std::size_t>(line) == rec.lp2Fail)
        out += " \xC2\xB7 LP2 failed here";
    return out;
}

std::vector<std::string> summaryLines(const ExplainRecord& rec) {
    std::vector<std::string> out;
    char buf[200];
    std::snprintf(buf, sizeof buf, "Agent %s, step %" PRIu64, formatAgentId(rec.agent).c_str(),
                  rec.step);
    out.emplace_back(buf);
    if (rec.isStatic) {
        out.emplace_back("static agent: decides nothing (v_new = 0)");
        return out;
    }
    const std::size_t agentLines = rec.lines.size() - rec.numObstacleLines;
    std::snprintf(buf, sizeof buf, "%zu half-planes: %zu obstacle, %zu agent", rec.lines.size(),
                  rec.numObstacleLines, agentLines);
    out.emplace_back(buf);
    if (rec.lp2Failed()) {
        std::snprintf(buf, sizeof buf, "infeasible: LP2 failed at line %zu, LP3 ran", rec.lp2Fail);
        out.emplace_back(buf);
        std::snprintf(buf, sizeof buf, "LP3 depth %.4g (largest violation of an agent line)",
                      rec.lp3Depth);
        out.emplace_back(buf);
    } else {
        std::snprintf(buf, sizeof buf, "feasible: LP2 found v_new (region: %zu vertices)",
                      rec.feasibleRegion.size());
        out.emplace_back(buf);
    }
    std::snprintf(buf, sizeof buf, "|v| %.3g  |v_pref| %.3g  |v_new| %.3g  (max %.3g)",
                  length(rec.velocity), length(rec.prefVelocity), length(rec.newVelocity),
                  rec.params.maxSpeed);
    out.emplace_back(buf);
    return out;
}

std::string constructionCaption(const ExplainRecord& rec, int line, int phase) {
    if (line < 0 || static_cast<std::size_t>(line) >= rec.lines.size()) return {};
    const ExplainLine& l = rec.lines[static_cast<std::size_t>(line)];
    phase = std::clamp(phase, 0, ConstructionState::kPhases - 1);
    // The walk's split (constructionGeometry): the first numObstacleLines lines are obstacles'.
    if (static_cast<std::size_t>(line) < rec.numObstacleLines)
        return obstacleCaption(rec, l, phase);
    return agentCaption(rec, l, phase);
}

std::string uArrowLegend(const ExplainRecord& rec) {
    std::vector<double> shares;
    for (std::size_t i = rec.numObstacleLines; i < rec.lines.size(); ++i)
        if (!isObstacleCase(rec.lines[i].lineCase)) shares.push_back(rec.lines[i].share);
    if (shares.empty()) shares.push_back(ExplainLine{}.share);
    std::sort(shares.begin(), shares.end());
    shares.erase(std::unique(shares.begin(), shares.end()), shares.end());
    std::string out = "v -> ";
    for (std::size_t k = 0; k < shares.size(); ++k) {
        if (k > 0) out += " or ";
        out += "v+" + shareOfU(shares[k]);
    }
    return out;
}

} // namespace orca::ui
