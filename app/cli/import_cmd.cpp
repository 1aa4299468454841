// `orca import FILE... [-o OUT.json] [--seed N]`: a SteerSuite test case or a Menge project
// (or its scene and behaviour files) as a scene, with a JSON report of what was imported,
// dropped and approximated (docs/import.md).
#include <filesystem>
#include <ostream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli_common.hpp"
#include "commands.hpp"
#include "orca/scene/import.hpp"
#include "orca/scene/scene.hpp"

namespace orca::cli {

int importCommand(const ImportOptions& opt, std::ostream& out, std::ostream& err) {
    for (const std::string& input : opt.files) {
        if (!checkOutputsDistinct("import", {{"an input file", input}}, {{"-o", opt.output}}, err))
            return kUsage;
    }
    std::vector<std::filesystem::path> files(opt.files.begin(), opt.files.end());
    scene::ImportOptions options;
    options.seed = opt.seed;
    options.maxFileSize = opt.maxFileSize;
    scene::ImportResult result;
    try {
        result = scene::importFiles(files, options);
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return kBadInput;
    } catch (const std::invalid_argument& e) {
        err << "orca import: " << e.what() << '\n';
        return kUsage;
    }
    if (!opt.output.empty()) {
        try {
            scene::saveScene(result.scene, opt.output);
        } catch (const scene::SceneError& e) {
            err << e.what() << '\n';
            return kBadInput;
        }
    }
    Json report = scene::importReportJson(result);
    Json shown = Json::array(); // the files as the report shows them (path_text.hpp)
    for (const std::string& f : result.files)
        shown.push_back(displayPath(f));
    report["files"] = shown;
    report["output"] = opt.output.empty() ? Json(nullptr) : Json(displayPath(opt.output));
    out << dumpJson(report) << '\n';
    return kOk;
}

} // namespace orca::cli
