// Graded tests for lab 04 (scan of any size with many blocks: scan-then-propagate and
// reduce-then-scan).
//
// Sizes are chosen for the emulator, which runs every GPU thread as a fiber on one CPU core: a
// pass over the data costs it a few microseconds per element (a scan of 2^22 elements takes
// about 20 s there), so that the whole lab stays well under a minute on a 2-core machine. The
// default tile (2 * kDefaultBlockThreads = 1024 elements) is exercised around one tile and at a
// few tiles; the recursion uses 32-thread blocks (64-element tiles), where two levels need only
// 64 * 64 + 1 = 4097 elements and three levels 262145, instead of the 2^20 + 1 and 2^30 + 1
// that 1024-element tiles would need. The large cases use 2^17 + 3 elements on the emulator and
// 2^26 + 3 on a GPU.
#include "multi_block_scan.h"

#include "kernel_failure.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "untouched_output.h"

#include <doctest/doctest.h>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/report.h"
#endif

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::ScanKind;
using scanlab::Sum;

namespace {

enum class Variant { scan_then_propagate, reduce_then_scan };

const char* name_of(Variant variant) {
    return variant == Variant::scan_then_propagate ? "lab04::scan_then_propagate"
                                                   : "lab04::reduce_then_scan";
}

struct Size {
    int n;
    int block_threads;
};

constexpr int kDefaultTile = 2 * lab04::kDefaultBlockThreads;
constexpr int kSmallThreads = 32;
constexpr int kSmallTile = 2 * kSmallThreads;

// In increasing difficulty, so that a failure names the simplest case that shows the mistake.
// `all_types`: also run for every element type of an operator; the other sizes run for the
// operator's first type (its 32-bit integer) only, as what they add (a tile's own edges, more
// tiles of 1024, tile totals that exactly fill one tile) does not depend on the element type.
// Every type still runs an empty scan, one element, two tiles of 1024, 4 tiles of 64 and two
// levels of recursion.
struct MatrixSize {
    Size size;
    bool all_types;
};
constexpr MatrixSize kSizes[] = {
    {{0, lab04::kDefaultBlockThreads}, true},                     // empty: nothing launched
    {{1, lab04::kDefaultBlockThreads}, true},                     // one element, one partial tile
    {{kDefaultTile - 1, lab04::kDefaultBlockThreads}, false},     // one partial tile
    {{kDefaultTile, lab04::kDefaultBlockThreads}, false},         // exactly one tile
    {{kDefaultTile + 1, lab04::kDefaultBlockThreads}, true},      // a second tile of one element
    {{3 * kDefaultTile + 5, lab04::kDefaultBlockThreads}, false}, // 4 tiles, the last one partial
    {{kSmallTile - 1, kSmallThreads}, false},             // 32-thread blocks: one partial tile
    {{kSmallTile + 1, kSmallThreads}, false},             // two tiles
    {{200, kSmallThreads}, true},                         // 4 tiles
    {{kSmallTile * kSmallTile, kSmallThreads}, false},    // 64 tiles: their totals fill one tile
    {{kSmallTile * kSmallTile + 1, kSmallThreads}, true}, // 65 tiles: two levels of recursion
};

std::int64_t tiles_for(std::int64_t n, int tile) {
    return (n + tile - 1) / tile;
}

// How many times the scan of the tile totals recurses for n elements.
int recursion_depth(std::int64_t n, int tile) {
    int depth = 0;
    for (std::int64_t tiles = tiles_for(n, tile); tiles > 1; tiles = tiles_for(tiles, tile))
        ++depth;
    return depth;
}

template <class Op>
auto scan_fn(Variant variant, int block_threads) {
    return [=](const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
               ScanKind kind) {
        if (variant == Variant::scan_then_propagate)
            lab04::scan_then_propagate<Op>(d_in, d_out, n, kind, block_threads);
        else
            lab04::reduce_then_scan<Op>(d_in, d_out, n, kind, block_threads);
    };
}

// What this lab's usual mistakes look like, given the largest size that passed before.
std::string lab_hint(Size size, bool faulted, int deepest_passed, bool several_tiles_passed) {
    const int tile = 2 * size.block_threads;
    const int depth = recursion_depth(size.n, tile);
    const std::string where = "n = " + std::to_string(size.n) + " with " +
                              std::to_string(size.block_threads) + " threads per block (" +
                              std::to_string(tiles_for(size.n, tile)) + " tiles of " +
                              std::to_string(tile) + ")";
#ifdef SCANLAB_BACKEND_SIMT
    if (faulted && simt::last_fault().kind == simt::FaultKind::uninitialized_global_read)
        return "the kernel failed at " + where +
               ": the emulator's report above names a read of device memory that nothing "
               "wrote. In this lab that is a tile total or prefix no block wrote (a grid of n / "
               "tile blocks rounds down and leaves the last tile out: use ceil(n / tile)), or "
               "temporary storage read before the level that fills it ran";
#endif
    if (faulted) {
        const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
        const std::string at = "the kernel failed at " + where + ": ";
        if (seen.is("illegal address")) {
            // Which array: the report gives the size of the allocation the access ran past.
            const std::string data_int = "of " + std::to_string(size.n * 4) + " bytes";
            const std::string data_long = "of " + std::to_string(size.n * 8) + " bytes";
            if (seen.says(data_int) || seen.says(data_long))
                return at + "an access past the end of the input or output array (n elements): "
                            "an element of the last, partial tile is read or written without "
                            "`i < n`";
            if (seen.says("allocation"))
                return at + "an access past the end of an allocation that is not the input or "
                            "the output: the temporary storage (one total per tile at every "
                            "level of the recursion) is too small, or a level writes past its "
                            "part of it";
        }
        if (seen.is("global memory race"))
            return at + "two threads used the same word of device memory with nothing ordering "
                        "them (the report names both lines): in this lab that is usually two "
                        "recursion levels sharing one part of the temporary storage, or a kernel "
                        "that reads its tile's totals while another block of the same launch "
                        "writes them";
        if (seen.is("shared memory race"))
            return at + "a shared-memory race in a block scan (the report names both lines): a "
                        "__syncthreads() is missing between a write to the tile and a read of it";
        if (seen.is("barrier divergence"))
            return at + "some threads of a block did not reach a __syncthreads() the others wait "
                        "at: every thread of the block calls the block scan, also those whose "
                        "elements are past n";
        if (!seen.kind.empty())
            return at + "the emulator's report above (" + seen.kind + ") names the line";
        return at + "the message above says what failed";
    }
    if (depth >= 2 && deepest_passed < depth)
        return where + " needs " + std::to_string(depth) +
               " levels of recursion, and every size with fewer passed: the totals of the tiles "
               "do not fit in one tile either, so scan them with the multi-block scan itself, "
               "and give every level its own part of the temporary storage";
    if (depth >= 1 && !several_tiles_passed)
        return where + " is the first case with several tiles, and every case with one tile "
                       "passed: the mistake is in how the tiles are combined";
    return "";
}

std::string with_hint(const std::string& message, Size size, bool faulted, int deepest_passed,
                      bool several_tiles_passed) {
    const std::string hint = lab_hint(size, faulted, deepest_passed, several_tiles_passed);
    return message + scanlab::test::hint_line("04", hint);
}

// Runs one size; returns false (after reporting) if it failed.
template <class Op>
bool check_size(Variant variant, Size size, ScanKind kind, int deepest_passed,
                bool several_tiles_passed) {
    const std::string what = std::string(name_of(variant)) +
                             " (block_threads=" + std::to_string(size.block_threads) + ")";
    scanlab::test::CheckOptions options;
    options.block_size = 2 * size.block_threads; // "wrong from a tile boundary" hints
    options.lab_hint_follows = true;
    scanlab::test::ScanCheck result;
    try {
        result = scanlab::test::run_device_scan<Op>(
            what, size.n, kind, scan_fn<Op>(variant, size.block_threads), options);
    } catch (const std::exception& error) { // a fault in a kernel, or a failed CUDA call
        const std::string message =
            with_hint(error.what(), size, true, deepest_passed, several_tiles_passed) +
            scanlab::test::reproduce_line();
        FAIL_CHECK(message);
        return false;
    }
    if (!result.ok) {
        FAIL_CHECK(with_hint(result.message, size, false, deepest_passed, several_tiles_passed));
        return false;
    }
    return true;
}

// Stops at the first failing size: the later ones would report the same mistake.
template <class Op>
void check_sizes(Variant variant, ScanKind kind, std::span<const Size> sizes) {
    int deepest_passed = 0;
    bool several_tiles_passed = false;
    for (const Size size : sizes) {
        if (!check_size<Op>(variant, size, kind, deepest_passed, several_tiles_passed)) return;
        const int tile = 2 * size.block_threads;
        deepest_passed = std::max(deepest_passed, recursion_depth(size.n, tile));
        several_tiles_passed = several_tiles_passed || tiles_for(size.n, tile) > 1;
    }
}

template <class Op>
void check_sizes(Variant variant, ScanKind kind, std::initializer_list<Size> sizes) {
    check_sizes<Op>(variant, kind, std::span<const Size>(sizes.begin(), sizes.size()));
}

// The sizes above for Op: all of them for the first type of its operator (the 32-bit integer),
// the `all_types` ones for the others.
template <class Op>
void check_all_sizes(Variant variant, ScanKind kind) {
    const bool first_type = std::is_same_v<typename Op::value_type, std::int32_t>;
    std::vector<Size> sizes;
    for (const MatrixSize size : kSizes)
        if (first_type || size.all_types) sizes.push_back(size.size);
    check_sizes<Op>(variant, kind, std::span<const Size>(sizes));
}

} // namespace

