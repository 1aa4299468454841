# The programs and their data for `cmake --install`, and the Debian package: `cpack -G DEB` in
# the build folder makes orca-sandbox_<version>_<arch>.deb holding orca-sandbox, orca, the
# bundled scenes and lessons, the assets (share/orca-sandbox, where the app looks
# next to its binary: app/sandbox/paths.cpp), and everything cmake/install.cmake installs
# (headers, libraries, the CMake package, the Python module when built). README "Installing";
# tested by the ctest `package.deb`.
install(TARGETS orca RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
if(TARGET orca-sandbox)
    install(TARGETS orca-sandbox RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT programs)
endif()
install(DIRECTORY scenes lessons assets DESTINATION ${CMAKE_INSTALL_DATADIR}/orca-sandbox
        COMPONENT programs)

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME orca-sandbox)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_PACKAGE_CONTACT "ORCA Sandbox developers <orca-sandbox@localhost>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
# What the binaries load at run time on Debian 12 (the libraries are static; SDL2 and OpenGL
# come from the system, the font too: DejaVu Sans; pugixml, the importers' XML reader, is the
# shared libpugixml.so.1), and what the Python module needs.
set(CPACK_DEBIAN_PACKAGE_DEPENDS
    "libc6, libstdc++6, libsdl2-2.0-0, libgl1, libpugixml1v5, fonts-dejavu-core, python3, python3-numpy")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "libglm-dev, nlohmann-json3-dev, libpugixml-dev, cmake")
# gzip: the package builds in seconds (xz took most of a minute on 2 cores).
set(CPACK_DEBIAN_COMPRESSION_TYPE gzip)
include(CPack)
