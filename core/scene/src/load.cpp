#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <initializer_list>
#include <limits>
#include <span>
#include <stdexcept>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "json_format.hpp"
#include "orca/obstacles.hpp"
#include "orca/parameters.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

namespace {

using namespace detail;

// ---- Key sets ---------------------------------------------------------------------------------

constexpr std::array<std::string_view, 9> kTopKeys = {"format",      "version",    "name",
                                                      "description", "simulation", "agentDefaults",
                                                      "detour",      "agents",     "obstacles"};
constexpr std::array<std::string_view, 4> kStateKeys = {"detour", "stillSeconds", "routeProgress",
                                                        "stallSeconds"};

/// The JSON names of one scope's parameter rows (parameters.hpp), in member order, then
/// `extra` (keys of the block that are not parameters).
std::vector<std::string_view> rowNames(ParamScope scope,
                                       std::initializer_list<std::string_view> extra = {}) {
    std::vector<std::string_view> keys;
    for (const ParamRow& row : parameterTable(scope))
        keys.push_back(row.name);
    keys.insert(keys.end(), extra.begin(), extra.end());
    return keys;
}

/// The keys of each block: the parameter rows in member order (also the saved order), plus
/// the block's other keys. checkKeys suggests the nearest of them for a misspelt key.
const std::vector<std::string_view>& simulationKeys() {
    static const std::vector<std::string_view> keys =
        rowNames(ParamScope::Simulation, {"routing", "deadlockBreaking", "time", "step"});
    return keys;
}
const std::vector<std::string_view>& detourKeys() {
    static const std::vector<std::string_view> keys = rowNames(ParamScope::Detour);
    return keys;
}
const std::vector<std::string_view>& paramKeys() {
    static const std::vector<std::string_view> keys = rowNames(ParamScope::Agent);
    return keys;
}
const std::vector<std::string_view>& agentKeys() {
    static const std::vector<std::string_view> keys = [] {
        std::vector<std::string_view> k = {"id",           "position", "velocity", "goal",
                                           "prefVelocity", "static",   "waypoints"};
        for (const ParamRow& row : parameterTable(ParamScope::Agent))
            k.push_back(row.name);
        k.emplace_back("state");
        return k;
    }();
    return keys;
}
constexpr std::array<std::string_view, 2> kObstacleKeys = {"id", "vertices"};

// ---- Validation ---------------------------------------------------------------------------------

class Loader : JsonReader {
  public:
    Loader(std::string file, const LoadOptions& options)
        : JsonReader(std::move(file)), m_options(options) {}

    LoadResult load(const OJson& root) {
        if (!root.is_object())
            fail("", "expected a JSON object at the top level, got " + describe(root));
        checkHeader(root);
        checkTopLevelKeys(root);

        LoadResult result;
        Scene& scene = result.scene;
        if (const auto* v = find(root, "name")) scene.name = string(*v, "name");
        if (const auto* v = find(root, "description")) {
            scene.description = string(*v, "description");
        }
        if (const auto* v = find(root, "simulation")) scene.simulation = simulation(*v);
        if (const auto* v = find(root, "agentDefaults")) scene.agentDefaults = defaults(*v);
        if (const auto* v = find(root, "detour")) scene.simulation.params.detour = detour(*v);
        const OJson* agents = find(root, "agents");
        if (agents == nullptr) {
            fail("", "missing required key \"agents\" (an array of agents; it may be empty)");
        }
        if (!agents->is_array()) fail("agents", "expected an array, got " + describe(*agents));
        scene.agents.reserve(agents->size());
        for (std::size_t i = 0; i < agents->size(); ++i) {
            scene.agents.push_back(agent((*agents)[i], indexPath("agents", i)));
        }
        if (const auto* obstacles = find(root, "obstacles")) {
            if (!obstacles->is_array()) {
                fail("obstacles", "expected an array, got " + describe(*obstacles));
            }
            scene.obstacles.reserve(obstacles->size());
            for (std::size_t i = 0; i < obstacles->size(); ++i) {
                scene.obstacles.push_back(
                    obstacle((*obstacles)[i], indexPath("obstacles", i), result.warnings));
            }
        }
        for (auto it = root.begin(); it != root.end(); ++it) {
            if (std::find(kTopKeys.begin(), kTopKeys.end(), it.key()) == kTopKeys.end()) {
                scene.extra[it.key()] = it.value();
            }
        }
        return result;
    }

