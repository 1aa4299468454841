# Precompiled headers (option ORCA_PCH, ON by default; README). Most of the build's
# time went into parsing the same third-party headers in every file: nlohmann/json (in nearly
# every scene I/O, CLI, app and test file, ~2 s of the compiler each), GoogleTest (~1.3 s)
# and CLI11. Each target below parses them once into a precompiled header instead (CLI11 is
# only in the CLI's main.cpp: precompiled, it would still emit its inline code in every file).
# With ORCA_PCH=OFF the sources build without it: each file includes what it uses.

# GCC (12.2, Debian 12's) does not apply a header's `#pragma GCC diagnostic` when the header
# comes from a precompiled one: libstdc++'s char_traits.h switches off -Warray-bounds,
# -Wstringop-overflow and -Wstringop-overread around its string copies with such pragmas, and
# with a PCH their false positives on std::string's operator+ come back (tests/scenario, at
# -O1). Off for the targets with a PCH, as libstdc++ meant them off (the ASan build still
# catches a real out-of-bounds access).
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    set(ORCA_PCH_OPTIONS -Wno-array-bounds -Wno-stringop-overflow -Wno-stringop-overread)
endif()

# orca_pch(<target> <header>...): precompile <header>... for <target>'s C++ files.
function(orca_pch target)
    if(ORCA_PCH)
        target_precompile_headers(${target} PRIVATE ${ARGN})
        target_compile_options(${target} PRIVATE ${ORCA_PCH_OPTIONS})
    endif()
endfunction()

# orca_pch_reuse(<target> <from>): <target> uses <from>'s precompiled header (same compile
# flags and definitions, else GCC would refuse it: -Winvalid-pch says so).
function(orca_pch_reuse target from)
    if(ORCA_PCH)
        target_precompile_headers(${target} REUSE_FROM ${from})
        target_compile_options(${target} PRIVATE ${ORCA_PCH_OPTIONS})
    endif()
endfunction()
