# `orca-sandbox SCENE --steps N --seek S --dump-state` must reach the same state as
# `orca run SCENE --steps S`: the dump's stateHash equals the CLI's, and the timeline block
# says what was recorded (cmake -P, under Xvfb).
#   -D APP=orca-sandbox -D ORCA=orca -D SCENE=... -D STEPS=N -D SEEK=S -D WORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(dump "${WORK}/state.json")
set(shot "${WORK}/seek.png")
file(REMOVE "${dump}" "${shot}")
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${SCENE}"
            --steps ${STEPS} --seek ${SEEK} --select 0 --screenshot "${shot}"
            --dump-state "${dump}" --size 800x600
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}")
    message(FATAL_ERROR "orca-sandbox failed (${rc}):\n${out}\n${err}")
endif()
execute_process(COMMAND "${ORCA}" run "${SCENE}" --steps ${SEEK} --no-metrics
                RESULT_VARIABLE rc OUTPUT_VARIABLE cli ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "orca run failed (${rc}): ${err}")
endif()
file(READ "${dump}" state)
string(JSON app_hash GET "${state}" stateHash)
string(JSON cli_hash GET "${cli}" stateHash)
string(JSON step GET "${state}" step)
string(JSON current GET "${state}" timeline current)
string(JSON first GET "${state}" timeline first)
string(JSON last GET "${state}" timeline last)
string(JSON keyframes GET "${state}" timeline keyframes)
string(JSON bytes GET "${state}" timeline bytes)
message(STATUS "app ${app_hash} at step ${step} (recorded ${first}-${last}, ${keyframes} "
               "keyframes, ${bytes} bytes); orca run --steps ${SEEK}: ${cli_hash}")
if(NOT step EQUAL SEEK OR NOT current EQUAL SEEK)
    message(FATAL_ERROR "the app is at step ${step} (timeline ${current}), want ${SEEK}")
endif()
if(NOT first EQUAL 0 OR NOT last EQUAL STEPS OR keyframes LESS 1 OR bytes LESS 1)
    message(FATAL_ERROR "timeline block: first ${first}, last ${last}, keyframes ${keyframes}")
endif()
# --select 0: the dump carries agent 0's diagnosis at that step.
string(JSON diag_class ERROR_VARIABLE diag_error GET "${state}" diagnosis class)
string(JSON diag_step ERROR_VARIABLE diag_error2 GET "${state}" diagnosis step)
if(diag_error OR diag_error2 OR diag_class STREQUAL "" OR NOT diag_step EQUAL SEEK)
    message(FATAL_ERROR "no diagnosis of agent 0 at step ${SEEK} in the dump")
endif()
message(STATUS "agent 0 at step ${SEEK}: ${diag_class}")
if(NOT app_hash STREQUAL cli_hash)
    message(FATAL_ERROR "stateHash after seeking: ${app_hash}, orca run: ${cli_hash}")
endif()
