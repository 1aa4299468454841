// orca.Simulator and scene files (docs/scene-format.md): from_scene / from_scene_text load one
// with the loader's precise errors (orca.SceneError), save_scene writes the current state as
// one with the scene writer (atomic), keeping what the loaded file said beyond the simulator.
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include <pybind11/stl/filesystem.h>

#include "orca/scene/scene.hpp"
#include "simulator_py.hpp"

namespace orca::python {

namespace {

/// Bitwise non-zero (so that -0.0 survives a save, as in scene::captureState).
bool nonZero(Vec2 v) {
    return v.x != 0.0 || v.y != 0.0 || std::signbit(v.x) || std::signbit(v.y);
}

/// A simulator for a loaded scene. The loader's warnings (a clockwise obstacle it reversed...)
/// become Python warnings (UserWarning).
std::unique_ptr<PySimulator> fromLoaded(scene::LoadResult loaded, const std::string& file,
                                        py::handle threads, py::handle events) {
    const std::size_t threadCount = toCount(threads, "threads");
    if (threadCount < 1 || threadCount > 256)
        throw py::value_error(
            "threads must be in [1, 256] (threads = " + std::to_string(threadCount) + ")");
    if (!PyBool_Check(events.ptr()))
        throw py::type_error("events must be True or False, not " + typeName(events));
    for (const scene::SceneWarning& w : loaded.warnings) {
        const std::string text = file + ": warning: at " + w.jsonPath + ": " + w.message;
        if (PyErr_WarnEx(PyExc_UserWarning, text.c_str(), 2) != 0) throw py::error_already_set();
    }
    auto s = std::make_unique<PySimulator>();
    const scene::Scene& sc = loaded.scene;
    try {
        py::gil_scoped_release release;
        s->sim = scene::buildSimulator(sc);
    } catch (const InvalidArgument& e) {
        // The loader checks what the simulator refuses; this is only a safety net.
        throw scene::SceneError(file, "", 0, 0, e.what());
    }
    s->sim.setThreadCount(static_cast<int>(threadCount));
    auto info = std::make_shared<SceneInfo>();
    info->name = sc.name;
    info->description = sc.description;
    info->agentDefaults = sc.agentDefaults;
    info->extra = sc.extra;
    for (const scene::SceneAgent& a : sc.agents)
        info->agentIds.push_back(a.id);
    for (const scene::SceneObstacle& o : sc.obstacles)
        info->obstacleIds.push_back(o.id);
    s->info = std::move(info);
    s->log.enabled = events.ptr() == Py_True;
    return s;
}

} // namespace

scene::Scene sceneOf(const PySimulator& s) {
    const SceneInfo& info = *s.info;
    const Simulator& sim = s.sim;
    scene::Scene sc;
    sc.name = info.name;
    sc.description = info.description;
    sc.simulation.params = sim.params();
    sc.simulation.time = sim.time();
    sc.simulation.step = sim.stepCount();
    sc.agentDefaults = info.agentDefaults;
    sc.extra = info.extra;
    sc.agents.reserve(sim.agentCount());
    for (std::size_t i = 0; i < sim.agentCount(); ++i) {
        AgentDef def = sim.agent(sim.agentIdAt(i));
        scene::SceneAgent a;
        if (i < info.agentIds.size()) a.id = info.agentIds[i];
        a.position = def.position;
        if (nonZero(def.velocity)) a.velocity = def.velocity;
        if (def.hasGoal) {
            a.goal = def.goal;
            a.waypoints = def.waypoints;
        } else if (nonZero(def.prefVelocity)) {
            a.prefVelocity = def.prefVelocity;
        }
        a.isStatic = def.isStatic;
        // The parameters that differ from the defaults, as overrides.
        scene::forEachAgentParam(
            a.overrides, def.params, [&](std::string_view key, auto& override, auto& value) {
                const ParamRow* row = findParameter("agent." + std::string(key));
                if (row->getAgent(def.params) != row->getAgent(info.agentDefaults))
                    override = value;
            });
        // The run-time state a saved scene resumes from bit for bit.
        a.detourMode = sim.detourModeAt(i);
        a.stillSeconds = sim.stillSecondsAt(i);
        a.routeProgress = sim.routeProgressAt(i);
        a.stallSeconds = sim.stallSecondsAt(i);
        sc.agents.push_back(std::move(a));
    }
    for (std::size_t k = 0; k < sim.obstacleCount(); ++k) {
        scene::SceneObstacle o;
        if (k < info.obstacleIds.size()) o.id = info.obstacleIds[k];
        const std::span<const Vec2> vertices = sim.obstacleVertices(sim.obstacleIdAt(k));
        o.vertices.assign(vertices.begin(), vertices.end());
        sc.obstacles.push_back(std::move(o));
    }
    return sc;
}

void bindScene(py::class_<PySimulator>& cls) {
    cls.def_static(
        "from_scene",
        [](const std::filesystem::path& path, py::object threads, py::object events) {
            std::optional<scene::LoadResult> loaded;
            {
                py::gil_scoped_release release;
                loaded = scene::loadScene(path);
            }
            return fromLoaded(std::move(*loaded), path.string(), threads, events);
        },
        py::arg("path"), py::kw_only(), py::arg("threads") = 1, py::arg("events") = true,
        R"(A simulator holding the scene file at ``path`` (str or os.PathLike; format in
docs/scene-format.md): its agents and obstacles in file order, parameters, and the
clock and run-time state of a saved state. orca.SceneError (a ValueError) naming the
file and the JSON path of the problem when it cannot be read or is not a valid scene;
the loader's warnings (e.g. a clockwise obstacle it reversed) are UserWarnings.
``threads`` and ``events`` as for Simulator().)");
    cls.def_static(
        "from_scene_text",
        [](const std::string& text, const std::string& name, py::object threads,
           py::object events) {
            std::optional<scene::LoadResult> loaded;
            {
                py::gil_scoped_release release;
                loaded = scene::parseScene(text, name);
            }
            return fromLoaded(std::move(*loaded), name, threads, events);
        },
        py::arg("text"), py::kw_only(), py::arg("name") = "<text>", py::arg("threads") = 1,
        py::arg("events") = true,
        R"(The same as from_scene for scene JSON held in a string; ``name`` stands for the
file in error messages.)");

    cls.def(
        "save_scene",
        [](const PySimulator& s, const std::filesystem::path& path) {
            requireIdle(s.busy, "save_scene");
            const scene::Scene sc = sceneOf(s);
            py::gil_scoped_release release;
            scene::saveScene(sc, path);
        },
        py::arg("path"),
        R"(Writes the current state as a scene file (atomically: the old file stays intact
until the new one is complete): the loaded scene's name, description, agent defaults
and ids, every agent as it is now (position, velocity, goal and route or constant
preferred velocity, parameters that differ from the defaults, run-time state), the
obstacles, the parameters and the clock. Loading it and stepping continues this run
bit for bit. orca.SceneError when the file cannot be written or a value lies beyond
the scene format's limits (coordinates within 1e7).)");
}

} // namespace orca::python
