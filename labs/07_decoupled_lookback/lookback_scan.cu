// Lab 07: single-pass scan with decoupled look-back (Merrill and Garland, 2016), and stream
// compaction built on it.
//
// Read README.md first. Fill in the parts marked TODO(student), in order, and run the lab's
// tests. The GIVEN parts are lab 05's building blocks and the host side.
#include "lookback_scan.h"

#include <scanlab/checker_hints.h>
#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>
#include <scanlab/pdl.h>
#include <scanlab/tile_status_hint.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lab07 {

inline constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline int lane_id() {
    return static_cast<int>(threadIdx.x) % kWarpSize;
}
__device__ inline int warp_id() {
    return static_cast<int>(threadIdx.x) / kWarpSize;
}

// =============================================================================================
// GIVEN: the building blocks of lab 05 (warp scan, tiles and their transposes)
// =============================================================================================

template <class Op>
__device__ typename Op::value_type warp_inclusive_scan(typename Op::value_type x) {
    const int lane = lane_id();
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
        const auto earlier = __shfl_up_sync(kFullMask, x, offset);
        if (lane >= offset) x = Op::apply(earlier, x);
    }
    return x;
}

template <class Op>
__device__ typename Op::value_type exclusive_from_inclusive(typename Op::value_type inclusive) {
    const auto left = __shfl_up_sync(kFullMask, inclusive, 1);
    return lane_id() == 0 ? Op::identity() : left;
}

// One unused element after every 128 bytes: the striped and the blocked accesses of the
// transposes below hit 32 different banks (lab 03).
template <class T>
__host__ __device__ constexpr int padded(int j) {
    return j + j / (128 / static_cast<int>(sizeof(T)));
}

template <class T, int BlockThreads, int Items>
__host__ __device__ constexpr int exchange_slots() {
    return padded<T>(BlockThreads * Items - 1) + 1;
}

// Global memory is read and written in 16-byte vectors (uint4) where possible: one warp-wide
// load then moves 512 bytes instead of 128, so a quarter of the instructions keep the same bytes
// in flight. Lane l takes vector k * 32 + l of its warp's part in step k: the warp still reads
// consecutive addresses. A vector holds kPerVector elements (4 ints); a 128-byte row of the
// padded buffer holds whole vectors, so a vector's elements stay consecutive there too.
template <class T>
inline constexpr int kPerVector = 16 % sizeof(T) == 0 ? 16 / static_cast<int>(sizeof(T)) : 0;
template <class T, int Items>
inline constexpr bool kVectorShape = kPerVector<T> > 0 && Items % kPerVector<T> == 0;

// Vectors only for a warp's whole part of the tile (not in the last, partial tile) that starts
// on a 16-byte boundary (arrays from cudaMalloc do; d_in + 1 does not).
template <class T, int Items>
__device__ bool whole_aligned_part(const T* part, int count) {
    return count >= kWarpSize * Items && reinterpret_cast<std::uintptr_t>(part) % 16 == 0;
}

// Each element is read once and written once: __ldcs/__stcs ("cache streaming") mark its cache
// lines evict-first, so that they do not push out what is used again (the tile descriptors). The
// CPU emulator has no caches: plain accesses there.
__device__ inline uint4 load_once(const uint4* p) {
#ifdef __CUDA_ARCH__
    return __ldcs(p);
#else
    return *p;
#endif
}
__device__ inline void store_once(uint4* p, uint4 v) {
#ifdef __CUDA_ARCH__
    __stcs(p, v);
#else
    *p = v;
#endif
}

