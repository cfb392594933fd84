# Backends.cmake: one kernel source, two backends.
#
#   scanlab_add_cuda_library(<target> BACKEND <simt|cuda> SOURCES <files> [INCLUDE_DIRS <dirs>]
#                            [LINK <libs>])
#   scanlab_link_backend(<target> <PRIVATE|PUBLIC|INTERFACE> <simt|cuda>)
#
# simt: .cu files go through the emulator's rewriter and the host compiler (cmake/Simt.cmake).
# cuda: nvcc for the architectures in CMAKE_CUDA_ARCHITECTURES (default 90), linked with cudart.
# SCANLAB_BACKENDS lists what this build makes: always simt, plus cuda where nvcc works.
include_guard(GLOBAL)
include(${CMAKE_CURRENT_LIST_DIR}/Simt.cmake)

# What host code built for one backend needs to call a lab: on cuda the toolkit's
# cuda_runtime.h and runtime (CUDA::cudart), on simt the emulator's headers (simt_api; a lab
# library brings the runtime its program chooses), and SCANLAB_BACKEND_CUDA or _SIMT. Used by
# the lab libraries, the graded tests (tests/labs) and the grader's speed harness.
function(scanlab_link_backend target scope backend)
    if(NOT scope MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
        message(FATAL_ERROR "scanlab_link_backend(${target} ${scope} ...): the scope must be "
                            "PRIVATE, PUBLIC or INTERFACE")
    endif()
    if(backend STREQUAL "cuda")
        if(NOT TARGET CUDA::cudart)
            find_package(CUDAToolkit REQUIRED)
        endif()
        target_link_libraries(${target} ${scope} CUDA::cudart)
        target_compile_definitions(${target} ${scope} SCANLAB_BACKEND_CUDA)
        if(SCANLAB_CUDA_COMPILE_ONLY)
            # Nothing here runs it (CMakeLists.txt): the host C++ of what calls the cuda backend
            # (the tests, the main job, the benchmark) unoptimized too, as its .cu files are.
            target_compile_options(${target} ${scope}
                                   "$<$<COMPILE_LANG_AND_ID:CXX,GNU,Clang>:-O0;-g0>")
        endif()
    elseif(backend STREQUAL "simt")
        target_link_libraries(${target} ${scope} simt_api)
        target_compile_definitions(${target} ${scope} SCANLAB_BACKEND_SIMT)
    else()
        message(FATAL_ERROR "scanlab_link_backend(${target}): the backend must be simt or cuda, "
                            "not '${backend}'")
    endif()
endfunction()

# How a lab's kernels are compiled for the emulator: what a student's every edit recompiles.
# -O1 by default: a lab file compiles in about two thirds of -O2's time and its tests run as
# fast; the whole mistake catalog gives the same verdicts and hints (docs/design.md, "A lab's
# kernels at -O1", also says why not -O0 or -Og). An empty value keeps the build type's level.
set(SCANLAB_SIMT_LAB_OPTIMIZATION "-O1" CACHE STRING
    "Compiler options for the labs' kernel files on the simt backend (after the build type's)")
# Twelve of the RTL passes GCC runs at -O1, skipped: they come after -fsanitize=thread has made
# every access a call, which they neither remove, add nor move past another, so a kernel's
# accesses (and with them the emulator's interleaving) are plain -O1's. They cost a tenth of a lab
# file's compile (docs/design.md, "A lab's kernels at -O1"). Clang is given the level alone.
set(SCANLAB_SIMT_LAB_RTL_PASSES_OFF
    -fno-if-conversion -fno-if-conversion2 -fno-branch-count-reg -fno-move-loop-invariants
    -fno-forward-propagate -fno-cprop-registers -fno-shrink-wrap -fno-combine-stack-adjustments
    -fno-compare-elim -fno-auto-inc-dec -fno-dse -fno-dce)

function(scanlab_add_cuda_library target)
    cmake_parse_arguments(PARSE_ARGV 1 arg "" "BACKEND" "SOURCES;INCLUDE_DIRS;LINK")
    if(NOT arg_BACKEND MATCHES "^(simt|cuda)$")
        message(FATAL_ERROR "scanlab_add_cuda_library(${target}): BACKEND must be simt or cuda")
    endif()
    add_library(${target} STATIC)
    target_include_directories(${target} PUBLIC ${arg_INCLUDE_DIRS})
    target_link_libraries(${target} PUBLIC scanlab_api ${arg_LINK})
    scanlab_link_backend(${target} PUBLIC ${arg_BACKEND})
    if(arg_BACKEND STREQUAL "simt")
        simt_target_cuda_sources(${target} PUBLIC ${arg_SOURCES})
        # The lab's kernels for the emulator: compiled at SCANLAB_SIMT_LAB_OPTIMIZATION, which
        # after the build type's flags sets the level (docs/design.md, "A lab's kernels at -O1").
        target_compile_options(${target} PRIVATE ${SCANLAB_SIMT_LAB_OPTIMIZATION}
            "$<$<CXX_COMPILER_ID:GNU>:${SCANLAB_SIMT_LAB_RTL_PASSES_OFF}>")
        # Line tables and inlined calls only (-g1): all that the emulator's reports read
        # (addr2line -i), a fifth less compile than -g2 (docs/design.md, "A lab's kernels at -O1").
        set_target_properties(${target} PROPERTIES SIMT_DEBUG_LEVEL 1)
    else()
        target_sources(${target} PRIVATE ${arg_SOURCES})
        set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
        target_compile_options(${target} PRIVATE
            $<$<COMPILE_LANGUAGE:CUDA>:--expt-relaxed-constexpr -Xcompiler=-Wall,-Wextra>)
    endif()
endfunction()
