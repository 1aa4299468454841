#include "commands.hpp"

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <stdexcept>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli_common.hpp"
#include "lesson_cmd.hpp"
#include "orca/events.hpp"
#include "orca/scene/atomic_write.hpp"
#include "orca/scene/explain_json.hpp"
#include "orca/scene/generators.hpp"
#include "orca/scene/lesson.hpp"
#include "orca/scene/lint.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/scene.hpp"
#include "orca/scene/workloads.hpp"
#include "orca/simulator.hpp"
#include "run_loop.hpp"
#include "step_times.hpp"

namespace orca::cli {

namespace {

/// Writes step,agent,x,y,vx,vy rows (exact round-trip numbers) into an AtomicFile: the file
/// appears, whole, when the run ends well; until then (and if it fails) the old one stays.
class TrajectoryWriter {
  public:
    bool open(const std::string& path, std::string& error) {
        return m_file.open(path, error) && m_file.write("step,agent,x,y,vx,vy\n");
    }
    void write(std::uint64_t step, const Simulator& sim) {
        std::string buf;
        const auto pos = sim.positions();
        const auto vel = sim.velocities();
        for (std::size_t i = 0; i < pos.size(); ++i)
            appendCsvRow(buf, step, i, {pos[i].x, pos[i].y, vel[i].x, vel[i].y});
        m_file.write(buf); // a failure is kept and reported by close()
    }
    bool close(std::string& error) { return m_file.commit(error); }

