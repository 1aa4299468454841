# `orca-sandbox`: the SDL2 + OpenGL3 + Dear ImGui desktop app (included from app/CMakeLists.txt
# when ORCA_BUILD_APP is ON). Drawing and panels live in ui/ (orca_ui); this is the window,
# the loop, the context and the command line.
find_package(SDL2 2.26 REQUIRED CONFIG)
find_package(OpenGL REQUIRED)
find_package(CLI11 REQUIRED CONFIG)
find_package(GIF 5 REQUIRED) # giflib: recordings (Debian: libgif-dev)

# Everything but the window, GL and the command line, so that tests/gui can link it.
add_library(orca_sandbox_lib STATIC
    # The context and the frame.
    sandbox/sandbox.cpp
    sandbox/sandbox_frame.cpp
    sandbox/paths.cpp
    sandbox/layers.cpp
    # The shell: key table, settings, actions, panel table.
    sandbox/shell/key_bindings.cpp
    sandbox/shell/settings.cpp
    sandbox/shell/actions.cpp
    sandbox/shell/end_signals.cpp
    sandbox/shell/sdl_events.cpp
    sandbox/shell/panel_table.cpp
    # The document: scene edits, autosave and recovery.
    sandbox/document/scene_edit.cpp
    sandbox/document/recovery.cpp
    sandbox/document/import_open.cpp
    # Explain: the selection.
    sandbox/explain/selection.cpp
    # Time: the step, the timeline, Compare, what-if.
    sandbox/time/step.cpp
    sandbox/time/timeline.cpp
    sandbox/time/compare.cpp
    sandbox/time/fix_trial.cpp
    sandbox/time/what_if.cpp
    # Authoring: the editor, its panels and tools.
    sandbox/authoring/editor.cpp
    sandbox/authoring/authoring_panels.cpp
    sandbox/authoring/tools/tool_table.cpp
    sandbox/authoring/tools/tool_common.cpp
    sandbox/authoring/tools/inspect_tool.cpp
    sandbox/authoring/tools/select_tool.cpp
    sandbox/authoring/tools/add_agent_tool.cpp
    sandbox/authoring/tools/goal_tool.cpp
    sandbox/authoring/tools/obstacle_tool.cpp
    # Routes: drawn routes, waypoint edits.
    sandbox/routes/routes.cpp
    # Teaching.
    sandbox/lessons/lessons.cpp
    # Pictures: SVG, recordings, PNG files.
    sandbox/pictures/pictures.cpp
    sandbox/pictures/frame_recorder.cpp
    sandbox/pictures/png_file.cpp
    # Recordings (.orcarec): playback, the frames' decisions and events.
    sandbox/playback/playback.cpp
    sandbox/playback/recording_frames.cpp
    sandbox/playback/recording_analysis.cpp
    # Files: the dialogs, the built-in browser, the desktop's dialog.
    sandbox/files/file_browser.cpp
    sandbox/files/file_dialogs.cpp
    sandbox/files/desktop_dialog.cpp
    # The state dump (--dump-state).
    sandbox/state_dump/state_dump.cpp
)
target_include_directories(orca_sandbox_lib PUBLIC sandbox)
target_compile_definitions(orca_sandbox_lib PRIVATE ORCA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(orca_sandbox_lib PUBLIC orca_ui orca_scene SDL2::SDL2 GIF::GIF
                       PRIVATE orca_warnings)
# nlohmann/json is in most of its files (via the scene headers; cmake/pch.cmake).
orca_pch(orca_sandbox_lib <nlohmann/json.hpp> <glm/vec2.hpp> <filesystem>)

add_executable(orca-sandbox
    sandbox/shell/main.cpp
    sandbox/pictures/screenshot.cpp
    sandbox/pictures/view_png.cpp
    sandbox/shell/options.cpp
)
target_include_directories(orca-sandbox PRIVATE common)
target_link_libraries(orca-sandbox PRIVATE
    orca_sandbox_lib OpenGL::GL CLI11::CLI11 ${CMAKE_DL_LIBS} orca_warnings)
