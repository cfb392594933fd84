// Graded tests for lab 07 (single-pass scan with decoupled look-back; stream compaction).
//
// Sizes are chosen for the emulator (about a million elements per second): a small tile shape
// (64 threads x 3 items = 192 elements) gives dozens to hundreds of tiles at a few thousand
// elements. On the simt backend the schedule tests set the emulator's mode (its, lockstep) and
// block dispatch order (in order, shuffled) themselves, and restore them afterwards.
#include "lookback_scan.h"

#include "back_to_back_scans.h"
#include "emulator_schedule.h"
#include "kernel_failure.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "untouched_output.h"

#include <doctest/doctest.h>

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#include "simt/report.h"
#endif

#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <limits>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::Max;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::kSchedules;
using scanlab::test::ScanCheck;
using scanlab::test::Schedule;
using scanlab::test::ScheduleScope;

namespace {

using lab07::Descriptors;
using lab07::LookbackOptions;
using lab07::TileIds;

constexpr int kSmallThreads = 64;
constexpr int kSmallItems = 3;
constexpr int kSmallTile = kSmallThreads * kSmallItems;

std::string describe(const LookbackOptions& options) {
    std::string text = options.tile_ids == TileIds::atomic_counter ? "tile ids from a counter"
                                                                   : "tile ids from blockIdx";
    text += options.descriptors == Descriptors::packed     ? ", packed descriptors"
            : options.descriptors == Descriptors::separate ? ", separate descriptors"
                                                           : ", automatic descriptors";
    return text;
}

// ---- scans ----------------------------------------------------------------------------------

// The hint for a kernel that failed, from what the emulator reported (on a GPU only the error).
std::string fault_hint() {
#ifdef SCANLAB_BACKEND_SIMT
    // The most specific finding of the launch decides (a plain-pointer spin is also a race).
    const simt::FaultReport& fault = simt::last_fault();
    const auto found = [&](simt::FaultKind kind) {
        if (fault.kind == kind) return true;
        for (const auto& finding : fault.findings)
            if (finding.kind == kind) return true;
        return false;
    };
    simt::FaultKind kind = fault.kind;
    for (simt::FaultKind specific :
         {simt::FaultKind::plain_load_spin, simt::FaultKind::memory_ordering,
          simt::FaultKind::stale_read, simt::FaultKind::uninitialized_global_read})
        if (found(specific)) {
            kind = specific;
            break;
        }
    // What the reports say decides between mistakes of one kind.
    const auto said = [&](const char* text) {
        for (const auto& finding : fault.findings)
            if (finding.message.find(text) != std::string::npos) return true;
        return fault.message.find(text) != std::string::npos;
    };
    switch (kind) {
    case simt::FaultKind::memory_ordering:
        if (said("torn publication"))
            return "a packed descriptor's flag and value were stored apart: publish() must build "
                   "the whole 64-bit word in a register and write it with one 64-bit store, so "
                   "that no reader sees the new flag with the old value";
        if (said("torn read"))
            return "a packed descriptor was loaded in two halves: read() must load the whole "
                   "64-bit word with one 64-bit load (between two loads the writer may publish "
                   "again, A then P, and the halves come from different stores)";
        if (said("value read before its flag"))
            return "a value was read before the flag that announces it: read() loads the flag, "
                   "then __threadfence(), then the value the flag announces, and uses only a value "
                   "read after the flag said A or P";
        return "the emulator's report above names the fence that is missing. With separate "
               "descriptors, publish() stores the value, then __threadfence(), then the flag; "
               "read() loads the flag, then __threadfence(), then the value the flag announces. "
               "Without the first fence another block may see the new flag with the old value; "
               "without the second, the reader may load the value before the flag";
    case simt::FaultKind::plain_load_spin:
        return "the report above names a descriptor polled through a plain pointer: the "
               "compiler may load it once and spin on the register forever (nvcc does). Read "
               "descriptors through a `volatile` pointer";
    case simt::FaultKind::stale_read:
        return "a tile read a descriptor that still held what the previous scan left there: "
               "every descriptor must be X (cleared) before each launch";
    case simt::FaultKind::uninitialized_global_read:
        return "the report above names a read of device memory nothing wrote: a descriptor "
               "value read without its flag saying A or P, or flags that were not cleared";
    case simt::FaultKind::global_race:
        if (said("programmatic dependent launch"))
            return "a kernel touched memory of the kernel before it before "
                   "wait_for_previous_grid() (cudaGridDependencySynchronize()): with PDL it may "
                   "start while that kernel still runs. The wait comes first in the kernel, "
                   "before the tile id (the counter is the Workspace half the previous call "
                   "cleared), the descriptors and the input (the previous call's output)";
        if (said("a plain store and an atomic update of one word race"))
            return "the report above names a plain store racing the blocks' atomics on one word: "
                   "no block may reset the tile counter (or any word the others update with "
                   "atomics) inside the kernel, since nothing orders it before their atomicAdd; "
                   "the host (cudaMemset) or the launch before resets it";
        return "the report above names two accesses to one word of global memory with nothing "
               "ordering them: descriptors are written and read through `volatile` pointers, "
               "and a value only after its flag says A or P";
    case simt::FaultKind::deadlock:
        if (said("never dispatched"))
            return "a block waited for a tile whose block was never dispatched: a tile's number "
                   "is not the order in which blocks start, so tile ids must come from the "
                   "counter (atomicAdd when the block starts), not from blockIdx.x";
        return "every block that waits had started, and a tile it waits for is never "
               "published. Each block takes ONE tile id: one thread calls atomicAdd and shares "
               "the id through shared memory, read after a __syncthreads() (if every thread "
               "calls atomicAdd, the threads of a block work on different tiles and some tiles "
               "are never finished); every tile publishes A (P for tile 0) BEFORE it looks back; "
               "a lane stops polling once its tile is not X";
    default:
        break;
    }
#endif
    return "the kernel failed: the emulator's report above names the line. A deadlock: a block "
           "waited for a tile that never published (tile ids come from the counter, one per "
           "block: one thread takes it and shares it; every tile publishes A, or P for tile 0, "
           "BEFORE it looks back; a lane must stop polling once its tile is not X). Out of "
           "bounds: the last, partial tile, or a look-back lane reading the descriptor of a tile "
           "below 0";
}

// The look-back's mistakes that give a tile's values the shape the checker saw (`shape`, with
// tiles of `shape_tile` elements; unknown where it saw none or the failure is not a scan's).
std::string lab_hint(int n, bool faulted,
                     scanlab::test::TileShape shape = scanlab::test::TileShape::unknown,
                     int shape_tile = 0) {
    using scanlab::test::TileShape;
    if (faulted) return fault_hint();
    const std::string size = shape_tile <= 0
                                 ? "n = " + std::to_string(n) + ". "
                                 : "n = " + std::to_string(n) + " is " +
                                       std::to_string((n + shape_tile - 1) / shape_tile) +
                                       " tiles of " + std::to_string(shape_tile) + ". ";
    switch (shape) {
    case TileShape::alone:
        return size + "The tile started from the identity, as if it waited for nothing: its "
                      "look-back added no predecessor. Usually a lane took X (not published "
                      "yet) as the identity, where it must poll until its tile is no longer X; "
                      "or warp 0's result did not reach the other warps";
    case TileShape::missing:
        return size + "Tiles are missing from the prefix: either a lane took X (not published "
                      "yet) as the identity and went on, where it must poll until the tile is "
                      "no longer X, or a tile published P without its own aggregate: P = "
                      "Op::apply(prefix before it, its aggregate)";
    case TileShape::twice:
        return size + "Tiles counted twice: a P ends the look-back (it already holds every tile "
                      "before it), so the lanes beyond the nearest P add nothing, and the "
                      "window stops there";
    case TileShape::own_total:
        return size + "The tile's own aggregate is in its prefix: the prefix is what comes "
                      "BEFORE the tile; the tile publishes P = Op::apply(prefix, aggregate) "
                      "only for the tiles after it";
    case TileShape::on_the_right:
        return size + "The prefix is on the RIGHT: the values of the window come from EARLIER "
                      "tiles, so they go on the LEFT of Op::apply";
    case TileShape::unknown:
        break;
    }
    return size + "The look-back's rules: the values of the window come from EARLIER tiles, so "
                  "they go on the LEFT of Op::apply; A adds a predecessor's aggregate and goes "
                  "on, P adds its inclusive prefix and stops; each tile publishes P = "
                  "apply(prefix before it, its aggregate)";
}

template <class Op, int Threads, int Items>
ScanCheck run_scan(int n, ScanKind kind, const LookbackOptions& options) {
    const std::string what = "lab07::scan<" + std::to_string(Threads) + " threads, " +
                             std::to_string(Items) + " items> (" + describe(options) + ")";
    scanlab::test::CheckOptions check;
    check.block_size = Threads * Items;
    check.lab_hint_follows = true;
    check.smallest_block_size = Threads; // the scan may take smaller tiles for small inputs
    ScanCheck result;
    try {
        result = scanlab::test::run_device_scan<Op>(
            what, n, kind,
            [&](const typename Op::value_type* in, typename Op::value_type* out, int count,
                ScanKind k) { lab07::scan<Op, Threads, Items>(in, out, count, k, options); },
            check);
    } catch (const std::exception& error) {
        return {false, scanlab::test::kernel_failure_report(error.what(), "07", lab_hint(n, true))};
    }
    if (!result.ok)
        result.message +=
            scanlab::test::hint_line("07", lab_hint(n, false, result.tile_shape, result.tile_size));
    return result;
}

template <class Op, int Threads = lab07::kDefaultBlockThreads<typename Op::value_type>,
          int Items = lab07::kDefaultItemsPerThread<typename Op::value_type>>
bool check_scan_sizes(ScanKind kind, std::initializer_list<int> sizes,
                      const LookbackOptions& options = {}) {
    for (const int n : sizes) {
        const ScanCheck result = run_scan<Op, Threads, Items>(n, kind, options);
        if (!result.ok) {
            FAIL_CHECK(result.message);
            return false;
        }
    }
    return true;
}

template <class Op>
void check_scan_all(ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kTile = lab07::kDefaultBlockThreads<T> * lab07::kDefaultItemsPerThread<T>;
    // One tile (tile 0 alone), two, several; then many small tiles (windows of 32 and more). The
    // first type of each size in a family (int32; int64, whose packed descriptors are tagged pairs
    // of words) runs them all; the family's other types (uint32, float, double: the same tiles
    // and descriptors, other values and identities) one element, two tiles and several. The
    // small shape is compiled only for the operators the tests call it with
    // (LAB07_SMALL_TILE_OPERATORS in lookback_scan.h).
    if constexpr (std::is_same_v<T, std::int32_t> || std::is_same_v<T, std::int64_t>) {
        if (check_scan_sizes<Op>(kind, {1, 100, kTile - 1, kTile, kTile + 1, 5 * kTile + 3}))
            check_scan_sizes<Op, kSmallThreads, kSmallItems>(kind,
                                                             {kSmallTile + 1, 50 * kSmallTile + 7});
    } else {
        check_scan_sizes<Op>(kind, {1, kTile + 1, 5 * kTile + 3});
    }
}

// ---- stream compaction ----------------------------------------------------------------------

template <class T>
T middle_threshold() {
    if constexpr (std::is_unsigned_v<T>)
        return std::numeric_limits<T>::max() / 2;
    else
        return T(0);
}

template <class T>
std::string show(T v) {
    std::ostringstream out;
    if constexpr (std::is_floating_point_v<T>) out.precision(std::numeric_limits<T>::max_digits10);
    out << +v;
    return out.str();
}

template <class T, int Threads, int Items>
ScanCheck run_select(int n, T threshold, const LookbackOptions& options, bool in_place) {
    const std::string what = "lab07::select_greater<" + std::string(scanlab::type_name<T>()) +
                             ", " + std::to_string(Threads) + " threads, " + std::to_string(Items) +
                             " items> (" + describe(options) + (in_place ? ", in place" : "") +
                             "), n=" + std::to_string(n) + ", threshold=" + show(threshold) +
                             ", seed=" + std::to_string(scanlab::test::seed());
    const std::string reproduce = scanlab::test::reproduce_line();
    // Inputs over the whole range of T (integers) or [-1000, 1000) (floating point).
    const std::vector<T> input = scanlab::test::make_input<Max<T>>(n, ScanKind::inclusive);
    std::vector<T> expected;
    for (const T x : input)
        if (x > threshold) expected.push_back(x);

    const T poison = scanlab::test::poison_value<T>();
    DeviceBuffer<T> d_in(input);
    DeviceBuffer<T> d_out(std::vector<T>(input.size(), poison));
    DeviceBuffer<int> d_count(std::vector<int>{-1});
    T* const out_ptr = in_place ? d_in.data() : d_out.data();
    scanlab::test::KernelWorkWatch watch;
    watch.input(d_in.data(), input.size()).output(out_ptr, input.size());
    // With n == 0 there is nothing to count: setting *d_count = 0 from the host is fine then.
    if (n > 0) watch.output(d_count.data(), 1);
    try {
        lab07::select_greater<T, Threads, Items>(d_in.data(), out_ptr, d_count.data(), n, threshold,
                                                 options);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& error) {
        return {false, scanlab::test::kernel_failure_report(what + ": the kernel failed" +
                                                                scanlab::test::fault_where() +
                                                                ": " + error.what(),
                                                            "07", lab_hint(n, true))};
    }
    if (std::string host_work = watch.verdict(what); !host_work.empty())
        return {false, std::move(host_work) + reproduce};
    const int count = d_count.download()[0];
    const std::vector<T> out = in_place ? d_in.download() : d_out.download();
    const int want = static_cast<int>(expected.size());
    if (count != want) {
        std::string hint =
            count == -1 ? "*d_count was never written: the block of the LAST tile writes its "
                          "inclusive prefix (the total number of kept elements) there"
            : count < want
                ? "too few: is every tile's count combined (look-back), and does the last "
                  "tile write prefix + its own count?"
                : "too many: is a padding element of the last tile (past n) counted, or a "
                  "tile counted twice?";
        return {false, what + "\n  count: expected " + std::to_string(want) + ", got " +
                           std::to_string(count) + "\n  hint: " + hint + reproduce};
    }
    for (int i = 0; i < want; ++i) {
        if (out[i] == expected[i]) continue;
        const bool present = std::find(expected.begin(), expected.end(), out[i]) != expected.end();
        std::string hint =
            scanlab::test::is_poison(out[i]) && !in_place
                ? "this output was never written: every kept element goes to (its tile's "
                  "prefix + its rank in the tile)"
            : present ? "a kept element in the wrong place: the output keeps the input order; "
                        "an element's slot is the exclusive prefix count of the kept elements "
                        "before it"
                      : "this value is not one that should be kept (> threshold)";
        std::ostringstream message;
        message << what << "\n  first wrong output at index " << i << " of " << want
                << ": expected " << show(expected[i]) << ", got " << show(out[i])
                << "\n  hint: " << hint << scanlab::test::hint_line("07", lab_hint(n, false))
                << reproduce;
        return {false, message.str()};
    }
    if (!in_place) {
        for (int i = want; i < n; ++i) {
            if (scanlab::test::is_poison(out[i])) continue;
            return {false, what + "\n  d_out[" + std::to_string(i) + "] past the " +
                               std::to_string(want) +
                               " kept elements was written\n  hint: write only the kept "
                               "elements, to d_out[0 .. count)" +
                               reproduce};
        }
        const std::vector<T> in_after = d_in.download();
        if (in_after != input)
            return {false, what +
                               "\n  the input was modified (not in place)\n  hint: read "
                               "d_in, write only d_out" +
                               reproduce};
    }
    return {};
}

template <class T, int Threads = lab07::kDefaultBlockThreads<T>,
          int Items = lab07::kDefaultItemsPerThread<T>>
bool check_select_sizes(std::initializer_list<int> sizes, T threshold,
                        const LookbackOptions& options = {}, bool in_place = false) {
    for (const int n : sizes) {
        const ScanCheck result = run_select<T, Threads, Items>(n, threshold, options, in_place);
        if (!result.ok) {
            FAIL_CHECK(result.message);
            return false;
        }
    }
    return true;
}

template <class T>
void check_select_all() {
    constexpr int kTile = lab07::kDefaultBlockThreads<T> * lab07::kDefaultItemsPerThread<T>;
    const T half = middle_threshold<T>();
    if (!check_select_sizes<T>({1, 100, kTile - 1, kTile + 1, 5 * kTile + 3}, half)) return;
    if (!check_select_sizes<T, kSmallThreads, kSmallItems>({kSmallTile + 1, 50 * kSmallTile + 7},
                                                           half))
        return;
    // Nothing kept, everything kept (the inputs never reach the lowest value of T... almost:
    // whatever is equal to it is not kept, and the expected output says so).
    if (!check_select_sizes<T, kSmallThreads, kSmallItems>({20 * kSmallTile + 5},
                                                           std::numeric_limits<T>::max()))
        return;
    (void)check_select_sizes<T, kSmallThreads, kSmallItems>({20 * kSmallTile + 5},
                                                            std::numeric_limits<T>::lowest());
}

} // namespace

