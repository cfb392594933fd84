// Lab 05: warp-synchronous scans. Warp scans with shuffles and with shared memory, a block scan
// built from warp scans, several items per thread, and a scan of any size. SOLUTION.
#include "warp_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>
#include <scanlab/pdl.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace lab05 {

// Programmatic dependent launch (scanlab/pdl.h; lab 07's README, "Launch latency and PDL"): the
// kernels that scan() launches one after the other are launched with launch_after_previous, so
// the GPU may start each one's blocks while the one before it drains. Each kernel first calls
// wait_for_previous_grid() (nothing of the kernel before may be touched until it returns), then
// let_next_grid_start().
using scanlab::launch_after_previous;
using scanlab::let_next_grid_start;
using scanlab::wait_for_previous_grid;

// Every lane of the warp takes part in every warp intrinsic in this file.
inline constexpr unsigned kFullMask = 0xffffffffu;

__device__ inline int lane_id() {
    return static_cast<int>(threadIdx.x) % kWarpSize;
}
__device__ inline int warp_id() {
    return static_cast<int>(threadIdx.x) / kWarpSize;
}

// =============================================================================================
// Part 1: warp scans
// =============================================================================================

// Inclusive scan of one value per lane across the 32 lanes of the calling warp (Kogge-Stone /
// Hillis-Steele, lab 01, with registers instead of an array): in the step with `offset`, lane i
// combines the value `offset` lanes below it into its own. Five steps, no shared memory, no
// barrier: a shuffle is one instruction that the whole warp executes together, so every lane
// reads the others' values of the same step. All 32 lanes must call it.
template <class Op>
__device__ typename Op::value_type warp_inclusive_scan(typename Op::value_type x) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
        // Every lane must execute the shuffle, even those that then ignore the result.
        const T earlier = __shfl_up_sync(kFullMask, x, offset);
        if (lane >= offset) x = Op::apply(earlier, x);
    }
    return x;
}

// The exclusive result from the inclusive one: each lane takes its left neighbour's.
template <class Op>
__device__ typename Op::value_type exclusive_from_inclusive(typename Op::value_type inclusive) {
    const auto left = __shfl_up_sync(kFullMask, inclusive, 1);
    return lane_id() == 0 ? Op::identity() : left;
}

template <class Op>
__device__ typename Op::value_type warp_scan_shuffle(typename Op::value_type x, ScanKind kind) {
    const auto inclusive = warp_inclusive_scan<Op>(x);
    return kind == ScanKind::inclusive ? inclusive : exclusive_from_inclusive<Op>(inclusive);
}

// The 2011 chapter's warp scan through shared memory, made correct for independent thread
// scheduling. `slots` is this warp's own 32 elements of shared memory.
//
// The chapter relies on the lanes of a warp executing in lockstep: in one step every lane reads
// slots[lane - offset] before any lane overwrites it. Since Volta the lanes of a warp may
// interleave, so lane i can read slots[i - offset] after lane i - offset has already written its
// new value: a data race. __syncwarp() separates the reads of a step from its writes, and the
// writes from the next step's reads; it is also a memory barrier among the lanes, so `volatile`
// is no longer needed.
template <class Op>
__device__ typename Op::value_type warp_scan_shared(typename Op::value_type x,
                                                    typename Op::value_type* slots, ScanKind kind) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    slots[lane] = x;
    __syncwarp();
    for (int offset = 1; offset < kWarpSize; offset *= 2) {
        const T earlier = lane >= offset ? slots[lane - offset] : Op::identity();
        __syncwarp(); // every lane has read this step's values before any lane overwrites one
        if (lane >= offset) {
            x = Op::apply(earlier, x);
            slots[lane] = x;
        }
        __syncwarp(); // every lane has written before the next step reads
    }
    if (kind == ScanKind::inclusive) return x;
    return lane > 0 ? slots[lane - 1] : Op::identity();
}

// Threads per block of warp_groups_kernel: any multiple of 32 works, each warp is independent.
constexpr int kGroupBlockThreads = 256;

template <class Op>
__global__ void warp_groups_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                   int n, ScanKind kind, WarpScanVariant variant) {
    using T = typename Op::value_type;
    __shared__ T slots[kGroupBlockThreads]; // 32 per warp; only the shared-memory variant uses it

    const long long i = static_cast<long long>(blockIdx.x) * blockDim.x + threadIdx.x;
    // Lanes past the end still take part in the scan (every lane must reach each shuffle and
    // __syncwarp), with the identity, which changes nothing.
    const T x = i < n ? in[i] : Op::identity();
    const T y = variant == WarpScanVariant::shuffle
                    ? warp_scan_shuffle<Op>(x, kind)
                    : warp_scan_shared<Op>(x, &slots[warp_id() * kWarpSize], kind);
    if (i < n) out[i] = y;
}

