# The ctest `python.install` (tests/python/CMakeLists.txt): installs the component orca_python
# into a fresh prefix and imports the installed package from there with a clean environment.
# cmake -DORCA_BUILD_DIR=... -DWORK_DIR=... -DPYTHON=... -DINSTALL_DIR=... -P install_test.cmake
foreach(var ORCA_BUILD_DIR WORK_DIR PYTHON INSTALL_DIR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "install_test.cmake: ${var} is not set")
    endif()
endforeach()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
execute_process(COMMAND ${CMAKE_COMMAND} --install ${ORCA_BUILD_DIR} --prefix ${prefix}
                        --component orca_python
                RESULT_VARIABLE code)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "python.install: cmake --install failed (${code})")
endif()
set(package ${prefix}/${INSTALL_DIR}/orca)
foreach(f __init__.py rvo2.py _orca.pyi py.typed)
    if(NOT EXISTS ${package}/${f})
        message(FATAL_ERROR "python.install: ${package}/${f} was not installed")
    endif()
endforeach()
# Run from an empty folder with only the installed folder on the path: the package, its
# extension, its stubs and one step of each simulator come from the prefix.
file(MAKE_DIRECTORY ${WORK_DIR}/run)
set(check [=[
import os, sys, orca, orca.rvo2
expected = os.path.realpath(sys.argv[1])
for m in (orca, orca.rvo2, orca._orca):
    assert os.path.realpath(m.__file__).startswith(expected), (m.__file__, expected)
sim = orca.Simulator()
sim.add_agent((0, 0), goal=(10, 0))
sim.step()
assert sim.positions.tolist() == [[0.25, 0.0]], sim.positions
r = orca.rvo2.PyRVOSimulator(0.25, 15, 10, 10, 10, 1.5, 2)
r.addAgent((0, 0))
r.setAgentPrefVelocity(0, (1, 0))
r.doStep()
assert r.getAgentPosition(0) == (0.25, 0.0)
print("installed orca", orca.__version__, "imports and steps from", expected)
]=])
execute_process(COMMAND ${CMAKE_COMMAND} -E env --unset=PYTHONHOME
                        PYTHONPATH=${prefix}/${INSTALL_DIR} PYTHONDONTWRITEBYTECODE=1
                        ${PYTHON} -c "${check}" ${prefix}
                WORKING_DIRECTORY ${WORK_DIR}/run RESULT_VARIABLE code)
if(NOT code EQUAL 0)
    message(FATAL_ERROR "python.install: the installed package does not import and run (${code})")
endif()