    void checkHeader(const OJson& root) const {
        const OJson* format = find(root, "format");
        if (format == nullptr) {
            fail("", "missing required key \"format\" (a scene file starts with "
                     "\"format\": \"orca-scene\", \"version\": 1)");
        }
        if (!format->is_string() || format->get<std::string>() != kFormatName) {
            fail("format", "expected \"orca-scene\", got " + describe(*format) +
                               " (this is not an ORCA Sandbox scene file)");
        }
        const OJson* version = find(root, "version");
        if (version == nullptr) fail("", "missing required key \"version\" (expected 1)");
        const std::optional<std::int64_t> v = integerValue(*version);
        if (!v) fail("version", "expected the integer 1, got " + describe(*version));
        if (*v > kFormatVersion) {
            fail("version", "the file was written by a newer version of ORCA Sandbox (scene "
                            "format version " +
                                std::to_string(*v) + "); this build reads version 1 only");
        }
        if (*v != kFormatVersion) {
            fail("version",
                 "unsupported scene format version " + std::to_string(*v) + " (expected 1)");
        }
    }

    void checkTopLevelKeys(const OJson& root) const {
        for (auto it = root.begin(); it != root.end(); ++it) {
            const std::string& key = it.key();
            if (std::find(kTopKeys.begin(), kTopKeys.end(), key) != kTopKeys.end()) continue;
            const Suggestion s = closestKey(key, kTopKeys);
            // Short keys get a tighter threshold so that e.g. "note" is not taken for "name".
            const std::size_t limit = key.size() <= 4 ? 1 : 2;
            if (s.distance <= limit) {
                fail("", "unknown top-level key " + quote(key) + " (did you mean " +
                             quote(std::string(s.key)) +
                             "?); unknown top-level blocks are kept as they are, but this one "
                             "looks like a misspelling and its contents would be ignored");
            }
        }
    }

    SimulationBlock simulation(const OJson& j) const {
        const std::string path = "simulation";
        requireObject(j, path);
        checkKeys(j, path, simulationKeys());
        SimulationBlock block;
        for (const ParamRow& row : parameterTable(ParamScope::Simulation)) {
            const auto* v = find(j, row.name);
            if (v == nullptr) continue;
            const std::string p = childPath(path, row.name);
            if (row.kind == ParamKind::Boolean) {
                row.setSimulation(block.params, boolean(*v, p) ? 1.0 : 0.0);
                continue;
            }
            const double value = parameter(*v, p, row);
            checkUpperBound(row, value, p);
            row.setSimulation(block.params, value);
        }
        if (const auto* v = find(j, "routing")) {
            const std::string p = childPath(path, "routing");
            if (!v->is_string())
                fail(p, "expected \"straight\" or \"roadmap\", got " + describe(*v));
            const std::string routing = v->get<std::string>();
            if (routing == "roadmap") {
                block.params.routing = Routing::Roadmap;
            } else if (routing != "straight") {
                fail(p, "expected \"straight\" or \"roadmap\", got \"" + routing + "\"");
            }
        }
        if (const auto* v = find(j, "deadlockBreaking")) {
            const std::string p = childPath(path, "deadlockBreaking");
            if (!v->is_string()) fail(p, "expected \"off\" or \"on\", got " + describe(*v));
            const std::string mode = v->get<std::string>();
            if (mode != "off" && mode != "on")
                fail(p, "expected \"off\" or \"on\", got \"" + mode + "\"");
            block.params.deadlockBreaking = mode == "on";
        }
        if (const auto* v = find(j, "time")) {
            block.time = number(*v, childPath(path, "time"), Bound::NonNegative,
                                std::numeric_limits<double>::max());
        }
        if (const auto* v = find(j, "step")) {
            block.step = static_cast<std::uint64_t>(
                count(*v, childPath(path, "step"), std::numeric_limits<std::int64_t>::max()));
        }
        return block;
    }

