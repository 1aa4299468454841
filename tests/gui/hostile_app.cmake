# Hostile input to the app's command line and files (issue 25, items 4, 5, 7 and 11), cmake -P:
#   -D APP=orca-sandbox -D ORCA=orca -D SCENES=scenes/ -D WORK=dir -D CASE=...
#
# settings_fifo  --settings naming a FIFO is refused at once (it hung: the reader waited for a
#                writer), exit 2, "not a regular file (FIFO)";
# settings_dir   --settings naming a folder: exit 2, "is a directory" (not a JSON error at 1:1);
# layout_fifo    FIFOs where the window layout (imgui.ini) and the recovery lock live beside the
#                settings: the app starts, ignores them and quits (it hung in ImGui's fopen);
# lesson_args    --lesson '', --lesson 99 and --lesson-page 99 are usage errors: exit 2 (they
#                printed "error:" and ran an empty scene with exit 0);
# option_ranges  --ui-scale 0 and 50, --seek 99999999999999999999, --steps -1: exit 2;
# lesson_view    a lesson run with a settings file leaves the file's layers and windows as they
#                were (the lesson's were saved as the user's: obstacles off, goal lines lost);
# history_budget --history-budget 2M on 2,000 converging agents: the recording (keyframes and
#                events) stays within 2 MiB, the oldest events summarised in the state dump.
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
cmake_policy(SET CMP0054 NEW) # if(CASE STREQUAL "scene") compares text, not a variable
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

