// Hidden tests for lab 02 (instructor-only: not in the handout). The grader compiles this file
// into lab02's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes and operators that the visible tests do not name.
#include "work_efficient_scan.h"

#include "hidden_checks.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <vector>

using scanlab::Affine;
using scanlab::Max;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

constexpr const char* kWhat = "lab02::work_efficient_scan";

template <class Op>
bool check_sizes(const std::vector<int>& sizes, ScanKind kind) {
    return scanlab::test::hidden::check_sizes<Op>(kWhat, sizes, kind,
                                                  lab02::work_efficient_scan<Op>);
}

std::vector<int> around_powers_of_two() {
    return scanlab::test::hidden::around_powers_of_two(lab02::kMaxN);
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around every power of two, int32 sums and uint32 minima") {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Sum<std::int32_t>>(around_powers_of_two(), kind)) return;
            if (!check_sizes<Min<std::uint32_t>>(around_powers_of_two(), kind)) return;
        }
    }

    TEST_CASE("hidden: non-commutative operator at odd sizes") {
        const std::vector<int> sizes = {5, 19, 77, 301, 999, lab02::kMaxN - 3};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Affine<std::int32_t>>(sizes, kind)) return;
            if (!check_sizes<Affine<std::int64_t>>(sizes, kind)) return;
        }
    }

    TEST_CASE("hidden: products and maxima of floating point at the largest sizes") {
        const std::vector<int> sizes = {lab02::kMaxN - 1, lab02::kMaxN};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Product<double>>(sizes, kind)) return;
            if (!check_sizes<Max<float>>(sizes, kind)) return;
        }
    }

    TEST_CASE("hidden: nothing is written past n") {
        scanlab::test::hidden::check_nothing_written_past_n(
            kWhat, {1, 33, 1000, lab02::kMaxN - 1}, lab02::work_efficient_scan<Sum<std::int32_t>>);
    }

} // TEST_SUITE("hidden")
