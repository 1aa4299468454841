// Argument and result conversions of the Python module (bindings.hpp).
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "bindings.hpp"

namespace orca::python {

namespace {

[[noreturn]] void typeError(const char* what, const std::string& expected, py::handle value) {
    throw py::type_error(std::string(what) + " must be " + expected + ", not " + typeName(value));
}

/// A sequence we read as a point or a list of points: not a string or bytes (which are
/// sequences of characters).
bool isSequence(PyObject* o) {
    return PySequence_Check(o) && !PyUnicode_Check(o) && !PyBytes_Check(o) && !PyByteArray_Check(o);
}

} // namespace

std::string typeName(py::handle value) {
    return Py_TYPE(value.ptr())->tp_name;
}

double toDouble(py::handle value, const char* what) {
    PyObject* o = value.ptr();
    if (PyFloat_CheckExact(o)) return PyFloat_AS_DOUBLE(o);
    if (PyLong_Check(o)) {
        const double d = PyLong_AsDouble(o);
        if (d == -1.0 && PyErr_Occurred()) {
            PyErr_Clear(); // OverflowError: an int beyond a double's range
            throw py::value_error(std::string(what) + " is too large (" +
                                  py::str(value).cast<std::string>() + ")");
        }
        return d;
    }
    // Complex numbers have no __float__ in Python 3; strings and None have none either.
    if (o == Py_None || PyUnicode_Check(o) || PyBytes_Check(o) || PyComplex_Check(o) ||
        !PyNumber_Check(o))
        typeError(what, "a real number", value);
    const double d = PyFloat_AsDouble(o); // __float__, then __index__
    if (d == -1.0 && PyErr_Occurred()) {
        if (PyErr_ExceptionMatches(PyExc_OverflowError)) {
            PyErr_Clear();
            throw py::value_error(std::string(what) + " is too large");
        }
        if (PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear();
            typeError(what, "a real number", value);
        }
        throw py::error_already_set();
    }
    return d;
}

float toFloat(py::handle value, const char* what) {
    return narrowToFloat(toDouble(value, what), what);
}

float narrowToFloat(double d, const char* what) {
    if (std::isfinite(d) && std::fabs(d) > static_cast<double>(FLT_MAX))
        throw py::value_error(std::string(what) + " = " +
                              py::str(py::float_(d)).cast<std::string>() +
                              " is beyond float's range (RVO2 keeps floats; about 3.4e38)");
    return static_cast<float>(d);
}

Vec2 toVec2(py::handle value, const char* what) {
    PyObject* o = value.ptr();
    if (PyTuple_CheckExact(o) && PyTuple_GET_SIZE(o) == 2) // the common case, fast
        return {toDouble(PyTuple_GET_ITEM(o, 0), what), toDouble(PyTuple_GET_ITEM(o, 1), what)};
    if (!isSequence(o)) typeError(what, "a pair of numbers (x, y)", value);
    const Py_ssize_t n = PySequence_Size(o);
    if (n < 0) throw py::error_already_set();
    if (n != 2)
        throw py::value_error(std::string(what) + " must have 2 coordinates, not " +
                              std::to_string(n));
    const py::object x = py::reinterpret_steal<py::object>(PySequence_GetItem(o, 0));
    if (!x) throw py::error_already_set();
    const py::object y = py::reinterpret_steal<py::object>(PySequence_GetItem(o, 1));
    if (!y) throw py::error_already_set();
    return {toDouble(x, what), toDouble(y, what)};
}

std::vector<Vec2> toPoints(py::handle value, const char* what) {
    PyObject* o = value.ptr();
    if (!isSequence(o)) typeError(what, "a sequence of points (x, y)", value);
    const Py_ssize_t n = PySequence_Size(o);
    if (n < 0) throw py::error_already_set();
    std::vector<Vec2> points;
    points.reserve(static_cast<std::size_t>(n));
    for (Py_ssize_t i = 0; i < n; ++i) {
        const py::object item = py::reinterpret_steal<py::object>(PySequence_GetItem(o, i));
        if (!item) throw py::error_already_set();
        const std::string name = std::string(what) + "[" + std::to_string(i) + "]";
        points.push_back(toVec2(item, name.c_str()));
    }
    return points;
}

std::size_t toIndex(py::handle value, const char* what) {
    PyObject* o = value.ptr();
    if (PyLong_CheckExact(o)) { // the common case, fast
        int overflow = 0;
        const long long v = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow == 0 && v >= 0) return static_cast<std::size_t>(v);
    }
    if (PyFloat_Check(o) || !PyIndex_Check(o)) typeError(what, "an integer", value);
    const py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(o));
    if (!index) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(index.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow != 0 || v < 0)
        throw py::index_error(std::string(what) + " " + py::str(index).cast<std::string>() +
                              " is out of range" + (overflow < 0 || v < 0 ? " (negative)" : ""));
    return static_cast<std::size_t>(v);
}

std::size_t toCount(py::handle value, const char* what) {
    PyObject* o = value.ptr();
    if (PyFloat_Check(o) || !PyIndex_Check(o)) typeError(what, "an integer", value);
    const py::object count = py::reinterpret_steal<py::object>(PyNumber_Index(o));
    if (!count) throw py::error_already_set();
    int overflow = 0;
    const long long v = PyLong_AsLongLongAndOverflow(count.ptr(), &overflow);
    if (v == -1 && PyErr_Occurred()) throw py::error_already_set();
    if (overflow < 0 || (overflow == 0 && v < 0))
        throw py::value_error(std::string(what) + " must be >= 0 (" +
                              py::str(count).cast<std::string>() + ")");
    if (overflow > 0) return std::numeric_limits<std::size_t>::max();
    return static_cast<std::size_t>(v);
}

py::object toPython(const nlohmann::ordered_json& j) {
    using Type = nlohmann::ordered_json::value_t;
    switch (j.type()) {
    case Type::null:
        return py::none();
    case Type::boolean:
        return py::bool_(j.get<bool>());
    case Type::number_integer:
        return py::int_(j.get<std::int64_t>());
    case Type::number_unsigned:
        return py::int_(j.get<std::uint64_t>());
    case Type::number_float: {
        const double d = j.get<double>();
        if (!std::isfinite(d)) return py::none(); // as dump() writes it
        return py::float_(d);
    }
    case Type::string:
        return py::str(j.get_ref<const std::string&>());
    case Type::array: {
        py::list list(j.size());
        std::size_t i = 0;
        for (const auto& item : j)
            list[i++] = toPython(item);
        return list;
    }
    case Type::object: {
        py::dict dict;
        for (const auto& [key, item] : j.items())
            dict[py::str(key)] = toPython(item);
        return dict;
    }
    case Type::binary:
    case Type::discarded:
        break;
    }
    return py::none();
}

// ---- Threads ----------------------------------------------------------------------------------

void requireIdle(bool busy, const char* what) {
    if (busy)
        throw std::runtime_error(std::string(what) +
                                 ": the simulator is busy in another thread (a step is running); "
                                 "one thread at a time may use a simulator");
}

BusyGuard::BusyGuard(bool& busy, const char* what) : m_busy(busy) {
    requireIdle(busy, what);
    m_busy = true;
}

} // namespace orca::python