// Every graded operator, type and kind (tests/support/scan_matrix.h), for both variants.
constexpr const char* kVariantPrefixes[] = {"scan-then-propagate ", "reduce-then-scan "};
constexpr Variant kVariants[] = {Variant::scan_then_propagate, Variant::reduce_then_scan};
SCANLAB_CASE_PER_OPERATOR_AND_KIND(kVariantPrefixes, []<class Op>(ScanKind kind, int variant) {
    check_all_sizes<Op>(kVariants[variant], kind);
});

// Three levels of recursion: 262145 elements in 4097 tiles of 64, whose totals make 65 tiles,
// whose totals make 2. One operator for each variant, the non-commutative one on 8-byte values: it
// catches a prefix combined on the wrong side at any level, and temporary storage sized for
// 4-byte totals (every operator and type reaches two levels in the cases above).
TEST_CASE("scan-then-propagate three levels exclusive affine int64") {
    check_sizes<Affine<std::int64_t>>(Variant::scan_then_propagate, ScanKind::exclusive,
                                      {{kSmallTile * kSmallTile * kSmallTile + 1, kSmallThreads}});
}
TEST_CASE("reduce-then-scan three levels exclusive affine int64") {
    check_sizes<Affine<std::int64_t>>(Variant::reduce_then_scan, ScanKind::exclusive,
                                      {{kSmallTile * kSmallTile * kSmallTile + 1, kSmallThreads}});
}

