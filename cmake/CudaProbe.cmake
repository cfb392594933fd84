# CudaProbe.cmake: is there a CUDA compiler that works here? The question check_language(CUDA)
# answers, at a quarter of its cost.
#
#   include(cmake/CudaProbe.cmake)
#   scanlab_probe_cuda_compiler()
#   if(CMAKE_CUDA_COMPILER)
#       enable_language(CUDA)
#   endif()
#
# check_language(CUDA) configures a whole project to find out, CUDA compiler identification and
# ABI included, which enable_language(CUDA) then does again: on a machine with nvcc most of a first
# configure went there. This probe compiles one empty kernel to device code instead (nvcc
# --cubin: nvcc's preprocessing with the host compiler, which refuses an unsupported version, then
# cicc and ptxas). Like check_language, it does nothing when CMAKE_CUDA_COMPILER is already set
# (given, or found by an earlier configure) and caches its answer there: the compiler, or NOTFOUND.
include_guard(GLOBAL)

function(scanlab_probe_cuda_compiler)
    if(DEFINED CMAKE_CUDA_COMPILER)
        return()
    endif()
    # The compiler enable_language(CUDA) would take: $CUDACXX, else nvcc on the PATH.
    set(flags "")
    if(NOT "$ENV{CUDACXX}" STREQUAL "")
        separate_arguments(cudacxx UNIX_COMMAND "$ENV{CUDACXX}")
        list(POP_FRONT cudacxx name)
        set(flags ${cudacxx})
    else()
        set(name nvcc)
    endif()
    find_program(compiler "${name}" NO_CACHE)
    if(compiler AND CMAKE_CUDA_HOST_COMPILER)
        list(APPEND flags -ccbin "${CMAKE_CUDA_HOST_COMPILER}")
    endif()

    set(why "no nvcc on the PATH (nor CUDACXX set)")
    if(compiler)
        set(dir "${CMAKE_BINARY_DIR}/CMakeFiles/CudaProbe")
        file(WRITE "${dir}/probe.cu" "#include <cuda_runtime.h>\n__global__ void probe() {}\n")
        execute_process(COMMAND "${compiler}" ${flags} --cubin probe.cu -o probe.cubin
                        WORKING_DIRECTORY "${dir}" RESULT_VARIABLE status
                        OUTPUT_VARIABLE output ERROR_VARIABLE output)
        if(status EQUAL 0)
            set(why "")
        else()
            string(STRIP "${output}" output)
            set(why "${compiler} cannot compile an empty kernel:\n${output}")
            set(compiler "")
        endif()
    endif()

    if(compiler)
        message(STATUS "Looking for a CUDA compiler - ${compiler}")
        set(CMAKE_CUDA_COMPILER "${compiler}" CACHE FILEPATH "CUDA compiler")
    else()
        message(STATUS "Looking for a CUDA compiler - none: ${why}")
        set(CMAKE_CUDA_COMPILER NOTFOUND CACHE FILEPATH "CUDA compiler")
    endif()
endfunction()
