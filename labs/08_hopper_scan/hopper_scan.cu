// Lab 08: the Hopper scan. Lab 07's single pass with decoupled look-back, restructured around
// the hardware: a producer warp copies tiles with bulk asynchronous copies (cp.async.bulk) into a
// ring of shared-memory stages guarded by mbarriers; a reducer warp publishes each tile's
// aggregate as soon as it lands, a look-back warp finds the tile's prefix, scanner warps scan and
// store it; blocks are persistent and take tiles dynamically, and launches overlap (PDL).
//
// Read README.md first. Fill in the parts marked TODO(student), in order, and run the lab's
// tests. The GIVEN parts are lab 05's warp scan, lab 07's descriptors and look-back, the
// mbarrier ring's bookkeeping, the reducer warp (a complete consumer: read it first) and the host
// side.
#include "hopper_scan.h"

#include <scanlab/checker_hints.h>
#include <scanlab/cuda_check.h>
#include <scanlab/pdl.h>

#include <cuda/ptx>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace lab08 {

namespace ptx = cuda::ptx;

inline constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline int lane_id() {
    return static_cast<int>(threadIdx.x) % kWarpSize;
}
__device__ inline int warp_id() {
    return static_cast<int>(threadIdx.x) / kWarpSize;
}

// =============================================================================================
// GIVEN: warp scans (lab 05) and tile descriptors (lab 07)
// =============================================================================================

// Lab 05's warp scan, of K values per lane at once (K independent scans across the lanes): the
// shuffles of one step overlap instead of waiting for each other's.
template <class Op, int K>
__device__ void warp_inclusive_scans(typename Op::value_type (&x)[K]) {
    const int lane = lane_id();
    for (int offset = 1; offset < kWarpSize; offset *= 2)
        for (int k = 0; k < K; ++k) {
            const auto earlier = __shfl_up_sync(kFullMask, x[k], offset);
            if (lane >= offset) x[k] = Op::apply(earlier, x[k]);
        }
}

template <class Op>
__device__ typename Op::value_type exclusive_from_inclusive(typename Op::value_type inclusive) {
    const auto left = __shfl_up_sync(kFullMask, inclusive, 1);
    return lane_id() == 0 ? Op::identity() : left;
}

enum Status : unsigned { kInvalid = 0, kAggregate = 1, kPrefix = 2 };

// Lab 07's packed descriptors: flag and 4-byte value in one 64-bit word, written and read whole.
template <class T>
struct PackedDescriptors {
    static_assert(sizeof(T) == 4, "packed descriptors hold 4-byte values");
    unsigned long long* words;

    __device__ void publish(int tile, Status status, T value) const {
        unsigned bits;
        memcpy(&bits, &value, sizeof bits);
        const unsigned long long word = (static_cast<unsigned long long>(status) << 32) | bits;
        *reinterpret_cast<volatile unsigned long long*>(&words[tile]) = word;
    }
    __device__ Status read(int tile, T& value) const {
        const unsigned long long word =
            *reinterpret_cast<const volatile unsigned long long*>(&words[tile]);
        const unsigned bits = static_cast<unsigned>(word);
        memcpy(&value, &bits, sizeof bits);
        return static_cast<Status>(word >> 32);
    }
};

// Lab 07's tagged pairs for 8-byte values: two words, each with the status beside half the value.
template <class T>
struct TaggedPairDescriptors {
    static_assert(sizeof(T) == 8, "tagged pairs hold 8-byte values");
    unsigned long long* words;

    __device__ void publish(int tile, Status status, T value) const {
        unsigned long long bits;
        memcpy(&bits, &value, sizeof bits);
        const unsigned long long tag = static_cast<unsigned long long>(status) << 32;
        auto* pair = reinterpret_cast<volatile unsigned long long*>(&words[2 * tile]);
        pair[0] = tag | (bits & 0xffffffffull);
        pair[1] = tag | (bits >> 32);
    }
    __device__ Status read(int tile, T& value) const {
        const auto* pair = reinterpret_cast<const volatile unsigned long long*>(&words[2 * tile]);
        const unsigned long long low = pair[0];
        const unsigned long long high = pair[1];
        const auto status = static_cast<Status>(low >> 32);
        if (status != static_cast<Status>(high >> 32)) return kInvalid; // caught mid-publish
        const unsigned long long bits = (high << 32) | (low & 0xffffffffull);
        memcpy(&value, &bits, sizeof bits);
        return status;
    }
};

