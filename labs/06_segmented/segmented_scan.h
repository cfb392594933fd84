// Lab 06 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>
#include <scanlab/workspace.h>

#include <cuda_runtime.h> // __host__ / __device__ on both backends

#include <cstddef>
#include <cstdint>

namespace lab06 {

using scanlab::ScanKind;

inline constexpr int kWarpSize = 32;

/// An element with its head flag, the values the transformed operator works on.
template <class T>
struct FlagValue {
    int flag; ///< nonzero: this element (or, for a combination of elements, one of them) is a head
    T value;
};

/// The operator transformation of Schwartz (1980), as in the 2011 chapter by Sengupta, Harris,
/// Garland and Owens: a scan with Segmented<Op> over (flag, value) pairs is a segmented scan with
/// Op over the values:
///     apply(a, b) = (a.flag | b.flag,  b.flag ? b.value : Op::apply(a.value, b.value))
///     identity()  = (0, Op::identity())
/// It is associative whenever Op is, and never commutative. Defined in segmented_scan.cu (part 1
/// of the lab); the .cu file instantiates it for every operator the tests use.
template <class Op>
struct Segmented {
    using value_type = FlagValue<typename Op::value_type>;
    static constexpr const char* name = "segmented";
    static constexpr bool is_commutative = false;

    __host__ __device__ static value_type identity();
    __host__ __device__ static value_type apply(value_type a, value_type b);
};

/// The two ways of part 2 to keep a scan inside segments.
enum class SegmentedMethod {
    operator_transform, ///< scan (flag, value) pairs with Segmented<Op>
    conditional_index,  ///< scan values, combining only lanes at or after the segment's head
                        ///< ("mindex"), and carry prefixes only into the first segment
};

/// Segments are given by head flags: flags[i] != 0 means element i starts a new segment. Element
/// 0 always starts one, whatever flags[0] says. Within each segment:
///     inclusive: out[i] = in[h] op in[h + 1] op ... op in[i]      (h: the head of i's segment)
///     exclusive: out[i] = identity op in[h] op ... op in[i - 1]   (identity at every head)
///
/// Part 2. Every group of 32 consecutive elements is scanned on its own, one warp per group (the
/// first element of a group starts a segment). All pointers are device pointers. Throws
/// std::invalid_argument if n < 0, or n > 0 and a pointer is null. For n == 0 it launches
/// nothing. Returns once the kernel is launched.
template <class Op>
void segmented_warp_scan_groups(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                                typename Op::value_type* d_out, int n, ScanKind kind,
                                SegmentedMethod method);

/// A tile: BlockThreads threads (a multiple of 32, at most 1024), ItemsPerThread consecutive
/// elements each (1 to 32: a thread keeps its items' flags as the bits of one register).
template <int BlockThreads, int ItemsPerThread>
inline constexpr bool kValidTileShape =
    BlockThreads >= kWarpSize&& BlockThreads <= 1024 && BlockThreads % kWarpSize == 0 &&
    ItemsPerThread >= 1 && ItemsPerThread <= 32;

/// Part 3. Every tile of BlockThreads * ItemsPerThread consecutive elements is scanned on its own
/// (its first element starts a segment), one block per tile. Same contract as part 2.
template <class Op, int BlockThreads, int ItemsPerThread>
void segmented_block_scan_tiles(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                                typename Op::value_type* d_out, int n, ScanKind kind,
                                SegmentedMethod method);

inline constexpr int kDefaultBlockThreads = 256;
template <class T>
inline constexpr int kDefaultItemsPerThread = sizeof(T) <= 4 ? 16 : 8;

/// Device memory that segmented_scan() needs besides input and output: a total and a flag per
/// thread block. Without a Workspace each call allocates and frees its own; a Workspace keeps its
/// memory for the next call (what a benchmark or a loop of scans should use).
using Workspace = scanlab::Workspace; // reserve(bytes), capacity(): scanlab/workspace.h

/// Part 4. The segmented scan of d_in[0..n) into d_out[0..n) for any n >= 0, by reduce-then-scan
/// as in lab 05: each block reduces its run of tiles to a (flag, total) pair, one block scans the
/// pairs, each block rescans its run starting from what comes into it. Segments may cross tiles
/// and blocks. d_out may equal d_in. Throws std::invalid_argument if n < 0, or n > 0 and a pointer
/// is null; launches nothing for n == 0. Throws std::runtime_error (SCANLAB_CUDA_CHECK) if a CUDA
/// call fails. `workspace` may be null.
template <class Op, int BlockThreads = kDefaultBlockThreads,
          int ItemsPerThread = kDefaultItemsPerThread<typename Op::value_type>>
void segmented_scan(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                    typename Op::value_type* d_out, std::int64_t n, ScanKind kind,
                    SegmentedMethod method, Workspace* workspace = nullptr);

} // namespace lab06

/// The operators segmented_scan is compiled for with the small tile shape <Op, 64, 3> besides the
/// default one (segmented_scan.cu's last lines): those the tests call it with. Expands X(Op) for
/// each; X must supply its own `;`. The sums among them only, with SCANLAB_INSTANTIATE_SUMS_ONLY
/// (scanlab/graded_operators.h).
#ifdef SCANLAB_INSTANTIATE_SUMS_ONLY
#define LAB06_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<double>)
#else
#define LAB06_SMALL_TILE_OPERATORS(X)                                                              \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Max<std::int32_t>)                                                                  \
    X(scanlab::Min<std::int32_t>)                                                                  \
    X(scanlab::Product<std::int32_t>)                                                              \
    X(scanlab::Affine<std::int32_t>)                                                               \
    X(scanlab::Max<std::uint32_t>)                                                                 \
    X(scanlab::Affine<std::uint32_t>)                                                              \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Affine<std::int64_t>)                                                               \
    X(scanlab::Sum<double>)
#endif
