// Graded tests for lab 00 (sequential scan on the host).
#include "sequential_scan.h"

#include "scan_matrix.h"
#include "scan_test_support.h"
#include "size_sweep.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

using scanlab::Affine;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

// 0 and 1 are edge cases; 31..33 and 1024 sit around warp and block sizes of later labs.
constexpr int kSizes[] = {0, 1, 2, 31, 32, 33, 100, 512, 1000, 1024, 4097, 100000};

// Stops at the first failing size (tests/support/size_sweep.h).
template <class Op>
void check_all_sizes(ScanKind kind, bool in_place = false) {
    const auto result = scanlab::test::first_failing_size(kSizes, [&](int n) {
        return scanlab::test::run_host_scan<Op>("lab00::sequential_scan", n, kind,
                                                lab00::sequential_scan<Op>, in_place);
    });
    if (!result.ok) FAIL_CHECK(result.message);
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_OPERATOR_AND_KIND("", []<class Op>(ScanKind kind) { check_all_sizes<Op>(kind); });

TEST_CASE("in-place scans (out == in)") {
    check_all_sizes<Sum<std::int32_t>>(ScanKind::inclusive, true);
    check_all_sizes<Sum<std::int32_t>>(ScanKind::exclusive, true);
    check_all_sizes<Affine<std::uint32_t>>(ScanKind::exclusive, true);
    check_all_sizes<Sum<double>>(ScanKind::exclusive, true);
}

TEST_CASE("argument checks") {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = scanlab::test::run_host_scan<Sum<int>>(
        "lab00::sequential_scan", 33, ScanKind::inclusive, lab00::sequential_scan<Sum<int>>);
    REQUIRE_MESSAGE(result.ok, result.message);

    int in[4] = {3, 1, 7, 0};
    int out[4] = {};
    CHECK_THROWS_AS(lab00::sequential_scan<Sum<int>>(in, out, -1, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab00::sequential_scan<Sum<int>>(nullptr, out, 4, ScanKind::inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab00::sequential_scan<Sum<int>>(in, nullptr, 4, ScanKind::exclusive),
                    std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers.
    CHECK_NOTHROW(lab00::sequential_scan<Sum<int>>(nullptr, nullptr, 0, ScanKind::inclusive));
    CHECK_NOTHROW(lab00::sequential_scan<Sum<int>>(in, out, 0, ScanKind::exclusive));
    CHECK_MESSAGE(out[0] == 0, "n == 0 must not write any output");
}
