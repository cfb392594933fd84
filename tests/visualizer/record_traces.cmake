# Records the traces the visualizer tests open, from the example programs in visualizer/examples:
#   cmake -DOUT=<dir> -DHILLIS_STEELE=<exe> -DBLELLOCH=<exe> -DLOOKBACK=<exe> -DWARP_SCAN=<exe>
#         -P record_traces.cmake
# Each launch of a program is written to NAME.trace.json, NAME.trace.1.json, ...
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
