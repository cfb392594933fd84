// Lab 09's sorting checks, for its graded tests (tests/labs/lab09_radix_sort_test.cpp) and its
// hidden tests (grading/hidden/): the reference is std::stable_sort on the keys' sort-order bits
// (the lab's README.md, Part 0), and the comparison is bit for bit: -0.0 and +0.0, NaNs and
// infinities have one right place each. Values are the keys' input positions, so a sort that
// swaps two equal keys is seen. A failure's text names what it saw and the lab's hint for it.
#pragma once

#include "radix_sort.h"

#include "kernel_failure.h"
#include "scan_test_support.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/report.h"
#endif

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/type_name.h>

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <limits>
#include <numeric>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace scanlab::test::lab09_sort {

using scanlab::DeviceBuffer;

inline constexpr int kTile = lab09::kTileKeys;

// ---- keys -----------------------------------------------------------------------------------

template <class Key>
std::uint32_t bits_of(Key key) {
    std::uint32_t bits;
    std::memcpy(&bits, &key, sizeof bits);
    return bits;
}

template <class Key>
Key key_of(std::uint32_t bits) {
    Key key;
    std::memcpy(&key, &bits, sizeof key);
    return key;
}

/// The bits of a key in sort order (the lab's Part 0, written again here as the reference).
template <class Key>
std::uint32_t sort_order(Key key) {
    const std::uint32_t bits = bits_of(key);
    if constexpr (std::is_same_v<Key, float>)
        return (bits & 0x80000000u) ? ~bits : bits ^ 0x80000000u;
    else if constexpr (std::is_signed_v<Key>)
        return bits ^ 0x80000000u;
    else
        return bits;
}

template <class Key>
std::string show(Key key) {
    std::ostringstream out;
    if constexpr (std::is_floating_point_v<Key>) out.precision(9);
    out << key << " (bits 0x" << std::hex << bits_of(key) << ")";
    return out.str();
}

/// What the keys of a test look like.
enum class Keys {
    uniform,    // every bit random (floats: NaNs and infinities included, as their bits fall)
    few_values, // 16 distinct keys: long runs of equal keys, where stability shows
    one_digit,  // nine in ten keys the same: one digit holds almost a whole tile in each pass
    special,    // the edges of the type: 0, -0.0, infinities, the smallest and largest values
    descending, // the reverse of the sorted order
};

inline const char* name_of(Keys keys) {
    switch (keys) {
    case Keys::uniform:
        return "uniform bits";
    case Keys::few_values:
        return "16 distinct keys";
    case Keys::one_digit:
        return "nine in ten keys equal";
    case Keys::special:
        return "special values";
    case Keys::descending:
        return "descending";
    }
    return "?";
}

template <class Key>
std::vector<Key> special_keys() {
    if constexpr (std::is_same_v<Key, float>) {
        using limits = std::numeric_limits<float>;
        return {0.0f,
                -0.0f,
                1.0f,
                -1.0f,
                limits::infinity(),
                -limits::infinity(),
                limits::max(),
                limits::lowest(),
                limits::min(),
                -limits::min(),
                limits::denorm_min(),
                -limits::denorm_min(),
                0.5f,
                -2.5f};
    } else {
        using limits = std::numeric_limits<Key>;
        return {Key(0),
                Key(1),
                limits::max(),
                limits::min(),
                Key(limits::max() - 1),
                Key(limits::min() + 1),
                Key(-1),
                Key(255),
                Key(256)};
    }
}

template <class Key>
std::vector<Key> make_keys(int n, Keys keys, std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    std::vector<Key> out(static_cast<std::size_t>(n));
    const auto random = [&] { return key_of<Key>(static_cast<std::uint32_t>(rng())); };
    std::vector<Key> pool;
    if (keys == Keys::few_values)
        for (int i = 0; i < 16; ++i) pool.push_back(random());
    if (keys == Keys::special) pool = special_keys<Key>();
    const Key common = random();
    for (auto& key : out) {
        switch (keys) {
        case Keys::uniform:
        case Keys::descending:
            key = random();
            break;
        case Keys::few_values:
        case Keys::special:
            key = pool[rng() % pool.size()];
            break;
        case Keys::one_digit:
            key = rng() % 10 == 0 ? random() : common;
            break;
        }
    }
    if (keys == Keys::descending)
        std::stable_sort(out.begin(), out.end(),
                         [](Key a, Key b) { return sort_order(a) > sort_order(b); });
    return out;
}

/// The input positions in stable sorted order: the reference sort.
template <class Key>
std::vector<std::uint32_t> stable_order(const std::vector<Key>& keys) {
    std::vector<std::uint32_t> order(keys.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return sort_order(keys[a]) < sort_order(keys[b]);
    });
    return order;
}

// ---- what went wrong ------------------------------------------------------------------------

