// doctest's implementation without a main(): a student's own TEST_CASEs in the lab's files (not
// graded; docs/how-you-are-graded.md) still link into the worker, as they do into the test
// program, and are never run there.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>