template <class T>
using Descriptors =
    std::conditional_t<sizeof(T) == 4, PackedDescriptors<T>, TaggedPairDescriptors<T>>;

// Lab 07's warp-parallel look-back: lane k watches tile (end - k). `pause_ns` between polls of a
// tile that is still X (0: no pause; a short grid only adds latency with pauses).
template <class Op, class DescriptorStore>
__device__ typename Op::value_type look_back(const DescriptorStore& descriptors, int tile,
                                             unsigned pause_ns) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    T prefix = Op::identity();
    for (int end = tile - 1;; end -= kWarpSize) {
        const int watched = end - lane;
        T value = Op::identity();
        Status status = kPrefix;
        if (watched >= 0) {
            while ((status = descriptors.read(watched, value)) == kInvalid)
                if (pause_ns != 0) __nanosleep(pause_ns);
        }
        const unsigned with_prefix = __ballot_sync(kFullMask, status == kPrefix);
        const int last =
            with_prefix != 0 ? __ffs(static_cast<int>(with_prefix)) - 1 : kWarpSize - 1;
        T x = lane <= last ? value : Op::identity();
        for (int offset = 1; offset < kWarpSize; offset *= 2) {
            const T earlier = __shfl_down_sync(kFullMask, x, offset);
            if (lane + offset < kWarpSize) x = Op::apply(earlier, x);
        }
        const T window = __shfl_sync(kFullMask, x, 0);
        prefix = Op::apply(window, prefix);
        if (with_prefix != 0) return prefix;
    }
}

// Lab 07's clearing of the next call's counter and descriptors (the other workspace half).
struct NextCallClear {
    uint4* words = nullptr;
    long long count = 0;

    __device__ void run() const {
        const long long threads = static_cast<long long>(gridDim.x) * blockDim.x;
        for (long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x; i < count;
             i += threads)
            words[i] = make_uint4(0, 0, 0, 0);
    }
};

using scanlab::launch_after_previous;
using scanlab::let_next_grid_start;
using scanlab::wait_for_previous_grid;

// =============================================================================================
// Part 1: mbarriers, the stages' guards
// =============================================================================================

// An mbarrier is a 64-bit word in shared memory that counts arrivals and, since Hopper, bytes
// of asynchronous copies ("transactions"). Its current phase completes when the expected number
// of threads has arrived AND every expected byte has landed; then the next phase begins. A
// waiter names the phase it waits for by its parity (0, 1, 0, 1, ...): try_wait.parity(p)
// returns true once the phase with parity p has completed.
__device__ inline void wait_for_phase(std::uint64_t* barrier, unsigned parity) {
    // try_wait suspends the thread for a while inside the instruction: no pause needed here.
    while (!ptx::mbarrier_try_wait_parity(barrier, parity)) {
    }
}

// The ring: slot `it` (0, 1, 2, ...) of every role is stage it % Stages in its
// (it / Stages)-th round, and each barrier of the stage completes one phase per round, so a
// role waits for parity (it / Stages) & 1. Every role walks the slots in the same order.
template <class Shape>
struct Slot {
    int it = 0;
    __device__ int stage() const { return it % Shape::kStages; }
    __device__ unsigned parity() const { return (it / Shape::kStages) & 1; }
    __device__ int round() const { return it / Shape::kStages; }
};

// What a stage holds besides its data: which tile (-1: no more tiles, every role stops).
inline constexpr int kNoMoreTiles = -1;

