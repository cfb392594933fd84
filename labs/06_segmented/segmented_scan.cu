// Lab 06: segmented scan with head flags, by operator transformation and by conditional
// indexing (mindex), at warp, block and global level.
//
// Read README.md first. Fill in the parts marked TODO(student), in order, and run the lab's
// tests. The GIVEN parts are lab 05's building blocks, moving tiles, and the host side.
#include "segmented_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>
#include <scanlab/pdl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lab06 {

// Programmatic dependent launch (scanlab/pdl.h; lab 07's README, "Launch latency and PDL"): the
// kernels that segmented_scan() launches one after the other are launched with
// launch_after_previous, so the GPU may start each one's blocks while the one before it drains.
// Each kernel first calls wait_for_previous_grid() (nothing of the kernel before may be touched
// until it returns), then let_next_grid_start().
using scanlab::launch_after_previous;
using scanlab::let_next_grid_start;
using scanlab::wait_for_previous_grid;

inline constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline int lane_id() {
    return static_cast<int>(threadIdx.x) % kWarpSize;
}
__device__ inline int warp_id() {
    return static_cast<int>(threadIdx.x) / kWarpSize;
}
// Bits of the lanes below the calling one, and of those up to and including it.
__device__ inline unsigned lanes_below(int lane) {
    return (1u << lane) - 1u;
}
__device__ inline unsigned lanes_up_to(int lane) {
    return (2u << lane) - 1u; // lane 31: 2u << 31 wraps to 0, and 0 - 1 is all ones
}

// =============================================================================================
// Part 1: the operator transformation
// =============================================================================================

template <class Op>
__host__ __device__ typename Segmented<Op>::value_type Segmented<Op>::identity() {
    // TODO(student): the pair that changes nothing on either side (README, part 1).
    return {1, Op::identity()};
}

template <class Op>
__host__ __device__ typename Segmented<Op>::value_type Segmented<Op>::apply(value_type a,
                                                                            value_type b) {
    // TODO(student): `b` comes after `a`. The flag of the result: a.flag | b.flag. Its value: b's
    //   alone if b has a head (nothing of `a` crosses it), else Op::apply(a.value, b.value).
    (void)a;
    return b;
}

// =============================================================================================
// GIVEN: warp shuffles of values and of (flag, value) pairs, and lab 05's warp and block scans
// for any operator whose values can be shuffled.
// =============================================================================================

template <class T>
__device__ T shuffle_up(T x, int delta) {
    return __shfl_up_sync(kFullMask, x, delta);
}
template <class T>
__device__ FlagValue<T> shuffle_up(FlagValue<T> x, int delta) {
    return {__shfl_up_sync(kFullMask, x.flag, delta), __shfl_up_sync(kFullMask, x.value, delta)};
}

template <class Op>
__device__ typename Op::value_type warp_inclusive_scan(typename Op::value_type x) {
    const int lane = lane_id();
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
        const auto earlier = shuffle_up(x, offset);
        if (lane >= offset) x = Op::apply(earlier, x);
    }
    return x;
}

template <class Op>
__device__ typename Op::value_type exclusive_from_inclusive(typename Op::value_type inclusive) {
    const auto left = shuffle_up(inclusive, 1);
    return lane_id() == 0 ? Op::identity() : left;
}

// Lab 05's block scan: returns the thread's exclusive prefix and the block's total. A
// __syncthreads() is needed between two calls.
template <class Op, int BlockThreads>
__device__ typename Op::value_type block_exclusive_scan(typename Op::value_type x,
                                                        typename Op::value_type& block_total) {
    using T = typename Op::value_type;
    constexpr int kWarps = BlockThreads / kWarpSize;
    __shared__ T warp_prefix[kWarps];
    __shared__ T total;
    const int lane = lane_id();
    const int warp = warp_id();
    const T inclusive = warp_inclusive_scan<Op>(x);
    if (lane == kWarpSize - 1) warp_prefix[warp] = inclusive;
    const T in_warp = exclusive_from_inclusive<Op>(inclusive);
    __syncthreads();
    if (warp == 0) {
        const T warp_total = lane < kWarps ? warp_prefix[lane] : Op::identity();
        const T scanned = warp_inclusive_scan<Op>(warp_total);
        const T before = exclusive_from_inclusive<Op>(scanned);
        if (lane < kWarps) warp_prefix[lane] = before;
        if (lane == kWarpSize - 1) total = scanned;
    }
    __syncthreads();
    block_total = total;
    return Op::apply(warp_prefix[warp], in_warp);
}

