// What the hidden tests of several labs share (instructor-only, like them): a sweep of sizes
// that fails the test case at the first size that fails, and the check that a one-block scan
// writes nothing past n.
#pragma once

#include "scan_test_support.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace scanlab::test::hidden {

/// Runs `scan` (called as scan(d_in, d_out, n, kind)) on each size of `sizes`, smallest first,
/// and fails the test case with the first failure (tests/support/size_sweep.h). `what` names
/// the function; in place, each message also names its n.
template <class Op, class ScanFn>
bool check_sizes(std::string what, const std::vector<int>& sizes, ScanKind kind, ScanFn&& scan,
                 ScanOutput output = ScanOutput::separate) {
    const bool in_place = output == ScanOutput::in_place;
    if (in_place) what += " in place (out == in)";
    const auto result = first_failing_size(sizes, [&](int n) {
        return run_device_scan<Op>(what + (in_place ? ", n = " + std::to_string(n) : ""), n, kind,
                                   scan, {}, output);
    });
    if (!result.ok) FAIL_CHECK(result.message);
    return result.ok;
}

/// Sizes just around every power of two up to max_n, where a tree of m = next power of two
/// leaves changes shape.
inline std::vector<int> around_powers_of_two(int max_n) {
    std::vector<int> sizes = {0, 1, 2, 3};
    for (int p = 4; p <= max_n; p *= 2)
        for (const int n : {p - 1, p, p + 1})
            if (n <= max_n) sizes.push_back(n);
    return sizes;
}

/// A one-block tree scan (`scan` over int32 sums) at each n of `sizes`, both kinds, into an
/// output 64 elements longer than n and filled with poison: right on out[0..n), and nothing
/// written past it (the leaves n..m-1 of the tree hold the identity and are never stored).
template <class ScanFn>
void check_nothing_written_past_n(const char* what, const std::vector<int>& sizes, ScanFn&& scan) {
    using T = std::int32_t;
    for (const int n : sizes) {
        for (const ScanKind kind : {ScanKind::inclusive, ScanKind::exclusive}) {
            const std::vector<T> input = make_input<Sum<T>>(n + 64, kind);
            DeviceBuffer<T> d_in(input);
            DeviceBuffer<T> d_out(std::vector<T>(input.size(), poison_value<T>()));
            KernelWorkWatch watch;
            watch.input(d_in.data(), input.size()).output(d_out.data(), input.size());
            scan(d_in.data(), d_out.data(), n, kind);
            REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            std::string problem = watch.verdict(std::string(what) + ", n = " + std::to_string(n));
            const std::vector<T> out = d_out.download();
            if (problem.empty()) {
                const auto result = check_scan<Sum<T>>(what, std::span<const T>(input.data(), n),
                                                       std::span<const T>(input.data(), n),
                                                       std::span<const T>(out.data(), n), kind);
                problem = result.message;
            }
            for (std::size_t i = n; problem.empty() && i < out.size(); ++i)
                if (!is_poison(out[i]))
                    problem = "n = " + std::to_string(n) + ": out[" + std::to_string(i) +
                              "] was written, but the scan may only write out[0.." +
                              std::to_string(n) +
                              "): the leaves n..m-1 of the tree hold the identity and are never "
                              "stored";
            if (!problem.empty()) {
                FAIL_CHECK(problem);
                return;
            }
        }
    }
}

} // namespace scanlab::test::hidden