// ---- the scan: every graded operator, type and kind (tests/support/scan_matrix.h) ----------

SCANLAB_CASE_PER_OPERATOR_AND_KIND("scan ",
                                   []<class Op>(ScanKind kind) { check_scan_all<Op>(kind); });

// ---- schedules and descriptor layouts --------------------------------------------------------

// Every emulator schedule (its/lockstep x blocks in order/shuffled, several seeds) with both
// descriptor layouts, on the non-commutative operator and on 8-byte types (whose packed
// descriptors are tagged pairs of words).
TEST_CASE("scan under every schedule and descriptor layout") {
    constexpr int kN = 60 * kSmallTile + 11;
    std::uint64_t seed = 1;
    for (const Schedule& schedule : kSchedules) {
        for (int repeat = 0; repeat < 2; ++repeat, ++seed) {
            ScheduleScope scope(schedule, seed);
            INFO("emulator schedule: " << std::string(schedule.name) << ", SIMT_SEED=" << seed);
            for (const Descriptors layout : {Descriptors::packed, Descriptors::separate}) {
                const LookbackOptions options{TileIds::atomic_counter, layout};
                if (!check_scan_sizes<Affine<std::uint32_t>, kSmallThreads, kSmallItems>(
                        ScanKind::inclusive, {kN}, options))
                    return;
                if (!check_scan_sizes<Affine<std::int64_t>, kSmallThreads, kSmallItems>(
                        ScanKind::exclusive, {kN}, options))
                    return;
                if (!check_scan_sizes<Sum<double>, kSmallThreads, kSmallItems>(ScanKind::inclusive,
                                                                               {kN}, options))
                    return;
            }
        }
    }
}