// =============================================================================================
// Part 2: segmented warp scans
// =============================================================================================

// Conditional indexing (the chapter's Fig. 1.11, with a ballot instead of a max-scan): every lane
// finds `mindex`, the lane of its segment's head in this warp (0 if the head is in an earlier
// warp), from the bits of the lanes that hold a head. Then the Kogge-Stone steps of lab 05 run,
// but a lane only combines a value from `offset` lanes below if that lane is still in its own
// segment: lane - offset >= mindex. Returns the inclusive segmented scan and the warp's head bits.
template <class Op>
__device__ typename Op::value_type warp_segmented_scan(typename Op::value_type x, bool head,
                                                       unsigned& heads) {
    // TODO(student):
    //   1. heads = __ballot_sync(kFullMask, head): bit k is set if lane k holds a head.
    //   2. mindex: the highest set bit of heads & lanes_up_to(lane) (31 - __clz(bits)), or 0 if
    //      there is none (the segment began in an earlier warp).
    //   3. The five steps of lab 05's warp scan (every lane shuffles), but combine only if
    //      lane >= mindex + offset.
    (void)head;
    heads = 0;
    return x;
}

// Threads per block of the part 2 kernel; each warp is independent.
constexpr int kGroupBlockThreads = 256;

template <class Op>
__global__ void warp_groups_kernel(const typename Op::value_type* in, const std::uint8_t* flags,
                                   typename Op::value_type* out, int n, ScanKind kind,
                                   SegmentedMethod method) {
    using T = typename Op::value_type;
    using Pair = FlagValue<T>;
    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    const T x = i < n ? in[i] : Op::identity();
    // A group's first element starts a segment, whatever its flag says.
    const bool head = lane_id() == 0 || (i < n && flags[i] != 0);

    // TODO(student): the inclusive segmented scan of the warp's 32 elements:
    //   - operator_transform: warp_inclusive_scan<Segmented<Op>> of the pairs
    //     Pair{head ? 1 : 0, x}; its .value;
    //   - conditional_index: warp_segmented_scan<Op>(x, head, heads).
    //   Exclusive: every lane takes its left neighbour's inclusive result (__shfl_up_sync by 1,
    //   in every lane), except a head, which gets Op::identity().
    T result = x;
    (void)head;
    (void)method;
    (void)kind;
    (void)sizeof(Pair);
    if (i < n) out[i] = result;
}

// =============================================================================================
// Part 3: segmented block scans, several items per thread
// =============================================================================================

// GIVEN: tiles of values and flags between global memory and registers, as in lab 05 (warp-striped
// loads and stores, transposed through padded shared memory). Flags travel as ints (conflict-free
// like any 4-byte type) and end up as the bits of one register per thread: bit k is the flag of
// item k. That is the CUDPP trick the chapter mentions: one register instead of ITEMS.
template <class T>
__host__ __device__ constexpr int padded(int j) {
    return j + j / (128 / static_cast<int>(sizeof(T)));
}
template <class T, int BlockThreads, int Items>
__host__ __device__ constexpr int exchange_slots() {
    return padded<T>(BlockThreads * Items - 1) + 1;
}

