// `orca diagnose SCENE --agent K --step S [--verify N] [--fix I] [--fix-out FIXED.json]`: the
// diagnosis of one agent after S steps as JSON (docs/diagnosis.md), its fixes, and the proof
// that one of them helps: the original and the fixed scene (fix applied from step 0) run N
// steps side by side.
#include <ostream>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/diagnosis.hpp"
#include "orca/scene/diagnosis_json.hpp"
#include "orca/scene/fixes.hpp"
#include "orca/scene/scene.hpp"

namespace orca::cli {

namespace {

/// Verifications run at most this many candidates (each is a run of N steps).
constexpr std::size_t kMaxCandidates = 4;

} // namespace

int diagnoseCommand(const DiagnoseOptions& opt, std::ostream& out, std::ostream& err) {
    if (!checkOutputsDistinct("diagnose", {{"the scene", opt.scene}}, {{"--fix-out", opt.fixOut}},
                              err))
        return kUsage;
    auto loaded = loadForCli(opt.scene, err, cliLoadOptions(opt.maxFileSize));
    if (!loaded) return kBadInput;
    const scene::Scene& original = loaded->scene;
    Simulator sim = scene::buildSimulator(original);
    sim.setThreadCount(opt.threads);
    if (!checkAgentIndex(opt.scene, opt.agent, sim.agentCount(), err)) return kBadInput;
    const Diagnosis d = diagnoseAfterSteps(sim, static_cast<std::size_t>(opt.agent),
                                           static_cast<std::uint64_t>(opt.step));
    Json doc = toJson(d);
    if (opt.fix && (*opt.fix < 0 || static_cast<std::size_t>(*opt.fix) >= d.fixes.size())) {
        err << displayPath(opt.scene) << ": error: --fix " << *opt.fix
            << " is out of range: the diagnosis (" << toString(d.cls) << ") has " << d.fixes.size()
            << " fix" << (d.fixes.size() == 1 ? "" : "es") << "\n";
        out << dumpJson(doc) << '\n';
        return kBadInput;
    }

    // The candidates: the one asked for, or (with --verify) the first that helps, else the
    // first.
    std::optional<std::size_t> chosen;
    if (opt.fix)
        chosen = static_cast<std::size_t>(*opt.fix);
    else if (!d.fixes.empty())
        chosen = 0;
    auto fixedScene = [&](std::size_t k, scene::Scene& fixed, std::string& error) {
        fixed = original;
        try {
            scene::applyFix(fixed, d.fixes[k]);
            return true;
        } catch (const std::invalid_argument& e) {
            error = e.what();
            return false;
        }
    };
    if (opt.verify && !d.fixes.empty()) {
        const Simulator before = scene::buildSimulator(original);
        Json tried = Json::array();
        std::vector<std::size_t> order;
        if (opt.fix)
            order.push_back(*chosen);
        else
            for (std::size_t k = 0; k < d.fixes.size() && k < kMaxCandidates; ++k)
                order.push_back(k);
        std::optional<std::size_t> helped;
        for (std::size_t k : order) {
            scene::Scene fixed;
            std::string error;
            Json t;
            t["fix"] = k;
            t["label"] = d.fixes[k].label;
            if (!fixedScene(k, fixed, error)) {
                t["error"] = error;
                tried.push_back(t);
                continue;
            }
            const Simulator after = scene::buildSimulator(fixed);
            const scene::FixVerification v = scene::verifyFix(
                before, after, static_cast<std::uint64_t>(*opt.verify), opt.threads);
            t["verification"] = scene::toJson(v);
            tried.push_back(t);
            if (v.improved) {
                helped = k;
                doc["verification"] = scene::toJson(v);
                break;
            }
            if (!doc.contains("verification")) doc["verification"] = scene::toJson(v);
        }
        if (helped) chosen = helped;
        doc["tried"] = tried;
        doc["chosenFix"] = chosen ? Json(*chosen) : Json(nullptr);
        if (!helped)
            doc["verificationNote"] =
                "no fix tried improved the run in " + std::to_string(*opt.verify) + " steps";
    } else if (opt.verify) {
        doc["verificationNote"] =
            "the diagnosis (" + std::string(toString(d.cls)) + ") has no fix to verify";
    }

    if (!opt.fixOut.empty()) {
        if (!chosen) {
            err << displayPath(opt.scene) << ": error: --fix-out: the diagnosis ("
                << toString(d.cls) << ") has no fix to apply\n";
            out << dumpJson(doc) << '\n';
            return kBadInput;
        }
        scene::Scene fixed;
        std::string error;
        if (!fixedScene(*chosen, fixed, error)) {
            err << displayPath(opt.scene) << ": error: --fix-out: " << error << '\n';
            return kBadInput;
        }
        try {
            scene::saveScene(fixed, opt.fixOut);
        } catch (const scene::SceneError& e) {
            err << e.what() << '\n';
            return kBadInput;
        }
        doc["fixOut"] = displayPath(opt.fixOut);
    }
    out << dumpJson(doc) << '\n';
    return kOk;
}

} // namespace orca::cli