template <class T, class Shape>
struct SharedState {
    static constexpr int kTile = Shape::template kTileItems<T>;
    static constexpr int kStages = Shape::kStages;
    alignas(128) T stage[kStages][kTile]; // bulk copies need 16-byte aligned addresses
    // One phase per round of each stage, completed in this order:
    std::uint64_t full[kStages];     // the producer's copy has landed: the stage holds its tile
    std::uint64_t reduced[kStages];  // the reducer has published the tile's aggregate
    std::uint64_t prefixed[kStages]; // the look-back warp has the prefix of the tiles before
    std::uint64_t empty[kStages];    // every scanner has stored its part: the stage is free
    int stage_tile[kStages];
    T part_total[kStages][Shape::kScannerWarps]; // each scanner warp's part of the tile
    T aggregate[kStages];                        // the whole tile
    T before_tile[kStages];                      // every tile before it
};

// =============================================================================================
// Part 2: the producer warp
// =============================================================================================

// Takes a tile only when a stage is free for it: a tile's number is taken as late as possible,
// because the tiles after it wait in their look-back until it has published its aggregate.
template <class T, class Shape>
__device__ void produce(SharedState<T, Shape>& s, const T* in, long long n, int tiles,
                        unsigned* counter, T fill) {
    constexpr int kTile = SharedState<T, Shape>::kTile;
    const int lane = lane_id();
    int ended = 0; // end markers posted
    for (Slot<Shape> slot;; ++slot.it) {
        const int stage = slot.stage();
        // TODO(student) 1: a stage is refilled only after its scanners released the tile it held
        //   in the round before: from round 1 on, wait for the `empty` barrier's phase of the
        //   previous round (parity (slot.round() - 1) & 1) before taking a tile for it.

        int tile = kNoMoreTiles;
        if (ended == 0) {
            if (lane == 0) tile = static_cast<int>(atomicAdd(counter, 1u));
            tile = __shfl_sync(kFullMask, tile, 0);
            if (tile >= tiles) tile = kNoMoreTiles;
        }
        if (tile == kNoMoreTiles) {
            // One end marker for each look-back warp: each waits only for its own slots.
            if (lane == 0) s.stage_tile[stage] = kNoMoreTiles;
            ptx::mbarrier_arrive(&s.full[stage]); // every lane (see hopper_scan_kernel)
            if (++ended == Shape::kLookBackWarps) return;
            continue;
        }
        const long long start = static_cast<long long>(tile) * kTile;
        const int count = n - start < kTile ? static_cast<int>(n - start) : kTile;
        const T* source = in + start;
        if (count == kTile && reinterpret_cast<std::uintptr_t>(source) % 16 == 0) {
            // TODO(student) 2: the bulk copy of a whole tile, by one thread (lane 0): record the
            //   tile in s.stage_tile[stage]; arrive on s.full[stage] announcing the bytes its
            //   phase must wait for (ptx::mbarrier_arrive_expect_tx, sem_release, scope_cta,
            //   space_shared, kTile * sizeof(T) bytes); then start the copy of those bytes from
            //   `source` into s.stage[stage] (ptx::cp_async_bulk, shared from global), which
            //   completes the phase when its bytes have landed. The other 31 lanes arrive on
            //   s.full[stage] without bytes (ptx::mbarrier_arrive): it expects every lane.
            (void)source;
        } else {
            // The last, partial tile (or an input not 16-byte aligned): the warp copies it with
            // ordinary loads, the identity past its end, and every lane arrives after its own
            // stores (an arrive releases only what its own thread wrote). It is the block's last
            // tile (or every tile is copied so), so no bulk copy writes the stage after these
            // ordinary stores: no proxy fence is needed between them.
            for (int j = lane; j < kTile; j += kWarpSize)
                s.stage[stage][j] = j < count ? source[j] : fill;
            if (lane == 0) s.stage_tile[stage] = tile;
            ptx::mbarrier_arrive(&s.full[stage]);
        }
    }
}

// =============================================================================================
// Part 3: the reducer warp and the look-back warp
// =============================================================================================

template <class T>
inline constexpr int kPerVector = 16 / static_cast<int>(sizeof(T));