// Copies tile elements [0, count) into `exchange` (padded, in tile order), reading them
// warp-striped (coalesced): each warp moves its own part of the tile, so __syncwarp() is enough.
// Positions past count get `fill`.
template <class T, int Items>
__device__ void load_to_shared(const T* tile, int count, T* exchange, T fill) {
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items; // this warp's part of the tile
    if constexpr (kVectorShape<T, Items>) {
        if (whole_aligned_part<T, Items>(tile + base, count - base)) {
            constexpr int kPer = kPerVector<T>;
            const uint4* vectors = reinterpret_cast<const uint4*>(tile + base);
            uint4 loaded[Items / kPer];
            // All loads first, so that they are in flight together.
            for (int k = 0; k < Items / kPer; ++k)
                loaded[k] = load_once(&vectors[k * kWarpSize + lane]);
            for (int k = 0; k < Items / kPer; ++k) {
                T parts[kPer];
                memcpy(parts, &loaded[k], sizeof parts);
                const int first = padded<T>(base + (k * kWarpSize + lane) * kPer);
                for (int c = 0; c < kPer; ++c) exchange[first + c] = parts[c];
            }
            __syncwarp();
            return;
        }
    }
    T loaded[Items]; // one element at a time
    for (int k = 0; k < Items; ++k) {
        const int j = base + k * kWarpSize + lane;
        loaded[k] = j < count ? tile[j] : fill;
    }
    for (int k = 0; k < Items; ++k) exchange[padded<T>(base + k * kWarpSize + lane)] = loaded[k];
    __syncwarp();
}

// Copies `exchange` (padded, in tile order) to tile elements [0, count), writing warp-striped.
template <class T, int Items>
__device__ void store_from_shared(T* tile, int count, const T* exchange) {
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items;
    __syncwarp(); // every lane of the warp has written its items to the buffer
    if constexpr (kVectorShape<T, Items>) {
        if (whole_aligned_part<T, Items>(tile + base, count - base)) {
            constexpr int kPer = kPerVector<T>;
            uint4* vectors = reinterpret_cast<uint4*>(tile + base);
            for (int k = 0; k < Items / kPer; ++k) {
                T parts[kPer];
                const int first = padded<T>(base + (k * kWarpSize + lane) * kPer);
                for (int c = 0; c < kPer; ++c) parts[c] = exchange[first + c];
                uint4 vector;
                memcpy(&vector, parts, sizeof vector);
                store_once(&vectors[k * kWarpSize + lane], vector);
            }
            return;
        }
    }
    for (int k = 0; k < Items; ++k) {
        const int j = base + k * kWarpSize + lane;
        if (j < count) tile[j] = exchange[padded<T>(j)];
    }
}

// Thread t owns tile elements t*Items .. t*Items + Items - 1 ("blocked"); this is where its k-th
// one is in the buffer. Reading the warp-striped buffer this way is lab 05's transpose.
template <class T, int Items>
__device__ int own_slot(int k) {
    return padded<T>(static_cast<int>(threadIdx.x) * Items + k);
}

// The combination of the thread's own items, read from the buffer.
template <class Op, int Items>
__device__ typename Op::value_type reduce_own_items(const typename Op::value_type* exchange) {
    using T = typename Op::value_type;
    T total = exchange[own_slot<T, Items>(0)];
    for (int k = 1; k < Items; ++k) total = Op::apply(total, exchange[own_slot<T, Items>(k)]);
    return total;
}

// Scans the thread's own items in the buffer, in place, starting from `seed`.
template <class Op, int Items>
__device__ void scan_own_items(typename Op::value_type* exchange, typename Op::value_type seed,
                               ScanKind kind) {
    using T = typename Op::value_type;
    T running = seed;
    for (int k = 0; k < Items; ++k) {
        T& item = exchange[own_slot<T, Items>(k)];
        const T x = item;
        if (kind == ScanKind::exclusive) item = running;
        running = Op::apply(running, x);
        if (kind == ScanKind::inclusive) item = running;
    }
}

// The thread's own items in registers (the compaction needs them there).
template <class T, int Items>
__device__ void load_tile(const T* tile, int count, T (&items)[Items], T* exchange, T fill) {
    load_to_shared<T, Items>(tile, count, exchange, fill);
    for (int k = 0; k < Items; ++k) items[k] = exchange[own_slot<T, Items>(k)];
}

__device__ inline int elements_in_tile(long long n, long long start, int tile) {
    return n - start < tile ? static_cast<int>(n - start) : tile;
}

