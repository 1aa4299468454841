// `orca events` driven as a real process: overlap and obstacle-penetration events must agree
// exactly with a brute-force check of `orca run --trajectory` on the same steps; filters,
// stopping rule, usage errors and the run summary's event fields.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "cli/cli_fixture.hpp"

#include "orca/events.hpp"
#include "orca/geometry.hpp"
#include "orca/scene/events_json.hpp"
#include "orca/scene/scene.hpp"

namespace {

namespace fs = std::filesystem;
using Json = nlohmann::ordered_json;
using orca::Event;
using orca::EventKind;
using orca::Vec2;

using orca::testing::readFile;
using orca::testing::Result;

class EventsCli : public orca::testing::CliFixture {
  protected:
    /// `orca events ARGS`, parsed (fails the test on a non-zero exit).
    std::vector<Event> events(const std::string& args) {
        const Result r = orca("events " + args);
        EXPECT_EQ(r.code, 0) << r.err;
        std::vector<Event> out;
        if (r.code != 0) return out;
        for (const Json& j : Json::parse(r.out))
            out.push_back(orca::eventFromJson(j));
        return out;
    }
};

/// Per step, per agent: the positions of a trajectory CSV (step,agent,x,y,vx,vy).
std::vector<std::vector<Vec2>> readTrajectory(const fs::path& file) {
    std::vector<std::vector<Vec2>> steps;
    std::ifstream in(file, std::ios::binary);
    std::string line;
    std::getline(in, line); // header
    while (std::getline(in, line)) {
        std::array<double, 6> v{};
        const char* p = line.data();
        const char* end = line.data() + line.size();
        for (double& x : v) {
            const auto r = std::from_chars(p, end, x);
            p = r.ptr + 1; // skip the comma
        }
        const auto step = static_cast<std::size_t>(v[0]);
        const auto agent = static_cast<std::size_t>(v[1]);
        if (steps.size() <= step) steps.resize(step + 1);
        if (steps[step].size() <= agent) steps[step].resize(agent + 1);
        steps[step][agent] = {v[2], v[3]};
    }
    return steps;
}

/// Depth of the disk (p, r) in a polygon (2 vertices = a segment), brute force over every
/// edge, or negative when they do not intersect: dist = sqrt(min distSqPointSegment), inside
/// by the crossing-number rule; inside => r + dist, else dist < r => r - dist.
double depthIn(const std::vector<Vec2>& poly, Vec2 p, double r) {
    double d2 = 1e300;
    bool inside = false;
    if (poly.size() == 2) {
        d2 = orca::distSqPointSegment(poly[0], poly[1], p);
    } else {
        for (std::size_t k = 0; k < poly.size(); ++k) {
            const Vec2 prev = poly[(k + poly.size() - 1) % poly.size()];
            const Vec2 cur = poly[k];
            d2 = std::min(d2, orca::distSqPointSegment(prev, cur, p));
            if ((cur.y > p.y) != (prev.y > p.y) &&
                p.x < (prev.x - cur.x) * (p.y - cur.y) / (prev.y - cur.y) + cur.x)
                inside = !inside;
        }
    }
    const double d = std::sqrt(d2);
    return inside ? r + d : (d < r ? r - d : -1.0);
}

/// Overlap and penetration events of a trajectory, by brute force: every pair of agents
/// (except two static ones) and every (agent, obstacle) at every step.
std::vector<Event> bruteForce(const orca::scene::Scene& sc,
                              const std::vector<std::vector<Vec2>>& traj) {
    const std::size_t n = sc.agents.size();
    std::vector<double> radius(n);
    std::vector<bool> isStatic(n);
    for (std::size_t i = 0; i < n; ++i) {
        radius[i] = sc.resolvedParams(sc.agents[i]).radius;
        isStatic[i] = sc.agents[i].isStatic;
    }
    std::map<std::pair<std::uint32_t, std::uint32_t>, double> open; // pair -> deepest
    std::set<std::pair<std::uint32_t, std::uint32_t>> contacts;     // (agent, obstacle)
    std::vector<Event> out;
    for (std::size_t s = 0; s < traj.size(); ++s) {
        const std::vector<Vec2>& pos = traj[s];
        std::vector<Event> step;
        auto add = [&](EventKind kind, std::vector<std::uint32_t> agents, double value,
                       std::optional<std::uint32_t> obstacle = std::nullopt) {
            Event e;
            e.step = s;
            e.kind = kind;
            e.agents = std::move(agents);
            e.obstacle = obstacle;
            e.value = value;
            step.push_back(std::move(e));
        };
        std::map<std::pair<std::uint32_t, std::uint32_t>, double> now;
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t j = i + 1; j < n; ++j) {
                if (isStatic[i] && isStatic[j]) continue;
                const double dx = pos[j].x - pos[i].x;
                const double dy = pos[j].y - pos[i].y;
                const double c = std::sqrt(dx * dx + dy * dy) - radius[i] - radius[j];
                if (c < 0.0) now[{i, j}] = -c;
            }
        for (auto it = open.begin(); it != open.end();) {
            const auto found = now.find(it->first);
            if (found == now.end()) {
                add(EventKind::OverlapEnd, {it->first.first, it->first.second}, it->second);
                it = open.erase(it);
            } else {
                it->second = std::max(it->second, found->second);
                ++it;
            }
        }
        for (const auto& [pair, depth] : now)
            if (open.emplace(pair, depth).second)
                add(EventKind::OverlapBegin, {pair.first, pair.second}, depth);
        std::set<std::pair<std::uint32_t, std::uint32_t>> touching;
        for (std::uint32_t i = 0; i < n; ++i)
            for (std::uint32_t o = 0; o < sc.obstacles.size(); ++o) {
                const double depth = depthIn(sc.obstacles[o].vertices, pos[i], radius[i]);
                if (depth < 0.0) continue;
                touching.insert({i, o});
                if (!contacts.count({i, o})) add(EventKind::ObstaclePenetration, {i}, depth, o);
            }
        contacts = std::move(touching);
        std::sort(step.begin(), step.end(), [](const Event& a, const Event& b) {
            if (a.kind != b.kind) return a.kind < b.kind;
            if (a.agents != b.agents) return a.agents < b.agents;
            return a.obstacle < b.obstacle;
        });
        out.insert(out.end(), step.begin(), step.end());
    }
    return out;
}

