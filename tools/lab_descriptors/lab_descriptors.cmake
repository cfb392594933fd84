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
    foreach(file IN LISTS descriptors)
        get_filename_component(name "${file}" NAME_WE)
        string(SUBSTRING "${name}" 3 2 number)
        set(library lab${number}_${flavour}_${backend})
        if(TARGET ${library})
            target_sources(${target} PRIVATE "${file}")
            target_link_libraries(${target} PRIVATE ${library})
            list(APPEND added ${number})
        endif()
    endforeach()
    if(arg_ADDED)
        set(${arg_ADDED} "${added}" PARENT_SCOPE)
    endif()
endfunction()
