# `orca-sandbox`: the SDL2 + OpenGL3 + Dear ImGui desktop app (included from app/CMakeLists.txt
# when ORCA_BUILD_APP is ON). Drawing and panels live in ui/ (orca_ui); this is the window,
# the loop, the context and the command line.
find_package(SDL2 2.26 REQUIRED CONFIG)
find_package(OpenGL REQUIRED)
find_package(CLI11 REQUIRED CONFIG)
find_package(GIF 5 REQUIRED) # giflib: recordings (Debian: libgif-dev)

# Everything but the window, GL and the command line, so that tests/gui can link it.
add_library(orca_sandbox_lib STATIC
    sandbox/sandbox.cpp
    sandbox/sandbox_frame.cpp
    sandbox/state_dump.cpp
    sandbox/key_bindings.cpp
    sandbox/paths.cpp
    sandbox/layers.cpp
    sandbox/settings.cpp
    sandbox/selection.cpp
    sandbox/scene_edit.cpp
    sandbox/editor.cpp
    sandbox/authoring_panels.cpp
    sandbox/recovery.cpp
    sandbox/timeline.cpp
    sandbox/compare.cpp
    sandbox/lessons.cpp
    sandbox/pictures.cpp
    sandbox/frame_recorder.cpp
    sandbox/png_file.cpp
    sandbox/what_if.cpp
    sandbox/actions.cpp
    sandbox/panel_table.cpp
    sandbox/tools/tool_table.cpp
    sandbox/tools/tool_common.cpp
    sandbox/tools/inspect_tool.cpp
    sandbox/tools/select_tool.cpp
    sandbox/tools/add_agent_tool.cpp
    sandbox/tools/goal_tool.cpp
    sandbox/tools/obstacle_tool.cpp
)
target_include_directories(orca_sandbox_lib PUBLIC sandbox)
target_compile_definitions(orca_sandbox_lib PRIVATE ORCA_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
target_link_libraries(orca_sandbox_lib PUBLIC orca_ui orca_scene SDL2::SDL2 GIF::GIF
                       PRIVATE orca_warnings)

add_executable(orca-sandbox
    sandbox/main.cpp
    sandbox/screenshot.cpp
    sandbox/options.cpp
)
target_include_directories(orca-sandbox PRIVATE common)
target_link_libraries(orca-sandbox PRIVATE
    orca_sandbox_lib OpenGL::GL CLI11::CLI11 ${CMAKE_DL_LIBS} orca_warnings)
