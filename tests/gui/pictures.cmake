# Pictures to share (cmake -P, under Xvfb):
#   -D MODE=svg: `orca-sandbox SCENE --select AGENT --steps STEPS --svg OUT` writes well-formed
#     SVG whose world view and velocity panel each hold one half-plane path per line of
#     `orca explain SCENE --agent AGENT --steps STEPS` (the same decision, headless).
#   -D MODE=gif: `--steps STEPS --record OUT --record-steps N` writes a GIF of N + 1 frames
#     (one per step) that giflib decodes, of the view's size, lasting N steps of simulated time,
#     and not larger than MAX_BYTES.
#   -D MODE=views: --svg-view and --png-view. With construction mode on (--construction 1,
#     phase 2) the velocity-only SVG holds the step as one group "construction" and none of the
#     normal half-planes, its viewBox is the panel's canvas, and it has no title bar or summary
#     lines; the world-only SVG holds the group too, its viewBox lies inside the world view and
#     holds every agent; Solve mode (--solve) is a group "solve" in the panel; the world-only PNG
#     (--png-view world) is twice the world SVG's viewBox; the velocity view without a selected
#     agent fails saying why; unknown views and views without their picture option are refused
#     with a message.
#   -D APP=orca-sandbox -D ORCA=orca -D CHECK=orca_picture_check -D SCENE=... -D WORK=dir
include(${CMAKE_CURRENT_LIST_DIR}/xvfb.cmake)
orca_xvfb(xvfb_run)
file(MAKE_DIRECTORY "${WORK}")
set(xvfb ${xvfb_run} env SDL_VIDEODRIVER=x11 ASAN_OPTIONS=detect_leaks=0)
if(MODE STREQUAL "svg")
    set(out "${WORK}/picture.svg")
    file(REMOVE "${out}")
    execute_process(COMMAND ${xvfb} "${APP}" "${SCENE}" --select ${AGENT} --steps ${STEPS}
                            --layers all --size 1200x800 --svg "${out}"
                    RESULT_VARIABLE rc OUTPUT_VARIABLE app_out ERROR_VARIABLE err TIMEOUT 150)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${out}")
        message(FATAL_ERROR "orca-sandbox --svg failed (${rc}):\n${app_out}\n${err}")
    endif()
    execute_process(COMMAND "${ORCA}" explain "${SCENE}" --agent ${AGENT} --steps ${STEPS}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE explain ERROR_VARIABLE err)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "orca explain failed (${rc}): ${err}")
    endif()
    string(JSON lines LENGTH "${explain}" lines)
    if(lines LESS 2)
        message(FATAL_ERROR "agent ${AGENT} has ${lines} half-planes at step ${STEPS}: pick a "
                            "busier moment")
    endif()
    message(STATUS "${app_out}orca explain: ${lines} half-planes")
    execute_process(COMMAND "${CHECK}" svg "${out}" --root svg
                            --count world-view half-plane ${lines}
                            --count velocity-panel half-plane ${lines}
                            --count world-view agent ${AGENTS}
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "SVG check failed; file kept at ${out}")
    endif()
elseif(MODE STREQUAL "gif")
    set(out "${WORK}/run.gif")
    file(REMOVE "${out}")
    execute_process(COMMAND ${xvfb} "${APP}" "${SCENE}" --select 0 --steps ${STEPS}
                            --size ${SIZE} --record "${out}" --record-steps ${FRAMES}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE app_out ERROR_VARIABLE err TIMEOUT 150)
    if(NOT rc EQUAL 0 OR NOT EXISTS "${out}")
        message(FATAL_ERROR "orca-sandbox --record failed (${rc}):\n${app_out}\n${err}")
    endif()
    message(STATUS "${app_out}")
    # "wrote F (N frames of WxH, ...)": the view below the menu bar.
    string(REGEX MATCH "frames of ([0-9]+)x([0-9]+)" m "${app_out}")
    math(EXPR n "${FRAMES} + 1")
    math(EXPR cs "(${FRAMES} + 1) * ${STEP_CS}")
    execute_process(COMMAND "${CHECK}" gif "${out}" --width ${CMAKE_MATCH_1}
                            --height ${CMAKE_MATCH_2} --min-frames ${n} --max-frames ${n}
                            --duration-cs ${cs} --max-bytes ${MAX_BYTES}
                            --dump-frame ${FRAMES} "${WORK}/last_frame.png"
                    RESULT_VARIABLE rc)
    if(NOT rc EQUAL 0)
        message(FATAL_ERROR "GIF check failed; file kept at ${out}")
    endif()