    DetourParams detour(const OJson& j) const {
        const std::string path = "detour";
        requireObject(j, path);
        checkKeys(j, path, detourKeys());
        // The booleans, then the numbers against their lower bounds, then against their upper
        // bounds: a file with several invalid values reports the first in this order.
        SimulationParams p;
        const std::span<const ParamRow> rows = parameterTable(ParamScope::Detour);
        for (const ParamRow& row : rows) {
            if (row.kind != ParamKind::Boolean) continue;
            if (const auto* v = find(j, row.name))
                row.setSimulation(p, boolean(*v, childPath(path, row.name)) ? 1.0 : 0.0);
        }
        for (const ParamRow& row : rows) {
            if (row.kind == ParamKind::Boolean) continue;
            if (const auto* v = find(j, row.name))
                row.setSimulation(p, parameter(*v, childPath(path, row.name), row));
        }
        for (const ParamRow& row : rows) {
            if (row.kind == ParamKind::Boolean) continue;
            checkUpperBound(row, row.getSimulation(p), childPath(path, row.name));
        }
        return p.detour;
    }

    /// A number read against the lower end of `row`'s file range and the file's magnitude
    /// limit (an integer against the whole range); checkUpperBound checks the rest.
    double parameter(const OJson& j, const std::string& path, const ParamRow& row) const {
        const ParamRange& r = row.fileRange;
        if (row.kind == ParamKind::Integer) {
            // count() reads a non-negative integer, at most the range's maximum.
            const std::int64_t max = r.hasMax() ? static_cast<std::int64_t>(r.max)
                                                : std::numeric_limits<std::int64_t>::max();
            return static_cast<double>(count(j, path, max));
        }
        const Bound bound = !r.hasMin() || r.min != 0.0 ? Bound::Any
                            : r.minOpen                 ? Bound::Positive
                                                        : Bound::NonNegative;
        const double v = number(j, path, bound);
        if (bound == Bound::Any && r.hasMin() && !r.contains(v)) failRange(row, v, path);
        return v;
    }

    /// Fails when `value` lies outside `row`'s file range: "expected a number in (0, 1], got
    /// 2" ("a number of degrees" for a row in degrees).
    void checkUpperBound(const ParamRow& row, double value, const std::string& path) const {
        if (!row.fileRange.contains(value)) failRange(row, value, path);
    }

    [[noreturn]] void failRange(const ParamRow& row, double value, const std::string& path) const {
        fail(path, std::string("expected a number") + (row.unit == "deg" ? " of degrees" : "") +
                       " in " + formatRange(row.fileRange) + ", got " + formatNumber(value, false));
    }

    void state(const OJson& j, const std::string& path, SceneAgent& a) const {
        requireObject(j, path);
        checkKeys(j, path, kStateKeys);
        if (const auto* v = find(j, "detour")) {
            const std::string p = childPath(path, "detour");
            if (!v->is_string())
                fail(p, "expected \"normal\" or \"detouring\", got " + describe(*v));
            const std::string mode = v->get<std::string>();
            if (mode == "detouring") {
                a.detourMode = DetourMode::Detouring;
            } else if (mode != "normal") {
                fail(p, "expected \"normal\" or \"detouring\", got \"" + mode + "\"");
            }
        }
        if (const auto* v = find(j, "stillSeconds")) {
            a.stillSeconds = number(*v, childPath(path, "stillSeconds"), Bound::NonNegative,
                                    std::numeric_limits<double>::max());
        }
        if (const auto* v = find(j, "stallSeconds")) {
            a.stallSeconds = number(*v, childPath(path, "stallSeconds"), Bound::NonNegative,
                                    std::numeric_limits<double>::max());
        }
        if (const auto* v = find(j, "routeProgress")) {
            a.routeProgress = static_cast<std::uint32_t>(count(
                *v, childPath(path, "routeProgress"), static_cast<std::int64_t>(kMaxWaypoints)));
        }
    }

