#include "cli_common.hpp"
#include <charconv>

#include <cmath>
#include <cstdio>
#include <ostream>

namespace orca::cli {

scene::LoadOptions cliLoadOptions(std::uint64_t maxFileSize) {
    scene::LoadOptions options;
    options.maxFileSize = maxFileSize;
    options.maxFileSizeSetting = kMaxFileSizeOption;
    return options;
}

std::optional<scene::LoadResult> loadForCli(const std::string& file, std::ostream& err,
                                            const scene::LoadOptions& options) {
    try {
        scene::LoadResult r = scene::loadScene(file, options);
        for (const scene::SceneWarning& w : r.warnings) {
            err << file << ": warning: ";
            if (!w.jsonPath.empty()) err << "at " << w.jsonPath << ": ";
            err << w.message << '\n';
        }
        return r;
    } catch (const scene::SceneError& e) {
        err << e.what() << '\n';
        return std::nullopt;
    }
}

RunLength runLength(const std::optional<std::int64_t>& steps, bool untilGoals,
                    std::int64_t maxSteps, const Simulator& sim) {
    if (steps) return {*steps, false};
    if (untilGoals || sim.goalAgentCount() > 0) return {maxSteps, true};
    return {100, false};
}

bool checkAgentIndex(const std::string& file, std::int64_t agent, std::size_t agentCount,
                     std::ostream& err, const char* option) {
    if (agent >= 0 && static_cast<std::size_t>(agent) < agentCount) return true;
    err << file << ": error: " << option << ' ' << agent << " is out of range: the scene has "
        << agentCount << " agent" << (agentCount == 1 ? "" : "s") << " (indices 0.."
        << static_cast<std::int64_t>(agentCount) - 1 << ")\n";
    return false;
}

void appendCsvRow(std::string& out, std::uint64_t step, std::size_t agent,
                  std::initializer_list<double> values) {
    out += std::to_string(step);
    out += ',';
    out += std::to_string(agent);
    for (double v : values) {
        char buf[32];
        const auto res = std::to_chars(buf, buf + sizeof buf, v);
        out += ',';
        out.append(buf, res.ptr);
    }
    out += '\n';
}

} // namespace orca::cli