// The tile counter and descriptors that the NEXT call with the same Workspace will use (the other
// half of it: with_descriptors below). Each launch zeroes them, every thread a few 16-byte words,
// so that the next call needs no cudaMemset of its own: one launch per scan. The next call's
// kernel may start before this one has finished (PDL, below), but it touches no memory before
// its wait_for_previous_grid(), which returns only after this launch has finished: nobody reads
// them meanwhile.
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

// Programmatic dependent launch (PDL, Hopper and later; README, "Launch latency and PDL"): the
// host launches each scan with launch_after_previous, so the GPU may start this grid's blocks
// while the previous kernel in the stream is still finishing (scanlab/pdl.h, shared with labs 05
// and 06). In the kernel:
//   wait_for_previous_grid(): returns once the previous kernel has COMPLETED and its writes are
//     visible. Nothing the previous kernel writes or reads may be touched before it: our input
//     may be its output, and our tile counter and descriptors are the half of the Workspace that
//     it cleared on its way out.
//   let_next_grid_start(): lets the next kernel be launched early. It orders no memory at all.
using scanlab::launch_after_previous;
using scanlab::let_next_grid_start;
using scanlab::wait_for_previous_grid;

// =============================================================================================
// Part 1: tile descriptors
// =============================================================================================

// The status of a tile, as other blocks see it. X must be 0: a memset clears all descriptors.
enum Status : unsigned {
    kInvalid = 0,   // X: nothing known yet
    kAggregate = 1, // A: the combination of this tile's own elements is available
    kPrefix = 2,    // P: the combination of this tile and all tiles before it is available
};

// Packed: flag and value share one 64-bit word (flag in the high half, the value's 32 bits in
// the low half), written with one 64-bit store and read with one 64-bit load. A reader sees the
// whole old word or the whole new one, never a new flag with an old value: no fence needed.
template <class T>
struct PackedDescriptors {
    static_assert(sizeof(T) == 4, "packed descriptors hold 4-byte values");
    unsigned long long* words; // one per tile

    __device__ void publish(int tile, Status status, T value) const {
        // TODO(student): build the word (status << 32) | (the 32 bits of value; memcpy them into
        //   an unsigned) and store it to words[tile] with ONE store through a
        //   `volatile unsigned long long*`.
        (void)tile;
        (void)status;
        (void)value;
    }
    __device__ Status read(int tile, T& value) const {
        // TODO(student): ONE load of words[tile] through a `const volatile unsigned long long*`;
        //   the low 32 bits are the value (memcpy them into `value`), the high 32 the status.
        (void)tile;
        (void)value;
        return kInvalid;
    }
};

// Tagged pair (given, complete: read it after PackedDescriptors): for 8-byte values, which do not
// fit beside a flag in one 64-bit word. Each tile has two 64-bit words, and EACH carries the status
// in its high half: the first word holds the value's low 32 bits, the second its high 32 bits.
// Every word is written and read whole, so a reader sees in each word a status with the half of the
// value that was published with it. A value is published once per status (A, then P), so two halves
// that carry the same status are the two halves of one value: the reader accepts the pair only
// then, and otherwise treats the tile as X and polls again (it caught the writer between its two
// stores). No fence needed.
template <class T>
struct TaggedPairDescriptors {
    static_assert(sizeof(T) == 8, "tagged pairs hold 8-byte values");
    unsigned long long* words; // two per tile

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

// Separate: a flag array and two value arrays. Three memory operations per update, in an order
// that the hardware and compiler must keep: the value, a fence, then the flag. The reader does
// the mirror image: the flag, a fence, then the value.
template <class T>
struct SeparateDescriptors {
    unsigned* flags;
    T* aggregates; // written with A
    T* inclusive;  // written with P