// The look-back moves its window 32 tiles back when the nearest 32 predecessors all have A but
// none has P yet. On the emulator that needs blocks that publish A long before they can finish:
// tile ids from blockIdx.x with shuffled dispatch, and every tile resident at once (16 emulated
// SMs keep 512 blocks of 64 threads), so that tiles started early wait for lower tiles started
// late; their successors then see windows of aggregates only. (On a GPU, windows slide whenever
// many blocks look back at once; there the test uses tile ids from the counter.)
// 250 tiles: the solution's windows slid 387 times in the three scans below (from 162 tiles; 1115
// times with 500 tiles, at twice the cost).
TEST_CASE("scan with look-back windows that slide") {
    constexpr int kTiles = 250;
    constexpr int kN = kTiles * kSmallTile - 7;
#ifdef SCANLAB_BACKEND_SIMT
    const TileIds ids = TileIds::block_index;
#else
    const TileIds ids = TileIds::atomic_counter;
#endif
    // Each shuffled schedule once, each layout of 8-byte descriptors once, and 4-byte packed ones.
    std::uint64_t seed = 1;
    for (const int which : {1, 3}) {
        const Schedule& schedule = kSchedules[which];
        ScheduleScope scope(schedule, seed);
#ifdef SCANLAB_BACKEND_SIMT
        simt::options().multiprocessors = 16; // restored with the rest by `scope`
#endif
        INFO("emulator schedule: " << std::string(schedule.name) << ", 16 SMs, SIMT_SEED=" << seed);
        ++seed;
        if (which == 1) {
            if (!check_scan_sizes<Affine<std::uint32_t>, kSmallThreads, kSmallItems>(
                    ScanKind::inclusive, {kN}, {ids, Descriptors::packed}))
                return;
            if (!check_scan_sizes<Affine<std::int64_t>, kSmallThreads, kSmallItems>(
                    ScanKind::exclusive, {kN}, {ids, Descriptors::separate}))
                return;
        } else if (!check_scan_sizes<Affine<std::int64_t>, kSmallThreads, kSmallItems>(
                       ScanKind::exclusive, {kN}, {ids, Descriptors::packed})) {
            return;
        }
    }
}

