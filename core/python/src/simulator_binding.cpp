// orca.Simulator (our own Python API, the speed path) and orca.State: construction from code,
// parameters, stepping without the GIL, explain records, snapshots and events. The arrays,
// agents and obstacles are in simulator_arrays.cpp, scene files in simulator_scene.cpp.
#include <algorithm>
#include <array>
#include <cctype>
#include <climits>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "orca/scene/events_json.hpp"
#include "orca/scene/explain_json.hpp"
#include "simulator_py.hpp"

namespace orca::python {

// ---- Parameters (simulator_py.hpp) -------------------------------------------------------------

std::string keywordOf(const ParamRow& row) {
    std::string keyword = row.scope == ParamScope::Detour ? "detour_" : "";
    for (const char c : row.name) {
        if (std::isupper(static_cast<unsigned char>(c)) != 0) {
            keyword += '_';
            keyword += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        } else {
            keyword += c;
        }
    }
    return keyword;
}

void setParam(const ParamRow& row, py::handle value, SimulationParams& simulation,
              AgentParams& agent) {
    const std::string keyword = keywordOf(row);
    double v = 0.0;
    switch (row.kind) {
    case ParamKind::Real:
        v = toDouble(value, keyword.c_str());
        break;
    case ParamKind::Integer: {
        const std::size_t count = toCount(value, keyword.c_str());
        v = static_cast<double>(count > static_cast<std::size_t>(INT_MAX) ? INT_MAX : count);
        break;
    }
    case ParamKind::Boolean:
        if (!PyBool_Check(value.ptr()))
            throw py::type_error(keyword + " must be True or False, not " + typeName(value));
        v = value.ptr() == Py_True ? 1.0 : 0.0;
        break;
    }
    if (const std::string error = check(row, v); !error.empty()) throw py::value_error(error);
    if (row.scope == ParamScope::Agent)
        row.setAgent(agent, v);
    else
        row.setSimulation(simulation, v);
}

py::object paramValue(const ParamRow& row, const SimulationParams& simulation,
                      const AgentParams& agent) {
    const double v = valueOf(row, simulation, agent);
    switch (row.kind) {
    case ParamKind::Integer:
        return py::int_(static_cast<long long>(v));
    case ParamKind::Boolean:
        return py::bool_(v != 0.0);
    case ParamKind::Real:
        break;
    }
    return py::float_(v);
}

void unknownKeyword(const std::string& function, const std::string& keyword,
                    const std::vector<std::string>& valid) {
    std::string list;
    for (const std::string& k : valid)
        list += (list.empty() ? "" : ", ") + k;
    throw py::type_error(function + "() got an unexpected keyword argument '" + keyword +
                         "' (valid: " + list + ")");
}

// ---- Events and agents ------------------------------------------------------------------------

void EventLog::start(const Simulator& sim) {
    if (started) return;
    detector.reset(sim, events);
    started = true;
}

std::size_t PySimulator::agentIndex(py::handle value) const {
    const std::size_t i = toIndex(value, "agent");
    if (i >= sim.agentCount())
        throw py::index_error("agent " + std::to_string(i) + " is out of range (there are " +
                              std::to_string(sim.agentCount()) + " agents)");
    return i;
}

namespace {

std::string_view routingName(Routing routing) {
    return routing == Routing::Roadmap ? "roadmap" : "straight";
}

Routing routingOf(py::handle value) {
    if (!PyUnicode_Check(value.ptr()))
        throw py::type_error("routing must be a string, not " + typeName(value));
    const std::string name = value.cast<std::string>();
    if (name == "straight") return Routing::Straight;
    if (name == "roadmap") return Routing::Roadmap;
    throw py::value_error("routing must be \"straight\" or \"roadmap\", not \"" + name + "\"");
}

bool flagOf(py::handle value, const char* what) {
    if (!PyBool_Check(value.ptr()))
        throw py::type_error(std::string(what) + " must be True or False, not " + typeName(value));
    return value.ptr() == Py_True;
}

int threadsOf(py::handle value) {
    const std::size_t n = toCount(value, "threads");
    if (n < 1 || n > 256)
        throw py::value_error("threads must be in [1, 256] (threads = " + std::to_string(n) + ")");
    return static_cast<int>(n);
}

/// The events kinds `kinds` names (None: all; a string: one; else an iterable of strings).
std::array<bool, kEventKindCount> wantedKinds(py::handle kinds) {
    std::array<bool, kEventKindCount> wanted{};
    wanted.fill(kinds.is_none());
    if (kinds.is_none()) return wanted;
    std::vector<std::string> names;
    if (PyUnicode_Check(kinds.ptr())) {
        names.push_back(kinds.cast<std::string>());
    } else {
        for (const py::handle k : py::iter(kinds)) {
            if (!PyUnicode_Check(k.ptr()))
                throw py::type_error("kinds must be strings, not " + typeName(k));
            names.push_back(k.cast<std::string>());
        }
    }
    for (const std::string& name : names) {
        const std::optional<EventKind> kind = eventKindFromString(name);
        if (!kind) {
            std::string valid;
            for (std::size_t k = 0; k < kEventKindCount; ++k)
                valid += (k > 0 ? ", " : "") + std::string(toString(static_cast<EventKind>(k)));
            throw py::value_error("unknown event kind \"" + name + "\" (valid kinds: " + valid +
                                  ")");
        }
        wanted[static_cast<std::size_t>(*kind)] = true;
    }
    return wanted;
}

const char* const kSimulatorDoc = R"(An ORCA crowd on the ORCA Sandbox core: our own Python API.

Make one from a scene file (``Simulator.from_scene(path)``) or from code
(``Simulator(time_step, **parameters)``, then ``add_agent`` / ``add_obstacle``). Step it
with ``step(n)``; read and write all agents at once as NumPy arrays (``positions``,
``velocities``, ``pref_velocities``: shape (n, 2), float64); ask why an agent chose its
velocity (``explain``), keep and restore states (``snapshot`` / ``restore``), read the
events of the run (``events``) and save the state as a scene (``save_scene``).

Agents and obstacles are numbered from 0 in the order they were added (the file's order
for a scene). Units: world units, seconds, world units per second. Errors are exceptions
carrying the C++ message: IndexError for an agent that does not exist (or a negative
index), ValueError for a value the core refuses, TypeError for one of the wrong type,
orca.SceneError for scene files.
)";

const char* const kInitDoc = R"(A simulator without agents.

``time_step`` is Δt (s, >= 1e-6). Keyword arguments set any parameter of the parameter
table (``orca.parameters()``, docs/parameters.md) by its snake-case name:
simulation parameters (``responsibility``, ``static_responsibility``,
``lp3_bisector_weight``), the detour field's (``detour_enabled``, ``detour_cell_size``...)
and the agent defaults that ``add_agent`` starts from (``radius``, ``max_speed``,
``pref_speed``, ``neighbor_dist``, ``max_neighbors``, ``time_horizon``,
``time_horizon_obst``, ``goal_radius``, ``waypoint_radius``, ``avoidance_weight``); also
``routing`` ("straight" or "roadmap"), ``deadlock_breaking`` (bool), ``threads`` (1 to 256;
results do not depend on it) and ``events`` (bool, default True: detect events as the run goes, see
``events()``; False saves their cost). Defaults are RVO2 Circle's values.
)";

} // namespace

