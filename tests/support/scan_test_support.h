// What the graded lab tests share: seeded random inputs, poisoned outputs, and a checker that
// explains the first wrong output in terms a student can act on.
//
// Independent of the test framework: checks return a ScanCheck, the test decides what to do.
#pragma once

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/scan_kind.h>
#include <scanlab/type_name.h>

#include "every_index.h"
#include "kernel_work.h"

#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <optional>
#include <random>
#include <span>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace scanlab::test {

// ---- seeds --------------------------------------------------------------------------------

/// The run's seed: SCANLAB_SEED from the environment if set, else from std::random_device.
/// Chosen once per process. Throws std::invalid_argument if SCANLAB_SEED is not a number.
std::uint64_t seed();

/// The seed of one input, mixed from seed() and what the input is for, so that a test case run
/// alone (doctest -tc=...) sees the same data as in the full run with the same seed.
std::uint64_t input_seed(std::string_view op, std::string_view type, int n, ScanKind kind);

// ---- inputs -------------------------------------------------------------------------------

template <class Op, template <class> class Family>
inline constexpr bool is_op = std::is_same_v<Op, Family<typename Op::value_type>>;

/// n random values that suit Op:
///  sum:     signed values small enough that no prefix overflows; unsigned wraps (defined);
///           floats uniform in [-1, 1).
///  max/min: integers over the whole range, floats in [-1000, 1000).
///  product: mostly +-1 with a few 2s and 3s spread out, the product of all magnitudes at most
///           2^24, so every partial product is an exact integer, even in float.
///  affine:  random maps with odd slopes (invertible), so no element's effect is ever lost.
template <class Op>
std::vector<typename Op::value_type> make_input(int n, ScanKind kind) {
    using T = typename Op::value_type;
    std::mt19937_64 rng(input_seed(Op::name, type_name<T>(), n, kind));
    std::vector<T> values(static_cast<std::size_t>(std::max(n, 0)));

    if constexpr (is_op<Op, Affine>) {
        std::uniform_int_distribution<std::uint64_t> bits;
        for (T& v : values)
            v = Op::make(static_cast<typename Op::Bits>(bits(rng) | 1u),
                         static_cast<typename Op::Bits>(bits(rng)));
    } else if constexpr (is_op<Op, Product>) {
        constexpr double kBudget = 16777216.0; // 2^24
        double magnitude = 1.0;
        const double big_chance = std::min(0.25, 16.0 / std::max(n, 1)); // spread the 2s and 3s
        std::uniform_real_distribution<double> coin(0.0, 1.0);
        for (T& v : values) {
            int x = 1;
            if (coin(rng) < big_chance) {
                const int big = coin(rng) < 0.5 ? 2 : 3;
                if (magnitude * big <= kBudget) {
                    x = big;
                    magnitude *= big;
                }
            }
            if constexpr (std::is_signed_v<T>) {
                if (coin(rng) < 0.25) x = -x;
            }
            v = static_cast<T>(x);
        }
    } else if constexpr (std::is_floating_point_v<T>) {
        const T range = is_op<Op, Sum> ? T(1) : T(1000);
        std::uniform_real_distribution<T> dist(-range, range);
        for (T& v : values) v = dist(rng);
    } else if constexpr (is_op<Op, Sum> && std::is_signed_v<T>) {
        // |prefix| <= n * bound must stay below 2^30 (int32) or far below 2^62 (int64).
        const std::int64_t limit = sizeof(T) == 4 ? 1000 : 1000000000;
        const std::int64_t bound = std::clamp<std::int64_t>(
            (std::int64_t(1) << (sizeof(T) == 4 ? 30 : 61)) / std::max(n, 1), 1, limit);
        std::uniform_int_distribution<std::int64_t> dist(-bound, bound);
        for (T& v : values) v = static_cast<T>(dist(rng));
    } else {
        std::uniform_int_distribution<T> dist(std::numeric_limits<T>::lowest(),
                                              std::numeric_limits<T>::max());
        for (T& v : values) v = dist(rng);
    }
    return values;
}

/// What outputs hold before the scan runs, so that "never written" is visible:
/// 0xDEADBEEF for integers, NaN for floating point.
template <class T>
T poison_value() {
    if constexpr (std::is_floating_point_v<T>)
        return std::numeric_limits<T>::quiet_NaN();
    else if constexpr (sizeof(T) == 4)
        return static_cast<T>(0xDEADBEEFu);
    else
        return static_cast<T>(0xDEADBEEFDEADBEEFull);
}

template <class T>
bool is_poison(T v) {
    if constexpr (std::is_floating_point_v<T>)
        return std::isnan(v);
    else
        return v == poison_value<T>();
}