    std::vector<Vec2> waypoints(const OJson& j, const std::string& path) const {
        if (!j.is_array()) fail(path, "expected an array of [x, y] waypoints, got " + describe(j));
        if (j.size() > kMaxWaypoints) {
            fail(path, "an agent may have at most " + std::to_string(kMaxWaypoints) +
                           " waypoints, got " + std::to_string(j.size()));
        }
        std::vector<Vec2> out;
        out.reserve(j.size());
        for (std::size_t i = 0; i < j.size(); ++i)
            out.push_back(vec2(j[i], indexPath(path, i)));
        return out;
    }

    /// Reads the parameter keys present in `j` into `out` (only those present).
    void params(const OJson& j, const std::string& path, AgentOverrides& out) const {
        AgentParams unused;
        forEachAgentParam(out, unused, [&](std::string_view key, auto& value, auto&) {
            const auto* v = find(j, std::string(key));
            if (v == nullptr) return;
            const std::string valuePath = childPath(path, key);
            const ParamRow& row = agentRow(key);
            const double read = parameter(*v, valuePath, row);
            checkUpperBound(row, read, valuePath);
            using T = typename std::decay_t<decltype(value)>::value_type;
            value = static_cast<T>(read);
        });
    }

    /// The table's row of an agent parameter (forEachAgentParam and the table list the same
    /// keys: ParametersScene.AgentKeysAreTheTables).
    static const ParamRow& agentRow(std::string_view key) {
        for (const ParamRow& row : parameterTable(ParamScope::Agent))
            if (row.name == key) return row;
        throw std::logic_error("no parameter row for agent key " + std::string(key));
    }

    AgentParams defaults(const OJson& j) const {
        const std::string path = "agentDefaults";
        requireObject(j, path);
        if (find(j, "waypoints") != nullptr) {
            fail(childPath(path, "waypoints"),
                 "waypoints belong to each agent (a route is one agent's); agentDefaults may "
                 "not hold them");
        }
        checkKeys(j, path, paramKeys());
        AgentOverrides o;
        params(j, path, o);
        return o.appliedTo(AgentParams{});
    }

    std::optional<nlohmann::json> id(const OJson& obj, const std::string& path) const {
        const OJson* v = find(obj, "id");
        if (v == nullptr) return std::nullopt;
        if (v->is_string()) return nlohmann::json(v->get<std::string>());
        if (v->is_number_unsigned()) return nlohmann::json(v->get<std::uint64_t>());
        if (v->is_number_integer()) return nlohmann::json(v->get<std::int64_t>());
        fail(childPath(path, "id"), "expected a string or an integer, got " + describe(*v));
    }

