// Hidden tests for lab 02 (instructor-only: not in the handout). The grader compiles this file
// into lab02's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
// They use sizes and operators that the visible tests do not name.
#include "work_efficient_scan.h"

#include "scan_test_support.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::Max;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

constexpr const char* kWhat = "lab02::work_efficient_scan";

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
bool check_sizes(const std::vector<int>& sizes, ScanKind kind) {
    const auto result = scanlab::test::first_failing_size(sizes, [&](int n) {
        return scanlab::test::run_device_scan<Op>(kWhat, n, kind, lab02::work_efficient_scan<Op>);
    });
    if (!result.ok) FAIL_CHECK(result.message);
    return result.ok;
}

/// Sizes just around every power of two up to kMaxN, where a tree of m = next power of two
/// leaves changes shape.
std::vector<int> around_powers_of_two() {
    std::vector<int> sizes = {0, 1, 2, 3};
    for (int p = 4; p <= lab02::kMaxN; p *= 2)
        for (const int n : {p - 1, p, p + 1})
            if (n <= lab02::kMaxN) sizes.push_back(n);
    return sizes;
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
        for (const int n : {1, 33, 1000, lab02::kMaxN - 1}) {
            for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
                using T = std::int32_t;
                const std::vector<T> input = scanlab::test::make_input<Sum<T>>(n + 64, kind);
                DeviceBuffer<T> d_in(input);
                DeviceBuffer<T> d_out(
                    std::vector<T>(input.size(), scanlab::test::poison_value<T>()));
                scanlab::test::KernelWorkWatch watch;
                watch.input(d_in.data(), input.size()).output(d_out.data(), input.size());
                lab02::work_efficient_scan<Sum<T>>(d_in.data(), d_out.data(), n, kind);
                REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                std::string problem =
                    watch.verdict(std::string(kWhat) + ", n = " + std::to_string(n));
                const std::vector<T> out = d_out.download();
                if (problem.empty()) {
                    const auto result = scanlab::test::check_scan<Sum<T>>(
                        kWhat, std::span<const T>(input.data(), n),
                        std::span<const T>(input.data(), n), std::span<const T>(out.data(), n),
                        kind);
                    problem = result.message;
                }
                for (std::size_t i = n; problem.empty() && i < out.size(); ++i)
                    if (!scanlab::test::is_poison(out[i]))
                        problem = "n = " + std::to_string(n) + ": out[" + std::to_string(i) +
                                  "] was written, but the scan may only write out[0.." +
                                  std::to_string(n) +
                                  "): the leaves n..m-1 of the tree hold "
                                  "the identity and are never stored";
                if (!problem.empty()) {
                    FAIL_CHECK(problem);
                    return;
                }
            }
        }
    }

} // TEST_SUITE("hidden")
