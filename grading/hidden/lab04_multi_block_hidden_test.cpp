// Hidden tests for lab 04 (instructor-only: not in the handout). The grader compiles this file
// into lab04's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, block sizes and operators that the visible tests do not name.
#include "multi_block_scan.h"

#include "scan_test_support.h"
#include "size_sweep.h"

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

namespace {

enum class Variant { scan_then_propagate, reduce_then_scan };

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
bool check_sizes(Variant variant, int block_threads, const std::vector<int>& sizes, ScanKind kind) {
    const bool stp = variant == Variant::scan_then_propagate;
    const std::string what =
        std::string(stp ? "lab04::scan_then_propagate" : "lab04::reduce_then_scan") +
        " (block_threads=" + std::to_string(block_threads) + ")";
    const auto result = scanlab::test::first_failing_size(sizes, [&](int n) {
        return scanlab::test::run_device_scan<Op>(
            what, n, kind,
            [&](const typename Op::value_type* in, typename Op::value_type* out, int size,
                ScanKind k) {
                if (stp)
                    lab04::scan_then_propagate<Op>(in, out, size, k, block_threads);
                else
                    lab04::reduce_then_scan<Op>(in, out, size, k, block_threads);
            });
    });
    if (!result.ok) FAIL_CHECK(result.message);
    return result.ok;
}

/// Sizes around one, two and a tile's worth of tiles of 2 * threads elements.
std::vector<int> around_tiles(int threads) {
    const int tile = 2 * threads;
    return {1,           tile - 1,       tile, tile + 1, 2 * tile, 2 * tile + 1, tile * tile - 1,
            tile * tile, tile * tile + 1};
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around whole tiles, both variants, int32 sums and int64 minima") {
        for (const Variant variant : {Variant::scan_then_propagate, Variant::reduce_then_scan}) {
            if (!check_sizes<Sum<std::int32_t>>(variant, 64, around_tiles(64), ScanKind::inclusive))
                return;
            if (!check_sizes<Min<std::int64_t>>(variant, 32, around_tiles(32), ScanKind::exclusive))
                return;
        }
    }

    TEST_CASE("hidden: non-commutative operator over two levels at block sizes 128 and 256") {
        for (const Variant variant : {Variant::scan_then_propagate, Variant::reduce_then_scan}) {
            if (!check_sizes<Affine<std::int64_t>>(variant, 128, {256 * 256 + 77},
                                                   ScanKind::exclusive))
                return;
            if (!check_sizes<Affine<std::uint32_t>>(variant, 256, {512 * 3 + 511},
                                                    ScanKind::inclusive))
                return;
        }
    }

    TEST_CASE("hidden: products and maxima of floating point, default block size") {
        for (const Variant variant : {Variant::scan_then_propagate, Variant::reduce_then_scan}) {
            if (!check_sizes<Product<double>>(variant, lab04::kDefaultBlockThreads, {3000, 5121},
                                              ScanKind::inclusive))
                return;
            if (!check_sizes<Max<float>>(variant, lab04::kDefaultBlockThreads, {1025, 9999},
                                         ScanKind::exclusive))
                return;
        }
    }

} // TEST_SUITE("hidden")
