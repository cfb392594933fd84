// Graded tests for lab 02 (work-efficient Blelloch scan in one thread block).
#include "work_efficient_scan.h"

#include "scan_matrix.h"
#include "scan_test_support.h"
#include "single_block_argument_checks.h"
#include "tree_scan_sweep.h"

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

// What the emulator's report of a failed launch means in this lab.
std::string fault_hint(int n) {
    const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
    const std::vector<std::string> lines = seen.lines();
    std::string where;
    for (const std::string& line : lines) where += (where.empty() ? "" : " and ") + line;
    const std::string at = "the kernel failed at n = " + std::to_string(n) + ": ";
    if (seen.is("shared memory race"))
        return at + "two threads used the same node of the tree" +
               (where.empty() ? "" : " (" + where + ")") +
               " with no __syncthreads() between them, so one level of the tree was read "
               "before the level it depends on was complete. Every level of the up-sweep and "
               "of the down-sweep starts with a __syncthreads(), and one more follows the "
               "down-sweep before the leaves are read";
    if (seen.is("uninitialized shared memory read"))
        return at + "a node of the tree is read before any thread wrote it" +
               (where.empty() ? "" : " (" + where + ")") +
               ". Either a __syncthreads() is missing between the stores and this read (the "
               "load, then every level, starts only when the one before it is complete), or "
               "nothing ever stores there: before the up-sweep each thread stores both of its "
               "leaves (t and t + m/2), the leaves n..m-1 with Op::identity()";
    if (seen.is("barrier divergence"))
        return at + "some threads did not reach a __syncthreads() the others wait at. A thread "
                    "with no pair at a level still reaches that level's barrier: keep it outside "
                    "`if (t < pairs)`";
    if (seen.is("illegal address"))
        return at + (seen.says("shared")
                         ? std::string("a shared index past the tree: the tree has m leaves, "
                                       "indices 0..m-1")
                         : std::string("an access past an array in global memory: a load "
                                       "from in[i] or a store to out[i] with i >= n (the "
                                       "leaves n..m-1 hold the identity and never touch "
                                       "global memory)"));
    if (!seen.kind.empty())
        return at + "the emulator's report above (" + seen.kind + ") names the line";
    return "the kernel failed at n = " + std::to_string(n) + "; the message above says why";
}

// Stops at the first failing size (tests/support/tree_scan_sweep.h).
template <class Op>
void check_all_sizes(ScanKind kind) {
    const ScanCheck failure = scanlab::test::first_failing_tree_scan<Op>(
        "lab02::work_efficient_scan", "02", lab02::kMaxThreads, kind,
        lab02::work_efficient_scan<Op>, fault_hint);
    if (!failure.ok) FAIL_CHECK(failure.message);
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) { check_all_sizes<Op>(kind); });

TEST_CASE("argument checks") {
    scanlab::test::check_single_block_arguments("lab02::work_efficient_scan", lab02::kMaxN,
                                                lab02::work_efficient_scan<Sum<int>>);
}
