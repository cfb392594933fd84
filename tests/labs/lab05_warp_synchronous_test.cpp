// Graded tests for lab 05 (warp scans with shuffles and with shared memory, a block scan built
// from warp scans, several items per thread, and a reduce-then-scan of any size).
//
// Sizes are chosen for the emulator, which runs every GPU thread on one CPU core (about a million
// elements per second and pass): a small tile shape (64 threads x 3 items) gives more tiles than
// blocks, so that blocks scan runs of several tiles, at a few tens of thousands of elements; one
// large case shows that nothing is limited to small n.
#include "warp_scan.h"

#include "kernel_failure.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "untouched_output.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
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
using scanlab::test::ScanCheck;

namespace {

template <class T>
using ScanFn = std::function<void(const T*, T*, int, ScanKind)>;

// What the emulator's report of a failed launch means here; `fallback` if it says nothing more
// specific (or on a GPU).
std::string fault_hint(const std::string& fallback) {
    const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
    std::string where;
    for (const std::string& line : seen.lines()) where += (where.empty() ? "" : " and ") + line;
    where = where.empty() ? "" : " (" + where + ")";
    const bool race = seen.is("shared memory race");
    const bool unwritten = seen.is("uninitialized shared memory read");
    if ((race || unwritten) && seen.says("'slots'"))
        return race ? "two lanes of one warp used the same slot" + where +
                          " with no __syncwarp() between them: the lanes of a warp do not run "
                          "in lockstep (Volta and later), so every step needs a __syncwarp() "
                          "between its reads and its writes, and another before the next step "
                          "reads (run with --simt-mode=pre-volta to see the 2011 version pass)"
                    : "a lane read a slot before any lane wrote it" + where +
                          ": a __syncwarp() is missing between the lanes' stores (slots[lane] "
                          "= x) and the first reads of other lanes' slots";
    if ((race || unwritten) && (seen.says("'warp_prefix'") || seen.says("'total'")))
        return "the warp totals are written by the last lane of each warp and read by other "
               "warps" +
               where + ": a __syncthreads() is missing between writing them and reading them";
    if (seen.is("warp intrinsic error"))
        return "the report above names a warp intrinsic whose mask does not match the lanes that "
               "call it: every lane executes every __shfl_up_sync with the full mask "
               "0xffffffff (no shuffle inside `if (lane >= offset)`, no partial mask)";
    return fallback;
}

// Runs `scan` on fresh input and checks that every group of `group` consecutive elements was
// scanned on its own (group = 0: the whole array is one scan). Kernel faults become failures.
template <class Op>
ScanCheck run_grouped(const std::string& what, int n, ScanKind kind, int group,
                      const ScanFn<typename Op::value_type>& scan, const std::string& hint_fault) {
    using T = typename Op::value_type;
    const std::vector<T> input = scanlab::test::make_input<Op>(n, kind);
    DeviceBuffer<T> d_in(input);
    DeviceBuffer<T> d_out(std::vector<T>(input.size(), scanlab::test::poison_value<T>()));
    const std::string call = what + " (" + scanlab::to_string(kind) + " " + Op::name + " " +
                             scanlab::type_name<T>() + ", n=" + std::to_string(n) + ")";
    scanlab::test::KernelWorkWatch watch;
    watch.input(d_in.data(), input.size()).output(d_out.data(), input.size());
    try {
        scan(d_in.data(), d_out.data(), n, kind);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& error) {
        return {false, scanlab::test::kernel_failure_report(call + ": the kernel failed" +
                                                                scanlab::test::fault_where() +
                                                                ": " + error.what(),
                                                            "05", fault_hint(hint_fault))};
    }
    if (std::string host_work = watch.verdict(call); !host_work.empty())
        return {false, std::move(host_work)};
    const std::vector<T> out = d_out.download();
    const std::vector<T> in_after = d_in.download();
    // Groups of one warp are the Hillis-Steele steps of a warp scan.
    scanlab::test::CheckOptions options;
    options.hillis_steele = group == lab05::kWarpSize;
    options.lab_hint_follows = true; // check_sizes adds this lab's hint
    if (group <= 0 || group >= n)
        return scanlab::test::check_scan<Op>(what, input, in_after, out, kind, options);
    for (int start = 0; start < n; start += group) {
        const std::size_t first = static_cast<std::size_t>(start);
        const std::size_t count = static_cast<std::size_t>(std::min(group, n - start));
        const std::span<const T> in_part(input.data() + first, count);
        const std::span<const T> after_part(in_after.data() + first, count);
        const std::span<const T> out_part(out.data() + first, count);
        const std::string part = what + ", group of elements [" + std::to_string(start) + ", " +
                                 std::to_string(start + count) +
                                 ") (each group is scanned on its own; indices below are "
                                 "within the group)";
        ScanCheck result =
            scanlab::test::check_scan<Op>(part, in_part, after_part, out_part, kind, options);
        if (!result.ok) return result;
    }
    return {};
}

// Checks every size in turn and stops at the first failure: later sizes show the same mistake.
template <class Op>
bool check_sizes(const std::string& what, std::initializer_list<int> sizes, ScanKind kind,
                 int group, const ScanFn<typename Op::value_type>& scan,
                 const std::string& hint_fault, const std::string& hint_wrong) {
    for (const int n : sizes) {
        const ScanCheck result = run_grouped<Op>(what, n, kind, group, scan, hint_fault);
        if (!result.ok) {
            const bool faulted = result.message.find("the kernel failed") != std::string::npos;
            const std::string extra = faulted ? "" : scanlab::test::hint_line("05", hint_wrong);
            const std::string message = result.message + extra;
            FAIL_CHECK(message);
            return false;
        }
    }
    return true;
}

// ---- part 1: warp scans -------------------------------------------------------------------

const char* variant_name(lab05::WarpScanVariant variant) {
    return variant == lab05::WarpScanVariant::shuffle ? "shuffle" : "shared_memory";
}

template <class Op>
bool check_warp_groups(lab05::WarpScanVariant variant, ScanKind kind) {
    using T = typename Op::value_type;
    const std::string what = std::string("lab05::warp_scan_groups (") + variant_name(variant) + ")";
    const ScanFn<T> fn = [variant](const T* in, T* out, int n, ScanKind k) {
        lab05::warp_scan_groups<Op>(in, out, n, k, variant);
    };
    const std::string fault =
        variant == lab05::WarpScanVariant::shared_memory
            ? "the emulator's report above names the line. A shared-memory race between lanes "
              "of ONE warp means a missing __syncwarp(): the lanes of a warp do not run in "
              "lockstep on Volta and later GPUs (run with --simt-mode=pre-volta to see the "
              "2011 version pass, as it did on older GPUs). An uninitialized read means a lane "
              "read a slot before it was written"
            : "the emulator's report above names the line: every lane must execute every "
              "__shfl_up_sync (no shuffle inside `if (lane >= offset)`), with the full mask";
    const std::string wrong =
        "each warp scans its 32 elements on its own; with k = lane - offset, a lane combines "
        "Op::apply(value of lane k, own value) only if lane >= offset, and lanes past n still "
        "take part with the identity";
    return check_sizes<Op>(what, {1, 2, 31, 32, 33, 64, 100, 1000, 1025}, kind, lab05::kWarpSize,
                           fn, fault, wrong);
}

// ---- parts 2 and 3: block scans with several items per thread ------------------------------

template <class Op, int Threads, int Items>
bool check_block_tiles(ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kTile = Threads * Items;
    const std::string what = "lab05::block_scan_tiles<" + std::to_string(Threads) + " threads, " +
                             std::to_string(Items) + " items>";
    const ScanFn<T> fn = [](const T* in, T* out, int n, ScanKind k) {
        lab05::block_scan_tiles<Op, Threads, Items>(in, out, n, k);
    };
    const std::string fault =
        "the emulator's report above names the line. A race on the warp totals: a "
        "__syncthreads() is missing between writing them and reading them; out of bounds: the "
        "last, partial tile reads or writes past n";
    const std::string wrong =
        "a tile is " + std::to_string(Threads) + " threads x " + std::to_string(Items) +
        " items; thread t owns its elements t*" + std::to_string(Items) +
        " ... consecutively. Wrong from a multiple of " + std::to_string(32 * Items) +
        " (one warp's elements): the prefix of the earlier warps is missing or on the wrong "
        "side; wrong from a multiple of " +
        std::to_string(Items) +
        ": the thread's seed (exclusive prefix of the block scan) is not combined with its items";
    return check_sizes<Op>(what,
                           {1, kTile - 1, kTile, kTile + 1, 3 * kTile + 5, 7 * kTile + kTile / 2},
                           kind, kTile, fn, fault, wrong);
}

// ---- part 4: any n ------------------------------------------------------------------------

template <class Op, int Threads = lab05::kDefaultBlockThreads,
          int Items = lab05::kDefaultItemsPerThread<typename Op::value_type>>
bool check_scan_sizes(ScanKind kind, std::initializer_list<int> sizes) {
    using T = typename Op::value_type;
    const std::string what =
        "lab05::scan<" + std::to_string(Threads) + " threads, " + std::to_string(Items) + " items>";
    const ScanFn<T> fn = [](const T* in, T* out, int n, ScanKind k) {
        lab05::scan<Op, Threads, Items>(in, out, n, k);
    };
    const int tile = Threads * Items;
    const std::string fault =
        "the emulator's report above names the line. Usually the last, partial tile read or "
        "written without a bounds check, or a block total written past the totals array";
    const std::string wrong =
        "the tile is " + std::to_string(tile) +
        " elements. Wrong from a tile boundary: a block's running total is not carried to its "
        "next tile, or the prefix of the earlier blocks (step 2 must be an EXCLUSIVE scan of "
        "the block totals) is missing or on the right of Op::apply";
    return check_sizes<Op>(what, sizes, kind, 0, fn, fault, wrong);
}

template <class Op>
void check_scan_all(ScanKind kind) {
    constexpr int kTile =
        lab05::kDefaultBlockThreads * lab05::kDefaultItemsPerThread<typename Op::value_type>;
    constexpr int kSmall = 64 * 3;
    // The default shape: one tile, a second tile, a few tiles.
    if (!check_scan_sizes<Op>(kind, {1, 100, kTile - 1, kTile, kTile + 1, 3 * kTile + 5})) return;
    // 192-element tiles: more tiles than blocks, so each block scans a run of several tiles. The
    // run of tiles is the same path for every type of one size: each operator's int32 and int64
    // (the 4- and 8-byte running totals) run it; the small shape is compiled only for the
    // operators the tests call it with (LAB05_SMALL_TILE_OPERATORS in warp_scan.h).
    using T = typename Op::value_type;
    if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>)
        check_scan_sizes<Op, 64, 3>(kind, {kSmall + 1, 5 * kSmall - 1, 150 * kSmall + 7});
}

} // namespace

