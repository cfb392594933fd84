// Graded tests for lab 02 (work-efficient Blelloch scan in one thread block).
#include "work_efficient_scan.h"

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

// In increasing order, so that a failure names the smallest size that shows the mistake:
// 0..8: edge cases and a tiny tree; 31..33: around a warp; non-powers of two of every scale
// (3, 5, 100, 255, 1000, 1500, 2047) need identity padding; 1024 is the last size one element
// per thread could do, 1025.. need two; 2048 = kMaxN.
constexpr int kSizes[] = {0,   1,   2,   3,    5,    8,    31,   32,   33,  100,
                          255, 256, 257, 1000, 1024, 1025, 1500, 2047, 2048};

constexpr bool is_power_of_two(int n) {
    return n > 0 && (n & (n - 1)) == 0;
}

template <class Op>
void work_efficient(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                    ScanKind kind) {
    lab02::work_efficient_scan<Op>(d_in, d_out, n, kind);
}

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

// What this lab's usual mistakes look like, given which sizes passed before n failed.
std::string lab_hint(int n, bool faulted, bool a_power_of_two_passed, int largest_passed) {
    if (faulted) return fault_hint(n);
    if (n > lab02::kMaxThreads && largest_passed >= lab02::kMaxThreads)
        return "every size up to " + std::to_string(lab02::kMaxThreads) +
               " passed, this one has more elements than a block has threads: each thread must "
               "load, scan and store TWO elements (t and t + m/2), with m/2 threads for m leaves";
    if (!is_power_of_two(n) && a_power_of_two_passed)
        return "n = " + std::to_string(n) +
               " is not a power of two, and the powers of two before it passed: build the tree "
               "on m = the next power of two leaves, give the leaves n..m-1 Op::identity(), and "
               "guard every load from `in` and store to `out` with index < n";
    return "";
}

std::string with_hint(const std::string& message, int n, bool faulted, bool a_power_of_two_passed,
                      int largest_passed) {
    const std::string hint = lab_hint(n, faulted, a_power_of_two_passed, largest_passed);
    return message + scanlab::test::hint_line("02", hint);
}

// Stops at the first failing size: the later ones would report the same mistake.
template <class Op>
void check_all_sizes(ScanKind kind) {
    bool a_power_of_two_passed = false;
    int largest_passed = -1;
    for (const int n : kSizes) {
        scanlab::test::ScanCheck result;
        try {
            scanlab::test::CheckOptions options;
            options.tree = true;
            result = scanlab::test::run_device_scan<Op>("lab02::work_efficient_scan", n, kind,
                                                        work_efficient<Op>, options);
        } catch (const std::exception& error) { // a fault in the kernel, or a failed launch
            const std::string message =
                with_hint(error.what(), n, true, a_power_of_two_passed, largest_passed) +
                "\n  to reproduce: run again with SCANLAB_SEED=" +
                std::to_string(scanlab::test::seed());
            FAIL_CHECK(message);
            return;
        }
        if (!result.ok) {
            FAIL_CHECK(with_hint(result.message, n, false, a_power_of_two_passed, largest_passed));
            return;
        }
        if (is_power_of_two(n)) a_power_of_two_passed = true;
        largest_passed = n;
    }
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) { check_all_sizes<Op>(kind); });

TEST_CASE("argument checks") {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = scanlab::test::run_device_scan<Sum<int>>(
        "lab02::work_efficient_scan", 33, ScanKind::inclusive, work_efficient<Sum<int>>);
    REQUIRE_MESSAGE(result.ok, result.message);

    constexpr int kTooMany = lab02::kMaxN + 1;
    DeviceBuffer<int> in(std::vector<int>(kTooMany, 1));
    const int poison = scanlab::test::poison_value<int>();
    DeviceBuffer<int> out(std::vector<int>(kTooMany, poison));

    CHECK_THROWS_AS(work_efficient<Sum<int>>(in.data(), out.data(), kTooMany, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(work_efficient<Sum<int>>(in.data(), out.data(), -1, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(work_efficient<Sum<int>>(nullptr, out.data(), 4, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(work_efficient<Sum<int>>(in.data(), nullptr, 4, ScanKind::exclusive),
                    std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers; it must launch nothing.
    CHECK_NOTHROW(work_efficient<Sum<int>>(nullptr, nullptr, 0, ScanKind::inclusive));
    CHECK_NOTHROW(work_efficient<Sum<int>>(in.data(), out.data(), 0, ScanKind::exclusive));
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> after = out.download();
    CHECK_MESSAGE(after[0] == poison, "a rejected call or n == 0 must not write any output");
}
