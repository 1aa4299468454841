#pragma once
// Methods bound as CPython "fast call" methods (METH_FASTCALL | METH_KEYWORDS) rather than
// through pybind11's dispatcher. A per-agent Python loop calls them hundreds of thousands of
// times: pybind11 2.10 spends about 115 ns more per call than Cython's methods (measured:
// getNumAgents() 124 ns against Python-RVO2's 25 ns), which alone would make such a loop
// slower than Python-RVO2's. These methods take their arguments as handles, read `self`'s C++
// object from its pybind11 instance and turn C++ exceptions into Python ones with
// pybind11's registered translators, so they behave like pybind11 methods: same exceptions,
// keyword arguments, a signature for help() and inspect. Both go through pybind11's detail
// API (instance::get_value_and_holder, apply_exception_translators), as of 2.10, the version
// CMake requires (Debian 12's).

#include <array>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

#include "bindings.hpp"

namespace orca::python {

/// One argument of a fast method: its name and its default (null: required). Defaults are
/// immortal objects (None, or objects made once and never freed).
struct FastArg {
    const char* name = nullptr;
    PyObject* defaultValue = nullptr;
};

template <std::size_t N> using FastArgs = std::array<py::handle, N>;

/// Sets the Python error for the C++ exception being handled, as pybind11's dispatcher does:
/// the module-local translators, then the global ones (ours and pybind11's).
void setPythonError();

/// Fills out[0, n) from a vectorcall's positional and keyword arguments (defaults for the
/// missing optional ones). TypeError, as Python words it, for too many positional arguments, an
/// unknown or repeated keyword or a missing required argument.
void parseFastArguments(const char* function, const FastArg* spec, std::size_t n,
                        PyObject* const* argv, Py_ssize_t nargs, PyObject* kwnames,
                        py::handle* out);

/// "name($self, a, b=DEFAULT)\n--\n\n" + doc: CPython reads the first line as the method's
/// signature (__text_signature__).
[[nodiscard]] std::string fastDoc(const char* name, const FastArg* spec, std::size_t n,
                                  const char* doc);

/// The C entry point of one fast method: `Body` is its lambda type (each method has its own, so
/// each gets its own statics).
template <class T, class Body, std::size_t N> struct FastMethod {
    static inline std::optional<Body> body;
    static inline std::array<FastArg, N> spec;
    static inline const char* name = nullptr;

    static PyObject* call(PyObject* self, PyObject* const* argv, Py_ssize_t nargs,
                          PyObject* kwnames) {
        try {
            FastArgs<N> args{};
            if (kwnames == nullptr && nargs == static_cast<Py_ssize_t>(N)) { // the usual call
                for (std::size_t i = 0; i < N; ++i)
                    args[i] = argv[i];
            } else {
                parseFastArguments(name, spec.data(), N, argv, nargs, kwnames, args.data());
            }
            // The method descriptor has checked that self is an instance of the class (or a
            // subclass): its C++ object is the instance's first and only value.
            const py::detail::value_and_holder vh =
                reinterpret_cast<py::detail::instance*>(self)->get_value_and_holder();
            T* object = vh.holder_constructed() ? vh.template value_ptr<T>() : nullptr;
            if (object == nullptr)
                throw py::type_error(std::string(name) +
                                     "(): the object is not initialised (__init__ was not called)");
            return (*body)(*object, args).release().ptr();
        } catch (py::error_already_set& e) {
            e.restore();
            return nullptr;
        } catch (...) {
            setPythonError();
            return nullptr;
        }
    }
};

/// Adds method `name` to `cls`: `body(T& object, const FastArgs<N>& args) -> py::object`
/// (py::none() for nothing).
template <class T, std::size_t N, class Body>
void defFast(py::class_<T>& cls, const char* name, const std::array<FastArg, N>& spec, Body body,
             const char* doc) {
    using Method = FastMethod<T, Body, N>;
    // Each method needs its own Body type (its own lambda), or two would share the statics.
    if (Method::body)
        throw std::logic_error(std::string("defFast: ") + name + " reuses a body type");
    Method::body.emplace(std::move(body));
    Method::spec = spec;
    Method::name = name;
    static const std::string fullDoc = fastDoc(name, spec.data(), N, doc);
    static PyMethodDef def{name,
                           reinterpret_cast<PyCFunction>(reinterpret_cast<void (*)()>(
                               &Method::call)), // the documented cast for METH_FASTCALL
                           METH_FASTCALL | METH_KEYWORDS, fullDoc.c_str()};
    const py::object descriptor = py::reinterpret_steal<py::object>(
        PyDescr_NewMethod(reinterpret_cast<PyTypeObject*>(cls.ptr()), &def));
    if (!descriptor) throw py::error_already_set();
    py::setattr(cls, name, descriptor);
}

} // namespace orca::python
