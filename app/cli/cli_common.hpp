#pragma once
// Helpers shared by the `orca` commands: loading a scene with its messages on `err`, and the
// JSON spellings of numbers and hashes.
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "orca/scene/explain_json.hpp"
#include "orca/scene/scene.hpp"
#include "orca/state.hpp"

#include "max_file_size_option.hpp"

namespace orca::cli {

using Json = nlohmann::ordered_json;

/// The name of the option that sets the file-size limit, as refusals quote it.
using orca::app::kMaxFileSizeOption; // the option (max_file_size_option.hpp)
/// Scene-loading options with the --max-file-size limit (named in refusals).
[[nodiscard]] scene::LoadOptions cliLoadOptions(std::uint64_t maxFileSize);
/// Loads a scene, printing its warnings ("FILE: warning: at PATH: ...") and, on failure, the
/// loader's error on `err`. nullopt on failure.
std::optional<scene::LoadResult> loadForCli(const std::string& file, std::ostream& err,
                                            const scene::LoadOptions& options = {});
/// How long `orca run` and `orca events` run: exactly --steps when given; otherwise until every
/// goal agent is at its goal (at most --max-steps) with --until-goals or when the scene has goal
/// agents; otherwise 100 steps.
struct RunLength {
    std::int64_t limit = 100;
    bool stopAtGoals = false;
    /// True when the run is over before reaching `limit` (every goal agent at its goal).
    [[nodiscard]] bool done(const Simulator& sim) const {
        return stopAtGoals && sim.goalAgentCount() > 0 && sim.allAtGoal();
    }
};
[[nodiscard]] RunLength runLength(const std::optional<std::int64_t>& steps, bool untilGoals,
                                  std::int64_t maxSteps, const Simulator& sim);
/// Appends one CSV row "step,agent,v1,v2,...\n" of a trajectory, each number the shortest text
/// that reads back as exactly it (std::to_chars).
void appendCsvRow(std::string& out, std::uint64_t step, std::size_t agent,
                  std::initializer_list<double> values);
/// A number, or null when it is not finite (the scene library's, explain_json.hpp).
using orca::finiteOrNull;
/// "--agent K is out of range: the scene has N agents (indices 0..N-1)" check; prints the
/// message naming the scene on `err` and returns false when `agent` is out of range.
bool checkAgentIndex(const std::string& file, std::int64_t agent, std::size_t agentCount,
                     std::ostream& err, const char* option = "--agent");

} // namespace orca::cli
