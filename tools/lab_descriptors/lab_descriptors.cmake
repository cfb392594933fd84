# scanlab_add_lab_descriptors(TARGET FLAVOUR BACKEND [LAB NN] [ADDED var]): compiles into TARGET
# the list of labs (lab_registry.cpp) and the descriptor labNN.cpp of every lab whose library
# lab<NN>_<FLAVOUR>_<BACKEND> exists, linked to that library; LAB keeps to that one lab (a
# program that must not build the others: the grader's speed harness); ADDED names a variable
# that gets the lab numbers. Used by the main job, the tracer (tools/), the benchmark (bench/)
# and the grader's speed harness (tools/grader/cmake/grader_hooks.cmake).
set(SCANLAB_LAB_DESCRIPTOR_DIR "${CMAKE_CURRENT_LIST_DIR}" CACHE INTERNAL "")

function(scanlab_add_lab_descriptors target flavour backend)
    cmake_parse_arguments(PARSE_ARGV 3 arg "" "ADDED;LAB" "")
    set(dir "${SCANLAB_LAB_DESCRIPTOR_DIR}")
    set(pattern "lab[0-9][0-9].cpp")
    if(DEFINED arg_LAB) # "00" would be false in a plain if()
        set(pattern "lab${arg_LAB}.cpp")
    endif()
    file(GLOB descriptors CONFIGURE_DEPENDS "${dir}/${pattern}")
    target_sources(${target} PRIVATE "${dir}/lab_registry.cpp")
    target_include_directories(${target} PRIVATE "${dir}")
    target_link_libraries(${target} PRIVATE scanlab_api)
    set(added "")
    set(unity "${dir}/lab_registry.cpp")
    foreach(file IN LISTS descriptors)
        get_filename_component(name "${file}" NAME_WE)
        string(SUBSTRING "${name}" 3 2 number)
        set(library lab${number}_${flavour}_${backend})
        if(TARGET ${library})
            target_sources(${target} PRIVATE "${file}")
            target_link_libraries(${target} PRIVATE ${library})
            list(APPEND added ${number})
            list(APPEND unity "${file}")
        endif()
    endforeach()
    # The list and the descriptors as one unity file: they share their headers, which are most of
    # each one's compile (0.6 of about 0.8 s): a first `./scanlab run` compiles one file instead of
    # eleven. Each descriptor's own helpers are in a namespace of its own (lab<NN>_descriptor).
    # GROUP mode: the target's other files are compiled as before.
    set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
    set_source_files_properties(${unity} TARGET_DIRECTORY ${target}
                                PROPERTIES UNITY_GROUP lab_descriptors)
    if(arg_ADDED)
        set(${arg_ADDED} "${added}" PARENT_SCOPE)
    endif()
endfunction()

# scanlab_add_solution_sums_libraries(BACKEND): lab<NN>_solution_sums_<BACKEND> for every lab with
# a solution library: the solution compiled for the four sums the descriptors call and no other
# graded operator (SCANLAB_INSTANTIATE_SUMS_ONLY, scanlab/graded_operators.h). The main job and
# the solution's tracer link these: a first `./scanlab run` then compiles about a fifth of each
# solution's instantiations (docs/design.md, Measurements). The graded tests, the grader and the
# benchmark keep the full libraries; a descriptor that calls another operator fails to link.
function(scanlab_add_solution_sums_libraries backend)
    get_property(lab_numbers GLOBAL PROPERTY SCANLAB_LAB_NUMBERS)
    foreach(number IN LISTS lab_numbers)
        set(full lab${number}_solution_${backend})
        if(NOT TARGET ${full})
            continue()
        endif()
        get_property(folder GLOBAL PROPERTY SCANLAB_lab${number}_FOLDER)
        get_property(sources GLOBAL PROPERTY SCANLAB_lab${number}_SOURCES)
        list(TRANSFORM sources PREPEND "${SCANLAB_SOLUTIONS_DIR}/${folder}/")
        set(library lab${number}_solution_sums_${backend})
        scanlab_add_cuda_library(${library}
            BACKEND ${backend}
            SOURCES ${sources}
            INCLUDE_DIRS "${SCANLAB_LABS_ROOT}/labs/${folder}"
            LINK scanlab_api)
        target_compile_definitions(${library} PRIVATE SCANLAB_INSTANTIATE_SUMS_ONLY)
        set_target_properties(${library} PROPERTIES OPTIMIZE_DEPENDENCIES ON EXCLUDE_FROM_ALL ON)
    endforeach()
endfunction()
