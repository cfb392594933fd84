# The tracer records warp shuffles and the reference results: lab 05's solution (warp scans by
# __shfl_up_sync) gives a trace whose shuffles have the right source lanes and values
# (check_shuffles.py) and whose results match the host reference scan.
#   cmake -DOUT=<dir> -DTRACER=<scanlab_trace_solution> -DPYTHON=<python3> -P tracer_shuffles.cmake
foreach(var OUT TRACER PYTHON)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "tracer_shuffles.cmake: -D${var}=... is missing")
    endif()
endforeach()
file(REMOVE_RECURSE "${OUT}")
file(MAKE_DIRECTORY "${OUT}")

execute_process(COMMAND ${TRACER} 05 --n 1024 --out ${OUT}/lab05.trace.json
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0 OR NOT output MATCHES "results: the [0-9]+ elements the recorded blocks wrote match the host reference scan")
    message(FATAL_ERROR "lab 05's solution: exit ${result}, expected 0 and matching results:\n${output}")
endif()
execute_process(COMMAND ${PYTHON} ${CMAKE_CURRENT_LIST_DIR}/check_shuffles.py ${OUT}/lab05.trace.json
                RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT result EQUAL 0)
    message(FATAL_ERROR "lab 05's shuffles:\n${output}")
endif()
message(STATUS "${output}")
