# A lesson's quoted code must be the code that is built and tested. Usage:
#   cmake -DLESSON=<README.md> -DSOURCE=<file> -DNAME=<quote name> -P check_quote.cmake
# In SOURCE the quote is the lines between "// lesson: NAME" and "// end lesson"; in LESSON it is
# the fenced block that follows the line "<!-- quote: NAME -->". They must be equal.
foreach(var LESSON SOURCE NAME)
    if(NOT DEFINED ${var})
        message(FATAL_ERROR "check_quote.cmake needs -D${var}=...")
    endif()
endforeach()

file(STRINGS "${SOURCE}" source_lines)
set(in_quote FALSE)
set(expected "")
foreach(line IN LISTS source_lines)
    if(line STREQUAL "// end lesson")
        set(in_quote FALSE)
    endif()
    if(in_quote)
        string(APPEND expected "${line}\n")
    endif()
    if(line STREQUAL "// lesson: ${NAME}")
        set(in_quote TRUE)
    endif()
endforeach()
if(expected STREQUAL "")
    message(FATAL_ERROR "${SOURCE} has no '// lesson: ${NAME}' ... '// end lesson' block")
endif()

file(READ "${LESSON}" lesson)
string(FIND "${lesson}" "<!-- quote: ${NAME} -->" at)
if(at EQUAL -1)
    message(FATAL_ERROR "${LESSON} has no '<!-- quote: ${NAME} -->' marker")
endif()
string(SUBSTRING "${lesson}" ${at} -1 rest)
string(FIND "${rest}" "```cpp\n" open)
if(open EQUAL -1)
    message(FATAL_ERROR "${LESSON}: no ```cpp block after the '${NAME}' marker")
endif()
math(EXPR open "${open} + 7")
string(SUBSTRING "${rest}" ${open} -1 rest)
string(FIND "${rest}" "```" close)
string(SUBSTRING "${rest}" 0 ${close} quoted)

if(NOT quoted STREQUAL expected)
    message(FATAL_ERROR "the quote '${NAME}' in ${LESSON} differs from ${SOURCE}: copy the "
                        "block between '// lesson: ${NAME}' and '// end lesson' into the lesson.\n"
                        "--- source:\n${expected}--- lesson:\n${quoted}")
endif()
message(STATUS "quote '${NAME}' in ${LESSON} matches ${SOURCE}")