// Global memory is read and written in 16-byte vectors (uint4) where possible: one warp-wide
// load then moves 512 bytes instead of 128 (or 32 for the 1-byte flags), so far fewer
// instructions keep the same bytes in flight. Lane l takes vector k * 32 + l of its warp's part
// in step k: the warp still reads consecutive addresses. A vector holds kPerVector<From>
// elements (4 ints, 16 flags); a 128-byte row of the padded buffer holds whole vectors, so a
// vector's elements stay consecutive there too.
template <class From>
inline constexpr int kPerVector = 16 % sizeof(From) == 0 ? 16 / static_cast<int>(sizeof(From)) : 0;
template <class T, class From, int Items>
inline constexpr bool kVectorShape = kPerVector<From> > 0 && Items % kPerVector<From> == 0 &&
                                     (128 / static_cast<int>(sizeof(T))) % kPerVector<From> == 0;

// Vectors only for a warp's whole part of the tile (not in the last, partial tile) that starts
// on a 16-byte boundary (arrays from cudaMalloc do; d_in + 1 does not).
template <class From, int Items>
__device__ bool whole_aligned_part(const From* part, int count) {
    return count >= kWarpSize * Items && reinterpret_cast<std::uintptr_t>(part) % 16 == 0;
}

// Whether a later kernel reads the same elements again (segmented_scan() reads its input twice).
enum class Reads { last_time, again };

// An element read for the last time, or written: __ldcs/__stcs ("cache streaming") mark its
// cache lines evict-first, so that they do not push out data that is used again. An element read
// again later: a plain load, whose lines stay in the L2 cache as long as they can. The CPU
// emulator has no caches: plain accesses there.
template <Reads R = Reads::last_time>
__device__ inline uint4 load_vector(const uint4* p) {
#ifdef __CUDA_ARCH__
    if constexpr (R == Reads::last_time) return __ldcs(p);
#endif
    return *p;
}
__device__ inline void store_once(uint4* p, uint4 v) {
#ifdef __CUDA_ARCH__
    __stcs(p, v);
#else
    *p = v;
#endif
}

template <Reads R, class T, class From, int Items>
__device__ void load_striped(const From* tile, int count, T fill, T* exchange, T (&items)[Items]) {
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items;
    __syncwarp(); // the lanes have finished reading the buffer's previous contents
    bool done = false;
    if constexpr (kVectorShape<T, From, Items>) {
        if (whole_aligned_part<From, Items>(tile + base, count - base)) {
            constexpr int kPer = kPerVector<From>;
            const uint4* vectors = reinterpret_cast<const uint4*>(tile + base);
            uint4 loaded[Items / kPer];
            for (int k = 0; k < Items / kPer; ++k)
                loaded[k] = load_vector<R>(&vectors[k * kWarpSize + lane]);
            for (int k = 0; k < Items / kPer; ++k) {
                From parts[kPer];
                memcpy(parts, &loaded[k], sizeof parts);
                const int first = padded<T>(base + (k * kWarpSize + lane) * kPer);
                for (int c = 0; c < kPer; ++c) exchange[first + c] = static_cast<T>(parts[c]);
            }
            done = true;
        }
    }
    if (!done) { // one element at a time
        T loaded[Items];
        for (int k = 0; k < Items; ++k) {
            const int j = base + k * kWarpSize + lane;
            loaded[k] = j < count ? static_cast<T>(tile[j]) : fill;
        }
        for (int k = 0; k < Items; ++k)
            exchange[padded<T>(base + k * kWarpSize + lane)] = loaded[k];
    }
    __syncwarp();
    for (int k = 0; k < Items; ++k) items[k] = exchange[padded<T>(base + lane * Items + k)];
}

