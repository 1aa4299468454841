# A trajectory CSV with one nudged velocity, played against its scene (cmake -P, label gui):
# `orca run SCENE --trajectory` writes the run, orca_nudge_trajectory puts a velocity 0.3 m/s
# outside agent AGENT's first ORCA half-plane at step STEP, `orca conform` finds it, and
# orca-sandbox SCENE --trajectory nudged.csv, sought to the frame of that decision (STEP − 1)
# with the agent selected, dumps its state and a screenshot: the dump must hold the deviation
# event on the timeline, the conformance block, and the decision's violated line 0. A scene of
# another agent count is refused with a message.
#   -D APP=orca-sandbox -D ORCA=orca -D NUDGE=orca_nudge_trajectory -D PNG_CHECK=orca_png_check
#   -D SCENE=scene.json -D OTHER=other_scene.json -D STEP=s -D AGENT=i -D WORK=dir
#   [-D SHOTS=dir: also copy the screenshot there]
include(${CMAKE_CURRENT_LIST_DIR}/../xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(run "${WORK}/run.csv")
set(nudged "${WORK}/nudged.csv")
file(REMOVE "${run}" "${nudged}")
execute_process(COMMAND "${ORCA}" run "${SCENE}" --steps 40 --trajectory "${run}"
                RESULT_VARIABLE rc OUTPUT_QUIET ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "orca run failed (${rc}): ${err}")
endif()
execute_process(COMMAND "${NUDGE}" "${SCENE}" "${run}" "${nudged}" ${STEP} ${AGENT}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "orca_nudge_trajectory failed (${rc}): ${out}${err}")
endif()
message(STATUS "${out}")

# orca conform agrees: it deviates first there.
execute_process(COMMAND "${ORCA}" conform "${SCENE}" "${nudged}"
                RESULT_VARIABLE rc OUTPUT_VARIABLE report ERROR_VARIABLE err)
if(NOT rc EQUAL 3)
    message(FATAL_ERROR "orca conform should exit 3 (deviates), got ${rc}: ${report}${err}")
endif()
string(JSON step GET "${report}" firstDeviation step)
string(JSON agent GET "${report}" firstDeviation agent)
string(JSON deviating GET "${report}" deviatingAgentSteps)
if(NOT step EQUAL STEP OR NOT agent EQUAL AGENT)
    message(FATAL_ERROR "orca conform: first deviation at step ${step} agent ${agent}")
endif()

math(EXPR frame "${STEP} - 1")
set(dump "${WORK}/state.json")
set(shot "${WORK}/deviation.png")
file(REMOVE "${dump}" "${shot}")
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${SCENE}"
            --trajectory "${nudged}" --seek ${frame} --select ${AGENT} --panels events
            --size 1280x800 --screenshot "${shot}" --dump-state "${dump}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(NOT rc EQUAL 0 OR NOT EXISTS "${dump}" OR NOT EXISTS "${shot}")
    message(FATAL_ERROR "orca-sandbox --trajectory failed (${rc}):\n${out}\n${err}")
endif()
file(READ "${dump}" state)
function(expect_json what expected)
    string(JSON value GET "${state}" ${ARGN})
    if(NOT "${value}" STREQUAL "${expected}")
        message(FATAL_ERROR "${what}: ${value}, expected ${expected} (${dump})")
    endif()
endfunction()
expect_json("recording.trajectory" ON recording trajectory)
expect_json("recording.frame" ${frame} recording frame)
expect_json("conformance.done" ON recording conformance done)
expect_json("conformance.deviatingAgentSteps" ${deviating} recording conformance
            deviatingAgentSteps)
expect_json("conformance.firstDeviation.step" ${STEP} recording conformance firstDeviation step)
expect_json("conformance.firstDeviation.agent" ${AGENT} recording conformance firstDeviation
            agent)
expect_json("decision.agent" ${AGENT} recording decision agent)
expect_json("decision.deviates" ON recording decision deviates)
expect_json("decision.violatedLines[0].line" 0 recording decision violatedLines 0 line)
string(JSON by GET "${state}" recording decision violatedLines 0 by)
if(by LESS 0.29 OR by GREATER 0.31)
    message(FATAL_ERROR "violated line 0 by ${by}, expected 0.3")
endif()
# The deviation's marker on the timeline, at the frame of its decision, naming the agent.
string(JSON markers LENGTH "${state}" timeline markers)
set(found FALSE)
if(markers GREATER 0)
    math(EXPR last "${markers} - 1")
    foreach(i RANGE ${last})
        string(JSON kind GET "${state}" timeline markers ${i} kind)
        string(JSON at GET "${state}" timeline markers ${i} step)
        string(JSON who GET "${state}" timeline markers ${i} agents 0)
        if(kind STREQUAL "deviation" AND at EQUAL frame AND who EQUAL AGENT)
            set(found TRUE)
        endif()
    endforeach()
endif()
if(NOT found)
    message(FATAL_ERROR "no deviation marker at frame ${frame} for agent ${AGENT} (${dump})")
endif()
execute_process(COMMAND "${PNG_CHECK}" "${shot}" --size 1280x800 --min-colours 16
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "screenshot ${shot}: ${out}${err}")
endif()
if(SHOTS)
    file(COPY "${shot}" DESTINATION "${SHOTS}")
endif()

# Against a scene of another agent count: refused, naming the counts.
execute_process(
    COMMAND ${xvfb_run}
            env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" "${OTHER}"
            --trajectory "${nudged}" --size 1280x800 --screenshot "${WORK}/refused.png"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
if(rc EQUAL 0 OR NOT err MATCHES "nudged.csv: error: step 0 has [0-9]+ agents, but .* has [0-9]+")
    message(FATAL_ERROR "a trajectory of another scene should be refused (${rc}):\n${err}")
endif()
