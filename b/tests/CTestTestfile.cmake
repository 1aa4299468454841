# CMake generated Testfile for 
# Source directory: /tmp/wt4/tests
# Build directory: /tmp/wt4/b/tests
# 
# This file includes the relevant testing commands required for 
# testing this directory and lists subdirectories to be tested as well.
include("/tmp/wt4/b/tests/orca_core_tests[1]_include.cmake")
include("/tmp/wt4/b/tests/orca_scene_tests[1]_include.cmake")
include("/tmp/wt4/b/tests/orca_scenario_tests[1]_include.cmake")
include("/tmp/wt4/b/tests/orca_cli_tests[1]_include.cmake")
