# The ctest `install.consumer` (tests/CMakeLists.txt): installs the build's libraries into a
# fresh prefix, then configures, builds and runs this folder's project against that prefix
# alone. cmake -DORCA_BUILD_DIR=... -DCONSUMER_SOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=...
# -P install_test.cmake
foreach(var ORCA_BUILD_DIR CONSUMER_SOURCE_DIR WORK_DIR GENERATOR)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "install_test.cmake: ${var} is not set")
    endif()
endforeach()

function(run)
    execute_process(COMMAND ${ARGN} RESULT_VARIABLE code)
    if(NOT code EQUAL 0)
        string(REPLACE ";" " " command "${ARGN}")
        message(FATAL_ERROR "install.consumer: `${command}` failed (${code})")
    endif()
endfunction()

file(REMOVE_RECURSE ${WORK_DIR})
set(prefix ${WORK_DIR}/prefix)
run(${CMAKE_COMMAND} --install ${ORCA_BUILD_DIR} --prefix ${prefix} --component orca_dev)
# Only the prefix: nothing of the source or build tree may leak into the consumer.
run(${CMAKE_COMMAND} -S ${CONSUMER_SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
    -DCMAKE_BUILD_TYPE=Release -DCMAKE_PREFIX_PATH=${prefix})
run(${CMAKE_COMMAND} --build ${WORK_DIR}/build --parallel 1)
run(${WORK_DIR}/build/rvo2_crowd ${WORK_DIR}/saved.json)
run(${WORK_DIR}/build/core_crowd)
if(NOT EXISTS ${WORK_DIR}/saved.json)
    message(FATAL_ERROR "install.consumer: rvo2_crowd wrote no scene")
endif()
message(STATUS "install.consumer: installed, built and ran the consumer")