// Tile ids from blockIdx.x. Correct when every block is resident at once (a handful of tiles),
// and, on the emulator with shuffled dispatch and many tiles, a deadlock that is REPORTED as one
// (a GPU would simply hang): some resident block waits for a tile whose block never started.
// With tile ids from the counter, the same launch completes.
TEST_CASE("tile ids from blockIdx deadlock under shuffled dispatch") {
    const LookbackOptions by_index{TileIds::block_index, Descriptors::automatic};
    if (!check_scan_sizes<Sum<std::int32_t>, kSmallThreads, kSmallItems>(
            ScanKind::inclusive, {4 * kSmallTile - 5}, by_index))
        return;
#ifdef SCANLAB_BACKEND_SIMT
    constexpr int kN = 1000 * kSmallTile; // far more tiles than the emulator keeps resident
    std::vector<int> input(kN, 1);
    DeviceBuffer<int> d_in(input);
    DeviceBuffer<int> d_out(static_cast<std::size_t>(kN));
    {
        ScheduleScope scope({"its, blocks shuffled", false, true}, 7);
        simt::options().report_to_stderr = false; // the expected report is checked below
        // The deadlock is certain once every resident block spins on one never dispatched: a
        // spin of 64 K polls without a write finds it (the default, 4 M, takes a second).
        const std::uint64_t default_spin_limit = simt::options().spin_limit;
        simt::options().spin_limit = 1u << 16;
        simt::reset_device();
        try {
            lab07::scan<Sum<int>, kSmallThreads, kSmallItems>(d_in.data(), d_out.data(), kN,
                                                              ScanKind::inclusive, by_index);
        } catch (const std::runtime_error&) {
            // The emulator runs a launch to its end inside the launch itself, so the error may
            // already come from the cudaGetLastError() after it; it is sticky either way.
        }
        const cudaError_t status = cudaDeviceSynchronize();
        const simt::FaultReport report = simt::last_fault();
        simt::options().spin_limit = default_spin_limit;
        simt::reset_device(); // clear the sticky error for the tests that follow
        CHECK_MESSAGE(status == cudaErrorLaunchTimeout,
                      "expected the emulator to report a deadlock (cudaErrorLaunchTimeout) for "
                      "look-back with tile ids from blockIdx under shuffled dispatch, got "
                          << cudaGetErrorName(status)
                          << "; does the look-back wait for EVERY predecessor (not X) before "
                             "going on?");
        CHECK_MESSAGE(report.kind == simt::FaultKind::deadlock, report.message);
        CHECK_MESSAGE(report.message.find("never dispatched") != std::string::npos,
                      "the deadlock report should name blocks that were never dispatched:\n"
                          << report.message);
    }
    ScheduleScope scope({"its, blocks shuffled", false, true}, 7);
    (void)check_scan_sizes<Sum<std::int32_t>, kSmallThreads, kSmallItems>(ScanKind::inclusive, {kN},
                                                                          LookbackOptions{});
#endif
}

