// orca._orca, the extension behind the Python package orca (docs/python.md): the exceptions,
// orca.Simulator / orca.State (our API) and orca.rvo2.PyRVOSimulator (Python-RVO2's).
//
// C++ exceptions become Python ones carrying the C++ message: std::out_of_range → IndexError,
// std::invalid_argument (orca::InvalidArgument) → ValueError (pybind11's own translations),
// orca::scene::SceneError → orca.SceneError (a ValueError with the file and the JSON path),
// orca::NonFiniteState → orca.NonFiniteStateError (a RuntimeError), anything else →
// RuntimeError.
#include <exception>

#include "bindings.hpp"
#include "orca/scene/scene.hpp"
#include "orca/simulator.hpp"

namespace {

const char* const kModuleDoc =
    R"(ORCA Sandbox's core in Python (the extension behind the package orca).

Use the package: ``import orca`` (orca.Simulator, orca.State, orca.SceneError) and
``import orca.rvo2`` (Python-RVO2's PyRVOSimulator). docs/python.md.
)";

const char* const kSceneErrorDoc = R"(A scene file that cannot be read, parsed or written.

A ValueError whose message names the file and where in it:
"FILE:LINE:COLUMN: error: MESSAGE" for a syntax error, "FILE: error: at PATH: MESSAGE"
otherwise. Attributes: ``file``, ``json_path`` (e.g. "agents[12].radius", "" when
none), ``line`` and ``column`` (1-based for syntax errors, else 0), ``message`` (the
message alone).
)";

} // namespace

PYBIND11_MODULE(_orca, m) {
    namespace py = pybind11;
    m.doc() = kModuleDoc;
    m.attr("__version__") = ORCA_VERSION;

    // The exception types live as long as the module's interpreter: their references are
    // kept (released from the handles) so that no destructor runs after Python is gone.
    static PyObject* sceneError =
        py::exception<orca::scene::SceneError>(m, "SceneError", PyExc_ValueError).release().ptr();
    py::setattr(sceneError, "__doc__", py::str(kSceneErrorDoc));
    static PyObject* nonFinite =
        py::exception<orca::NonFiniteState>(m, "NonFiniteStateError", PyExc_RuntimeError)
            .release()
            .ptr();
    py::setattr(nonFinite, "__doc__",
                py::str("A step would have produced a NaN or infinite position or velocity "
                        "(valid input never does); the message names the agent. A RuntimeError."));

    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const orca::scene::SceneError& e) {
            const py::object error = py::reinterpret_borrow<py::object>(sceneError)(e.what());
            error.attr("file") = e.file();
            error.attr("json_path") = e.jsonPath();
            error.attr("line") = e.line();
            error.attr("column") = e.column();
            error.attr("message") = e.message();
            PyErr_SetObject(sceneError, error.ptr());
        } catch (const orca::NonFiniteState& e) {
            PyErr_SetString(nonFinite, e.what());
        }
    });

    orca::python::bindSimulator(m);
    orca::python::bindRvo2(m);
}
