// Graded tests for lab 03 (work-efficient scan with shared memory padded against bank conflicts).
//
// These tests check that both entry points scan correctly. Whether the padding removes the bank
// conflicts is measured separately, from the emulator's trace of the two kernels.
#include "conflict_free_scan.h"

#include "scan_matrix.h"
#include "scan_test_support.h"
#include "single_block_argument_checks.h"
#include "tree_scan_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

using scanlab::Affine;
using scanlab::Max;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::ScanCheck;

namespace {

enum class Layout { padded, unpadded };

// The slot of the tree an "uninitialized shared memory read" names ("tree[32], byte 128 of
// 'tree'"), or -1.
int unwritten_slot(const scanlab::test::FaultSeen& seen) {
    const std::size_t at = seen.message.find("read: tree[");
    if (at == std::string::npos) return -1;
    return std::atoi(seen.message.c_str() + at + std::string("read: tree[").size());
}

// Whether no element of the padded layout lives in `slot`: the element size comes from the
// report's "tree[k], byte b" (b / k bytes per element).
bool is_padding_slot(const scanlab::test::FaultSeen& seen, int slot) {
    const std::size_t at = seen.message.find("], byte ");
    if (slot <= 0 || at == std::string::npos) return false;
    const int bytes = std::atoi(seen.message.c_str() + at + std::string("], byte ").size()) / slot;
    if (bytes != 4 && bytes != 8) return false;
    const int log_row = bytes == 8 ? lab03::kLogNumBanks - 1 : lab03::kLogNumBanks;
    for (int i = 0; i < lab03::kMaxN; ++i)
        if (i + (i >> log_row) + (i >> (2 * log_row)) == slot) return false;
    return true;
}

// What the emulator's report of a failed launch means in this lab.
std::string fault_hint(int n) {
    const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
    std::string where;
    for (const std::string& line : seen.lines()) where += (where.empty() ? "" : " and ") + line;
    const std::string at = "the kernel failed at n = " + std::to_string(n) + ": ";
    if (seen.is("shared memory race"))
        return at + "two threads used the same slot of the tree" +
               (where.empty() ? "" : " (" + where + ")") +
               " with no __syncthreads() between them, so one level of the tree was read "
               "before the level it depends on was complete. Every level of the up-sweep and "
               "of the down-sweep starts with a __syncthreads(), and one more follows the "
               "down-sweep before the leaves are read";
    if (seen.is("uninitialized shared memory read")) {
        const std::string unpadded =
            "an access that used the plain index i where every other one uses slot(i): what "
            "is stored at i is never found at slot(i), and a read finds a slot nothing stored "
            "to (look for the unpadded index in the loads, the sweeps and the final reads)";
        if (const int slot = unwritten_slot(seen); slot >= 0 && is_padding_slot(seen, slot))
            return at + "slot " + std::to_string(slot) +
                   " of the tree is read, but it is a padding slot: no element lives there. "
                   "That is " +
                   unpadded;
        return at + "a slot of the tree is read before any thread wrote it" +
               (where.empty() ? "" : " (" + where + ")") + ". Either it is " + unpadded +
               ", or a __syncthreads() is missing between the store and this read";
    }
    if (seen.is("illegal address"))
        return at + (seen.says("shared")
                         ? std::string("a shared index past the end of the tree: the padded "
                                       "tree of kMaxN elements needs shared_slots() slots, "
                                       "more than kMaxN")
                         : std::string("an access past an array in global memory: a load "
                                       "from in[i] or a store to out[i] with i >= n"));
    if (seen.is("barrier divergence"))
        return at + "some threads did not reach a __syncthreads() the others wait at. A thread "
                    "with no pair at a level still reaches that level's barrier: keep it outside "
                    "`if (t < pairs)`";
    if (!seen.kind.empty())
        return at + "the emulator's report above (" + seen.kind + ") names the line";
    return "the kernel failed at n = " + std::to_string(n) + "; the message above says why";
}

// Stops at the first failing size (tests/support/tree_scan_sweep.h).
template <class Op>
void check_all_sizes(Layout layout, ScanKind kind) {
    const ScanCheck failure =
        layout == Layout::padded
            ? scanlab::test::first_failing_tree_scan<Op>("lab03::conflict_free_scan", "03",
                                                         lab03::kMaxThreads, kind,
                                                         lab03::conflict_free_scan<Op>, fault_hint)
            : scanlab::test::first_failing_tree_scan<Op>("lab03::scan_unpadded", "03",
                                                         lab03::kMaxThreads, kind,
                                                         lab03::scan_unpadded<Op>, fault_hint);
    if (!failure.ok) FAIL_CHECK(failure.message);
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) {
    check_all_sizes<Op>(Layout::padded, kind);
});

// scan_unpadded shares its kernel with conflict_free_scan; a few operators and types are enough
// to make sure the baseline of the conflict counts scans correctly.
#define LAB03_UNPADDED_TEST(NAME, OP, KIND)                                                        \
    TEST_CASE("unpadded " NAME) {                                                                  \
        check_all_sizes<OP>(Layout::unpadded, ScanKind::KIND);                                     \
    }

LAB03_UNPADDED_TEST("inclusive sum int32", Sum<std::int32_t>, inclusive)
LAB03_UNPADDED_TEST("exclusive sum int32", Sum<std::int32_t>, exclusive)
LAB03_UNPADDED_TEST("inclusive sum double", Sum<double>, inclusive)
LAB03_UNPADDED_TEST("exclusive max float", Max<float>, exclusive)
LAB03_UNPADDED_TEST("inclusive affine uint32", Affine<std::uint32_t>, inclusive)
LAB03_UNPADDED_TEST("exclusive affine int64", Affine<std::int64_t>, exclusive)

TEST_CASE("argument checks") {
    scanlab::test::check_single_block_arguments("lab03::conflict_free_scan", lab03::kMaxN,
                                                lab03::conflict_free_scan<Sum<int>>);
}

TEST_CASE("unpadded argument checks") {
    scanlab::test::check_single_block_arguments("lab03::scan_unpadded", lab03::kMaxN,
                                                lab03::scan_unpadded<Sum<int>>);
}