    __device__ void publish(int tile, Status status, T value) const {
        // TODO(student): store value to inclusive[tile] (status P) or aggregates[tile] (A)
        //   through a volatile pointer; __threadfence(); store status to flags[tile] through a
        //   volatile pointer.
        (void)tile;
        (void)status;
        (void)value;
    }
    __device__ Status read(int tile, T& value) const {
        // TODO(student): load flags[tile] through a volatile pointer. If it is not X:
        //   __threadfence(), then load the value the flag announces (inclusive[tile] for P,
        //   aggregates[tile] for A) through a volatile pointer. Return the status.
        (void)tile;
        (void)value;
        return kInvalid;
    }
};

// =============================================================================================
// Part 2: warp-parallel look-back
// =============================================================================================

// Called by all 32 lanes of ONE warp of the block that scans tile `tile` (> 0), after the tile's
// own descriptor is published. Returns, in every lane, the combination of all tiles before it.
//
// The warp inspects a window of 32 predecessors at once: lane k watches tile (end - k), so lane 0
// has the nearest one and lane 31 the farthest. The lanes poll until no tile of the window is X.
// If some tile of the window has P, the window's answer is the values from lane 0 up to the
// nearest P (its inclusive prefix covers everything before it); otherwise it is all 32
// aggregates, and the window moves 32 tiles further back.
// Chosen on an H200, checked on an H100 (README, "Speed on a GPU"): the pauses between polls of
// an X tile and before the first look at all (below). About what CUB uses on these GPUs.
inline constexpr unsigned kPollPauseNs = 650;
inline constexpr unsigned kFirstLookPauseNs = 1200;
// The pauses pay off only in a large grid, where waiting warps would take L2 bandwidth from
// blocks still loading their tiles. A grid of fewer blocks than this is short: every pause there
// is added latency. (CUB pauses from 500 blocks, with larger tiles for 8-byte types: int64 at
// n = 2^20 is 390 of its tiles and 512 of ours, all resident at once; README, "Speed on a GPU".)
inline constexpr unsigned kPauseFromBlocks = 1000;

__device__ inline void pause_between_polls() {
    if (gridDim.x >= kPauseFromBlocks) __nanosleep(kPollPauseNs);
}
__device__ inline void pause_before_first_look() {
    if (gridDim.x >= kPauseFromBlocks) __nanosleep(kFirstLookPauseNs);
}

template <class Op, class DescriptorStore>
__device__ typename Op::value_type look_back(const DescriptorStore& descriptors, int tile) {
    // TODO(student): prefix = identity. For windows ending at end = tile - 1, tile - 33, ...:
    //   1. Lane k watches tile end - k. If that is >= 0, it polls descriptors.read() until the
    //      status is not X, with pause_between_polls() between polls. A lane whose tile is
    //      < 0 acts as if it saw P with the identity.
    //   2. with_prefix = __ballot_sync(kFullMask, status == P). The nearest P is the lowest set
    //      lane (__ffs(with_prefix) - 1); without one, all 32 lanes count.
    //   3. Lanes up to that one keep their value, the others take the identity. Reduce across
    //      the warp with __shfl_down_sync: the value from the HIGHER lane is an EARLIER tile and
    //      goes on the left of Op::apply. Lane 0 ends up with the window's combination;
    //      broadcast it with __shfl_sync.
    //   4. prefix = Op::apply(window, prefix). Return it if the window had a P; otherwise move
    //      the window 32 tiles back.
    (void)descriptors;
    (void)tile;
    return Op::identity();
}

// =============================================================================================
// Part 3: the single-pass scan kernel
// =============================================================================================

// Where a block's tile number comes from. Thread 0 asks, everyone reads it after a barrier.
__device__ inline int take_tile_id(TileIds source, unsigned* counter, int* shared_id) {
    // TODO(student): thread 0 stores to *shared_id either atomicAdd(counter, 1u) (atomic_counter:
    //   the order in which blocks start) or blockIdx.x (block_index); __syncthreads(); every
    //   thread returns *shared_id. For now every block takes its blockIdx.x.
    (void)source;
    (void)counter;
    (void)shared_id;
    return static_cast<int>(blockIdx.x);
}

// Scans one value per thread across the block (in thread order) and, in warp 0, finds the
// combination of everything before the tile with the look-back. Returns, in every thread, the
// combination of all elements before its first one: earlier tiles, then lower threads.
// The tile's inclusive prefix is published for the tiles after it.
template <class Op, int BlockThreads, class DescriptorStore>
__device__ typename Op::value_type tile_exclusive_prefix(typename Op::value_type thread_total,
                                                         const DescriptorStore& descriptors,
                                                         int tile) {
    using T = typename Op::value_type;
    constexpr int kWarps = BlockThreads / kWarpSize;
    __shared__ T warp_prefix[kWarps];
    const int lane = lane_id();
    const int warp = warp_id();

    // The block scan of lab 05: warp scans, warp totals in shared memory, one warp scans them.
    const T inclusive = warp_inclusive_scan<Op>(thread_total);
    if (lane == kWarpSize - 1) warp_prefix[warp] = inclusive;
    const T in_warp = exclusive_from_inclusive<Op>(inclusive);
    __syncthreads();

    if (warp == 0) {
        const T warp_total = lane < kWarps ? warp_prefix[lane] : Op::identity();
        const T scanned = warp_inclusive_scan<Op>(warp_total);
        const T before_warp = exclusive_from_inclusive<Op>(scanned);
        const T aggregate = __shfl_sync(kFullMask, scanned, kWarpSize - 1);

        // TODO(student): the decoupled look-back, in this warp (every lane takes part):
        //   - tile 0: lane 0 publishes P with the aggregate; nothing comes before it.
        //   - other tiles: lane 0 publishes A with the aggregate FIRST; then
        //     pause_before_first_look(); then before_tile = look_back<Op>(descriptors, tile)
        //     (all lanes); then lane 0 publishes P with Op::apply(before_tile, aggregate).
        T before_tile = Op::identity();
        (void)aggregate;
        (void)descriptors;
        (void)tile;
        if (lane < kWarps) warp_prefix[lane] = Op::apply(before_tile, before_warp);
    }
    __syncthreads();
    return Op::apply(warp_prefix[warp], in_warp);
}

// While some blocks wait in their look-back, the others on the SM must keep the memory busy: the
// more tiles resident per SM, the more bytes in flight. The scan keeps its tile in shared memory,
// not in registers (a thread holds only its loads in flight), so it can ask for at least 1280
// threads per SM: at most 51 registers each (65536 / 1280), 10 tiles of 128 x 32 per SM (8 and
// 12 measured slower on an H200, 8 on an H100 too: README, "Speed on a GPU"). The compaction needs
// its items in registers: at least 1024 threads, at most 64 registers.
template <int BlockThreads>
inline constexpr int kMinBlocksPerSm = std::min(32, 1280 / BlockThreads); // 32: the most per SM
template <int BlockThreads>
inline constexpr int kMinBlocksPerSmRegisters = BlockThreads <= 1024 ? 1024 / BlockThreads : 1;

template <class Op, int BlockThreads, int Items, class DescriptorStore>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    lookback_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                         long long n, ScanKind kind, TileIds tile_ids, unsigned* counter,
                         DescriptorStore descriptors, NextCallClear next) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ T exchange[exchange_slots<T, BlockThreads, Items>()];
    __shared__ int tile_id;

    // First wait for the previous kernel (PDL, above): before it, not one access to memory.
    wait_for_previous_grid();
    let_next_grid_start();
    const int tile = take_tile_id(tile_ids, counter, &tile_id);
    const long long start = static_cast<long long>(tile) * kTile;
    const int count = elements_in_tile(n, start, kTile);

    // The tile stays in shared memory from load to store: each thread reads its own items there
    // when it needs them, so no register array holds them while the block waits in look-back.
    load_to_shared<T, Items>(in + start, count, exchange, Op::identity());
    const T before = tile_exclusive_prefix<Op, BlockThreads>(reduce_own_items<Op, Items>(exchange),
                                                             descriptors, tile);
    scan_own_items<Op, Items>(exchange, before, kind);
    store_from_shared<T, Items>(out + start, count, exchange);
    next.run();
}

