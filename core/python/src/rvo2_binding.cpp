// orca.rvo2.PyRVOSimulator: Python-RVO2's class (the same constructor, method names, argument
// names and order, defaults and tuple returns) over the C++ compatibility layer
// RVO::RVOSimulator (core/rvo2, docs/rvo2.md), so that both faces give the same numbers. Written
// from Python-RVO2's documented API; docs/python.md lists what differs.
#include <bit>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include <pybind11/stl/filesystem.h>

#include "RVO.h"
#include "bindings.hpp"
#include "fast_method.hpp"

namespace orca::python {

namespace {

/// The simulator behind one PyRVOSimulator, and whether a call runs on it without the GIL.
struct Rvo2Simulator {
    Rvo2Simulator(float timeStep, float neighborDist, std::size_t maxNeighbors, float timeHorizon,
                  float timeHorizonObst, float radius, float maxSpeed, const RVO::Vector2& velocity)
        : sim(timeStep, neighborDist, maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed,
              velocity) {}
    RVO::RVOSimulator sim;
    bool busy = false;
};

RVO::Vector2 toVector2(py::handle value, const char* what) {
    const Vec2 v = toVec2(value, what);
    return {narrowToFloat(v.x, what), narrowToFloat(v.y, what)};
}

/// (x, y) as Python floats (the float values, widened exactly, as Python-RVO2 returns them).
py::object pair(const RVO::Vector2& v) {
    // Straight through the C API: a per-agent loop calls this for every agent and step.
    PyObject* x = PyFloat_FromDouble(static_cast<double>(v.x()));
    PyObject* y = x != nullptr ? PyFloat_FromDouble(static_cast<double>(v.y())) : nullptr;
    PyObject* t = y != nullptr ? PyTuple_New(2) : nullptr;
    if (t == nullptr) {
        Py_XDECREF(x);
        Py_XDECREF(y);
        throw py::error_already_set();
    }
    PyTuple_SET_ITEM(t, 0, x);
    PyTuple_SET_ITEM(t, 1, y);
    return py::reinterpret_steal<py::object>(t);
}

/// The agent number argument, checked for the simulator's being idle.
std::size_t agentNo(const Rvo2Simulator& s, py::handle value, const char* function) {
    requireIdle(s.busy, function);
    return toIndex(value, "agent_no");
}

using Class = py::class_<Rvo2Simulator>;
constexpr FastArg kAgent{"agent_no"};

/// A getter getAgentX(agent_no) -> float.
template <auto get> void floatGetter(Class& cls, const char* name, const char* doc) {
    defFast(
        cls, name, std::array{kAgent},
        [name](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            return py::float_(static_cast<double>((s.sim.*get)(agentNo(s, a[0], name))));
        },
        doc);
}

/// A getter getAgentX(agent_no) -> int.
template <auto get> void countGetter(Class& cls, const char* name, const char* doc) {
    defFast(
        cls, name, std::array{kAgent},
        [name](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            return py::int_((s.sim.*get)(agentNo(s, a[0], name)));
        },
        doc);
}

/// A getter getAgentX(agent_no) -> (x, y).
template <auto get> void vectorGetter(Class& cls, const char* name, const char* doc) {
    defFast(
        cls, name, std::array{kAgent},
        [name](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            return pair((s.sim.*get)(agentNo(s, a[0], name)));
        },
        doc);
}

/// A getter getAgentX(agent_no, index) -> int, the index argument named `indexName`.
template <auto get>
void neighborGetter(Class& cls, const char* name, const char* indexName, const char* doc) {
    defFast(
        cls, name, std::array{kAgent, FastArg{indexName}},
        [name, indexName](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], name);
            return py::int_((s.sim.*get)(i, toIndex(a[1], indexName)));
        },
        doc);
}

/// A setter setAgentX(agent_no, value) of a float whose argument is named `argName`.
template <auto set>
void floatSetter(Class& cls, const char* name, const char* argName, const char* doc) {
    defFast(
        cls, name, std::array{kAgent, FastArg{argName}},
        [name, argName](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], name);
            (s.sim.*set)(i, toFloat(a[1], argName));
            return py::none();
        },
        doc);
}

