# The graded run of a lab in two processes (tools/worker/README.md), for each lab with a
# descriptor, tools/lab_descriptors/lab<NN>.cpp (whose closing lines describe the graded
# functions: lab_remote.h), on the simt backend:
#   lab<NN>_harness_simt         the graded tests (hidden ones included), the test support and
#                                the emulator, with proxies in place of the lab's functions:
#                                holds no student code, so it is built outside the sandbox and
#                                its report is the verdict
#   lab<NN>_worker_objects_simt  the worker's server and the lab's function table (no student
#                                code: built outside the sandbox too)
#   lab<NN>_worker_simt          those + the student's lab library: the one program built and
#                                run in the sandbox
#   lab<NN>_worker_solution_simt the same with the reference solution (where solutions/ is)
#   scanlab_worker_test          tests of the byte format and of remote_state (no second process)
# The harness and the worker's objects compile the lab's descriptor (with SCANLAB_REMOTE_HARNESS
# or SCANLAB_REMOTE_WORKER: its closing lines become the proxies or the function table) and the
# list of labs it registers in (lab_registry.cpp).
# Called from tools/grader/cmake/grader_hooks.cmake once every lab's targets exist.
set(_SCANLAB_WORKER_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(scanlab_worker_targets)
    # Linux only (pipe2, close_range, bubblewrap): elsewhere every lab is one test program.
    if(NOT "simt" IN_LIST SCANLAB_BACKENDS OR NOT TARGET simt_core OR
       NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
        return()
    endif()
    set(dir "${_SCANLAB_WORKER_DIR}")
    set(descriptor_dir "${dir}/../lab_descriptors")
    set(simt_src "${SCANLAB_LABS_ROOT}/common/simt/src")
    if(NOT TARGET scanlab_worker_wire)
        # The byte format and the emulator's side of shipping memory, used by both programs.
        add_library(scanlab_worker_wire STATIC "${dir}/wire.cpp" "${dir}/remote_call.cpp"
                                               "${simt_src}/remote_state.cpp")
        target_include_directories(scanlab_worker_wire PUBLIC "${dir}" PRIVATE "${simt_src}")
        target_link_libraries(scanlab_worker_wire PUBLIC simt_api)
        target_compile_features(scanlab_worker_wire PUBLIC cxx_std_20)
    endif()
    if(NOT TARGET scanlab_worker_test AND TARGET doctest::doctest)
        # The byte format and the emulator's side of shipping memory (tests/grader/test_worker.py).
        add_executable(scanlab_worker_test "${dir}/worker_test.cpp")
        target_link_libraries(scanlab_worker_test PRIVATE scanlab_worker_wire simt_core
                              doctest::doctest)
    endif()
    file(GLOB descriptors LIST_DIRECTORIES false "${descriptor_dir}/lab[0-9][0-9].cpp")
    foreach(descriptor IN LISTS descriptors)
        get_filename_component(name "${descriptor}" NAME)
        string(SUBSTRING "${name}" 3 2 number)
        set(objects lab${number}_test_objects_simt)
        set(student lab${number}_student_simt)
        if(NOT TARGET ${objects} OR NOT TARGET ${student})
            continue()
        endif()
        get_target_property(folder ${objects} SCANLAB_LAB_FOLDER)
        set(interface_dir "${SCANLAB_LABS_ROOT}/labs/${folder}")
        # A lab whose tests record launches (lab 03) gets the trace recorder in both programs,
        # and the worker records each call's launches for the harness (remote_tracing.h).
        set(core_only ON)
        if(TARGET lab${number}_tests_student_simt)
            get_target_property(core_only lab${number}_tests_student_simt SIMT_CORE_ONLY)
        endif()
        if(core_only)
            set(core_only ON)
            set(tracing "${dir}/remote_tracing_off.cpp")
            set(runtime simt_core)
        else()
            set(core_only OFF)
            set(tracing "${dir}/remote_tracing.cpp")
            set(runtime simt_runtime)
        endif()

        set(harness lab${number}_harness_simt)
        add_executable(${harness} "${dir}/harness_client.cpp" "${tracing}" "${descriptor}"
                                  "${descriptor_dir}/lab_registry.cpp")
        target_compile_definitions(${harness} PRIVATE SCANLAB_REMOTE_HARNESS)
        target_include_directories(${harness} PRIVATE "${interface_dir}"
                                   "${SCANLAB_LABS_ROOT}/tests/support" "${simt_src}"
                                   "${descriptor_dir}")
        target_link_libraries(${harness} PRIVATE ${objects} scanlab_test_main_simt
                              scanlab_worker_wire ${runtime})
        set_target_properties(${harness} PROPERTIES SIMT_CORE_ONLY ${core_only})

        set(worker_objects lab${number}_worker_objects_simt)
        add_library(${worker_objects} OBJECT "${dir}/worker_main.cpp"
                    "${dir}/worker_registry.cpp" "${dir}/doctest_in_worker.cpp" "${tracing}"
                    "${descriptor}" "${descriptor_dir}/lab_registry.cpp")
        target_compile_definitions(${worker_objects} PRIVATE SCANLAB_REMOTE_WORKER)
        target_include_directories(${worker_objects} PRIVATE "${interface_dir}" "${simt_src}"
                                   "${descriptor_dir}")
        target_link_libraries(${worker_objects} PUBLIC scanlab_worker_wire scanlab_api
                              doctest::doctest)
        if(NOT core_only)
            target_link_libraries(${worker_objects} PUBLIC scanlab_trace)
        endif()

        set(worker lab${number}_worker_simt)
        add_executable(${worker})
        target_link_libraries(${worker} PRIVATE ${worker_objects} ${student})
        set_target_properties(${worker} PROPERTIES SIMT_CORE_ONLY ${core_only})
        if(TARGET lab${number}_solution_simt) # the reference solution's worker, for checks
            set(worker lab${number}_worker_solution_simt)
            add_executable(${worker})
            target_link_libraries(${worker} PRIVATE ${worker_objects} lab${number}_solution_simt)
            set_target_properties(${worker} PROPERTIES SIMT_CORE_ONLY ${core_only})
        endif()
    endforeach()
endfunction()