TEST_CASE("scan in place and with a reused workspace") {
    using Op = Affine<std::int32_t>;
    constexpr int kN = 40 * kSmallTile + 3;
    ScanCheck result = scanlab::test::run_device_scan<Op>(
        "lab07::scan in place (out == in)", kN, ScanKind::exclusive,
        [](const int* in, int* out, int n, ScanKind kind) {
            lab07::scan<Op, kSmallThreads, kSmallItems>(in, out, n, kind);
        },
        {}, scanlab::test::ScanOutput::in_place);
    REQUIRE_MESSAGE(result.ok, result.message);

    // The workspace is reused: its descriptors must be X when every call starts. Calls of the
    // same size one after another take the path where each launch clears the next call's half.
    lab07::Workspace workspace;
    for (const int n : {5000, kN, kN, kN, 3000, kN, kN}) {
        const std::vector<int> in = scanlab::test::make_input<Op>(n, ScanKind::inclusive);
        DeviceBuffer<int> d_in(in);
        DeviceBuffer<int> d_out(std::vector<int>(in.size(), scanlab::test::poison_value<int>()));
        scanlab::test::KernelWorkWatch watch;
        watch.input(d_in.data(), in.size()).output(d_out.data(), in.size());
        lab07::scan<Op, kSmallThreads, kSmallItems>(d_in.data(), d_out.data(), n,
                                                    ScanKind::inclusive, {}, &workspace);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const std::string host_work = watch.verdict("lab07::scan with a reused Workspace");
        REQUIRE_MESSAGE(host_work.empty(), host_work);
        result =
            scanlab::test::check_scan<Op>("lab07::scan with a reused Workspace", in,
                                          d_in.download(), d_out.download(), ScanKind::inclusive);
        REQUIRE_MESSAGE(result.ok, result.message);
    }
    CHECK(workspace.capacity() > 0);
}

