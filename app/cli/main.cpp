// `orca`: run, explain and validate ORCA scenes without a window.
#include <charconv>
#include <cmath>
#include <cstdint>
#include <exception>
#include <iostream>
#include <string>
#include <string_view>

#include <CLI/CLI.hpp>

#include "cli_common.hpp"
#include "commands.hpp"
#include "max_file_size_option.hpp"
#include "orca/scene/workloads.hpp"
#include "orca/simulator.hpp"

namespace {

using orca::cli::kMaxSteps;

/// Reads a whole number >= 0 from `text` into `value` (saturated at INT64_MAX when larger);
/// the message for anything else ("" when it is one). `what` names it: "a number of steps".
std::string wholeNumber(const std::string& text, const char* what, std::int64_t& value) {
    if (text.starts_with('-')) return text + " is negative: " + what + " is 0 or more";
    const char* end = text.data() + text.size();
    const auto r = std::from_chars(text.data(), end, value);
    if (r.ptr != end || (r.ec != std::errc() && r.ec != std::errc::result_out_of_range))
        return "\"" + text + "\" is not a whole number";
    if (r.ec == std::errc::result_out_of_range) value = INT64_MAX;
    return "";
}

/// A number of steps: a whole number in [0, kMaxSteps] (cli_common.hpp; README, "The orca
/// command line"). Its messages name the limit in digits, never a 300-digit double.
CLI::Validator stepCount() {
    return CLI::Validator(
        [](std::string& text) {
            std::int64_t v = 0;
            if (std::string e = wholeNumber(text, "a number of steps", v); !e.empty()) return e;
            if (v > kMaxSteps)
                return text + " is more than the " + std::to_string(kMaxSteps) +
                       " (10^12) steps orca takes at most";
            return std::string();
        },
        "INT in [0, 10^12]", "STEPS");
}

/// An index in file order (an agent, a fix): a whole number >= 0; the scene decides the rest.
CLI::Validator indexNumber() {
    return CLI::Validator(
        [](std::string& text) {
            std::int64_t v = 0;
            if (std::string e = wholeNumber(text, "an index (file order)", v); !e.empty()) return e;
            // (Larger than any scene's: said as typed, not clamped to 2^63 - 1.)
            return v == INT64_MAX ? text + " is too large for an index" : std::string();
        },
        "INT >= 0", "INDEX");
}

/// A finite number >= 0 (conform's --tolerance).
CLI::Validator finiteNonNegative() {
    return CLI::Validator(
        [](std::string& text) {
            double v = 0.0;
            const char* end = text.data() + text.size();
            const auto r = std::from_chars(text.data(), end, v);
            if (r.ec != std::errc() || r.ptr != end || !std::isfinite(v))
                return "\"" + text + "\" is not a finite number";
            if (v < 0.0) return text + " is negative: it must be 0 or more";
            return std::string();
        },
        "NUMBER >= 0", "NONNEGATIVE");
}

/// A file to write: an empty name is refused (it would write nothing and succeed).
CLI::Validator outputFile() {
    return CLI::Validator(
        [](std::string& text) {
            return text.empty() ? std::string("an empty file name: name the file to write")
                                : std::string();
        },
        "", "OUTPUT");
}

} // namespace

