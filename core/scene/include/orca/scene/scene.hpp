#pragma once
/// \file scene.hpp
/// Scene files, format v1 ("orca-scene", JSON): the in-memory model, loading with precise
/// errors, atomic saving, and conversion to/from a Simulator. See docs/scene-format.md.
///
/// Target `orca_scene` (depends on nlohmann/json); the simulator core does not.

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "orca/simulator.hpp"
#include "orca/types.hpp"

namespace orca::scene {

/// Largest magnitude a scene file accepts for coordinates, velocities, lengths, speeds and time
/// spans. Far beyond any sensible scene, and small enough that squared distances (up to ~1e15)
/// stay far from overflow and the solver's absolute epsilons (1e-5) still mean something.
inline constexpr double kMaxMagnitude = 1e7;

/// Whether a scene file can hold point v: each coordinate within ±kMaxMagnitude (NaN fails).
[[nodiscard]] inline bool withinSceneLimits(Vec2 v) {
    return std::fabs(v.x) <= kMaxMagnitude && std::fabs(v.y) <= kMaxMagnitude;
}

/// Per-agent overrides of the scene's agentDefaults (unset = use the default).
struct AgentOverrides {
    std::optional<double> radius;
    std::optional<double> maxSpeed;
    std::optional<double> prefSpeed;
    std::optional<double> neighborDist;
    std::optional<int> maxNeighbors;
    std::optional<double> timeHorizon;
    std::optional<double> timeHorizonObst;
    std::optional<double> goalRadius;
    std::optional<double> waypointRadius;
    std::optional<double> avoidanceWeight;

    /// `base` with every set override applied.
    [[nodiscard]] AgentParams appliedTo(AgentParams base) const;

    friend bool operator==(const AgentOverrides&, const AgentOverrides&) = default;
};

/// Calls f(key, override, param) for every agent parameter in file order, where `override`
/// is the AgentOverrides member and `param` the matching AgentParams member (both of the same
/// value type: double, or int for maxNeighbors). The one list of parameter keys.
template <class Overrides, class Params, class F>
void forEachAgentParam(Overrides& o, Params& p, F&& f) {
    f("radius", o.radius, p.radius);
    f("maxSpeed", o.maxSpeed, p.maxSpeed);
    f("prefSpeed", o.prefSpeed, p.prefSpeed);
    f("neighborDist", o.neighborDist, p.neighborDist);
    f("maxNeighbors", o.maxNeighbors, p.maxNeighbors);
    f("timeHorizon", o.timeHorizon, p.timeHorizon);
    f("timeHorizonObst", o.timeHorizonObst, p.timeHorizonObst);
    f("goalRadius", o.goalRadius, p.goalRadius);
    f("waypointRadius", o.waypointRadius, p.waypointRadius);
    f("avoidanceWeight", o.avoidanceWeight, p.avoidanceWeight);
}

/// One agent as written in the file.
struct SceneAgent {
    std::optional<nlohmann::json> id; ///< Optional user id (string or integer), kept verbatim.
    Vec2 position{0.0, 0.0};
    std::optional<Vec2> velocity; ///< Absent = zero (kept absent on save).
    std::optional<Vec2> goal;
    std::optional<Vec2> prefVelocity; ///< Constant preferred velocity (no goal).
    bool isStatic = false;
    /// Points visited in order before the goal (the agent key "waypoints"; needs a goal).
    std::vector<Vec2> waypoints;
    AgentOverrides overrides;
    /// Run-time detour state (the agent key "state"), written by captureState so that a saved
    /// state resumes bit-identically; default for new scenes.
    DetourMode detourMode = DetourMode::Normal;
    double stillSeconds = 0.0;
    /// Waypoints already reached (the state key "routeProgress").
    std::uint32_t routeProgress = 0;
    /// Deadlock breaking's stall timer (the state key "stallSeconds", s).
    double stallSeconds = 0.0;
};

/// "straight" or "roadmap" (the simulation key "routing").
[[nodiscard]] std::string_view toString(Routing routing);

/// One obstacle polygon as written in the file: counter-clockwise after the loader's winding
/// repair (LoadOptions::repairWinding), exactly as written without it.
struct SceneObstacle {
    std::optional<nlohmann::json> id; ///< Optional user id (string or integer), kept verbatim.
    std::vector<Vec2> vertices;
};

/// Simulation block (the "simulation" and "detour" blocks of the file). `time`/`step` record
/// where a saved state was taken (0 for new scenes).
struct SimulationBlock {
    SimulationParams params;
    double time = 0.0;
    std::uint64_t step = 0;
};

/// A whole scene. Unknown top-level blocks (e.g. an app's "view") are kept in `extra`
/// verbatim and written back on save.
struct Scene {
    std::string name;
    std::string description;
    SimulationBlock simulation;
    AgentParams agentDefaults; ///< Built-in defaults = RVO2 Circle's values.
    std::vector<SceneAgent> agents;
    std::vector<SceneObstacle> obstacles;
    nlohmann::ordered_json extra = nlohmann::ordered_json::object();