// Part 1: each warp scan for every operator family and kind, every type inside one test case
// (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_FAMILY_AND_KIND("warp scan shuffle: ", []<class Family>(ScanKind kind) {
    scanlab::test::for_each_type_of<Family>(
        [&]<class Op>() { return check_warp_groups<Op>(lab05::WarpScanVariant::shuffle, kind); });
});
SCANLAB_CASE_PER_FAMILY_AND_KIND("warp scan shared_memory: ", []<class Family>(ScanKind kind) {
    scanlab::test::for_each_type_of<Family>([&]<class Op>() {
        return check_warp_groups<Op>(lab05::WarpScanVariant::shared_memory, kind);
    });
});

// Parts 2 and 3: two tile shapes (one item per thread in 4 warps; 3 items per thread in 3 warps).
SCANLAB_CASE_PER_FAMILY_AND_KIND("block scan tiles: ", []<class Family>(ScanKind kind) {
    scanlab::test::for_each_type_of<Family>([&]<class Op>() {
        return check_block_tiles<Op, 128, 1>(kind) && check_block_tiles<Op, 96, 3>(kind);
    });
});

// Part 4: every graded operator, type and kind.
SCANLAB_CASE_PER_OPERATOR_AND_KIND("scan ",
                                   []<class Op>(ScanKind kind) { check_scan_all<Op>(kind); });

