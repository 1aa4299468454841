# Precompiled headers (option ORCA_PCH, ON by default; README). Most of the build's
# time went into parsing the same third-party headers in every file: nlohmann/json (in nearly
# every scene I/O, CLI, app and test file, ~2 s of the compiler each), GoogleTest (~1.3 s)
# and CLI11. Each target below parses them once into a precompiled header instead.
# With ORCA_PCH=OFF the sources build without it: each file includes what it uses.

# orca_pch(<target> <header>...): precompile <header>... for <target>'s C++ files.
function(orca_pch target)
    if(ORCA_PCH)
        target_precompile_headers(${target} PRIVATE ${ARGN})
    endif()
endfunction()

# orca_pch_reuse(<target> <from>): <target> uses <from>'s precompiled header (same compile
# flags and definitions, else GCC would refuse it: -Winvalid-pch says so).
function(orca_pch_reuse target from)
    if(ORCA_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
    endif()
endfunction()
