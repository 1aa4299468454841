// orca.Simulator: the agents' state as NumPy arrays (one call reads or writes all agents),
// agents and obstacles added from code, and one agent's description.
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include <pybind11/numpy.h>

#include "simulator_py.hpp"

namespace orca::python {

namespace {

/// Points as a new (n, 2) float64 array.
py::array_t<double> toArray(std::span<const Vec2> points) {
    py::array_t<double> a({static_cast<py::ssize_t>(points.size()), py::ssize_t{2}});
    double* out = a.mutable_data();
    for (std::size_t i = 0; i < points.size(); ++i) {
        out[2 * i] = points[i].x;
        out[2 * i + 1] = points[i].y;
    }
    return a;
}

std::string shapeOf(const py::array& a) {
    std::string s = "(";
    for (py::ssize_t d = 0; d < a.ndim(); ++d)
        s += (d > 0 ? ", " : "") + std::to_string(a.shape(d));
    return s + (a.ndim() == 1 ? ",)" : ")");
}

/// One value per agent from an array-like of shape (agents, 2) whose values are all finite.
/// The whole input is checked before anything is written, so a refused call changes nothing.
std::vector<Vec2> agentRows(const PySimulator& s, py::handle value, const char* what) {
    using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
    const std::string name = what;
    if (value.is_none())
        throw py::type_error(name + " must be an array of numbers of shape (n, 2), not None");
    const Array a = Array::ensure(value); // NumPy's conversion (lists, other dtypes); no copy
                                          // for a C-contiguous float64 array
    if (!a)
        throw py::type_error(name + " must be an array of numbers of shape (n, 2), not " +
                             typeName(value));
    const std::size_t n = s.sim.agentCount();
    if (a.ndim() != 2 || a.shape(1) != 2 || static_cast<std::size_t>(a.shape(0)) != n)
        throw py::value_error(name + " must have shape (" + std::to_string(n) +
                              ", 2) (one row per agent), not " + shapeOf(a));
    const double* data = a.data();
    std::vector<Vec2> rows(n);
    for (std::size_t i = 0; i < n; ++i) {
        rows[i] = {data[2 * i], data[2 * i + 1]};
        if (!std::isfinite(rows[i].x) || !std::isfinite(rows[i].y))
            throw py::value_error(name + "[" + std::to_string(i) + "] is not finite (" +
                                  py::str(py::float_(rows[i].x)).cast<std::string>() + ", " +
                                  py::str(py::float_(rows[i].y)).cast<std::string>() + ")");
    }
    return rows;
}

/// Bitwise equal (so that -0.0 is written over 0.0 and vice versa).
bool sameBits(Vec2 a, Vec2 b) {
    return std::signbit(a.x) == std::signbit(b.x) && std::signbit(a.y) == std::signbit(b.y) &&
           a.x == b.x && a.y == b.y;
}

py::tuple pair(Vec2 v) {
    return py::make_tuple(v.x, v.y);
}

} // namespace

void bindArrays(py::class_<PySimulator>& cls) {
    cls.def_property(
        "positions",
        [](const PySimulator& s) {
            requireIdle(s.busy, "positions");
            return toArray(s.sim.positions());
        },
        [](PySimulator& s, py::object value) {
            requireIdle(s.busy, "positions");
            const std::vector<Vec2> rows = agentRows(s, value, "positions");
            const std::span<const Vec2> now = s.sim.positions();
            for (std::size_t i = 0; i < rows.size(); ++i)
                if (!sameBits(rows[i], now[i])) {
                    s.sim.setPosition(s.sim.agentIdAt(i), rows[i]);
                    s.stateChanged();
                }
        },
        R"(The agents' positions (world units): a new float64 array of shape (n, 2), row i
for agent i. Assigning an array-like of that shape moves every agent at once (rows
equal to the current ones are left alone); ValueError for another shape or a NaN or
infinite value (nothing is changed then), TypeError for something that is not numbers.)");
    cls.def_property(
        "velocities",
        [](const PySimulator& s) {
            requireIdle(s.busy, "velocities");
            return toArray(s.sim.velocities());
        },
        [](PySimulator& s, py::object value) {
            requireIdle(s.busy, "velocities");
            const std::vector<Vec2> rows = agentRows(s, value, "velocities");
            const std::span<const Vec2> now = s.sim.velocities();
            for (std::size_t i = 0; i < rows.size(); ++i)
                if (!sameBits(rows[i], now[i])) {
                    s.sim.setVelocity(s.sim.agentIdAt(i), rows[i]);
                    s.stateChanged();
                }
        },
        R"(The agents' velocities (units/s) as a new (n, 2) float64 array. Assigning sets
them all (as for positions); static agents keep velocity 0.)");
    cls.def_property(
        "pref_velocities",
        [](const PySimulator& s) {
            requireIdle(s.busy, "pref_velocities");
            const std::size_t n = s.sim.agentCount();
            py::array_t<double> a({static_cast<py::ssize_t>(n), py::ssize_t{2}});
            double* out = a.mutable_data();
            for (std::size_t i = 0; i < n; ++i) {
                const Vec2 v = s.sim.prefVelocityAt(i);
                out[2 * i] = v.x;
                out[2 * i + 1] = v.y;
            }
            return a;
        },
        [](PySimulator& s, py::object value) {
            requireIdle(s.busy, "pref_velocities");
            const std::vector<Vec2> rows = agentRows(s, value, "pref_velocities");
            for (std::size_t i = 0; i < rows.size(); ++i) {
                const AgentId id = s.sim.agentIdAt(i);
                if (!s.sim.hasGoalAt(i) && s.sim.waypointsAt(i).empty()) {
                    // Already a constant preferred velocity: only it changes (the step's
                    // candidate lists stay); unchanged ones are left alone.
                    if (!sameBits(s.sim.prefVelocityAt(i), rows[i]))
                        s.sim.setPrefVelocity(id, rows[i]);
                    continue;
                }
                AgentDef def = s.sim.agent(id);
                def.hasGoal = false;
                def.waypoints.clear();
                def.routeProgress = 0;
                def.prefVelocity = rows[i];
                s.sim.setAgent(id, def);
                s.configurationChanged(); // (the agent's goal and route are gone)
            }
        },
        R"(The preferred velocities (units/s) the next step will use, as a new (n, 2) float64
array (toward the goal for agents that have one). Assigning sets a constant preferred
velocity for every agent, as RVO2 programs do, and so drops the agents' goals and routes.)");

    cls.def(
        "at_goal",
        [](const PySimulator& s) {
            requireIdle(s.busy, "at_goal");
            const std::size_t n = s.sim.agentCount();
            py::array_t<bool> a(static_cast<py::ssize_t>(n));
            bool* out = a.mutable_data();
            for (std::size_t i = 0; i < n; ++i)
                out[i] = s.sim.atGoalAt(i);
            return a;
        },
        "Per agent (a bool array of shape (n,)), whether it has a goal, has passed its "
        "waypoints and is within its goal radius of the goal.");

    cls.def(
        "agent",
        [](const PySimulator& s, py::object index) {
            requireIdle(s.busy, "agent");
            const std::size_t i = s.agentIndex(index);
            const AgentDef def = s.sim.agent(s.sim.agentIdAt(i));
            py::dict d;
            d["position"] = pair(def.position);
            d["velocity"] = pair(def.velocity);
            d["pref_velocity"] = pair(s.sim.prefVelocityAt(i));
            d["goal"] = def.hasGoal ? py::object(pair(def.goal)) : py::none();
            py::list waypoints;
            for (const Vec2& w : def.waypoints)
                waypoints.append(pair(w));
            d["waypoints"] = std::move(waypoints);
            d["route_progress"] = def.routeProgress;
            d["static"] = def.isStatic;
            d["at_goal"] = s.sim.atGoalAt(i);
            py::dict params;
            for (const ParamRow& row : parameterTable(ParamScope::Agent))
                params[py::str(keywordOf(row))] = paramValue(row, s.sim.params(), def.params);
            d["params"] = std::move(params);
            return d;
        },
        py::arg("agent"),
        R"(One agent as a dict: position, velocity, pref_velocity (what the next step uses),
goal ((x, y) or None), waypoints, route_progress (waypoints reached), static, at_goal and
params (its parameters by keyword).)");

    cls.def(
        "add_agent",
        [](PySimulator& s, py::object position, py::object velocity, py::object goal,
           py::object prefVelocity, py::object waypoints, py::object isStatic,
           const py::kwargs& kwargs) {
            requireIdle(s.busy, "add_agent");
            AgentDef def;
            def.position = toVec2(position, "position");
            if (!velocity.is_none()) def.velocity = toVec2(velocity, "velocity");
            if (!goal.is_none()) {
                def.hasGoal = true;
                def.goal = toVec2(goal, "goal");
            }
            if (!prefVelocity.is_none()) def.prefVelocity = toVec2(prefVelocity, "pref_velocity");
            if (!waypoints.is_none()) def.waypoints = toPoints(waypoints, "waypoints");
            if (!def.waypoints.empty() && !def.hasGoal)
                throw py::value_error("add_agent: waypoints need a goal (the agent visits them "
                                      "on its way to it)");
            if (!PyBool_Check(isStatic.ptr()))
                throw py::type_error("static must be True or False, not " + typeName(isStatic));
            def.isStatic = isStatic.ptr() == Py_True;
            def.params = s.info->agentDefaults;
            SimulationParams unused;
            for (const auto& [key, value] : kwargs) {
                const std::string k = py::str(key).cast<std::string>();
                const ParamRow* found = nullptr;
                std::vector<std::string> valid;
                for (const ParamRow& row : parameterTable(ParamScope::Agent)) {
                    if (keywordOf(row) == k) found = &row;
                    valid.push_back(keywordOf(row));
                }
                if (!found) unknownKeyword("add_agent", k, valid);
                if (!value.is_none()) setParam(*found, value, unused, def.params);
            }
            s.sim.addAgent(def);
            s.configurationChanged();
            return s.sim.agentCount() - 1;
        },
        py::arg("position"), py::kw_only(), py::arg("velocity") = py::none(),
        py::arg("goal") = py::none(), py::arg("pref_velocity") = py::none(),
        py::arg("waypoints") = py::none(), py::arg("static") = false,
        R"(Adds an agent at ``position`` (x, y) and returns its index.

``velocity``: initial velocity (default (0, 0)). ``goal``: the point it walks to (its
preferred velocity then points there at pref_speed, recomputed every step);
without a goal it keeps the constant ``pref_velocity`` (default (0, 0)). ``waypoints``:
points visited in order before the goal. ``static``: immovable scenery. Any agent
parameter by keyword (``radius``, ``max_speed``, ``pref_speed``, ``neighbor_dist``,
``max_neighbors``, ``time_horizon``, ``time_horizon_obst``, ``goal_radius``,
``waypoint_radius``, ``avoidance_weight``) overrides the simulator's agent defaults; None keeps the default.
ValueError for a value the core refuses (NaN, radius <= 0, ...).)");

    cls.def(
        "add_obstacle",
        [](PySimulator& s, py::object vertices) {
            requireIdle(s.busy, "add_obstacle");
            const std::vector<Vec2> points = toPoints(vertices, "vertices");
            s.sim.addObstacle(points);
            s.configurationChanged();
            return s.sim.obstacleCount() - 1;
        },
        py::arg("vertices"),
        R"(Adds an obstacle polygon given as a sequence of vertices (x, y), counter-clockwise
(agents stay outside; two vertices make a thin wall), and returns its index. ValueError
for a polygon the core refuses: fewer than two vertices, a repeated vertex, all
vertices collinear, crossing edges or clockwise order (reverse it).)");

    cls.def(
        "obstacles",
        [](const PySimulator& s) {
            requireIdle(s.busy, "obstacles");
            py::list out;
            for (std::size_t k = 0; k < s.sim.obstacleCount(); ++k)
                out.append(toArray(s.sim.obstacleVertices(s.sim.obstacleIdAt(k))));
            return out;
        },
        "The obstacles' vertices: one new (k, 2) float64 array per polygon, in order.");
}

} // namespace orca::python
