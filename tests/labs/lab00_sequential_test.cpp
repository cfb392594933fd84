// Graded tests for lab 00 (sequential scan on the host).
#include "sequential_scan.h"

#include "scan_test_support.h"

#include <doctest/doctest.h>

#include <cstdint>
#include <stdexcept>

using scanlab::Affine;
using scanlab::Max;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

// 0 and 1 are edge cases; 31..33 and 1024 sit around warp and block sizes of later labs.
constexpr int kSizes[] = {0, 1, 2, 31, 32, 33, 100, 512, 1000, 1024, 4097, 100000};

template <class Op>
void sequential(const typename Op::value_type* in, typename Op::value_type* out, int n,
                ScanKind kind) {
    lab00::sequential_scan<Op>(in, out, n, kind);
}

// Stops at the first failing size: the later ones would report the same mistake.
template <class Op>
void check_all_sizes(ScanKind kind, bool in_place = false) {
    for (const int n : kSizes) {
        const auto result = scanlab::test::run_host_scan<Op>("lab00::sequential_scan", n, kind,
                                                             sequential<Op>, in_place);
        if (!result.ok) {
            FAIL_CHECK(result.message);
            return;
        }
    }
}

} // namespace

#define LAB00_SCAN_TEST(NAME, OP, KIND)                                                            \
    TEST_CASE(NAME) {                                                                              \
        check_all_sizes<OP>(ScanKind::KIND);                                                       \
    }

LAB00_SCAN_TEST("inclusive sum int32", Sum<std::int32_t>, inclusive)
LAB00_SCAN_TEST("inclusive sum uint32", Sum<std::uint32_t>, inclusive)
LAB00_SCAN_TEST("inclusive sum int64", Sum<std::int64_t>, inclusive)
LAB00_SCAN_TEST("inclusive sum float", Sum<float>, inclusive)
LAB00_SCAN_TEST("inclusive sum double", Sum<double>, inclusive)
LAB00_SCAN_TEST("exclusive sum int32", Sum<std::int32_t>, exclusive)
LAB00_SCAN_TEST("exclusive sum uint32", Sum<std::uint32_t>, exclusive)
LAB00_SCAN_TEST("exclusive sum int64", Sum<std::int64_t>, exclusive)
LAB00_SCAN_TEST("exclusive sum float", Sum<float>, exclusive)
LAB00_SCAN_TEST("exclusive sum double", Sum<double>, exclusive)

LAB00_SCAN_TEST("inclusive max int32", Max<std::int32_t>, inclusive)
LAB00_SCAN_TEST("inclusive max uint32", Max<std::uint32_t>, inclusive)
LAB00_SCAN_TEST("inclusive max int64", Max<std::int64_t>, inclusive)
LAB00_SCAN_TEST("inclusive max float", Max<float>, inclusive)
LAB00_SCAN_TEST("inclusive max double", Max<double>, inclusive)
LAB00_SCAN_TEST("exclusive max int32", Max<std::int32_t>, exclusive)
LAB00_SCAN_TEST("exclusive max uint32", Max<std::uint32_t>, exclusive)
LAB00_SCAN_TEST("exclusive max int64", Max<std::int64_t>, exclusive)
LAB00_SCAN_TEST("exclusive max float", Max<float>, exclusive)
LAB00_SCAN_TEST("exclusive max double", Max<double>, exclusive)

LAB00_SCAN_TEST("inclusive min int32", Min<std::int32_t>, inclusive)
LAB00_SCAN_TEST("inclusive min uint32", Min<std::uint32_t>, inclusive)
LAB00_SCAN_TEST("inclusive min int64", Min<std::int64_t>, inclusive)
LAB00_SCAN_TEST("inclusive min float", Min<float>, inclusive)
LAB00_SCAN_TEST("inclusive min double", Min<double>, inclusive)
LAB00_SCAN_TEST("exclusive min int32", Min<std::int32_t>, exclusive)
LAB00_SCAN_TEST("exclusive min uint32", Min<std::uint32_t>, exclusive)
LAB00_SCAN_TEST("exclusive min int64", Min<std::int64_t>, exclusive)
LAB00_SCAN_TEST("exclusive min float", Min<float>, exclusive)
LAB00_SCAN_TEST("exclusive min double", Min<double>, exclusive)

LAB00_SCAN_TEST("inclusive product int32", Product<std::int32_t>, inclusive)
LAB00_SCAN_TEST("inclusive product uint32", Product<std::uint32_t>, inclusive)
LAB00_SCAN_TEST("inclusive product int64", Product<std::int64_t>, inclusive)
LAB00_SCAN_TEST("inclusive product float", Product<float>, inclusive)
LAB00_SCAN_TEST("inclusive product double", Product<double>, inclusive)
LAB00_SCAN_TEST("exclusive product int32", Product<std::int32_t>, exclusive)
LAB00_SCAN_TEST("exclusive product uint32", Product<std::uint32_t>, exclusive)
LAB00_SCAN_TEST("exclusive product int64", Product<std::int64_t>, exclusive)
LAB00_SCAN_TEST("exclusive product float", Product<float>, exclusive)
LAB00_SCAN_TEST("exclusive product double", Product<double>, exclusive)

LAB00_SCAN_TEST("inclusive affine int32", Affine<std::int32_t>, inclusive)
LAB00_SCAN_TEST("inclusive affine uint32", Affine<std::uint32_t>, inclusive)
LAB00_SCAN_TEST("inclusive affine int64", Affine<std::int64_t>, inclusive)
LAB00_SCAN_TEST("exclusive affine int32", Affine<std::int32_t>, exclusive)
LAB00_SCAN_TEST("exclusive affine uint32", Affine<std::uint32_t>, exclusive)
LAB00_SCAN_TEST("exclusive affine int64", Affine<std::int64_t>, exclusive)

TEST_CASE("in-place scans (out == in)") {
    check_all_sizes<Sum<std::int32_t>>(ScanKind::inclusive, true);
    check_all_sizes<Sum<std::int32_t>>(ScanKind::exclusive, true);
    check_all_sizes<Affine<std::uint32_t>>(ScanKind::exclusive, true);
    check_all_sizes<Sum<double>>(ScanKind::exclusive, true);
}

TEST_CASE("argument checks") {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = scanlab::test::run_host_scan<Sum<int>>(
        "lab00::sequential_scan", 33, ScanKind::inclusive, sequential<Sum<int>>);
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
