# scanlab_add_lab(NUMBER <NN> NAME <name> SOURCES <files...> TEST <test.cpp>
#                 [SIMT_TESTS <more tests that need the emulator>])
#
# Builds one lab for every backend in SCANLAB_BACKENDS and both flavours:
#   student   sources from labs/<NN>_<name>/        (the stub, or a student's work)
#   solution  sources from solutions/<NN>_<name>/   (skipped if that folder does not exist)
# For each backend B and flavour F it creates
#   library    lab<NN>_<F>_<B>        the lab's SOURCES, compiled for backend B
#   executable lab<NN>_tests_<F>_<B>  tests/labs/<TEST> + tests/support, linked to the library
#                                     (the test objects are compiled once per backend and shared
#                                     by both flavours: they only see the interface header)
#   test       lab<NN>.<F>.<B>        LABELS lab<NN>;<F>;<B> (+ gpu on cuda); exit code 77 = skipped
# (the test executables and tests only with SCANLAB_BUILD_TESTS, the libraries always)
# Both flavours see labs/<NN>_<name>/ on their include path: the solution uses the same
# interface header the student gets.
#
# Relies on what cmake/Backends.cmake provides: SCANLAB_BACKENDS, the targets scanlab_api and
# doctest::doctest, and scanlab_add_cuda_library(). A host translation unit that links a
# library made by scanlab_add_cuda_library(... BACKEND simt ...) is assumed to get the simt
# cuda_runtime.h and runtime through that library's usage requirements; on the cuda backend the
# tests link CUDA::cudart themselves.
include_guard(GLOBAL)

cmake_path(GET CMAKE_CURRENT_LIST_DIR PARENT_PATH _scanlab_root)
set(SCANLAB_LABS_ROOT "${_scanlab_root}" CACHE INTERNAL "Scan Lab source root")

# A grader can point these at a student's tree; by default they are this checkout's folders.
set(SCANLAB_LABS_DIR "${_scanlab_root}/labs" CACHE PATH "Folder with the student lab sources")
set(SCANLAB_SOLUTIONS_DIR "${_scanlab_root}/solutions" CACHE PATH "Folder with the solutions")
set(SCANLAB_LAB_TEST_TIMEOUT 300 CACHE STRING "Seconds before ctest stops one lab's tests")

# What every compiled test file needs on <backend>: the test support headers, doctest, the
# backend's cuda_runtime.h and runtime (PUBLIC: the test executables link them too).
function(_scanlab_test_usage target backend)
    target_include_directories(${target} PUBLIC "${SCANLAB_LABS_ROOT}/tests/support")
    target_link_libraries(${target} PUBLIC scanlab_api doctest::doctest)
    target_compile_features(${target} PUBLIC cxx_std_20)
    if(backend STREQUAL "cuda")
        if(NOT TARGET CUDA::cudart)
            find_package(CUDAToolkit REQUIRED)
        endif()
        # Plain host C++ against the toolkit's cuda_runtime.h; only the lab is nvcc-built.
        target_link_libraries(${target} PUBLIC CUDA::cudart)
        target_compile_definitions(${target} PUBLIC SCANLAB_BACKEND_CUDA)
    else()
        target_link_libraries(${target} PUBLIC simt_runtime)
        target_compile_definitions(${target} PUBLIC SCANLAB_BACKEND_SIMT)
    endif()
endfunction()

# The doctest main and the test support code, compiled once per backend for all labs.
function(_scanlab_test_main backend)
    set(target scanlab_test_main_${backend})
    if(TARGET ${target})
        return()
    endif()
    set(support "${SCANLAB_LABS_ROOT}/tests/support")
    add_library(${target} OBJECT "${support}/scan_test_support.cpp" "${support}/test_main.cpp"
                                 "${support}/fault_isolation.cpp" "${support}/kernel_work.cpp")
    _scanlab_test_usage(${target} ${backend})
endfunction()

