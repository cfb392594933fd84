# The graded run of a lab in two processes (tools/worker/README.md), for each lab with a
# descriptor, tools/lab_descriptors/lab<NN>.cpp (whose closing lines describe the graded
# functions: lab_remote.h), on each backend B built (simt, and cuda where it is):
#   lab<NN>_harness_<B>          the graded tests (hidden ones included), the test support and
#                                the backend (the emulator, or the CUDA runtime), with proxies in
#                                place of the lab's functions: holds no student code, so it is
#                                built outside the sandbox and its report is the verdict
#   lab<NN>_worker_objects_<B>   the lab's function table (no student code: built outside the
#                                sandbox too); the worker's server, like the harness's worker
#                                client, is the same for every lab: compiled once per backend
#                                (scanlab_worker_objects_<B>, below)
#   lab<NN>_worker_<B>           those + the student's lab library: the one program built and
#                                run in the sandbox
#   lab<NN>_worker_solution_<B>  the same with the reference solution (where solutions/ is)
#   scanlab_worker_test          tests of the byte format and of remote_state (simt; no second
#                                process)
# The harness and the worker's objects compile the lab's descriptor (with SCANLAB_REMOTE_HARNESS
# or SCANLAB_REMOTE_WORKER: its closing lines become the proxies or the function table); the
# list of labs it registers in (lab_registry.cpp) is in the shared objects. What differs between the backends is one
# file, remote_backend_<B>.cpp (remote_backend.h), in the library scanlab_worker_wire (simt) or
# scanlab_worker_wire_cuda.
# Called from tools/grader/cmake/grader_hooks.cmake once every lab's targets exist.
set(_SCANLAB_WORKER_DIR "${CMAKE_CURRENT_LIST_DIR}")

function(scanlab_worker_targets)
    # Linux only (pipe2, close_range, bubblewrap): elsewhere every lab is one test program.
    if(NOT CMAKE_SYSTEM_NAME STREQUAL "Linux")
        return()
    endif()
    if("simt" IN_LIST SCANLAB_BACKENDS AND TARGET simt_core)
        _scanlab_worker_targets(simt)
    endif()
    if("cuda" IN_LIST SCANLAB_BACKENDS)
        _scanlab_worker_targets(cuda)
    endif()
endfunction()