// The smallest and the largest block: one warp with one item each (the block scan's second level
// has a single warp total), and 32 warps (a full warp of totals).
TEST_CASE("scan smallest and largest blocks") {
    if (check_scan_sizes<Sum<std::int32_t>, 32, 1>(ScanKind::inclusive, {33, 1000, 20001}))
        check_scan_sizes<Affine<std::uint32_t>, 1024, 2>(ScanKind::exclusive,
                                                         {2047, 2049, 3 * 2048 + 1, 30001});
}

// A large array with the default tile shape, not a multiple of any tile: on the emulator 2^19 + 3
// elements, 129 tiles of 4096 over the 32 blocks of 256 threads that its 4 SMs hold at once (each
// block scans a run of 4 or 5 tiles); on a GPU 2^21 + 3.
TEST_CASE("scan large array") {
#ifdef SCANLAB_BACKEND_SIMT
    check_scan_sizes<Sum<std::int32_t>>(ScanKind::inclusive, {(1 << 19) + 3});
#else
    check_scan_sizes<Sum<std::int32_t>>(ScanKind::inclusive, {(1 << 21) + 3});
#endif
}

TEST_CASE("scan in place and with a reused workspace") {
    using Op = Affine<std::int32_t>;
    constexpr int kN = 50001;
    // In place: out == in.
    ScanCheck result = scanlab::test::run_device_scan<Op>(
        "lab05::scan in place (out == in)", kN, ScanKind::inclusive,
        [](const int* in, int* out, int n, ScanKind kind) {
            lab05::scan<Op, 64, 3>(in, out, n, kind);
        },
        {}, scanlab::test::ScanOutput::in_place);
    REQUIRE_MESSAGE(result.ok, result.message);

    // One workspace for several calls, first a small one, then one that needs more blocks.
    lab05::Workspace workspace;
    for (const int n : {5000, kN, 3000}) {
        const std::vector<int> in = scanlab::test::make_input<Op>(n, ScanKind::exclusive);
        DeviceBuffer<int> d_in(in);
        DeviceBuffer<int> d_out(std::vector<int>(in.size(), scanlab::test::poison_value<int>()));
        scanlab::test::KernelWorkWatch watch;
        watch.input(d_in.data(), in.size()).output(d_out.data(), in.size());
        lab05::scan<Op, 64, 3>(d_in.data(), d_out.data(), n, ScanKind::exclusive, &workspace);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const std::string host_work = watch.verdict("lab05::scan with a Workspace");
        REQUIRE_MESSAGE(host_work.empty(), host_work);
        result = scanlab::test::check_scan<Op>("lab05::scan with a Workspace", in, d_in.download(),
                                               d_out.download(), ScanKind::exclusive);
        REQUIRE_MESSAGE(result.ok, result.message);
    }
    CHECK(workspace.capacity() > 0);
}