int main(int argc, char** argv) {
    using namespace orca::cli;
    CLI::App app{"orca: run, explain and validate ORCA (RVO2) crowd scenes headless.\n"
                 "Exit codes: 0 ok, 1 bad input (scene or file errors), 2 usage errors.",
                 "orca"};
    app.require_subcommand(1);
    app.set_version_flag("--version", "orca 0.1.0 (scene format v1)");

    // --max-file-size: on every command that reads a scene or lesson (and before the command,
    // `orca --max-file-size 64M run ...`); all write the one value.
    std::uint64_t maxFileSize = orca::scene::kDefaultMaxFileSize;
    auto addMaxFileSize = [&maxFileSize](CLI::App* cmd) {
        orca::app::addMaxFileSizeOption(*cmd, maxFileSize);
    };
    addMaxFileSize(&app);

    RunOptions run;
    CLI::App* runCmd = app.add_subcommand(
        "run", "Run a scene and print a JSON summary (steps, time, goals, clearances, LP3 "
               "use, timing) on stdout.");
    runCmd->add_option("scene", run.scene, "Scene file (JSON, format v1)")->required();
    auto* steps = runCmd->add_option("--steps", run.steps, "Run exactly N steps (at most 10^12)")
                      ->check(stepCount());
    auto* until = runCmd->add_flag(
        "--until-goals", run.untilGoals,
        "Run until every agent with a goal is at it (default when the scene has goal agents; "
        "otherwise 100 steps)");
    runCmd
        ->add_option("--max-steps", run.maxSteps,
                     "Step cap for --until-goals (default 10000, at most 10^12)")
        ->check(stepCount())
        ->needs(until);
    steps->excludes(until);
    runCmd->add_option("--threads", run.threads, "Worker threads (results do not depend on it)")
        ->check(CLI::Range(1, 256));
    runCmd
        ->add_option("--save-state", run.saveState,
                     "Write the final state as a scene file that resumes bit-identically")
        ->check(outputFile());
    runCmd
        ->add_option("--trajectory", run.trajectory,
                     "Write a CSV of step,agent,x,y,vx,vy (step 0 = initial state)")
        ->check(outputFile());
    runCmd
        ->add_option("--recording", run.recording,
                     "Write a recording (.orcarec: the scene, then every state with the "
                     "preferred velocities its step was given; docs/recording-format.md)")
        ->check(outputFile());
    std::string detour;
    runCmd
        ->add_option("--detour", detour,
                     "Turn the detour flow field on or off, overriding the scene's setting")
        ->check(CLI::IsMember({"on", "off"}));
    bool noMetrics = false;
    runCmd->add_flag("--no-metrics", noMetrics,
                     "Skip the per-step clearance/overlap measurements (faster on huge scenes)");
    auto* record = runCmd->add_flag(
        "--record", run.record,
        "Record every step as the sandbox app does (keyframes every few steps, replayable): adds "
        "\"history\" {bytes, keyframeBytes, keyframes, keyframeInterval, firstStep, lastStep, "
        "budget} and "
        "\"loopMs\" {step, record, events}: mean ms per step of the step alone and of the loop");
    orca::app::asByteSize(
        runCmd->add_option(
            "--history-budget", run.historyBudget,
            "With --record: bytes the recording's keyframes may hold (suffixes K, M, G "
            "= KiB, MiB, GiB; at least 1M; default 256M). Over it, every other "
            "keyframe is dropped and the interval doubles"))
        ->check(CLI::Validator(
            [](const std::string& text) {
                // (After the transform: a number of bytes.)
                std::uint64_t bytes = 0;
                try {
                    bytes = std::stoull(text);
                } catch (const std::exception&) {
                    return std::string("not a number of bytes");
                }
                return bytes >= (std::uint64_t{1} << 20)
                           ? std::string()
                           : "is " + std::to_string(bytes) +
                                 " bytes, below the recording's minimum of 1 MiB (1048576, "
                                 "or 1M)";
            },
            "", ">= 1M"))
        ->needs(record);
    runCmd->add_flag("--events", run.events,
                     "Detect events as the sandbox app does (in the recording with --record): "
                     "adds \"events\" {count, byKind} and the detection's time to \"loopMs\"");

    ExplainOptions explain;
    CLI::App* explainCmd = app.add_subcommand(
        "explain", "Print one agent's explain record as JSON: neighbours, every half-plane "
                   "with its case, u and VO, the feasible region, LP2/LP3 outcome, v_new.");
    explainCmd->add_option("scene", explain.scene, "Scene file")->required();
    explainCmd->add_option("--agent", explain.agent, "Agent index in file order")
        ->required()
        ->check(indexNumber());
    explainCmd->add_option("--steps", explain.steps, "Steps to run first (default 0)")
        ->check(stepCount());
    explainCmd->add_option("--threads", explain.threads, "Worker threads for those steps")
        ->check(CLI::Range(1, 256));
    explainCmd->add_flag("--lp-trace", explain.lpTrace,
                         "Add \"lpTrace\": LP2 line by line (LP1 intervals and clips), LP3's "
                         "phases (projected lines, inner LP2), binding lines, the result");

    ValidateOptions validate;
    CLI::App* validateCmd = app.add_subcommand(
        "validate", "Check scene and lesson files: exit 0 when all are valid; errors name the "
                    "file, JSON path (or line:column) and what was expected. Warnings are not "
                    "fatal. A lesson (\"format\": \"orca-lesson\") is checked with its scene.");
    validateCmd->add_option("scenes", validate.scenes, "Scene or lesson files")->required();
    validateCmd->add_flag(
        "--lint", validate.lint,
        "Also lint each file as written (clockwise obstacles are not repaired): one line per "
        "issue, FILE: SEVERITY: at PATH: MESSAGE [RULE] (fix: LABEL), then the summary with "
        "issue counts. Exit 1 when a file fails to load or has lint errors; warnings and infos "
        "alone exit 0. Rules: docs/lint.md");

    GenerateOptions generate;
    CLI::App* generateCmd = app.add_subcommand(
        "generate",
        "Write a scene: the benchmark workloads circle (agents on a ring, RVO2 Circle density, "
        "heading to the antipode) and uniform (jittered grid, spacing 10, random goals); the "
        "bottlenecks doorway (two groups swap sides through a gap in a wall, lining up for it "
        "through waypoints) and corridor (two flows walk through a corridor in opposite "
        "directions). The bottlenecks use radius 0.5, maxSpeed 1.5, prefSpeed 1.2, "
        "neighborDist 10, maxNeighbors 10, timeHorizon 3, timeHorizonObst 2, timeStep 0.1 "
        "(docs/scene-format.md, Generated scenes).");
    std::vector<std::string> workloads = {"circle", "uniform", "doorway", "corridor"};
    for (const std::string& name : orca::scene::realSceneNames())
        workloads.push_back(name);
    generateCmd
        ->add_option("workload", generate.workload,
                     "circle, uniform, doorway, corridor, or a scene of the real-scene benchmark "
                     "set: hallway50, concentric250, office400, forest500, bottleneck1000, "
                     "gathering2000, space5000 (docs/performance.md, Real scenes)")
        ->required()
        ->check(CLI::IsMember(workloads));
    generateCmd
        ->add_option("--agents", generate.agents, "circle, uniform: number of agents (default 250)")
        ->check(CLI::Range(std::int64_t{1}, std::int64_t{10000000}));
    generateCmd->add_option("--seed", generate.seed,
                            "uniform: random seed of the crowd (default 42)");
    generateCmd
        ->add_option("--per-side", generate.perSide,
                     "doorway: agents on each side; corridor: agents per flow (default 8)")
        ->check(CLI::Range(1, 500000));
    generateCmd->add_option("--gap", generate.gap,
                            "doorway: width of the gap (default 1.2, one agent wide)");
    generateCmd->add_flag("--no-routes", generate.noRoutes,
                          "doorway: no waypoints (the agents head straight for their goals)");
    generateCmd->add_option("--width", generate.width,
                            "corridor: free width between the walls (default 6)");
    generateCmd->add_option("--length", generate.length, "corridor: length (default 30)");
    generateCmd->add_flag("--keep-right", generate.keepRight,
                          "corridor: waypoints that keep each flow on its right half");
    generateCmd->add_option("-o,--output", generate.output, "Output file (default: stdout)")
        ->check(outputFile());

    EventsOptions events;
    CLI::App* eventsCmd = app.add_subcommand(
        "events", "Run a scene and print its events (overlaps, obstacle penetrations, LP3 "
                  "spells, stalls, oscillations, arrivals, detours) as a JSON array ordered by "
                  "step, one event per line: {\"step\", \"kind\", \"agents\", \"obstacle\", "
                  "\"value\"}; step 0 is the initial state. Kinds and values: docs/events.md");
    eventsCmd->add_option("scene", events.scene, "Scene file")->required();
    auto* eventsSteps =
        eventsCmd->add_option("--steps", events.steps, "Run exactly N steps (at most 10^12)")
            ->check(stepCount());
    auto* eventsUntil = eventsCmd->add_flag(
        "--until-goals", events.untilGoals,
        "Run until every agent with a goal is at it (default when the scene has goal agents; "
        "otherwise 100 steps)");
    eventsCmd
        ->add_option("--max-steps", events.maxSteps,
                     "Step cap for --until-goals (default 10000, at most 10^12); a run that "
                     "reaches it ends the array with a \"step-cap-reached\" element and says so "
                     "on stderr")
        ->check(stepCount())
        ->needs(eventsUntil);
    eventsSteps->excludes(eventsUntil);
    eventsCmd
        ->add_option("--kinds", events.kinds,
                     "Only these kinds (comma-separated, e.g. overlap-begin,stalled). Kinds: "
                     "overlap-begin, overlap-end, overlap-flood-begin, overlap-flood-end, "
                     "obstacle-penetration, lp3-begin, lp3-end, stalled, oscillation, "
                     "arrived, detour-enter, detour-exit, waypoint-reached")
        ->delimiter(',');
    eventsCmd
        ->add_option("--agent", events.agent, "Only events that involve this agent (file order)")
        ->check(indexNumber());
    eventsCmd
        ->add_option("--threads", events.threads, "Worker threads (results do not depend on it)")
        ->check(CLI::Range(1, 256));

    RecordingOptions recordingOpt;
    CLI::App* recordingCmd = app.add_subcommand(
        "recording", "Read a recording (.orcarec) and print its summary as JSON: encoding, "
                     "scene records, frames, agents, first and last step, whether the file "
                     "was cut short");
    recordingCmd->add_option("file", recordingOpt.file, "Recording file")->required();
    recordingCmd
        ->add_option("--csv", recordingOpt.csv,
                     "Also write its frames as a CSV of step,agent,x,y,vx,vy,pvx,pvy "
                     "(exact numbers)")
        ->check(outputFile());

    ConformOptions conform;
    CLI::App* conformCmd = app.add_subcommand(
        "conform", "Where does a recorded run depart from ORCA? Recompute every agent's new "
                   "velocity from the recorded state before each step and compare it with the "
                   "recorded one; print the report as JSON (docs/conformance.md). Exit 0 when "
                   "the run conforms, 3 when it does not");
    conformCmd
        ->add_option("files", conform.files,
                     "SCENE TRAJECTORY.csv (rows step,agent,x,y,vx,vy[,pvx,pvy], as orca run "
                     "--trajectory writes), or RECORDING.orcarec alone")
        ->required()
        ->expected(1, 2);
    conformCmd
        ->add_option("--tolerance", conform.tolerance,
                     "A velocity deviates when |recorded - ORCA| > T x max(1, the agent's "
                     "maxSpeed) m/s. Default by the run's precision: 1e-9 for numbers in double "
                     "(our own runs differ by 0), 0.02 when every number is a float (RVO2's "
                     "float arithmetic; docs/conformance.md)")
        ->check(finiteNonNegative());
    conformCmd->add_flag("--all", conform.all, "List every deviation (\"deviations\")");
    conformCmd
        ->add_option("--threads", conform.threads, "Worker threads (results do not depend on it)")
        ->check(CLI::Range(1, 256));

    DiagnoseOptions diagnose;
    CLI::App* diagnoseCmd = app.add_subcommand(
        "diagnose", "Why is this agent doing what it does? Print the diagnosis of one agent "
                    "after S steps as JSON: class, a plain sentence, a suggested fix and the "
                    "binding half-planes. Classes: docs/diagnosis.md");
    diagnoseCmd->add_option("scene", diagnose.scene, "Scene file")->required();
    diagnoseCmd->add_option("--agent", diagnose.agent, "Agent index in file order")
        ->required()
        ->check(indexNumber());
    diagnoseCmd
        ->add_option("--step", diagnose.step,
                     "Run S steps, then diagnose the agent's next decision, judged with "
                     "the 2 s before it (default 0, at most 10^12)")
        ->check(stepCount());
    diagnoseCmd
        ->add_option("--threads", diagnose.threads,
                     "Worker threads for those steps (results do not depend on it)")
        ->check(CLI::Range(1, 256));
    diagnoseCmd
        ->add_option("--verify", diagnose.verify,
                     "Prove the fix: run the original scene and the scene with the fix applied "
                     "from step 0 N steps side by side and add \"verification\" {steps, before, "
                     "after, improved}; without --fix, the fixes are tried in order until one "
                     "improves the run")
        ->check(stepCount());
    diagnoseCmd
        ->add_option("--fix", diagnose.fix,
                     "Use this fix of the diagnosis's \"fixes\" list (default: the first, or "
                     "with --verify the first that improves the run)")
        ->check(indexNumber());
    diagnoseCmd
        ->add_option("--fix-out", diagnose.fixOut,
                     "Write the scene with the fix applied from step 0 to this file (atomically)")
        ->check(outputFile());

    CompareOptions compare;
    CLI::App* compareCmd = app.add_subcommand(
        "compare", "What changes if a parameter were different? Run a scene to step S, split "
                   "off a branch with changed parameters, run both N more steps in lockstep "
                   "and print both runs' metrics and event counts side by side as JSON.");
    compareCmd->add_option("scene", compare.scene, "Scene file")->required();
    compareCmd->add_option("--at", compare.at, "Split at this step (default 0, at most 10^12)")
        ->check(stepCount());
    compareCmd
        ->add_option("--steps", compare.steps,
                     "Steps to run both after the split (default 200, at most 10^12)")
        ->check(stepCount());
    compareCmd
        ->add_option("--set", compare.assignments,
                     "NAME=VALUE for the branch (repeatable): an agent parameter (radius, "
                     "maxSpeed, prefSpeed, neighborDist, maxNeighbors, timeHorizon or tau, "
                     "timeHorizonObst, goalRadius) or a simulation one (timeStep, "
                     "responsibility, staticResponsibility, lp3BisectorWeight)")
        ->required();
    compareCmd
        ->add_option("--agents", compare.agents,
                     "Change only these agents' parameters (file order, comma-separated)")
        ->delimiter(',')
        ->check(indexNumber());
    compareCmd
        ->add_option("--threads", compare.threads, "Worker threads (results do not depend on it)")
        ->check(CLI::Range(1, 256));

    RoutesOptions routes;
    CLI::App* routesCmd = app.add_subcommand(
        "routes", "Print every goal agent's route after S steps as JSON: its waypoints, how "
                  "many it has reached, the point it steers at and the planned polyline (along "
                  "the roadmap with \"routing\": \"roadmap\"), plus the roadmap's nodes, "
                  "edges and build time (docs/scene-format.md, Routes)");
    routesCmd->add_option("scene", routes.scene, "Scene file")->required();
    routesCmd->add_option("--step", routes.step, "Run S steps first (default 0, at most 10^12)")
        ->check(stepCount());
    routesCmd->add_option("--agent", routes.agent, "Only this agent (file order)")
        ->check(indexNumber());
    routesCmd
        ->add_option("--threads", routes.threads, "Worker threads (results do not depend on it)")
        ->check(CLI::Range(1, 256));

    ParamsOptions params;
    CLI::App* paramsCmd = app.add_subcommand(
        "params", "Print the parameter table: every simulation, detour and agent parameter "
                  "with the range the simulator accepts, the range a scene file accepts, its "
                  "default, unit and a one-line doc (docs/parameters.md).");
    paramsCmd->add_flag("--json", params.json,
                        "Print the table as JSON: {\"parameters\": [{name, scope, kind, range, "
                        "fileRange, default, unit, doc, ui}]}; ranges use JSON Schema's "
                        "(exclusive)minimum/maximum");

    ImportOptions importOpt;
    CLI::App* importCmd = app.add_subcommand(
        "import", "Import a SteerSuite test case or a Menge project (or its scene and behaviour "
                  "files) as a scene; print a JSON report {format, files, seed, agents, "
                  "obstacles, dropped: [{what, why}], notes} (docs/import.md).");
    importCmd
        ->add_option("files", importOpt.files,
                     "SteerSuite .xml; Menge project .xml; or Menge scene + behaviour .xml")
        ->required();
    importCmd
        ->add_option("-o,--output", importOpt.output,
                     "Scene file to write (atomically); without it only the report is printed")
        ->check(outputFile());
    importCmd->add_option("--seed", importOpt.seed,
                          "Seed of the random placements (std::mt19937; default 1)");

    for (CLI::App* cmd : {runCmd, explainCmd, validateCmd, eventsCmd, diagnoseCmd, compareCmd,
                          routesCmd, conformCmd, importCmd})
        addMaxFileSize(cmd);

    try {
        app.parse(argc, argv);
    } catch (const CLI::Success& e) {
        return app.exit(e); // --help, --version
    } catch (const CLI::ParseError& e) {
        app.exit(e);
        return kUsage;
    }

    run.maxFileSize = explain.maxFileSize = validate.maxFileSize = events.maxFileSize =
        diagnose.maxFileSize = compare.maxFileSize = routes.maxFileSize = conform.maxFileSize =
            importOpt.maxFileSize = maxFileSize;
    run.metrics = !noMetrics;
    if (!detour.empty()) run.detour = detour == "on";
    // A simulation that would reach a NaN or infinite state stops with the core's message
    // (which step, which agent) and exit code 1, never with numbers that are not numbers.
    const std::string* scene = *runCmd       ? &run.scene
                               : *explainCmd ? &explain.scene
                               : *eventsCmd  ? &events.scene
                               : *compareCmd ? &compare.scene
                               : *routesCmd  ? &routes.scene
                                             : &diagnose.scene;
    try {
        if (*runCmd) return runCommand(run, std::cout, std::cerr);
        if (*explainCmd) return explainCommand(explain, std::cout, std::cerr);
        if (*generateCmd) return generateCommand(generate, std::cout, std::cerr);
        if (*eventsCmd) return eventsCommand(events, std::cout, std::cerr);
        if (*compareCmd) return compareCommand(compare, std::cout, std::cerr);
        if (*diagnoseCmd) return diagnoseCommand(diagnose, std::cout, std::cerr);
        if (*paramsCmd) return paramsCommand(params, std::cout, std::cerr);
        if (*routesCmd) return routesCommand(routes, std::cout, std::cerr);
        if (*recordingCmd) return recordingCommand(recordingOpt, std::cout, std::cerr);
        if (*conformCmd) return conformCommand(conform, std::cout, std::cerr);
        if (*importCmd) return importCommand(importOpt, std::cout, std::cerr);
        return validateCommand(validate, std::cout, std::cerr);
    } catch (const orca::NonFiniteState& e) {
        std::cout.flush();
        std::cerr << displayPath(*scene) << ": error: " << e.what() << '\n';
        return kBadInput;
    }
}