template <class T, int Items>
__device__ void store_striped(T* tile, int count, const T (&items)[Items], T* exchange) {
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items;
    __syncwarp();
    for (int k = 0; k < Items; ++k) exchange[padded<T>(base + lane * Items + k)] = items[k];
    __syncwarp();
    if constexpr (kVectorShape<T, T, Items>) {
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

// The shared memory a tile needs: values, and flags as ints.
template <class T, int BlockThreads, int Items>
struct TileBuffers {
    T values[exchange_slots<T, BlockThreads, Items>()];
    int flags[exchange_slots<int, BlockThreads, Items>()];
};

// Loads the tile's values into `items` and its flags into the bits of `heads`. The tile's first
// element is made a head when `first_is_head` (tiles scanned on their own). R: whether a later
// kernel reads the tile again (load_vector).
template <class Op, int BlockThreads, int Items, Reads R = Reads::last_time>
__device__ void load_tile(const typename Op::value_type* in, const std::uint8_t* flags, int count,
                          bool first_is_head,
                          TileBuffers<typename Op::value_type, BlockThreads, Items>& buffers,
                          typename Op::value_type (&items)[Items], unsigned& heads) {
    load_striped<R>(in, count, Op::identity(), buffers.values, items);
    int flag[Items];
    load_striped<R>(flags, count, 0, buffers.flags, flag);
    heads = 0;
    for (int k = 0; k < Items; ++k) heads |= (flag[k] != 0 ? 1u : 0u) << k;
    if (first_is_head && threadIdx.x == 0) heads |= 1u;
}

// The thread's (flag, value) aggregate: whether its items hold a head, and the combination of
// its items from the last head on (all of them if there is none).
template <class Op, int Items>
__device__ FlagValue<typename Op::value_type>
thread_aggregate(const typename Op::value_type (&items)[Items], unsigned heads) {
    // TODO(student): flag: 1 if heads != 0. Value: go through the items in order; a head
    //   (bit k of heads) restarts the total from items[k], any other item is combined into it.
    (void)items;
    (void)heads;
    return {0, Op::identity()};
}

// Scans the thread's items within their segments, starting from `carry`: the combination of
// the elements from the head of the segment that is open at the thread's first item up to just
// before it. A head starts again from the identity.
template <class Op, int Items>
__device__ void thread_segmented_scan(typename Op::value_type (&items)[Items], unsigned heads,
                                      typename Op::value_type carry, ScanKind kind) {
    // TODO(student): lab 05's thread_scan starting from `carry`, except that at a head (bit k of
    //   heads) the running value restarts from Op::identity() before item k is used.
    (void)items;
    (void)heads;
    (void)carry;
    (void)kind;
}

// What comes into each thread of the block: the combination of the elements from the latest head
// before the thread's first item. `seed` is what comes into the block from earlier tiles; it
// reaches only the threads with no head between the tile's start and themselves. Also returns
// the tile's own aggregate (flag, value), without the seed. Every thread must call it; a
// __syncthreads() is needed between two calls.

// With the operator transformation: lab 05's block scan of the (flag, value) pairs. The exclusive
// pair's flag says whether a head comes before the thread in the tile.
template <class Op, int BlockThreads>
__device__ typename Op::value_type carry_by_transform(FlagValue<typename Op::value_type> mine,
                                                      typename Op::value_type seed,
                                                      FlagValue<typename Op::value_type>& tile) {
    // TODO(student): before = block_exclusive_scan<Segmented<Op>, BlockThreads>(mine, tile).
    //   If before.flag is set, a head comes earlier in the tile: return before.value. Otherwise
    //   the thread is still in the tile's first segment: return Op::apply(seed, before.value).
    (void)mine;
    (void)seed;
    tile = {0, Op::identity()};
    return Op::identity();
}

// With conditional indexing (the chapter's Fig. 1.14): segmented warp scans of the threads'
// aggregates; the last lane of each warp provides the warp's total and whether it has a head
// (here every lane stores its result and warp 0 reads the last lane's: a store without an `if`);
// one warp scans those the same way; each thread adds its warp's carry only if no head comes
// before it in its warp (it is in the warp's first segment), and each warp adds the seed only
// if no head comes before it in the tile.
template <class Op, int BlockThreads>
__device__ typename Op::value_type carry_by_index(FlagValue<typename Op::value_type> mine,
                                                  typename Op::value_type seed,
                                                  FlagValue<typename Op::value_type>& tile) {
    // TODO(student): the steps above (README, "The block level with conditional indexing").
    //   Shared memory: every thread's inclusive result and its warp's head bits
    //   (`__shared__ T lane_total[BlockThreads];`, `__shared__ unsigned warp_heads_of[...]`), and
    //   for warp 0's results one slot per lane: what comes into each warp, the scanned totals,
    //   and whether a head came up to there (`__shared__ T warp_carry[kWarpSize];` ...).
    //   1. warp_segmented_scan of mine.value with head mine.flag != 0; store the result and the
    //      head bits; `left` = __shfl_up_sync(kFullMask, result, 1); __syncthreads().
    //   2. Warp 0: lane l < number of warps takes warp l's total and "has a head" (from the slot
    //      of warp l's last lane), the other lanes the identity and no head; warp_segmented_scan
    //      of those; what comes into warp l is the scanned result of lane l - 1 (identity for
    //      l = 0), with the seed on its left if no warp below l has a head. Store it, the scanned
    //      totals, and for each lane whether a head came up to it. __syncthreads().
    //   3. tile = (head anywhere?, scanned total of the last lane). The thread's carry: within
    //      its warp, `left` (identity in lane 0); if no lane below it in the warp has a head,
    //      with its warp's carry on the left.
    (void)mine;
    (void)seed;
    tile = {0, Op::identity()};
    return Op::identity();
}

template <class Op, int BlockThreads>
__device__ typename Op::value_type
block_carry(SegmentedMethod method, FlagValue<typename Op::value_type> mine,
            typename Op::value_type seed, FlagValue<typename Op::value_type>& tile) {
    return method == SegmentedMethod::operator_transform
               ? carry_by_transform<Op, BlockThreads>(mine, seed, tile)
               : carry_by_index<Op, BlockThreads>(mine, seed, tile);
}

// At most 80 registers per thread (65536 per SM / 768 threads): 3 blocks of 256 threads stay
// resident on each SM, with their loads in flight. Left alone, the compiler takes up to 122
// registers for the tile loops and only 2 blocks fit (README, "Speed on a GPU").
template <int BlockThreads>
inline constexpr int kMinBlocksPerSm = BlockThreads <= 768 ? 768 / BlockThreads : 1;

__device__ inline int elements_in_tile(long long n, long long start, int tile) {
    return n - start < tile ? static_cast<int>(n - start) : tile;
}

template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    block_tiles_kernel(const typename Op::value_type* in, const std::uint8_t* flags,
                       typename Op::value_type* out, int n, ScanKind kind, SegmentedMethod method) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ TileBuffers<T, BlockThreads, Items> buffers;

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const long long start = static_cast<long long>(blockIdx.x) * kTile;
    const int count = elements_in_tile(n, start, kTile);
    T items[Items];
    unsigned heads;
    load_tile<Op>(in + start, flags + start, count, true, buffers, items, heads);
    FlagValue<T> tile;
    const T carry = block_carry<Op, BlockThreads>(method, thread_aggregate<Op>(items, heads),
                                                  Op::identity(), tile);
    thread_segmented_scan<Op>(items, heads, carry, kind);
    store_striped(out + start, count, items, buffers.values);
}

// =============================================================================================
// Part 4: any n, by reduce-then-scan
// =============================================================================================

struct TileRun {
    long long first, last;
};
__device__ inline TileRun tile_run(long long tiles) {
    const long long b = blockIdx.x, g = gridDim.x;
    return {b * tiles / g, (b + 1) * tiles / g};
}

// Step 1: block b writes the (flag, total) pair of its run of tiles.
template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    reduce_kernel(const typename Op::value_type* in, const std::uint8_t* flags, long long n,
                  SegmentedMethod method, typename Op::value_type* totals, int* total_flags) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ TileBuffers<T, BlockThreads, Items> buffers;

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const TileRun run = tile_run((n + kTile - 1) / kTile);
    auto running = Segmented<Op>::identity();
    for (long long t = run.first; t < run.last; ++t) {
        if (t > run.first) __syncthreads(); // the block-level scan's shared memory is reused
        const long long start = t * kTile;
        const int count = elements_in_tile(n, start, kTile);
        T items[Items];
        unsigned heads;
        load_tile<Op>(in + start, flags + start, count, false, buffers, items, heads);
        FlagValue<T> tile;
        block_carry<Op, BlockThreads>(method, thread_aggregate<Op>(items, heads), Op::identity(),
                                      tile);
        // TODO(student): combine the tile into `running` (earlier tiles on the left).
        (void)tile;
    }
    if (threadIdx.x == 0) {
        totals[blockIdx.x] = running.value;
        total_flags[blockIdx.x] = running.flag;
    }
}

