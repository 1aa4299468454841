// `orca compare`: a branch with changed parameters beside the original run (compare.hpp).
#include <algorithm>
#include <limits>
#include <ostream>

#include "cli_common.hpp"
#include "commands.hpp"
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

Json toJson(const Simulator& sim, const RunMetrics& m, const RunTotals& t) {
    Json j;
    j["step"] = m.step;
    j["goalAgents"] = m.goalAgents;
    j["agentsAtGoal"] = m.agentsAtGoal;
    j["allAtGoalStep"] = t.allAtGoalStep ? Json(*t.allAtGoalStep) : Json(nullptr);
    j["minClearance"] = finiteOrNull(t.minClearance);
    j["maxOverlapDepth"] = std::isfinite(t.minClearance) ? std::max(0.0, -t.minClearance) : 0.0;
    j["overlapPairSteps"] = t.overlapPairSteps;
    j["lp3AgentSteps"] = t.lp3AgentSteps;
    j["overlappingPairsNow"] = m.overlappingPairs;
    j["meanSpeedNow"] = m.meanSpeed;
    j["events"] = eventCountsJson(m.eventCounts);
    j["stateHash"] = formatStateHash(sim.stateHash());
    return j;
}

} // namespace

int compareCommand(const CompareOptions& opt, std::ostream& out, std::ostream& err) {
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    Simulator base = scene::buildSimulator(loaded->scene);
    base.setThreadCount(opt.threads);

    BranchChange change;
    for (const std::string& a : opt.assignments) {
        std::string error;
        if (!change.set(a, base.params(), error)) {
            err << "orca compare: --set " << a << ": " << error << '\n';
            return kUsage;
        }
    }
    for (std::int64_t agent : opt.agents) {
        if (!checkAgentIndex(opt.scene, agent, base.agentCount(), err, "--agents"))
            return kBadInput;
        change.agents.push_back(static_cast<std::size_t>(agent));
    }

    History history;
    for (std::int64_t s = 0; s < opt.at; ++s)
        base.step();
    history.start(base);
    Comparison cmp;
    try {
        cmp.start(base, change);
    } catch (const InvalidArgument& e) {
        err << opt.scene << ": error: the branch's parameters are invalid: " << e.what() << '\n';
        return kBadInput;
    }
    RunTotals baseTotals;
    RunTotals branchTotals;
    std::optional<std::uint64_t> firstDivergence;
    if (base.stateHash() != cmp.branch().stateHash()) firstDivergence = base.stepCount();
    for (std::int64_t s = 0; s < opt.steps; ++s) {
        base.step();
        history.record(base);
        cmp.follow(base.stepCount());
        baseTotals.add(base);
        branchTotals.add(cmp.branch());
        if (!firstDivergence && base.stateHash() != cmp.branch().stateHash())
            firstDivergence = base.stepCount();
    }

    Json j;
    j["scene"] = loaded->scene.name;
    j["file"] = opt.scene;
    j["agents"] = base.agentCount();
    j["at"] = cmp.fromStep();
    j["to"] = base.stepCount();
    j["change"] = change.describe(base.params());
    j["firstDivergingStep"] = firstDivergence ? Json(*firstDivergence) : Json(nullptr);
    j["base"] = toJson(base, measureRun(base, history.events(), cmp.fromStep()), baseTotals);
    j["branch"] = toJson(cmp.branch(), cmp.metrics(), branchTotals);
    out << j.dump(2) << '\n';
    return kOk;
}

} // namespace orca::cli