// ---- checking -----------------------------------------------------------------------------

struct CheckOptions {
    bool on_device = true; // enables hints about threads, warps and barriers
    int block_size = 0;    // > 0: elements per block, for "wrong from index blockDim" hints
    bool in_place = false; // out == in: enables the "read before you overwrite" hint
    // The scan is the Hillis-Steele steps of labs 01 and 05 (offset 1, 2, 4, ...): enables the
    // hints that recognise their classic slips (`>` for `>=`, a step too few).
    bool hillis_steele = false;
    // The scan is one Blelloch tree (labs 02 and 03): enables the hint for a root that still
    // holds the total when the down-sweep starts.
    bool tree = false;
    // The test adds a hint of its own lab after the checker's (hint_line): the checker then
    // gives a hint only where it recognises the values, never its "no usual mistake fits".
    bool lab_hint_follows = false;
    // > 0: the scan may cut its input into smaller tiles than block_size (halves, quarters,
    // ..., down to this many elements; lab 07 takes quarter tiles for small inputs): the
    // checker tries each tile size for the tile hints, the largest first.
    int smallest_block_size = 0;
};

/// How the values of the first wrong tile of a multi-tile scan relate to the tiles before it,
/// where the checker recognised it (tile_hint): a lab's hint names the mistakes that give it.
enum class TileShape {
    unknown,
    alone,        // scanned on its own: nothing from the earlier tiles reached it
    own_total,    // its own total is in its prefix (an inclusive scan of the totals)
    on_the_right, // the prefix on the right of Op::apply
    missing,      // some earlier tiles are missing from its prefix
    twice,        // some earlier tiles are counted twice in its prefix
};

// ---- what the emulator reported -----------------------------------------------------------

/// The emulator's report of the last launch that failed: its kind as the emulator names it
/// ("shared memory race", "barrier divergence", ...) and its text. Both are empty on a GPU and
/// when no launch has failed, so hints built on them fall back to what the tests saw.
struct FaultSeen {
    std::string kind;
    std::string message;
    std::string site; // the source line it is at ("path/file.cu:42"), where the report has one
    bool is(std::string_view what) const { return kind == what; }
    bool says(std::string_view text) const { return message.find(text) != std::string::npos; }
    /// The distinct source lines the report names ("file.cu:42"), in the order it names them.
    std::vector<std::string> lines() const;
};
FaultSeen fault_seen();

/// "\n  lab NN hint: HINT", or "" for no hint. A hint this run already gave (one mistake makes
/// every case fail alike) is not repeated in full, unless the run is --verbose: the line then
/// names the test case that has it. The hint also goes to the run's summary (failure_summary.h).
std::string hint_line(std::string_view lab, const std::string& hint);

/// Where the last launch failed, for "the kernel failed" + fault_where() + ": ": " at FILE:LINE
/// (the emulator's report above: KIND)" on the emulator, "" on a GPU. Notes the fault for the
/// run's summary.
std::string fault_where();

/// The name of the test case running now ("" outside one), as fault_isolation.cpp sees it.
std::string current_test_case();

/// After a test case that left the device with a sticky error (a kernel fault), the test main
/// resets the device so that the cases after it run on a clean one (fault_isolation.cpp). This
/// says which case faulted first and with what, for the run's last lines; empty if none did.
std::string first_fault_summary();

/// True on the emulator with its checks on: a race or an out-of-bounds access would have been
/// reported, so a wrong result without a report is not one.
bool races_are_reported();

struct ScanCheck {
    bool ok = true;
    std::string message; // empty when ok
    TileShape tile_shape = TileShape::unknown;
    int tile_size = 0; // the tile size with which the checker recognised tile_shape
};

