#pragma once
// The Python module orca._orca (docs/python.md): shared pieces of its bindings — argument
// conversions that turn anything a Python program passes into a Python exception rather than
// undefined behaviour, the JSON → Python conversion, the guard against a second thread using
// a simulator while a step runs without the GIL, and the functions that add each class.

#include <cstddef>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <pybind11/pybind11.h>

#include "orca/geometry.hpp"

namespace orca::python {

namespace py = pybind11;

// ---- Arguments --------------------------------------------------------------------------------
// Every conversion names the argument (`what`) in its error. A value of the wrong type raises
// TypeError, a number out of range ValueError, an index out of range IndexError.

/// A real number: a float, an int or anything with __float__ (NumPy scalars); not a string,
/// not complex. TypeError otherwise; ValueError for an int too large for a double.
[[nodiscard]] double toDouble(py::handle value, const char* what);
/// toDouble for an API that keeps floats (RVO2's): ValueError for a finite value beyond float's
/// range (about 3.4e38) instead of rounding it to infinity. NaN and infinity pass (the callee
/// refuses them with its own message).
[[nodiscard]] float toFloat(py::handle value, const char* what);
/// The same check for a double already converted.
[[nodiscard]] float narrowToFloat(double value, const char* what);
/// A point or vector: a sequence of exactly two real numbers (tuple, list, NumPy array).
/// TypeError for anything else, ValueError for another length.
[[nodiscard]] Vec2 toVec2(py::handle value, const char* what);
/// A list of points (a polygon, waypoints): a sequence of toVec2 values.
[[nodiscard]] std::vector<Vec2> toPoints(py::handle value, const char* what);
/// An index (an int or anything with __index__; not a float, not None): IndexError when
/// negative or beyond std::size_t (an index past the end is the callee's IndexError).
[[nodiscard]] std::size_t toIndex(py::handle value, const char* what);
/// A count such as maxNeighbors: a non-negative int (ValueError when negative); values beyond
/// std::size_t become its largest value ("all").
[[nodiscard]] std::size_t toCount(py::handle value, const char* what);
/// "NAME" of the value's type, for messages.
[[nodiscard]] std::string typeName(py::handle value);

// ---- Results ----------------------------------------------------------------------------------

/// The Python value of a JSON value, as json.loads(j.dump()) would give it: objects become
/// dicts (keys in order), arrays lists, non-finite numbers None (JSON has no NaN).
[[nodiscard]] py::object toPython(const nlohmann::ordered_json& j);

// ---- Threads ----------------------------------------------------------------------------------

/// Marks a simulator as busy while a call runs without the GIL (a step), so that another
/// Python thread calling into it meanwhile gets RuntimeError instead of a data race. Every
/// access happens with the GIL held: constructed before the GIL is released and destroyed after
/// it is taken back.
class BusyGuard {
  public:
    /// RuntimeError naming `what` when `busy` is already set.
    BusyGuard(bool& busy, const char* what);
    ~BusyGuard() { m_busy = false; }
    BusyGuard(const BusyGuard&) = delete;
    BusyGuard& operator=(const BusyGuard&) = delete;

  private:
    bool& m_busy;
};
/// RuntimeError when `busy` (a call of another thread is running on the simulator).
void requireIdle(bool busy, const char* what);

// ---- The module's parts -------------------------------------------------------------------------

/// orca.rvo2.PyRVOSimulator (rvo2_binding.cpp).
void bindRvo2(py::module_& m);
/// orca.Simulator and orca.State (simulator_binding.cpp, simulator_arrays.cpp,
/// simulator_scene.cpp).
void bindSimulator(py::module_& m);

} // namespace orca::python