    SceneAgent agent(const OJson& j, const std::string& path) const {
        requireObject(j, path);
        checkKeys(j, path, agentKeys());
        SceneAgent a;
        a.id = id(j, path);
        const OJson* position = find(j, "position");
        if (position == nullptr) fail(path, "missing required key \"position\" ([x, y])");
        a.position = vec2(*position, childPath(path, "position"));
        if (const auto* v = find(j, "velocity")) a.velocity = vec2(*v, childPath(path, "velocity"));
        if (const auto* v = find(j, "goal")) a.goal = vec2(*v, childPath(path, "goal"));
        if (const auto* v = find(j, "prefVelocity")) {
            a.prefVelocity = vec2(*v, childPath(path, "prefVelocity"));
        }
        if (const auto* v = find(j, "static")) {
            if (!v->is_boolean()) {
                fail(childPath(path, "static"), "expected true or false, got " + describe(*v));
            }
            a.isStatic = v->get<bool>();
        }
        if (const auto* v = find(j, "waypoints")) {
            a.waypoints = waypoints(*v, childPath(path, "waypoints"));
        }
        params(j, path, a.overrides);
        if (const auto* v = find(j, "state")) state(*v, childPath(path, "state"), a);

        if (!a.waypoints.empty() && !a.goal) {
            fail(childPath(path, "waypoints"),
                 "waypoints are visited on the way to a goal, and this agent has none; add "
                 "\"goal\" or remove \"waypoints\"");
        }
        if (a.routeProgress > a.waypoints.size()) {
            fail(childPath(childPath(path, "state"), "routeProgress"),
                 "expected at most the number of waypoints (" + std::to_string(a.waypoints.size()) +
                     "), got " + std::to_string(a.routeProgress));
        }

        if (a.goal && a.prefVelocity) {
            fail(path, "an agent has a goal or a constant prefVelocity, not both (the goal "
                       "would override prefVelocity every step); remove one of them");
        }
        if (a.isStatic && a.goal) {
            fail(childPath(path, "goal"),
                 "a static agent cannot have a goal (static agents never move); remove "
                 "\"goal\" or \"static\"");
        }
        if (a.isStatic && a.prefVelocity) {
            fail(childPath(path, "prefVelocity"),
                 "a static agent cannot have a prefVelocity (static agents never move); remove "
                 "\"prefVelocity\" or \"static\"");
        }
        if (a.isStatic && a.velocity && (a.velocity->x != 0.0 || a.velocity->y != 0.0)) {
            fail(childPath(path, "velocity"),
                 "a static agent's velocity must be [0, 0] or absent (static agents never move)");
        }
        return a;
    }

    SceneObstacle obstacle(const OJson& j, const std::string& path,
                           std::vector<SceneWarning>& warnings) const {
        requireObject(j, path);
        checkKeys(j, path, kObstacleKeys);
        SceneObstacle o;
        o.id = id(j, path);
        const OJson* vertices = find(j, "vertices");
        if (vertices == nullptr) {
            fail(path, "missing required key \"vertices\" (an array of [x, y], "
                       "counter-clockwise)");
        }
        const std::string vpath = childPath(path, "vertices");
        if (!vertices->is_array()) {
            fail(vpath, "expected an array of [x, y] vertices, got " + describe(*vertices));
        }
        if (vertices->size() < 2) {
            fail(vpath, "an obstacle needs at least 2 vertices (2 = a thin wall segment), got " +
                            std::to_string(vertices->size()));
        }
        o.vertices.reserve(vertices->size());
        for (std::size_t i = 0; i < vertices->size(); ++i) {
            o.vertices.push_back(vec2((*vertices)[i], indexPath(vpath, i)));
        }
        const PolygonCheck check = checkPolygon(o.vertices);
        if (!check.valid) fail(vpath, check.error);
        if (check.clockwise && o.vertices.size() >= 3 && m_options.repairWinding) {
            std::reverse(o.vertices.begin(), o.vertices.end());
            std::string name = "obstacle " + path;
            if (o.id) name += " (id " + o.id->dump() + ")";
            warnings.push_back({path, name + " is clockwise; reversed to counter-clockwise "
                                             "(agents would otherwise walk through it)"});
        }
        return o;
    }

    LoadOptions m_options;
};

bool sameVec(Vec2 a, Vec2 b) {
    return a.x == b.x && a.y == b.y;
}

bool sameVec(const std::optional<Vec2>& a, const std::optional<Vec2>& b) {
    if (a.has_value() != b.has_value()) return false;
    return !a || sameVec(*a, *b);
}

bool sameAgent(const SceneAgent& a, const SceneAgent& b) {
    return a.id == b.id && sameVec(a.position, b.position) && sameVec(a.velocity, b.velocity) &&
           sameVec(a.goal, b.goal) && sameVec(a.prefVelocity, b.prefVelocity) &&
           a.isStatic == b.isStatic && a.overrides == b.overrides && a.detourMode == b.detourMode &&
           a.stillSeconds == b.stillSeconds && a.routeProgress == b.routeProgress &&
           a.stallSeconds == b.stallSeconds &&
           std::equal(a.waypoints.begin(), a.waypoints.end(), b.waypoints.begin(),
                      b.waypoints.end(), [](Vec2 p, Vec2 q) { return sameVec(p, q); });
}

bool sameObstacle(const SceneObstacle& a, const SceneObstacle& b) {
    return a.id == b.id &&
           std::equal(a.vertices.begin(), a.vertices.end(), b.vertices.begin(), b.vertices.end(),
                      [](Vec2 p, Vec2 q) { return sameVec(p, q); });
}

} // namespace