// Each scanner warp's part of the tile combined (lane l of the part has vectors k * 32 + l), in
// `totals` (every lane gets them). Lane l's vectors are not consecutive, so each 32-vector chunk
// is reduced across the lanes in lane order; all chunks of the tile at once, so that their
// shuffles overlap instead of waiting for each other.
template <class Op, class Shape>
__device__ void combine_parts(const uint4* vectors,
                              typename Op::value_type (&totals)[Shape::kScannerWarps]) {
    using T = typename Op::value_type;
    constexpr int kPer = kPerVector<T>;
    constexpr int kChunks = Shape::kScannerWarps * Shape::kVectorsPerLane;
    const int lane = lane_id();
    T x[kChunks];
    for (int k = 0; k < kChunks; ++k) {
        const uint4 v = vectors[k * kWarpSize + lane];
        T items[kPer];
        memcpy(items, &v, sizeof v);
        x[k] = items[0];
        for (int c = 1; c < kPer; ++c) x[k] = Op::apply(x[k], items[c]);
    }
    // Lower lanes first: after the step with `offset`, lane l holds lanes l .. l + 2 * offset - 1.
    for (int offset = 1; offset < kWarpSize; offset *= 2)
        for (int k = 0; k < kChunks; ++k) {
            const T later = __shfl_down_sync(kFullMask, x[k], offset);
            if (lane + offset < kWarpSize) x[k] = Op::apply(x[k], later);
        }
    for (int w = 0; w < Shape::kScannerWarps; ++w) {
        T total = Op::identity();
        for (int k = 0; k < Shape::kVectorsPerLane; ++k)
            total = Op::apply(total, __shfl_sync(kFullMask, x[w * Shape::kVectorsPerLane + k], 0));
        totals[w] = total;
    }
}

// The reducer: as soon as a tile has landed, its aggregate is published (A; P for tile 0), so
// that the tiles after it can look past it while this block still waits for its own prefix.
template <class Op, class Shape, class DescriptorStore>
__device__ void reduce_tiles(SharedState<typename Op::value_type, Shape>& s,
                             const DescriptorStore& descriptors) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    int ended = 0; // end markers passed on
    for (Slot<Shape> slot;; ++slot.it) {
        const int stage = slot.stage();
        wait_for_phase(&s.full[stage], slot.parity());
        const int tile = s.stage_tile[stage];
        if (tile != kNoMoreTiles) {
            T parts[Shape::kScannerWarps];
            combine_parts<Op, Shape>(reinterpret_cast<const uint4*>(s.stage[stage]), parts);
            T aggregate = Op::identity();
            for (int w = 0; w < Shape::kScannerWarps; ++w) {
                if (lane == 0) s.part_total[stage][w] = parts[w];
                aggregate = Op::apply(aggregate, parts[w]);
            }
            if (lane == 0) {
                descriptors.publish(tile, tile == 0 ? kPrefix : kAggregate, aggregate);
                s.aggregate[stage] = aggregate;
            }
        }
        // Every lane has read the stage (its tile number at least) before lane 0 passes it on:
        // the lanes of a warp do not run in lockstep, and the arrive releases only lane 0's reads.
        __syncwarp();
        if (lane == 0) ptx::mbarrier_arrive(&s.reduced[stage]);
        if (tile == kNoMoreTiles && ++ended == Shape::kLookBackWarps) return;
    }
}

