// Hidden tests for lab 00 (instructor-only: not in the handout). The grader compiles this file
// into lab00's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes, operators and aliasing that the visible tests do not name.
#include "sequential_scan.h"

#include "scan_test_support.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
bool check_sizes(const std::vector<int>& sizes, ScanKind kind, bool in_place = false) {
    const auto result = scanlab::test::first_failing_size(sizes, [&](int n) {
        return scanlab::test::run_host_scan<Op>("lab00::sequential_scan", n, kind,
                                                lab00::sequential_scan<Op>, in_place);
    });
    if (!result.ok) FAIL_CHECK(result.message);
    return result.ok;
}

std::vector<int> sizes_up_to(int last) {
    std::vector<int> sizes;
    for (int n = 0; n <= last; ++n) sizes.push_back(n);
    return sizes;
}

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: every size from 0 to 300, int64 sums and uint32 minima") {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Sum<std::int64_t>>(sizes_up_to(300), kind)) return;
            if (!check_sizes<Min<std::uint32_t>>(sizes_up_to(300), kind)) return;
        }
    }

    TEST_CASE("hidden: non-commutative operator in place at odd sizes") {
        const std::vector<int> sizes = {3, 7, 99, 1001, 65537};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Affine<std::int64_t>>(sizes, kind, true)) return;
            if (!check_sizes<Affine<std::int32_t>>(sizes, kind, true)) return;
        }
    }

    TEST_CASE("hidden: products of floats in place") {
        const std::vector<int> sizes = {1, 2, 17, 333};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive})
            if (!check_sizes<Product<float>>(sizes, kind, true)) return;
    }

    TEST_CASE("hidden: nothing is written past n") {
        for (const int n : {1, 5, 64}) {
            for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
                const std::vector<std::int32_t> input =
                    scanlab::test::make_input<Sum<std::int32_t>>(n + 8, kind);
                std::vector<std::int32_t> out(input.size(),
                                              scanlab::test::poison_value<std::int32_t>());
                lab00::sequential_scan<Sum<std::int32_t>>(input.data(), out.data(), n, kind);
                scanlab::test::CheckOptions options;
                options.on_device = false;
                const auto result = scanlab::test::check_scan<Sum<std::int32_t>>(
                    "lab00::sequential_scan", std::span<const std::int32_t>(input.data(), n),
                    std::span<const std::int32_t>(input.data(), n),
                    std::span<const std::int32_t>(out.data(), n), kind, options);
                if (!result.ok) {
                    FAIL_CHECK(result.message);
                    return;
                }
                for (std::size_t i = n; i < out.size(); ++i) {
                    if (!scanlab::test::is_poison(out[i])) {
                        FAIL_CHECK("n = " << n << ": out[" << i
                                          << "] was written, but the scan may only write out[0.."
                                          << n << ")");
                        return;
                    }
                }
            }
        }
    }

} // TEST_SUITE("hidden")
