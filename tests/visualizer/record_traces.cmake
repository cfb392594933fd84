# Records the traces the visualizer tests open, from the example programs in visualizer/examples:
#   cmake -DOUT=<dir> -DHILLIS_STEELE=<exe> -DBLELLOCH=<exe> -DLOOKBACK=<exe> -DWARP_SCAN=<exe>
#         [-DLAB_TRACER=<scanlab_trace_solution>] [-DLAB08_MISTAKES=tag=<tracer>;...]
#         -P record_traces.cmake
# Each launch of a program is written to NAME.trace.json, NAME.trace.1.json, ...
# With LAB_TRACER, lab 09's sort on random keys too (lab09.trace.2.json to .5.json: its passes),
# and lab 08's scan of a random number of random elements (lab08.trace.json, blocks 0 and 1).
# With LAB08_MISTAKES, each broken lab 08 tracer's recording (lab08_<tag>.trace.json): the
# program must fail (its findings, or a deadlock or fault that ended the launch) and still write
# the trace.
foreach(var OUT HILLIS_STEELE BLELLOCH LOOKBACK WARP_SCAN)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "record_traces.cmake: -D${var}=... is missing")
    endif()
endforeach()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

function(record name program)
    execute_process(
        COMMAND ${CMAKE_COMMAND} -E env SIMT_TRACE=${OUT}/${name}.trace.json ${ARGN} ${program}
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "recording ${name} failed (${result}):\n${output}")
    endif()
    message(STATUS "${name}: ${output}")
endfunction()

record(hillis_steele_16 ${HILLIS_STEELE})
record(blelloch_256 ${BLELLOCH}) # .trace.json unpadded, .trace.1.json padded
record(lookback_scan ${LOOKBACK} SIMT_TRACE_BLOCKS=all)
record(warp_scan ${WARP_SCAN}) # shuffles only: the register dataflow of two warp scans
# Static tile ids and shuffled dispatch: blocks spin on earlier tiles' X flags. Only every other
# block is recorded (recording all of them trips an emulator limitation, docs/visualizer.md).
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env SIMT_TRACE=${OUT}/lookback_spin.trace.json
            SIMT_TRACE_BLOCKS=0,2,4,6 SIMT_DISPATCH=shuffled ${LOOKBACK} 8 static
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "recording lookback_spin failed (${result}):\n${output}")
endif()
# A look-back that double counts (the example's `double-count` mistake): no finding, wrong values.
# The program checks its own output and must say it is wrong (exit status 1).
execute_process(
    COMMAND ${CMAKE_COMMAND} -E env SIMT_TRACE=${OUT}/lookback_double.trace.json
            SIMT_TRACE_BLOCKS=all ${LOOKBACK} 8 double-count
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 1 OR NOT output MATCHES "lookback_scan: out\\[")
    message(FATAL_ERROR "recording lookback_double: expected wrong output (exit 1), got "
                        "${result}:\n${output}")
endif()

# Lab 09's sort of 3 tiles of random keys, every block, blocks started in shuffled order (so that
# a block's tile differs from its index): the radix view's model is checked against it. The seed
# is new each run and printed; lab09.seed keeps it for the test's messages.
if(DEFINED LAB_TRACER)
    string(RANDOM LENGTH 8 ALPHABET 123456789 seed)
    file(WRITE ${OUT}/lab09.seed "${seed}")
    message(STATUS "lab09: --seed ${seed}")
    execute_process(
        COMMAND ${LAB_TRACER} 09 --blocks all --seed ${seed} --simt-dispatch=shuffled
                --simt-seed=${seed} --out ${OUT}/lab09.trace.json
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "recording lab09 (seed ${seed}) failed (${result}):\n${output}")
    endif()
    # Cut short: the passes' traces end before some blocks' scatter.
    execute_process(
        COMMAND ${LAB_TRACER} 09 --blocks all --seed ${seed} --max-instructions 3000
                --out ${OUT}/lab09_cut.trace.json
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "recording lab09_cut (seed ${seed}) failed (${result}):\n${output}")
    endif()
    # Lab 08: n between 20000 and 29999 elements (a partial last tile most of the time), blocks
    # 0 and 1 recorded; the pipeline view's model is checked against it. lab08.n keeps n.
    string(RANDOM LENGTH 4 ALPHABET 0123456789 digits)
    math(EXPR n "20000 + 1${digits} - 10000")
    file(WRITE ${OUT}/lab08.n "${n}")
    message(STATUS "lab08: --seed ${seed} --n ${n}")
    execute_process(
        COMMAND ${LAB_TRACER} 08 --blocks 0,1 --seed ${seed} --n ${n} --simt-seed=${seed}
                --out ${OUT}/lab08.trace.json
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 0)
        message(FATAL_ERROR "recording lab08 (seed ${seed}, n ${n}) failed (${result}):\n${output}")
    endif()
endif()

# Broken lab 08 attempts (visualizer/CMakeLists.txt builds a tracer per mistake of the catalog):
# a new seed each run, default n (ten tiles), block 0. Each must report its mistake (exit status
# 1) and still write its trace.
foreach(entry IN LISTS LAB08_MISTAKES)
    string(REGEX REPLACE "=.*" "" tag "${entry}")
    string(REGEX REPLACE "^[^=]*=" "" tracer "${entry}")
    string(RANDOM LENGTH 8 ALPHABET 123456789 mistake_seed)
    message(STATUS "lab08_${tag}: --seed ${mistake_seed}")
    execute_process(
        COMMAND ${tracer} 08 --seed ${mistake_seed} --out ${OUT}/lab08_${tag}.trace.json
        RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
    if(NOT result EQUAL 1 OR NOT EXISTS ${OUT}/lab08_${tag}.trace.json)
        message(FATAL_ERROR "recording lab08_${tag} (seed ${mistake_seed}): expected its findings "
                            "(exit 1) and a trace, got ${result}:\n${output}")
    endif()
endforeach()
