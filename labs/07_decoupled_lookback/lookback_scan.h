// Lab 07 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>
#include <scanlab/workspace.h>

#include <cstddef>
#include <cstdint>

namespace lab07 {

using scanlab::ScanKind;

inline constexpr int kWarpSize = 32;

/// Where a thread block gets the number of the tile it scans.
enum class TileIds {
    /// atomicAdd on a counter when the block starts: tiles are numbered in the order blocks
    /// start, so every lower tile belongs to a block that is running or done (the paper's fix).
    atomic_counter,
    /// blockIdx.x: correct only if the GPU starts blocks in blockIdx order. A block that waits
    /// for a lower one that has not started, while it holds the SM that one would need, waits
    /// forever: the simt backend's shuffled dispatch reports that as a deadlock.
    block_index,
};

/// How tile descriptors (status flag X/A/P plus value) are stored.
enum class Descriptors {
    automatic, ///< packed where the values are 4 or 8 bytes (every type the lab uses), separate
               ///< otherwise
    packed,    ///< flag and value in 64-bit words, each written and read whole: no fence needed.
               ///< 4-byte values: one word per tile. 8-byte values: two words per tile, each
               ///< holding the flag beside one half of the value (given code: README.md, Part 1).
               ///< Other sizes: scan() throws std::invalid_argument.
    separate,  ///< flags and values in separate arrays, ordered with __threadfence()
};

struct LookbackOptions {
    TileIds tile_ids = TileIds::atomic_counter;
    Descriptors descriptors = Descriptors::automatic;
};

/// A tile is what one thread block scans: BlockThreads threads (a multiple of 32, at most 1024)
/// with ItemsPerThread consecutive elements each (1 to 32).
template <int BlockThreads, int ItemsPerThread>
inline constexpr bool kValidTileShape =
    BlockThreads >= kWarpSize&& BlockThreads <= 1024 && BlockThreads % kWarpSize == 0 &&
    ItemsPerThread >= 1 && ItemsPerThread <= 32;

/// The tile shape used unless told otherwise, 16 KiB of values: 128 threads x 32 items for 4-byte
/// types, 128 threads x 16 items for 8-byte types (chosen by measurement on an H200; README.md).
template <class T>
inline constexpr int kDefaultBlockThreads = 128;
template <class T>
inline constexpr int kDefaultItemsPerThread = sizeof(T) <= 4 ? 32 : 16;

/// Device memory that scan() and select_greater() need besides input and output: one
/// descriptor per tile and the tile counter. Without a Workspace each call allocates and frees
/// its own; a Workspace keeps its memory for the next call (what a benchmark should use).
class Workspace {
  public:
    /// At least `bytes` bytes of device memory (aligned for any element type). What an earlier
    /// call left there is garbage. Reallocates only when it has to grow.
    void* reserve(std::size_t bytes) {
        layout_ = 0;
        return memory_.reserve(bytes);
    }
    std::size_t capacity() const { return memory_.capacity(); }

    /// For scan() and select_greater(), which keep their descriptors in two halves of the memory
    /// and clear, in each call, the half the next call uses (lookback_scan.cu, with_descriptors):
    /// like reserve(), and `kept` tells whether the last call laid out the memory the same way
    /// (`layout`, a nonzero key), so that the half it cleared is ready.
    void* reserve_kept(std::size_t bytes, std::size_t layout, bool& kept) {
        kept = layout != 0 && layout == layout_ && bytes <= memory_.capacity();
        layout_ = layout;
        return memory_.reserve(bytes);
    }
    /// Which half this call uses (0 after a layout change), and the other one next time.
    int take_half(bool kept) {
        next_half_ = kept ? next_half_ : 0;
        const int half = next_half_;
        next_half_ ^= 1;
        return half;
    }

  private:
    scanlab::Workspace memory_; // the memory itself, grown as lab 05's
    std::size_t layout_ = 0;
    int next_half_ = 0;
};

/// Scans d_in[0..n) into d_out[0..n) for any n >= 0 in ONE pass over the data (n reads, n
/// writes): each block scans one tile and finds the combination of all earlier tiles by decoupled
/// look-back over the tiles' descriptors. d_out may equal d_in (in place).
/// Throws std::invalid_argument if n < 0, if n > 0 and a pointer is null, if there would be more
/// than 2^31 - 1 tiles, or if options ask for packed descriptors with values that are neither 4
/// nor 8 bytes. For n == 0 it launches nothing. Throws std::runtime_error (SCANLAB_CUDA_CHECK) if a
/// CUDA call fails. Returns once the kernel is launched.
template <class Op, int BlockThreads = kDefaultBlockThreads<typename Op::value_type>,
          int ItemsPerThread = kDefaultItemsPerThread<typename Op::value_type>>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, const LookbackOptions& options = {}, Workspace* workspace = nullptr);

/// Extension: stream compaction (select-if) in one pass. Copies the elements of d_in[0..n) that
/// are greater than `threshold` to d_out[0..count), in their original order, and writes count
/// to *d_count (device memory). The tile descriptors hold counts (int, 4 bytes), so every
/// Descriptors choice works for every T. d_out may equal d_in (in-place compaction).
/// Throws std::invalid_argument if n < 0, n > 2^31 - 1, or n > 0 and a pointer is null. For
/// n == 0 it writes 0 to *d_count (d_count must then still be valid; d_in and d_out may be null).
template <class T, int BlockThreads = kDefaultBlockThreads<T>,
          int ItemsPerThread = kDefaultItemsPerThread<T>>
void select_greater(const T* d_in, T* d_out, int* d_count, std::int64_t n, T threshold,
                    const LookbackOptions& options = {}, Workspace* workspace = nullptr);

} // namespace lab07

/// The operators scan is compiled for with the small tile shape <Op, 64, 3> besides the default
/// one (lookback_scan.cu's last lines): those the tests call it with. Expands X(Op) for each; X
/// must supply its own `;`. The sums among them only, with SCANLAB_INSTANTIATE_SUMS_ONLY
/// (scanlab/graded_operators.h).
#ifdef SCANLAB_INSTANTIATE_SUMS_ONLY
#define LAB07_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<double>)
#else
#define LAB07_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<double>)                                                                        \
    X(scanlab::Max<std::int32_t>)                                                                  \
    X(scanlab::Max<std::int64_t>)                                                                  \
    X(scanlab::Min<std::int32_t>)                                                                  \
    X(scanlab::Min<std::uint32_t>)                                                                 \
    X(scanlab::Min<std::int64_t>)                                                                  \
    X(scanlab::Product<std::int32_t>)                                                              \
    X(scanlab::Product<std::int64_t>)                                                              \
    X(scanlab::Product<double>)                                                                    \
    X(scanlab::Affine<std::int32_t>)                                                               \
    X(scanlab::Affine<std::uint32_t>)                                                              \
    X(scanlab::Affine<std::int64_t>)
#endif
