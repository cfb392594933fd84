// Graded tests for lab 01 (naive Hillis-Steele scan in one thread block).
#include "naive_scan.h"

#include "kernel_failure.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "single_block_argument_checks.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::ScanCheck;

namespace {

// 0, 1, 2: edge cases; 31..33: around a warp; 100, 1000: not powers of two; 1024: kMaxN.
constexpr int kSizes[] = {0, 1, 2, 31, 32, 33, 100, 512, 1000, 1024};

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

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
void check_all_sizes(ScanKind kind) {
    scanlab::test::CheckOptions options;
    options.hillis_steele = true;
    const ScanCheck failure = scanlab::test::first_failing_size(kSizes, [&](int n) -> ScanCheck {
        try {
            return scanlab::test::run_device_scan<Op>("lab01::naive_scan", n, kind,
                                                      lab01::naive_scan<Op>, options);
        } catch (const std::exception& error) { // a fault in the kernel, or a failed launch
            return {false, scanlab::test::kernel_failure_report(error.what(), "01", fault_hint(n))};
        }
    });
    if (!failure.ok) FAIL_CHECK(failure.message);
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) { check_all_sizes<Op>(kind); });

TEST_CASE("argument checks") {
    scanlab::test::check_single_block_arguments("lab01::naive_scan", lab01::kMaxN,
                                                lab01::naive_scan<Sum<int>>);
}