// =============================================================================================
// Part 4 (extension): stream compaction
// =============================================================================================

// The same single pass, scanning "is this element kept?" (0 or 1) with Sum<int>: the exclusive
// prefix of an element is where it goes in the output. The kept elements of a tile are first
// gathered in shared memory, in order, and then written out together: consecutive threads write
// consecutive addresses (coalesced), instead of scattered single stores.
template <class T, int BlockThreads, int Items, class DescriptorStore>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSmRegisters<BlockThreads>)
    select_kernel(const T* in, T* out, int* count_out, int n, T threshold, TileIds tile_ids,
                  unsigned* counter, DescriptorStore descriptors, NextCallClear next) {
    constexpr int kTile = BlockThreads * Items;
    __shared__ T exchange[exchange_slots<T, BlockThreads, Items>()];
    __shared__ int tile_id;
    __shared__ int tile_first_slot;
    __shared__ int kept_in_tile;

    wait_for_previous_grid(); // PDL, as in lookback_scan_kernel
    let_next_grid_start();
    const int tile = take_tile_id(tile_ids, counter, &tile_id);
    const int tiles = (n + kTile - 1) / kTile;
    const int start = tile * kTile;
    const int count = elements_in_tile(n, start, kTile);

    T items[Items];
    load_tile(in + start, count, items, exchange, threshold); // padding is never kept
    // TODO(student) (extension):
    //   1. keep = how many of this thread's items are > threshold.
    //   2. first_slot = tile_exclusive_prefix<scanlab::Sum<int>, BlockThreads>(keep, descriptors,
    //      tile): where this thread's first kept element goes in the output. Thread 0's is the
    //      tile's own first slot: share it through the __shared__ tile_first_slot (and a
    //      __syncthreads()).
    //   3. Gather: each thread writes its kept items, in order, to
    //      exchange[first_slot - tile_first_slot], exchange[... + 1], ... (the transpose is
    //      over, the buffer is free). The last thread's final slot is the tile's count: store it
    //      in kept_in_tile; if this is the last tile (tiles - 1), it also writes
    //      *count_out = tile_first_slot + that count. __syncthreads().
    //   4. Threads j, j + BlockThreads, ... copy exchange[j] to out[tile_first_slot + j] for
    //      j < kept_in_tile: consecutive threads, consecutive addresses.
    (void)out;
    (void)count_out;
    (void)tiles;
    (void)tile_first_slot;
    (void)kept_in_tile;
    (void)descriptors;
    next.run(); // given: keep it last (it clears the next call's descriptors)
}

