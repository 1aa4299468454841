# Runs orca-sandbox once under Xvfb with ARGS plus --dump-state, then checks values of the dump
# (cmake -P). Each check is "key/path|OP|value": OP is one of EQUAL, LESS, GREATER, LESS_EQUAL,
# GREATER_EQUAL (numbers) or STREQUAL (text); path parts are object keys or array indices.
#   -D APP=orca-sandbox -D WORK=dir -D "ARGS=a;b;..." -D "CHECKS=c1;c2;..."
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(dump "${WORK}/state.json")
file(REMOVE "${dump}")
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" ${ARGS}
            --dump-state "${dump}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}")
    message(FATAL_ERROR "orca-sandbox failed (${rc}):\n${out}\n${err}")
endif()
file(READ "${dump}" state)
set(failed FALSE)
foreach(check IN LISTS CHECKS)
    string(REPLACE "|" ";" parts "${check}")
    list(GET parts 0 path)
    list(GET parts 1 op)
    list(GET parts 2 want)
    string(REPLACE "/" ";" keys "${path}")
    string(JSON got ERROR_VARIABLE error GET "${state}" ${keys})
    if(error)
        message(SEND_ERROR "${path}: not in the dump (${error})")
        set(failed TRUE)
        continue()
    endif()
    if(NOT got ${op} want)
        message(SEND_ERROR "${path} = ${got}, want ${op} ${want}")
        set(failed TRUE)
    else()
        message(STATUS "${path} = ${got} (${op} ${want})")
    endif()
endforeach()
if(failed)
    message(FATAL_ERROR "dump checks failed (${dump})")
endif()