// =============================================================================================
// Part 2: a block scan built from warp scans
// =============================================================================================

// Scans one value per thread across the whole block, in thread order. Returns the thread's
// EXCLUSIVE prefix (the combination of the values of all lower threads) and sets `block_total` to
// the combination of all of them. Every thread of the block must call it.
//   1. each warp scans its 32 values (shuffles);
//   2. the last lane of each warp writes the warp's total to shared memory;
//   3. one warp scans those totals (at most 32: a block has at most 1024 threads);
//   4. every thread combines its warp's prefix with its own result of step 1.
// The next call of the same block reuses the shared memory with no barrier in between (README,
// part 2): before its first barrier a warp writes only its own warp_prefix slot, after the second
// it reads only its own slot and `total`, and warp 0 reads all slots and writes `total` only after
// the next call's first barrier, which no warp passes before it has read this call's results.
template <class Op, int BlockThreads>
__device__ typename Op::value_type block_exclusive_scan(typename Op::value_type x,
                                                        typename Op::value_type& block_total) {
    using T = typename Op::value_type;
    constexpr int kWarps = BlockThreads / kWarpSize;
    __shared__ T warp_prefix[kWarps]; // warp totals, then their exclusive scan
    __shared__ T total;

    const int lane = lane_id();
    const int warp = warp_id();

    // Step 1.
    const T inclusive = warp_inclusive_scan<Op>(x);
    // Step 2.
    if (lane == kWarpSize - 1) warp_prefix[warp] = inclusive;
    const T in_warp = exclusive_from_inclusive<Op>(inclusive); // this thread's prefix in its warp
    __syncthreads();
    // Step 3. Lanes beyond the number of warps scan the identity.
    if (warp == 0) {
        const T warp_total = lane < kWarps ? warp_prefix[lane] : Op::identity();
        const T scanned = warp_inclusive_scan<Op>(warp_total);
        const T before = exclusive_from_inclusive<Op>(scanned);
        if (lane < kWarps) warp_prefix[lane] = before; // each lane rewrites only its own slot
        if (lane == kWarpSize - 1) total = scanned;
    }
    __syncthreads();
    // Step 4. The warp's prefix goes on the LEFT: it comes from lower threads.
    block_total = total;
    return Op::apply(warp_prefix[warp], in_warp);
}

// =============================================================================================
// Part 3: several items per thread
// =============================================================================================

// A thread's ITEMS consecutive elements live in a register array. The compiler keeps it in
// registers only if every index is a compile-time constant: fully unrolled loops over ITEMS.

template <class Op, int Items>
__device__ typename Op::value_type thread_reduce(const typename Op::value_type (&items)[Items]) {
    auto total = items[0];
    for (int k = 1; k < Items; ++k) total = Op::apply(total, items[k]);
    return total;
}

// Scans the thread's items in place, starting from `seed` (everything before the first item).
template <class Op, int Items>
__device__ void thread_scan(typename Op::value_type (&items)[Items], typename Op::value_type seed,
                            ScanKind kind) {
    // One test of `kind` for the whole loop, not one per item: fewer registers live at once.
    auto running = seed;
    if (kind == ScanKind::inclusive) {
        for (int k = 0; k < Items; ++k) items[k] = running = Op::apply(running, items[k]);
    } else {
        for (int k = 0; k < Items; ++k) {
            const auto x = items[k];
            items[k] = running;
            running = Op::apply(running, x);
        }
    }
}

// GIVEN: moving a tile between global memory and the threads' registers.
//
// The scan wants each thread to own ITEMS *consecutive* elements (a "blocked" arrangement): thread
// t holds elements t*ITEMS .. t*ITEMS + ITEMS - 1 of the tile. Loading them like that directly
// would be slow: in one load instruction the 32 lanes of a warp would touch addresses ITEMS
// elements apart, 32 different memory segments. So each warp loads its part of the tile
// "warp-striped": in load k, lane l reads element k*32 + l of the warp's part, so the 32 lanes
// read 32 consecutive elements (128 bytes for int32: one coalesced transaction). The warp then
// writes what it loaded to shared memory and reads it back blocked: a transpose through shared
// memory. Each warp only uses its own part of the buffer, so __syncwarp() is enough, no
// __syncthreads(). Stores do the same in reverse.
//
// The shared buffer is padded (lab 03): one unused element after every 128 bytes, so that both
// the striped and the blocked accesses hit 32 different banks.
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

