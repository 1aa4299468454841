# Prints one value of a JSON file (for the shell drivers of the GUI tests, which must not
# depend on jq or Python):  cmake -DFILE=state.json "-DKEY=agents;2;screen;0" -P json_get.cmake
# Arrays and objects print as JSON text; -DLENGTH=1 prints the length of an array or object
# instead. Fails (exit 1) when the file or the key is missing.
if(NOT EXISTS "${FILE}")
    message(FATAL_ERROR "no such file: ${FILE}")
endif()
file(READ "${FILE}" text)
if(LENGTH)
    string(JSON value ERROR_VARIABLE err LENGTH "${text}" ${KEY})
else()
    string(JSON value ERROR_VARIABLE err GET "${text}" ${KEY})
endif()
if(err)
    message(FATAL_ERROR "${FILE}: ${err}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" -E echo "${value}")