// Three calls back to back, no host work between them: each kernel is launched with
// programmatic dependent launch right behind the one before (scanlab/pdl.h,
// launch_after_previous), scans its output and uses the Workspace half that it cleared. On a GPU
// it may start while the one before still runs; the emulator runs them one after the other and
// reports any access a kernel makes before cudaGridDependencySynchronize() to what the one
// before wrote.
TEST_CASE("back-to-back scans, each reading the last one's output") {
    lab07::Workspace workspace;
    scanlab::test::check_back_to_back_scans(
        40 * kSmallTile + 3, "07",
        [&](const int* in, int* out, int n) {
            lab07::scan<Sum<int>, kSmallThreads, kSmallItems>(in, out, n, ScanKind::inclusive, {},
                                                              &workspace);
        },
        fault_hint);
}

// A large array with the default tile shape: on the emulator 2^19 + 3 elements, 129 tiles of 4096
// (twice the blocks of 128 threads that its 4 SMs hold at once); on a GPU 2^21 + 3.
TEST_CASE("scan large array") {
#ifdef SCANLAB_BACKEND_SIMT
    check_scan_sizes<Sum<std::int32_t>>(ScanKind::exclusive, {(1 << 19) + 3});
#else
    check_scan_sizes<Sum<std::int32_t>>(ScanKind::exclusive, {(1 << 21) + 3});
#endif
}