function(scanlab_add_lab)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "NUMBER;NAME;TEST" "SOURCES;SIMT_TESTS")
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "scanlab_add_lab: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    endif()
    foreach(required IN ITEMS NUMBER NAME SOURCES TEST)
        if(NOT arg_${required})
            message(FATAL_ERROR "scanlab_add_lab: ${required} is required")
        endif()
    endforeach()
    if(NOT arg_NUMBER MATCHES "^[0-9][0-9]$")
        message(FATAL_ERROR "scanlab_add_lab: NUMBER must be two digits, got '${arg_NUMBER}'")
    endif()

    set(lab "lab${arg_NUMBER}")
    set(folder "${arg_NUMBER}_${arg_NAME}")
    set(interface_dir "${SCANLAB_LABS_ROOT}/labs/${folder}")
    set(tests_dir "${SCANLAB_LABS_ROOT}/tests")
    foreach(backend IN LISTS SCANLAB_BACKENDS)
        if(SCANLAB_BUILD_TESTS)
            _scanlab_test_main(${backend})
            set(objects ${lab}_test_objects_${backend})
            add_library(${objects} OBJECT "${tests_dir}/labs/${arg_TEST}")
            _scanlab_test_usage(${objects} ${backend})
            # For the grader's hook (tools/grader/cmake/grader_hooks.cmake), which builds the
            # pristine stub's tests to list the graded test cases.
            set_target_properties(${objects} PROPERTIES SCANLAB_LAB_FOLDER "${folder}"
                                                        SCANLAB_LAB_SOURCES "${arg_SOURCES}")
            target_include_directories(${objects} PRIVATE "${interface_dir}")
            if(backend STREQUAL "simt")
                # Graded tests that need the emulator itself (traces, bank conflicts).
                foreach(extra IN LISTS arg_SIMT_TESTS)
                    target_sources(${objects} PRIVATE "${tests_dir}/labs/${extra}")
                endforeach()
                if(arg_SIMT_TESTS)
                    target_link_libraries(${objects} PUBLIC scanlab_trace)
                endif()
            endif()
        endif()

        foreach(flavour IN ITEMS student solution)
            if(flavour STREQUAL "student")
                set(source_dir "${SCANLAB_LABS_DIR}/${folder}")
                if(NOT IS_DIRECTORY "${source_dir}")
                    message(FATAL_ERROR "scanlab_add_lab: ${source_dir} does not exist")
                endif()
            else()
                set(source_dir "${SCANLAB_SOLUTIONS_DIR}/${folder}")
                if(NOT IS_DIRECTORY "${source_dir}")
                    continue() # a handed-out tree has no solutions
                endif()
            endif()

            list(TRANSFORM arg_SOURCES PREPEND "${source_dir}/" OUTPUT_VARIABLE sources)
            set(library "${lab}_${flavour}_${backend}")
            scanlab_add_cuda_library(${library}
                BACKEND ${backend}
                SOURCES ${sources}
                INCLUDE_DIRS "${interface_dir}"
                LINK scanlab_api)

            if(NOT SCANLAB_BUILD_TESTS)
                continue() # a benchmark-only build: the lab libraries without their tests
            endif()
            # The tests see only the interface header, never the lab's sources: student and
            # solution link the same compiled tests (each test file is compiled once per backend).
            set(tests "${lab}_tests_${flavour}_${backend}")
            add_executable(${tests})
            target_link_libraries(${tests} PRIVATE ${lab}_test_objects_${backend}
                                  scanlab_test_main_${backend} ${library})

            set(labels ${lab} ${flavour} ${backend})
            if(backend STREQUAL "cuda")
                list(APPEND labels gpu)
            endif()

            add_test(NAME ${lab}.${flavour}.${backend} COMMAND ${tests})
            set_tests_properties(${lab}.${flavour}.${backend} PROPERTIES
                LABELS "${labels}"
                SKIP_RETURN_CODE 77
                TIMEOUT ${SCANLAB_LAB_TEST_TIMEOUT})
        endforeach()
    endforeach()
endfunction()
