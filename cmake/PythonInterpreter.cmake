# PythonInterpreter.cmake: the Python 3.11+ interpreter that the tests written in Python run with.
#
#   include(cmake/PythonInterpreter.cmake)
#   scanlab_find_python_interpreter()   # Python3_FOUND, and the target Python3::Interpreter
#
# What find_package(Python3 3.11 COMPONENTS Interpreter) gives those tests, for one run of the
# interpreter instead of about seven (FindPython also asks for its ABI flags, SOABI, copyright,
# ...): through a pyenv shim each run costs 0.2 s of CPU, and every first configure pays them.
include_guard(GLOBAL)

macro(scanlab_find_python_interpreter)
    if(NOT DEFINED Python3_FOUND)
        find_program(Python3_EXECUTABLE NAMES python3 python
                     DOC "The Python interpreter (3.11 or later) of the tests written in Python")
        set(Python3_FOUND FALSE)
        if(Python3_EXECUTABLE)
            execute_process(COMMAND "${Python3_EXECUTABLE}" -c
                                    "import sys; print('%d.%d.%d' % sys.version_info[:3])"
                            RESULT_VARIABLE _scanlab_python_status
                            OUTPUT_VARIABLE Python3_VERSION OUTPUT_STRIP_TRAILING_WHITESPACE
                            ERROR_QUIET)
            if(_scanlab_python_status EQUAL 0 AND Python3_VERSION VERSION_GREATER_EQUAL 3.11)
                set(Python3_FOUND TRUE)
                add_executable(Python3::Interpreter IMPORTED GLOBAL)
                set_target_properties(Python3::Interpreter PROPERTIES
                                      IMPORTED_LOCATION "${Python3_EXECUTABLE}")
                message(STATUS "Python: ${Python3_EXECUTABLE} ${Python3_VERSION}")
            else()
                message(STATUS "Python: ${Python3_EXECUTABLE} is not Python 3.11 or later "
                               "(${Python3_VERSION}): the tests written in Python are left out")
            endif()
        else()
            message(STATUS "Python: no python3 on the PATH: the tests written in Python are left out")
        endif()
    endif()
endmacro()