// A large array with the default block size, not a multiple of any tile. On the emulator, 129
// tiles: more blocks than it keeps resident at once (the grid runs in waves); the recursion's
// levels are checked with 32-thread blocks above, where they need far fewer elements than the
// 2^20 + 1 that two levels of 1024-element tiles would.
#ifdef SCANLAB_BACKEND_SIMT
constexpr int kLargeN = (1 << 17) + 3;
#else
constexpr int kLargeN = (1 << 26) + 3;
#endif

TEST_CASE("scan-then-propagate large inclusive sum int32") {
    check_sizes<Sum<std::int32_t>>(Variant::scan_then_propagate, ScanKind::inclusive,
                                   {{kLargeN, lab04::kDefaultBlockThreads}});
}
TEST_CASE("reduce-then-scan large exclusive sum float") {
    check_sizes<Sum<float>>(Variant::reduce_then_scan, ScanKind::exclusive,
                            {{kLargeN, lab04::kDefaultBlockThreads}});
}

// Every allowed block size, at one partial tile and at 4 tiles, the last one partial.
template <class Op>
void check_every_block_size(Variant variant, ScanKind kind) {
    for (int threads = lab04::kMinBlockThreads; threads <= lab04::kMaxBlockThreads; threads *= 2)
        check_sizes<Op>(variant, kind, {{2 * threads - 3, threads}, {6 * threads + 7, threads}});
}

TEST_CASE("scan-then-propagate every block size") {
    check_every_block_size<Sum<double>>(Variant::scan_then_propagate, ScanKind::inclusive);
    check_every_block_size<Affine<std::int32_t>>(Variant::scan_then_propagate, ScanKind::exclusive);
}
TEST_CASE("reduce-then-scan every block size") {
    check_every_block_size<Sum<double>>(Variant::reduce_then_scan, ScanKind::exclusive);
    check_every_block_size<Affine<std::int32_t>>(Variant::reduce_then_scan, ScanKind::inclusive);
}