# Runs the app under Xvfb (at most 60 s: a hang fails the test) into rc, out, err.
macro(run_app)
    execute_process(
        COMMAND ${xvfb_run}
                env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    message(STATUS "orca-sandbox ${ARGN}: exit ${rc}\n${out}\n${err}")
endmacro()

function(expect_exit code fragment)
    run_app(${ARGN})
    if(NOT rc STREQUAL "${code}")
        message(FATAL_ERROR "orca-sandbox ${ARGN}: exit ${rc}, want ${code}")
    endif()
    if(fragment)
        string(FIND "${err}" "${fragment}" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "orca-sandbox ${ARGN}: stderr lacks \"${fragment}\"")
        endif()
    endif()
endfunction()

function(make_fifo path)
    execute_process(COMMAND mkfifo "${path}" RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "mkfifo ${path} failed")
    endif()
endfunction()

set(scene "${SCENES}/crossing.json")
set(settings "${WORK}/settings.json")

if(CASE STREQUAL "settings_fifo")
    make_fifo("${WORK}/fifo.json")
    expect_exit(2 "fifo.json: error: not a regular file (FIFO)" "${scene}" --frames 3
                --settings "${WORK}/fifo.json")
elseif(CASE STREQUAL "settings_dir")
    file(MAKE_DIRECTORY "${WORK}/folder")
    expect_exit(2 "folder: is a directory" "${scene}" --frames 3 --settings "${WORK}/folder")
elseif(CASE STREQUAL "layout_fifo")
    file(WRITE "${settings}" "{\"format\": \"orca-sandbox-settings\", \"version\": 1}\n")
    make_fifo("${WORK}/imgui.ini")
    # A recovery file whose lock is a FIFO: asking whether its owner is gone opened the lock
    # for reading, which waits for a writer.
    file(WRITE "${WORK}/recovery.json" "{}")
    make_fifo("${WORK}/recovery.lock")
    expect_exit(0 "imgui.ini: error: not a regular file (FIFO)" "${scene}" --frames 3
                --settings "${settings}")
elseif(CASE STREQUAL "lesson_args")
    # (An empty argument written out: a list would drop it.)
    execute_process(
        COMMAND ${xvfb_run} env SDL_VIDEODRIVER=x11 "${APP}" --lesson ""
                --frames 3 --settings "${settings}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    string(FIND "${err}" "--lesson: no lesson \"\"" at)
    if(NOT rc STREQUAL "2" OR at EQUAL -1)
        message(FATAL_ERROR "orca-sandbox --lesson '': exit ${rc}, want 2:\n${err}")
    endif()
    expect_exit(2 "--lesson: no lesson \"99\"" --lesson 99 --frames 3 --settings "${settings}")
    expect_exit(2 "--lesson-page 99: " --lesson 03 --lesson-page 99 --frames 3
                --settings "${settings}")
    expect_exit(2 "--lesson-page 99: " --lesson 03 --lesson-page 99 --screenshot
                "${WORK}/page.png")
elseif(CASE STREQUAL "option_ranges")
    foreach(scale IN ITEMS 0 50 99 251)
        expect_exit(2 "--ui-scale" "${scene}" --ui-scale ${scale} --frames 3
                    --settings "${settings}")
    endforeach()
    expect_exit(2 "--seek" "${scene}" --steps 5 --seek 99999999999999999999 --frames 3
                --settings "${settings}")
    expect_exit(2 "--steps" "${scene}" --steps -1 --frames 3 --settings "${settings}")
    expect_exit(2 "--history-budget" "${scene}" --history-budget 1M --frames 3
                --settings "${settings}")
    expect_exit(0 "" "${scene}" --ui-scale 250 --steps 5 --seek 18446744073709551615 --frames 3
                --settings "${settings}")
elseif(CASE STREQUAL "lesson_view")
    # The user's layers: obstacles and goal lines on, VO cones and half-planes off; two panels.
    set(layers "{\"grid\": true, \"obstacles\": true, \"goals\": true, \"goalLines\": true,
      \"velocities\": true, \"trails\": true, \"detourField\": true, \"voCones\": false,
      \"halfPlanes\": false, \"agentIds\": false, \"velocityPanel\": true}")
    file(WRITE "${settings}" "{\"format\": \"orca-sandbox-settings\", \"version\": 1,
      \"layers\": ${layers}, \"panels\": {\"metrics\": true, \"events\": false}}\n")
    foreach(page IN ITEMS 1 3)
        expect_exit(0 "" --lesson 03 --lesson-page ${page} --frames 5 --settings "${settings}")
        file(READ "${settings}" saved)
        foreach(key IN ITEMS grid obstacles goals goalLines velocities trails detourField voCones
                             halfPlanes agentIds velocityPanel)
            string(JSON want GET "${layers}" ${key})
            string(JSON got GET "${saved}" layers ${key})
            if(NOT want STREQUAL got)
                message(FATAL_ERROR "after lesson 03 page ${page} the settings' layer ${key} "
                                    "is ${got}, the user's was ${want}:\n${saved}")
            endif()
        endforeach()
        string(JSON metrics GET "${saved}" panels metrics)
        if(NOT metrics)
            message(FATAL_ERROR "the metrics panel the user had open was saved closed")
        endif()
    endforeach()
elseif(CASE STREQUAL "history_budget")
    execute_process(COMMAND "${ORCA}" generate gathering2000 -o "${WORK}/gathering.json"
                    RESULT_VARIABLE grc)
    if(NOT grc EQUAL 0)
        message(FATAL_ERROR "orca generate failed")
    endif()
    expect_exit(0 "summarised" "${WORK}/gathering.json" --history-budget 2M --steps 300
                --screenshot "${WORK}/gathering.png" --dump-state "${WORK}/state.json")
    file(READ "${WORK}/state.json" state)
    string(JSON bytes GET "${state}" timeline bytes)
    string(JSON budget GET "${state}" timeline budget)
    string(JSON events GET "${state}" timeline summarised events)
    string(JSON toStep GET "${state}" timeline summarised toStep)
    string(JSON first GET "${state}" timeline first)
    message(STATUS "recording ${bytes} of ${budget} bytes; ${events} events to step ${toStep} "
                   "summarised; recording from step ${first}")
    if(NOT budget EQUAL 2097152 OR bytes GREATER budget OR NOT events GREATER 10000 OR
       first LESS toStep)
        message(FATAL_ERROR "the recording is not within its budget with the events summarised")
    endif()
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
