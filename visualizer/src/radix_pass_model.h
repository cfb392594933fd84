#pragma once

// Lab 09's one-sweep pass as one block did it, read back from a trace's accesses: the tile's keys
// as loaded and where the local rank put them, the per-digit look-back (each descriptor read, its
// X/A/P flag and count, the inclusive prefix the tile published), and where each key was
// scattered. The radix view draws it.
//
// The trace format has no notion of digits, so the model reads the lab's given code's accesses,
// which every student's kernel keeps (labs/09_radix_sort/radix_sort.cu): the tile id in shared
// `tile_id`; the staging `staged_keys[place] = keys[i]` item by item (the tile's keys, in load
// order, and their places after the rank); `publish()` into descriptor tile * kDigits + digit by
// thread `digit`, before the staging; the scatter, a global store per staged load, after it.

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "scanlab/trace/trace.h"

namespace scanlab::view {

// The lab's constants (labs/09_radix_sort/radix_sort.h).
inline constexpr std::uint32_t kRadixDigits = 256;
inline constexpr std::uint32_t kRadixDigitBits = 8;
inline constexpr std::uint32_t kRadixItemsPerThread = 32;
inline constexpr std::uint32_t kRadixTileKeys = 8192;

// Why a trace (or a block of it) cannot be shown as a one-sweep pass; the message says what to do.
struct RadixPassError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct RadixKey {
    std::uint32_t bits = 0;  // the key's sort-order bits, as staged
    std::uint32_t digit = 0; // (bits >> shift) & 255
    std::uint32_t place = 0; // its place in the tile after the local rank
    // Where the scatter wrote it: an element of the pass's output buffer (empty: not written, a
    // padding key past the input's end, or the trace was cut).
    std::optional<std::uint64_t> position;
};

// One look-back read of a predecessor's descriptor (polls that found the same are one read).
struct DescriptorRead {
    std::uint32_t tile = 0;
    trace::TileFlag flag = trace::TileFlag::X;
    std::uint32_t count = 0; // the descriptor's count (A: that tile's keys of the digit; P: all
                             // up to it); 0 for X
    std::uint32_t reads = 1;
    std::uint64_t instruction = 0; // the first read's instruction
};

struct DigitLookBack {
    std::uint32_t keys = 0;                 // the tile's keys of this digit (from the staging)
    std::optional<std::uint32_t> aggregate; // the A the tile published
    std::optional<std::uint32_t> inclusive; // the P it published: the prefix it ended with
    std::vector<DescriptorRead> reads;      // in order, nearest tile first
    // The sum of the counts of each predecessor's last read, up to the first P: what the
    // look-back found before this tile.
    std::uint32_t prefix() const;
};

struct RadixPassModel {
    std::uint32_t block = 0;
    std::uint32_t tile = 0;
    std::uint32_t shift = 0;           // the pass's digit: bits shift..shift+7
    std::vector<RadixKey> keys;        // in the tile's load order (index in the tile)
    std::vector<DigitLookBack> digits; // kRadixDigits of them
    std::string output_object;         // the memory object the scatter wrote
    std::uint64_t output_start = 0;    // the element of that object where the keys start
    std::uint64_t output_length = 0;   // keys of the whole pass: grid blocks x kRadixTileKeys

    // The key at each place after the rank (index into keys), kRadixTileKeys of them.
    std::vector<std::uint32_t> by_place() const;
    // The digit whose look-back read the most descriptors (the most instructive one to show).
    std::uint32_t longest_look_back() const;
};

// Whether the trace is of lab 09's one-sweep kernel (by its name), for showing the view at all.
bool is_radix_pass(const trace::Trace& trace);

// Builds the model of `block` (linear index). Throws RadixPassError when the trace is not of the
// one-sweep kernel, the block was not recorded or lacks the lab's given accesses, or the trace
// was cut before the block's scatter.
RadixPassModel build_radix_pass_model(const trace::Trace& trace, std::uint32_t block);

} // namespace scanlab::view
