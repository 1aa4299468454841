// `orca diagnose SCENE --agent K --step S`: the diagnosis of one agent after S steps, as JSON
// (docs/diagnosis.md).
#include <ostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/diagnosis.hpp"
#include "orca/scene/diagnosis_json.hpp"
#include "orca/scene/scene.hpp"

namespace orca::cli {

int diagnoseCommand(const DiagnoseOptions& opt, std::ostream& out, std::ostream& err) {
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    Simulator sim = scene::buildSimulator(loaded->scene);
    sim.setThreadCount(opt.threads);
    if (!checkAgentIndex(opt.scene, opt.agent, sim.agentCount(), err)) return kBadInput;
    if (opt.step < 0) {
        err << opt.scene << ": error: --step " << opt.step << " must be >= 0\n";
        return kBadInput;
    }
    const Diagnosis d = diagnoseAfterSteps(sim, static_cast<std::size_t>(opt.agent),
                                           static_cast<std::uint64_t>(opt.step));
    out << toJson(d).dump(2) << '\n';
    return kOk;
}

} // namespace orca::cli
