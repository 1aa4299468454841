# Compare in the app and on the command line agree: `orca-sandbox SCENE --steps N
# --branch-at A --branch CHANGE --dump-state` runs a branch whose state after N steps has the
# stateHash `orca compare SCENE --at A --steps N-A --set CHANGE` prints for its branch, and the
# original keeps `orca run --steps N`'s (cmake -P, under Xvfb).
#   -D APP=orca-sandbox -D ORCA=orca -D SCENE=... -D STEPS=N -D AT=A -D CHANGE=NAME=VALUE -D WORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(dump "${WORK}/state.json")
set(shot "${WORK}/compare.png")
file(REMOVE "${dump}" "${shot}")
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${SCENE}"
            --steps ${STEPS} --branch-at ${AT} --branch "${CHANGE}" --panels compare
            --screenshot "${shot}" --dump-state "${dump}" --size 800x600
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}")
    message(FATAL_ERROR "orca-sandbox failed (${rc}):\n${out}\n${err}")
endif()
math(EXPR after "${STEPS} - ${AT}")
execute_process(COMMAND "${ORCA}" compare "${SCENE}" --at ${AT} --steps ${after} --set "${CHANGE}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE cli ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "orca compare failed (${rc}): ${err}")
endif()
file(READ "${dump}" state)
string(JSON app_branch GET "${state}" compare branchStateHash)
string(JSON app_from GET "${state}" compare from)
string(JSON app_branch_step GET "${state}" compare branchStep)
string(JSON app_hash GET "${state}" stateHash)
string(JSON cli_branch GET "${cli}" branch stateHash)
string(JSON cli_base GET "${cli}" base stateHash)
message(STATUS "app: original ${app_hash}, branch ${app_branch} from ${app_from}; "
               "orca compare: base ${cli_base}, branch ${cli_branch}")
if(NOT app_from EQUAL AT OR NOT app_branch_step EQUAL STEPS)
    message(FATAL_ERROR "branch from ${app_from} at ${app_branch_step}, want ${AT} and ${STEPS}")
endif()
if(NOT app_branch STREQUAL cli_branch OR NOT app_hash STREQUAL cli_base)
    message(FATAL_ERROR "the app's runs differ from orca compare's")
endif()
if(app_branch STREQUAL app_hash)
    message(FATAL_ERROR "the branch did not change anything")
endif()
