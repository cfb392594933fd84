# The tracer and findings: a clean lab kernel is recorded with "findings: none" and exit status 0;
# a racy kernel's trace (recorded by RACY with SIMT_TRACE) is summarized with its finding.
#   cmake -DOUT=<dir> -DTRACER=<scanlab_trace_solution> -DRACY=<racy_scan> -P tracer_findings.cmake
foreach(var OUT TRACER RACY)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "tracer_findings.cmake: -D${var}=... is missing")
    endif()
endforeach()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

execute_process(COMMAND ${TRACER} 01 --n 16 --out ${OUT}/clean.trace.json
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0 OR NOT output MATCHES "findings: none")
    message(FATAL_ERROR "the clean lab 01 kernel: exit ${result}, expected 0 and no findings:\n${output}")
endif()

execute_process(COMMAND ${CMAKE_COMMAND} -E env SIMT_TRACE=${OUT}/racy.trace.json SIMT_QUIET=1 ${RACY}
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "the racy kernel did not fail with a launch failure (${result}):\n${output}")
endif()
execute_process(COMMAND ${TRACER} --summary ${OUT}/racy.trace.json
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT output MATCHES "finding 0: shared_race \\(instruction #[0-9]+, step [0-9]+\\)")
    message(FATAL_ERROR "the racy trace's summary does not show its race:\n${output}")
endif()
if(NOT output MATCHES "racy_scan.cu:19" OR output MATCHES "findings: none")
    message(FATAL_ERROR "the racy trace's summary does not name the racy line:\n${output}")
endif()
message(STATUS "${output}")