TEST_CASE("argument checks") {
    // A real scan first, so that a stub which does nothing cannot pass this case.
    const auto result =
        scanlab::test::run_device_scan<Sum<int>>("lab05::scan", 3000, ScanKind::inclusive,
                                                 [](const int* in, int* out, int n, ScanKind kind) {
                                                     lab05::scan<Sum<int>>(in, out, n, kind);
                                                 });
    REQUIRE_MESSAGE(result.ok, result.message);

    constexpr int kN = 100;
    DeviceBuffer<int> in(std::vector<int>(kN, 1));
    DeviceBuffer<int> out = scanlab::test::poisoned_output(kN);
    const auto inclusive = ScanKind::inclusive;
    const auto shuffle = lab05::WarpScanVariant::shuffle;

    CHECK_THROWS_AS(
        lab05::warp_scan_groups<Sum<int>>(in.data(), out.data(), -1, inclusive, shuffle),
        std::invalid_argument);
    CHECK_THROWS_AS(lab05::warp_scan_groups<Sum<int>>(nullptr, out.data(), kN, inclusive, shuffle),
                    std::invalid_argument);
    CHECK_THROWS_AS((lab05::block_scan_tiles<Sum<int>, 128, 1>(in.data(), nullptr, kN, inclusive)),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        (lab05::block_scan_tiles<Sum<int>, 128, 1>(in.data(), out.data(), -5, inclusive)),
        std::invalid_argument);
    CHECK_THROWS_AS(lab05::scan<Sum<int>>(in.data(), out.data(), -1, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab05::scan<Sum<int>>(nullptr, out.data(), kN, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab05::scan<Sum<int>>(in.data(), nullptr, kN, ScanKind::exclusive),
                    std::invalid_argument);
    // n == 0 is an empty scan, not an error, even with null pointers; it must launch nothing.
    CHECK_NOTHROW(lab05::warp_scan_groups<Sum<int>>(nullptr, nullptr, 0, inclusive, shuffle));
    CHECK_NOTHROW((lab05::block_scan_tiles<Sum<int>, 128, 1>(nullptr, nullptr, 0, inclusive)));
    CHECK_NOTHROW(lab05::scan<Sum<int>>(nullptr, nullptr, 0, inclusive));
    CHECK_NOTHROW(lab05::scan<Sum<int>>(in.data(), out.data(), 0, ScanKind::exclusive));
    scanlab::test::check_output_untouched(out);
}