// Step 2: one block turns the `count` pairs into what comes into each block (in place), a chunk
// of BlockThreads pairs at a time.
template <class Op, int BlockThreads>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    carries_kernel(typename Op::value_type* totals, const int* total_flags, int count,
                   SegmentedMethod method) {
    using T = typename Op::value_type;
    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();
    T running = Op::identity();
    for (int chunk = 0; chunk < count; chunk += BlockThreads) {
        if (chunk > 0) __syncthreads(); // the block-level scan's shared memory is reused
        const int i = chunk + static_cast<int>(threadIdx.x);
        const FlagValue<T> mine =
            i < count ? FlagValue<T>{total_flags[i], totals[i]} : Segmented<Op>::identity();
        FlagValue<T> all;
        const T carry = block_carry<Op, BlockThreads>(method, mine, running, all);
        if (i < count) totals[i] = carry;
        // TODO(student): what comes into the next chunk: the chunk's total alone if it holds a
        //   head, otherwise the chunk's total with `running` on the left.
        (void)all;
    }
}

// Step 3: block b rescans its run, starting from what comes into it.
template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    scan_kernel(const typename Op::value_type* in, const std::uint8_t* flags,
                typename Op::value_type* out, long long n, ScanKind kind, SegmentedMethod method,
                const typename Op::value_type* carries) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ TileBuffers<T, BlockThreads, Items> buffers;

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const TileRun run = tile_run((n + kTile - 1) / kTile);
    T running = carries[blockIdx.x];
    for (long long t = run.first; t < run.last; ++t) {
        if (t > run.first) __syncthreads();
        const long long start = t * kTile;
        const int count = elements_in_tile(n, start, kTile);
        T items[Items];
        unsigned heads;
        load_tile<Op>(in + start, flags + start, count, false, buffers, items, heads);
        FlagValue<T> tile;
        const T carry = block_carry<Op, BlockThreads>(method, thread_aggregate<Op>(items, heads),
                                                      running, tile);
        thread_segmented_scan<Op>(items, heads, carry, kind);
        store_striped(out + start, count, items, buffers.values);
        // TODO(student): what comes into the next tile (as in carries_kernel).
        (void)tile;
    }
}