// =============================================================================================
// Host side
// =============================================================================================

// Workspace layout: the tile counter, then the descriptors, each part 256-byte aligned. With a
// Workspace, two such halves: each call uses one and clears the other for the next call.
inline std::size_t align_up(std::size_t bytes) {
    return (bytes + 255) / 256 * 256;
}

// Lays out the workspace for `tiles` descriptors of values of type V, makes sure the counter and
// the flags are zero (all X) and calls launch(counter, descriptors, next), where `next` is what
// the launch must clear for the next call.
template <class V, class Launch>
void with_descriptors(Descriptors choice, int tiles, Workspace* workspace, Launch launch) {
    constexpr bool kPackable = sizeof(V) == 4 || sizeof(V) == 8;
    const bool packed = kPackable && choice != Descriptors::separate;
    const std::size_t counter_bytes = align_up(sizeof(unsigned));
    const std::size_t t = static_cast<std::size_t>(tiles);
    // Packed: one 64-bit word per tile and 4 bytes of value, two words per 8 bytes of value.
    const std::size_t flag_bytes = packed ? align_up(t * sizeof(V) / 4 * sizeof(unsigned long long))
                                          : align_up(t * sizeof(unsigned));
    const std::size_t value_bytes = packed ? 0 : 2 * align_up(t * sizeof(V));
    const std::size_t zeroed = counter_bytes + flag_bytes; // counter and flags are contiguous
    const std::size_t half = zeroed + value_bytes;

    unsigned char* base = nullptr;
    NextCallClear next;
    Workspace local;
    if (workspace == nullptr) {
        base = static_cast<unsigned char*>(local.reserve(half));
        SCANLAB_CUDA_CHECK(cudaMemsetAsync(base, 0, zeroed));
    } else {
        // The layout: the half's size, and which descriptors (the same size may hold either).
        const std::size_t layout = half * 2 + (packed ? 1 : 0);
        bool kept = false;
        auto* both = static_cast<unsigned char*>(workspace->reserve_kept(2 * half, layout, kept));
        // The first call of this layout clears both halves; after that, each launch clears the
        // other half for the next call.
        if (!kept) SCANLAB_CUDA_CHECK(cudaMemsetAsync(both, 0, 2 * half));
        const int mine = workspace->take_half(kept);
        base = both + mine * half;
        // The emulator's checks would take the zeros the last launch left for a stale flag.
        if (kept) scanlab::hint_reset_by_earlier_launch(base, zeroed);
        next.words = reinterpret_cast<uint4*>(both + (1 - mine) * half);
        next.count = static_cast<long long>(zeroed / sizeof(uint4));
    }
    auto* counter = reinterpret_cast<unsigned*>(base);
    unsigned char* flags = base + counter_bytes;
    auto* words = reinterpret_cast<unsigned long long*>(flags);
    if constexpr (kPackable) {
        if (packed) {
            // Traces recorded on the emulator show each tile's flag changes (no-op on a GPU).
            if constexpr (sizeof(V) == 4) {
                scanlab::hint_tile_status<V>(flags, t, scanlab::TileStatusLayout::packed64);
                launch(counter, PackedDescriptors<V>{words}, next);
            } else {
                scanlab::hint_tile_status<V>(flags, t, scanlab::TileStatusLayout::tagged_pair64);
                // The emulator's checks: each word carries the flag, the reader compares them.
                scanlab::hint_self_tagged_words(words, 2 * t * sizeof(unsigned long long));
                launch(counter, TaggedPairDescriptors<V>{words}, next);
            }
            return;
        }
    }
    V* aggregates = reinterpret_cast<V*>(flags + flag_bytes);
    V* inclusive = reinterpret_cast<V*>(flags + flag_bytes + align_up(t * sizeof(V)));
    scanlab::hint_tile_status<V>(flags, t, scanlab::TileStatusLayout::flags32);
    launch(counter,
           SeparateDescriptors<V>{reinterpret_cast<unsigned*>(flags), aggregates, inclusive}, next);
    // `local` frees its memory here; cudaFree waits for the kernel first.
}

