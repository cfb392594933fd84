# Simt.cmake: build CUDA sources (.cu) with the host C++ compiler on the simt emulator.
#
#   include(cmake/Simt.cmake)
#   simt_add_executable(hello hello.cu main.cpp)
#   simt_target_cuda_sources(mylib PRIVATE kernels.cu)
#
# Each .cu goes through simt-rewrite (common/simt/rewrite) into
# ${CMAKE_CURRENT_BINARY_DIR}/simt_gen/<target>/<name>.<hash>.cu.cpp, which is compiled with the
# flags below and linked with simt_runtime. The targets simt-rewrite and simt_runtime must exist
# by the end of the configure step (common/simt/CMakeLists.txt defines them). The build tree also
# gets bin/simtcc, the nvcc-like driver (tools/simtcc.in). See docs/simtcc.md.
include_guard(GLOBAL)

# The emulator's source directory (common/simt), found from this file's own location.
get_filename_component(SIMT_ROOT "${CMAKE_CURRENT_LIST_DIR}/../common/simt" ABSOLUTE)
get_filename_component(_simt_repo "${CMAKE_CURRENT_LIST_DIR}/.." ABSOLUTE)
set(SIMT_COMPAT_DIR "${SIMT_ROOT}/compat")
set(SIMT_INCLUDE_DIR "${SIMT_ROOT}/include")
# Functions run in the caller's scope, where these variables may not be visible.
set_property(GLOBAL PROPERTY SIMT_ROOT "${SIMT_ROOT}")
set_property(GLOBAL PROPERTY SIMT_REPO "${_simt_repo}")

set(SIMTCC_EXTRA_LINK_LIBS "scanlab_trace" CACHE STRING
    "What bin/simtcc links after simt_runtime and -lboost_context: targets (their files are used) or linker flags")

# The compiler-inserted access hooks: the emulator sees every load and store through the
# __tsan_* calls that -fsanitize=thread inserts; its runtime defines them, so libtsan is never
# linked (these are compile options only). Function entry/exit hooks are noise; volatile
# accesses get their own hooks so the emulator can tell them apart.
function(_simt_tsan_flags_of family out)
    # -fstack-clash-protection: a frame larger than the rest of the stack probes page by page,
    # so an overflow touches the stack's guard page first and is reported (stack_guard.cpp).
    # Function entry and exit hooks: the call sites a thread is in, for lockstep's code order
    # (common/simt/src/code_order.h).
    if(family STREQUAL "GNU")
        set(${out} -fsanitize=thread --param=tsan-instrument-func-entry-exit=1
                   --param=tsan-distinguish-volatile=1 -fstack-clash-protection PARENT_SCOPE)
    else()
        # Clang spells the same settings as LLVM options after "-mllvm" (clang 16 knows no
        # joined "-mllvm=X"). These flags go only into a source file's COMPILE_OPTIONS, which
        # CMake does not de-duplicate, so the repeated "-mllvm" survives; never put them into a
        # target's options, where the second "-mllvm" would be merged away. Clang leaves out
        # the load of `a[i] += x` (a read before a write of the same word) unless told not to;
        # the emulator must see it, as GCC shows it: traces count it, and it may race.
        set(${out} -fsanitize=thread -mllvm -tsan-instrument-func-entry-exit=1
                   -mllvm -tsan-distinguish-volatile=1 -mllvm -tsan-instrument-read-before-write=1
                   -fstack-clash-protection PARENT_SCOPE)
    endif()
endfunction()

# The flags for the C++ compiler CMake found: GCC, or Clang 16 or later (tested: 16 and 19).
function(_simt_tsan_flags out)
    if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
        _simt_tsan_flags_of(GNU flags)
    elseif(CMAKE_CXX_COMPILER_ID STREQUAL "Clang" AND CMAKE_CXX_COMPILER_VERSION VERSION_GREATER_EQUAL 16)
        _simt_tsan_flags_of(Clang flags)
    else()
        message(FATAL_ERROR "simt: the emulator backend needs GCC or Clang 16 or later as the C++ "
                            "compiler, not ${CMAKE_CXX_COMPILER_ID} ${CMAKE_CXX_COMPILER_VERSION}")
    endif()
    set(${out} ${flags} PARENT_SCOPE)
endfunction()