void bindSimulator(py::module_& m) {
    py::class_<PyState> state(m, "State", R"(A snapshot of a Simulator (``Simulator.snapshot()``).

Everything that changes a future step, plus the events detected up to it: restoring it
(``Simulator.restore``) and stepping gives the same bits as the original run. Opaque;
a state may be restored into any Simulator, any number of times.
)");
    state.def_property_readonly(
        "time", [](const PyState& s) { return s.state.time; }, "Simulated time (s).");
    state.def_property_readonly(
        "step_count", [](const PyState& s) { return s.state.stepCount; },
        "Steps taken when the snapshot was made.");
    state.def_property_readonly(
        "agent_count", [](const PyState& s) { return s.state.agentCount(); }, "Agents held.");
    state.def("__repr__", [](const PyState& s) {
        return "<orca.State: " + std::to_string(s.state.agentCount()) + " agents, step " +
               std::to_string(s.state.stepCount) + ">";
    });

    m.def(
        "parameters",
        [] {
            py::list rows;
            const SimulationParams simulation;
            const AgentParams agent;
            for (const ParamRow& row : parameterTable()) {
                py::dict d;
                d["keyword"] = keywordOf(row);
                d["name"] = qualifiedName(row);
                d["scope"] = std::string(scopeName(row.scope));
                d["kind"] = std::string(kindName(row.kind));
                d["default"] = paramValue(row, simulation, agent);
                d["range"] = formatRange(row.range);
                d["unit"] = std::string(row.unit);
                d["doc"] = std::string(row.doc);
                rows.append(std::move(d));
            }
            return rows;
        },
        R"(The parameter table (docs/parameters.md): one dict per parameter with its Python
``keyword`` (for Simulator() and add_agent()), qualified ``name`` ("agent.radius"),
``scope`` ("simulation", "detour" or "agent"), ``kind``, ``default``, valid ``range``,
``unit`` and one-line ``doc``.)");

    py::class_<PySimulator> cls(m, "Simulator", kSimulatorDoc);
    cls.def(py::init([](py::object timeStep, const py::kwargs& kwargs) {
                SimulationParams simulation;
                AgentParams agent;
                setParam(*findParameter("simulation.timeStep"), timeStep, simulation, agent);
                int threads = 1;
                bool events = true;
                for (const auto& [key, value] : kwargs) {
                    const std::string k = py::str(key).cast<std::string>();
                    if (k == "threads") {
                        threads = threadsOf(value);
                    } else if (k == "events") {
                        events = flagOf(value, "events");
                    } else if (k == "routing") {
                        simulation.routing = routingOf(value);
                    } else if (k == "deadlock_breaking") {
                        simulation.deadlockBreaking = flagOf(value, "deadlock_breaking");
                    } else {
                        const ParamRow* found = nullptr;
                        std::vector<std::string> valid;
                        for (const ParamRow& row : parameterTable()) {
                            if (keywordOf(row) == k) found = &row;
                            valid.push_back(keywordOf(row));
                        }
                        if (!found) {
                            for (const char* extra :
                                 {"routing", "deadlock_breaking", "threads", "events"})
                                valid.emplace_back(extra);
                            unknownKeyword("Simulator", k, valid);
                        }
                        setParam(*found, value, simulation, agent);
                    }
                }
                if (const std::string error = checkSimulationParams(simulation); !error.empty())
                    throw py::value_error(error);
                auto s = std::make_unique<PySimulator>();
                s->sim.setParams(simulation);
                s->sim.setThreadCount(threads);
                auto info = std::make_shared<SceneInfo>();
                info->agentDefaults = agent;
                s->info = std::move(info);
                s->log.enabled = events;
                return s;
            }),
            py::arg("time_step") = 0.25, kInitDoc);

    cls.def(
        "__len__", [](const PySimulator& s) { return s.sim.agentCount(); },
        "The number of agents.");
    cls.def("__repr__", [](const PySimulator& s) {
        requireIdle(s.busy, "repr");
        return "<orca.Simulator: " + std::to_string(s.sim.agentCount()) + " agents, " +
               std::to_string(s.sim.obstacleCount()) + " obstacles, step " +
               std::to_string(s.sim.stepCount()) + ">";
    });
    cls.def_property_readonly(
        "agent_count", [](const PySimulator& s) { return s.sim.agentCount(); },
        "The number of agents.");
    cls.def_property_readonly(
        "obstacle_count", [](const PySimulator& s) { return s.sim.obstacleCount(); },
        "The number of obstacles (polygons).");
    cls.def_property_readonly(
        "time",
        [](const PySimulator& s) {
            requireIdle(s.busy, "time");
            return s.sim.time();
        },
        "Simulated time (s): the sum of the steps' Δt (a scene's saved clock included).");
    cls.def_property_readonly(
        "step_count",
        [](const PySimulator& s) {
            requireIdle(s.busy, "step_count");
            return s.sim.stepCount();
        },
        "Steps taken (a scene's saved step count included).");
    cls.def_property(
        "time_step", [](const PySimulator& s) { return s.sim.params().timeStep; },
        [](PySimulator& s, py::object value) {
            requireIdle(s.busy, "time_step");
            SimulationParams p = s.sim.params();
            AgentParams unused;
            setParam(*findParameter("simulation.timeStep"), value, p, unused);
            s.sim.setParams(p);
            s.configurationChanged();
        },
        "Δt, simulated seconds per step (>= 1e-6).");
    cls.def_property(
        "threads", [](const PySimulator& s) { return s.sim.threadCount(); },
        [](PySimulator& s, py::object value) {
            requireIdle(s.busy, "threads");
            s.sim.setThreadCount(threadsOf(value));
        },
        "Worker threads of a step (1 to 256); results do not depend on it.");
    cls.def_property_readonly(
        "parameters",
        [](const PySimulator& s) {
            py::dict d;
            const SimulationParams& p = s.sim.params();
            for (const ParamRow& row : parameterTable()) {
                if (row.scope != ParamScope::Agent)
                    d[py::str(keywordOf(row))] = paramValue(row, p, s.info->agentDefaults);
            }
            d["routing"] = std::string(routingName(p.routing));
            d["deadlock_breaking"] = p.deadlockBreaking;
            return d;
        },
        "The simulation-wide parameters as a dict keyword → value (a copy).");
    cls.def_property_readonly(
        "agent_defaults",
        [](const PySimulator& s) {
            py::dict d;
            for (const ParamRow& row : parameterTable(ParamScope::Agent))
                d[py::str(keywordOf(row))] = paramValue(row, s.sim.params(), s.info->agentDefaults);
            return d;
        },
        "The parameters add_agent starts from, as a dict keyword → value (a copy).");

    cls.def(
        "step",
        [](PySimulator& s, py::object n) {
            const std::size_t count = toCount(n, "n");
            BusyGuard busy(s.busy, "step");
            for (std::size_t k = 0; k < count; ++k) {
                {
                    py::gil_scoped_release release;
                    if (s.log.enabled) s.log.start(s.sim);
                    s.step();
                    if (s.log.enabled) s.log.detector.observe(s.sim, s.log.events);
                }
                // Ctrl+C stops a long run between two steps.
                if (count > 1 && PyErr_CheckSignals() != 0) throw py::error_already_set();
            }
        },
        py::arg("n") = 1,
        R"(Takes ``n`` steps (>= 0). In each, every agent chooses its new velocity from the
state before the step (neighbours, ORCA half-planes, the linear programs), then all
move. Runs without the GIL; KeyboardInterrupt stops between two steps (the steps done
stay done). orca.NonFiniteStateError if a step would produce a NaN or infinite state
(valid input never does); the simulator then holds the state before that step. While
recording (start_recording), each step writes its frame.)");

    cls.def(
        "explain",
        [](const PySimulator& s, py::object agent, bool lpTrace) {
            requireIdle(s.busy, "explain");
            const std::size_t i = s.agentIndex(agent);
            ExplainOptions options;
            options.lpTrace = lpTrace;
            return toPython(toJson(s.sim.explain(s.sim.agentIdAt(i), options), s.sim));
        },
        py::arg("agent"), py::kw_only(), py::arg("lp_trace") = false,
        R"(Why the agent will choose its next velocity: the decision the next step makes
for it, as a dry run that changes nothing. A dict with the content of ``orca explain``'s
JSON (docs/core.md): position, velocity, preferred velocity, parameters, neighbours,
every half-plane with its geometric case, u and VO, the feasible region, the LP2/LP3
outcome and the new velocity. ``lp_trace=True`` adds "lpTrace" (the linear programs
line by line).)");

    cls.def(
        "snapshot",
        [](const PySimulator& s) {
            requireIdle(s.busy, "snapshot");
            return PyState{s.sim.snapshot(), s.info, s.log};
        },
        "The current state, with the events detected so far (an orca.State).");
    cls.def(
        "restore",
        [](PySimulator& s, const PyState& saved) {
            requireIdle(s.busy, "restore");
            s.sim.restore(saved.state);
            s.info = saved.info;
            s.configurationChanged();
            const bool enabled = s.log.enabled;
            s.log = saved.log;
            // A state taken with detection off restarts it from here (and vice versa).
            if (s.log.enabled != enabled) {
                EventLog fresh;
                fresh.enabled = enabled;
                s.log = std::move(fresh);
            }
        },
        py::arg("state"),
        R"(Puts the simulator back into ``state`` (from snapshot(), of this or another
Simulator): agents, obstacles, parameters, clock, and the events detected up to it.
Stepping afterwards gives the same bits as stepping the original.)");

    cls.def(
        "events",
        [](PySimulator& s, py::object kinds, py::object agent) {
            requireIdle(s.busy, "events");
            if (!s.log.enabled)
                throw std::runtime_error(
                    "events(): event detection is off (the simulator was made with events=False)");
            const std::array<bool, kEventKindCount> wanted = wantedKinds(kinds);
            std::optional<std::uint32_t> only;
            if (!agent.is_none()) only = static_cast<std::uint32_t>(s.agentIndex(agent));
            s.log.start(s.sim);
            py::list out;
            for (const Event& e : s.log.events) {
                if (!wanted[static_cast<std::size_t>(e.kind)]) continue;
                if (only && std::find(e.agents.begin(), e.agents.end(), *only) == e.agents.end())
                    continue;
                out.append(toPython(toJson(e)));
            }
            return out;
        },
        py::kw_only(), py::arg("kinds") = py::none(), py::arg("agent") = py::none(),
        R"(The events of the run so far as a list of dicts, as ``orca events`` prints them:
{"step", "kind", "agents", "obstacle", "value"} (docs/events.md), ordered by step;
step 0 (or the step the detection started at) is the initial state. ``kinds``: a kind
name or a list of them (e.g. "overlap-begin"); ``agent``: only events involving that
agent. RuntimeError when the simulator was made with events=False.)");
    cls.def(
        "clear_events",
        [](PySimulator& s) {
            requireIdle(s.busy, "clear_events");
            s.log.events.clear();
        },
        "Forgets the events found so far (detection goes on).");

    cls.def(
        "state_hash",
        [](const PySimulator& s) {
            requireIdle(s.busy, "state_hash");
            return s.sim.stateHash();
        },
        "A 64-bit hash of every agent's position and velocity bits (as `orca run` prints it "
        "in hex: f\"{h:016x}\").");

    bindArrays(cls);
    bindScene(cls);
    bindRecording(m, cls);
}

} // namespace orca::python
