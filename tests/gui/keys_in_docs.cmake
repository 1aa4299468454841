# The key and mouse tables in the README and docs/sandbox.md must be what the app's one key
# table prints (orca-sandbox --print-keys), so the docs cannot drift from the bindings.
#   cmake -DAPP=orca-sandbox -DDOCS="README.md;docs/sandbox.md" -P keys_in_docs.cmake
execute_process(COMMAND "${APP}" --print-keys OUTPUT_VARIABLE keys RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
    message(FATAL_ERROR "${APP} --print-keys failed (${rc})")
endif()
string(REPLACE "\n" ";" lines "${keys}")
foreach(doc IN LISTS DOCS)
    file(READ "${doc}" text)
    foreach(line IN LISTS lines)
        if(line STREQUAL "")
            continue()
        endif()
        string(FIND "${text}" "${line}" at)
        if(at EQUAL -1)
            message(FATAL_ERROR "${doc} lacks this row of orca-sandbox --print-keys (regenerate "
                                "the tables):\n${line}")
        endif()
    endforeach()
endforeach()
message(STATUS "key tables in ${DOCS} match --print-keys")