// A look-back warp: its slots of the block's tiles (first_slot, first_slot + LookBackWarps, ...),
// each tile's prefix from the descriptors of the tiles before it; then the tile's inclusive
// prefix is published (P). The tiles of one block need not wait for each other: a tile's
// aggregate is published (A) by the reducer, so the next tile can look past it.
template <class Op, class Shape, class DescriptorStore>
__device__ void look_back_tiles(SharedState<typename Op::value_type, Shape>& s, int first_slot,
                                const DescriptorStore& descriptors, unsigned pause_ns) {
    // TODO(student) 3: the look-back warp's role. For its slots (Slot<Shape> slot{first_slot},
    //   then slot.it += Shape::kLookBackWarps):
    //   - wait for the stage's `reduced` phase of this round (slot.parity());
    //   - read the stage's tile; kNoMoreTiles: pass the stage on (below) and return;
    //   - otherwise the tiles before it: the identity for tile 0, else look_back<Op>() (GIVEN,
    //     lab 07's), and lane 0 publishes the tile's P = Op::apply(before, s.aggregate[stage]);
    //     lane 0 stores `before` in s.before_tile[stage];
    //   - __syncwarp() (every lane has read the stage), then lane 0 arrives on
    //     s.prefixed[stage]: the scanners may start.
    (void)s;
    (void)first_slot;
    (void)descriptors;
    (void)pause_ns;
}

// =============================================================================================
// Part 4: the scanner warps
// =============================================================================================

__device__ inline void store_once(uint4* p, uint4 v) {
#ifdef __CUDA_ARCH__
    __stcs(p, v); // evict-first: each element is written once
#else
    *p = v;
#endif
}

// Each scanner warp scans its part of the tile, starting from what comes before it (the tiles
// before, then the parts of the lower scanners), stores it and releases the stage.
template <class Op, class Shape>
__device__ void scan_tiles(SharedState<typename Op::value_type, Shape>& s, int warp,
                           typename Op::value_type* out, long long n, ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kTile = SharedState<T, Shape>::kTile;
    constexpr int kPer = kPerVector<T>;
    constexpr int kVectors = Shape::kVectorsPerLane;
    const int lane = lane_id();
    for (Slot<Shape> slot;; ++slot.it) {
        const int stage = slot.stage();
        // TODO(student) 4: wait until the stage holds this round's tile and its prefix: the
        //   `prefixed` barrier's phase of this round (slot.parity()). Only then read it.
        const int tile = s.stage_tile[stage];
        if (tile == kNoMoreTiles) return;

        T running = s.before_tile[stage];
        for (int w = 0; w < warp; ++w) running = Op::apply(running, s.part_total[stage][w]);
        const uint4* vectors =
            reinterpret_cast<const uint4*>(s.stage[stage]) + warp * kWarpSize * kVectors;
        uint4 held[kVectors];
        for (int k = 0; k < kVectors; ++k) held[k] = vectors[k * kWarpSize + lane];
        // TODO(student) 5: release the stage: every scanner thread has read what it needs of it
        //   now (its part is in registers), and each arrives on s.empty[stage] (its count is
        //   every scanner thread), so that the producer's next copy into the stage overlaps this
        //   warp's scan and stores.

        const long long start = static_cast<long long>(tile) * kTile;
        const int count = n - start < kTile ? static_cast<int>(n - start) : kTile;
        T* tile_out = out + start;
        const bool whole = count == kTile && reinterpret_cast<std::uintptr_t>(tile_out) % 16 == 0;
        // Chunk k is lane l's vector k * 32 + l: each vector scanned in place, then the lanes'
        // totals of every chunk scanned across the warp at once, then each chunk stored from what
        // comes before it.
        T items[kVectors][kPer];
        T inclusive[kVectors];
        for (int k = 0; k < kVectors; ++k) {
            memcpy(items[k], &held[k], sizeof held[k]);
            for (int c = 1; c < kPer; ++c) items[k][c] = Op::apply(items[k][c - 1], items[k][c]);
            inclusive[k] = items[k][kPer - 1];
        }
        warp_inclusive_scans<Op>(inclusive);
        for (int k = 0; k < kVectors; ++k) {
            const T first = Op::apply(running, exclusive_from_inclusive<Op>(inclusive[k]));
            running = Op::apply(running, __shfl_sync(kFullMask, inclusive[k], kWarpSize - 1));
            T result[kPer];
            for (int c = 0; c < kPer; ++c)
                result[c] = kind == ScanKind::inclusive ? Op::apply(first, items[k][c])
                            : c == 0                    ? first
                                                        : Op::apply(first, items[k][c - 1]);
            const int vector = warp * kWarpSize * kVectors + k * kWarpSize + lane;
            if (whole) {
                uint4 out_vector;
                memcpy(&out_vector, result, sizeof out_vector);
                store_once(reinterpret_cast<uint4*>(tile_out) + vector, out_vector);
            } else {
                for (int c = 0; c < kPer; ++c)
                    if (vector * kPer + c < count) tile_out[vector * kPer + c] = result[c];
            }
        }
    }
}