namespace detail {

/// The value a correct scan has at each position: T for exact types, double for floats.
template <class T>
using Expected = std::conditional_t<std::is_floating_point_v<T>, double, T>;

template <class Op>
std::vector<Expected<typename Op::value_type>>
expected_scan(std::span<const typename Op::value_type> in, ScanKind kind) {
    if constexpr (std::is_floating_point_v<typename Op::value_type>)
        return reference_scan_double<Op>(in, kind);
    else
        return reference_scan<Op>(in, kind);
}

/// The same scan with the operands of every apply swapped: what a scan computes when it writes
/// apply(later, earlier). Only differs from the right answer for non-commutative operators.
template <class Op>
struct Swapped {
    using value_type = typename Op::value_type;
    static value_type identity() { return Op::identity(); }
    static value_type apply(value_type a, value_type b) { return Op::apply(b, a); }
};

/// Allowed distance between a float result and the double reference at each position:
/// 4 * eps(T) * sqrt(n) * scale, where scale is the sum of |input| that went into the position
/// (sum) or |expected| (other operators). Rounding in any order of summation stays far below
/// it on these inputs; a lost or doubled element is far above it.
template <class Op>
std::vector<double> tolerances(std::span<const typename Op::value_type> in, ScanKind kind) {
    using T = typename Op::value_type;
    std::vector<double> tol(in.size(), 0.0);
    if constexpr (std::is_floating_point_v<T>) {
        const double factor = 4.0 * std::numeric_limits<T>::epsilon() *
                              std::sqrt(static_cast<double>(std::max<std::size_t>(in.size(), 1)));
        const std::vector<double> expected = reference_scan_double<Op>(in, kind);
        double abs_sum = 0.0;
        for (std::size_t i = 0; i < in.size(); ++i) {
            if (kind == ScanKind::inclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
            const double scale = is_op<Op, Sum> ? abs_sum : std::fabs(expected[i]);
            tol[i] = factor * scale + std::numeric_limits<T>::min();
            if (kind == ScanKind::exclusive) abs_sum += std::fabs(static_cast<double>(in[i]));
        }
    }
    return tol;
}

template <class T>
bool matches(Expected<T> expected, T actual, double tol) {
    if constexpr (std::is_floating_point_v<T>) {
        const double a = static_cast<double>(actual);
        if (a == expected) return true;        // also covers +-infinity (identity of max/min)
        return std::fabs(a - expected) <= tol; // false for NaN
    } else {
        return expected == actual;
    }
}

/// A value as a student wants to read it: affine maps also show their slope and offset.
template <class Op, class V>
std::string show(V v) {
    using T = typename Op::value_type;
    std::ostringstream out;
    if constexpr (std::is_floating_point_v<V>) {
        // Expected values are doubles even for float scans; more digits than T has are noise.
        if constexpr (std::is_floating_point_v<T>)
            out.precision(std::numeric_limits<T>::max_digits10);
        else
            out.precision(std::numeric_limits<V>::max_digits10);
        out << v;
    } else {
        out << +v; // + prints 8-bit types as numbers
    }
    if constexpr (is_op<Op, Affine> && std::is_same_v<V, T>)
        out << " (x -> " << Op::slope(v) << "*x + " << Op::offset(v) << ")";
    if constexpr (std::is_same_v<V, T>) {
        if (is_poison(v)) out << " (poison: never written)";
    }
    return out.str();
}

/// Everything a failure report needs, already turned into text (formatted in the .cpp file).
struct FailureReport {
    struct Row {
        std::size_t index = 0;
        std::string input, expected, actual;
        bool marked = false; // the first wrong index
    };
    std::string what; // e.g. "lab01::naive_scan"
    std::string op;   // "sum"
    std::string type; // "int32"
    std::string kind; // "inclusive"
    int n = 0;
    std::string problem;       // one line: what is wrong
    std::string hint;          // the likely mistake, or empty
    bool fallback_hint = true; // with no hint: say that no usual mistake fits
    std::vector<Row> rows;     // the positions around the first wrong index
};

std::string format_failure(const FailureReport& report);

/// Whether out[i..n) is what `+` and 0 instead of Op::apply and Op::identity would give (sums
/// wrap around in the unsigned type, so the check itself never overflows).
template <class Op>
bool looks_like_plus_scan(std::span<const typename Op::value_type> in,
                          std::span<const typename Op::value_type> out, std::size_t i,
                          ScanKind kind) {
    using T = typename Op::value_type;
    using Acc = typename std::conditional_t<std::is_floating_point_v<T>, std::type_identity<double>,
                                            std::make_unsigned<T>>::type;
    Acc sum = 0;
    double abs_sum = 0.0;
    for (std::size_t j = 0; j < in.size(); ++j) {
        if (kind == ScanKind::inclusive) sum += static_cast<Acc>(in[j]);
        abs_sum += std::fabs(static_cast<double>(in[j]));
        if (j >= i) {
            if constexpr (std::is_floating_point_v<T>) {
                if (!(std::fabs(out[j] - sum) <= 1e-3 * abs_sum)) return false;
            } else {
                if (static_cast<T>(sum) != out[j]) return false;
            }
        }
        if (kind == ScanKind::exclusive) sum += static_cast<Acc>(in[j]);
    }
    return true;
}

/// The operator a host model of a scan uses: the same one, in double for floating point.
template <class Op, bool = std::is_floating_point_v<typename Op::value_type>>
struct ModelOp {
    using type = Op;
};
template <class Op>
struct ModelOp<Op, true> {
    using type = typename Op::template rebind<double>;
};

/// What Hillis-Steele steps compute with a slip: `strict` combines only when i > offset (where
/// i >= offset is right), `steps` limits the offsets to 1, 2, ..., 2^(steps-1). Exclusive: both
/// ways of getting it (shift the input first, as lab 01 does; or shift the inclusive result, as
/// lab 05's shuffle does) are returned.
template <class Op>
std::vector<std::vector<Expected<typename Op::value_type>>>
hillis_steele_models(std::span<const typename Op::value_type> in, ScanKind kind, bool strict,
                     int steps) {
    using E = Expected<typename Op::value_type>;
    using M = typename ModelOp<Op>::type;
    const std::size_t n = in.size();
    auto scan = [&](std::vector<E> x) {
        std::vector<E> next(n);
        int step = 0;
        for (std::size_t offset = 1; offset < n && step < steps; offset *= 2, ++step) {
            for (std::size_t i = 0; i < n; ++i)
                next[i] =
                    (strict ? i > offset : i >= offset) ? M::apply(x[i - offset], x[i]) : x[i];
            x.swap(next);
        }
        return x;
    };
    std::vector<E> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = static_cast<E>(in[i]);
    if (kind == ScanKind::inclusive) return {scan(values)};
    std::vector<E> shifted(n);
    for (std::size_t i = 0; i < n; ++i) shifted[i] = i == 0 ? E(M::identity()) : values[i - 1];
    std::vector<E> after = scan(values);
    std::vector<E> shifted_after(n);
    for (std::size_t i = 0; i < n; ++i) shifted_after[i] = i == 0 ? E(M::identity()) : after[i - 1];
    return {scan(shifted), shifted_after};
}

/// The hint for the Hillis-Steele slips, or empty if the output is not one of them.
template <class Op>
std::string hillis_steele_hint(std::span<const typename Op::value_type> in,
                               std::span<const typename Op::value_type> out,
                               std::span<const double> tol, ScanKind kind) {
    using T = typename Op::value_type;
    const std::size_t n = in.size();
    auto fits = [&](int steps, bool strict) {
        for (const auto& model : hillis_steele_models<Op>(in, kind, strict, steps)) {
            bool same = true;
            for (std::size_t j = 0; j < n && same; ++j) same = matches<T>(model[j], out[j], tol[j]);
            if (same) return true;
        }
        return false;
    };
    int all_steps = 0;
    while ((std::size_t(1) << all_steps) < n) ++all_steps;
    const bool strict = fits(all_steps, true);
    const bool no_step = all_steps > 0 && fits(0, false);
    if (strict && no_step) // n = 2: one step, and the only element that combines is at offset
        return "no element was combined with the one before it: either the loop stops early "
               "(no step ran; it must run while offset < the number of elements), or the "
               "element at index == offset did not combine: the test is `i >= offset` "
               "(`lane >= offset` in a warp scan), not `>`";
    if (strict)
        return "the elements at index == offset (1, 2, 4, ...) missed their step, as with "
               "`i > offset`: the test is `i >= offset` (`lane >= offset` in a warp scan), "
               "since the element exactly `offset` positions in needs the one at index 0";
    for (int steps = 0; steps < all_steps; ++steps)
        if (fits(steps, false))
            return steps == 0
                       ? "no combining step ran: the output is the input (shifted for "
                         "the exclusive scan); the loop stops early (it must run while "
                         "offset < the number of elements)"
                       : "the output is what the first " + std::to_string(steps) +
                             " step(s) give (offsets up to " + std::to_string(1 << (steps - 1)) +
                             "): " + std::to_string(all_steps) + " steps are needed for " +
                             std::to_string(n) +
                             " elements; the loop stops early (it must run while offset < the "
                             "number of "
                             "elements)";
    return "";
}

/// The hint for a multi-tile scan whose first wrong element i lies in tile b: compares the tile
/// with what the usual mistakes of combining tiles give (the tile scanned alone, with its own
/// total in its prefix, or with the prefix on the right). Empty if none fits.
template <class Op>
std::string tile_hint(std::span<const typename Op::value_type> in,
                      std::span<const typename Op::value_type> out, std::span<const double> tol,
                      std::size_t i, ScanKind kind, int tile, TileShape& shape) {
    using T = typename Op::value_type;
    using E = Expected<T>;
    using M = typename ModelOp<Op>::type;
    const std::size_t size = static_cast<std::size_t>(tile);
    const std::size_t b = i / size;
    const std::size_t first = b * size;
    const std::size_t last = std::min(in.size(), first + size);
    E before = M::identity(); // the tiles before b
    for (std::size_t j = 0; j < first; ++j) before = M::apply(before, static_cast<E>(in[j]));
    E own = M::identity(); // tile b's total
    for (std::size_t j = first; j < last; ++j) own = M::apply(own, static_cast<E>(in[j]));
    std::vector<E> alone(last - first); // tile b scanned on its own
    E running = M::identity();
    for (std::size_t j = first; j < last; ++j) {
        if (kind == ScanKind::exclusive) alone[j - first] = running;
        running = M::apply(running, static_cast<E>(in[j]));
        if (kind == ScanKind::inclusive) alone[j - first] = running;
    }
    auto tile_is = [&](auto&& model) {
        for (std::size_t j = first; j < last; ++j)
            if (!matches<T>(model(alone[j - first]), out[j], tol[j])) return false;
        return true;
    };
    const std::string where = "tile " + std::to_string(b) + " (elements " + std::to_string(first) +
                              ".." + std::to_string(last - 1) + ", " + std::to_string(tile) +
                              " per tile)";
    shape = TileShape::alone;
    if (tile_is([](E x) { return x; }))
        return where + " is scanned on its own: the combination of the tiles before it never "
                       "reached it (is the prefix of the earlier tiles added to every element "
                       "of the tile?)";
    shape = TileShape::own_total;
    if (tile_is([&](E x) { return M::apply(M::apply(before, own), x); }))
        return where + " has its own total in the prefix it was given: the scan of the tile "
                       "totals must be EXCLUSIVE (tile b gets the tiles 0..b-1, not b itself)";
    shape = TileShape::on_the_right;
    if (tile_is([&](E x) { return M::apply(x, before); }))
        return where + " has the prefix of the earlier tiles on the RIGHT of Op::apply: "
                       "what comes first goes on the left, Op::apply(prefix, value)";
    // Whole earlier tiles missing from the prefix, or counted twice in it. Each candidate is
    // tried on the tile's elements until one differs (usually the first), so trying every
    // range of tiles costs little; past kMostTiles tiles the ranges are not tried.
    constexpr std::size_t kMostTiles = 128;
    shape = TileShape::unknown;
    if (b == 0 || b > kMostTiles) return "";
    std::vector<E> totals(b, M::identity()); // each earlier tile's own total
    for (std::size_t j = 0; j < first; ++j)
        totals[j / size] = M::apply(totals[j / size], static_cast<E>(in[j]));
    auto range = [&](std::size_t lo, std::size_t hi) { // tiles lo..hi-1, in order
        E value = M::identity();
        for (std::size_t t = lo; t < hi; ++t) value = M::apply(value, totals[t]);
        return value;
    };
    auto tiles = [&](std::size_t lo, std::size_t hi) { // "tile 3" or "tiles 2..5"
        return hi - lo == 1 ? "tile " + std::to_string(lo)
                            : "tiles " + std::to_string(lo) + ".." + std::to_string(hi - 1);
    };
    for (std::size_t lo = 0; lo < b; ++lo) {
        for (std::size_t hi = lo + 1; hi <= b; ++hi) {
            if (lo == 0 && hi == b) continue; // all of them: the tile alone, above
            const E without = M::apply(range(0, lo), range(hi, b));
            shape = TileShape::missing;
            if (tile_is([&](E x) { return M::apply(without, x); }))
                return where + " has a prefix WITHOUT " + tiles(lo, hi) +
                       ": the tiles before it reached it, except " +
                       (hi - lo == 1 ? "that one" : "those");
            const E twice = M::apply(range(lo, hi), before);
            shape = TileShape::twice;
            if (tile_is([&](E x) { return M::apply(twice, x); }))
                return where + " has " + tiles(lo, hi) + " counted TWICE in its prefix: " +
                       "the prefix is the combination of every tile before it, each once";
        }
    }
    shape = TileShape::unknown;
    return "";
}

/// The hint for the first wrong index i; empty if nothing specific fits.
template <class Op>
std::string hint_for(std::span<const typename Op::value_type> in,
                     std::span<const Expected<typename Op::value_type>> expected,
                     std::span<const typename Op::value_type> out, std::span<const double> tol,
                     std::size_t i, ScanKind kind, const CheckOptions& options, TileShape& shape,
                     int& shape_tile) {
    using T = typename Op::value_type;
    const std::size_t n = in.size();
    auto all = [&](auto&& pred) { return every_index(n, pred); };
    auto same_as = [&](std::span<const Expected<T>> other) {
        return all([&](std::size_t j) { return matches<T>(other[j], out[j], tol[j]); });
    };

    if (options.in_place) { // the same inputs passed out of place before this runs
        if (all([&](std::size_t j) { return out[j] == in[j]; }))
            return "the array still holds the input: the in-place scan wrote nothing";
        return "this run is in place (out == in): read in[i] before you overwrite out[i], "
               "because they are the same element";
    }
    if (all([&](std::size_t j) { return is_poison(out[j]); }))
        return options.on_device
                   ? "no output was written at all: did the kernel launch (<<<blocks, threads>>>) "
                     "and does each thread store its result to the output array?"
                   : "no output was written at all: does your function write to `out`?";
    if (is_poison(out[i]))
        return options.on_device
                   ? "this output was never written: is there a thread for every element "
                     "(launch size), and does every thread reach its final store?"
                   : "this output was never written: does your loop cover every index 0..n-1?";
    if (n > 1 && all([&](std::size_t j) { return out[j] == Op::identity(); }))
        return "all outputs are the identity: the scan wrote its starting value but never "
               "combined any input";

    const ScanKind other_kind =
        kind == ScanKind::inclusive ? ScanKind::exclusive : ScanKind::inclusive;
    if (options.hillis_steele) {
        const std::string hint = hillis_steele_hint<Op>(in, out, tol, kind);
        if (!hint.empty()) return hint;
    }
    if (options.on_device && options.block_size > 0) {
        const int smallest =
            options.smallest_block_size > 0 ? options.smallest_block_size : options.block_size;
        for (int tile = options.block_size; tile >= smallest && tile > 0; tile /= 2) {
            if (n <= static_cast<std::size_t>(tile)) continue; // one tile: nothing to combine
            const std::string hint = tile_hint<Op>(in, out, tol, i, kind, tile, shape);
            if (!hint.empty()) {
                shape_tile = tile;
                return hint;
            }
        }
    }
    if (options.tree && n > 0) {
        // The down-sweep pushes whatever the root holds in front of every prefix.
        using M = typename ModelOp<Op>::type;
        using E = Expected<T>;
        E total = M::identity();
        for (std::size_t j = 0; j < n; ++j) total = M::apply(total, static_cast<E>(in[j]));
        if (all([&](std::size_t j) {
                return matches<T>(M::apply(total, expected[j]), out[j], tol[j]);
            }))
            return "every output has the total of all the elements in front of it: the root of "
                   "the tree still held the total when the down-sweep started; replace it with "
                   "Op::identity() first (nothing comes before the whole array)";
    }
    if (same_as(expected_scan<Op>(in, other_kind)))
        return kind == ScanKind::exclusive
                   ? "this is the INCLUSIVE scan, but an exclusive one was asked for: shift "
                     "right by one position and put the identity first"
                   : "this is the EXCLUSIVE scan, but an inclusive one was asked for: don't "
                     "shift; out[i] includes in[i]";
    if (n > 1 && all([&](std::size_t j) { return out[j] == in[j]; }))
        return "the output is a copy of the input: the combining steps never ran (loop bounds?)";
    if (n > 2 && kind == ScanKind::exclusive &&
        all([&](std::size_t j) { return out[j] == (j > 0 ? in[j - 1] : Op::identity()); }))
        return "the output is the input shifted by one: the shift is right, but the combining "
               "steps never ran (loop bounds?)";
    if constexpr (!Op::is_commutative) {
        if (same_as(expected_scan<Swapped<Op>>(in, kind)))
            return std::string("operands in the wrong order: ") + Op::name +
                   " is not commutative; always call Op::apply(earlier, later), the value "
                   "from the lower index on the left";
    }
    auto shifted_from_i = [&](int by) { // out[j] == expected[j + by] for every j >= i
        return all([&](std::size_t j) {
            const std::size_t k = j + static_cast<std::size_t>(by);
            return j < i || k >= n || matches<T>(expected[k], out[j], tol[j]);
        });
    };
    if ((i > 0 && shifted_from_i(-1)) || (i + 1 < n && shifted_from_i(1)))
        return "off by one position: from here on each output holds its neighbour's value; did "
               "you shift for the exclusive scan (once, and in the right direction)?";
    if constexpr (!is_op<Op, Sum>) {
        if (looks_like_plus_scan<Op>(in, out, i, kind))
            return std::string("this is a running SUM, but the operator is ") + Op::name +
                   ": combine with Op::apply(a, b) and start from Op::identity(), never + and 0";
    }
    if (i == 0)
        return kind == ScanKind::exclusive
                   ? "the first output of an exclusive scan is the identity (Op::identity())"
                   : "the first output of an inclusive scan is the first input itself";
    if (out[i] == in[i])
        return "this output is just its own input: it was never combined with the elements "
               "before it";
    if (options.on_device && options.block_size > 0 && i % options.block_size == 0)
        return "wrong from index " + std::to_string(i) + ", the first element of tile " +
               std::to_string(i / options.block_size) +
               ": what this tile starts from is not the combination of the tiles before it";
    // On the emulator a race is reported as such: a wrong result it did not report is a
    // mistake in what is computed. On a GPU a race can look like anything.
    if (options.on_device && i % 32 == 0)
        return "the first " + std::to_string(i) +
               " outputs are right and the first wrong one starts a warp (a multiple of 32)" +
               (races_are_reported()
                    ? std::string(": the emulator saw no race, so look at how values cross "
                                  "from one warp's elements to the next")
                    : std::string(": threads of different warps do not run in lockstep; if "
                                  "the emulator (simt backend) reports nothing, look at how "
                                  "values cross from one warp's elements to the next"));
    if (options.on_device && options.lab_hint_follows) return "";
    if (options.on_device)
        return races_are_reported()
                   ? "no usual mistake fits, and the emulator saw no race or out-of-bounds "
                     "access: compare the expected and actual columns below with the worked "
                     "example in the lab's README.md"
                   : "no usual mistake fits; if the wrong values change from run to run, "
                     "suspect a race (the simt backend reports races with their lines)";
    if constexpr (std::is_floating_point_v<T>) {
        return "the difference is larger than rounding can explain (tolerance " + show<Op>(tol[i]) +
               "): an element is missing or counted twice";
    }
    return "";
}

} // namespace detail

/// Compares a scan's output with the reference and explains the first wrong position.
/// `input_after` is the input array as read back after the scan; pass an empty span to skip
/// that check (in-place scans).
template <class Op>
ScanCheck check_scan(std::string_view what, std::span<const typename Op::value_type> input,
                     std::span<const typename Op::value_type> input_after,
                     std::span<const typename Op::value_type> output, ScanKind kind,
                     const CheckOptions& options = {}) {
    using T = typename Op::value_type;
    const std::size_t n = input.size();
    if (output.size() != n) throw std::logic_error("check_scan: output size differs from input");

    const auto expected = detail::expected_scan<Op>(input, kind);
    const std::vector<double> tol = detail::tolerances<Op>(input, kind);

    std::size_t first = n, wrong = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (detail::matches<T>(expected[i], output[i], tol[i])) continue;
        if (first == n) first = i;
        ++wrong;
    }

