# `cmake --install` of the libraries: headers, static libraries and the CMake package `orca`,
# so that an outside project writes
#     find_package(orca CONFIG REQUIRED)
#     target_link_libraries(app PRIVATE orca::rvo2)   # or orca::core, orca::scene
# Everything here is in the component `orca_dev` (`cmake --install BUILD --component orca_dev`
# installs only it). docs/rvo2.md, "Installing"; tested by the ctest `install.consumer`. The
# Python package is the component `orca_python` (at the end; tested by `python.install`).
include(CMakePackageConfigHelpers)

# The same names in the build tree as in an installed package.
add_library(orca::core ALIAS orca_core)
add_library(orca::scene ALIAS orca_scene)
set_target_properties(orca_core PROPERTIES EXPORT_NAME core)
set_target_properties(orca_scene PROPERTIES EXPORT_NAME scene)
# The core's public headers are C++20 (std::span, <=>): a consumer's code must be too.
target_compile_features(orca_core PUBLIC cxx_std_20)

set(ORCA_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/orca)

install(TARGETS orca_core orca_scene orca_rvo2
        EXPORT orcaTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT orca_dev)
# Public headers: <orca/...> and <orca/scene/...>; RVO2's names in include/orca/rvo2, which
# orca::rvo2 puts on the include path (so <RVO.h> works and clashes with no RVO2 install).
install(DIRECTORY core/include/ core/scene/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT orca_dev
        FILES_MATCHING PATTERN "*.hpp")
install(DIRECTORY core/rvo2/include/
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/orca/rvo2 COMPONENT orca_dev
        FILES_MATCHING PATTERN "*.h")

install(EXPORT orcaTargets NAMESPACE orca:: DESTINATION ${ORCA_INSTALL_CMAKEDIR}
        COMPONENT orca_dev)
configure_package_config_file(cmake/orcaConfig.cmake.in
                              ${CMAKE_CURRENT_BINARY_DIR}/orcaConfig.cmake
                              INSTALL_DESTINATION ${ORCA_INSTALL_CMAKEDIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/orcaConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/orcaConfig.cmake
              ${CMAKE_CURRENT_BINARY_DIR}/orcaConfigVersion.cmake
        DESTINATION ${ORCA_INSTALL_CMAKEDIR} COMPONENT orca_dev)

# The Python package orca (core/python, docs/python.md "Installing"), in the component
# `orca_python`: the extension and the package's Python files, stubs and py.typed, into
# ORCA_PYTHON_INSTALL_DIR under the prefix. Debian's python3 finds packages in
# /usr/lib/python3/dist-packages (the default, for the prefix /usr) and local installs in
# /usr/local/lib/python3.X/dist-packages (-DORCA_PYTHON_INSTALL_DIR=lib/python3.X/dist-packages).
if(TARGET orca_python)
    set(ORCA_PYTHON_INSTALL_DIR lib/python3/dist-packages CACHE STRING
        "Where cmake --install puts the Python package orca, relative to the prefix")
    install(TARGETS orca_python LIBRARY DESTINATION ${ORCA_PYTHON_INSTALL_DIR}/orca
            COMPONENT orca_python)
    install(FILES ${ORCA_PYTHON_FILES} DESTINATION ${ORCA_PYTHON_INSTALL_DIR}/orca
            COMPONENT orca_python)
endif()
