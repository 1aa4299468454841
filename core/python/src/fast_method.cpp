// Fast-call methods (fast_method.hpp): argument parsing, signatures, exception translation.
#include <string>

#include "fast_method.hpp"

namespace orca::python {

void setPythonError() {
    // pybind11's dispatcher does exactly this in its catch (...) (pybind11.h, 2.10).
    if (py::detail::apply_exception_translators(
            py::detail::get_local_internals().registered_exception_translators))
        return;
    if (py::detail::apply_exception_translators(
            py::detail::get_internals().registered_exception_translators))
        return;
    PyErr_SetString(PyExc_SystemError, "Exception escaped from default exception translator!");
}

void parseFastArguments(const char* function, const FastArg* spec, std::size_t n,
                        PyObject* const* argv, Py_ssize_t nargs, PyObject* kwnames,
                        py::handle* out) {
    if (nargs < 0 || static_cast<std::size_t>(nargs) > n)
        throw py::type_error(std::string(function) + "() takes " + std::to_string(n) +
                             " arguments (" + std::to_string(nargs) + " given)");
    for (Py_ssize_t i = 0; i < nargs; ++i)
        out[i] = argv[i];
    if (kwnames != nullptr) {
        const Py_ssize_t nkw = PyTuple_GET_SIZE(kwnames);
        for (Py_ssize_t k = 0; k < nkw; ++k) {
            PyObject* key = PyTuple_GET_ITEM(kwnames, k);
            std::size_t found = n;
            for (std::size_t i = 0; i < n; ++i)
                if (PyUnicode_CompareWithASCIIString(key, spec[i].name) == 0) found = i;
            const std::string keyName = py::str(key).cast<std::string>();
            if (found == n)
                throw py::type_error(std::string(function) +
                                     "() got an unexpected keyword argument '" + keyName + "'");
            if (out[found])
                throw py::type_error(std::string(function) +
                                     "() got multiple values for argument '" + keyName + "'");
            out[found] = argv[nargs + k];
        }
    }
    for (std::size_t i = 0; i < n; ++i) {
        if (out[i]) continue;
        if (spec[i].defaultValue == nullptr)
            throw py::type_error(std::string(function) + "() missing required argument '" +
                                 spec[i].name + "'");
        out[i] = spec[i].defaultValue;
    }
}

std::string fastDoc(const char* name, const FastArg* spec, std::size_t n, const char* doc) {
    // Appended piece by piece (GCC 12 warns falsely, -Wrestrict, about "=" + std::string).
    std::string s = name;
    s += "($self";
    for (std::size_t i = 0; i < n; ++i) {
        s += ", ";
        s += spec[i].name;
        if (spec[i].defaultValue != nullptr) {
            s += '=';
            s += py::repr(spec[i].defaultValue).cast<std::string>();
        }
    }
    s += ")\n--\n\n";
    s += doc;
    return s;
}

} // namespace orca::python