    detail::FailureReport report;
    report.what = what;
    report.op = Op::name;
    report.type = type_name<T>();
    report.kind = to_string(kind);
    report.n = static_cast<int>(n);
    if (first < n) {
        report.problem = "first wrong output at index " + std::to_string(first) + " (" +
                         std::to_string(wrong) + " of " + std::to_string(n) +
                         " outputs are wrong): expected " + detail::show<Op>(expected[first]) +
                         ", got " + detail::show<Op>(output[first]);
        TileShape shape = TileShape::unknown;
        int shape_tile = 0;
        report.hint = detail::hint_for<Op>(input, expected, output, tol, first, kind, options,
                                           shape, shape_tile);
        report.fallback_hint = !options.lab_hint_follows;
        const std::size_t lo = first >= 3 ? first - 3 : 0;
        const std::size_t hi = std::min(n, first + 4);
        for (std::size_t i = lo; i < hi; ++i)
            report.rows.push_back({i, detail::show<Op>(input[i]), detail::show<Op>(expected[i]),
                                   detail::show<Op>(output[i]), i == first});
        return {false, detail::format_failure(report), shape, shape_tile};
    }

    if (!input_after.empty()) {
        if (input_after.size() != n) throw std::logic_error("check_scan: input size changed");
        for (std::size_t i = 0; i < n; ++i) {
            // Compare bytes: the input is copied, never computed, so it must be identical.
            if (std::memcmp(&input[i], &input_after[i], sizeof(T)) == 0) continue;
            report.problem = "the output is right but the INPUT was modified, first at index " +
                             std::to_string(i) + ": was " + detail::show<Op>(input[i]) + ", now " +
                             detail::show<Op>(input_after[i]);
            report.hint = "a scan must not write to its input; keep intermediate values in "
                          "your own (shared) memory and write only the output";
            return {false, detail::format_failure(report)};
        }
    }
    return {};
}