// The hint for a sort whose kernels failed, from what the emulator reported (on a GPU only the
// error is known).
inline std::string fault_hint() {
    const scanlab::test::FaultSeen fault = scanlab::test::fault_seen();
#ifdef SCANLAB_BACKEND_SIMT
    // A plain-pointer spin is also a race, which the emulator may report first: the spin is the
    // more specific finding.
    const simt::FaultReport& report = simt::last_fault();
    for (const auto& finding : report.findings)
        if (finding.kind == simt::FaultKind::plain_load_spin)
            return "the report above names a descriptor polled through a plain pointer: the "
                   "compiler may load it once and spin on the register forever (nvcc does). "
                   "look_back reads each descriptor through a `const volatile unsigned*`";
#endif
    if (fault.is("shared memory race")) {
        if (fault.says("histogram_kernel"))
            return "the histogram's threads added to one shared counter at once: count each "
                   "digit with atomicAdd(&counts[...], 1u), never counts[...]++ (a read, then a "
                   "write: two threads read the same count and one increment is lost)";
        return "two threads touched one word of shared memory with nothing ordering them (the "
               "report above names the line). On staged_keys: two keys of a tile got the same "
               "place, so place_in_tile gave two keys the same place (a place is counts[digit] "
               "as the digit's highest peer read it, plus the peers in lower lanes). On counts, "
               "in place_in_tile: only the highest peer reads and updates counts[digit], and a "
               "__syncwarp() follows before the next item's highest peer reads it";
    }
    if (fault.is("spin on a plain load"))
        return "the report above names a descriptor polled through a plain pointer: the compiler "
               "may load it once and spin on the register forever (nvcc does). look_back reads "
               "each descriptor through a `const volatile unsigned*`";
    if (fault.is("illegal address"))
        return "a kernel read or wrote past the end of an allocation (the report above names the "
               "line). The last tile is partial: only its places below n - tile_base "
               "hold keys, and the scatter writes those only. A look-back stops at the first P "
               "(tile 0 publishes P), so it never reads below tile 0";
    if (fault.is("deadlock"))
        return "every block that waits had started, and a descriptor it waits for is never "
               "published: each tile publishes A (P for tile 0) for every digit BEFORE it looks "
               "back, and a look-back goes on past A and stops at P";
    if (fault.is("global memory race") && fault.says("write after write"))
        return "two blocks wrote one word of global memory (the report above names the line). "
               "Where it is the scatter's, two tiles put keys at the same output position: some "
               "tile's offset for a digit missed or doubled keys of earlier tiles. The look-back's "
               "rules: a descriptor still X (not published) is read again until it is not, A "
               "adds its count and goes one tile back, P adds its count and ends the look-back";
    if (fault.is("global memory race"))
        return "the report above names two accesses to one word of global memory with nothing "
               "ordering them: descriptors are written and read through `volatile` pointers, "
               "and the histograms added to with atomicAdd";
    if (fault.is("uninitialized global memory read"))
        return "the report above names a read of device memory that nothing wrote: a key read "
               "past n, or a look-back that read a descriptor of a tile that does not exist";
    return "the kernel failed: the emulator's report above names the line";
}

// What a wrong output looks like, for the hint: the multiset of keys, the groups of the last
// pass's digit, the order within them.
template <class Key>
std::string result_hint(const std::vector<Key>& expected, const std::vector<Key>& got,
                        bool keys_right) {
    if (keys_right)
        return "the keys are sorted, but the values of equal keys are not in input order: the "
               "sort must be stable. Each pass ranks a warp's keys of one digit in input order "
               "(items in order, lanes in order within an item), which atomicAdd on a shared "
               "count does not (it counts, but in no particular lane order)";
    std::vector<std::uint32_t> want, have;
    for (Key k : expected) want.push_back(bits_of(k));
    for (Key k : got) have.push_back(bits_of(k));
    std::sort(have.begin(), have.end());
    std::vector<std::uint32_t> sorted_want = want;
    std::sort(sorted_want.begin(), sorted_want.end());
    if (have != sorted_want)
        return "the output is not the input's keys reordered: some keys are missing and others "
               "are there twice (or positions were never written). Two keys went to one "
               "position: a digit's offset (the histogram scan plus the look-back's count of "
               "its keys in earlier tiles) or a rank within the tile is wrong. Check Part 1 "
               "first (every key counted once per pass), then the look-back";
    const auto top_digit = [](Key k) { return sort_order(k) >> (32 - lab09::kDigitBits); };
    bool groups_right = true;
    for (std::size_t i = 0; i < got.size(); ++i)
        groups_right = groups_right && top_digit(got[i]) == top_digit(expected[i]);
    if (groups_right)
        return "the output holds the input's keys, each in the right group of its most "
               "significant digit (the last pass), but out of order within a group: the order "
               "of an earlier pass was lost. Every pass must be stable: keys of one digit keep "
               "their order from the pass before (the ranks number them in input order)";
    return "the output holds the input's keys, in the wrong order even by the last pass's "
           "digit: the digits' places (the histogram scan, the look-back, digit_shift) or the "
           "digit a pass sorts by (shift = pass * kDigitBits) is wrong";
}