// =============================================================================================
// Part 5: the kernel
// =============================================================================================

// Warp roles: 0 the producer, 1 the reducer, then the look-back warps, then the scanners.
inline constexpr int kProducerWarp = 0;
inline constexpr int kReducerWarp = 1;
inline constexpr int kFirstLookBackWarp = 2;

template <class Op, class Shape, class DescriptorStore>
__global__ void __launch_bounds__(Shape::kThreads, Shape::kMinBlocksPerSm)
    hopper_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out, long long n,
                       int tiles, ScanKind kind, unsigned* counter, DescriptorStore descriptors,
                       NextCallClear next, unsigned pause_ns) {
    using T = typename Op::value_type;
    __shared__ SharedState<T, Shape> s;

    // Shared memory only: this may run while the previous kernel still does (PDL).
    if (threadIdx.x == 0) {
        for (int i = 0; i < Shape::kStages; ++i) {
            // Every producer lane arrives (and lane 0 announces the bytes): an arrive releases
            // only its own thread's stores, and the lanes of a partial tile each store a part.
            ptx::mbarrier_init(&s.full[i], kWarpSize);
            ptx::mbarrier_init(&s.reduced[i], 1);
            ptx::mbarrier_init(&s.prefixed[i], 1);
            ptx::mbarrier_init(&s.empty[i], Shape::kScannerWarps * kWarpSize);
        }
        // The initialized barriers are visible to the copy engine (the asynchronous proxy).
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    wait_for_previous_grid();
    let_next_grid_start();

    const int warp = warp_id();
    if (warp == kProducerWarp)
        produce<T, Shape>(s, in, n, tiles, counter, Op::identity());
    else if (warp == kReducerWarp)
        reduce_tiles<Op, Shape>(s, descriptors);
    else if (warp < kFirstLookBackWarp + Shape::kLookBackWarps)
        look_back_tiles<Op, Shape>(s, warp - kFirstLookBackWarp, descriptors, pause_ns);
    else
        scan_tiles<Op, Shape>(s, warp - kFirstLookBackWarp - Shape::kLookBackWarps, out, n, kind);
    next.run();
}

// =============================================================================================
// Host side
// =============================================================================================

inline std::size_t align_up(std::size_t bytes) {
    return (bytes + 255) / 256 * 256;
}

// Lab 07's workspace: the tile counter, then the descriptors (4-byte values: one 64-bit word per
// tile; 8-byte values: two), in two halves with a Workspace.
template <class V, class Launch>
void with_descriptors(int tiles, Workspace* workspace, Launch launch) {
    const std::size_t counter_bytes = align_up(sizeof(unsigned));
    const std::size_t t = static_cast<std::size_t>(tiles);
    const std::size_t half =
        counter_bytes + align_up(t * sizeof(V) / 4 * sizeof(unsigned long long));
    unsigned char* base = nullptr;
    NextCallClear next;
    scanlab::Workspace local;
    if (workspace == nullptr) {
        base = static_cast<unsigned char*>(local.reserve(half));
        SCANLAB_CUDA_CHECK(cudaMemsetAsync(base, 0, half));
    } else {
        bool kept = false;
        auto* both = static_cast<unsigned char*>(workspace->reserve_kept(2 * half, half, kept));
        if (!kept) SCANLAB_CUDA_CHECK(cudaMemsetAsync(both, 0, 2 * half));
        const int mine = workspace->take_half(kept);
        base = both + mine * half;
        // The emulator's checks would take the zeros the last launch left for a stale flag.
        if (kept) scanlab::hint_reset_by_earlier_launch(base, half);
        next.words = reinterpret_cast<uint4*>(both + (1 - mine) * half);
        next.count = static_cast<long long>(half / sizeof(uint4));
    }
    auto* counter = reinterpret_cast<unsigned*>(base);
    auto* words = reinterpret_cast<unsigned long long*>(base + counter_bytes);
    // For the emulator's checks (a no-op on a GPU): every descriptor word carries its own status
    // (a look-back lane publishes several tiles in a row, and no word announces another).
    scanlab::hint_self_tagged_words(words, t * sizeof(V) / 4 * sizeof(*words));
    launch(counter, Descriptors<V>{words}, next);
}

// Persistent blocks: as many as fit on the GPU at once, no more than there are tiles.
template <class Kernel>
int resident_blocks(Kernel kernel, int threads) {
    int device = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    int sms = 0;
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    int per_sm = 0;
    SCANLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kernel, threads, 0));
    return std::max(1, sms * per_sm);
}