template <class V>
void check_descriptors(const char* what, Descriptors choice) {
    if (choice == Descriptors::packed && sizeof(V) != 4 && sizeof(V) != 8)
        throw std::invalid_argument(
            std::string(what) + ": packed descriptors hold 4- or 8-byte values; this type has " +
            std::to_string(sizeof(V)) + " bytes");
}

template <class T>
bool check_arguments(const char* what, const T* d_in, const T* d_out, long long n) {
    if (n < 0)
        throw std::invalid_argument(std::string(what) + ": n must be >= 0, got " +
                                    std::to_string(n));
    if (n == 0) return false;
    if (d_in == nullptr) throw std::invalid_argument(std::string(what) + ": d_in is null");
    if (d_out == nullptr) throw std::invalid_argument(std::string(what) + ": d_out is null");
    return true;
}

// Small inputs take tiles of a quarter of the size (README, "Speed on a GPU"): where the default
// tile makes fewer than kSmallGrid blocks (int32 and float up to n = 2^16: 16 blocks of 4096 on
// 132 SMs), the quarter makes four times as many, each done sooner. Measured on an H100: at 2^16
// 0.92 of CUB with the default tile, 1.05 with the quarter; but at 2^18 (64 blocks) 1.00 against
// 0.94, and for int64 at 2^18 0.98 against 0.72.
template <int Items>
inline constexpr int kSmallInputItems = Items % 4 == 0 && Items >= 8 ? Items / 4 : Items;
inline constexpr long long kSmallGrid = 32;

template <class Op, int BlockThreads, int ItemsPerThread>
void launch_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                 std::int64_t n, ScanKind kind, const LookbackOptions& options,
                 Workspace* workspace) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const long long tiles = (n + kTile - 1) / kTile;
    if (tiles > INT_MAX)
        throw std::invalid_argument("lab07::scan: n = " + std::to_string(n) + " needs " +
                                    std::to_string(tiles) + " tiles, more than 2^31 - 1");

    with_descriptors<T>(
        options.descriptors, static_cast<int>(tiles), workspace,
        [&](unsigned* counter, auto descriptors, NextCallClear next) {
            launch_after_previous(
                lookback_scan_kernel<Op, BlockThreads, ItemsPerThread, decltype(descriptors)>,
                static_cast<unsigned>(tiles), BlockThreads, d_in, d_out, n, kind, options.tile_ids,
                counter, descriptors, next);
        });
}

