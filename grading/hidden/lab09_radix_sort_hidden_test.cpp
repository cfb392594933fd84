// Hidden tests for lab 09 (instructor-only: not in the handout). The grader compiles this file
// into lab09's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, key sets and aliasing that the visible tests do not name.
#include "radix_sort.h"

#include "lab09_sort_check.h"

#include <doctest/doctest.h>

#include <cstdint>

using scanlab::test::lab09_sort::check_sorts;
using scanlab::test::lab09_sort::Keys;
using scanlab::test::lab09_sort::kTile;

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around two and five tiles, every key type") {
        for (const int n : {2 * kTile - 1, 2 * kTile, 5 * kTile + 1}) {
            if (!check_sorts<std::uint32_t>({n}, Keys::descending)) return;
            if (!check_sorts<std::int32_t>({n}, Keys::special)) return;
            if (!check_sorts<float>({n}, Keys::few_values)) return;
        }
    }

    TEST_CASE("hidden: pairs in place with skewed digits") {
        if (!check_sorts<std::int32_t>({3 * kTile + 100}, Keys::one_digit, true, true)) return;
        (void)check_sorts<float>({kTile + 17}, Keys::uniform, true, true);
    }

    TEST_CASE("hidden: one workspace for keys and pairs of every type") {
        lab09::Workspace workspace;
        if (!check_sorts<float>({4 * kTile + 3}, Keys::special, true, false, &workspace)) return;
        if (!check_sorts<std::uint32_t>({7}, Keys::uniform, false, false, &workspace)) return;
        (void)check_sorts<std::int32_t>({2 * kTile + 9}, Keys::few_values, false, true, &workspace);
    }
}
