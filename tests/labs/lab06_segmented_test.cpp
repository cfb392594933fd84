// Graded tests for lab 06 (segmented scan with head flags: operator transformation and
// conditional indexing, at warp, block and global level).
//
// Segments come in several shapes: random lengths, length 1 everywhere, one segment for
// everything, long segments that cross tiles and blocks, and a mix of length-1 and long ones.
// Sizes are chosen for the emulator (about a million elements per second and pass): small tile
// shapes give many tiles and blocks at a few tens of thousands of elements.
#include "segmented_scan.h"

#include "every_index.h"
#include "kernel_failure.h"
#include "scan_matrix.h"
#include "scan_test_support.h"
#include "untouched_output.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <initializer_list>
#include <limits>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

using lab06::FlagValue;
using lab06::Segmented;
using lab06::SegmentedMethod;
using scanlab::Affine;
using scanlab::DeviceBuffer;
using scanlab::Max;
using scanlab::Min;
using scanlab::Product;
using scanlab::ScanKind;
using scanlab::Sum;
using scanlab::test::ScanCheck;

namespace {

// ---- segments --------------------------------------------------------------------------------

enum class Shape { random, singles, one_segment, long_segments, mixed };

const char* shape_name(Shape shape) {
    switch (shape) {
    case Shape::random:
        return "random segment lengths (mean 8)";
    case Shape::singles:
        return "every element its own segment";
    case Shape::one_segment:
        return "one segment for everything";
    case Shape::long_segments:
        return "long segments (mean 3000) across tiles and blocks";
    case Shape::mixed:
        return "length-1 segments mixed with long ones";
    }
    return "?";
}

// Head flags for n elements. flags[0] is random: element 0 starts a segment either way.
std::vector<std::uint8_t> make_flags(int n, Shape shape, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<std::uint8_t> flags(static_cast<std::size_t>(std::max(n, 0)), 0);
    std::uniform_real_distribution<double> coin(0.0, 1.0);
    for (std::size_t i = 0; i < flags.size(); ++i) {
        double p = 0.0;
        switch (shape) {
        case Shape::random:
            p = 1.0 / 8;
            break;
        case Shape::singles:
            p = 1.0;
            break;
        case Shape::one_segment:
            p = 0.0;
            break;
        case Shape::long_segments:
            p = 1.0 / 3000;
            break;
        case Shape::mixed:
            p = (i / 500) % 2 == 0 ? 0.9 : 1.0 / 700;
            break;
        }
        // Any nonzero byte is a head, not only 1.
        flags[i] = coin(rng) < p ? static_cast<std::uint8_t>(1 + rng() % 255) : 0;
    }
    if (!flags.empty()) flags[0] = static_cast<std::uint8_t>(rng() % 2);
    return flags;
}

// ---- the reference and the checker ------------------------------------------------------------

// Exact for integers, double for floating point, compared as the plain scans' checker does.
using scanlab::test::detail::Expected;
using scanlab::test::detail::matches;

// The segmented scan in double (floating point) or exactly (integers). `group` > 0: every group of
// that many elements also starts a segment (warp groups, tiles).
template <class Op>
std::vector<Expected<typename Op::value_type>>
reference(std::span<const typename Op::value_type> in, std::span<const std::uint8_t> flags,
          ScanKind kind, int group) {
    using T = typename Op::value_type;
    using E = Expected<T>;
    using Ref = typename scanlab::test::detail::ModelOp<Op>::type;
    std::vector<E> out(in.size());
    E running = Ref::identity();
    for (std::size_t i = 0; i < in.size(); ++i) {
        if (i == 0 || flags[i] != 0 || (group > 0 && i % static_cast<std::size_t>(group) == 0))
            running = Ref::identity();
        const E x = static_cast<E>(in[i]);
        if (kind == ScanKind::exclusive) out[i] = running;
        running = Ref::apply(running, x);
        if (kind == ScanKind::inclusive) out[i] = running;
    }
    return out;
}

bool is_head(std::span<const std::uint8_t> flags, std::size_t i, int group) {
    return i == 0 || flags[i] != 0 || (group > 0 && i % static_cast<std::size_t>(group) == 0);
}

// Float tolerance: 4 eps sqrt(n) times the sum of |input| that went into the position.
template <class Op>
std::vector<double> tolerances(std::span<const typename Op::value_type> in,
                               std::span<const std::uint8_t> flags, ScanKind kind, int group,
                               std::span<const Expected<typename Op::value_type>> expected) {
    using T = typename Op::value_type;
    std::vector<double> tol(in.size(), 0.0);
    if constexpr (std::is_floating_point_v<T>) {
        const double factor = 4.0 * std::numeric_limits<T>::epsilon() *
                              std::sqrt(static_cast<double>(std::max<std::size_t>(in.size(), 1)));
        double abs_sum = 0.0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (is_head(flags, i, group)) abs_sum = 0.0;
            if (kind == ScanKind::inclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
            const double scale = scanlab::test::is_op<Op, Sum> ? abs_sum : std::fabs(expected[i]);
            tol[i] = factor * scale + std::numeric_limits<T>::min();
            if (kind == ScanKind::exclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
        }
    }
    return tol;
}

// Whether the warp-level tests of each method ran in this process, and whether any failed: the
// block and global scans are built on the warp scan, so a hint about the warp scan's own logic
// (mindex, lane >= mindex + offset) is given there only if its own tests did not pass.
struct WarpLevelRecord {
    int passed = 0;
    int failed = 0;
};
WarpLevelRecord& warp_level_record(bool by_index) {
    static WarpLevelRecord records[2];
    return records[by_index ? 1 : 0];
}

// What a block gives when each thread after its warp's first head ALSO starts from the warp's
// carry (what comes into the warp), up to the thread's own first head: the carry of a warp
// added to every lane instead of only to the lanes before the warp's first head. `items` is the
// number of consecutive elements each thread holds, so a warp holds 32 * items of them.
template <class Op>
bool carry_in_every_lane(std::span<const typename Op::value_type> in,
                         std::span<const std::uint8_t> flags,
                         std::span<const typename Op::value_type> out, std::span<const double> tol,
                         ScanKind kind, int group, int tile, int items) {
    using T = typename Op::value_type;
    using E = Expected<T>;
    using M = typename scanlab::test::detail::ModelOp<Op>::type;
    const std::size_t n = in.size();
    if (tile <= 0 || items <= 0) return false;
    const auto right = reference<Op>(in, flags, kind, group);
    const auto running = reference<Op>(in, flags, ScanKind::inclusive, group);
    const std::size_t size = static_cast<std::size_t>(tile), per_thread = std::size_t(items);
    bool differs = false;
    for (std::size_t j = 0; j < n; ++j) {
        const std::size_t tile_start = j / size * size;
        const std::size_t thread_start = tile_start + (j - tile_start) / per_thread * per_thread;
        const std::size_t warp_start =
            tile_start + (j - tile_start) / (32 * per_thread) * (32 * per_thread);
        bool head_below = false, head_in_thread = false;
        for (std::size_t k = warp_start; k < thread_start && !head_below; ++k)
            head_below = is_head(flags, k, group);
        for (std::size_t k = thread_start; k <= j && !head_in_thread; ++k)
            head_in_thread = is_head(flags, k, group);
        E model = right[j];
        if (head_below && !head_in_thread) {
            const bool fresh = warp_start == 0 || (group > 0 && warp_start % group == 0);
            model = M::apply(fresh ? E(M::identity()) : running[warp_start - 1], right[j]);
            differs = differs || !matches<T>(right[j], out[j], tol[j]);
        }
        if (!matches<T>(model, out[j], tol[j])) return false;
    }
    return differs;
}

// What the usual mistakes look like at the first wrong index i. `items`: the elements each
// thread holds (1 for the warp groups).
template <class Op>
std::string hint_for(std::span<const typename Op::value_type> in,
                     std::span<const std::uint8_t> flags,
                     std::span<const typename Op::value_type> out, std::span<const double> tol,
                     std::size_t i, ScanKind kind, int group, int tile, int items, bool by_index) {
    using T = typename Op::value_type;
    const std::size_t n = in.size();
    auto all = [&](auto&& pred) { return scanlab::test::every_index(n, pred); };
    if (all([&](std::size_t j) { return scanlab::test::is_poison(out[j]); }))
        return "no output was written at all: did the kernel launch, and does every thread "
               "store its results?";
    if (scanlab::test::is_poison(out[i]))
        return "this output was never written: a thread, an item or a tile is missing";
    // The flags ignored: an ordinary scan (within groups).
    std::vector<std::uint8_t> none(n, 0);
    const auto unsegmented = reference<Op>(in, none, kind, group);
    const WarpLevelRecord warp_level = warp_level_record(by_index);
    const bool warp_scan_passed = group != 32 && warp_level.passed > 0 && warp_level.failed == 0;
    if (n > 1 && warp_scan_passed &&
        all([&](std::size_t j) { return matches<T>(unsegmented[j], out[j], tol[j]); }))
        return "this is an ordinary scan: the head flags are ignored, and the warp-level tests "
               "of this method passed: do the flags of each tile reach the warp scans (loaded "
               "with the values), and the carries between warps and tiles?";
    if (n > 1 && all([&](std::size_t j) { return matches<T>(unsegmented[j], out[j], tol[j]); }))
        return by_index ? "this is an ordinary scan: the head flags are ignored. With "
                          "conditional indexing a lane combines the value `offset` lanes below "
                          "it only if that lane is in its own segment: lane >= mindex + offset "
                          "(mindex: the lane of its segment's head)"
                        : "this is an ordinary scan: the head flags are ignored. With "
                          "Segmented<Op>, each lane scans (flag, value) pairs whose flag is "
                          "its head flag, and a head starts afresh";
    const ScanKind other = kind == ScanKind::inclusive ? ScanKind::exclusive : ScanKind::inclusive;
    const auto other_kind = reference<Op>(in, flags, other, group);
    if (n > 1 && all([&](std::size_t j) { return matches<T>(other_kind[j], out[j], tol[j]); }))
        return kind == ScanKind::exclusive
                   ? "this is the INCLUSIVE segmented scan; exclusive: the identity at every "
                     "head, elsewhere the inclusive result of the element before"
                   : "this is the EXCLUSIVE segmented scan, but an inclusive one was asked for";
    if (is_head(flags, i, group))
        return kind == ScanKind::exclusive
                   ? "this element is a head: its exclusive result is the identity"
                   : "this element is a head: its inclusive result is the element itself; a "
                     "value from before the head leaked into the new segment";
    if (carry_in_every_lane<Op>(in, flags, out, tol, kind, group, tile, items))
        return "a warp's carry (what comes into the warp from the warps before it) was added to "
               "every lane of the warp: the wrong elements are exactly those of the threads "
               "after the warp's first head, up to each thread's own first head, and each is "
               "the warp's carry combined with the right value. Only the lanes with no head "
               "below them in their warp take the carry";
    // The first segment of a tile: the carry from earlier tiles or warps is missing or wrong.
    std::size_t head = i;
    while (!is_head(flags, head, group)) --head;
    if (tile > 0 && head / static_cast<std::size_t>(tile) != i / static_cast<std::size_t>(tile))
        return "this element's segment began in an earlier tile (at index " + std::to_string(head) +
               "): what comes into the tile must reach its elements up to the tile's first head, "
               "and only those, combined on the LEFT";
    const std::size_t warp_span = 32 * static_cast<std::size_t>(std::max(items, 1));
    if (head / warp_span != i / warp_span && group != 32)
        return "this element's segment began in an earlier warp's elements (at index " +
               std::to_string(head) +
               "): the warp's carry reaches only the lanes before the warp's first head "
               "(conditional indexing: the lanes with no head below them)";
    if constexpr (!Op::is_commutative) {
        if (!by_index)
            return "inside a segment (head at index " + std::to_string(head) +
                   "): with Segmented<Op>, the earlier pair is `a` in apply(a, b), and the "
                   "values combine as Op::apply(a.value, b.value)";
    }
    if (!by_index)
        return "inside one segment (head at index " + std::to_string(head) +
               "), with the operator transformation: if Segmented<Op> passes its own test "
               "(\"segmented operator\"), look at the pairs that reach the scans: each "
               "element's flag must be its head flag";
    if (group == 32 || warp_level.failed > 0)
        return "inside one segment (head at index " + std::to_string(head) +
               "): with conditional indexing, check mindex (the highest head at or below the "
               "lane) and the condition lane >= mindex + offset";
    if (warp_level.passed > 0)
        return "inside one segment (head at index " + std::to_string(head) +
               "), and the warp-level tests of conditional indexing passed, so the warp scan "
               "itself (mindex, lane >= mindex + offset) is not the cause: look at what the "
               "block adds to it, the carry of the lower lanes and warps (each thread's starts "
               "from it only if no head comes before the thread in its warp)";
    return "inside one segment (head at index " + std::to_string(head) +
           "): run the warp-level tests first (-tc=\"warp groups? conditional_index*\"): if they "
           "pass, the warp scan is right and the carry between lanes and warps is wrong";
}

// Each case's description names its method; this is how conditional indexing is named.
constexpr const char* method_name_index = "conditional indexing";

template <class Op>
ScanCheck check_segmented(const std::string& what, std::span<const typename Op::value_type> in,
                          std::span<const std::uint8_t> flags,
                          std::span<const typename Op::value_type> in_after,
                          std::span<const typename Op::value_type> out, ScanKind kind, int group,
                          int tile, int items) {
    using T = typename Op::value_type;
    const std::size_t n = in.size();
    const auto expected = reference<Op>(in, flags, kind, group);
    const auto tol = tolerances<Op>(in, flags, kind, group, expected);
    std::size_t first = n, wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (matches<T>(expected[i], out[i], tol[i])) continue;
        if (first == n) first = i;
        ++wrong;
    }
    scanlab::test::detail::FailureReport report;
    report.what = what;
    report.op = Op::name;
    report.type = scanlab::type_name<T>();
    report.kind = scanlab::to_string(kind);
    report.n = static_cast<int>(n);
    if (first < n) {
        report.problem = "first wrong output at index " + std::to_string(first) + " (" +
                         std::to_string(wrong) + " of " + std::to_string(n) +
                         " outputs are wrong): expected " +
                         scanlab::test::detail::show<Op>(expected[first]) + ", got " +
                         scanlab::test::detail::show<Op>(out[first]);
        const bool by_index = what.find(method_name_index) != std::string::npos;
        report.hint = hint_for<Op>(in, flags, out, tol, first, kind, group, tile, items, by_index);
        const std::size_t lo = first >= 3 ? first - 3 : 0;
        const std::size_t hi = std::min(n, first + 4);
        for (std::size_t i = lo; i < hi; ++i)
            report.rows.push_back(
                {i,
                 (is_head(flags, i, group) ? "| " : "  ") + scanlab::test::detail::show<Op>(in[i]),
                 scanlab::test::detail::show<Op>(expected[i]),
                 scanlab::test::detail::show<Op>(out[i]), i == first});
        return {false, scanlab::test::detail::format_failure(report) +
                           "\n  (\"| \" marks a head: an element that starts a segment)"};
    }
    for (std::size_t i = 0; i < in_after.size(); ++i) {
        if (std::memcmp(&in[i], &in_after[i], sizeof(T)) == 0) continue;
        report.problem =
            "the output is right but the INPUT was modified, first at index " + std::to_string(i);
        report.hint = "write only the output";
        return {false, scanlab::test::detail::format_failure(report)};
    }
    return {};
}

// ---- running the three levels -----------------------------------------------------------------

const char* method_name(SegmentedMethod method) {
    return method == SegmentedMethod::operator_transform ? "operator transformation"
                                                         : method_name_index;
}

// What the emulator's report of a failed launch means in this lab.
std::string fault_hint() {
    const scanlab::test::FaultSeen seen = scanlab::test::fault_seen();
    std::string where;
    for (const std::string& line : seen.lines()) where += (where.empty() ? "" : " and ") + line;
    where = where.empty() ? "" : " (" + where + ")";
    if (seen.is("shared memory race") || seen.is("uninitialized shared memory read")) {
        for (const char* name : {"'lane_total'", "'warp_heads_of'", "'warp_carry'",
                                 "'scanned_totals'", "'scanned_heads'", "'warp_prefix'", "'total'"})
            if (seen.says(name))
                return "the block's shared " + std::string(name + 1, std::strlen(name) - 2) +
                       " is written by some warps and read by others" + where +
                       ": a __syncthreads() is missing between writing it and reading it (and "
                       "between two tiles that reuse it)";
        return "a shared-memory " +
               std::string(seen.is("shared memory race") ? "race"
                                                         : "read of a word nothing wrote") +
               where +
               ": between threads of different warps a __syncthreads() orders the write "
               "and the read, between lanes of one warp a __syncwarp()";
    }
    if (seen.is("illegal address"))
        return "an access outside its array" + where +
               ": an element or a flag of the last, partial tile read or written without `i < n`";
    if (seen.is("warp intrinsic error"))
        return "a warp intrinsic whose mask does not match the lanes that call it" + where +
               ": every lane executes every shuffle and ballot, with the full mask";
    if (!seen.kind.empty()) return "the emulator's report above (" + seen.kind + ") names the line";
    return "the message above says what failed";
}

template <class T>
using SegFn = std::function<void(const T*, const std::uint8_t*, T*, int, ScanKind)>;

std::uint64_t flag_seed(int n, Shape shape, int salt) {
    return scanlab::test::input_seed("flags", shape_name(shape), n + 7919 * salt,
                                     ScanKind::inclusive);
}

template <class Op>
ScanCheck run_segmented(const std::string& what, int n, ScanKind kind, Shape shape, int group,
                        int tile, int items, const SegFn<typename Op::value_type>& scan) {
    using T = typename Op::value_type;
    const std::vector<T> input = scanlab::test::make_input<Op>(n, kind);
    const std::vector<std::uint8_t> flags = make_flags(n, shape, flag_seed(n, shape, group));
    DeviceBuffer<T> d_in(input);
    DeviceBuffer<std::uint8_t> d_flags(flags);
    DeviceBuffer<T> d_out(std::vector<T>(input.size(), scanlab::test::poison_value<T>()));
    const std::string full = what + ", " + shape_name(shape);
    const std::string call = full + " (" + scanlab::to_string(kind) + " " + Op::name + " " +
                             scanlab::type_name<T>() + ", n=" + std::to_string(n) + ")";
    scanlab::test::KernelWorkWatch watch;
    watch.input(d_in.data(), input.size()).input(d_flags.data(), flags.size());
    watch.output(d_out.data(), input.size());
    try {
        scan(d_in.data(), d_flags.data(), d_out.data(), n, kind);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& error) {
        return {false, scanlab::test::kernel_failure_report(call + ": the kernel failed" +
                                                                scanlab::test::fault_where() +
                                                                ": " + error.what(),
                                                            "06", fault_hint())};
    }
    if (std::string host_work = watch.verdict(call); !host_work.empty())
        return {false, std::move(host_work)};
    const std::vector<T> out = d_out.download();
    const std::vector<T> after = d_in.download();
    return check_segmented<Op>(full, input, flags, after, out, kind, group, tile, items);
}

template <class Op>
bool check_cases(const std::string& what, std::initializer_list<int> sizes,
                 std::initializer_list<Shape> shapes, ScanKind kind, int group, int tile, int items,
                 const SegFn<typename Op::value_type>& scan) {
    for (const int n : sizes) {
        for (const Shape shape : shapes) {
            const ScanCheck result =
                run_segmented<Op>(what, n, kind, shape, group, tile, items, scan);
            if (!result.ok) {
                FAIL_CHECK(result.message);
                return false;
            }
        }
    }
    return true;
}

// Part 2.
template <class Op>
bool check_warp_groups(SegmentedMethod method, ScanKind kind) {
    using T = typename Op::value_type;
    const SegFn<T> fn = [method](const T* in, const std::uint8_t* f, T* out, int n, ScanKind k) {
        lab06::segmented_warp_scan_groups<Op>(in, f, out, n, k, method);
    };
    const std::string what = std::string("lab06::segmented_warp_scan_groups (") +
                             method_name(method) + "; each group of 32 is scanned on its own)";
    const bool passed = check_cases<Op>(
        what, {1, 31, 32, 33, 100, 1000},
        {Shape::random, Shape::singles, Shape::one_segment, Shape::mixed}, kind, 32, 0, 1, fn);
    WarpLevelRecord& record = warp_level_record(method == SegmentedMethod::conditional_index);
    ++(passed ? record.passed : record.failed);
    return passed;
}

// Part 3.
template <class Op, int Threads, int Items>
bool check_block_tiles(SegmentedMethod method, ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kTile = Threads * Items;
    const SegFn<T> fn = [method](const T* in, const std::uint8_t* f, T* out, int n, ScanKind k) {
        lab06::segmented_block_scan_tiles<Op, Threads, Items>(in, f, out, n, k, method);
    };
    const std::string what = "lab06::segmented_block_scan_tiles<" + std::to_string(Threads) +
                             " threads, " + std::to_string(Items) + " items> (" +
                             method_name(method) + "; each tile of " + std::to_string(kTile) +
                             " is scanned on its own)";
    return check_cases<Op>(what, {1, kTile + 1, 5 * kTile + 7},
                           {Shape::random, Shape::singles, Shape::mixed}, kind, kTile, kTile, Items,
                           fn);
}

// Part 4.
template <class Op, int Threads = lab06::kDefaultBlockThreads,
          int Items = lab06::kDefaultItemsPerThread<typename Op::value_type>>
bool check_global(SegmentedMethod method, ScanKind kind, std::initializer_list<int> sizes,
                  std::initializer_list<Shape> shapes) {
    using T = typename Op::value_type;
    const SegFn<T> fn = [method](const T* in, const std::uint8_t* f, T* out, int n, ScanKind k) {
        lab06::segmented_scan<Op, Threads, Items>(in, f, out, n, k, method);
    };
    const std::string what = "lab06::segmented_scan<" + std::to_string(Threads) + " threads, " +
                             std::to_string(Items) + " items> (" + method_name(method) + ")";
    return check_cases<Op>(what, sizes, shapes, kind, 0, Threads * Items, Items, fn);
}

// Every type runs random segments at one element and at three tiles of the default shape. The
// 32-bit integer of each operator also runs random segments at 30 tiles of 64 x 3 and long
// segments (a carry across many tiles) there; the other types do not run the small shape: the
// path of a run of tiles does not depend on the element type, the other types' values and
// identities show at a few tiles, and the 140-tile case below runs long segments for three more
// operators. (The small shape is compiled only for the operators the tests call it with,
// LAB06_SMALL_TILE_OPERATORS in segmented_scan.h.)
template <class Op>
void check_global_all(ScanKind kind) {
    constexpr int kTile =
        lab06::kDefaultBlockThreads * lab06::kDefaultItemsPerThread<typename Op::value_type>;
    constexpr bool first_type = std::is_same_v<typename Op::value_type, std::int32_t>;
    for (const SegmentedMethod method :
         {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
        if (!check_global<Op>(method, kind, {1, 2 * kTile + 5}, {Shape::random})) return;
        if constexpr (first_type) {
            if (!check_global<Op, 64, 3>(method, kind, {30 * 192 + 7}, {Shape::random})) return;
            if (!check_global<Op, 64, 3>(method, kind, {30 * 192 + 7}, {Shape::long_segments}))
                return;
        }
    }
}

// ---- part 1: the operator itself ---------------------------------------------------------------

template <class Op>
std::string show_pair(FlagValue<typename Op::value_type> p) {
    return "(flag " + std::to_string(p.flag) + ", " + scanlab::test::detail::show<Op>(p.value) +
           ")";
}

template <class Op>
bool same_pair(FlagValue<typename Op::value_type> a, FlagValue<typename Op::value_type> b) {
    return (a.flag != 0) == (b.flag != 0) && a.value == b.value;
}

template <class Op>
void check_operator() {
    using T = typename Op::value_type;
    using S = Segmented<Op>;
    const std::vector<T> values = scanlab::test::make_input<Op>(300, ScanKind::inclusive);
    std::mt19937_64 rng(
        scanlab::test::input_seed("segmented operator", Op::name, 300, ScanKind::inclusive));
    auto pair = [&](std::size_t i) {
        return FlagValue<T>{static_cast<int>(rng() % 3 == 0), values[i]};
    };
    const std::string where = std::string("Segmented<") + Op::name + "<" + scanlab::type_name<T>() +
                              ">>, seed " + std::to_string(scanlab::test::seed());

    const auto e = S::identity();
    REQUIRE_MESSAGE(e.flag == 0, where << ": identity() must have flag 0 (it starts nothing)");
    REQUIRE_MESSAGE(e.value == Op::identity(),
                    where << ": identity().value must be Op::identity()");
    std::vector<FlagValue<T>> pairs;
    for (std::size_t i = 0; i < values.size(); ++i) pairs.push_back(pair(i));
    // The rules for one apply first, for every pair: a broken rule is named before the
    // associativity it breaks.
    for (std::size_t i = 0; i + 2 < values.size(); i += 3) {
        const auto a = pairs[i], b = pairs[i + 1];
        const auto ab = S::apply(a, b);
        REQUIRE_MESSAGE(ab.flag == (a.flag | b.flag),
                        where << ": apply(" << show_pair<Op>(a) << ", " << show_pair<Op>(b)
                              << ").flag is " << ab.flag
                              << "; the flag of a combination is a.flag | b.flag");
        const auto expect_value = b.flag ? b.value : Op::apply(a.value, b.value);
        REQUIRE_MESSAGE(ab.value == expect_value,
                        where << ": apply(" << show_pair<Op>(a) << ", " << show_pair<Op>(b)
                              << ") = " << show_pair<Op>(ab)
                              << "; if b has a head, b's value alone, else Op::apply(a.value, "
                                 "b.value), a on the left");
    }
    for (std::size_t i = 0; i + 2 < values.size(); i += 3) {
        const auto a = pairs[i], b = pairs[i + 1], c = pairs[i + 2];
        const auto ab = S::apply(a, b);
        REQUIRE_MESSAGE(same_pair<Op>(S::apply(ab, c), S::apply(a, S::apply(b, c))),
                        where << ": not associative for " << show_pair<Op>(a) << ", "
                              << show_pair<Op>(b) << ", " << show_pair<Op>(c));
        REQUIRE_MESSAGE(same_pair<Op>(S::apply(e, a), a), where << ": apply(identity, a) != a");
        REQUIRE_MESSAGE(same_pair<Op>(S::apply(a, e), a), where << ": apply(a, identity) != a");
    }
    // Never commutative: a head on the right wins, a head on the left does not.
    const FlagValue<T> plain{0, values[0]}, head{1, values[1]};
    CHECK_MESSAGE(S::apply(plain, head).value == values[1],
                  where << ": a head on the right starts afresh: apply((0, x), (1, y)) = (1, y)");
}

} // namespace

TEST_CASE("segmented operator: identity, associativity, flags") {
    check_operator<Sum<std::int32_t>>();
    check_operator<Sum<std::uint32_t>>();
    check_operator<Max<std::int64_t>>();
    check_operator<Min<float>>();
    check_operator<Max<double>>();
    check_operator<Product<std::int64_t>>();
    check_operator<Affine<std::uint32_t>>();
    check_operator<Affine<std::int64_t>>();
}

// ---- part 2 -------------------------------------------------------------------------------------

// Each method for every operator family and kind, every type inside one test case
// (tests/support/scan_matrix.h).
SCANLAB_CASE_PER_FAMILY_AND_KIND("warp groups, operator_transform: ",
                                 []<class Family>(ScanKind kind) {
                                     scanlab::test::for_each_type_of<Family>([&]<class Op>() {
                                         return check_warp_groups<Op>(
                                             SegmentedMethod::operator_transform, kind);
                                     });
                                 });
SCANLAB_CASE_PER_FAMILY_AND_KIND("warp groups, conditional_index: ",
                                 []<class Family>(ScanKind kind) {
                                     scanlab::test::for_each_type_of<Family>([&]<class Op>() {
                                         return check_warp_groups<Op>(
                                             SegmentedMethod::conditional_index, kind);
                                     });
                                 });

// ---- part 3 -------------------------------------------------------------------------------------

SCANLAB_CASE_PER_FAMILY_AND_KIND("block tiles, operator_transform: ",
                                 []<class Family>(ScanKind kind) {
                                     scanlab::test::for_each_type_of<Family>([&]<class Op>() {
                                         return check_block_tiles<Op, 96, 3>(
                                             SegmentedMethod::operator_transform, kind);
                                     });
                                 });
SCANLAB_CASE_PER_FAMILY_AND_KIND("block tiles, conditional_index: ",
                                 []<class Family>(ScanKind kind) {
                                     scanlab::test::for_each_type_of<Family>([&]<class Op>() {
                                         return check_block_tiles<Op, 96, 3>(
                                             SegmentedMethod::conditional_index, kind);
                                     });
                                 });

// ---- part 4: every graded operator, type and kind, both methods
// ----------------------------------

SCANLAB_CASE_PER_OPERATOR_AND_KIND("segmented scan ",
                                   []<class Op>(ScanKind kind) { check_global_all<Op>(kind); });

// ---- part 4: every shape of segments, with runs of many tiles per block
// --------------------------

// 140 tiles of 192: more tiles than the emulator's blocks (128 of 64 threads), so some blocks scan
// runs of two tiles, and segments cross tile and block boundaries. Every shape on the
// non-commutative operator; long segments and the mix of long and short ones (the shapes that
// carry across runs) on two more operators and types.
TEST_CASE("segmented scan: every segment shape, segments across blocks") {
    constexpr int kN = 140 * 192 + 11;
    const auto shapes = {Shape::random, Shape::singles, Shape::one_segment, Shape::long_segments,
                         Shape::mixed};
    const auto carrying = {Shape::long_segments, Shape::mixed};
    for (const SegmentedMethod method :
         {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
        if (!check_global<Affine<std::int32_t>, 64, 3>(method, ScanKind::inclusive, {kN}, shapes))
            return;
        if (!check_global<Sum<double>, 64, 3>(method, ScanKind::exclusive, {kN}, carrying)) return;
        if (!check_global<Max<std::uint32_t>, 64, 3>(method, ScanKind::exclusive, {kN}, carrying))
            return;
    }
}

// A large array with the default tile shape: on the emulator 2^18 + 3 elements, 65 tiles of 4096,
// twice the 32 blocks of 256 threads that its 4 SMs hold at once (each block scans a run of 2 or 3
// tiles); on a GPU 2^19 + 3.
TEST_CASE("segmented scan: large array") {
#ifdef SCANLAB_BACKEND_SIMT
    constexpr int kN = (1 << 18) + 3;
#else
    constexpr int kN = (1 << 19) + 3;
#endif
    for (const SegmentedMethod method :
         {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index})
        if (!check_global<Sum<std::int32_t>>(method, ScanKind::inclusive, {kN}, {Shape::random}))
            return;
}

TEST_CASE("segmented scan in place and with a reused workspace") {
    using Op = Affine<std::uint32_t>;
    constexpr int kN = 20000;
    const std::vector<std::uint32_t> input = scanlab::test::make_input<Op>(kN, ScanKind::exclusive);
    const std::vector<std::uint8_t> flags = make_flags(kN, Shape::mixed, 12345);
    DeviceBuffer<std::uint8_t> d_flags(flags);
    lab06::Workspace workspace;
    for (const SegmentedMethod method :
         {SegmentedMethod::operator_transform, SegmentedMethod::conditional_index}) {
        DeviceBuffer<std::uint32_t> data(input);
        scanlab::test::KernelWorkWatch watch;
        watch.input(data.data(), input.size()).input(d_flags.data(), flags.size());
        watch.output(data.data(), input.size());
        lab06::segmented_scan<Op, 64, 3>(data.data(), d_flags.data(), data.data(), kN,
                                         ScanKind::exclusive, method, &workspace);
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const std::string host_work = watch.verdict("lab06::segmented_scan in place (out == in)");
        REQUIRE_MESSAGE(host_work.empty(), host_work);
        const std::vector<std::uint32_t> out = data.download();
        const ScanCheck result = check_segmented<Op>(
            std::string("lab06::segmented_scan in place (out == in), ") + method_name(method),
            input, flags, {}, out, ScanKind::exclusive, 0, 192, 3);
        REQUIRE_MESSAGE(result.ok, result.message);
    }
    CHECK(workspace.capacity() > 0);
}

TEST_CASE("argument checks") {
    // A real segmented scan of several tiles first, so that a stub cannot pass this case.
    REQUIRE(check_global<Sum<int>>(SegmentedMethod::conditional_index, ScanKind::inclusive, {10000},
                                   {Shape::random}));

    constexpr int kN = 100;
    DeviceBuffer<int> in(std::vector<int>(kN, 1));
    DeviceBuffer<std::uint8_t> flags(std::vector<std::uint8_t>(kN, 0));
    DeviceBuffer<int> out = scanlab::test::poisoned_output(kN);
    const auto inc = ScanKind::inclusive;
    const auto m = SegmentedMethod::operator_transform;

    CHECK_THROWS_AS(
        lab06::segmented_scan<Sum<int>>(in.data(), flags.data(), out.data(), -1, inc, m),
        std::invalid_argument);
    CHECK_THROWS_AS(lab06::segmented_scan<Sum<int>>(nullptr, flags.data(), out.data(), kN, inc, m),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab06::segmented_scan<Sum<int>>(in.data(), nullptr, out.data(), kN, inc, m),
                    std::invalid_argument);
    CHECK_THROWS_AS(lab06::segmented_scan<Sum<int>>(in.data(), flags.data(), nullptr, kN, inc, m),
                    std::invalid_argument);
    CHECK_THROWS_AS(
        lab06::segmented_warp_scan_groups<Sum<int>>(in.data(), nullptr, out.data(), kN, inc, m),
        std::invalid_argument);
    CHECK_THROWS_AS((lab06::segmented_block_scan_tiles<Sum<int>, 96, 3>(in.data(), flags.data(),
                                                                        out.data(), -2, inc, m)),
                    std::invalid_argument);
    // n == 0: an empty scan, not an error, even with null pointers; nothing is launched.
    CHECK_NOTHROW(lab06::segmented_scan<Sum<int>>(nullptr, nullptr, nullptr, 0, inc, m));
    CHECK_NOTHROW(
        lab06::segmented_warp_scan_groups<Sum<int>>(nullptr, nullptr, nullptr, 0, inc, m));
    CHECK_NOTHROW((lab06::segmented_block_scan_tiles<Sum<int>, 96, 3>(in.data(), flags.data(),
                                                                      out.data(), 0, inc, m)));
    scanlab::test::check_output_untouched(out);
}
