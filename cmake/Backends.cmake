# Backends.cmake: one kernel source, two backends.
#
#   scanlab_add_cuda_library(<target> BACKEND <simt|cuda> SOURCES <files> [INCLUDE_DIRS <dirs>]
#                            [LINK <libs>])
#
# simt: .cu files go through the emulator's rewriter and the host compiler (cmake/Simt.cmake).
# cuda: nvcc for the architectures in CMAKE_CUDA_ARCHITECTURES (default 90), linked with cudart.
# SCANLAB_BACKENDS lists what this build makes: always simt, plus cuda where nvcc works.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/Simt.cmake)

function(scanlab_add_cuda_library target)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "BACKEND" "SOURCES;INCLUDE_DIRS;LINK")
    if(NOT arg_BACKEND MATCHES "^(simt|cuda)$")
        message(FATAL_ERROR "scanlab_add_cuda_library(${target}): BACKEND must be simt or cuda")
    endif()
    add_library(${target} STATIC)
    target_include_directories(${target} PUBLIC ${arg_INCLUDE_DIRS})
    target_link_libraries(${target} PUBLIC scanlab_api ${arg_LINK})
    if(arg_BACKEND STREQUAL "simt")
        simt_target_cuda_sources(${target} PUBLIC ${arg_SOURCES})
        target_compile_definitions(${target} PUBLIC SCANLAB_BACKEND_SIMT)
    else()
        target_sources(${target} PRIVATE ${arg_SOURCES})
        target_link_libraries(${target} PUBLIC CUDA::cudart)
        target_compile_definitions(${target} PUBLIC SCANLAB_BACKEND_CUDA)
        set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
        target_compile_options(${target} PRIVATE
            $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra>)
    endif()
endfunction()
