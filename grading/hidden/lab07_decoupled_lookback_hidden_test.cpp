// Hidden tests for lab 07 (instructor-only: not in the handout). The grader compiles this file
// into lab07's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, operators, options and aliasing that the visible tests do not name.
#include "lookback_scan.h"

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
bool check_sizes(const std::vector<int>& sizes, ScanKind kind, lab07::LookbackOptions options,
                 ScanOutput output = ScanOutput::separate) {
    return scanlab::test::hidden::check_sizes<Op>(
        std::string("lab07::scan") + (Small ? "<64, 3>" : "") +
            (options.descriptors == lab07::Descriptors::separate ? " (separate descriptors)" : ""),
        sizes, kind,
        [&](const typename Op::value_type* in, typename Op::value_type* out, int size, ScanKind k) {
            if constexpr (Small)
                lab07::scan<Op, 64, 3>(in, out, size, k, options);
            else
                lab07::scan<Op>(in, out, size, k, options);
        },
        output);
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: sizes around whole tiles of 64 x 3, both descriptor layouts") {
        const std::vector<int> sizes = {1, 191, 192, 193, 385, 192 * 40 + 1};
        for (const auto descriptors : {lab07::Descriptors::packed, lab07::Descriptors::separate}) {
            const lab07::LookbackOptions options{lab07::TileIds::atomic_counter, descriptors};
            if (!check_sizes<Min<std::uint32_t>, true>(sizes, ScanKind::inclusive, options)) return;
            if (!check_sizes<Sum<std::int64_t>, true>(sizes, ScanKind::exclusive, options)) return;
        }
    }

    TEST_CASE("hidden: non-commutative operator in place, default tile shape") {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Affine<std::int64_t>, false>({2049, 3 * 2048 + 5}, kind, {},
                                                          ScanOutput::in_place))
                return;
            if (!check_sizes<Affine<std::int32_t>, true>({1000, 5001}, kind, {},
                                                         ScanOutput::in_place))
                return;
        }
    }

    TEST_CASE("hidden: products and maxima of floating point") {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Product<double>, true>({31, 1000}, kind, {})) return;
            if (!check_sizes<Max<float>, false>({4097, 12345}, kind, {})) return;
        }
    }

} // TEST_SUITE("hidden")
