#include "cli_common.hpp"
#include <charconv>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <ostream>
#include <vector>

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
            err << displayPath(file) << ": warning: ";
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
                    const std::optional<std::int64_t>& maxSteps, const Simulator& sim) {
    if (steps) return {*steps, false, false};
    if (untilGoals || sim.goalAgentCount() > 0)
        return {maxSteps.value_or(kDefaultMaxSteps), true, maxSteps.has_value()};
    return {100, false, false};
}

void noteCapReached(std::string_view command, const RunLength& length, const Simulator& sim,
                    std::ostream& err) {
    const std::size_t goalAgents = sim.goalAgentCount();
    err << "orca " << command << ": note: stopped at the step cap (" << length.limit
        << (length.explicitCap ? " steps, --max-steps" : " steps, the default; --max-steps N")
        << ") with ";
    if (goalAgents == 0)
        err << "no goal agents (--until-goals ran to the cap)\n";
    else
        err << goalAgents - sim.atGoalCount() << " of " << goalAgents
            << " goal agents not at their goal\n";
}

Json finiteOrNoted(const char* key, double value, Json& nonFinite) {
    if (!std::isfinite(value))
        nonFinite[key] = std::isnan(value) ? "nan" : value > 0 ? "inf" : "-inf";
    return finiteOrNull(value);
}

std::string dumpJson(const Json& j, int indent) {
    return j.dump(indent, ' ', false, Json::error_handler_t::replace);
}

namespace {

namespace fs = std::filesystem;

/// True when `a` and `b` name the same file (see checkOutputsDistinct).
bool sameFile(const fs::path& a, const fs::path& b) {
    std::error_code ec;
    if (fs::exists(a, ec) && fs::exists(b, ec)) {
        const bool same = fs::equivalent(a, b, ec);
        if (!ec) return same;
    }
    auto normal = [](const fs::path& p) {
        std::error_code e;
        const fs::path absolute = fs::absolute(p, e).lexically_normal();
        fs::path n = fs::weakly_canonical(absolute, e);
        return e ? absolute : n.lexically_normal();
    };
    return normal(a) == normal(b);
}

} // namespace

bool checkOutputsDistinct(std::string_view command, std::initializer_list<NamedFile> inputs,
                          std::initializer_list<NamedFile> outputs, std::ostream& err) {
    std::vector<const NamedFile*> earlier; // the inputs, then the outputs already checked
    for (const NamedFile& f : inputs)
        if (!f.path.empty()) earlier.push_back(&f);
    for (const NamedFile& out : outputs) {
        if (out.path.empty()) continue;
        for (const NamedFile* other : earlier) {
            if (!sameFile(fs::path(out.path), fs::path(other->path))) continue;
            err << "orca " << command << ": error: " << out.name << " names the same file as "
                << other->name << " (" << displayPath(std::string_view(out.path))
                << "): it would be overwritten; name another file\n";
            return false;
        }
        earlier.push_back(&out);
    }
    return true;
}

bool checkAgentIndex(const std::string& file, std::int64_t agent, std::size_t agentCount,
                     std::ostream& err, const char* option) {
    if (agent >= 0 && static_cast<std::size_t>(agent) < agentCount) return true;
    err << displayPath(file) << ": error: " << option << ' ' << agent
        << " is out of range: the scene has " << agentCount << " agent"
        << (agentCount == 1 ? "" : "s") << " (indices 0.."
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
