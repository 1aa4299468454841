# One linter: the app's Linter lists what `orca validate --lint` lists for a file as written.
# Runs the CLI on SCENE and counts its issue lines, then the app (a few frames, Linter closed)
# with --dump-state, and compares lint.issues with that count; the clockwise obstacle must be
# among them, kept as written (editor.skippedObstacles) rather than repaired.
#   -D CLI=orca -D APP=orca-sandbox -D SCENE=file.json -D WORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
execute_process(COMMAND "${CLI}" validate --lint "${SCENE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
# (Messages may hold ";", CMake's list separator: count the line starts only.)
string(REPLACE ";" "," text "${out}")
string(REGEX MATCHALL ": (error|warning|info): at " lines "${text}")
list(LENGTH lines cli_count)
if(NOT out MATCHES "\\[obstacle-clockwise\\] \\(fix: Reverse winding\\)")
    message(FATAL_ERROR "orca validate --lint did not report the clockwise obstacle:\n${out}${err}")
endif()
file(WRITE "${WORK}/settings.json" "{\"format\": \"orca-sandbox-settings\", \"version\": 1}\n")
set(dump "${WORK}/state.json")
file(REMOVE "${dump}")
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${SCENE}" --frames 3
            --size 800x600 --settings "${WORK}/settings.json" --dump-state "${dump}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE app_out ERROR_VARIABLE app_err TIMEOUT 150)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}")
    message(FATAL_ERROR "orca-sandbox failed (${rc}):\n${app_out}\n${app_err}")
endif()
file(READ "${dump}" state)
string(JSON app_count GET "${state}" lint issues)
string(JSON skipped LENGTH "${state}" editor skippedObstacles)
message(STATUS "orca validate --lint: ${cli_count} issues; the app's Linter: ${app_count}; "
               "obstacles left out: ${skipped}")
if(NOT app_count EQUAL cli_count)
    message(FATAL_ERROR "the app's Linter has ${app_count} issues, orca validate --lint "
                        "${cli_count}:\n${out}")
endif()
if(NOT skipped EQUAL 1)
    message(FATAL_ERROR "the clockwise obstacle should be kept as written and left out of the "
                        "simulation (editor.skippedObstacles has ${skipped})")
endif()