namespace {

template <class ScanFn>
void check_arguments(Variant variant, ScanFn scan) {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result = scanlab::test::run_device_scan<Sum<int>>(
        name_of(variant), 3000, ScanKind::inclusive,
        [&](const int* in, int* out, int n, ScanKind kind) { scan(in, out, n, kind, 64); });
    REQUIRE_MESSAGE(result.ok, result.message);

    constexpr int kN = 100;
    DeviceBuffer<int> in(std::vector<int>(kN, 1));
    DeviceBuffer<int> out = scanlab::test::poisoned_output(kN);
    const auto inclusive = ScanKind::inclusive;

    CHECK_THROWS_AS(scan(in.data(), out.data(), -1, inclusive, 64), std::invalid_argument);
    CHECK_THROWS_AS(scan(nullptr, out.data(), kN, inclusive, 64), std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), nullptr, kN, ScanKind::exclusive, 64), std::invalid_argument);
    // block_threads: a power of two from kMinBlockThreads to kMaxBlockThreads.
    CHECK_THROWS_AS(scan(in.data(), out.data(), kN, inclusive, 0), std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), out.data(), kN, inclusive, lab04::kMinBlockThreads / 2),
                    std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), out.data(), kN, inclusive, 96), std::invalid_argument);
    CHECK_THROWS_AS(scan(in.data(), out.data(), kN, inclusive, 2 * lab04::kMaxBlockThreads),
                    std::invalid_argument);
    // More tiles than a grid can have (2^31 - 1 blocks): rejected before anything is touched.
    CHECK_THROWS_AS(scan(in.data(), out.data(), std::int64_t(1) << 40, inclusive, 32),
                    std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers; it must launch nothing.
    CHECK_NOTHROW(scan(nullptr, nullptr, 0, inclusive, 64));
    CHECK_NOTHROW(scan(in.data(), out.data(), 0, ScanKind::exclusive, 64));
    scanlab::test::check_output_untouched(out);
}

// Free device memory before and after scans that need temporary storage (the simt backend
// counts bytes exactly; on a GPU the count moves in pages, so a small leak may go unseen there,
// but a correct scan never fails this).
template <class ScanFn>
void check_temporary_memory_is_freed(Variant variant, ScanFn scan) {
    // A scan that needs temporary storage at two levels, checked first: a stub that allocates
    // nothing must not pass.
    const int n = kSmallTile * kSmallTile + 1;
    const auto run = [&](const int* in, int* out, int count, ScanKind kind) {
        scan(in, out, count, kind, kSmallThreads);
    };
    const auto first =
        scanlab::test::run_device_scan<Sum<int>>(name_of(variant), n, ScanKind::exclusive, run);
    REQUIRE_MESSAGE(first.ok, first.message);

    DeviceBuffer<int> in(std::vector<int>(n, 1));
    DeviceBuffer<int> out(static_cast<std::size_t>(n));
    std::size_t free_before = 0, free_after = 0, total = 0;
    REQUIRE(cudaMemGetInfo(&free_before, &total) == cudaSuccess);
    for (int i = 0; i < 4; ++i) scan(in.data(), out.data(), n, ScanKind::inclusive, kSmallThreads);
    // A rejected call must not leak either.
    CHECK_THROWS_AS(scan(in.data(), out.data(), n, ScanKind::inclusive, 48), std::invalid_argument);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    REQUIRE(cudaMemGetInfo(&free_after, &total) == cudaSuccess);
    const std::string leak_message =
        std::string(name_of(variant)) +
        " leaks device memory: " + std::to_string(free_before - free_after) +
        " bytes are still allocated after 4 calls; free the temporary storage before "
        "returning (a scanlab::DeviceBuffer does it for you, even when something throws)";
    CHECK_MESSAGE(free_after >= free_before, leak_message);
}

void scan_then_propagate_int(const int* in, int* out, std::int64_t n, ScanKind kind, int threads) {
    lab04::scan_then_propagate<Sum<int>>(in, out, n, kind, threads);
}
void reduce_then_scan_int(const int* in, int* out, std::int64_t n, ScanKind kind, int threads) {
    lab04::reduce_then_scan<Sum<int>>(in, out, n, kind, threads);
}

} // namespace

TEST_CASE("scan-then-propagate argument checks") {
    check_arguments(Variant::scan_then_propagate, scan_then_propagate_int);
}
TEST_CASE("reduce-then-scan argument checks") {
    check_arguments(Variant::reduce_then_scan, reduce_then_scan_int);
}
TEST_CASE("scan-then-propagate frees its temporary memory") {
    check_temporary_memory_is_freed(Variant::scan_then_propagate, scan_then_propagate_int);
}
TEST_CASE("reduce-then-scan frees its temporary memory") {
    check_temporary_memory_is_freed(Variant::reduce_then_scan, reduce_then_scan_int);
}