function(_scanlab_worker_targets backend)
    set(dir "${_SCANLAB_WORKER_DIR}")
    set(descriptor_dir "${dir}/../lab_descriptors")
    set(simt_src "${SCANLAB_LABS_ROOT}/common/simt/src")
    if(backend STREQUAL "simt" AND NOT TARGET scanlab_worker_wire)
        # The byte format and the emulator's side of shipping memory, used by both programs.
        add_library(scanlab_worker_wire STATIC "${dir}/wire.cpp" "${dir}/remote_call.cpp"
                                               "${dir}/remote_backend_simt.cpp"
                                               "${simt_src}/remote_state.cpp")
        target_include_directories(scanlab_worker_wire PUBLIC "${dir}" PRIVATE "${simt_src}")
        target_link_libraries(scanlab_worker_wire PUBLIC simt_api)
        target_compile_features(scanlab_worker_wire PUBLIC cxx_std_20)
    endif()
    if(backend STREQUAL "cuda" AND NOT TARGET scanlab_worker_wire_cuda)
        # The byte format and a GPU's side of shipping memory (the runtime, and the driver API's
        # cuMemGetAddressRange, looked up in the driver the runtime loads: not linked, so that
        # a harness on a machine without a driver starts and says "no GPU"); the emulator's
        # remote_state.h only for its error snapshot's types (its folder has no cuda_runtime.h
        # to shadow the toolkit's).
        if(NOT TARGET CUDA::cudart)
            find_package(CUDAToolkit REQUIRED)
        endif()
        add_library(scanlab_worker_wire_cuda STATIC "${dir}/wire.cpp" "${dir}/remote_call.cpp"
                                                    "${dir}/remote_backend_cuda.cpp")
        target_include_directories(scanlab_worker_wire_cuda PUBLIC "${dir}"
                                   "${SCANLAB_LABS_ROOT}/common/simt/include")
        target_link_libraries(scanlab_worker_wire_cuda PUBLIC CUDA::cudart ${CMAKE_DL_LIBS})
        target_compile_features(scanlab_worker_wire_cuda PUBLIC cxx_std_20)
    endif()
    if(backend STREQUAL "simt" AND NOT TARGET scanlab_worker_test AND TARGET doctest::doctest)
        # The byte format and the emulator's side of shipping memory (tests/grader/test_worker.py).
        add_executable(scanlab_worker_test "${dir}/worker_test.cpp")
        target_link_libraries(scanlab_worker_test PRIVATE scanlab_worker_wire simt_core
                              doctest::doctest)
    endif()
    if(backend STREQUAL "simt")
        set(wire scanlab_worker_wire)
    else()
        set(wire scanlab_worker_wire_cuda)
    endif()
    file(GLOB descriptors LIST_DIRECTORIES false "${descriptor_dir}/lab[0-9][0-9].cpp")
    foreach(descriptor IN LISTS descriptors)
        get_filename_component(name "${descriptor}" NAME)
        string(SUBSTRING "${name}" 3 2 number)
        set(objects lab${number}_test_objects_${backend})
        set(student lab${number}_student_${backend})
        if(NOT TARGET ${objects} OR NOT TARGET ${student})
            continue()
        endif()
        get_target_property(folder ${objects} SCANLAB_LAB_FOLDER)
        set(interface_dir "${SCANLAB_LABS_ROOT}/labs/${folder}")
        # A lab whose tests record launches (lab 03 on simt) gets the trace recorder in both
        # programs, and the worker records each call's launches for the harness
        # (remote_tracing.h). On cuda nothing records launches.
        set(core_only ON)
        if(backend STREQUAL "simt" AND TARGET lab${number}_tests_student_simt)
            get_target_property(core_only lab${number}_tests_student_simt SIMT_CORE_ONLY)
        endif()
        if(core_only)
            set(core_only ON)
            set(runtime simt_core)
        else()
            set(core_only OFF)
            set(runtime simt_runtime)
        endif()
        if(backend STREQUAL "cuda")
            set(runtime "") # the CUDA runtime comes with the test objects and the wire library
        endif()

        _scanlab_worker_shared_objects(${backend} ${core_only} ${wire} "${runtime}"
                                       harness_shared worker_shared)

        set(harness lab${number}_harness_${backend})
        add_executable(${harness} "${descriptor}")
        target_compile_definitions(${harness} PRIVATE SCANLAB_REMOTE_HARNESS)
        target_include_directories(${harness} PRIVATE "${interface_dir}"
                                   "${SCANLAB_LABS_ROOT}/tests/support" "${descriptor_dir}")
        if(backend STREQUAL "simt")
            target_include_directories(${harness} PRIVATE "${simt_src}")
        endif()
        target_link_libraries(${harness} PRIVATE ${harness_shared} ${objects}
                              scanlab_test_main_${backend} ${wire} ${runtime})
        if(backend STREQUAL "simt")
            set_target_properties(${harness} PROPERTIES SIMT_CORE_ONLY ${core_only})
        endif()

        set(worker_objects lab${number}_worker_objects_${backend})
        add_library(${worker_objects} OBJECT "${descriptor}")
        target_compile_definitions(${worker_objects} PRIVATE SCANLAB_REMOTE_WORKER)
        target_include_directories(${worker_objects} PRIVATE "${interface_dir}"
                                   "${descriptor_dir}")
        _scanlab_worker_side_links(${worker_objects} ${backend} ${core_only} ${wire})
        # Everything of the worker but the student's code, which the grader builds outside the
        # sandbox: the worker's link in the submission's private folder reads it.
        add_custom_target(lab${number}_worker_support_${backend})
        add_dependencies(lab${number}_worker_support_${backend} ${worker_objects} ${worker_shared})

        set(worker lab${number}_worker_${backend})
        add_executable(${worker})
        target_link_libraries(${worker} PRIVATE ${worker_objects} ${worker_shared} ${student})
        if(backend STREQUAL "simt")
            set_target_properties(${worker} PROPERTIES SIMT_CORE_ONLY ${core_only})
        endif()
        if(TARGET lab${number}_solution_${backend}) # the reference solution's worker, for checks
            set(worker lab${number}_worker_solution_${backend})
            add_executable(${worker})
            target_link_libraries(${worker} PRIVATE ${worker_objects} ${worker_shared}
                                  lab${number}_solution_${backend})
            if(backend STREQUAL "simt")
                set_target_properties(${worker} PROPERTIES SIMT_CORE_ONLY ${core_only})
            endif()
        endif()
    endforeach()
endfunction()