// ---- Scene
// ------------------------------------------------------------------------------------------

std::string_view toString(Routing routing) {
    return routing == Routing::Roadmap ? "roadmap" : "straight";
}

AgentParams AgentOverrides::appliedTo(AgentParams base) const {
    forEachAgentParam(*this, base, [](std::string_view, const auto& value, auto& param) {
        if (value) param = *value;
    });
    return base;
}

AgentParams Scene::resolvedParams(const SceneAgent& agent) const {
    return agent.overrides.appliedTo(agentDefaults);
}

AgentDef Scene::agentDef(const SceneAgent& agent) const {
    AgentDef def;
    def.position = agent.position;
    def.velocity = agent.isStatic ? Vec2{0.0, 0.0} : agent.velocity.value_or(Vec2{0.0, 0.0});
    def.params = resolvedParams(agent);
    def.hasGoal = agent.goal.has_value();
    def.goal = agent.goal.value_or(Vec2{0.0, 0.0});
    def.prefVelocity = agent.prefVelocity.value_or(Vec2{0.0, 0.0});
    def.isStatic = agent.isStatic;
    def.waypoints = agent.waypoints;
    def.routeProgress = agent.routeProgress;
    return def;
}

bool operator==(const Scene& a, const Scene& b) {
    return a.name == b.name && a.description == b.description &&
           a.simulation.params == b.simulation.params && a.simulation.time == b.simulation.time &&
           a.simulation.step == b.simulation.step && a.agentDefaults == b.agentDefaults &&
           std::equal(a.agents.begin(), a.agents.end(), b.agents.begin(), b.agents.end(),
                      sameAgent) &&
           std::equal(a.obstacles.begin(), a.obstacles.end(), b.obstacles.begin(),
                      b.obstacles.end(), sameObstacle) &&
           a.extra == b.extra;
}

// ---- Loading
// ----------------------------------------------------------------------------------------

LoadResult parseScene(const std::string& text, const std::string& fileName) {
    return parseScene(text, fileName, LoadOptions{});
}

LoadResult parseScene(const std::string& text, const std::string& fileName,
                      const LoadOptions& options) {
    const std::string file = fileName.empty() ? std::string("<scene>") : fileName;
    const OJson root = parseJsonText(text, file);
    Loader loader(file, options);
    return loader.load(root);
}

LoadResult loadScene(const std::filesystem::path& path) {
    return loadScene(path, LoadOptions{});
}

std::string formatByteSize(std::uint64_t bytes) {
    if (bytes < 1024) return std::to_string(bytes) + (bytes == 1 ? " byte" : " bytes");
    constexpr std::array<const char*, 6> kUnits = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
    std::size_t unit = 0;
    std::uint64_t scale = 1024;
    while (unit + 1 < kUnits.size() && bytes / scale >= 1024) {
        scale *= 1024;
        ++unit;
    }
    std::array<char, 32> buf{};
    std::snprintf(buf.data(), buf.size(), "%.1f",
                  static_cast<double>(bytes) / static_cast<double>(scale));
    std::string number = buf.data();
    if (number.size() > 2 && number.compare(number.size() - 2, 2, ".0") == 0) {
        number.resize(number.size() - 2); // "64 MiB", not "64.0 MiB"
    }
    return number + ' ' + kUnits[unit];
}

