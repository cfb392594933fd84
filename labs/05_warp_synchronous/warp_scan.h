// Lab 05 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>
#include <scanlab/workspace.h>

#include <cstddef>
#include <cstdint>

namespace lab05 {

using scanlab::ScanKind;

/// Threads in a warp on every NVIDIA GPU so far (and on the simt backend).
inline constexpr int kWarpSize = 32;

/// The two warp scans of part 1.
enum class WarpScanVariant {
    shuffle,       // values stay in registers; lanes exchange them with __shfl_up_sync
    shared_memory, // the 2011 chapter's scan through shared memory, made safe with __syncwarp()
};

/// Part 1. Scans every group of 32 consecutive elements on its own, one warp per group:
///     out[32*g + j] = in[32*g] op ... op in[32*g + j]          (inclusive)
///     out[32*g + j] = identity op in[32*g] op ... in[32*g + j - 1]  (exclusive)
/// The last group may be partial (n need not be a multiple of 32). Both pointers are device
/// pointers. Throws std::invalid_argument if n < 0, or n > 0 and a pointer is null. For n == 0 it
/// launches nothing (null pointers are then allowed). Returns once the kernel is launched.
template <class Op>
void warp_scan_groups(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                      ScanKind kind, WarpScanVariant variant);

/// A tile is what one thread block scans at a time: BlockThreads threads (a multiple of 32, at
/// most 1024) with ItemsPerThread consecutive elements each (at least 1).
template <int BlockThreads, int ItemsPerThread>
inline constexpr bool kValidTileShape =
    BlockThreads >= kWarpSize&& BlockThreads <= 1024 && BlockThreads % kWarpSize == 0 &&
    ItemsPerThread >= 1 && ItemsPerThread <= 32;

/// Parts 2 and 3. Scans every tile of BlockThreads * ItemsPerThread consecutive elements on its
/// own (one thread block per tile; the last tile may be partial), with a block scan built from
/// warp scans. The same contract as warp_scan_groups otherwise.
template <class Op, int BlockThreads, int ItemsPerThread>
void block_scan_tiles(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                      ScanKind kind);

/// The tile shape scan() uses unless told otherwise: 256 threads, 16 items each for 4-byte
/// types, 8 for 8-byte types (the same bytes per tile, and the same registers per thread).
inline constexpr int kDefaultBlockThreads = 256;
template <class T>
inline constexpr int kDefaultItemsPerThread = sizeof(T) <= 4 ? 16 : 8;

/// Device memory that scan() needs besides its input and output: one value per thread block.
/// Without a Workspace each call allocates and frees its own; a Workspace keeps its memory from
/// one call to the next, which is what a benchmark or a loop of scans should use.
using Workspace = scanlab::Workspace; // reserve(bytes), capacity(): scanlab/workspace.h

/// Part 4. Scans d_in[0..n) into d_out[0..n) for any n >= 0 by REDUCE-THEN-SCAN with a fixed
/// number of thread blocks G (about as many as the GPU holds at once, at most one tile's worth):
///   1. block b reduces its own run of consecutive tiles to one total (it writes no element);
///   2. one block scans the G totals (exclusive): block b's result is everything before its run;
///   3. block b scans its tiles again, in order, starting from that result, and writes them.
/// It reads the input twice and writes the output once; nothing is scanned recursively.
/// d_out may equal d_in (in place). Throws std::invalid_argument if n < 0, or n > 0 and a
/// pointer is null; launches nothing for n == 0. Throws std::runtime_error (SCANLAB_CUDA_CHECK)
/// if a CUDA call fails. `workspace` may be null (see Workspace).
template <class Op, int BlockThreads = kDefaultBlockThreads,
          int ItemsPerThread = kDefaultItemsPerThread<typename Op::value_type>>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, Workspace* workspace = nullptr);

} // namespace lab05

/// The operators scan is compiled for with the small tile shape <Op, 64, 3> besides the default
/// one (warp_scan.cu's last lines): those the tests call it with. Expands X(Op) for each; X must
/// supply its own `;`. The sums among them only, with SCANLAB_INSTANTIATE_SUMS_ONLY
/// (scanlab/graded_operators.h).
#ifdef SCANLAB_INSTANTIATE_SUMS_ONLY
#define LAB05_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)
#else
#define LAB05_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Max<std::int32_t>)                                                                  \
    X(scanlab::Max<std::int64_t>)                                                                  \
    X(scanlab::Min<std::int32_t>)                                                                  \
    X(scanlab::Min<std::uint32_t>)                                                                 \
    X(scanlab::Min<std::int64_t>)                                                                  \
    X(scanlab::Product<std::int32_t>)                                                              \
    X(scanlab::Product<std::int64_t>)                                                              \
    X(scanlab::Product<double>)                                                                    \
    X(scanlab::Affine<std::int32_t>)                                                               \
    X(scanlab::Affine<std::int64_t>)
#endif
