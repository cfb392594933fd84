// doctest's implementation, compiled once: the graded tests' main (in its unity file) and the
// scanlab_doctest library that the other test programs link (tests/support/CMakeLists.txt).
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