TEST_CASE("argument checks") {
    // A real scan of several tiles first, so that a stub cannot pass this case.
    REQUIRE(check_scan_sizes<Sum<int>>(ScanKind::inclusive, {10000}));

    constexpr int kN = 100;
    DeviceBuffer<int> in(std::vector<int>(kN, 1));
    DeviceBuffer<int> out = scanlab::test::poisoned_output(kN);
    DeviceBuffer<int> count(std::vector<int>{-1});
    const auto inclusive = ScanKind::inclusive;

    CHECK_THROWS_AS(lab07::scan<Sum<int>>(in.data(), out.data(), -1, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab07::scan<Sum<int>>(nullptr, out.data(), kN, inclusive),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab07::scan<Sum<int>>(in.data(), nullptr, kN, inclusive),
                    std::invalid_argument);
    // More tiles than a grid can have: rejected before anything is touched.
    CHECK_THROWS_AS((lab07::scan<Sum<int>, kSmallThreads, kSmallItems>(
                        in.data(), out.data(), std::int64_t(1) << 40, inclusive)),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab07::select_greater<int>(in.data(), out.data(), nullptr, kN, 0),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab07::select_greater<int>(nullptr, out.data(), count.data(), kN, 0),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab07::select_greater<int>(in.data(), out.data(), count.data(), -3, 0),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        lab07::select_greater<int>(in.data(), out.data(), count.data(), std::int64_t(1) << 31, 0),
        std::invalid_argument);
    // n == 0: nothing launched (null data pointers allowed); select writes a count of 0.
    CHECK_NOTHROW(lab07::scan<Sum<int>>(nullptr, nullptr, 0, inclusive));
    CHECK_NOTHROW(lab07::scan<Sum<int>>(in.data(), out.data(), 0, ScanKind::exclusive));
    CHECK_NOTHROW(lab07::select_greater<int>(nullptr, nullptr, count.data(), 0, 0));
    scanlab::test::check_output_untouched(out);
    CHECK_MESSAGE(count.download()[0] == 0, "select_greater with n == 0 must set *d_count = 0");
}

// ---- stream compaction ------------------------------------------------------------------------

TEST_CASE("select int32") {
    check_select_all<std::int32_t>();
}
TEST_CASE("select uint32") {
    check_select_all<std::uint32_t>();
}
TEST_CASE("select int64") {
    check_select_all<std::int64_t>();
}
TEST_CASE("select float") {
    check_select_all<float>();
}
TEST_CASE("select double") {
    check_select_all<double>();
}

TEST_CASE("select in place, under every schedule and descriptor layout") {
    constexpr int kN = 60 * kSmallTile + 11;
    if (!check_select_sizes<std::int32_t, kSmallThreads, kSmallItems>({kN}, 0, {}, true)) return;
    if (!check_select_sizes<double, kSmallThreads, kSmallItems>({kN}, 0.0, {}, true)) return;
    std::uint64_t seed = 11;
    for (const Schedule& schedule : kSchedules) {
        ScheduleScope scope(schedule, seed++);
        INFO("emulator schedule: " << std::string(schedule.name) << ", SIMT_SEED=" << seed - 1);
        for (const Descriptors layout : {Descriptors::packed, Descriptors::separate}) {
            const LookbackOptions options{TileIds::atomic_counter, layout};
            if (!check_select_sizes<std::int64_t, kSmallThreads, kSmallItems>({kN}, 0, options))
                return;
            if (!check_select_sizes<float, kSmallThreads, kSmallItems>({kN}, 0.0f, options, true))
                return;
        }
    }
}