    /// The agent's parameters with overrides applied.
    [[nodiscard]] AgentParams resolvedParams(const SceneAgent& agent) const;
    /// The agent as the simulator takes it.
    [[nodiscard]] AgentDef agentDef(const SceneAgent& agent) const;

    friend bool operator==(const Scene&, const Scene&);
};

/// A load or save failure. what() is the full human-readable message:
/// "FILE:LINE:COLUMN: error: MESSAGE" for syntax errors, "FILE: error: at PATH: MESSAGE"
/// otherwise.
class SceneError : public std::runtime_error {
  public:
    SceneError(std::string file, std::string jsonPath, int line, int column, std::string message);
    [[nodiscard]] const std::string& file() const { return m_file; }
    /// JSON path of the offending value, e.g. "agents[12].radius" ("" for syntax errors).
    [[nodiscard]] const std::string& jsonPath() const { return m_jsonPath; }
    /// 1-based line/column of a syntax error; 0 when not applicable.
    [[nodiscard]] int line() const { return m_line; }
    [[nodiscard]] int column() const { return m_column; }
    /// The message without file/path prefix.
    [[nodiscard]] const std::string& message() const { return m_message; }

  private:
    std::string m_file;
    std::string m_jsonPath;
    int m_line;
    int m_column;
    std::string m_message;
};

/// A non-fatal remark made while loading (e.g. a clockwise obstacle that was reversed).
struct SceneWarning {
    std::string jsonPath;
    std::string message;
};

struct LoadResult {
    Scene scene;
    std::vector<SceneWarning> warnings;
};

/// Default largest file the loaders read (scenes, lessons): 1 GiB. Hand-made scenes are a few
/// KiB; `orca generate uniform` writes about 10 MiB per 100,000 agents, so its largest scenes
/// (10 million agents) come close to the limit and may need a larger one.
inline constexpr std::uint64_t kDefaultMaxFileSize = std::uint64_t{1} << 30;

/// How to load a scene.
struct LoadOptions {
    /// Reverse clockwise obstacle polygons (with a warning) so that the scene can be simulated.
    /// False keeps them as written (no warning), e.g. for the linter, which reports them.
    /// Invalid polygons (see checkPolygon) are rejected either way.
    bool repairWinding = true;
    /// Largest file loadScene reads, in bytes (see readTextFile). Larger files are refused
    /// before anything is read.
    std::uint64_t maxFileSize = kDefaultMaxFileSize;
    /// How the user changes maxFileSize, named in the refusal (e.g. "--max-file-size"); empty
    /// when there is no such setting. (The "= {}" keeps g++'s -Wmissing-field-initializers quiet
    /// about designated initialisers such as LoadOptions{.repairWinding = false}.)
    std::string maxFileSizeSetting = {};
};

/// Parses scene text. `fileName` is used in messages only. Throws SceneError; never returns a
/// partially loaded scene.
[[nodiscard]] LoadResult parseScene(const std::string& text, const std::string& fileName);
[[nodiscard]] LoadResult parseScene(const std::string& text, const std::string& fileName,
                                    const LoadOptions& options);
/// Reads and parses a file. Throws SceneError (also when the file cannot be read).
[[nodiscard]] LoadResult loadScene(const std::filesystem::path& path);
[[nodiscard]] LoadResult loadScene(const std::filesystem::path& path, const LoadOptions& options);

/// Parses JSON text with the scene loader's checks but without interpreting it: syntax errors
/// as "FILE:LINE:COLUMN: error: ..." with hints for the usual hand-editing mistakes, duplicate
/// keys, nesting deeper than 256 levels, numbers that overflow a double. For other file formats
/// built on this loader (lessons, lesson.hpp). Throws SceneError.
[[nodiscard]] nlohmann::ordered_json parseJsonText(const std::string& text,
                                                   const std::string& fileName);
/// Reads a whole file, refusing hostile ones at once: the one reader of every file the scene
/// library, the CLI and the app read (scenes, lessons, recordings, trajectories, imports,
/// the app's settings, recovery and layout files). Throws SceneError naming the file and why:
/// - "cannot open the file: REASON" (missing, no permission...);
/// - "not a regular file (KIND)" for a directory, character device (/dev/zero), block device,
///   FIFO or socket: these are refused without reading (a FIFO without blocking). Symbolic
///   links are followed: a link to a regular file is fine;
/// - "SIZE is larger than the LIMIT limit (SETTING)" when the file has more than `maxBytes`
///   bytes. The read itself is capped at maxBytes + 1 bytes, so a file that grows after the
///   size check is refused too ("... grew past the LIMIT limit while being read").
/// `maxBytes` = maxFileSize of LoadOptions; `setting` as LoadOptions::maxFileSizeSetting.
[[nodiscard]] std::string readTextFile(const std::filesystem::path& path,
                                       std::uint64_t maxBytes = kDefaultMaxFileSize,
                                       const std::string& setting = {});
/// The first `bytes` bytes of a file (all of a shorter one), by the same reader and with the
/// same refusals as readTextFile except the size limit: for telling file formats apart by
/// their first bytes (recordings, importers) without blocking on a FIFO or reading a device.
[[nodiscard]] std::string readFilePrefix(const std::filesystem::path& path, std::size_t bytes);
/// A byte count as people read it: "512 bytes", "64 MiB", "1.5 GiB" (binary units, at most one
/// decimal).
[[nodiscard]] std::string formatByteSize(std::uint64_t bytes);
/// How messages describe a JSON value: "string \"abc\"", "number 3", "an array", "null"...
[[nodiscard]] std::string describeJsonValue(const nlohmann::ordered_json& value);
/// The message for an unknown key: "unknown key \"raduis\" (did you mean \"radius\"?)", or
/// the list of valid keys when none is close.
[[nodiscard]] std::string unknownKeyMessage(std::string_view key,
                                            std::span<const std::string_view> valid);

/// Serialises a scene in a stable, diff-friendly layout (fixed key order, one agent per line)
/// with numbers that round-trip exactly.
[[nodiscard]] std::string serializeScene(const Scene& scene);
/// Writes atomically with writeFileAtomic (atomic_write.hpp): a temporary file
/// ".NAME.tmp-PID-XXXXXX" in the same directory, written, fsync'ed and closed, then renamed over
/// `path`; the directory is then fsync'ed (best effort). Refuses (SceneError, nothing written) a
/// scene that would not load again. Throws SceneError on failure (the temporary file is removed
/// and the old file is untouched). A process killed mid-save leaves `path` intact but its
/// temporary file behind; saveScene removes no such leftovers (tests/cli/save_kill_test.cpp).
void saveScene(const Scene& scene, const std::filesystem::path& path);

/// Creates a simulator holding the scene's agents (in order) and obstacles. Throws
/// InvalidArgument when the simulator rejects an agent or an obstacle (e.g. a clockwise one).
[[nodiscard]] Simulator buildSimulator(const Scene& scene);

/// What buildSimulator(scene, report) left out.
struct BuildReport {
    /// Indices (into Scene::obstacles, ascending) of the obstacles that were not added.
    std::vector<std::size_t> skippedObstacles;
    /// One sentence per skipped obstacle, same order, e.g. "obstacles[2] is clockwise; ...".
    std::vector<std::string> reasons;
};
/// Like buildSimulator(scene), but instead of throwing on an obstacle the simulator would
/// reject (clockwise, or invalid per checkPolygon) it skips that obstacle and lists it in
/// `report` (which is cleared first), so that an app can keep running while a scene being edited
/// holds such an obstacle. The simulator's obstacle order is the scene's minus the skipped ones.
/// Still throws InvalidArgument for invalid agents or simulation parameters.
[[nodiscard]] Simulator buildSimulator(const Scene& scene, BuildReport& report);
/// A copy of `scene` with every agent's position and velocity (and the clock) taken from the
/// simulator, which must hold the scene's agents in the same order.
[[nodiscard]] Scene captureState(const Scene& scene, const Simulator& sim);

} // namespace orca::scene