// Whether a later kernel reads the same elements again (scan() reads its input twice).
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

// Loads tile elements [0, count) of `tile` (count <= BlockThreads * Items) into `items`,
// blocked; the positions past count get the identity. R: whether a later kernel reads the tile
// again (load_vector).
template <class Op, int Items, Reads R = Reads::last_time>
__device__ void load_tile(const typename Op::value_type* tile, int count,
                          typename Op::value_type (&items)[Items],
                          typename Op::value_type* exchange) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items; // this warp's part of the tile
    __syncwarp(); // the lanes have finished reading the buffer's previous contents
    bool done = false;
    if constexpr (kVectorShape<T, Items>) {
        if (whole_aligned_part<T, Items>(tile + base, count - base)) {
            constexpr int kPer = kPerVector<T>;
            const uint4* vectors = reinterpret_cast<const uint4*>(tile + base);
            uint4 loaded[Items / kPer];
            // All loads first, so that they are in flight together.
            for (int k = 0; k < Items / kPer; ++k)
                loaded[k] = load_vector<R>(&vectors[k * kWarpSize + lane]);
            for (int k = 0; k < Items / kPer; ++k) {
                T parts[kPer];
                memcpy(parts, &loaded[k], sizeof parts);
                const int first = padded<T>(base + (k * kWarpSize + lane) * kPer);
                for (int c = 0; c < kPer; ++c) exchange[first + c] = parts[c];
            }
            done = true;
        }
    }
    if (!done) { // one element at a time
        T loaded[Items];
        for (int k = 0; k < Items; ++k) {
            const int j = base + k * kWarpSize + lane;
            loaded[k] = j < count ? tile[j] : Op::identity();
        }
        for (int k = 0; k < Items; ++k)
            exchange[padded<T>(base + k * kWarpSize + lane)] = loaded[k];
    }
    __syncwarp();
    for (int k = 0; k < Items; ++k) items[k] = exchange[padded<T>(base + lane * Items + k)];
}

// Stores `items` (blocked) to tile elements [0, count).
template <class Op, int Items>
__device__ void store_tile(typename Op::value_type* tile, int count,
                           const typename Op::value_type (&items)[Items],
                           typename Op::value_type* exchange) {
    using T = typename Op::value_type;
    const int lane = lane_id();
    const int base = warp_id() * kWarpSize * Items;
    __syncwarp(); // the lanes have finished reading the buffer (load_tile)
    for (int k = 0; k < Items; ++k) exchange[padded<T>(base + lane * Items + k)] = items[k];
    __syncwarp();
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

// How many of the tile's elements exist: kTile, except in the last tile.
__device__ inline int elements_in_tile(long long n, long long start, int tile) {
    return n - start < tile ? static_cast<int>(n - start) : tile;
}

// At most 80 registers per thread (65536 per SM / 768 threads): 3 blocks of 256 threads stay
// resident on each SM, with their loads in flight. Left alone, the compiler takes up to 99
// registers for the tile loops and only 2 blocks fit; capped at 64 (4 blocks) it spills. Both
// measured slower on an H200 (README, "Speed on a GPU").
template <int BlockThreads>
inline constexpr int kMinBlocksPerSm = BlockThreads <= 768 ? 768 / BlockThreads : 1;

// One tile per block: the kernel of block_scan_tiles, and the middle step of scan().
template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    block_tiles_kernel(const typename Op::value_type* in, typename Op::value_type* out, int n,
                       ScanKind kind) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ T exchange[exchange_slots<T, BlockThreads, Items>()];

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const long long start = static_cast<long long>(blockIdx.x) * kTile;
    const int count = elements_in_tile(n, start, kTile);
    T items[Items];
    load_tile<Op>(in + start, count, items, exchange);

    // The block scan of the threads' totals gives each thread the combination of all elements
    // of the lower threads: the seed of its own sequential scan.
    T tile_total;
    const T before = block_exclusive_scan<Op, BlockThreads>(thread_reduce<Op>(items), tile_total);
    thread_scan<Op>(items, before, kind);

    store_tile<Op>(out + start, count, items, exchange);
}

// =============================================================================================
// Part 4: any n, by reduce-then-scan
// =============================================================================================

// Block b's run of tiles: [first, last). The runs split the tiles as evenly as possible.
struct TileRun {
    long long first, last;
};
__device__ inline TileRun tile_run(long long tiles) {
    const long long b = blockIdx.x, g = gridDim.x;
    return {b * tiles / g, (b + 1) * tiles / g};
}

