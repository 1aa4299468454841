// `orca events`: run a scene with an EventDetector and print the events as a JSON array, one
// event per line (diff- and grep-friendly, still one valid JSON document).
#include <algorithm>
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/events.hpp"
#include "orca/scene/events_json.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace orca::cli {

namespace {

std::string validKinds() {
    std::string s;
    for (std::size_t k = 0; k < kEventKindCount; ++k) {
        if (k > 0) s += ", ";
        s += toString(static_cast<EventKind>(k));
    }
    return s;
}

} // namespace

int eventsCommand(const EventsOptions& opt, std::ostream& out, std::ostream& err) {
    // Usage first: the kinds are checked before the scene is read.
    std::array<bool, kEventKindCount> wanted{};
    wanted.fill(opt.kinds.empty());
    for (const std::string& name : opt.kinds) {
        const std::optional<EventKind> kind = eventKindFromString(name);
        if (!kind) {
            err << "orca events: error: unknown event kind \"" << name
                << "\" in --kinds (valid kinds: " << validKinds() << ")\n";
            return kUsage;
        }
        wanted[static_cast<std::size_t>(*kind)] = true;
    }

    std::optional<scene::LoadResult> loaded =
        loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    Simulator sim = scene::buildSimulator(loaded->scene);
    sim.setThreadCount(opt.threads);
    if (opt.agent && !checkAgentIndex(opt.scene, *opt.agent, sim.agentCount(), err))
        return kBadInput;

    // The steps `orca run` would take.
    const RunLength length = runLength(opt.steps, opt.untilGoals, opt.maxSteps, sim);

    EventDetector detector;
    std::vector<Event> batch;
    bool any = false;
    auto print = [&] {
        for (const Event& e : batch) {
            if (!wanted[static_cast<std::size_t>(e.kind)]) continue;
            if (opt.agent && std::find(e.agents.begin(), e.agents.end(),
                                       static_cast<std::uint32_t>(*opt.agent)) == e.agents.end())
                continue;
            out << (any ? ",\n  " : "[\n  ") << dumpJson(toJson(e), -1);
            any = true;
        }
        batch.clear();
    };
    detector.reset(sim, batch);
    print();
    std::int64_t steps = 0;
    for (; steps < length.limit; ++steps) {
        if (length.done(sim)) break;
        sim.step();
        detector.observe(sim, batch);
        print();
    }
    // A run until the goals that stopped at its cap says so: on stderr, and as the array's last
    // element, shaped like an event (whatever --kinds and --agent select): {"step": S, "kind":
    // "step-cap-reached", "agents": [], "obstacle": null, "value": goal agents not at goal}.
    if (length.capReached(sim, steps)) {
        noteCapReached("events", length, sim, err);
        Json cap;
        cap["step"] = sim.stepCount();
        cap["kind"] = "step-cap-reached";
        cap["agents"] = Json::array();
        cap["obstacle"] = nullptr;
        cap["value"] = sim.goalAgentCount() - sim.atGoalCount();
        out << (any ? ",\n  " : "[\n  ") << dumpJson(cap, -1);
        any = true;
    }
    out << (any ? "\n]\n" : "[]\n");
    out.flush();
    return kOk;
}

} // namespace orca::cli
