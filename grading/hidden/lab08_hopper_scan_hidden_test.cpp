// Hidden tests for lab 08 (instructor-only: not in the handout). The grader compiles this file
// into lab08's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, operators and aliasing that the visible tests do not name.
#include "hopper_scan.h"

#include "lab08_scan_check.h"

#include <doctest/doctest.h>

#include <scanlab/operators.h>

#include <cstdint>

using lab08::DefaultShape;
using lab08::SmallShape;
using scanlab::Affine;
using scanlab::Max;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::lab08_scan::check_sizes;
using scanlab::test::lab08_scan::kTile;

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around two, seven and a hundred tiles") {
        constexpr int kSmall = kTile<SmallShape, std::uint32_t>;
        if (!check_sizes<Max<std::uint32_t>, SmallShape>(
                ScanKind::exclusive, {2 * kSmall - 1, 7 * kSmall + 255, 100 * kSmall - 3}))
            return;
        constexpr int kDefault = kTile<DefaultShape, double>;
        (void)check_sizes<Sum<double>>(ScanKind::inclusive, {2 * kDefault - 1, 3 * kDefault + 17});
    }

    TEST_CASE("hidden: in place, every stage refilled many times") {
        if (!check_sizes<Affine<std::uint32_t>, SmallShape>(ScanKind::inclusive, {64 * 256 + 1},
                                                            true))
            return;
        (void)check_sizes<Max<std::int64_t>, SmallShape>(ScanKind::exclusive, {33 * 128}, true);
    }

    TEST_CASE("hidden: one workspace for every type and both shapes") {
        lab08::Workspace workspace;
        if (!check_sizes<Sum<float>, SmallShape>(ScanKind::inclusive, {9 * 256 + 3}, false,
                                                 &workspace))
            return;
        if (!check_sizes<Affine<std::int32_t>>(ScanKind::exclusive, {7}, false, &workspace)) return;
        (void)check_sizes<Sum<std::int64_t>, SmallShape>(ScanKind::inclusive, {21 * 128 + 2}, false,
                                                         &workspace);
    }
}