// Step 1: block b writes the combination of all elements of its run to totals[b].
// It walks its run backwards, with loads that keep the lines in L2 (Reads::again): scan_kernel
// then starts each run where this kernel ended, on tiles still in L2 (README, "What makes the
// reference fast").
template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    reduce_kernel(const typename Op::value_type* in, long long n, typename Op::value_type* totals) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ T exchange[exchange_slots<T, BlockThreads, Items>()];

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const TileRun run = tile_run((n + kTile - 1) / kTile);
    T running = Op::identity(); // the combination of the tiles done so far
    for (long long tile = run.last - 1; tile >= run.first; --tile) {
        const long long start = tile * kTile;
        const int count = elements_in_tile(n, start, kTile);
        T items[Items];
        load_tile<Op, Items, Reads::again>(in + start, count, items, exchange);
        T tile_total;
        block_exclusive_scan<Op, BlockThreads>(thread_reduce<Op>(items), tile_total);
        running = Op::apply(tile_total, running); // this tile comes before those done so far
    }
    if (threadIdx.x == 0) totals[blockIdx.x] = running;
}

// The combination of values[0 .. count), in order, in every thread of the block: each thread
// combines a slice of consecutive values, and the block scan's total combines the slices.
template <class Op, int BlockThreads>
__device__ typename Op::value_type block_combine(const typename Op::value_type* values, int count) {
    using T = typename Op::value_type;
    const int per_thread = (count + BlockThreads - 1) / BlockThreads;
    const int first = static_cast<int>(threadIdx.x) * per_thread;
    const int last = first + per_thread < count ? first + per_thread : count;
    T slice = Op::identity();
    for (int i = first; i < last; ++i) slice = Op::apply(slice, values[i]);
    T total;
    block_exclusive_scan<Op, BlockThreads>(slice, total);
    __syncthreads(); // the block scan's shared memory is used again next
    return total;
}

// Step 3: block b scans its run, seeded with the combination of totals[0 .. b), the runs before
// it. Step 2 (the exclusive scan of the totals by one block, in a launch of its own) is folded in
// here: each block combines the few hundred totals before its run itself, one launch fewer per
// call (README, "What makes the reference fast").
template <class Op, int BlockThreads, int Items>
__global__ void __launch_bounds__(BlockThreads, kMinBlocksPerSm<BlockThreads>)
    scan_kernel(const typename Op::value_type* in, typename Op::value_type* out, long long n,
                ScanKind kind, const typename Op::value_type* totals) {
    using T = typename Op::value_type;
    constexpr int kTile = BlockThreads * Items;
    __shared__ T exchange[exchange_slots<T, BlockThreads, Items>()];

    wait_for_previous_grid(); // PDL (scanlab/pdl.h): first the kernel before must complete
    let_next_grid_start();

    const TileRun run = tile_run((n + kTile - 1) / kTile);
    // Everything before this block's first tile.
    T running = block_combine<Op, BlockThreads>(totals, static_cast<int>(blockIdx.x));
    for (long long tile = run.first; tile < run.last; ++tile) {
        const long long start = tile * kTile;
        const int count = elements_in_tile(n, start, kTile);
        T items[Items];
        load_tile<Op>(in + start, count, items, exchange);
        T tile_total;
        const T before =
            block_exclusive_scan<Op, BlockThreads>(thread_reduce<Op>(items), tile_total);
        thread_scan<Op>(items, Op::apply(running, before), kind);
        store_tile<Op>(out + start, count, items, exchange);
        running = Op::apply(running, tile_total);
    }
}

// ---- host side ------------------------------------------------------------------------------

// GIVEN: argument checks shared by the three entry points.
template <class T>
bool check_arguments(const char* what, const T* d_in, const T* d_out, long long n) {
    if (n < 0)
        throw std::invalid_argument(std::string(what) + ": n must be >= 0, got " +
                                    std::to_string(n));
    if (n == 0) return false; // nothing to do, and a launch of 0 blocks is an error
    if (d_in == nullptr) throw std::invalid_argument(std::string(what) + ": d_in is null");
    if (d_out == nullptr) throw std::invalid_argument(std::string(what) + ": d_out is null");
    return true;
}

