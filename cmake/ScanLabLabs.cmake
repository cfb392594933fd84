# scanlab_add_lab(NUMBER <NN> NAME <name> SOURCES <files...>)
#
# Builds one lab for every backend in SCANLAB_BACKENDS and both flavours:
#   student   sources from labs/<NN>_<name>/        (the stub, or a student's work)
#   solution  sources from solutions/<NN>_<name>/   (skipped if that folder does not exist)
# For each backend B and flavour F it creates the library lab<NN>_<F>_<B>, the lab's SOURCES
# compiled for backend B. Both flavours see labs/<NN>_<name>/ on their include path: the solution
# uses the same interface header the student gets. The graded tests are registered under tests/
# (tests/labs/CMakeLists.txt), from the lab's folder and sources this records in the global
# properties SCANLAB_LAB<NN>_FOLDER and SCANLAB_LAB<NN>_SOURCES; SCANLAB_LAB_NUMBERS lists the
# labs added, in order (what every per-lab loop elsewhere walks).
#
# Relies on what cmake/Backends.cmake provides: SCANLAB_BACKENDS, the target scanlab_api and
# scanlab_add_cuda_library().
include_guard(GLOBAL)

cmake_path(GET CMAKE_CURRENT_LIST_DIR PARENT_PATH _scanlab_root)
set(SCANLAB_LABS_ROOT "${_scanlab_root}" CACHE INTERNAL "Scan Lab source root")

# A grader can point these at a student's tree; by default they are this checkout's folders.
set(SCANLAB_LABS_DIR "${_scanlab_root}/labs" CACHE PATH "Folder with the student lab sources")
set(SCANLAB_SOLUTIONS_DIR "${_scanlab_root}/solutions" CACHE PATH "Folder with the solutions")

function(scanlab_add_lab)
    cmake_parse_arguments(PARSE_ARGV 0 arg "" "NUMBER;NAME" "SOURCES")
    if(arg_UNPARSED_ARGUMENTS)
        message(FATAL_ERROR "scanlab_add_lab: unknown arguments: ${arg_UNPARSED_ARGUMENTS}")
    endif()
    foreach(required IN ITEMS NUMBER NAME SOURCES)
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
    set_property(GLOBAL PROPERTY SCANLAB_${lab}_FOLDER "${folder}")
    set_property(GLOBAL PROPERTY SCANLAB_${lab}_SOURCES "${arg_SOURCES}")
    set_property(GLOBAL APPEND PROPERTY SCANLAB_LAB_NUMBERS "${arg_NUMBER}")
    foreach(backend IN LISTS SCANLAB_BACKENDS)
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
            # The library needs no runtime built before it; the program that links it chooses one
            # (simt_core or simt_runtime, by SIMT_CORE_ONLY), and builds only that one.
            set_target_properties(${library} PROPERTIES OPTIMIZE_DEPENDENCIES ON)
        endforeach()
    endforeach()
endfunction()
