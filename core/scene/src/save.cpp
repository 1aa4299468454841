#include <algorithm>
#include <cmath>
#include <string_view>
#include <utility>
#include <vector>

#include "json_format.hpp"
#include "orca/parameters.hpp"
#include "orca/scene/atomic_write.hpp"
#include "orca/scene/scene.hpp"

namespace orca::scene {

namespace {

using namespace detail;

template <typename Json> std::string formatScalar(const Json& j) {
    switch (j.type()) {
    case nlohmann::json::value_t::number_float:
        return formatNumber(j.template get<double>(), true);
    case nlohmann::json::value_t::string:
        return quote(j.template get<std::string>());
    default:
        return j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
}

/// One-line JSON: `{ "a": 1, "b": [1, 2] }`.
template <typename Json> void writeCompact(std::string& out, const Json& j) {
    if (j.is_object()) {
        if (j.empty()) {
            out += "{}";
            return;
        }
        out += "{ ";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ", ";
            first = false;
            out += quote(it.key());
            out += ": ";
            writeCompact(out, it.value());
        }
        out += " }";
    } else if (j.is_array()) {
        out += '[';
        bool first = true;
        for (const auto& e : j) {
            if (!first) out += ", ";
            first = false;
            writeCompact(out, e);
        }
        out += ']';
    } else {
        out += formatScalar(j);
    }
}

/// Indented JSON for extra top-level blocks: objects one key per line, arrays of scalars on
/// one line, other arrays one element per line.
void writePretty(std::string& out, const OJson& j, std::size_t indent) {
    const std::string pad(indent, ' ');
    if (j.is_object() && !j.empty()) {
        out += "{\n";
        bool first = true;
        for (auto it = j.begin(); it != j.end(); ++it) {
            if (!first) out += ",\n";
            first = false;
            out += pad + "  " + quote(it.key()) + ": ";
            writePretty(out, it.value(), indent + 2);
        }
        out += '\n' + pad + '}';
    } else if (j.is_array() && !j.empty() &&
               std::any_of(j.begin(), j.end(), [](const OJson& e) { return e.is_structured(); })) {
        out += "[\n";
        bool first = true;
        for (const auto& e : j) {
            if (!first) out += ",\n";
            first = false;
            out += pad + "  ";
            writePretty(out, e, indent + 2);
        }
        out += '\n' + pad + ']';
    } else {
        writeCompact(out, j);
    }
}

std::string formatVec(Vec2 v) {
    return '[' + formatNumber(v.x, false) + ", " + formatNumber(v.y, false) + ']';
}

// ---- Writing helpers ---------------------------------------------------------------------------

void appendField(std::string& out, bool& first, std::string_view key, const std::string& value) {
    out += first ? "{ " : ", ";
    first = false;
    out += '"';
    out += key;
    out += "\": ";
    out += value;
}

std::string formatParam(double v) {
    return formatNumber(v, false);
}
std::string formatParam(int v) {
    return std::to_string(v);
}

/// A simulation or detour value as the file writes it: true/false, or the number.
std::string formatRowValue(const ParamRow& row, double v) {
    if (row.kind == ParamKind::Boolean) return v != 0.0 ? "true" : "false";
    return formatNumber(v, false);
}

std::string formatId(const nlohmann::json& id) {
    std::string out;
    writeCompact(out, id);
    return out;
}

std::string agentLine(const SceneAgent& a) {
    std::string out;
    bool first = true;
    if (a.id) appendField(out, first, "id", formatId(*a.id));
    appendField(out, first, "position", formatVec(a.position));
    if (a.velocity) appendField(out, first, "velocity", formatVec(*a.velocity));
    if (a.goal) appendField(out, first, "goal", formatVec(*a.goal));
    if (a.prefVelocity) appendField(out, first, "prefVelocity", formatVec(*a.prefVelocity));
    if (a.isStatic) appendField(out, first, "static", "true");
    if (!a.waypoints.empty()) {
        std::string list = "[";
        for (std::size_t i = 0; i < a.waypoints.size(); ++i) {
            if (i > 0) list += ", ";
            list += formatVec(a.waypoints[i]);
        }
        appendField(out, first, "waypoints", list + "]");
    }
    const AgentParams unused;
    forEachAgentParam(a.overrides, unused, [&](std::string_view key, const auto& value, auto&) {
        if (value) appendField(out, first, key, formatParam(*value));
    });
    if (a.detourMode != DetourMode::Normal || a.stillSeconds != 0.0 || a.routeProgress != 0 ||
        a.stallSeconds != 0.0) {
        std::string state = "{";
        if (a.detourMode != DetourMode::Normal)
            state += " \"detour\": \"" + std::string(toString(a.detourMode)) + "\"";
        if (a.stillSeconds != 0.0) {
            if (state.size() > 1) state += ',';
            state += " \"stillSeconds\": " + formatNumber(a.stillSeconds, false);
        }
        if (a.stallSeconds != 0.0) {
            if (state.size() > 1) state += ',';
            state += " \"stallSeconds\": " + formatNumber(a.stallSeconds, false);
        }
        if (a.routeProgress != 0) {
            if (state.size() > 1) state += ',';
            state += " \"routeProgress\": " + std::to_string(a.routeProgress);
        }
        state += " }";
        appendField(out, first, "state", state);
    }
    out += " }";
    return out;
}

std::string obstacleLine(const SceneObstacle& o) {
    std::string out;
    bool first = true;
    if (o.id) appendField(out, first, "id", formatId(*o.id));
    std::string vertices = "[";
    for (std::size_t i = 0; i < o.vertices.size(); ++i) {
        if (i > 0) vertices += ", ";
        vertices += formatVec(o.vertices[i]);
    }
    vertices += ']';
    appendField(out, first, "vertices", vertices);
    out += " }";
    return out;
}

/// Writes `"key": {` + one `"k": v` line per entry + `}` at block indentation.
void appendBlock(std::string& out, std::string_view key,
                 const std::vector<std::pair<std::string_view, std::string>>& entries) {
    out += "  \"";
    out += key;
    out += "\": {\n";
    for (std::size_t i = 0; i < entries.size(); ++i) {
        out += "    \"";
        out += entries[i].first;
        out += "\": ";
        out += entries[i].second;
        out += i + 1 < entries.size() ? ",\n" : "\n";
    }
    out += "  }";
}

} // namespace

// ---- Saving
// -----------------------------------------------------------------------------------------

std::string serializeScene(const Scene& scene) {
    std::string out = "{\n";
    out += "  \"format\": \"orca-scene\",\n";
    out += "  \"version\": " + std::to_string(kFormatVersion);
    if (!scene.name.empty()) out += ",\n  \"name\": " + quote(scene.name);
    if (!scene.description.empty()) out += ",\n  \"description\": " + quote(scene.description);

    // Simulation: the time step always; the rest only when it differs from the default.
    const SimulationBlock& sim = scene.simulation;
    std::vector<std::pair<std::string_view, std::string>> entries;
    for (const ParamRow& row : parameterTable(ParamScope::Simulation)) {
        const double v = row.getSimulation(sim.params);
        if (row.name == "timeStep" || v != row.defaultValue)
            entries.emplace_back(row.name, formatRowValue(row, v));
    }
    if (sim.params.routing != Routing::Straight)
        entries.emplace_back("routing", "\"" + std::string(toString(sim.params.routing)) + "\"");
    if (sim.params.deadlockBreaking) entries.emplace_back("deadlockBreaking", "\"on\"");
    if (sim.time != 0.0) entries.emplace_back("time", formatNumber(sim.time, false));
    if (sim.step != 0) entries.emplace_back("step", std::to_string(sim.step));
    out += ",\n";
    appendBlock(out, "simulation", entries);

    // Agent defaults: every parameter, so the file documents itself; goalRadius and
    // waypointRadius only when set (negative = "the agent's radius", which is what an absent key
    // means); avoidanceWeight only when not 1 (RVO2's even split: most scenes never set it).
    entries.clear();
    const AgentOverrides none;
    forEachAgentParam(none, scene.agentDefaults,
                      [&](std::string_view key, auto&, const auto& value) {
                          if ((key == "goalRadius" || key == "waypointRadius") && value < 0.0 &&
                              std::isfinite(value))
                              return;
                          if (key == "avoidanceWeight" && value == 1.0) return;
                          entries.emplace_back(key, formatParam(value));
                      });
    out += ",\n";
    appendBlock(out, "agentDefaults", entries);

    // Detour: the whole block whenever it differs from the defaults (self-documenting).
    if (!(scene.simulation.params.detour == DetourParams{})) {
        entries.clear();
        for (const ParamRow& row : parameterTable(ParamScope::Detour)) {
            const double v = row.getSimulation(sim.params);
            entries.emplace_back(row.name, formatRowValue(row, v));
        }
        out += ",\n";
        appendBlock(out, "detour", entries);
    }

    out += ",\n  \"agents\": [";
    for (std::size_t i = 0; i < scene.agents.size(); ++i) {
        out += i == 0 ? "\n    " : ",\n    ";
        out += agentLine(scene.agents[i]);
    }
    out += scene.agents.empty() ? "]" : "\n  ]";

    if (!scene.obstacles.empty()) {
        out += ",\n  \"obstacles\": [";
        for (std::size_t i = 0; i < scene.obstacles.size(); ++i) {
            out += i == 0 ? "\n    " : ",\n    ";
            out += obstacleLine(scene.obstacles[i]);
        }
        out += "\n  ]";
    }

    if (scene.extra.is_object()) {
        for (auto it = scene.extra.begin(); it != scene.extra.end(); ++it) {
            out += ",\n  " + quote(it.key()) + ": ";
            writePretty(out, it.value(), 2);
        }
    }
    out += "\n}\n";
    return out;
}

void saveScene(const Scene& scene, const std::filesystem::path& path) {
    const std::string file = path.string();
    const std::string text = serializeScene(scene);
    // Refuse to write a file that would not load again (e.g. a radius edited to 0 or NaN).
    try {
        (void)parseScene(text, file);
    } catch (const SceneError& e) {
        throw SceneError(file, e.jsonPath(), 0, 0,
                         "the scene was not saved because it is invalid: " + e.message());
    }

    std::string error;
    if (!writeFileAtomic(path, text, error))
        throw SceneError(file, "", 0, 0, "cannot save: " + error);
}

} // namespace orca::scene
