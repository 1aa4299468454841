# The X server the window tests run in, in one place (included by tests/gui/CMakeLists.txt and
# by the cmake -P scripts that start the app themselves).
#   orca_xvfb(<var> [SIZE WxH] [PROGRAM xvfb-run]): <var> = the command prefix that runs what
#   follows it inside a fresh Xvfb of that screen size (default 1280x800, 24-bit).
# `-a` picks a free display number (racily: the tests share RESOURCE_LOCK xvfb). `-noreset`:
# without it the server resets when its last client leaves and signals xvfb-run (SIGUSR1)
# again; a signal that lands while xvfb-run removes its temporary directory makes it exit 5
# ("problem while cleaning up") in place of the app's code: 11 of 200 runs of a quickly
# exiting app with both cores busy, 0 of 200 with -noreset.
function(orca_xvfb var)
    cmake_parse_arguments(X "" "SIZE;PROGRAM" "" ${ARGN})
    if(NOT X_SIZE)
        set(X_SIZE 1280x800)
    endif()
    if(NOT X_PROGRAM)
        set(X_PROGRAM xvfb-run)
    endif()
    set(${var} ${X_PROGRAM} -a -s "-screen 0 ${X_SIZE}x24 -noreset" PARENT_SCOPE)
endfunction()
