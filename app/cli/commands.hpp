#pragma once
// The `orca` command-line tool's commands, separated from argument parsing so that each
// returns an exit code and writes only to the streams it is given.

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "orca/conformance.hpp"
#include "orca/scene/scene.hpp"

namespace orca::cli {

/// Exit codes of every command.
enum ExitCode : int {
    kOk = 0,
    kBadInput = 1,
    kUsage = 2,
    kDeviates = 3 ///< `orca conform`: the run departs from ORCA somewhere
};

struct RunOptions {
    std::string scene;
    std::optional<std::int64_t> steps;    ///< run exactly this many steps
    bool untilGoals = false;              ///< stop when every goal agent is at its goal
    std::optional<std::int64_t> maxSteps; ///< cap for untilGoals (default kDefaultMaxSteps)
    int threads = 1;
    std::string saveState;      ///< write the final state here (scene format)
    std::string trajectory;     ///< write step,agent,x,y,vx,vy rows here
    std::string recording;      ///< write a recording here (docs/recording-format.md)
    bool metrics = true;        ///< clearance/overlap metrics every step
    std::optional<bool> detour; ///< overrides the scene's detour.enabled
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
    /// --record: keep the app's recording (orca::History) after every step.
    bool record = false;
    /// --history-budget: its memory budget in bytes (>= 1 MiB; default History's 256 MiB).
    std::optional<std::uint64_t> historyBudget;
    /// --events: detect events as the app does (in the recording with --record).
    bool events = false;
};
int runCommand(const RunOptions& opt, std::ostream& out, std::ostream& err);

struct ExplainOptions {
    std::string scene;
    std::int64_t agent = 0; ///< index in file order
    std::int64_t steps = 0; ///< steps to run before explaining
    int threads = 1;
    bool lpTrace = false; ///< add "lpTrace": the linear programs step by step
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
int explainCommand(const ExplainOptions& opt, std::ostream& out, std::ostream& err);

struct ValidateOptions {
    std::vector<std::string> scenes;
    /// Also run the scene linter (scene_lint.hpp) on each file as written (no winding repair);
    /// lint errors make the exit status 1, warnings and infos do not.
    bool lint = false;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
int validateCommand(const ValidateOptions& opt, std::ostream& out, std::ostream& err);

struct GenerateOptions {
    std::string workload; ///< "circle", "uniform", "doorway" or "corridor"
    std::int64_t agents = 250;
    std::uint32_t seed = 42;
    std::string output; ///< file to write (atomically); empty = stdout
    /// doorway / corridor (generators.hpp: Doorway, CorridorCounterflow).
    int perSide = 8;        ///< --per-side: agents on each side (per flow)
    double gap = -1.0;      ///< --gap: the doorway's gap width; negative = 2.4 × radius
    bool noRoutes = false;  ///< --no-routes: the doorway without waypoints
    bool keepRight = false; ///< --keep-right: the corridor's keep-right waypoints
    double width = 6.0;     ///< --width: the corridor's free width
    double length = 30.0;   ///< --length: the corridor's length
};
int generateCommand(const GenerateOptions& opt, std::ostream& out, std::ostream& err);

struct EventsOptions {
    std::string scene;
    std::optional<std::int64_t> steps;    ///< run exactly this many steps
    bool untilGoals = false;              ///< stop when every goal agent is at its goal
    std::optional<std::int64_t> maxSteps; ///< cap for untilGoals (default kDefaultMaxSteps)
    std::vector<std::string> kinds;       ///< only these kinds (empty = all)
    std::optional<std::int64_t> agent;    ///< only events involving this agent (file order)
    int threads = 1;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// events_cmd.cpp
int eventsCommand(const EventsOptions& opt, std::ostream& out, std::ostream& err);

struct RecordingOptions {
    std::string file;
    std::string csv; ///< write step,agent,x,y,vx,vy,pvx,pvy rows here
};
/// `orca recording FILE`: a recording's summary as JSON; --csv writes its frames.
int recordingCommand(const RecordingOptions& opt, std::ostream& out, std::ostream& err);

struct ConformOptions {
    /// SCENE TRAJECTORY.csv, or RECORDING.orcarec alone (it carries its scenes).
    std::vector<std::string> files;
    /// ConformanceOptions::tolerance; default by the run's precision (defaultTolerance).
    std::optional<double> tolerance;
    bool all = false; ///< list every deviation
    int threads = 1;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// conform_cmd.cpp: `orca conform`, where a recorded run departs from ORCA
/// (docs/conformance.md). Exit 0 when it conforms, kDeviates when it does not.
int conformCommand(const ConformOptions& opt, std::ostream& out, std::ostream& err);

struct DiagnoseOptions {
    std::string scene;
    std::int64_t agent = 0; ///< index in file order
    std::int64_t step = 0;  ///< steps to run before diagnosing
    std::string fixOut;     ///< write the scene with the (chosen) fix applied from step 0
    std::optional<std::int64_t> verify; ///< run original and fixed this many steps
    std::optional<std::int64_t> fix;    ///< the candidate to use (index into "fixes")
    int threads = 1;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// diagnose_cmd.cpp
int diagnoseCommand(const DiagnoseOptions& opt, std::ostream& out, std::ostream& err);

struct CompareOptions {
    std::string scene;
    std::int64_t at = 0;                  ///< split step
    std::int64_t steps = 200;             ///< steps after the split
    std::vector<std::string> assignments; ///< NAME=VALUE
    std::vector<std::int64_t> agents;     ///< empty = every agent
    int threads = 1;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// compare_cmd.cpp
int compareCommand(const CompareOptions& opt, std::ostream& out, std::ostream& err);

struct RoutesOptions {
    std::string scene;
    std::int64_t step = 0;             ///< steps to run first
    std::optional<std::int64_t> agent; ///< only this agent (file order)
    int threads = 1;
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// routes_cmd.cpp: every goal agent's route and the roadmap, as JSON.
int routesCommand(const RoutesOptions& opt, std::ostream& out, std::ostream& err);

struct ImportOptions {
    std::vector<std::string> files; ///< a SteerSuite file; a Menge project; or scene + behaviour
    std::string output;             ///< the scene to write (atomically); empty = report only
    std::uint32_t seed = 1;         ///< seeds every random placement (docs/import.md)
    std::uint64_t maxFileSize = scene::kDefaultMaxFileSize; ///< --max-file-size (bytes)
};
/// import_cmd.cpp: `orca import`, SteerSuite and Menge scenarios as a scene plus a JSON report
/// of what was imported and dropped (docs/import.md).
int importCommand(const ImportOptions& opt, std::ostream& out, std::ostream& err);

struct ParamsOptions {
    bool json = false; ///< the table as JSON instead of plain text
};
/// params_cmd.cpp: the parameter table (orca/parameters.hpp).
int paramsCommand(const ParamsOptions& opt, std::ostream& out, std::ostream& err);

} // namespace orca::cli