template <class Op, int BlockThreads, int ItemsPerThread>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, const LookbackOptions& options, Workspace* workspace) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    using T = typename Op::value_type;
    check_descriptors<T>("lab07::scan", options.descriptors);
    if (!check_arguments("lab07::scan", d_in, d_out, n)) return;
    constexpr int kSmall = kSmallInputItems<ItemsPerThread>;
    if constexpr (kSmall != ItemsPerThread) {
        if (n < kSmallGrid * BlockThreads * ItemsPerThread) {
            launch_scan<Op, BlockThreads, kSmall>(d_in, d_out, n, kind, options, workspace);
            return;
        }
    }
    launch_scan<Op, BlockThreads, ItemsPerThread>(d_in, d_out, n, kind, options, workspace);
}

template <class T, int BlockThreads, int ItemsPerThread>
void select_greater(const T* d_in, T* d_out, int* d_count, std::int64_t n, T threshold,
                    const LookbackOptions& options, Workspace* workspace) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    if (d_count == nullptr) throw std::invalid_argument("lab07::select_greater: d_count is null");
    if (n > INT_MAX)
        throw std::invalid_argument("lab07::select_greater: n = " + std::to_string(n) +
                                    " is more than an int counts (2^31 - 1)");
    if (!check_arguments("lab07::select_greater", d_in, d_out, n)) {
        SCANLAB_CUDA_CHECK(cudaMemsetAsync(d_count, 0, sizeof(int))); // n == 0: nothing kept
        return;
    }
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const int tiles = static_cast<int>((n + kTile - 1) / kTile);
    with_descriptors<int>(
        options.descriptors, tiles, workspace,
        [&](unsigned* counter, auto descriptors, NextCallClear next) {
            launch_after_previous(
                select_kernel<T, BlockThreads, ItemsPerThread, decltype(descriptors)>,
                static_cast<unsigned>(tiles), BlockThreads, d_in, d_out, d_count,
                static_cast<int>(n), threshold, options.tile_ids, counter, descriptors, next);
        });
}

} // namespace lab07

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call these functions with these operators, types and
// tile shapes; since the templates are defined in this .cu file, each one is instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB07_INSTANTIATE(Op)                                                                      \
    template void lab07::scan<Op>(const Op::value_type*, Op::value_type*, std::int64_t,            \
                                  lab07::ScanKind, const lab07::LookbackOptions&,                  \
                                  lab07::Workspace*);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB07_INSTANTIATE)

// The small tile shape, for the operators the tests call it with.
#define LAB07_INSTANTIATE_SMALL_TILES(Op)                                                          \
    template void lab07::scan<Op, 64, 3>(const Op::value_type*, Op::value_type*, std::int64_t,     \
                                         lab07::ScanKind, const lab07::LookbackOptions&,           \
                                         lab07::Workspace*);
LAB07_SMALL_TILE_OPERATORS(LAB07_INSTANTIATE_SMALL_TILES)

#define LAB07_INSTANTIATE_SELECT(T)                                                                \
    template void lab07::select_greater<T>(const T*, T*, int*, std::int64_t, T,                    \
                                           const lab07::LookbackOptions&, lab07::Workspace*);      \
    template void lab07::select_greater<T, 64, 3>(                                                 \
        const T*, T*, int*, std::int64_t, T, const lab07::LookbackOptions&, lab07::Workspace*)

LAB07_INSTANTIATE_SELECT(std::int32_t);
LAB07_INSTANTIATE_SELECT(std::uint32_t);
LAB07_INSTANTIATE_SELECT(std::int64_t);
LAB07_INSTANTIATE_SELECT(float);
LAB07_INSTANTIATE_SELECT(double);
