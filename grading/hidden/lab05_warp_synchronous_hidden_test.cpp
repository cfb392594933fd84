// Hidden tests for lab 05 (instructor-only: not in the handout). The grader compiles this file
// into lab05's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, operators and aliasing that the visible tests do not name.
#include "warp_scan.h"

#include "hidden_checks.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::Max;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::ScanOutput;

namespace {

// Tile shape: default, or 64x3.
template <class Op, bool Small>
bool check_sizes(const std::vector<int>& sizes, ScanKind kind,
                 ScanOutput output = ScanOutput::separate) {
    return scanlab::test::hidden::check_sizes<Op>(
        std::string("lab05::scan") + (Small ? "<64, 3>" : ""), sizes, kind,
        [](const typename Op::value_type* in, typename Op::value_type* out, int size, ScanKind k) {
            if constexpr (Small)
                lab05::scan<Op, 64, 3>(in, out, size, k);
            else
                lab05::scan<Op>(in, out, size, k);
        },
        output);
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around whole tiles of 64 x 3, uint32 minima and int64 sums") {
        const std::vector<int> sizes = {1,   2,   63,  65,           191,         192,
                                        193, 384, 385, 192 * 64 - 1, 192 * 64 + 1};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Min<std::uint32_t>, true>(sizes, kind)) return;
            if (!check_sizes<Sum<std::int64_t>, true>(sizes, kind)) return;
        }
    }

    TEST_CASE("hidden: non-commutative operator in place, default tile shape") {
        // Tiles of 256 x 8 (64-bit) and 256 x 16 (32-bit) elements.
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Affine<std::int64_t>, false>({2049, 3 * 2048 + 5}, kind,
                                                          ScanOutput::in_place))
                return;
            if (!check_sizes<Affine<std::uint32_t>, false>({4095, 4097}, kind,
                                                           ScanOutput::in_place))
                return;
        }
    }

    TEST_CASE("hidden: products and maxima of floating point") {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Product<double>, true>({31, 1000}, kind)) return;
            if (!check_sizes<Max<float>, false>({4097, 12345}, kind)) return;
        }
    }

} // TEST_SUITE("hidden")
