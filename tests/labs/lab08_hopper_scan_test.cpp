// Graded tests for lab 08 (the Hopper scan: bulk copies into a ring of mbarrier-guarded stages,
// warp roles, decoupled look-back).
//
// Sizes are chosen for the emulator (about a million elements per second): SmallShape's tile
// (256 int32, 128 of the 8-byte types) gives dozens of tiles at a few thousand elements, more
// tiles than a block has stages, so every stage is refilled. On the simt backend the schedule
// tests set the emulator's mode (its, lockstep) and block dispatch order themselves, and restore
// them afterwards.
#include "hopper_scan.h"

#include "back_to_back_scans.h"
#include "emulator_schedule.h"
#include "lab08_scan_check.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "untouched_output.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::kSchedules;
using scanlab::test::Schedule;
using scanlab::test::ScheduleScope;
using scanlab::test::lab08_scan::check_sizes;
using scanlab::test::lab08_scan::fault_hint;
using scanlab::test::lab08_scan::kTile;

namespace {

using lab08::DefaultShape;
using lab08::SmallShape;

// Whether Op's type is the first of its size in Op's family (int32 for the 4-byte types, int64
// for the 8-byte ones): those run every size of the default shape below, the family's other types
// the ones marked.
template <class Op>
constexpr bool first_of_its_size() {
    using T = typename Op::value_type;
    return std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>;
}

template <class Op>
void check_scan_all(ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kDefault = kTile<DefaultShape, T>;
    constexpr int kSmall = kTile<SmallShape, T>;
    // Nothing, one element, one partial tile, tile edges, several tiles, with the shape the
    // launcher picks for T (FourByteShape or EightByteShape: the operator matrix has both sizes, so
    // both shapes run); for int32, then small tiles, many of them (more than a block's stages:
    // every stage refilled, windows of 32 tiles and more). A tile's edges and the refilled stages
    // are the same work for every type of one size: each family's other types (uint32, float,
    // double) run nothing, one element, a tile plus one and three tiles plus three of the default
    // shape, for their values and identities. Small tiles of 8-byte values (the tagged-pair
    // descriptors) run in "scan under every schedule" (affine int64), "scan in place" (sum
    // double) and the unaligned input (affine int64). SmallShape is compiled only for the
    // operators the tests call it with (LAB08_SMALL_SHAPE_OPERATORS in hopper_scan.h).
    if constexpr (std::is_same_v<T, std::int32_t>) {
        if (check_sizes<Op>(kind,
                            {0, 1, 100, kDefault - 1, kDefault, kDefault + 1, 3 * kDefault + 3}))
            check_sizes<Op, SmallShape>(kind, {kSmall, kSmall + 1, 3 * kSmall, 24 * kSmall + 7});
    } else if constexpr (first_of_its_size<Op>()) {
        check_sizes<Op>(kind, {0, 1, 100, kDefault - 1, kDefault, kDefault + 1, 3 * kDefault + 3});
    } else {
        check_sizes<Op>(kind, {0, 1, kDefault + 1, 3 * kDefault + 3});
    }
}

} // namespace

// ---- the scan: every graded operator, type and kind (tests/support/scan_matrix.h) ----------
SCANLAB_CASE_PER_OPERATOR_AND_KIND("scan ",
                                   []<class Op>(ScanKind kind) { check_scan_all<Op>(kind); });

// Every emulator schedule (its/lockstep x blocks in order/shuffled, two seeds each), on the
// non-commutative operator with 4-byte and with 8-byte values (whose descriptors are tagged pairs
// of words), 41 small tiles each.
TEST_CASE("scan under every schedule") {
    std::uint64_t seed = 1;
    for (const Schedule& schedule : kSchedules) {
        for (int repeat = 0; repeat < 2; ++repeat, ++seed) {
            ScheduleScope scope(schedule, seed);
            INFO("emulator schedule: " << std::string(schedule.name) << ", SIMT_SEED=" << seed);
            if (!check_sizes<Affine<std::uint32_t>, SmallShape>(ScanKind::inclusive,
                                                                {40 * 256 + 11}))
                return;
            if (!check_sizes<Affine<std::int64_t>, SmallShape>(ScanKind::exclusive, {40 * 128 + 5}))
                return;
        }
    }
}

