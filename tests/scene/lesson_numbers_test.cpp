// Numbers the lessons state about their scenes, checked against the core: a lesson whose scene
// changes must change its words too (issue 26, "lesson numbers that cannot drift"). Each check
// takes what the text claims and recomputes it from the lesson's own scene (explain records:
// distances and times to collision).
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>

#include <gtest/gtest.h>

#include "orca/scene/lesson.hpp"
#include "orca/simulator.hpp"

namespace orca::lesson {
namespace {

namespace fs = std::filesystem;
using scene::Scene;

Lesson lessonFile(const std::string& name) {
    return loadLesson(fs::path(ORCA_SOURCE_DIR) / "lessons" / name).lesson;
}

/// "%.1f" of v: how the lessons write "about 2.7 s".
std::string oneDecimal(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.1f", v);
    return buf;
}

bool contains(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

/// Agent 0's explain line toward agent 1 at the scene's start, with agent 0 seeing as far as
/// `neighborDist` (a copy: the lesson's own run is not changed).
ExplainLine lineTowardB(const Scene& scene, double neighborDist) {
    Scene seeing = scene;
    seeing.agents[0].overrides.neighborDist = neighborDist;
    const Simulator sim = scene::buildSimulator(seeing);
    const ExplainRecord rec = sim.explain(sim.agentIdAt(0));
    for (const ExplainLine& l : rec.lines)
        if (l.otherAgent == sim.agentIdAt(1)) return l;
    ADD_FAILURE() << "agent 0 does not see agent 1";
    return {};
}

TEST(LessonNumbers, Lesson1TouchTime) {
    const Lesson l = lessonFile("01_vo_one_neighbor.json");
    const ExplainLine b = lineTowardB(l.scene, 100.0);
    // A and B keep their velocities: they touch after the core's time to collision.
    EXPECT_NEAR(b.timeToCollision, 2.7, 1e-9);
    EXPECT_TRUE(
        contains(l.pages[0].text, "touch after about " + oneDecimal(b.timeToCollision) + " s"))
        << l.pages[0].text;
}

TEST(LessonNumbers, Lesson10NeighborDist) {
    const Lesson l = lessonFile("10_parameter_pitfalls.json");
    const std::string& text = l.pages[0].text;
    const Scene& s = l.scene;
    const AgentParams a = s.resolvedParams(s.agents[0]);
    const AgentParams b = s.resolvedParams(s.agents[1]);
    const Vec2 offset = s.agents[1].position - s.agents[0].position;
    const double closing = length(*s.agents[0].velocity - *s.agents[1].velocity);
    EXPECT_TRUE(contains(text, "B (#1) is " + std::to_string(int(std::lround(length(offset)))) +
                                   " away and closing at " +
                                   std::to_string(int(std::lround(closing))) + " units/s"));
    // Both keep their velocities (head-on along x, B offset in y): the centre distance when the
    // time to collision is t is |(dx(t), offset.y)| with dx shrinking at `closing`.
    const ExplainLine line = lineTowardB(s, 100.0);
    const double ttc0 = line.timeToCollision;
    auto distanceAt = [&](double timeToCollision) {
        const double dx = offset.x - closing * (ttc0 - timeToCollision);
        return std::hypot(dx, offset.y);
    };
    // "they would touch within τ only once they are about D apart"
    EXPECT_TRUE(contains(text, "within \xCF\x84 = " + oneDecimal(a.timeHorizon).substr(0, 1) +
                                   " s only once they are about " +
                                   oneDecimal(distanceAt(a.timeHorizon)) + " apart"))
        << text << "\n(expected " << distanceAt(a.timeHorizon) << ")";
    // "A will not see B before they are neighborDist apart, about T s before impact"
    const double seenDx = std::sqrt(a.neighborDist * a.neighborDist - offset.y * offset.y);
    const double seenBefore = ttc0 - (offset.x - seenDx) / closing;
    EXPECT_TRUE(contains(text, "before they are " + oneDecimal(a.neighborDist).substr(0, 1) +
                                   " apart, about " + oneDecimal(seenBefore) + " s before impact"))
        << text << "\n(expected " << seenBefore << ")";
    // The rule of thumb, followed, passes the page's own task (A sees B at the start).
    const std::string& rule = l.pages[0].text;
    const double thumb = 2.0 * a.maxSpeed * a.timeHorizon + a.radius + b.radius;
    EXPECT_TRUE(contains(rule, "= " + std::to_string(int(std::lround(thumb))) + ")")) << rule;
    EXPECT_GT(thumb, length(offset));
    ASSERT_TRUE(l.pages[0].task.has_value());
}

} // namespace
} // namespace orca::lesson
