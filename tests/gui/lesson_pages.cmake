# Renders every page of one lesson (cmake -P, run inside one Xvfb server by xvfb-run):
#   orca-sandbox --lesson NAME --lesson-page K --screenshot OUT --dump-state DUMP
# and checks the exit code, the PNG (orca_png_check: the right size, not blank) and the dump's
# "lesson" block (name, page, pages, the page's task not done yet).
#
#   -D APP=...     orca-sandbox
#   -D CHECK=...   orca_png_check
#   -D LESSON=...  the lesson file
#   -D WORK=...    folder for the screenshots and dumps

file(READ "${LESSON}" text)
get_filename_component(name "${LESSON}" NAME_WE)
string(JSON pages LENGTH "${text}" pages)
file(MAKE_DIRECTORY "${WORK}")
foreach(k RANGE 1 ${pages})
    set(png "${WORK}/${name}_${k}.png")
    set(dump "${WORK}/${name}_${k}.json")
    file(REMOVE "${png}" "${dump}")
    execute_process(
        COMMAND env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0 "${APP}" --lesson "${LESSON}"
                --lesson-page ${k} --size 800x600 --screenshot "${png}" --dump-state "${dump}"
        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 60)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "page ${k}: orca-sandbox failed (${rc})\n${out}\n${err}")
    endif()
    # (Agents are not counted by colour: the overlays are drawn over them on most pages.)
    execute_process(COMMAND "${CHECK}" "${png}" --size 800x600 --min-colours 16
                    RESULT_VARIABLE crc)
    if(NOT crc EQUAL 0)
        message(FATAL_ERROR "page ${k}: screenshot check failed; image kept at ${png}")
    endif()
    file(READ "${dump}" state)
    string(JSON got_name GET "${state}" lesson name)
    string(JSON got_page GET "${state}" lesson page)
    string(JSON got_pages GET "${state}" lesson pages)
    string(JSON got_window GET "${state}" lesson windowOpen)
    string(JSON got_done GET "${state}" lesson taskDone)
    if(NOT got_name STREQUAL name OR NOT got_page EQUAL k OR NOT got_pages EQUAL pages
       OR NOT got_window)
        message(FATAL_ERROR "page ${k}: the dump says lesson ${got_name} page ${got_page}/"
                            "${got_pages} (window ${got_window})")
    endif()
    # A task is to be done by the reader: no page may open with its task already done.
    if(got_done)
        message(FATAL_ERROR "page ${k}: the page's task is done before anyone tried")
    endif()
    # The page's step is the one the lesson asks for (its own "steps", or an earlier page's).
    string(JSON step GET "${state}" step)
    message(STATUS "page ${k}/${pages}: step ${step}, ok")
endforeach()
