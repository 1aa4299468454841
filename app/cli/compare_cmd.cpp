// `orca compare`: a branch with changed parameters beside the original run (compare.hpp). The
// app's Compare records both runs to seek in them; here both only go forward, so each counts
// its events as they come and keeps nothing per step: any --steps runs in bounded memory.
#include <algorithm>
#include <array>
#include <limits>
#include <ostream>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/events.hpp"
#include "orca/scene/compare.hpp"
#include "orca/scene/events_json.hpp"

namespace orca::cli {

namespace {

/// A run's numbers over the compared steps.
struct RunTotals {
    double minClearance = std::numeric_limits<double>::infinity();
    std::uint64_t overlapPairSteps = 0;
    std::uint64_t lp3AgentSteps = 0;
    std::optional<std::uint64_t> allAtGoalStep;

    void add(const Simulator& sim) {
        const ClearanceStats c = sim.clearance();
        minClearance = std::min(minClearance, c.minAgentClearance);
        overlapPairSteps += c.overlappingPairs;
        lp3AgentSteps += sim.lastStepStats().lp3Agents;
        if (!allAtGoalStep && sim.goalAgentCount() > 0 && sim.allAtGoal())
            allAtGoalStep = sim.stepCount();
    }
};

/// One run going forward from the split: its events counted per kind from the split on (those
/// that hold at the split included, as the app's Compare counts them) and its totals.
struct CountedRun {
    Simulator sim;
    EventDetector detector;
    std::vector<Event> batch; ///< the last state's events, counted and dropped
    std::array<std::size_t, kEventKindCount> eventCounts{};
    RunTotals totals;

    void start() {
        detector.reset(sim, batch);
        count();
    }
    void step() {
        sim.step();
        detector.observe(sim, batch);
        count();
        totals.add(sim);
    }
    void count() {
        for (const Event& e : batch)
            ++eventCounts[static_cast<std::size_t>(e.kind)];
        batch.clear();
    }
    [[nodiscard]] RunMetrics metrics() const {
        RunMetrics m = measureRun(sim, {});
        m.eventCounts = eventCounts;
        return m;
    }
};

Json toJson(const CountedRun& run) {
    const RunMetrics m = run.metrics();
    const RunTotals& t = run.totals;
    Json j;
    Json nonFinite = Json::object();
    j["step"] = m.step;
    j["goalAgents"] = m.goalAgents;
    j["agentsAtGoal"] = m.agentsAtGoal;
    j["allAtGoalStep"] = t.allAtGoalStep ? Json(*t.allAtGoalStep) : Json(nullptr);
    // +inf = no pair was ever near (noted "inf"); an overflow is noted too, never a bare null.
    j["minClearance"] = finiteOrNoted("minClearance", t.minClearance, nonFinite);
    j["maxOverlapDepth"] =
        finiteOrNoted("maxOverlapDepth", maxOverlapDepth(t.minClearance), nonFinite);
    j["overlapPairSteps"] = t.overlapPairSteps;
    j["lp3AgentSteps"] = t.lp3AgentSteps;
    j["overlappingPairsNow"] = m.overlappingPairs;
    j["meanSpeedNow"] = finiteOrNoted("meanSpeedNow", m.meanSpeed, nonFinite);
    j["events"] = eventCountsJson(m.eventCounts);
    j["nonFinite"] = nonFinite;
    j["stateHash"] = formatStateHash(run.sim.stateHash());
    return j;
}

} // namespace

int compareCommand(const CompareOptions& opt, std::ostream& out, std::ostream& err) {
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    CountedRun base;
    base.sim = scene::buildSimulator(loaded->scene);
    base.sim.setThreadCount(opt.threads);
    // Each value within the scene file's range (the parameter table): a usage error otherwise.
    BranchChange change;
    for (const std::string& a : opt.assignments) {
        std::string error;
        if (!change.set(a, base.sim.params(), error)) {
            err << "orca compare: error: --set " << a << ": " << error << '\n';
            return kUsage;
        }
    }
    for (std::int64_t agent : opt.agents) {
        if (!checkAgentIndex(opt.scene, agent, base.sim.agentCount(), err, "--agents"))
            return kBadInput;
        change.agents.push_back(static_cast<std::size_t>(agent));
    }

    for (std::int64_t s = 0; s < opt.at; ++s)
        base.sim.step();
    const std::uint64_t from = base.sim.stepCount();
    CountedRun branch;
    branch.sim.setThreadCount(base.sim.threadCount());
    branch.sim.restore(base.sim.snapshot());
    try {
        applyChange(branch.sim, change); // as Comparison::start does
    } catch (const InvalidArgument& e) {
        err << "orca compare: error: --set: the branch's parameters are invalid: " << e.what()
            << '\n';
        return kUsage;
    }
    base.start();
    branch.start();
    std::optional<std::uint64_t> firstDivergence;
    if (base.sim.stateHash() != branch.sim.stateHash()) firstDivergence = from;
    for (std::int64_t s = 0; s < opt.steps; ++s) {
        base.step();
        branch.step();
        if (!firstDivergence && base.sim.stateHash() != branch.sim.stateHash())
            firstDivergence = base.sim.stepCount();
    }

    Json j;
    j["scene"] = loaded->scene.name;
    j["file"] = displayPath(opt.scene);
    j["agents"] = base.sim.agentCount();
    j["at"] = from;
    j["to"] = base.sim.stepCount();
    j["change"] = change.describe(base.sim.params());
    j["firstDivergingStep"] = firstDivergence ? Json(*firstDivergence) : Json(nullptr);
    j["base"] = toJson(base);
    j["branch"] = toJson(branch);
    out << dumpJson(j) << '\n';
    return kOk;
}

} // namespace orca::cli
