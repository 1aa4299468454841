# Runs orca-sandbox under Xvfb for one GUI test (cmake -P), then checks the outcome.
#
#   -D APP=...        orca-sandbox
#   -D ARGS=a|b|c     its arguments ('|'-separated)
#   -D OUT=...        expected screenshot (removed first; checked with CHECK when given)
#   -D CHECK=...      orca_png_check
#   -D CHECK_ARGS=..  its arguments after the file ('|'-separated)
#   -D EXPECT_FAIL=1  the app must exit non-zero and print every EXPECT_STDERR item on stderr
#   -D EXPECT_STDERR=a|b
#
# SDL_VIDEODRIVER=x11 makes a missing X server an error (SDL would otherwise fall back to its
# offscreen driver and the test would pass without testing the real path).
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)

string(REPLACE "|" ";" args "${ARGS}")
string(REPLACE "|" ";" check_args "${CHECK_ARGS}")
string(REPLACE "|" ";" expect_stderr "${EXPECT_STDERR}")

if(OUT)
    file(REMOVE "${OUT}")
endif()

execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" ${args}
    RESULT_VARIABLE rc
    OUTPUT_VARIABLE out
    ERROR_VARIABLE err
    TIMEOUT 150)
message(STATUS "orca-sandbox exit: ${rc}\nstdout:\n${out}\nstderr:\n${err}")

if(EXPECT_FAIL)
    if(rc EQUAL 0)
        message(FATAL_ERROR "orca-sandbox succeeded but should have failed")
    endif()
    if(NOT rc MATCHES "^[0-9]+$")
        message(FATAL_ERROR "orca-sandbox did not exit normally: ${rc}")
    endif()
    foreach(text IN LISTS expect_stderr)
        string(FIND "${err}" "${text}" pos)
        if(pos EQUAL -1)
            message(FATAL_ERROR "stderr lacks \"${text}\"")
        endif()
    endforeach()
    if(OUT AND EXISTS "${OUT}")
        message(FATAL_ERROR "a failed run must not leave ${OUT}")
    endif()
    return()
endif()

if(NOT rc EQUAL 0)
    message(FATAL_ERROR "orca-sandbox failed (exit ${rc})")
endif()
if(NOT EXISTS "${OUT}")
    message(FATAL_ERROR "no screenshot written at ${OUT}")
endif()
if(CHECK)
    execute_process(COMMAND "${CHECK}" "${OUT}" ${check_args} RESULT_VARIABLE crc)
    if(NOT crc EQUAL 0)
        message(FATAL_ERROR "screenshot check failed (exit ${crc}); image kept at ${OUT}")
    endif()
endif()
