// Hidden tests for lab 01 (instructor-only: not in the handout). The grader compiles this file
// into lab01's test program when it grades with hidden tests (tools/grader/cmake/
// grader_hooks.cmake); check_stubs.py makes sure each case fails on the stub and passes on the
// solution. Test cases here are in the doctest suite "hidden"; their names start with "hidden:".
#include "naive_scan.h"

#include "scan_test_support.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::Max;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
bool check_sizes(const std::vector<int>& sizes, ScanKind kind) {
    const auto result = scanlab::test::first_failing_size(sizes, [&](int n) {
        return scanlab::test::run_device_scan<Op>("lab01::naive_scan", n, kind,
                                                  lab01::naive_scan<Op>);
    });
    if (!result.ok) FAIL_CHECK(result.message);
    return result.ok;
}

std::vector<int> every_size() {
    std::vector<int> sizes;
    for (int n = 0; n <= lab01::kMaxN; ++n) sizes.push_back(n);
    return sizes;
}

/// Input and poisoned output with `slack` extra elements after n; returns what the scan wrote.
template <class Op>
struct Padded {
    using T = typename Op::value_type;
    std::vector<T> input;
    DeviceBuffer<T> d_in, d_out;
    int n;

    Padded(int n_, int slack, ScanKind kind) : n(n_) {
        input = scanlab::test::make_input<Op>(n + slack, kind);
        d_in = DeviceBuffer<T>(input);
        d_out = DeviceBuffer<T>(std::vector<T>(input.size(), scanlab::test::poison_value<T>()));
    }
    void launch(ScanKind kind) { lab01::naive_scan<Op>(d_in.data(), d_out.data(), n, kind); }
    void watch(scanlab::test::KernelWorkWatch& watch) const {
        watch.input(d_in.data(), input.size()).output(d_out.data(), input.size());
    }
    /// Empty when out[0..n) is the scan of in[0..n) and nothing after n was written.
    std::string check(ScanKind kind) const {
        const std::vector<T> out = d_out.download();
        const std::vector<T> in_after = d_in.download();
        const std::span<const T> in_span(input.data(), n);
        const auto result = scanlab::test::check_scan<Op>("lab01::naive_scan", in_span,
                                                          std::span<const T>(in_after.data(), n),
                                                          std::span<const T>(out.data(), n), kind);
        if (!result.ok) return result.message;
        for (std::size_t i = n; i < out.size(); ++i) {
            if (!scanlab::test::is_poison(out[i]))
                return "n = " + std::to_string(n) + ": out[" + std::to_string(i) +
                       "] was written, but the scan may only write out[0.." + std::to_string(n) +
                       "): is a thread without an element still storing?";
        }
        return "";
    }
};

} // namespace

TEST_SUITE("hidden") {

    TEST_CASE("hidden: every size from 0 to kMaxN, int32 sums") {
        // Every size for the inclusive scan; the exclusive one at every size up to 70 (around two
        // warps), then every 7th: together about 1200 launches on the emulator.
        std::vector<int> exclusive_sizes;
        for (const int n : every_size())
            if (n <= 70 || n % 7 == 0 || n == lab01::kMaxN) exclusive_sizes.push_back(n);
        if (check_sizes<Sum<std::int32_t>>(every_size(), ScanKind::inclusive))
            check_sizes<Sum<std::int32_t>>(exclusive_sizes, ScanKind::exclusive);
    }

    TEST_CASE("hidden: non-commutative operator at odd sizes") {
        const std::vector<int> sizes = {3,   5,   7,   15,  17,  63,  65,
                                        127, 129, 255, 257, 511, 513, 1023};
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            if (!check_sizes<Affine<std::int32_t>>(sizes, kind)) return;
            if (!check_sizes<Affine<std::int64_t>>(sizes, kind)) return;
        }
    }

    TEST_CASE("hidden: nothing is written past n") {
        for (const int n : {1, 31, 100, 1000}) {
            for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
                Padded<Sum<std::int32_t>> run(n, 64, kind);
                scanlab::test::KernelWorkWatch watch;
                run.watch(watch);
                run.launch(kind);
                REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
                std::string problem = watch.verdict("lab01::naive_scan, n = " + std::to_string(n));
                if (problem.empty()) problem = run.check(kind);
                if (!problem.empty()) {
                    FAIL_CHECK(problem);
                    return;
                }
            }
        }
    }

    TEST_CASE("hidden: two scans launched back to back, one synchronize") {
        Padded<Sum<std::int32_t>> first(lab01::kMaxN, 0, ScanKind::inclusive);
        Padded<Max<std::int32_t>> second(517, 0, ScanKind::exclusive);
        scanlab::test::KernelWorkWatch watch;
        first.watch(watch);
        second.watch(watch);
        first.launch(ScanKind::inclusive);
        second.launch(ScanKind::exclusive);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const std::string host_work = watch.verdict("lab01::naive_scan, two calls");
        REQUIRE_MESSAGE(host_work.empty(), host_work);
        const std::string a = first.check(ScanKind::inclusive);
        CHECK_MESSAGE(a.empty(), a);
        const std::string b = second.check(ScanKind::exclusive);
        CHECK_MESSAGE(b.empty(), b);
    }

} // TEST_SUITE("hidden")
