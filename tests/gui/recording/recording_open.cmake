# A program records a run, the sandbox opens the recording (cmake -P, label gui): PROGRAM
# writes WORK/run.orcarec; orca-sandbox opens it under Xvfb at frame FRAME, once by --seek
# and once by playing --steps, with agent AGENT selected, and writes a screenshot and its
# state dump; orca_recording_check compares each dump with the recording (positions, the
# explain record, the recorded velocity of the decision) and orca_png_check looks at the
# screenshot.
#   -D APP=orca-sandbox -D CHECK=orca_recording_check -D PNG_CHECK=orca_png_check
#   -D "PROGRAM=cmd;args..." (the recording's path is appended) -D FRAME=k -D AGENT=i
#   -D WORK=dir [-D SHOTS=dir: also copy the screenshots there]
include(${CMAKE_CURRENT_LIST_DIR}/../xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(recording "${WORK}/run.orcarec")
file(REMOVE "${recording}")
execute_process(COMMAND ${PROGRAM} "${recording}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
if(NOT rc EQUAL 0 OR NOT EXISTS "${recording}")
    message(FATAL_ERROR "the recording program failed (${rc}):\n${out}\n${err}")
endif()
message(STATUS "${out}")

foreach(mode IN ITEMS seek steps)
    set(dump "${WORK}/state_${mode}.json")
    set(shot "${WORK}/recording_${mode}.png")
    file(REMOVE "${dump}" "${shot}")
    execute_process(
        COMMAND ${xvfb_run}
                env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${recording}"
                --${mode} ${FRAME} --select ${AGENT} --size 1280x800 --screenshot "${shot}"
                --dump-state "${dump}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}" OR NOT EXISTS "${shot}")
        message(FATAL_ERROR "orca-sandbox --${mode} ${FRAME} failed (${rc}):\n${out}\n${err}")
    endif()
    execute_process(COMMAND "${CHECK}" "${recording}" "${dump}" ${FRAME} ${AGENT}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    message(STATUS "--${mode} ${FRAME}: ${out}${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "the dump does not show the recording (${dump})")
    endif()
    execute_process(COMMAND "${PNG_CHECK}" "${shot}" --size 1280x800 --min-colours 16
                            --min-pixels agents 10
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "screenshot ${shot}: ${out}${err}")
    endif()
    if(SHOTS)
        file(COPY "${shot}" DESTINATION "${SHOTS}")
    endif()
endforeach()