# simt_target_cuda_sources(<target> <PRIVATE|PUBLIC|INTERFACE> files...)
# .cu files are rewritten and compiled for the emulator; other files are added unchanged.
# The files are compiled into <target> itself (INTERFACE only for an interface library, whose
# consumers compile them): PUBLIC sources would be compiled again in every consumer. The scope
# is that of the usage requirements: the runtime (simt_runtime, or simt_core where the program
# sets SIMT_CORE_ONLY: common/simt/CMakeLists.txt) and C++20. Call it in the directory that
# created <target> (custom command outputs and source properties are per directory); the
# target must use the keyword form of target_link_libraries elsewhere too. The target's
# SIMT_DEBUG_LEVEL property (1 or 2; 2 where unset) sets the debug info of the .cu files.
function(simt_target_cuda_sources target scope)
    if(NOT scope MATCHES "^(PRIVATE|PUBLIC|INTERFACE)$")
        message(FATAL_ERROR "simt_target_cuda_sources(${target} ${scope} ...): the second "
                            "argument must be PRIVATE, PUBLIC or INTERFACE")
    endif()
    if(NOT TARGET ${target})
        message(FATAL_ERROR "simt_target_cuda_sources: no target named '${target}'")
    endif()
    get_target_property(target_dir ${target} SOURCE_DIR)
    if(NOT target_dir STREQUAL CMAKE_CURRENT_SOURCE_DIR)
        message(FATAL_ERROR "simt_target_cuda_sources(${target} ...) must be called in "
                            "${target_dir}, where the target was created")
    endif()
    get_property(root GLOBAL PROPERTY SIMT_ROOT)
    _simt_tsan_flags(tsan_flags)
    set(source_scope PRIVATE)
    if(scope STREQUAL "INTERFACE")
        set(source_scope INTERFACE)
    endif()

    set(has_cu FALSE)
    foreach(file IN LISTS ARGN)
        get_filename_component(abs "${file}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
        get_filename_component(ext "${abs}" LAST_EXT)
        if(NOT ext STREQUAL ".cu")
            target_sources(${target} ${source_scope} "${abs}")
            continue()
        endif()
        set(has_cu TRUE)

        # Readable and unique per target and source path, even for two a.cu in different dirs.
        get_filename_component(stem "${abs}" NAME_WE)
        string(MD5 hash "${abs}")
        string(SUBSTRING "${hash}" 0 8 hash)
        set(gen "${CMAKE_CURRENT_BINARY_DIR}/simt_gen/${target}/${stem}.${hash}.cu.cpp")
        file(RELATIVE_PATH shown "${CMAKE_SOURCE_DIR}" "${abs}")
        # The rewriter also rewrites the headers the .cu includes with #include "x.cuh" (found
        # next to their includer) into ${gen}.headers/; its depfile lists them, so editing a
        # header reruns the rewrite.
        # The target's include directories go along: a header found there that holds __shared__
        # (or <<<, __constant__, __managed__) is rewritten too.
        set(incs "$<TARGET_PROPERTY:${target},INCLUDE_DIRECTORIES>")
        set(level "$<TARGET_PROPERTY:${target},SIMT_DEBUG_LEVEL>")
        set(debug_level "-g$<IF:$<BOOL:${level}>,${level},2>")
        add_custom_command(
            OUTPUT "${gen}"
            COMMAND $<TARGET_FILE:simt-rewrite> "${abs}" -o "${gen}" --depfile "${gen}.d"
                    "$<$<BOOL:${incs}>:-I$<JOIN:${incs},;-I>>"
            DEPENDS "${abs}" simt-rewrite
            DEPFILE "${gen}.d"
            COMMENT "simt-rewrite ${shown}"
            COMMAND_EXPAND_LISTS
            VERBATIM)

        get_filename_component(cu_dir "${abs}" DIRECTORY)
        # The generated file lives in the build tree: -iquote keeps #include "x.cuh" relative
        # to the original .cu (#line only changes what diagnostics print). Options are in their
        # joined one-word forms: the source property knows no SHELL:, and a lone word such as
        # "-include" could be merged away by CMake's option de-duplication.
        set_source_files_properties("${gen}" PROPERTIES
            GENERATED TRUE
            INCLUDE_DIRECTORIES "${root}/compat;${root}/include"
            # DWARF 4: with DWARF 5, binutils 2.40 addr2line ignores #line and names the
            # generated file in reports instead of the student's .cu. The level after it (GCC's
            # -gdwarf-4 alone means level 2): the target's SIMT_DEBUG_LEVEL, 2 where unset; 1
            # keeps what the reports read (line tables, inlined calls, function names) and drops
            # the variables, which saves a fifth of a lab file's compile. No sibling calls: the
            # runtime finds a call site by its return address, which a tail call would lose.
            COMPILE_OPTIONS "-xc++;-includecuda_runtime.h;-iquote${cu_dir};${tsan_flags};-gdwarf-4;${debug_level};-fno-optimize-sibling-calls")
        target_sources(${target} ${source_scope} "${gen}")
    endforeach()

    if(has_cu)
        # At least C++20 (the runtime's headers need it), without lowering a newer choice.
        target_compile_features(${target} ${scope} cxx_std_20)
        # simt_runtime, or simt_core for a program whose SIMT_CORE_ONLY property is set.
        target_link_libraries(${target} ${scope} simt_runtime_of_program)
    endif()
endfunction()

# simt_add_executable(<name> files...): add_executable + simt_target_cuda_sources.
function(simt_add_executable name)
    add_executable(${name})
    simt_target_cuda_sources(${name} PRIVATE ${ARGN})
endfunction()

# bin/simtcc, written at generate time because it names the built rewriter and runtime
# library. Deferred to the end of the top-level configure so the targets exist by then.
function(_simt_generate_simtcc)
    if(NOT TARGET simt-rewrite OR NOT TARGET simt_runtime)
        message(STATUS "simt: no simt-rewrite/simt_runtime targets; bin/simtcc not generated")
        return()
    endif()
    get_property(root GLOBAL PROPERTY SIMT_ROOT)
    get_property(repo GLOBAL PROPERTY SIMT_REPO)
    _simt_tsan_flags(tsan_flags)

    set(SIMT_REWRITE "$<TARGET_FILE:simt-rewrite>")
    set(SIMT_RUNTIME_LIB "$<TARGET_FILE:simt_runtime>")
    set(SIMT_COMPAT_DIR "${root}/compat")
    set(SIMT_INCLUDE_DIR "${root}/include")
    set(SIMT_CXX "${CMAKE_CXX_COMPILER}")
    set(SIMT_CXX_FAMILY "${CMAKE_CXX_COMPILER_ID}")
    # Both spellings, so that SIMTCC_CXX may name the other compiler.
    _simt_tsan_flags_of(GNU gnu_flags)
    _simt_tsan_flags_of(Clang clang_flags)
    string(JOIN " " SIMT_GNU_TSAN_FLAGS ${gnu_flags})
    string(JOIN " " SIMT_CLANG_TSAN_FLAGS ${clang_flags})
    # The standard library the runtime was built with (-stdlib=libc++ in CMAKE_CXX_FLAGS): what
    # simtcc compiles and links must use the same one.
    string(REGEX MATCHALL "-stdlib=[^ ]+" SIMT_STDLIB_FLAGS "${CMAKE_CXX_FLAGS}")
    string(JOIN " " SIMT_STDLIB_FLAGS ${SIMT_STDLIB_FLAGS})
    set(extra "")
    foreach(lib IN LISTS CMAKE_DL_LIBS) # simt_runtime links these too
        list(APPEND extra "-l${lib}")
    endforeach()
    foreach(item IN LISTS SIMTCC_EXTRA_LINK_LIBS)
        if(TARGET ${item})
            list(APPEND extra "$<TARGET_LINKER_FILE:${item}>")
        else()
            list(APPEND extra "${item}")
        endif()
    endforeach()
    string(JOIN " " SIMT_EXTRA_LINK ${extra})

    set(staged "${CMAKE_BINARY_DIR}/simt/simtcc.in")
    configure_file("${repo}/tools/simtcc.in" "${staged}" @ONLY)
    get_property(multi_config GLOBAL PROPERTY GENERATOR_IS_MULTI_CONFIG)
    if(multi_config)
        set(out "${CMAKE_BINARY_DIR}/bin/$<CONFIG>/simtcc")
    else()
        set(out "${CMAKE_BINARY_DIR}/bin/simtcc")
    endif()
    file(GENERATE OUTPUT "${out}" INPUT "${staged}"
         FILE_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                          WORLD_READ WORLD_EXECUTE)
endfunction()
cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _simt_generate_simtcc)