/// A setter setAgentX(agent_no, value) of a vector whose argument is named `argName`.
template <auto set>
void vectorSetter(Class& cls, const char* name, const char* argName, const char* doc) {
    defFast(
        cls, name, std::array{kAgent, FastArg{argName}},
        [name, argName](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], name);
            (s.sim.*set)(i, toVector2(a[1], argName));
            return py::none();
        },
        doc);
}

/// A getter of the whole simulator, name() -> result of `get` (a Python object).
template <class Get> void simulatorGetter(Class& cls, const char* name, Get get, const char* doc) {
    defFast(
        cls, name, std::array<FastArg, 0>{},
        [name, get](Rvo2Simulator& s, const FastArgs<0>&) -> py::object {
            requireIdle(s.busy, name);
            return get(s.sim);
        },
        doc);
}

/// A getter of an obstacle vertex, name(vertex_no) -> result of `get` (a Python object).
template <class Get> void vertexGetter(Class& cls, const char* name, Get get, const char* doc) {
    defFast(
        cls, name, std::array{FastArg{"vertex_no"}},
        [name, get](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            requireIdle(s.busy, name);
            return get(s.sim, toIndex(a[0], "vertex_no"));
        },
        doc);
}

const char* const kClassDoc = R"(Python-RVO2's simulator on the ORCA Sandbox core.

The same constructor, method names, argument names and order, defaults and tuple
returns as Python-RVO2's ``rvo2.PyRVOSimulator``: a Python-RVO2 program changes only
its import (``import orca.rvo2 as rvo2``). Every decision is the core's, through the
C++ compatibility layer ``RVO::RVOSimulator`` (docs/rvo2.md); positions and velocities
are kept in float as in RVO2.

Vectors are tuples ``(x, y)`` (any sequence of two numbers is accepted), ORCA lines
tuples ``(point x, point y, direction x, direction y)``. Units: world units, seconds,
world units per second.

Errors are exceptions carrying the C++ message, never a crash: IndexError for an
agent, neighbour, line or vertex number that does not exist (or a negative one),
ValueError for a value the core cannot simulate (NaN or infinite, radius <= 0, a
negative speed or distance, a time horizon <= 0, a time step below 1e-6 s, a polygon
the core refuses, including clockwise ones), TypeError for a value of the wrong type.
Not in Python-RVO2: ``saveScene(path)``, ``startRecording(path)``, ``stopRecording()``.
)";

/// Objects used as defaults; made once, never freed (the methods outlive any scope).
PyObject* immortal(py::object o) {
    return o.release().ptr();
}

} // namespace

