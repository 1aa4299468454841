// `orca conform`: where a recorded run departs from ORCA (docs/conformance.md). The run is a
// recording (it carries its scenes) or a trajectory CSV with the scene it ran.
#include <ostream>
#include <stdexcept>
#include <string>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/scene/conform.hpp"
#include "orca/scene/recording.hpp"
#include "orca/scene/trajectory_csv.hpp"

namespace orca::cli {

int conformCommand(const ConformOptions& opt, std::ostream& out, std::ostream& err) {
    const std::string& runFile = opt.files.back();
    const std::string runName = displayPath(runFile);
    scene::Recording run;
    try {
        if (scene::looksLikeRecording(runFile)) {
            if (opt.files.size() == 2) {
                err << runName << ": error: a recording carries its own scenes: run `orca conform "
                    << runName << "` without a scene file\n";
                return kUsage;
            }
            run = scene::loadRecording(runFile);
            if (run.truncated)
                err << runName << ": warning: the recording is cut short (a program stopped "
                    << "while writing it): checking the " << run.frames.size() << " whole frames\n";
        } else {
            if (opt.files.size() == 1) {
                err << runName << ": error: not a recording (.orcarec); a trajectory CSV needs "
                    << "the scene it ran: orca conform SCENE " << runName << '\n';
                return kUsage;
            }
            auto loaded = loadForCli(opt.files.front(), err, cliLoadOptions(opt.maxFileSize));
            if (!loaded) return kBadInput;
            run = scene::loadTrajectoryCsv(runFile, opt.maxFileSize, kMaxFileSizeOption);
            run.scenes.push_back(std::move(loaded->scene));
            const std::size_t agents = run.scenes.front().agents.size();
            if (run.frames.front().position.size() != agents) {
                err << runName << ": error: " << run.frames.front().position.size()
                    << " agents per step, the scene " << displayPath(opt.files.front()) << " has "
                    << agents << '\n';
                return kBadInput;
            }
        }
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return kBadInput;
    }

    ConformanceOptions options;
    options.tolerance = opt.tolerance.value_or(scene::defaultTolerance(run));
    options.keepAll = opt.all;
    scene::ConformanceResult result;
    try {
        result = scene::checkConformance(run, options, opt.threads);
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return kBadInput;
    } catch (const std::exception& e) {
        // A scene record the simulator refuses, a frame that does not fit its scene, a state
        // that overflows (NonFiniteState).
        err << runName << ": error: " << e.what() << '\n';
        return kBadInput;
    }
    out << dumpJson(scene::toJson(result, options, run.encoding)) << '\n';
    return result.report.deviatingAgentSteps == 0 ? kOk : kDeviates;
}

} // namespace orca::cli