elseif(MODE STREQUAL "views")
    set(common "${SCENE}" --select ${AGENT} --steps ${STEPS} --layers all --size 1200x800)
    # run(NAME ARGS...): orca-sandbox under Xvfb, failing the test unless it writes WORK/NAME.
    function(run name)
        file(REMOVE "${WORK}/${name}")
        execute_process(COMMAND ${xvfb} "${APP}" ${common} ${ARGN}
                        RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err TIMEOUT 150)
        if(NOT rc EQUAL 0 OR NOT EXISTS "${WORK}/${name}")
            message(FATAL_ERROR "orca-sandbox ${ARGN} failed (${rc}):\n${out}\n${err}")
        endif()
        message(STATUS "${out}")
    endfunction()
    function(check what)
        execute_process(COMMAND "${CHECK}" ${ARGN} RESULT_VARIABLE rc)
        if(NOT rc EQUAL 0)
            message(FATAL_ERROR "${what} check failed; files kept in ${WORK}")
        endif()
    endfunction()
    set(construction --construction 1 --construction-phase 2)
    run(velocity.svg ${construction} --svg "${WORK}/velocity.svg" --svg-view velocity)
    check("velocity-only SVG" svg "${WORK}/velocity.svg"
          --count velocity-panel construction 1 --count velocity-panel half-plane 0
          --count velocity-panel legend 1 --viewbox-within clip-panel
          --no-text "half-planes:" --no-text "Velocity space")
    run(world.svg ${construction} --svg "${WORK}/world.svg" --svg-view world)
    check("world-only SVG" svg "${WORK}/world.svg" --count world-view construction 1
          --viewbox-within clip-world --inside-viewbox agent)
    run(solve.svg --solve 2 --svg "${WORK}/solve.svg")
    check("Solve-mode SVG" svg "${WORK}/solve.svg" --count velocity-panel solve 1
          --count velocity-panel half-plane 0)
    run(world.png ${construction} --screenshot "${WORK}/world.png" --png-view world)
    check("world-only PNG" png "${WORK}/world.png" --scale-of "${WORK}/world.svg" 2)
    # The velocity view without a selected agent has nothing to show: exit 1, saying why.
    foreach(pair "svg;svg" "screenshot;png")
        list(GET pair 0 picture)
        list(GET pair 1 kind)
        execute_process(COMMAND ${xvfb} "${APP}" "${SCENE}" --${picture} "${WORK}/empty.${kind}"
                                --${kind}-view velocity
                        RESULT_VARIABLE rc ERROR_VARIABLE err TIMEOUT 150)
        if(NOT rc EQUAL 1 OR NOT err MATCHES "velocity view shows nothing: select an agent")
            message(FATAL_ERROR "--${kind}-view velocity without a selection: exit ${rc}:\n${err}")
        endif()
    endforeach()
    # Bad values: exit code 2 and a message naming the option and the choices (no window).
    function(refuse want)
        execute_process(COMMAND "${APP}" ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                        ERROR_VARIABLE err TIMEOUT 30)
        if(NOT rc EQUAL 2 OR NOT err MATCHES "${want}")
            message(FATAL_ERROR "orca-sandbox ${ARGN}: exit ${rc}, want 2 and '${want}':\n${err}")
        endif()
    endfunction()
    refuse("--svg-view: unknown view 'panel' \\(expected: both, world, velocity\\)"
           --svg x.svg --svg-view panel)
    refuse("--png-view: unknown view '2x'" --screenshot x.png --png-view 2x)
    refuse("--png-view needs --screenshot" --png-view world)
    refuse("--svg-view needs --svg" --svg-view velocity)
else()
    message(FATAL_ERROR "MODE must be svg, gif or views")
endif()