/// Runs `scan(in, out, n, kind)` on host arrays: fresh input, poisoned output, then checks.
/// With in_place, it first checks the same input out of place, then with in and out the same
/// array, so an in-place failure really is about aliasing.
template <class Op, class ScanFn>
ScanCheck run_host_scan(std::string_view what, int n, ScanKind kind, ScanFn&& scan,
                        bool in_place = false) {
    using T = typename Op::value_type;
    const std::vector<T> input = make_input<Op>(n, kind);
    CheckOptions options;
    options.on_device = false;

    std::vector<T> in = input;
    std::vector<T> out(input.size(), poison_value<T>());
    scan(static_cast<const T*>(in.data()), out.data(), n, kind);
    ScanCheck result = check_scan<Op>(what, input, in, out, kind, options);
    if (!result.ok || !in_place) return result;

    std::vector<T> data = input;
    scan(static_cast<const T*>(data.data()), data.data(), n, kind);
    options.in_place = true;
    return check_scan<Op>(std::string(what) + " in place (out == in)", input, {}, data, kind,
                          options);
}

/// Where a device scan writes its result: to an output buffer of its own (the input must then
/// be left as it was), or over its input (out == in).
enum class ScanOutput { separate, in_place };

/// Runs `scan(d_in, d_out, n, kind)` (d_out may be d_in) and waits for the kernel; checks that
/// kernels wrote the output (KernelWorkWatch). A kernel that failed is a failed check named
/// `call`, or, with `throw_if_failed`, a std::runtime_error. Returns the failed check, if any.
template <class T, class ScanFn>
std::optional<ScanCheck> scan_on_device(const std::string& call, DeviceBuffer<T>& d_in,
                                        DeviceBuffer<T>& d_out, int n, ScanKind kind, ScanFn&& scan,
                                        bool throw_if_failed) {
    KernelWorkWatch watch;
    watch.input(d_in.data(), d_in.size()).output(d_out.data(), d_out.size());
    try {
        scan(static_cast<const T*>(d_in.data()), d_out.data(), n, kind);
    } catch (const std::runtime_error& error) {
        // A failed CUDA call in the host code, usually the cudaGetLastError() after a launch
        // that faulted (the emulator runs a launch to its end inside it): the fault's own line
        // comes first, the host line after it.
        const std::string where = fault_where();
        if (where.empty()) throw;
        std::string failure = call + ": the kernel failed" + where + ": " + error.what();
        if (throw_if_failed) throw std::runtime_error(failure);
        return ScanCheck{false, std::move(failure)};
    }
    // Synchronize here so a fault inside the kernel is reported as such, not by a later copy.
    const cudaError_t status = cudaDeviceSynchronize();
    if (status != cudaSuccess) {
        std::string failure = call + ": the kernel failed" + fault_where() + ": " +
                              cudaGetErrorName(status) + ": " + cudaGetErrorString(status);
        if (throw_if_failed) throw std::runtime_error(failure);
        return ScanCheck{false, std::move(failure)};
    }
    if (std::string host_work = watch.verdict(call); !host_work.empty())
        return ScanCheck{false, std::move(host_work)};
    return std::nullopt;
}