template <class Op>
void warp_scan_groups(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                      ScanKind kind, WarpScanVariant variant) {
    if (!check_arguments("lab05::warp_scan_groups", d_in, d_out, n)) return;
    const int blocks = (n + kGroupBlockThreads - 1) / kGroupBlockThreads;
    warp_groups_kernel<Op><<<blocks, kGroupBlockThreads>>>(d_in, d_out, n, kind, variant);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op, int BlockThreads, int ItemsPerThread>
void block_scan_tiles(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                      ScanKind kind) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    if (!check_arguments("lab05::block_scan_tiles", d_in, d_out, n)) return;
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const int tiles = static_cast<int>((static_cast<long long>(n) + kTile - 1) / kTile);
    block_tiles_kernel<Op, BlockThreads, ItemsPerThread>
        <<<tiles, BlockThreads>>>(d_in, d_out, n, kind);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op, int BlockThreads, int ItemsPerThread>
void scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, std::int64_t n,
          ScanKind kind, Workspace* workspace) {
    static_assert(kValidTileShape<BlockThreads, ItemsPerThread>, "see kValidTileShape");
    using T = typename Op::value_type;
    if (!check_arguments("lab05::scan", d_in, d_out, n)) return;
    constexpr int kTile = BlockThreads * ItemsPerThread;
    const long long tiles = (n + kTile - 1) / kTile;

    // One tile: a single block scans it, nothing to combine.
    if (tiles == 1) {
        launch_after_previous(block_tiles_kernel<Op, BlockThreads, ItemsPerThread>, 1, BlockThreads,
                              d_in, d_out, static_cast<int>(n), kind);
        return;
    }

    // As many blocks as the GPU runs at once (more would only wait for a free SM), and no more
    // than one tile's worth, so that step 2 is a single block scan.
    int device = 0, sms = 0, per_sm = 0;
    SCANLAB_CUDA_CHECK(cudaGetDevice(&device));
    SCANLAB_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, device));
    SCANLAB_CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(
        &per_sm, scan_kernel<Op, BlockThreads, ItemsPerThread>, BlockThreads, 0));
    const int blocks = static_cast<int>(
        std::min<long long>({tiles, static_cast<long long>(std::max(1, sms * per_sm)), kTile}));

    Workspace local;
    Workspace& space = workspace != nullptr ? *workspace : local;
    T* totals = static_cast<T*>(space.reserve(sizeof(T) * blocks));

    // Steps 1 and 3; scan_kernel does step 2 itself (block_combine).
    launch_after_previous(reduce_kernel<Op, BlockThreads, ItemsPerThread>, blocks, BlockThreads,
                          d_in, n, totals);
    launch_after_previous(scan_kernel<Op, BlockThreads, ItemsPerThread>, blocks, BlockThreads, d_in,
                          d_out, n, kind, totals);
    // `local` frees its memory when it goes out of scope; cudaFree waits for the kernels first.
}

} // namespace lab05

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call these functions with these operators, types and
// tile shapes; since the templates are defined in this .cu file, each one is instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB05_INSTANTIATE(Op)                                                                      \
    template void lab05::warp_scan_groups<Op>(const Op::value_type*, Op::value_type*, int,         \
                                              lab05::ScanKind, lab05::WarpScanVariant);            \
    template void lab05::block_scan_tiles<Op, 128, 1>(const Op::value_type*, Op::value_type*, int, \
                                                      lab05::ScanKind);                            \
    template void lab05::block_scan_tiles<Op, 96, 3>(const Op::value_type*, Op::value_type*, int,  \
                                                     lab05::ScanKind);                             \
    template void lab05::scan<Op>(const Op::value_type*, Op::value_type*, std::int64_t,            \
                                  lab05::ScanKind, lab05::Workspace*);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB05_INSTANTIATE)

// The small tile shape, for the operators the tests call it with.
#define LAB05_INSTANTIATE_SMALL_TILES(Op)                                                          \
    template void lab05::scan<Op, 64, 3>(const Op::value_type*, Op::value_type*, std::int64_t,     \
                                         lab05::ScanKind, lab05::Workspace*);
LAB05_SMALL_TILE_OPERATORS(LAB05_INSTANTIATE_SMALL_TILES)

// Other tile shapes the tests use, for one operator each.
template void lab05::scan<scanlab::Sum<std::int32_t>, 32, 1>(const std::int32_t*, std::int32_t*,
                                                             std::int64_t, lab05::ScanKind,
                                                             lab05::Workspace*);
template void lab05::scan<scanlab::Affine<std::uint32_t>, 1024, 2>(const std::uint32_t*,
                                                                   std::uint32_t*, std::int64_t,
                                                                   lab05::ScanKind,
                                                                   lab05::Workspace*);