/// A scene whose agents start in and against obstacles (a square, a thin wall, a triangle),
/// in a crowd crossing them: penetrations at step 0 and whatever the run adds.
std::string penetrationScene() {
    Json agents = Json::array();
    const int n = 40;
    for (int k = 0; k < n; ++k) {
        const double a = 2.0 * 3.141592653589793 * k / n + 0.003 * k;
        agents.push_back({{"position", {12.0 * std::cos(a), 12.0 * std::sin(a)}},
                          {"goal", {-12.0 * std::cos(a), -12.0 * std::sin(a)}}});
    }
    agents.push_back({{"position", {0.2, 0.1}}, {"goal", {20, 0}}});    // inside the square
    agents.push_back({{"position", {6.3, -3}}, {"goal", {-20, 0}}});    // against the wall
    agents.push_back({{"position", {-6, 3.9}}, {"goal", {-6, -20}}});   // inside the triangle
    agents.push_back({{"position", {1.5, 1.5}}, {"goal", {1.5, 1.5}}}); // off a corner
    agents.push_back({{"position", {-1.3, 0}}, {"static", true}});      // static, touching
    Json sc = {{"format", "orca-scene"},
               {"version", 1},
               {"name", "Penetrations"},
               {"simulation", {{"timeStep", 0.1}}},
               {"agentDefaults",
                {{"radius", 0.6},
                 {"maxSpeed", 2},
                 {"prefSpeed", 1.5},
                 {"neighborDist", 6},
                 {"maxNeighbors", 10},
                 {"timeHorizon", 2},
                 {"timeHorizonObst", 0.5}}},
               {"agents", agents},
               {"obstacles",
                {{{"vertices", {{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}}},
                 {{"vertices", {{6, -4}, {6, 4}}}},
                 {{"vertices", {{-7, 3}, {-5, 3}, {-6, 5}}}}}}};
    return sc.dump(1);
}

TEST_F(EventsCli, OverlapsAndPenetrationsMatchABruteForceCheckOfTheTrajectory) {
    const fs::path pen = m_dir / "penetrations.json";
    std::ofstream(pen, std::ios::binary) << penetrationScene();
    struct Case {
        std::string file;
        int steps;
    };
    const std::vector<Case> cases{
        {scene("circle.json"), 1000},      {scene("dense_convergence.json"), 800},
        {scene("blocks.json"), 2000},      {scene("concave_obstacle.json"), 400},
        {scene("detour_field.json"), 600}, {pen.string(), 500}};
    std::size_t overlaps = 0;
    std::size_t penetrations = 0;
    for (const Case& c : cases) {
        SCOPED_TRACE(c.file);
        const fs::path csv = m_dir / "trajectory.csv";
        const std::string steps = " --steps " + std::to_string(c.steps);
        const Result run = orca("run " + c.file + steps + " --trajectory " + csv.string());
        ASSERT_EQ(run.code, 0) << run.err;
        const std::vector<Event> got =
            events(c.file + steps + " --kinds overlap-begin,overlap-end,obstacle-penetration");
        const auto traj = readTrajectory(csv);
        ASSERT_EQ(traj.size(), static_cast<std::size_t>(c.steps) + 1);
        const orca::scene::Scene sc = orca::scene::loadScene(c.file).scene;
        const std::vector<Event> expected = bruteForce(sc, traj);
        ASSERT_EQ(got.size(), expected.size());
        for (std::size_t k = 0; k < got.size(); ++k)
            ASSERT_EQ(got[k], expected[k]) << k;
        for (const Event& e : got) {
            overlaps += e.kind == EventKind::OverlapBegin;
            penetrations += e.kind == EventKind::ObstaclePenetration;
        }
    }
    // Not vacuous: the crowds overlap and the last scene starts with penetrations.
    EXPECT_GT(overlaps, 100u);
    EXPECT_GE(penetrations, 4u);
}

TEST_F(EventsCli, PrintsOneEventPerLineAsAJsonArray) {
    const Result r = orca("events " + scene("detour_wall.json"));
    ASSERT_EQ(r.code, 0) << r.err;
    // "[", one compact event object per line ("," after all but the last), "]".
    std::vector<std::string> lines;
    std::istringstream in(r.out);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    ASSERT_EQ(lines.size(), 5u) << r.out;
    EXPECT_EQ(lines.front(), "[");
    EXPECT_EQ(lines.back(), "]");
    std::vector<Event> parsed;
    for (std::size_t k = 1; k + 1 < lines.size(); ++k) {
        std::string body = lines[k];
        ASSERT_EQ(body.rfind("  {", 0), 0u) << body;
        if (k + 2 < lines.size()) {
            ASSERT_EQ(body.back(), ',');
            body.pop_back();
        }
        const Json j = Json::parse(body);
        EXPECT_EQ(j.dump(), body.substr(2)); // compact, keys in the documented order
        std::vector<std::string> keys;
        for (const auto& item : j.items())
            keys.push_back(item.key());
        EXPECT_EQ(keys, (std::vector<std::string>{"step", "kind", "agents", "obstacle", "value"}));
        parsed.push_back(orca::eventFromJson(j));
    }
    // The mover detours around the wall and arrives; by default the run goes until goals,
    // `orca run`'s stopping rule.
    ASSERT_EQ(parsed.size(), 3u);
    EXPECT_EQ(parsed[0].kind, EventKind::DetourEnter);
    EXPECT_EQ(parsed[1].kind, EventKind::DetourExit);
    EXPECT_EQ(parsed[2].kind, EventKind::Arrived);
    EXPECT_LT(parsed[0].step, parsed[1].step);
    const Json run = Json::parse(orca("run " + scene("detour_wall.json")).out);
    EXPECT_EQ(run["stepsToAllAtGoal"], parsed[2].step);
    EXPECT_EQ(run["steps"], parsed[2].step);
    // No events: an empty array.
    const Result none = orca("events " + scene("detour_wall.json") + " --steps 10");
    ASSERT_EQ(none.code, 0);
    EXPECT_EQ(none.out, "[]\n");
}

TEST_F(EventsCli, FiltersByKindAndAgent) {
    const std::string sc = scene("dense_convergence.json") + " --steps 300";
    const std::vector<Event> all = events(sc);
    ASSERT_GT(all.size(), 50u);
    auto filtered = [&](auto keep) {
        std::vector<Event> out;
        for (const Event& e : all)
            if (keep(e)) out.push_back(e);
        return out;
    };
    const std::vector<Event> arrivedOrStalled = events(sc + " --kinds arrived,stalled");
    EXPECT_EQ(arrivedOrStalled, filtered([](const Event& e) {
                  return e.kind == EventKind::Arrived || e.kind == EventKind::Stalled;
              }));
    EXPECT_FALSE(arrivedOrStalled.empty());
    // Repeating --kinds adds kinds.
    EXPECT_EQ(events(sc + " --kinds arrived --kinds stalled"), arrivedOrStalled);
    const std::vector<Event> agent7 = events(sc + " --agent 7");
    EXPECT_EQ(agent7, filtered([](const Event& e) {
                  return std::find(e.agents.begin(), e.agents.end(), 7u) != e.agents.end();
              }));
    EXPECT_FALSE(agent7.empty());
    EXPECT_EQ(events(sc + " --agent 7 --kinds overlap-begin"), filtered([](const Event& e) {
                  return e.kind == EventKind::OverlapBegin &&
                         std::find(e.agents.begin(), e.agents.end(), 7u) != e.agents.end();
              }));
    // Steps are ordered; results do not depend on the thread count.
    EXPECT_TRUE(std::is_sorted(all.begin(), all.end(),
                               [](const Event& a, const Event& b) { return a.step < b.step; }));
    EXPECT_EQ(events(sc + " --threads 2"), all);
}

TEST_F(EventsCli, UsageAndInputErrors) {
    Result r = orca("events " + scene("head_on.json") + " --kinds arrived,overlap");
    EXPECT_EQ(r.code, 2);
    EXPECT_NE(r.err.find("unknown event kind \"overlap\""), std::string::npos) << r.err;
    for (std::size_t k = 0; k < orca::kEventKindCount; ++k)
        EXPECT_NE(r.err.find(std::string(orca::toString(static_cast<EventKind>(k)))),
                  std::string::npos);
    EXPECT_TRUE(r.out.empty());
    EXPECT_EQ(orca("events").code, 2);
    EXPECT_EQ(orca("events " + scene("head_on.json") + " --steps 5 --until-goals").code, 2);
    EXPECT_EQ(orca("events " + scene("head_on.json") + " --max-steps 5").code, 2);
    EXPECT_EQ(orca("events " + scene("head_on.json") + " --agent -1").code, 2);
    EXPECT_EQ(orca("events " + scene("head_on.json") + " --threads 0").code, 2);
    r = orca("events " + scene("head_on.json") + " --agent 2 --steps 1");
    EXPECT_EQ(r.code, 1);
    EXPECT_EQ(r.err, scene("head_on.json") +
                         ": error: --agent 2 is out of range: the scene has 2 agents "
                         "(indices 0..1)\n");
    EXPECT_TRUE(r.out.empty());
    r = orca("events " + (m_dir / "missing.json").string());
    EXPECT_EQ(r.code, 1);
    EXPECT_NE(r.err.find("missing.json"), std::string::npos);
}

TEST_F(EventsCli, RunSummaryHasFirstOverlapStepAndStalledAgents) {
    const std::string sc = scene("dense_convergence.json") + " --steps 300";
    const Result r = orca("run " + sc);
    ASSERT_EQ(r.code, 0) << r.err;
    const Json j = Json::parse(r.out);
    const std::vector<Event> all = events(sc);
    std::optional<std::uint64_t> first;
    std::set<std::uint32_t> stalled;
    for (const Event& e : all) {
        if (e.kind == EventKind::OverlapBegin && !first) first = e.step;
        if (e.kind == EventKind::Stalled) stalled.insert(e.agents[0]);
    }
    ASSERT_TRUE(first);
    ASSERT_FALSE(stalled.empty());
    EXPECT_EQ(j["firstOverlapStep"], *first);
    EXPECT_EQ(j["stalledAgents"], Json(std::vector<std::uint32_t>(stalled.begin(), stalled.end())));
    EXPECT_GT(j["overlapPairSteps"].get<int>(), 0);

    // A small crossing: no overlap, nobody stalls.
    const Json crossing = Json::parse(orca("run " + scene("crossing.json")).out);
    EXPECT_TRUE(crossing["firstOverlapStep"].is_null());
    EXPECT_EQ(crossing["stalledAgents"], Json::array());
    // head_on: both agents stall face to face.
    const Json headOn = Json::parse(orca("run " + scene("head_on.json") + " --steps 100").out);
    EXPECT_EQ(headOn["stalledAgents"], Json::array({0, 1}));
}

} // namespace
