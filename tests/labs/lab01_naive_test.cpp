// Graded tests for lab 01 (naive Hillis-Steele scan in one thread block).
#include "naive_scan.h"

#include "scan_matrix.h"
#include "scan_test_support.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

// 0, 1, 2: edge cases; 31..33: around a warp; 100, 1000: not powers of two; 1024: kMaxN.
constexpr int kSizes[] = {0, 1, 2, 31, 32, 33, 100, 512, 1000, 1024};

template <class Op>
void naive(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
           ScanKind kind) {
    lab01::naive_scan<Op>(d_in, d_out, n, kind);
}

// What the emulator's report of a failed launch means in this lab.
std::string fault_hint(int n) {
    const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
    const std::vector<std::string> lines = seen.lines();
    const std::string at = "the kernel failed at n = " + std::to_string(n) + ": ";
    if (seen.is("shared memory race") && lines.size() >= 2)
        return at + "an element of shared memory is written at " + lines[0] + " and used at " +
               lines[1] +
               " (or the other way round) by two threads with no __syncthreads() "
               "between them: put one there (after the load, every element must be in shared "
               "memory before any thread reads its neighbour's)";
    if (seen.is("shared memory race"))
        return at + "one statement" + (lines.empty() ? "" : " (" + lines[0] + ")") +
               " reads an element that another thread overwrites with no barrier in between. "
               "In this scan that is a single buffer: in a step, thread i reads element i - "
               "offset while thread i - offset replaces it with its new value. Read the "
               "current values from one array and write the new ones to another, then swap "
               "them (double buffering). With two arrays already, it is the __syncthreads() at "
               "the end of each step that is missing";
    if (seen.is("uninitialized shared memory read"))
        return at + "a shared element is read before any thread wrote it: every thread stores "
                    "its element (the shifted one for the exclusive scan) before the first "
                    "__syncthreads(), and each step reads only the array that holds the current "
                    "values";
    if (seen.is("barrier divergence"))
        return at + "some threads of the block did not reach a __syncthreads() the others wait "
                    "at. Every thread runs every step here: the barrier belongs outside "
                    "`if (i >= offset)`, where all threads reach it the same number of times";
    if (seen.is("illegal address"))
        return at + "an access outside its array: in[i - 1] at i = 0 (the exclusive shift "
                    "needs the identity there), or an index of n or more";
    if (!seen.kind.empty())
        return at + "the emulator's report above (" + seen.kind + ") names the line";
    return "";
}

// Stops at the first failing size: the later ones would report the same mistake.
template <class Op>
void check_all_sizes(ScanKind kind) {
    scanlab::test::CheckOptions options;
    options.hillis_steele = true;
    for (const int n : kSizes) {
        scanlab::test::ScanCheck result;
        try {
            result = scanlab::test::run_device_scan<Op>("lab01::naive_scan", n, kind, naive<Op>,
                                                        options);
        } catch (const std::exception& error) { // a fault in the kernel, or a failed launch
            const std::string hint = fault_hint(n);
            const std::string message = std::string(error.what()) +
                                        scanlab::test::hint_line("01", hint) +
                                        "\n  to reproduce: run again with SCANLAB_SEED=" +
                                        std::to_string(scanlab::test::seed());
            FAIL_CHECK(message);
            return;
        }
        if (!result.ok) {
            FAIL_CHECK(result.message);
            return;
        }
    }
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) { check_all_sizes<Op>(kind); });

TEST_CASE("argument checks") {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = scanlab::test::run_device_scan<Sum<int>>(
        "lab01::naive_scan", 33, ScanKind::inclusive, naive<Sum<int>>);
    REQUIRE_MESSAGE(result.ok, result.message);

    constexpr int kTooMany = lab01::kMaxN + 1;
    DeviceBuffer<int> in(std::vector<int>(kTooMany, 1));
    const int poison = scanlab::test::poison_value<int>();
    DeviceBuffer<int> out(std::vector<int>(kTooMany, poison));

    CHECK_THROWS_AS(naive<Sum<int>>(in.data(), out.data(), kTooMany, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(naive<Sum<int>>(in.data(), out.data(), -1, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(naive<Sum<int>>(nullptr, out.data(), 4, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(naive<Sum<int>>(in.data(), nullptr, 4, ScanKind::exclusive),
                    std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers; it must launch nothing.
    CHECK_NOTHROW(naive<Sum<int>>(nullptr, nullptr, 0, ScanKind::inclusive));
    CHECK_NOTHROW(naive<Sum<int>>(in.data(), out.data(), 0, ScanKind::exclusive));
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> after = out.download();
    CHECK_MESSAGE(after[0] == poison, "a rejected call or n == 0 must not write any output");
}