  private:
    scene::AtomicFile m_file;
};

} // namespace

int runCommand(const RunOptions& opt, std::ostream& out, std::ostream& err) {
    if (!checkOutputsDistinct("run", {{"the scene", opt.scene}},
                              {{"--trajectory", opt.trajectory},
                               {"--save-state", opt.saveState},
                               {"--recording", opt.recording}},
                              err))
        return kUsage;
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    scene::Scene sc = std::move(loaded->scene);
    if (opt.detour) sc.simulation.params.detour.enabled = *opt.detour;
    Simulator sim = scene::buildSimulator(sc);
    sim.setThreadCount(opt.threads);

    const RunLength length = runLength(opt.steps, opt.untilGoals, opt.maxSteps, sim);
    const std::int64_t limit = length.limit;

    std::optional<TrajectoryWriter> trajectory;
    if (!opt.trajectory.empty()) {
        std::string error;
        if (!trajectory.emplace().open(opt.trajectory, error)) {
            err << displayPath(opt.trajectory) << ": error: cannot write the trajectory: " << error
                << '\n';
            return kBadInput;
        }
        trajectory->write(0, sim);
    }

    // --recording: the scene, then each state with the preferred velocities its step was given.
    std::optional<scene::RecordingWriter> recording;
    std::vector<Vec2> prefs;
    auto takePrefs = [&] {
        prefs.resize(sim.agentCount());
        for (std::size_t i = 0; i < prefs.size(); ++i)
            prefs[i] = sim.prefVelocityAt(i);
    };
    if (!opt.recording.empty()) {
        try {
            recording.emplace(opt.recording, scene::RecordingEncoding::Float64);
            recording->writeScene(scene::captureState(sc, sim));
            takePrefs();
            recording->writeFrame(sim.stepCount(), sim.time(), sim.positions(), sim.velocities(),
                                  prefs);
        } catch (const scene::SceneError& e) {
            err << e.what() << '\n';
            return kBadInput;
        }
    }

    std::optional<std::int64_t> stepsToAllAtGoal;
    if (sim.goalAgentCount() > 0 && sim.allAtGoal()) stepsToAllAtGoal = 0;
    double minClearance = std::numeric_limits<double>::infinity();
    double minObstacleClearance = std::numeric_limits<double>::infinity();
    std::uint64_t overlapPairSteps = 0;
    std::uint64_t lp3AgentSteps = 0;
    std::uint64_t detourAgentSteps = 0;
    std::uint64_t neighborListSteps = 0; // steps that searched candidate lists (speed only)
    // Nothing here grows with the number of steps (issue 25: a buffer sized from --steps
    // aborted on 10^10): step times are thinned (step_times.hpp), events are scanned and
    // dropped as they come.
    StepTimes stepMs;
    // --record / --events: the app's loop around the step (run_loop.hpp).
    std::optional<RunLoop> loop;
    if (opt.record || opt.events) loop.emplace(sim, opt.record, opt.historyBudget, opt.events);
    // Events (with the metrics): the first overlap-begin and the agents that stalled. The
    // loop's events when it detects them, else a detector of their own.
    const bool loopEvents = loop && loop->detectsEvents();
    EventDetector detector;
    std::vector<Event> ownEvents;
    std::optional<std::uint64_t> firstOverlapStep;
    std::vector<char> stalled(sim.agentCount(), 0); // per agent: had a stalled event
    auto scanEvents = [&] {
        for (const Event& e : loopEvents ? loop->newEvents() : std::span<const Event>(ownEvents)) {
            // A flood (too many pairs to list) begins with an overlap too.
            if ((e.kind == EventKind::OverlapBegin || e.kind == EventKind::OverlapFloodBegin) &&
                !firstOverlapStep)
                firstOverlapStep = e.step;
            if (e.kind == EventKind::Stalled && e.agents.front() < stalled.size())
                stalled[e.agents.front()] = 1;
        }
        ownEvents.clear();
    };
    const bool ownDetector = opt.metrics && !loopEvents;
    if (ownDetector) detector.reset(sim, ownEvents);
    if (opt.metrics) scanEvents();

    std::int64_t steps = 0;
    while (steps < limit) {
        if (length.done(sim)) break;
        if (recording) takePrefs();
        const auto t0 = std::chrono::steady_clock::now();
        sim.step();
        const auto t1 = std::chrono::steady_clock::now();
        stepMs.add(std::chrono::duration<double, std::milli>(t1 - t0).count());
        ++steps;
        lp3AgentSteps += sim.lastStepStats().lp3Agents;
        detourAgentSteps += sim.lastStepStats().detouringAgents;
        neighborListSteps += sim.lastStepStats().neighborLists ? 1 : 0;
        if (loop) loop->afterStep(sim);
        if (opt.metrics) {
            const ClearanceStats c = sim.clearance();
            minClearance = std::min(minClearance, c.minAgentClearance);
            minObstacleClearance = std::min(minObstacleClearance, c.minObstacleClearance);
            overlapPairSteps += c.overlappingPairs;
            if (ownDetector) detector.observe(sim, ownEvents);
            scanEvents();
        }
        if (trajectory) trajectory->write(static_cast<std::uint64_t>(steps), sim);
        if (recording) {
            try {
                recording->writeFrame(sim.stepCount(), sim.time(), sim.positions(),
                                      sim.velocities(), prefs);
            } catch (const scene::SceneError& e) {
                err << e.what() << " (the recording is not written)\n";
                return kBadInput;
            }
        }
        const StepStats& stats = sim.lastStepStats();
        if (!stepsToAllAtGoal && stats.goalAgents > 0 && stats.agentsAtGoal == stats.goalAgents)
            stepsToAllAtGoal = steps;
    }
    if (std::string error; trajectory && !trajectory->close(error)) {
        err << displayPath(opt.trajectory)
            << ": error: writing the trajectory failed, the file is unchanged: " << error << '\n';
        return kBadInput;
    }
    if (recording) {
        try {
            recording->finish();
        } catch (const scene::SceneError& e) {
            err << e.what() << '\n';
            return kBadInput;
        }
    }
    if (!opt.saveState.empty()) {
        try {
            scene::saveScene(scene::captureState(sc, sim), opt.saveState);
        } catch (const scene::SceneError& e) {
            err << e.what() << '\n';
            return kBadInput;
        }
    }

    const double totalMs = stepMs.total();
    const bool capReached = length.capReached(sim, steps);
    if (capReached) noteCapReached("run", length, sim, err);

    Json j;
    Json nonFinite = Json::object();
    j["scene"] = sc.name;
    j["file"] = displayPath(opt.scene);
    j["agents"] = sim.agentCount();
    j["obstacles"] = sim.obstacleCount();
    j["threads"] = sim.threadCount();
    j["steps"] = steps;
    j["time"] = sim.time();
    j["allAtGoal"] = sim.goalAgentCount() > 0 && sim.allAtGoal();
    j["stepsToAllAtGoal"] = stepsToAllAtGoal ? Json(*stepsToAllAtGoal) : Json(nullptr);
    j["stepCapReached"] = capReached;
    j["goalAgents"] = sim.goalAgentCount();
    j["agentsAtGoal"] = sim.atGoalCount();
    if (opt.metrics) {
        // +inf = no pair (no obstacle) was ever near: null, and noted as such.
        j["minClearance"] = finiteOrNoted("minClearance", minClearance, nonFinite);
        j["maxOverlapDepth"] =
            finiteOrNoted("maxOverlapDepth", maxOverlapDepth(minClearance), nonFinite);
        j["minObstacleClearance"] =
            finiteOrNoted("minObstacleClearance", minObstacleClearance, nonFinite);
        j["overlapPairSteps"] = overlapPairSteps;
        j["firstOverlapStep"] = firstOverlapStep ? Json(*firstOverlapStep) : Json(nullptr);
        std::vector<std::uint32_t> stalledAgents;
        for (std::size_t i = 0; i < stalled.size(); ++i)
            if (stalled[i]) stalledAgents.push_back(static_cast<std::uint32_t>(i));
        j["stalledAgents"] = stalledAgents;
        j["nonFinite"] = nonFinite;
    }
    j["lp3AgentSteps"] = lp3AgentSteps;
    j["detour"] = sim.params().detour.enabled;
    j["detourAgentSteps"] = detourAgentSteps;
    j["neighborListSteps"] = neighborListSteps;
    j["msPerStepMedian"] = stepMs.median();
    j["msPerStepMean"] = stepMs.mean();
    j["agentStepsPerSecond"] = totalMs > 0.0 ? static_cast<double>(sim.agentCount()) *
                                                   static_cast<double>(steps) / (totalMs / 1000.0)
                                             : 0.0;
    if (loop) loop->addTo(j, stepMs.mean());
    j["stateHash"] = formatStateHash(sim.stateHash());
    out << dumpJson(j) << '\n';
    return kOk;
}

int explainCommand(const ExplainOptions& opt, std::ostream& out, std::ostream& err) {
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    Simulator sim = scene::buildSimulator(loaded->scene);
    sim.setThreadCount(opt.threads);
    if (!checkAgentIndex(opt.scene, opt.agent, sim.agentCount(), err)) return kBadInput;
    const AgentId id = sim.agentIdAt(static_cast<std::size_t>(opt.agent));
    for (std::int64_t s = 0; s < opt.steps; ++s)
        sim.step();
    orca::ExplainOptions what;
    what.lpTrace = opt.lpTrace;
    out << dumpJson(toJson(sim.explain(id, what), sim)) << '\n';
    return kOk;
}

int validateCommand(const ValidateOptions& opt, std::ostream& out, std::ostream& err) {
    int status = kOk;
    for (const std::string& file : opt.scenes) {
        scene::LoadOptions options = cliLoadOptions(opt.maxFileSize);
        if (lesson::isLessonFile(file, opt.maxFileSize)) { // "format": "orca-lesson"
            if (!validateLessonFile(file, opt.lint, options, out, err)) status = kBadInput;
            continue;
        }
        // The linter sees the file as written: a clockwise obstacle is its finding, not a
        // repair.
        options.repairWinding = !opt.lint;
        auto loaded = loadForCli(file, err, options);
        if (!loaded) {
            status = kBadInput;
            continue;
        }
        const scene::Scene& sc = loaded->scene;
        std::size_t counts[3] = {0, 0, 0}; // errors, warnings, infos
        if (opt.lint) {
            for (const scene::LintIssue& issue : scene::lintScene(sc)) {
                ++counts[static_cast<int>(issue.severity)];
                out << displayPath(file) << ": " << scene::severityName(issue.severity) << ": at "
                    << issue.jsonPath << ": " << issue.message << " [" << issue.rule << ']';
                if (!issue.fixLabel.empty()) out << " (fix: " << issue.fixLabel << ')';
                out << '\n';
            }
            if (counts[0] > 0) status = kBadInput;
        }
        auto count = [](std::size_t n, const char* word) {
            return std::to_string(n) + ' ' + word + (n == 1 ? "" : "s");
        };
        out << displayPath(file) << ": ok: " << count(sc.agents.size(), "agent") << ", "
            << count(sc.obstacles.size(), "obstacle");
        if (!loaded->warnings.empty()) out << ", " << count(loaded->warnings.size(), "warning");
        if (opt.lint) {
            out << "; lint: " << count(counts[0], "error") << ", " << count(counts[1], "warning")
                << ", " << count(counts[2], "info");
        }
        out << '\n';
    }
    return status;
}

namespace {

/// The doorway or corridor scene of `opt` (generators.hpp), with bottleneckAgentDefaults().
/// Throws std::invalid_argument for parameters the generator refuses.
scene::Scene bottleneckSceneOf(const GenerateOptions& opt) {
    scene::Surroundings none;
    none.defaultRadius = scene::bottleneckAgentDefaults().radius;
    if (opt.workload == "doorway") {
        scene::Doorway d;
        d.perSide = opt.perSide;
        d.gapWidth = opt.gap;
        d.routes = !opt.noRoutes;
        const scene::GeneratorResult r = scene::generate(d, scene::SceneAgent{}, none);
        return scene::bottleneckScene(
            r, "Doorway",
            "Two groups of " + std::to_string(opt.perSide) + " swap sides through a gap in a wall" +
                (d.routes ? ", lining up for it through two waypoints each" : ""));
    }
    scene::CorridorCounterflow c;
    c.perFlow = opt.perSide;
    c.width = opt.width;
    c.length = opt.length;
    c.keepRight = opt.keepRight;
    const scene::GeneratorResult r = scene::generate(c, scene::SceneAgent{}, none);
    return scene::bottleneckScene(
        r, "Corridor counterflow",
        "Two flows of " + std::to_string(opt.perSide) +
            " walk through a corridor in opposite directions" +
            (c.keepRight ? ", each keeping to its right half through two waypoints" : ""));
}

} // namespace

int generateCommand(const GenerateOptions& opt, std::ostream& out, std::ostream& err) {
    const auto n = static_cast<std::size_t>(opt.agents);
    scene::Scene sc;
    if (opt.workload == "doorway" || opt.workload == "corridor") {
        try {
            sc = bottleneckSceneOf(opt);
        } catch (const std::invalid_argument& e) {
            err << "orca generate: " << e.what() << '\n';
            return kUsage;
        }
    } else if (opt.workload == "circle" || opt.workload == "uniform") {
        sc = opt.workload == "circle" ? scene::circleWorkload(n)
                                      : scene::uniformWorkload(n, opt.seed);
    } else {
        sc = scene::realSceneWorkload(opt.workload); // the names main.cpp accepts
    }
    if (opt.output.empty()) {
        out << scene::serializeScene(sc);
        return kOk;
    }
    try {
        scene::saveScene(sc, opt.output);
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return kBadInput;
    }
    return kOk;
}

} // namespace orca::cli