// Pauses between polls pay off only when many tiles compete for the L2 (lab 07's README).
inline constexpr int kPauseFromTiles = 1000;

// The shape a call runs with: DefaultShape stands for the one picked by the values' size (8-byte
// values have half as many per 16-byte vector: README.md, "Why the shape depends on the values'
// size").
template <class Shape, class T>
using ChosenShape =
    std::conditional_t<std::is_same_v<Shape, DefaultShape>, DefaultShape::For<T>, Shape>;

template <class Op, class RequestedShape>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, Workspace* workspace) {
    using T = typename Op::value_type;
    using Shape = ChosenShape<RequestedShape, T>;
    static_assert(Shape::kValid, "see PipelineShape::kValid");
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "lab 08 scans 4- and 8-byte values");
    if (n < 0) throw std::invalid_argument("lab08::scan: n must be >= 0, got " + std::to_string(n));
    if (n == 0) return;
    if (d_in == nullptr) throw std::invalid_argument("lab08::scan: d_in is null");
    if (d_out == nullptr) throw std::invalid_argument("lab08::scan: d_out is null");
    constexpr int kTile = Shape::template kTileItems<T>;
    const long long tiles = (n + kTile - 1) / kTile;
    if (tiles > INT_MAX)
        throw std::invalid_argument("lab08::scan: n = " + std::to_string(n) + " needs " +
                                    std::to_string(tiles) + " tiles, more than 2^31 - 1");
    with_descriptors<T>(
        static_cast<int>(tiles), workspace,
        [&](unsigned* counter, auto descriptors, NextCallClear next) {
            auto kernel = hopper_scan_kernel<Op, Shape, decltype(descriptors)>;
            static const int resident = resident_blocks(kernel, Shape::kThreads);
            const long long blocks = std::min<long long>(tiles, resident);
            const unsigned pause = tiles >= kPauseFromTiles ? Shape::kPollPauseNs : 0u;
            launch_after_previous(kernel, static_cast<unsigned>(blocks), Shape::kThreads, d_in,
                                  d_out, n, static_cast<int>(tiles), kind, counter, descriptors,
                                  next, pause);
        });
}

} // namespace lab08

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call these functions with these operators, types and
// shapes; since the templates are defined in this .cu file, each one is instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB08_INSTANTIATE(Op)                                                                      \
    template void lab08::scan<Op>(const Op::value_type*, Op::value_type*, std::int64_t,            \
                                  lab08::ScanKind, lab08::Workspace*);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB08_INSTANTIATE)

// The small shape, for the operators the tests call it with.
#define LAB08_INSTANTIATE_SMALL_SHAPE(Op)                                                          \
    template void lab08::scan<Op, lab08::SmallShape>(                                              \
        const Op::value_type*, Op::value_type*, std::int64_t, lab08::ScanKind, lab08::Workspace*);
LAB08_SMALL_SHAPE_OPERATORS(LAB08_INSTANTIATE_SMALL_SHAPE)