TEST_CASE("scan in place and with a reused workspace") {
    using Op = Affine<std::int32_t>;
    constexpr int kN = 40 * kTile<SmallShape, int> + 3;
    // In place, a tile's input is read by the producer's copy and its output written by the
    // scanners over the same words, ordered by the chain of mbarrier phases between them (the
    // emulator's race checks follow it: a scanner that wrote before its wait would be reported).
    // 41 small tiles of each size of value.
    if (!check_sizes<Op, SmallShape>(ScanKind::exclusive, {kN}, true)) return;
    if (!check_sizes<Sum<double>, SmallShape>(ScanKind::inclusive,
                                              {40 * kTile<SmallShape, double> + 3}, true))
        return;
    // The workspace is reused: the descriptors and the tile counter must be clear when every call
    // starts. Calls of the same size one after another take the path where each launch clears
    // the next call's half (12 tiles are enough for that: what it reuses is the same at any size).
    lab08::Workspace workspace;
    constexpr int kReused = 12 * kTile<SmallShape, int> + 3;
    for (const int n : {2000, kReused, kReused, kReused, 1000, kReused, kReused})
        if (!check_sizes<Op, SmallShape>(ScanKind::inclusive, {n}, false, &workspace)) return;
}

// An input that is not 16-byte aligned cannot be bulk-copied: every tile then takes the
// ordinary loads, and the scan is still right.
TEST_CASE("scan of an input not 16-byte aligned") {
    if (!check_sizes<Sum<std::int32_t>, SmallShape>(ScanKind::inclusive, {20 * 256 + 9}, false,
                                                    nullptr, 1))
        return;
    (void)check_sizes<Affine<std::int64_t>, SmallShape>(ScanKind::exclusive, {10 * 128 + 1}, false,
                                                        nullptr, 1);
}

// Three calls back to back, no host work between them: each kernel is launched with programmatic
// dependent launch right behind the one before (scanlab/pdl.h), scans its output and uses the
// Workspace half that the one before cleared.
TEST_CASE("back-to-back scans, each reading the last one's output") {
    lab08::Workspace workspace;
    scanlab::test::check_back_to_back_scans(
        30 * kTile<SmallShape, int> + 3, "08",
        [&](const int* in, int* out, int n) {
            lab08::scan<Sum<int>, SmallShape>(in, out, n, ScanKind::inclusive, &workspace);
        },
        fault_hint);
}

// A large array with the default shape: on the emulator 2^18 + 3 elements, 129 tiles of 2048 over
// the 48 persistent blocks of 160 threads that its 4 SMs hold at once; on a GPU 2^19 + 3.
TEST_CASE("scan large array") {
#ifdef SCANLAB_BACKEND_SIMT
    check_sizes<Sum<std::int32_t>>(ScanKind::exclusive, {(1 << 18) + 3});
#else
    check_sizes<Sum<std::int32_t>>(ScanKind::exclusive, {(1 << 19) + 3});
#endif
}

TEST_CASE("argument checks") {
    // A real scan of several tiles first, so that a stub cannot pass this case.
    REQUIRE(check_sizes<Sum<int>, SmallShape>(ScanKind::inclusive, {3 * 256 + 5}));

    constexpr int kN = 100;
    DeviceBuffer<int> in(std::vector<int>(kN, 1));
    DeviceBuffer<int> out = scanlab::test::poisoned_output(kN);
    const auto inclusive = ScanKind::inclusive;
    CHECK_THROWS_AS(lab08::scan<Sum<int>>(in.data(), out.data(), -1, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab08::scan<Sum<int>>(nullptr, out.data(), kN, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab08::scan<Sum<int>>(in.data(), nullptr, kN, inclusive),
                    std::invalid_argument);
    // More tiles than a grid can have: rejected before anything is touched.
    CHECK_THROWS_AS((lab08::scan<Sum<int>, SmallShape>(in.data(), out.data(), std::int64_t(1) << 40,
                                                       inclusive)),
                    std::invalid_argument);
    // n == 0: nothing launched (null data pointers allowed).
    CHECK_NOTHROW(lab08::scan<Sum<int>>(nullptr, nullptr, 0, inclusive));
    CHECK_NOTHROW(lab08::scan<Sum<int>>(in.data(), out.data(), 0, ScanKind::exclusive));
    scanlab::test::check_output_untouched(out);
}
