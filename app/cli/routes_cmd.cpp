// `orca routes SCENE [--step S] [--agent K]`: the routes of the agents with a goal after S
// steps (waypoints, progress, the point they steer at, the planned polyline) and, with roadmap
// routing, the roadmap's size and build time, as JSON (docs/scene-format.md, "Routes").
#include <chrono>
#include <ostream>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/routes.hpp"
#include "orca/scene/explain_json.hpp"
#include "orca/scene/scene.hpp"

namespace orca::cli {

int routesCommand(const RoutesOptions& opt, std::ostream& out, std::ostream& err) {
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    Simulator sim = scene::buildSimulator(loaded->scene);
    sim.setThreadCount(opt.threads);
    if (opt.agent && !checkAgentIndex(opt.scene, *opt.agent, sim.agentCount(), err))
        return kBadInput;

    Json doc;
    doc["routing"] = std::string(scene::toString(sim.params().routing));
    // The roadmap first (timed on its own), then the steps, which reuse it.
    if (sim.params().routing == Routing::Roadmap) {
        const auto t0 = std::chrono::steady_clock::now();
        const Roadmap& roadmap = sim.roadmap();
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        Json r;
        r["nodes"] = roadmap.nodes().size();
        r["edges"] = roadmap.edges().size();
        r["clearance"] = roadmap.clearance();
        r["fullGraph"] = roadmap.fullGraph();
        r["buildSeconds"] = seconds;
        r["bytes"] = roadmap.bytes();
        if (roadmap.empty() && sim.obstacleCount() > 0)
            r["note"] = "the roadmap could not be built (see docs/core.md, \"Routes\"): agents "
                        "walk straight";
        else if (sim.obstacleCount() == 0)
            r["note"] = "no obstacles: roadmap routing is straight routing";
        doc["roadmap"] = r;
    } else {
        doc["roadmap"] = nullptr;
    }
    for (std::int64_t s = 0; s < opt.step; ++s)
        sim.step();
    doc["step"] = sim.stepCount();

    Json agents = Json::array();
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        if (opt.agent && static_cast<std::size_t>(*opt.agent) != i) continue;
        if (!sim.hasGoalAt(i) || sim.isStaticAt(i)) continue;
        const PlannedRoute route = plannedRoute(sim, i);
        Json a;
        a["agent"] = i;
        a["position"] = toJson(sim.positions()[i]);
        a["waypoints"] = toJsonPoints(sim.waypointsAt(i));
        a["routeProgress"] = sim.routeProgressAt(i);
        a["target"] = toJson(sim.targetAt(i));
        a["steer"] = toJson(sim.steerPointAt(i));
        a["atGoal"] = sim.atGoalAt(i);
        a["reachable"] = !route.unreachableLeg.has_value();
        if (route.unreachableLeg) a["unreachableLeg"] = *route.unreachableLeg;
        a["length"] = route.length;
        a["path"] = toJsonPoints(route.points);
        agents.push_back(a);
    }
    doc["agents"] = agents;
    out << dumpJson(doc) << '\n';
    return kOk;
}

} // namespace orca::cli
