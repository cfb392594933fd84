# grader_hooks.cmake: what the grader adds to a Scan Lab build, without touching the project's
# own CMake files. The grader configures with
#   -DCMAKE_PROJECT_INCLUDE=<this file>
#   -DSCANLAB_GRADER_HIDDEN_DIR=<folder>   (optional) hidden test files labNN_*.cpp
# CMake includes this file right after the top-level project(); the work is deferred to the end
# of the top-level CMakeLists.txt, when scanlab_add_lab() has made every lab's targets:
#   hidden tests  are compiled into lab<NN>_test_objects_<backend>, which both flavours'
#                 lab<NN>_tests_<flavour>_<backend> link (so that check_stubs.py holds them to
#                 the same rules as the visible tests);
#   speed         lab<NN>_speed_<flavour>_<backend>: the speed harness (../speed/, compiled once
#                 per backend into scanlab_speed_harness_<backend>) with the lab's
#                 descriptor (tools/lab_descriptors/labNN.cpp) and library, for every lab that
#                 has both; built only when grade.py --speed asks for it;
#   listing       lab<NN>_listing_<backend>: the graded tests linked to the pristine stub of this
#                 tree's labs/ (lab<NN>_pristine_<backend>, or lab<NN>_student_<backend> where
#                 the build's labs are this tree's own); the grader takes the test cases to
#                 grade from its --list-test-cases, never from a program with a student's code.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/../../worker/worker_targets.cmake")

if(NOT CMAKE_CURRENT_SOURCE_DIR STREQUAL CMAKE_SOURCE_DIR)
    return() # a project() in a subdirectory
endif()
set(_SCANLAB_GRADER_SPEED_SOURCE "${CMAKE_CURRENT_LIST_DIR}/../speed/speed_harness.cpp")

function(_scanlab_grader_lab_number file out)
    get_filename_component(name "${file}" NAME)
    string(REGEX MATCH "^lab([0-9][0-9])_" match "${name}")
    set(${out} "${CMAKE_MATCH_1}" PARENT_SCOPE)
endfunction()

function(_scanlab_grader_extend)
    if(SCANLAB_GRADER_HIDDEN_DIR)
        file(GLOB hidden_tests LIST_DIRECTORIES false
             "${SCANLAB_GRADER_HIDDEN_DIR}/lab[0-9][0-9]_*.cpp")
        foreach(file IN LISTS hidden_tests)
            _scanlab_grader_lab_number("${file}" number)
            set(used FALSE)
            foreach(backend IN LISTS SCANLAB_BACKENDS)
                # The test files are compiled once per backend, into the objects both flavours
                # link (cmake/ScanLabLabs.cmake).
                set(target lab${number}_test_objects_${backend})
                if(TARGET ${target})
                    target_sources(${target} PRIVATE "${file}")
                    set(used TRUE)
                endif()
            endforeach()
            if(used)
                message(STATUS "Scan Lab grader: hidden tests ${file}")
            endif()
        endforeach()
    endif()

    get_property(lab_numbers GLOBAL PROPERTY SCANLAB_LAB_NUMBERS)
    foreach(backend IN LISTS SCANLAB_BACKENDS)
        foreach(number IN LISTS lab_numbers)
            set(objects lab${number}_test_objects_${backend})
            if(NOT TARGET ${objects})
                continue()
            endif()
            # The pristine stub from this tree's labs/, whatever SCANLAB_LABS_DIR points at. Where
            # it points at this tree's labs/ (check-stubs in ./build), the student library is
            # that stub, built from the same files in the same way: no second compile of it.
            get_target_property(folder ${objects} SCANLAB_LAB_FOLDER)
            get_target_property(sources ${objects} SCANLAB_LAB_SOURCES)
            set(interface_dir "${SCANLAB_LABS_ROOT}/labs/${folder}")
            set(library lab${number}_student_${backend})
            file(REAL_PATH "${SCANLAB_LABS_DIR}" students_labs)
            file(REAL_PATH "${SCANLAB_LABS_ROOT}/labs" pristine_labs)
            if(NOT TARGET ${library} OR NOT students_labs STREQUAL pristine_labs)
                list(TRANSFORM sources PREPEND "${interface_dir}/")
                set(library lab${number}_pristine_${backend})
                scanlab_add_cuda_library(${library} BACKEND ${backend} SOURCES ${sources}
                                         INCLUDE_DIRS "${interface_dir}" LINK scanlab_api)
            endif()
            set(exe lab${number}_listing_${backend})
            add_executable(${exe})
            target_link_libraries(${exe} PRIVATE ${objects} scanlab_test_main_${backend}
                                  ${library})
        endforeach()
    endforeach()

    # The harness is the same code for every lab and flavour (the lab comes in through its
    # descriptor): compiled once per backend, the slowest part of a speed program's build.
    set(_scanlab_speed_harness scanlab_speed_harness)
    foreach(backend IN LISTS SCANLAB_BACKENDS)
        set(harness ${_scanlab_speed_harness}_${backend})
        add_library(${harness} OBJECT "${_SCANLAB_GRADER_SPEED_SOURCE}")
        # lab_input.h: the main job's random input and host reference.
        target_include_directories(${harness} PRIVATE "${SCANLAB_LABS_ROOT}/tools/run"
                                                      "${SCANLAB_LAB_DESCRIPTOR_DIR}")
        target_link_libraries(${harness} PRIVATE CLI11::CLI11 scanlab_api)
        scanlab_link_backend(${harness} PRIVATE ${backend})
        set_target_properties(${harness} PROPERTIES EXCLUDE_FROM_ALL ON)
    endforeach()

    # One program per lab, flavour and backend, so that timing one lab builds no other lab.
    file(GLOB descriptors LIST_DIRECTORIES false "${SCANLAB_LAB_DESCRIPTOR_DIR}/lab[0-9][0-9].cpp")
    foreach(descriptor IN LISTS descriptors)
        get_filename_component(name "${descriptor}" NAME_WE)
        string(SUBSTRING "${name}" 3 2 number)
        foreach(backend IN LISTS SCANLAB_BACKENDS)
            foreach(flavour IN ITEMS student solution)
                if(NOT TARGET lab${number}_${flavour}_${backend})
                    continue()
                endif()
                set(exe lab${number}_speed_${flavour}_${backend})
                add_executable(${exe})
                target_link_libraries(${exe} PRIVATE ${_scanlab_speed_harness}_${backend})
                scanlab_add_lab_descriptors(${exe} ${flavour} ${backend} LAB ${number})
                scanlab_link_backend(${exe} PRIVATE ${backend})
                if(backend STREQUAL "simt")
                    set_target_properties(${exe} PROPERTIES SIMT_CORE_ONLY ON) # never records
                endif()
            endforeach()
        endforeach()
    endforeach()
endfunction()

cmake_language(DEFER CALL _scanlab_grader_extend)
cmake_language(DEFER CALL scanlab_worker_targets) # harness and worker programs
