// Lab 08 interface. DO NOT EDIT: the graded tests are compiled against these declarations.
#pragma once

#include <scanlab/scan_kind.h>
#include <scanlab/workspace.h>

#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace lab08 {

using scanlab::ScanKind;

inline constexpr int kWarpSize = 32;

/// How a thread block of the Hopper scan is organized: four roles, each in its own warps.
///   - the producer warp takes tiles (an atomic counter: tiles are numbered in the order blocks
///     ask for them) and copies each one with a bulk asynchronous copy into a ring of `Stages`
///     shared-memory stages;
///   - the reducer warp combines each tile as soon as it has landed and publishes its aggregate;
///   - `LookBackWarps` look-back warps find the combination of all tiles before each tile
///   (look-back
///     warp j takes the block's tiles j, j + LookBackWarps, ...: they look back side by side);
///   - `ScannerWarps` scanner warps scan the tile from that prefix and store it.
/// A tile is ScannerWarps * 32 lanes * VectorsPerLane 16-byte vectors. MinBlocksPerSm is the
/// kernel's __launch_bounds__ minimum: more resident blocks, fewer registers per thread.
/// PollPauseNs: a look-back warp's pause between two polls of a tile still X, in grids of 1000
/// tiles or more (in shorter ones every pause is only added latency).
template <int ScannerWarps, int Stages, int VectorsPerLane, int LookBackWarps = 1,
          int MinBlocksPerSm = 1, int PollPauseNs = 200>
struct PipelineShape {
    static constexpr int kScannerWarps = ScannerWarps;
    static constexpr int kStages = Stages;
    static constexpr int kVectorsPerLane = VectorsPerLane;
    static constexpr int kLookBackWarps = LookBackWarps;
    static constexpr int kMinBlocksPerSm = MinBlocksPerSm;
    static constexpr unsigned kPollPauseNs = PollPauseNs;
    static constexpr int kThreads = (2 + LookBackWarps + ScannerWarps) * kWarpSize;
    static constexpr int kTileBytes = ScannerWarps * kWarpSize * VectorsPerLane * 16;
    template <class T>
    static constexpr int kTileItems = kTileBytes / static_cast<int>(sizeof(T));
    // Static shared memory is at most 48 KiB: the stages plus a little bookkeeping.
    static constexpr bool kValid =
        ScannerWarps >= 1 && Stages >= 2 && VectorsPerLane >= 1 && VectorsPerLane <= 16 &&
        LookBackWarps >= 1 && LookBackWarps <= Stages && MinBlocksPerSm >= 1 && PollPauseNs >= 0 &&
        kThreads <= 1024 && Stages * kTileBytes <= 46 * 1024;
};

/// The two shapes scan() chooses from by the size of the values (measured on an H200: README.md,
/// "Why the shape depends on the values' size"). Both tiles are 8 KiB: 2048 4-byte values, 1024
/// 8-byte ones.
using FourByteShape = PipelineShape<2, 5, 8, 1, 4>;
using EightByteShape = PipelineShape<4, 5, 4, 1, 4>;
/// The shape used unless told otherwise: FourByteShape for 4-byte values, EightByteShape for
/// 8-byte ones (scan() picks it). Its tile is theirs.
struct DefaultShape {
    template <class T>
    using For = std::conditional_t<sizeof(T) == 4, FourByteShape, EightByteShape>;
    template <class T>
    static constexpr int kTileItems = For<T>::template kTileItems<T>;
};
/// A small tile (256 int32) that the tests use to have many tiles in few elements.
using SmallShape = PipelineShape<2, 3, 1, 2>;

/// Device memory that scan() needs besides input and output: one descriptor per tile and the
/// tile counter, in two halves (each call uses one and clears the other for the next call).
/// Without a Workspace each call allocates and frees its own.
class Workspace {
  public:
    /// Like scanlab::Workspace::reserve, and `kept` tells whether the last call laid out the
    /// memory the same way (`layout`, a nonzero key), so that the half it cleared is ready.
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
    scanlab::Workspace memory_;
    std::size_t layout_ = 0;
    int next_half_ = 0;
};

/// Scans d_in[0..n) into d_out[0..n) for any n >= 0 in one pass (n reads, n writes) with
/// decoupled look-back, on Hopper's bulk copies and mbarriers. d_out may equal d_in. Values of 4
/// or 8 bytes. Throws std::invalid_argument if n < 0, if n > 0 and a pointer is null, or if there
/// would be more than 2^31 - 1 tiles. For n == 0 it launches nothing. Throws std::runtime_error
/// (SCANLAB_CUDA_CHECK) if a CUDA call fails. Returns once the kernel is launched.
template <class Op, class Shape = DefaultShape>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, Workspace* workspace = nullptr);

} // namespace lab08

/// The operators scan is compiled for with SmallShape besides the default shape (hopper_scan.cu's
/// last lines): those the tests call it with. Expands X(Op) for each; X must supply its own `;`.
/// The sums among them only, with SCANLAB_INSTANTIATE_SUMS_ONLY (scanlab/graded_operators.h).
#ifdef SCANLAB_INSTANTIATE_SUMS_ONLY
#define LAB08_SMALL_SHAPE_OPERATORS(X)                                                             \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Sum<float>)                                                                         \
    X(scanlab::Sum<double>)
#else
#define LAB08_SMALL_SHAPE_OPERATORS(X)                                                             \
    X(scanlab::Sum<std::int32_t>)                                                                  \
    X(scanlab::Max<std::int32_t>)                                                                  \
    X(scanlab::Min<std::int32_t>)                                                                  \
    X(scanlab::Product<std::int32_t>)                                                              \
    X(scanlab::Affine<std::int32_t>)                                                               \
    X(scanlab::Max<std::uint32_t>)                                                                 \
    X(scanlab::Affine<std::uint32_t>)                                                              \
    X(scanlab::Sum<float>)                                                                         \
    X(scanlab::Sum<std::int64_t>)                                                                  \
    X(scanlab::Max<std::int64_t>)                                                                  \
    X(scanlab::Affine<std::int64_t>)                                                               \
    X(scanlab::Sum<double>)
#endif
