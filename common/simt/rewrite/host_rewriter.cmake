# A cross build's simt-rewrite: the rewriter compiled with the build machine's own C++ compiler
# (a separate configure of rewrite/host/ under <build>/host-tools, with none of the target's
# toolchain settings), imported as the target simt-rewrite. It is rebuilt with every build
# (a no-op when nothing changed), so an edit to the rewriter reaches the cross build too.
include(ExternalProject)

set(SIMT_HOST_CXX "" CACHE FILEPATH
    "The build machine's C++ compiler for host tools in a cross build (empty: CMake's default)")
set(_host_dir "${CMAKE_BINARY_DIR}/host-tools")
set(_host_rewriter "${_host_dir}/bin/simt-rewrite${CMAKE_HOST_EXECUTABLE_SUFFIX}")
set(_host_args -DCMAKE_BUILD_TYPE=Release)
if(SIMT_HOST_CXX)
    list(APPEND _host_args "-DCMAKE_CXX_COMPILER=${SIMT_HOST_CXX}")
endif()
if(CMAKE_CXX_COMPILER_LAUNCHER) # ccache for the host compiler too
    list(APPEND _host_args "-DCMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER}")
endif()
ExternalProject_Add(simt_rewrite_host
    SOURCE_DIR "${CMAKE_CURRENT_LIST_DIR}/host"
    BINARY_DIR "${_host_dir}"
    CMAKE_ARGS ${_host_args}
    BUILD_COMMAND ${CMAKE_COMMAND} --build . --target simt-rewrite
    BUILD_ALWAYS TRUE
    BUILD_BYPRODUCTS "${_host_rewriter}"
    INSTALL_COMMAND ""
    USES_TERMINAL_BUILD TRUE)

add_executable(simt-rewrite IMPORTED GLOBAL)
set_target_properties(simt-rewrite PROPERTIES IMPORTED_LOCATION "${_host_rewriter}")
add_dependencies(simt-rewrite simt_rewrite_host)