// ---- host side ------------------------------------------------------------------------------

// GIVEN: argument checks.
template <class T>
bool check_arguments(const char* what, const T* d_in, const std::uint8_t* d_flags, const T* d_out,
                     long long n) {
    if (n < 0)
        throw std::invalid_argument(std::string(what) + ": n must be >= 0, got " +
                                    std::to_string(n));
    if (n == 0) return false;
    if (d_in == nullptr) throw std::invalid_argument(std::string(what) + ": d_in is null");
    if (d_flags == nullptr) throw std::invalid_argument(std::string(what) + ": d_flags is null");
    if (d_out == nullptr) throw std::invalid_argument(std::string(what) + ": d_out is null");
    return true;
}

template <class Op>
void segmented_warp_scan_groups(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                                typename Op::value_type* d_out, int n, ScanKind kind,
                                SegmentedMethod method) {
    if (!check_arguments("lab06::segmented_warp_scan_groups", d_in, d_flags, d_out, n)) return;
    const int blocks = (n + kGroupBlockThreads - 1) / kGroupBlockThreads;
    warp_groups_kernel<Op><<<blocks, kGroupBlockThreads>>>(d_in, d_flags, d_out, n, kind, method);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op, int BlockThreads, int ItemsPerThread>
void segmented_block_scan_tiles(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                                typename Op::value_type* d_out, int n, ScanKind kind,
                                SegmentedMethod method) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    if (!check_arguments("lab06::segmented_block_scan_tiles", d_in, d_flags, d_out, n)) return;
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const int tiles = static_cast<int>((static_cast<long long>(n) + kTile - 1) / kTile);
    block_tiles_kernel<Op, BlockThreads, ItemsPerThread>
        <<<tiles, BlockThreads>>>(d_in, d_flags, d_out, n, kind, method);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op, int BlockThreads, int ItemsPerThread>
void segmented_scan(const typename Op::value_type* d_in, const std::uint8_t* d_flags,
                    typename Op::value_type* d_out, std::int64_t n, ScanKind kind,
                    SegmentedMethod method, Workspace* workspace) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    using T = typename Op::value_type;
    if (!check_arguments("lab06::segmented_scan", d_in, d_flags, d_out, n)) return;
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const long long tiles = (n + kTile - 1) / kTile;
    if (tiles == 1) {
        launch_after_previous(block_tiles_kernel<Op, BlockThreads, ItemsPerThread>, 1, BlockThreads,
                              d_in, d_flags, d_out, static_cast<int>(n), kind, method);
        return;
    }

    int device = 0, sms = 0, per_sm = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    SCANLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, scan_kernel<Op, BlockThreads, ItemsPerThread>, BlockThreads, 0));
    const int blocks = static_cast<int>(
        std::min<long long>(tiles, static_cast<long long>(std::max(1, sms * per_sm))));

    Workspace local;
    Workspace& space = workspace != nullptr ? *workspace : local;
    const std::size_t value_bytes = (sizeof(T) * blocks + 255) / 256 * 256;
    auto* base = static_cast<unsigned char*>(space.reserve(value_bytes + sizeof(int) * blocks));
    T* totals = reinterpret_cast<T*>(base);
    int* total_flags = reinterpret_cast<int*>(base + value_bytes);

    launch_after_previous(reduce_kernel<Op, BlockThreads, ItemsPerThread>, blocks, BlockThreads,
                          d_in, d_flags, n, method, totals, total_flags);
    launch_after_previous(carries_kernel<Op, BlockThreads>, 1, BlockThreads, totals, total_flags,
                          blocks, method);
    launch_after_previous(scan_kernel<Op, BlockThreads, ItemsPerThread>, blocks, BlockThreads, d_in,
                          d_flags, d_out, n, kind, method, totals);
}

} // namespace lab06

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call these functions with these operators, types and
// tile shapes; since the templates are defined in this .cu file, each one is instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB06_INSTANTIATE(Op)                                                                      \
    template struct lab06::Segmented<Op>;                                                          \
    template void lab06::segmented_warp_scan_groups<Op>(const Op::value_type*,                     \
                                                        const std::uint8_t*, Op::value_type*, int, \
                                                        lab06::ScanKind, lab06::SegmentedMethod);  \
    template void lab06::segmented_block_scan_tiles<Op, 96, 3>(                                    \
        const Op::value_type*, const std::uint8_t*, Op::value_type*, int, lab06::ScanKind,         \
        lab06::SegmentedMethod);                                                                   \
    template void lab06::segmented_scan<Op>(const Op::value_type*, const std::uint8_t*,            \
                                            Op::value_type*, std::int64_t, lab06::ScanKind,        \
                                            lab06::SegmentedMethod, lab06::Workspace*);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB06_INSTANTIATE)

// The small tile shape, for the operators the tests call it with.
#define LAB06_INSTANTIATE_SMALL_TILES(Op)                                                          \
    template void lab06::segmented_scan<Op, 64, 3>(const Op::value_type*, const std::uint8_t*,     \
                                                   Op::value_type*, std::int64_t, lab06::ScanKind, \
                                                   lab06::SegmentedMethod, lab06::Workspace*);
LAB06_SMALL_TILE_OPERATORS(LAB06_INSTANTIATE_SMALL_TILES)
