#pragma once
// Helpers shared by the `orca` commands: loading a scene with its messages on `err`, the JSON
// spellings of numbers, hashes and paths, the step limit, and the check that no output file
// is an input or another output.
#include <cstdint>
#include <initializer_list>
#include <iosfwd>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "orca/scene/explain_json.hpp"
#include "orca/scene/path_text.hpp"
#include "orca/scene/scene.hpp"
#include "orca/state.hpp"

#include "max_file_size_name.hpp"

namespace orca::cli {

using Json = nlohmann::ordered_json;

/// The name of the option that sets the file-size limit, as refusals quote it.
using orca::app::kMaxFileSizeOption; // the option (max_file_size_name.hpp)
/// Scene-loading options with the --max-file-size limit (named in refusals).
[[nodiscard]] scene::LoadOptions cliLoadOptions(std::uint64_t maxFileSize);
/// Loads a scene, printing its warnings ("FILE: warning: at PATH: ...") and, on failure, the
/// loader's error on `err`. nullopt on failure.
std::optional<scene::LoadResult> loadForCli(const std::string& file, std::ostream& err,
                                            const scene::LoadOptions& options = {});
/// The most steps any step option takes (--steps, --max-steps, --at, --step, --verify): 10^12,
/// eleven days at a microsecond per step. A larger count is a usage error (exit 2): it would
/// never finish. No buffer grows with the count asked for (step times are thinned, events are
/// counted or printed as they come), so a run of any accepted length fits in bounded memory.
inline constexpr std::int64_t kMaxSteps = 1'000'000'000'000;

/// How long `orca run` and `orca events` run: exactly --steps when given; otherwise until every
/// goal agent is at its goal (at most --max-steps) with --until-goals or when the scene has goal
/// agents; otherwise 100 steps.
struct RunLength {
    std::int64_t limit = 100;
    bool stopAtGoals = false;
    bool explicitCap = false; ///< --max-steps was given (else the default cap)
    /// True when the run is over before reaching `limit` (every goal agent at its goal).
    [[nodiscard]] bool done(const Simulator& sim) const {
        return stopAtGoals && sim.goalAgentCount() > 0 && sim.allAtGoal();
    }
    /// True when a run until the goals stopped at its cap after `steps` steps, with goal
    /// agents (or without any) not at their goals.
    [[nodiscard]] bool capReached(const Simulator& sim, std::int64_t steps) const {
        return stopAtGoals && steps >= limit && !done(sim);
    }
};
[[nodiscard]] RunLength runLength(const std::optional<std::int64_t>& steps, bool untilGoals,
                                  const std::optional<std::int64_t>& maxSteps,
                                  const Simulator& sim);
/// The default cap of a run until the goals (--max-steps).
inline constexpr std::int64_t kDefaultMaxSteps = 10000;
/// Says on `err` that a run until the goals stopped at its cap: "CMD: note: stopped at the step
/// cap (--max-steps N) with K of G goal agents not at their goal".
void noteCapReached(std::string_view command, const RunLength& length, const Simulator& sim,
                    std::ostream& err);
/// Appends one CSV row "step,agent,v1,v2,...\n" of a trajectory, each number the shortest text
/// that reads back as exactly it (std::to_chars).
void appendCsvRow(std::string& out, std::uint64_t step, std::size_t agent,
                  std::initializer_list<double> values);
/// A number, or null when it is not finite (the scene library's, explain_json.hpp).
using orca::finiteOrNull;
/// `value` as finiteOrNull does; when it is not finite, also names it in `nonFinite` (an
/// object: {"minClearance": "inf"}, "-inf" or "nan"), so that a null never hides an overflow.
[[nodiscard]] Json finiteOrNoted(const char* key, double value, Json& nonFinite);

/// The deepest overlap over a run from its smallest agent-pair clearance: 0 when no pair
/// overlapped (a clearance >= 0, or +inf: no pair was near), else -clearance (+inf for -inf).
[[nodiscard]] inline double maxOverlapDepth(double minClearance) {
    return minClearance >= 0.0 ? 0.0 : -minClearance;
}

/// A path as messages and JSON reports show it: valid UTF-8 kept, other bytes as \xNN
/// (path_text.hpp).
using scene::displayPath;
/// The JSON text every command prints: `indent` as nlohmann's dump, and bytes that are not
/// UTF-8 replaced by U+FFFD instead of an exception (a safety net: paths are put in as
/// displayPath already).
[[nodiscard]] std::string dumpJson(const Json& j, int indent = 2);

/// A file a command reads or writes, named by how its messages call it ("the scene",
/// "--trajectory"); an empty path is a file not given.
struct NamedFile {
    std::string_view name;
    std::string_view path;
};
/// Refuses outputs that would overwrite an input or each other: false (and a message on `err`
/// naming both, "orca run: error: --trajectory names the same file as the scene (X)") when an
/// output is the same file as an input or as another output. Two names are the same file when
/// both exist and are equivalent (hard and symbolic links included), or when their absolute,
/// normalised forms with symbolic links resolved (weakly_canonical) are equal — so ./x, x and
/// d/../x match. Callers exit with kUsage.
bool checkOutputsDistinct(std::string_view command, std::initializer_list<NamedFile> inputs,
                          std::initializer_list<NamedFile> outputs, std::ostream& err);
/// "--agent K is out of range: the scene has N agents (indices 0..N-1)" check; prints the
/// message naming the scene on `err` and returns false when `agent` is out of range.
bool checkAgentIndex(const std::string& file, std::int64_t agent, std::size_t agentCount,
                     std::ostream& err, const char* option = "--agent");

} // namespace orca::cli