namespace {

/// "directory", "character device"... for a file that is not a regular file.
std::string fileKind(mode_t mode) {
    if (S_ISDIR(mode)) return "directory";
    if (S_ISCHR(mode)) return "character device";
    if (S_ISBLK(mode)) return "block device";
    if (S_ISFIFO(mode)) return "FIFO";
    if (S_ISSOCK(mode)) return "socket";
    return "unknown file type";
}

/// "1.5 GiB is larger than the 1 GiB limit (--max-file-size)"; exact byte counts when the
/// rounded sizes read the same ("1 GiB is larger than the 1 GiB limit" would puzzle).
std::string tooLargeMessage(std::uint64_t size, std::uint64_t limit, const std::string& setting) {
    std::string sizeText = formatByteSize(size);
    std::string limitText = formatByteSize(limit);
    if (sizeText == limitText) {
        sizeText = std::to_string(size) + " bytes";
        limitText = std::to_string(limit) + " bytes";
    }
    std::string message = sizeText + " is larger than the " + limitText + " limit";
    if (!setting.empty()) message += " (" + setting + ")";
    return message;
}

/// The refusal when a file grew past the limit after its size was checked.
std::string grewMessage(std::uint64_t limit, const std::string& setting) {
    std::string message =
        "the file grew past the " + formatByteSize(limit) + " limit while being read";
    if (!setting.empty()) message += " (" + setting + ")";
    return message;
}

} // namespace

namespace {

/// The one reader behind readTextFile and readFilePrefix. `refuseLarger`: a file of more than
/// maxBytes bytes is refused (readTextFile); otherwise its first maxBytes bytes are returned.
std::string readRegularFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                            const std::string& setting, bool refuseLarger) {
    const std::string file = path.string();
    // Look before opening: opening a device can have side effects (a tape rewinds, a terminal
    // becomes the controlling one) and opening a FIFO for reading blocks until a writer comes.
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        throw SceneError(file, "", 0, 0, "cannot open the file: " + osError(errno));
    }
    if (!S_ISREG(st.st_mode)) {
        throw SceneError(file, "", 0, 0, "not a regular file (" + fileKind(st.st_mode) + ")");
    }
    const auto statSize = static_cast<std::uint64_t>(st.st_size);
    if (refuseLarger && statSize > maxBytes) {
        throw SceneError(file, "", 0, 0, tooLargeMessage(statSize, maxBytes, setting));
    }
    // The path may have been replaced since: O_NONBLOCK keeps a FIFO from blocking open(),
    // O_NOCTTY keeps a terminal from becoming ours, and fstat checks what was really opened.
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
    if (fd < 0) throw SceneError(file, "", 0, 0, "cannot open the file: " + osError(errno));
    auto fail = [&](const std::string& message) {
        ::close(fd);
        throw SceneError(file, "", 0, 0, message);
    };
    if (::fstat(fd, &st) != 0) fail("cannot read the file: " + osError(errno));
    if (!S_ISREG(st.st_mode)) fail("not a regular file (" + fileKind(st.st_mode) + ")");
    // And the file may grow while it is read: never read more than maxBytes + 1 bytes (a
    // prefix: maxBytes).
    const std::uint64_t cap = !refuseLarger || maxBytes == std::numeric_limits<std::uint64_t>::max()
                                  ? maxBytes
                                  : maxBytes + 1;
    std::string text;
    text.reserve(static_cast<std::size_t>(
        std::min<std::uint64_t>(static_cast<std::uint64_t>(st.st_size), maxBytes)));
    std::array<char, 1 << 16> buffer{};
    while (text.size() < cap) {
        const std::size_t want =
            static_cast<std::size_t>(std::min<std::uint64_t>(buffer.size(), cap - text.size()));
        const ssize_t n = ::read(fd, buffer.data(), want);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail("cannot read the file: " + osError(errno));
        }
        if (n == 0) break;
        text.append(buffer.data(), static_cast<std::size_t>(n));
    }
    ::close(fd);
    if (text.size() > maxBytes) {
        throw SceneError(file, "", 0, 0, grewMessage(maxBytes, setting));
    }
    return text;
}

} // namespace