// ---- one sort --------------------------------------------------------------------------------

struct SortCase {
    int n = 0;
    Keys keys = Keys::uniform;
    bool pairs = false;
    bool in_place = false;
    lab09::Workspace* workspace = nullptr;
};

inline std::string describe(const SortCase& c, std::string_view key_type) {
    std::string what = std::string(c.pairs ? "lab09::sort_pairs<" : "lab09::sort_keys<") +
                       std::string(key_type) + (c.pairs ? ", uint32>" : ">") +
                       ", n=" + std::to_string(c.n) + ", " + name_of(c.keys);
    if (c.in_place) what += ", in place";
    if (c.workspace != nullptr) what += ", reused workspace";
    return what + ", seed=" + std::to_string(scanlab::test::seed());
}

/// Sorts one input and compares it with the reference; the failure's text, or "".
template <class Key>
std::string run_sort(const SortCase& c) {
    const std::string what = describe(c, scanlab::type_name<Key>());
    const std::string reproduce = scanlab::test::reproduce_line();
    const std::uint64_t seed = scanlab::test::seed() * 0x9e3779b97f4a7c15ull +
                               static_cast<std::uint64_t>(c.n) * 131 +
                               static_cast<std::uint64_t>(c.keys) * 7 + (c.pairs ? 1 : 0);
    const std::vector<Key> input = make_keys<Key>(c.n, c.keys, seed);
    std::vector<std::uint32_t> values(input.size());
    std::iota(values.begin(), values.end(), 0u);
    const std::vector<std::uint32_t> order = stable_order(input);
    std::vector<Key> expected;
    for (std::uint32_t i : order) expected.push_back(input[i]);

    const Key poison = key_of<Key>(0xDEADBEEFu);
    DeviceBuffer<Key> d_keys(input);
    DeviceBuffer<Key> d_keys_out(std::vector<Key>(input.size(), poison));
    DeviceBuffer<std::uint32_t> d_values(values);
    DeviceBuffer<std::uint32_t> d_values_out(std::vector<std::uint32_t>(input.size(), 0xDEADBEEFu));
    Key* keys_out = c.in_place ? d_keys.data() : d_keys_out.data();
    std::uint32_t* values_out = c.in_place ? d_values.data() : d_values_out.data();
    try {
        if (c.pairs)
            lab09::sort_pairs<Key, std::uint32_t>(d_keys.data(), keys_out, d_values.data(),
                                                  values_out, c.n, c.workspace);
        else
            lab09::sort_keys<Key>(d_keys.data(), keys_out, c.n, c.workspace);
        SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    } catch (const std::exception& error) {
        return scanlab::test::kernel_failure_report(
            what + ": the kernel failed" + scanlab::test::fault_where() + ": " + error.what(), "09",
            fault_hint());
    }
    const std::vector<Key> got = c.in_place ? d_keys.download() : d_keys_out.download();
    std::size_t wrong = 0;
    while (wrong < got.size() && bits_of(got[wrong]) == bits_of(expected[wrong])) ++wrong;
    if (wrong < got.size()) {
        std::ostringstream message;
        message << what << "\n  first wrong key at index " << wrong << " of " << c.n << " (tile "
                << wrong / kTile << "): expected " << show(expected[wrong]) << ", got "
                << show(got[wrong])
                << scanlab::test::hint_line("09", result_hint(expected, got, false)) << reproduce;
        return message.str();
    }
    if (c.pairs) {
        const std::vector<std::uint32_t> moved =
            c.in_place ? d_values.download() : d_values_out.download();
        for (std::size_t i = 0; i < moved.size(); ++i) {
            if (moved[i] == order[i]) continue;
            std::ostringstream message;
            message << what << "\n  keys right, first wrong value at index " << i
                    << ": expected the value of input position " << order[i] << ", got " << moved[i]
                    << " (key " << show(expected[i]) << ")"
                    << scanlab::test::hint_line("09", result_hint(expected, got, true))
                    << reproduce;
            return message.str();
        }
    }
    const std::vector<Key> input_after = d_keys.download();
    if (!c.in_place &&
        std::memcmp(input_after.data(), input.data(), input.size() * sizeof(Key)) != 0)
        return what +
               "\n  the input keys were modified (not in place)\n  hint: read d_in, "
               "write d_out and the workspace only" +
               reproduce;
    return "";
}

template <class Key>
bool check_sorts(std::initializer_list<int> sizes, Keys keys, bool pairs = false,
                 bool in_place = false, lab09::Workspace* workspace = nullptr) {
    for (const int n : sizes) {
        const std::string failure = run_sort<Key>({n, keys, pairs, in_place, workspace});
        if (!failure.empty()) {
            FAIL_CHECK(failure);
            return false;
        }
    }
    return true;
}

} // namespace scanlab::test::lab09_sort