void bindRvo2(py::module_& m) {
    using RVO::RVOSimulator;
    Class cls(m, "PyRVOSimulator", kClassDoc);
    PyObject* const zero = immortal(py::make_tuple(0, 0));
    PyObject* const none = Py_None;

    cls.def(py::init([](py::object timeStep, py::object neighborDist, py::object maxNeighbors,
                        py::object timeHorizon, py::object timeHorizonObst, py::object radius,
                        py::object maxSpeed, py::object velocity) {
                return std::make_unique<Rvo2Simulator>(
                    toFloat(timeStep, "timeStep"), toFloat(neighborDist, "neighborDist"),
                    toCount(maxNeighbors, "maxNeighbors"), toFloat(timeHorizon, "timeHorizon"),
                    toFloat(timeHorizonObst, "timeHorizonObst"), toFloat(radius, "radius"),
                    toFloat(maxSpeed, "maxSpeed"), toVector2(velocity, "velocity"));
            }),
            py::arg("timeStep"), py::arg("neighborDist"), py::arg("maxNeighbors"),
            py::arg("timeHorizon"), py::arg("timeHorizonObst"), py::arg("radius"),
            py::arg("maxSpeed"), py::arg("velocity") = py::make_tuple(0, 0),
            R"(A simulator with time step ``timeStep`` (s, >= 1e-6) and the agent defaults
of setAgentDefaults: ``neighborDist`` (world units, >= 0), ``maxNeighbors`` (>= 0),
``timeHorizon`` and ``timeHorizonObst`` (s, > 0), ``radius`` (world units, > 0),
``maxSpeed`` (units/s, >= 0) and the initial ``velocity`` (x, y). ValueError for a
value out of range.)");

    defFast(
        cls, "addAgent",
        std::array{FastArg{"pos"}, FastArg{"neighborDist", none}, FastArg{"maxNeighbors", none},
                   FastArg{"timeHorizon", none}, FastArg{"timeHorizonObst", none},
                   FastArg{"radius", none}, FastArg{"maxSpeed", none}, FastArg{"velocity", none}},
        [](Rvo2Simulator& s, const FastArgs<8>& a) -> py::object {
            requireIdle(s.busy, "addAgent");
            if (!a[1].is_none() && a[7].is_none())
                throw py::value_error("Either pass only 'pos', or pass all parameters.");
            std::size_t agent = 0;
            if (a[1].is_none()) {
                // As in Python-RVO2, the other parameters are ignored without neighborDist.
                agent = s.sim.addAgent(toVector2(a[0], "pos"));
            } else {
                agent = s.sim.addAgent(toVector2(a[0], "pos"), toFloat(a[1], "neighborDist"),
                                       toCount(a[2], "maxNeighbors"), toFloat(a[3], "timeHorizon"),
                                       toFloat(a[4], "timeHorizonObst"), toFloat(a[5], "radius"),
                                       toFloat(a[6], "maxSpeed"), toVector2(a[7], "velocity"));
            }
            if (agent == RVO::RVO_ERROR)
                throw std::runtime_error("Error adding agent to RVO simulation");
            return py::int_(agent);
        },
        R"(Adds an agent at ``pos`` (x, y) and returns its number (0, 1, 2... in order).

Pass only ``pos`` (the agent takes the defaults), or every parameter: neighborDist,
maxNeighbors, timeHorizon, timeHorizonObst, radius, maxSpeed and velocity (their
meaning and ranges as in the constructor). ValueError when neighborDist is given
without velocity ("Either pass only 'pos', or pass all parameters."); as in
Python-RVO2, the other parameters are ignored when neighborDist is not given.)");

    defFast(
        cls, "addObstacle", std::array{FastArg{"vertices"}},
        [](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            requireIdle(s.busy, "addObstacle");
            std::vector<RVO::Vector2> points;
            for (const Vec2& p : toPoints(a[0], "vertices"))
                points.emplace_back(narrowToFloat(p.x, "vertices"), narrowToFloat(p.y, "vertices"));
            const std::size_t first = s.sim.addObstacle(points);
            if (first == RVO::RVO_ERROR)
                throw std::runtime_error("Error adding obstacle to RVO simulation");
            return py::int_(first);
        },
        R"(Adds a polygon given as a list of vertices (x, y), counter-clockwise (agents stay
outside); two vertices make a thin wall. Returns the number of its first vertex. It
takes effect at the next processObstacles(). RuntimeError for fewer than two
vertices ("Error adding obstacle to RVO simulation"), ValueError for a polygon the
core refuses: a repeated vertex, all vertices collinear, crossing edges, or clockwise
order (RVO2 reads a clockwise polygon as an inside-out boundary; the core has none).)");

    defFast(
        cls, "doStep", std::array<FastArg, 0>{},
        [](Rvo2Simulator& s, const FastArgs<0>&) -> py::object {
            BusyGuard busy(s.busy, "doStep");
            {
                py::gil_scoped_release release;
                s.sim.doStep();
            }
            return py::none();
        },
        R"(One simulation step: every agent chooses its new velocity from the state before
the step, then all move and the global time advances by the time step. Runs without
the GIL.)");

    neighborGetter<&RVOSimulator::getAgentAgentNeighbor>(
        cls, "getAgentAgentNeighbor", "neighbor_no",
        "The number of the neighbor_no-th agent neighbour (nearest first) of the "
        "agent in the last doStep().");
    countGetter<&RVOSimulator::getAgentMaxNeighbors>(
        cls, "getAgentMaxNeighbors",
        "The agent's maximum neighbour count (above 2**31 - 1 reads back as 2**31 - 1).");
    floatGetter<&RVOSimulator::getAgentMaxSpeed>(cls, "getAgentMaxSpeed",
                                                 "The agent's maximum speed (units/s).");
    floatGetter<&RVOSimulator::getAgentNeighborDist>(
        cls, "getAgentNeighborDist",
        "The agent's neighbour distance (world units, centre to centre).");
    countGetter<&RVOSimulator::getAgentNumAgentNeighbors>(
        cls, "getAgentNumAgentNeighbors",
        "How many agent neighbours the agent considered in the last doStep() (0 before "
        "the first step and for agents added since).");
    countGetter<&RVOSimulator::getAgentNumObstacleNeighbors>(
        cls, "getAgentNumObstacleNeighbors",
        "How many obstacle edges the agent considered in the last doStep().");
    countGetter<&RVOSimulator::getAgentNumORCALines>(
        cls, "getAgentNumORCALines",
        "How many ORCA half-planes constrained the agent in the last doStep(): obstacle "
        "lines first, then one per agent neighbour.");
    neighborGetter<&RVOSimulator::getAgentObstacleNeighbor>(
        cls, "getAgentObstacleNeighbor", "obstacle_no",
        "The number of the first vertex of the obstacle_no-th obstacle edge (nearest "
        "first) the agent considered in the last doStep().");
    defFast(
        cls, "getAgentORCALine", std::array{kAgent, FastArg{"line_no"}},
        [](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], "getAgentORCALine");
            const RVO::Line& l = s.sim.getAgentORCALine(i, toIndex(a[1], "line_no"));
            return py::make_tuple(
                static_cast<double>(l.point.x()), static_cast<double>(l.point.y()),
                static_cast<double>(l.direction.x()), static_cast<double>(l.direction.y()));
        },
        "The line_no-th ORCA half-plane of the agent in the last doStep() as (point x, point y, "
        "direction x, direction y); the permitted velocities lie on its left.");
    vectorGetter<&RVOSimulator::getAgentPosition>(cls, "getAgentPosition",
                                                  "The agent's position (x, y) (world units).");
    vectorGetter<&RVOSimulator::getAgentPrefVelocity>(
        cls, "getAgentPrefVelocity",
        "The agent's preferred velocity (x, y) (units/s) as last set ((0, 0) until set).");
    floatGetter<&RVOSimulator::getAgentRadius>(cls, "getAgentRadius",
                                               "The agent's radius (world units).");
    floatGetter<&RVOSimulator::getAgentTimeHorizon>(
        cls, "getAgentTimeHorizon", "The agent's time horizon toward other agents (s).");
    floatGetter<&RVOSimulator::getAgentTimeHorizonObst>(
        cls, "getAgentTimeHorizonObst", "The agent's time horizon toward obstacles (s).");
    vectorGetter<&RVOSimulator::getAgentVelocity>(cls, "getAgentVelocity",
                                                  "The agent's velocity (x, y) (units/s).");
    simulatorGetter(
        cls, "getGlobalTime",
        [](const RVOSimulator& sim) {
            return py::float_(static_cast<double>(sim.getGlobalTime()));
        },
        "Simulated time (s): the float sum of the time steps of every doStep() so far.");
    simulatorGetter(
        cls, "getNumAgents", [](const RVOSimulator& sim) { return py::int_(sim.getNumAgents()); },
        "The number of agents.");
    simulatorGetter(
        cls, "getNumObstacleVertices",
        [](const RVOSimulator& sim) { return py::int_(sim.getNumObstacleVertices()); },
        "The number of obstacle vertices added (processed or not).");
    vertexGetter(
        cls, "getObstacleVertex",
        [](const RVOSimulator& sim, std::size_t v) { return pair(sim.getObstacleVertex(v)); },
        "The position (x, y) of obstacle vertex vertex_no (world units).");
    vertexGetter(
        cls, "getNextObstacleVertexNo",
        [](const RVOSimulator& sim, std::size_t v) {
            return py::int_(sim.getNextObstacleVertexNo(v));
        },
        "The number of the vertex after vertex_no in its polygon.");
    vertexGetter(
        cls, "getPrevObstacleVertexNo",
        [](const RVOSimulator& sim, std::size_t v) {
            return py::int_(sim.getPrevObstacleVertexNo(v));
        },
        "The number of the vertex before vertex_no in its polygon.");
    simulatorGetter(
        cls, "getTimeStep",
        [](const RVOSimulator& sim) { return py::float_(static_cast<double>(sim.getTimeStep())); },
        "The time step (s).");

    defFast(
        cls, "processObstacles", std::array<FastArg, 0>{},
        [](Rvo2Simulator& s, const FastArgs<0>&) -> py::object {
            BusyGuard busy(s.busy, "processObstacles");
            {
                py::gil_scoped_release release;
                s.sim.processObstacles();
            }
            return py::none();
        },
        "Puts every obstacle added so far into the simulation and into the visibility queries "
        "(obstacles added later wait for the next call). Runs without the GIL.");
    defFast(
        cls, "queryVisibility",
        std::array{FastArg{"point1"}, FastArg{"point2"},
                   FastArg{"radius", immortal(py::float_(0.0))}},
        [](Rvo2Simulator& s, const FastArgs<3>& a) -> py::object {
            const RVO::Vector2 p = toVector2(a[0], "point1");
            const RVO::Vector2 q = toVector2(a[1], "point2");
            const float r = toFloat(a[2], "radius");
            BusyGuard busy(s.busy, "queryVisibility");
            bool visible = false;
            {
                py::gil_scoped_release release;
                visible = s.sim.queryVisibility(p, q, r);
            }
            return py::bool_(visible);
        },
        R"(Whether the segment from point1 to point2 stays at least ``radius`` (world units,
>= 0) from every processed obstacle edge (True before processObstacles()). Exact, where
RVO2's answer approximates it (docs/rvo2.md). Runs without the GIL.)");

    defFast(
        cls, "setAgentDefaults",
        std::array{FastArg{"neighbor_dist"}, FastArg{"max_neighbors"}, FastArg{"time_horizon"},
                   FastArg{"time_horizon_obst"}, FastArg{"radius"}, FastArg{"max_speed"},
                   FastArg{"velocity", zero}},
        [](Rvo2Simulator& s, const FastArgs<7>& a) -> py::object {
            requireIdle(s.busy, "setAgentDefaults");
            s.sim.setAgentDefaults(toFloat(a[0], "neighbor_dist"), toCount(a[1], "max_neighbors"),
                                   toFloat(a[2], "time_horizon"),
                                   toFloat(a[3], "time_horizon_obst"), toFloat(a[4], "radius"),
                                   toFloat(a[5], "max_speed"), toVector2(a[6], "velocity"));
            return py::none();
        },
        "Sets the parameters of agents added later with addAgent(pos) (meaning and ranges as in "
        "the constructor).");

    defFast(
        cls, "setAgentMaxNeighbors", std::array{kAgent, FastArg{"max_neighbors"}},
        [](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], "setAgentMaxNeighbors");
            s.sim.setAgentMaxNeighbors(i, toCount(a[1], "max_neighbors"));
            return py::none();
        },
        "Sets the agent's maximum neighbour count (>= 0; above 2**31 - 1 counts as all).");
    floatSetter<&RVOSimulator::setAgentMaxSpeed>(cls, "setAgentMaxSpeed", "max_speed",
                                                 "Sets the agent's maximum speed (units/s, >= 0).");
    floatSetter<&RVOSimulator::setAgentNeighborDist>(
        cls, "setAgentNeighborDist", "neighbor_dist",
        "Sets the agent's neighbour distance (world units, >= 0).");
    vectorSetter<&RVOSimulator::setAgentPosition>(
        cls, "setAgentPosition", "position", "Sets the agent's position (x, y) (world units).");
    defFast(
        cls, "setAgentPrefVelocity", std::array{kAgent, FastArg{"velocity"}},
        [](Rvo2Simulator& s, const FastArgs<2>& a) -> py::object {
            const std::size_t i = agentNo(s, a[0], "setAgentPrefVelocity");
            const RVO::Vector2 v = toVector2(a[1], "velocity");
            // The same bits again (an agent at its goal, kept at (0, 0)) need no hand-over:
            // doStep() re-stores every agent whose preferred velocity was set, at about 65 ns
            // each (docs/python.md, "Speed"). Out-of-range numbers still raise IndexError.
            const RVO::Vector2& now = s.sim.getAgentPrefVelocity(i);
            using Bits = std::uint32_t;
            if (std::bit_cast<Bits>(now.x()) != std::bit_cast<Bits>(v.x()) ||
                std::bit_cast<Bits>(now.y()) != std::bit_cast<Bits>(v.y()))
                s.sim.setAgentPrefVelocity(i, v);
            return py::none();
        },
        "Sets the agent's preferred velocity (x, y) (units/s), used from the next doStep() on.");
    floatSetter<&RVOSimulator::setAgentRadius>(cls, "setAgentRadius", "radius",
                                               "Sets the agent's radius (world units, > 0).");
    floatSetter<&RVOSimulator::setAgentTimeHorizon>(
        cls, "setAgentTimeHorizon", "time_horizon",
        "Sets the agent's time horizon toward agents (s, > 0).");
    // Python-RVO2 spells this argument in camel case.
    floatSetter<&RVOSimulator::setAgentTimeHorizonObst>(
        cls, "setAgentTimeHorizonObst", "timeHorizonObst",
        "Sets the agent's time horizon toward obstacles (s, > 0).");
    vectorSetter<&RVOSimulator::setAgentVelocity>(cls, "setAgentVelocity", "velocity",
                                                  "Sets the agent's velocity (x, y) (units/s).");
    defFast(
        cls, "setTimeStep", std::array{FastArg{"time_step"}},
        [](Rvo2Simulator& s, const FastArgs<1>& a) -> py::object {
            requireIdle(s.busy, "setTimeStep");
            s.sim.setTimeStep(toFloat(a[0], "time_step"));
            return py::none();
        },
        "Sets the time step (s, >= 1e-6).");

    cls.def(
        "saveScene",
        [](const Rvo2Simulator& s, const std::filesystem::path& path) {
            requireIdle(s.busy, "saveScene");
            s.sim.saveScene(path.string());
        },
        py::arg("path"),
        R"(Not in Python-RVO2: writes the current state as an ORCA Sandbox scene (JSON,
written atomically) that ``orca run`` and the sandbox continue: the processed obstacles,
every agent with position, velocity, parameters and its current preferred velocity
(kept constant), the time step and the clock. orca.SceneError when the file cannot be
written or a value lies beyond the scene format's limits (coordinates within 1e7).)");

    cls.def(
        "startRecording",
        [](Rvo2Simulator& s, const std::filesystem::path& path) {
            requireIdle(s.busy, "startRecording");
            s.sim.startRecording(path.string());
        },
        py::arg("path"),
        R"(Not in Python-RVO2: records the run from now on into ``path``, an ORCA Sandbox
recording (docs/recording-format.md; ``orca recording FILE`` reads it): the scene, then
after every doStep each agent's position and velocity and the preferred velocity set
for that step; a new scene record when agents, obstacles or parameters change. The file
appears, whole, at stopRecording (or when the simulator is destroyed). orca.SceneError
when the file cannot be written.)");
    cls.def(
        "stopRecording",
        [](Rvo2Simulator& s) {
            requireIdle(s.busy, "stopRecording");
            s.sim.stopRecording();
        },
        R"(Not in Python-RVO2: finishes the recording and puts the file in place (nothing
when not recording). orca.SceneError when that fails.)");
}

} // namespace orca::python