std::string readTextFile(const std::filesystem::path& path, std::uint64_t maxBytes,
                         const std::string& setting) {
    return readRegularFile(path, maxBytes, setting, true);
}

std::string readFilePrefix(const std::filesystem::path& path, std::size_t bytes) {
    return readRegularFile(path, bytes, {}, false);
}

LoadResult loadScene(const std::filesystem::path& path, const LoadOptions& options) {
    return parseScene(readTextFile(path, options.maxFileSize, options.maxFileSizeSetting),
                      path.string(), options);
}

// ---- Simulator conversion -----------------------------------------------------------------------

namespace {

/// buildSimulator's body; with a report, obstacles the simulator would reject are skipped.
Simulator build(const Scene& scene, BuildReport* report) {
    Simulator sim(scene.simulation.params);
    sim.reserveAgents(scene.agents.size());
    for (const SceneAgent& agent : scene.agents)
        sim.addAgent(scene.agentDef(agent));
    std::vector<std::vector<Vec2>> polygons;
    polygons.reserve(scene.obstacles.size());
    for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
        const std::vector<Vec2>& vertices = scene.obstacles[i].vertices;
        if (report != nullptr) {
            // The same tests as Simulator::addObstacles, which would throw.
            const PolygonCheck check = checkPolygon(vertices);
            const std::string name = indexPath("obstacles", i);
            if (!check.valid || check.clockwise) {
                report->skippedObstacles.push_back(i);
                report->reasons.push_back(
                    check.valid ? name + " is clockwise; the simulator takes counter-clockwise "
                                         "polygons only (reverse its vertices)"
                                : name + " is invalid: " + check.error);
                continue;
            }
        }
        polygons.push_back(vertices);
    }
    sim.addObstacles(polygons);
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        const SceneAgent& a = scene.agents[i];
        if (a.detourMode != DetourMode::Normal || a.stillSeconds != 0.0)
            sim.setDetourState(sim.agentIdAt(i), a.detourMode, a.stillSeconds);
        if (a.stallSeconds != 0.0) sim.setStallSeconds(sim.agentIdAt(i), a.stallSeconds);
    }
    sim.setClock(scene.simulation.time, scene.simulation.step);
    return sim;
}

} // namespace

Simulator buildSimulator(const Scene& scene) {
    return build(scene, nullptr);
}

Simulator buildSimulator(const Scene& scene, BuildReport& report) {
    report = BuildReport{};
    return build(scene, &report);
}

Scene captureState(const Scene& scene, const Simulator& sim) {
    if (sim.agentCount() != scene.agents.size()) {
        throw std::invalid_argument(
            "captureState: the simulator holds " + std::to_string(sim.agentCount()) +
            " agents but the scene has " + std::to_string(scene.agents.size()));
    }
    Scene out = scene;
    const std::span<const Vec2> positions = sim.positions();
    const std::span<const Vec2> velocities = sim.velocities();
    for (std::size_t i = 0; i < out.agents.size(); ++i) {
        SceneAgent& a = out.agents[i];
        a.position = positions[i];
        const Vec2 v = velocities[i];
        // Bitwise non-zero (so that -0.0 survives too): the saved state must continue
        // bit-identically.
        const bool nonZero = v.x != 0.0 || v.y != 0.0 || std::signbit(v.x) || std::signbit(v.y);
        if (nonZero || a.velocity) a.velocity = v;
        a.detourMode = sim.detourModeAt(i);
        a.stillSeconds = sim.stillSeconds(sim.agentIdAt(i));
        a.routeProgress = sim.routeProgressAt(i);
        a.stallSeconds = sim.stallSecondsAt(i);
    }
    out.simulation.time = sim.time();
    out.simulation.step = sim.stepCount();
    return out;
}

} // namespace orca::scene
