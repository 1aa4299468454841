# The Debian package as a user gets it (ctest `package.deb`, cmake -P): cpack -G DEB in the
# build folder, `dpkg -x` into a temporary root, then the unpacked `orca` runs a bundled scene
# from another folder, and (with xvfb-run) the unpacked `orca-sandbox` opens its default scene
# from the package's share folder.
#   -D BUILD_DIR=build -D WORK=dir [-D XVFB_RUN=xvfb-run]
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}/root" "${WORK}/elsewhere")
execute_process(COMMAND cpack -G DEB -B "${WORK}/out" --config "${BUILD_DIR}/CPackConfig.cmake"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "cpack failed (${rc}):\n${out}\n${err}")
endif()
file(GLOB debs "${WORK}/out/orca-sandbox_*.deb")
list(LENGTH debs count)
if(NOT count EQUAL 1)
    message(FATAL_ERROR "expected one orca-sandbox_*.deb in ${WORK}/out, found: ${debs}")
endif()
execute_process(COMMAND dpkg-deb --field "${debs}" Package Depends
                RESULT_VARIABLE rc OUTPUT_VARIABLE fields)
if(NOT rc EQUAL 0 OR NOT fields MATCHES "Package: orca-sandbox" OR NOT fields MATCHES "libsdl2"
   OR NOT fields MATCHES "libpugixml1v5")
    message(FATAL_ERROR "package fields:\n${fields}")
endif()
execute_process(COMMAND dpkg -x "${debs}" "${WORK}/root" RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "dpkg -x failed (${rc}): ${err}")
endif()

# What the package must hold.
set(root "${WORK}/root/usr")
foreach(f bin/orca bin/orca-sandbox share/orca-sandbox/scenes/head_on.json
          share/orca-sandbox/lessons share/orca-sandbox/assets/scene.schema.json
          include/orca/simulator.hpp include/orca/rvo2/RVO.h)
    if(NOT EXISTS "${root}/${f}")
        message(SEND_ERROR "not in the package: /usr/${f}")
    endif()
endforeach()
file(GLOB_RECURSE configs "${root}/*/orcaConfig.cmake")
if(NOT configs)
    message(SEND_ERROR "not in the package: the CMake package orcaConfig.cmake")
endif()

# The unpacked CLI runs a bundled scene from another folder.
execute_process(COMMAND "${root}/bin/orca" run "${root}/share/orca-sandbox/scenes/head_on.json"
                        --steps 20
                WORKING_DIRECTORY "${WORK}/elsewhere"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"stateHash\"")
    message(FATAL_ERROR "the unpacked orca failed (${rc}):\n${out}\n${err}")
endif()
# ... and imports (pugixml, a shared library the package depends on): a Menge scene alone.
file(WRITE "${WORK}/elsewhere/menge.xml"
     "<Experiment><AgentProfile name=\"p\"/><AgentGroup><ProfileSelector type=\"const\" "
     "name=\"p\"/><Generator type=\"explicit\"><Agent p_x=\"0\" p_y=\"0\"/></Generator>"
     "</AgentGroup></Experiment>")
execute_process(COMMAND "${root}/bin/orca" import menge.xml -o menge.json
                WORKING_DIRECTORY "${WORK}/elsewhere"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT out MATCHES "\"agents\": 1")
    message(FATAL_ERROR "the unpacked orca import failed (${rc}):\n${out}\n${err}")
endif()

# The Python module, when the build made it: imported from the package, it runs a scene.
set(pydir "${root}/lib/python3/dist-packages")
if(EXISTS "${pydir}/orca/__init__.py")
    execute_process(
        COMMAND env PYTHONPATH=${pydir} /usr/bin/python3 -c
                "import orca; s = orca.Simulator.from_scene('${root}/share/orca-sandbox/scenes/head_on.json'); s.step(5); print(s.positions.shape)"
        WORKING_DIRECTORY "${WORK}/elsewhere"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0 OR NOT out MATCHES "\\(2, 2\\)")
        message(FATAL_ERROR "the unpacked Python module failed (${rc}):\n${out}\n${err}")
    endif()
endif()

# The unpacked app finds its scenes, lessons and fonts in the package.
if(XVFB_RUN)
    include(${CMAKE_CURRENT_LIST_DIR}/../gui/xvfb.cmake)
    orca_xvfb(xvfb_run PROGRAM ${XVFB_RUN})
    set(dump "${WORK}/state.json")
    execute_process(
        COMMAND ${xvfb_run} env SDL_VIDEODRIVER=x11
                HOME=${WORK}/elsewhere "${root}/bin/orca-sandbox" --frames 3 --dump-state "${dump}"
        WORKING_DIRECTORY "${WORK}/elsewhere"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}")
        message(FATAL_ERROR "the unpacked orca-sandbox failed (${rc}):\n${out}\n${err}")
    endif()
    file(READ "${dump}" state)
    string(JSON scene GET "${state}" sceneFile)
    if(NOT scene MATCHES "^${WORK}/root/usr/share/orca-sandbox/scenes/")
        message(FATAL_ERROR "the unpacked orca-sandbox opened ${scene}, not a scene of the package")
    endif()
endif()