/// Runs `scan(d_in, d_out, n, kind)` on device buffers: fresh input, poisoned output, waits for
/// the kernel, checks that kernels wrote the output (KernelWorkWatch), reads the buffers back,
/// then checks the values. A kernel that failed throws std::runtime_error naming the call, its
/// operator, type and size.
/// With ScanOutput::in_place, `scan(data, data, n, kind)` runs on one buffer that holds the
/// input, `what` alone names the call in every message, and a kernel that failed is a failed
/// check.
template <class Op, class ScanFn>
ScanCheck run_device_scan(std::string_view what, int n, ScanKind kind, ScanFn&& scan,
                          const CheckOptions& options = {},
                          ScanOutput output = ScanOutput::separate) {
    using T = typename Op::value_type;
    const std::vector<T> input = make_input<Op>(n, kind);
    DeviceBuffer<T> d_in(input);
    if (output == ScanOutput::in_place) {
        if (auto failed = scan_on_device(std::string(what), d_in, d_in, n, kind, scan, false))
            return *std::move(failed);
        return check_scan<Op>(what, input, {}, d_in.download(), kind, options);
    }
    DeviceBuffer<T> d_out(std::vector<T>(input.size(), poison_value<T>()));
    const std::string call = std::string(what) + " (" + to_string(kind) + " " + Op::name + " " +
                             type_name<T>() + ", n=" + std::to_string(n) + ")";
    if (auto failed = scan_on_device(call, d_in, d_out, n, kind, scan, true))
        return *std::move(failed);
    const std::vector<T> out = d_out.download();
    const std::vector<T> in_after = d_in.download();
    return check_scan<Op>(what, input, in_after, out, kind, options);
}

} // namespace scanlab::test