# The files of the two programs that are the same for every lab (the harness's worker client, the
# worker's server and its doctest, the list of labs; none includes a lab's header): compiled once
# per backend, into
#   scanlab_harness_objects_<B>   linked by every lab's harness
#   scanlab_worker_objects_<B>    linked by every lab's worker (no student code: built outside the
#                                 sandbox, like the lab's own lab<NN>_worker_objects_<B>)
# and the shipping of traces, the one file that differs with the trace setting (remote_tracing.cpp
# where the lab records launches, remote_tracing_off.cpp where it does not), into
#   scanlab_harness_objects_<B>_<core|traced>, scanlab_worker_objects_<B>_<core|traced>
# The lab-independent files are compiled with the core setting's flags: the traced setting only
# adds the trace library's include folder, which none of them reads (they compile without it),
# so one compile serves both (it was one per setting). Their names in out_harness and
# out_worker, two targets each. Flags as the lab's targets' own, less its folder.
function(_scanlab_worker_shared_objects backend core_only wire runtime out_harness out_worker)
    set(dir "${_SCANLAB_WORKER_DIR}")
    set(descriptor_dir "${dir}/../lab_descriptors")
    if(core_only)
        set(variant core)
        set(tracing "${dir}/remote_tracing_off.cpp")
    else()
        set(variant traced)
        set(tracing "${dir}/remote_tracing.cpp")
    endif()
    set(harness_common scanlab_harness_objects_${backend})
    set(worker_common scanlab_worker_objects_${backend})
    set(harness scanlab_harness_objects_${backend}_${variant})
    set(worker scanlab_worker_objects_${backend}_${variant})
    set(${out_harness} ${harness_common} ${harness} PARENT_SCOPE)
    set(${out_worker} ${worker_common} ${worker} PARENT_SCOPE)

    if(NOT TARGET ${harness_common})
        # The runtime a core-only lab links (the common files compile the same with either).
        set(core_runtime "")
        if(backend STREQUAL "simt")
            set(core_runtime simt_core)
        endif()
        add_library(${harness_common} OBJECT "${dir}/harness_client.cpp"
                                             "${descriptor_dir}/lab_registry.cpp")
        _scanlab_harness_side_links(${harness_common} ${backend} ON ${wire} "${core_runtime}")
        add_library(${worker_common} OBJECT "${dir}/worker_main.cpp" "${dir}/worker_registry.cpp"
                                            "${dir}/doctest_in_worker.cpp"
                                            "${descriptor_dir}/lab_registry.cpp")
        target_compile_definitions(${worker_common} PRIVATE SCANLAB_REMOTE_WORKER)
        target_include_directories(${worker_common} PRIVATE "${descriptor_dir}")
        _scanlab_worker_side_links(${worker_common} ${backend} ON ${wire})
    endif()
    if(TARGET ${harness})
        return()
    endif()
    add_library(${harness} OBJECT "${tracing}")
    _scanlab_harness_side_links(${harness} ${backend} ${core_only} ${wire} "${runtime}")
    add_library(${worker} OBJECT "${tracing}")
    target_compile_definitions(${worker} PRIVATE SCANLAB_REMOTE_WORKER)
    target_include_directories(${worker} PRIVATE "${descriptor_dir}")
    _scanlab_worker_side_links(${worker} ${backend} ${core_only} ${wire})
endfunction()

# What the harness's shared objects get: what the harness's files got from the lab's test
# objects (tests/labs/CMakeLists.txt), then from the wire and the runtime: the same flags in the
# same order.
function(_scanlab_harness_side_links target backend core_only wire runtime)
    set(descriptor_dir "${_SCANLAB_WORKER_DIR}/../lab_descriptors")
    target_compile_definitions(${target} PRIVATE SCANLAB_REMOTE_HARNESS)
    target_include_directories(${target} PRIVATE "${SCANLAB_LABS_ROOT}/tests/support"
                                                 "${descriptor_dir}")
    if(backend STREQUAL "simt")
        target_include_directories(${target} PRIVATE "${SCANLAB_LABS_ROOT}/common/simt/src")
    endif()
    target_link_libraries(${target} PRIVATE scanlab_api doctest::doctest)
    scanlab_link_backend(${target} PRIVATE ${backend})
    if(NOT core_only)
        target_link_libraries(${target} PRIVATE scanlab_trace)
    endif()
    target_link_libraries(${target} PRIVATE ${wire} ${runtime})
endfunction()

# What every object library of the worker's side gets (a lab's lab<NN>_worker_objects_<B> and
# the shared scanlab_worker_objects_<B>_<variant>): the wire, the test support's interface and
# doctest, the backend (the emulator's private headers, or the CUDA runtime), and the trace
# library where the lab's launches are recorded. One place, so that the two stay the same flags.
function(_scanlab_worker_side_links target backend core_only wire)
    target_link_libraries(${target} PUBLIC ${wire} scanlab_api doctest::doctest)
    if(backend STREQUAL "simt")
        target_include_directories(${target} PRIVATE "${SCANLAB_LABS_ROOT}/common/simt/src")
    else()
        scanlab_link_backend(${target} PUBLIC cuda)
    endif()
    if(NOT core_only)
        target_link_libraries(${target} PUBLIC scanlab_trace)
    endif()
endfunction()
