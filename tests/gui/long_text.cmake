# Texts from files of any length render within bounded vertices, memory and time (issue 25,
# item 1), and the validator warns where the app cuts them (cmake -P).
#   -D APP=orca-sandbox -D ORCA=orca -D WORK=dir -D CASE=prose|nospace|titles|scene|message
#
# prose:   a lesson page of 40,000 characters of prose (ImGui's TextWrapped aborted at about
#          16,000 glyphs in one window: "Too many vertices in ImDrawList using 16-bit indices");
# nospace: 20,000 characters without a space on one page (30,000 on the next);
# titles:  5 MB lesson, page and task titles and texts (1.2 GB and 312 ms per frame before);
# scene:   a scene whose name, hint and an agent's id are 5 MB each;
# message: a scene with a 5 MB unknown key, whose error message the app shows in a message box.
# Each runs in screenshot mode (a lesson: --lesson-page 1) and in the window for five frames,
# and must exit 0 with a CPU frame time far below the 312 ms; `orca validate` warns.
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
cmake_policy(SET CMP0054 NEW) # if(CASE STREQUAL "scene") compares text, not a variable
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

function(run_app)
    execute_process(
        COMMAND ${xvfb_run}
                env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" ${ARGN}
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
    string(LENGTH "${err}" errLength)
    if(errLength GREATER 2000)
        string(SUBSTRING "${err}" 0 2000 err)
    endif()
    message(STATUS "orca-sandbox ${CASE}: exit ${rc}\n${out}\n${err}")
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "orca-sandbox failed (exit ${rc}) on the ${CASE} case")
    endif()
    # "frames 4 (after the first): CPU frame build 1.234 ms mean; ..."
    if(out MATCHES "CPU frame build ([0-9.]+) ms mean")
        set(ms "${CMAKE_MATCH_1}")
        if(ms GREATER 100)
            message(FATAL_ERROR "a frame took ${ms} ms (the text must cost what is on screen)")
        endif()
    endif()
endfunction()

function(expect_validate file fragment)
    execute_process(COMMAND "${ORCA}" validate --lint "${file}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 120)
    string(FIND "${out}${err}" "${fragment}" at)
    if(at EQUAL -1)
        string(SUBSTRING "${out}${err}" 0 3000 shown)
        message(FATAL_ERROR "orca validate --lint ${file} does not say \"${fragment}\":\n${shown}")
    endif()
endfunction()

set(scene "{\"agents\": [{\"id\": \"A\", \"position\": [0, 0], \"goal\": [5, 0]}]}")
string(REPEAT "0123456789" 500000 huge) # 5 MB
set(lesson "")
if(CASE STREQUAL "prose")
    string(REPEAT "Agents choose velocities outside every half-plane. " 800 text) # 40,800
    set(lesson "{\"format\": \"orca-lesson\", \"version\": 1, \"title\": \"Long\", \"scene\": ${scene},
      \"pages\": [{\"title\": \"One long paragraph\", \"text\": \"${text}\"},
                  {\"title\": \"Bullets\", \"text\": \"- ${text}\\n- ${text}\"}]}")
    set(warning "at pages[0].text: the page's text is 40800 bytes long")
elseif(CASE STREQUAL "nospace")
    # 20,000 characters without a space are shown whole; 30,000 are cut (and warned about).
    string(REPEAT "abcdefghij" 2000 text)
    string(REPEAT "abcdefghij" 3000 longer)
    set(lesson "{\"format\": \"orca-lesson\", \"version\": 1, \"title\": \"Long\", \"scene\": ${scene},
      \"pages\": [{\"title\": \"No spaces\", \"text\": \"${text}\"},
                  {\"title\": \"No spaces, cut\", \"text\": \"${longer}\"}]}")
    set(warning "at pages[1].text: the page's text is 30000 bytes long")
elseif(CASE STREQUAL "titles")
    set(lesson "{\"format\": \"orca-lesson\", \"version\": 1, \"title\": \"${huge}\",
      \"scene\": ${scene}, \"select\": [0],
      \"pages\": [{\"title\": \"${huge}\", \"text\": \"Short.\",
                   \"task\": {\"kind\": \"agent-reaches-goal\", \"text\": \"${huge}\",
                              \"success\": \"${huge}\"}},
                  {\"title\": \"${huge}\", \"text\": \"${huge}\"}]}")
    set(warning "at title: the title is 5000000 bytes long")
endif()

if(lesson)
    set(file "${WORK}/long.json")
    file(WRITE "${file}" "${lesson}")
    expect_validate("${file}" "${warning}")
    run_app(--lesson "${file}" --lesson-page 1 --screenshot "${WORK}/page1.png")
    if(NOT EXISTS "${WORK}/page1.png")
        message(FATAL_ERROR "no screenshot of the page")
    endif()
    run_app(--lesson "${file}" --lesson-page 2 --frames 5 --settings "${WORK}/settings.json")
    return()
endif()

set(file "${WORK}/scene.json")
if(CASE STREQUAL "scene")
    file(WRITE "${file}" "{\"format\": \"orca-scene\", \"version\": 1, \"name\": \"${huge}\",
      \"view\": {\"hint\": \"${huge}\", \"select\": [0]},
      \"agents\": [{\"id\": \"${huge}\", \"position\": [0, 0], \"goal\": [5, 0]},
                   {\"position\": [3, 0.1], \"goal\": [-2, 0]}]}")
    expect_validate("${file}" "at name: the scene's name is 5000000 bytes long")
    expect_validate("${file}" "[text-too-long]")
    run_app("${file}" --select 0 --screenshot "${WORK}/scene.png")
    run_app("${file}" --select 0 --panels parameters,inspector --frames 5
            --settings "${WORK}/settings.json")
elseif(CASE STREQUAL "message")
    file(WRITE "${file}" "{\"format\": \"orca-scene\", \"version\": 1,
      \"agents\": [{\"position\": [0, 0], \"k${huge}\": 1}]}")
    # The window opens with the loader's message (quoting the key) in a message box.
    run_app("${file}" --frames 5 --settings "${WORK}/settings.json")
else()
    message(FATAL_ERROR "unknown CASE ${CASE}")
endif()
