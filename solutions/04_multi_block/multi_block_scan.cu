// Lab 04: scan of any size with many thread blocks: scan-then-propagate and reduce-then-scan.
// SOLUTION.
#include "multi_block_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace lab04 {

// =============================================================================================
// GIVEN: the block scan of lab 03 (padded Blelloch tree), as device functions on a tile that is
// already in shared memory. A tile has m = 2 * blockDim.x elements; element i of the tile lives
// at tile[padded_index<T>(i)].
// =============================================================================================

// log2 of how many elements of T fill one row of the 32 four-byte banks (128 bytes).
template <class T>
__host__ __device__ constexpr int log2_elements_per_row() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the labs scan 4- and 8-byte types");
    return sizeof(T) == 8 ? 4 : 5;
}

// The conflict-free slot of element i (lab 03).
template <class T>
__host__ __device__ constexpr int padded_index(int i) {
    constexpr int log_row = log2_elements_per_row<T>();
    return i + (i >> log_row) + (i >> (2 * log_row));
}

// Slots a shared array needs for the largest tile, kMaxTile elements.
template <class T>
__host__ __device__ constexpr int tile_slots() {
    return padded_index<T>(kMaxTile - 1) + 1;
}

// The up-sweep of lab 02/03. Starts with a barrier (so the caller's stores to the tile are
// visible) and ends with one: afterwards the root, element m - 1, holds the tile's total.
// `pairs` halves as `stride` doubles, so no thread divides at any level (lab 02's README).
template <class Op>
__device__ void up_sweep(typename Op::value_type* tile) {
    const int t = threadIdx.x;
    const int m = 2 * blockDim.x;
    for (int stride = 1, pairs = m / 2; pairs > 0; stride *= 2, pairs /= 2) {
        __syncthreads();
        if (t < pairs) {
            const int right = padded_index<typename Op::value_type>((2 * t + 2) * stride - 1);
            const int left = padded_index<typename Op::value_type>((2 * t + 1) * stride - 1);
            tile[right] = Op::apply(tile[left], tile[right]);
        }
    }
    __syncthreads();
}

// Returns the combination of the tile's m elements, in every thread. Every thread of the block
// must call it, after storing its elements to the tile. The tile is left holding partial totals,
// and every thread reads its root: a barrier is needed before anyone writes to it again.
template <class Op>
__device__ typename Op::value_type block_reduce(typename Op::value_type* tile) {
    up_sweep<Op>(tile);
    return tile[padded_index<typename Op::value_type>(2 * blockDim.x - 1)];
}

// Scans the tile in place. Every thread of the block must call it, after storing its elements to
// the tile. Afterwards (it ends with a barrier) tile[padded_index(i)] holds
//     seed op (exclusive prefix of element i within the tile),
// that is, the down-sweep starts from `seed` at the root instead of the identity. Pass
// Op::identity() for a plain exclusive scan of the tile, or the combination of everything before
// the tile to continue a scan across tiles. Returns the total of the tile alone, in every thread.
// Only thread 0's `seed` is used.
template <class Op>
__device__ typename Op::value_type block_exclusive_scan(typename Op::value_type* tile,
                                                        typename Op::value_type seed) {
    using T = typename Op::value_type;
    const int t = threadIdx.x;
    const int m = 2 * blockDim.x;
    const int root = padded_index<T>(m - 1);

    up_sweep<Op>(tile);
    const T total = tile[root];
    __syncthreads(); // everyone has read the total before thread 0 replaces it
    if (t == 0) tile[root] = seed;

    for (int stride = m / 2, pairs = 1; stride >= 1; stride /= 2, pairs *= 2) {
        __syncthreads();
        if (t < pairs) {
            const int right = padded_index<T>((2 * t + 2) * stride - 1);
            const int left = padded_index<T>((2 * t + 1) * stride - 1);
            const T left_total = tile[left];
            tile[left] = tile[right];
            tile[right] = Op::apply(tile[right], left_total);
        }
    }
    __syncthreads();
    return total;
}

// =============================================================================================
// The multi-block scan.
// =============================================================================================

// Thread t of block b owns the elements t and t + blockDim.x of tile b, which starts at
// b * 2 * blockDim.x. Global indices are 64-bit: 2^31 elements are only 8 GiB of int32.
__device__ inline std::int64_t tile_start() {
    return static_cast<std::int64_t>(blockIdx.x) * (2 * blockDim.x);
}

// Loads this thread's two elements of its tile into shared memory and returns them in x0, x1.
// Past the end of the input the tile holds the identity; nothing is read from in[n] or beyond.
template <class Op>
__device__ void load_tile(const typename Op::value_type* in, std::int64_t n,
                          typename Op::value_type* tile, typename Op::value_type& x0,
                          typename Op::value_type& x1) {
    using T = typename Op::value_type;
    const int t = threadIdx.x;
    const std::int64_t i0 = tile_start() + t;
    const std::int64_t i1 = i0 + blockDim.x;
    x0 = (i0 < n) ? in[i0] : Op::identity();
    x1 = (i1 < n) ? in[i1] : Op::identity();
    tile[padded_index<T>(t)] = x0;
    tile[padded_index<T>(t + blockDim.x)] = x1;
}

// Pass 1 of reduce-then-scan: tile_totals[b] = the combination of tile b. Reads n elements,
// writes one value per tile.
template <class Op>
__global__ void reduce_tiles_kernel(const typename Op::value_type* in, std::int64_t n,
                                    typename Op::value_type* tile_totals) {
    using T = typename Op::value_type;
    __shared__ T tile[tile_slots<T>()];

    T x0, x1;
    load_tile<Op>(in, n, tile, x0, x1);
    const T total = block_reduce<Op>(tile);
    if (threadIdx.x == 0) tile_totals[blockIdx.x] = total;
}

// Scans every tile on its own and writes the results to out (in place is fine: each block
// reads its whole tile before it writes any of it).
//   tile_prefix: if not null, tile_prefix[b] is the combination of everything before tile b,
//                and block b continues the scan from it (reduce-then-scan, pass 3).
//   tile_totals: if not null, block b writes its tile's total to tile_totals[b]
//                (scan-then-propagate, pass 1).
template <class Op>
__global__ void scan_tiles_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  std::int64_t n, ScanKind kind,
                                  const typename Op::value_type* tile_prefix,
                                  typename Op::value_type* tile_totals) {
    using T = typename Op::value_type;
    __shared__ T tile[tile_slots<T>()];

    T x0, x1;
    load_tile<Op>(in, n, tile, x0, x1);

    // Only thread 0's seed is used, so only thread 0 reads the prefix from global memory.
    T seed = Op::identity();
    if (tile_prefix != nullptr && threadIdx.x == 0) seed = tile_prefix[blockIdx.x];
    const T total = block_exclusive_scan<Op>(tile, seed);
    if (tile_totals != nullptr && threadIdx.x == 0) tile_totals[blockIdx.x] = total;

    const int t = threadIdx.x;
    const std::int64_t i0 = tile_start() + t;
    const std::int64_t i1 = i0 + blockDim.x;
    const T y0 = tile[padded_index<T>(t)];
    const T y1 = tile[padded_index<T>(t + blockDim.x)];
    if (i0 < n) out[i0] = (kind == ScanKind::inclusive) ? Op::apply(y0, x0) : y0;
    if (i1 < n) out[i1] = (kind == ScanKind::inclusive) ? Op::apply(y1, x1) : y1;
}

// Pass 3 of scan-then-propagate: out[i] = tile_prefix[b] op out[i] for every element of tile b.
// Reads and writes n elements. Tile 0's prefix is the identity; launching one block fewer (and
// using blockIdx.x + 1) would skip it, at the price of one more thing to get right.
template <class Op>
__global__ void add_tile_prefix_kernel(typename Op::value_type* out, std::int64_t n,
                                       const typename Op::value_type* tile_prefix) {
    using T = typename Op::value_type;
    const T prefix = tile_prefix[blockIdx.x]; // the same address in every thread: one load
    const std::int64_t i0 = tile_start() + threadIdx.x;
    const std::int64_t i1 = i0 + blockDim.x;
    if (i0 < n) out[i0] = Op::apply(prefix, out[i0]); // earlier tiles on the left
    if (i1 < n) out[i1] = Op::apply(prefix, out[i1]);
}

// ---- Host side -----------------------------------------------------------------------------

std::int64_t tiles_for(std::int64_t n, int tile) {
    return (n + tile - 1) / tile;
}

// Temporary elements every level of the recursion needs together: one total per tile at each
// level that has more than one tile. (n / tile) * (1 + 1/tile + 1/tile^2 + ...): a little more
// than n / tile.
std::int64_t temp_elements(std::int64_t n, int tile) {
    std::int64_t total = 0;
    for (std::int64_t tiles = tiles_for(n, tile); tiles > 1; tiles = tiles_for(tiles, tile))
        total += tiles;
    return total;
}

void check_arguments(const char* name, const void* d_in, const void* d_out, std::int64_t n,
                     int block_threads) {
    const std::string who = name;
    if (n < 0) throw std::invalid_argument(who + ": n must be >= 0, got " + std::to_string(n));
    if (block_threads < kMinBlockThreads || block_threads > kMaxBlockThreads ||
        (block_threads & (block_threads - 1)) != 0)
        throw std::invalid_argument(who + ": block_threads must be a power of two from " +
                                    std::to_string(kMinBlockThreads) + " to " +
                                    std::to_string(kMaxBlockThreads) + ", got " +
                                    std::to_string(block_threads));
    if (tiles_for(n, 2 * block_threads) > std::numeric_limits<int>::max())
        throw std::invalid_argument(who + ": n = " + std::to_string(n) +
                                    " needs more blocks than one grid can have");
    if (n > 0 && d_in == nullptr) throw std::invalid_argument(who + ": d_in is null");
    if (n > 0 && d_out == nullptr) throw std::invalid_argument(who + ": d_out is null");
}

// Scans in[0..n) into out[0..n) by scan-then-propagate; n > 0. `temp` has
// temp_elements(n, 2 * threads) elements for this level and all the levels below it.
template <class Op>
void scan_then_propagate_level(const typename Op::value_type* in, typename Op::value_type* out,
                               std::int64_t n, ScanKind kind, int threads,
                               typename Op::value_type* temp) {
    const std::int64_t tiles = tiles_for(n, 2 * threads);
    const auto grid = static_cast<unsigned>(tiles);
    if (tiles == 1) { // one tile: a block scan is the whole answer
        scan_tiles_kernel<Op><<<1, threads>>>(in, out, n, kind, nullptr, nullptr);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
        return;
    }
    typename Op::value_type* totals = temp; // this level's part; the rest is for deeper ones

    scan_tiles_kernel<Op><<<grid, threads>>>(in, out, n, kind, nullptr, totals);
    SCANLAB_CUDA_CHECK(cudaGetLastError());

    // Tile b needs the combination of the totals of tiles 0..b-1: the EXCLUSIVE scan of the
    // totals, computed in place by the same algorithm.
    scan_then_propagate_level<Op>(totals, totals, tiles, ScanKind::exclusive, threads,
                                  temp + tiles);

    add_tile_prefix_kernel<Op><<<grid, threads>>>(out, n, totals);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

// The same for reduce-then-scan.
template <class Op>
void reduce_then_scan_level(const typename Op::value_type* in, typename Op::value_type* out,
                            std::int64_t n, ScanKind kind, int threads,
                            typename Op::value_type* temp) {
    const std::int64_t tiles = tiles_for(n, 2 * threads);
    const auto grid = static_cast<unsigned>(tiles);
    if (tiles == 1) {
        scan_tiles_kernel<Op><<<1, threads>>>(in, out, n, kind, nullptr, nullptr);
        SCANLAB_CUDA_CHECK(cudaGetLastError());
        return;
    }
    typename Op::value_type* totals = temp;

    reduce_tiles_kernel<Op><<<grid, threads>>>(in, n, totals);
    SCANLAB_CUDA_CHECK(cudaGetLastError());

    reduce_then_scan_level<Op>(totals, totals, tiles, ScanKind::exclusive, threads, temp + tiles);

    scan_tiles_kernel<Op><<<grid, threads>>>(in, out, n, kind, totals, nullptr);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op>
void scan_then_propagate(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                         std::int64_t n, ScanKind kind, int block_threads) {
    check_arguments("lab04::scan_then_propagate", d_in, d_out, n, block_threads);
    if (n == 0) return;
    // One allocation for all levels; DeviceBuffer frees it when this function returns or
    // throws. (cudaFree waits until the GPU no longer uses the memory.)
    scanlab::DeviceBuffer<typename Op::value_type> temp(
        static_cast<std::size_t>(temp_elements(n, 2 * block_threads)));
    scan_then_propagate_level<Op>(d_in, d_out, n, kind, block_threads, temp.data());
}

template <class Op>
void reduce_then_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                      std::int64_t n, ScanKind kind, int block_threads) {
    check_arguments("lab04::reduce_then_scan", d_in, d_out, n, block_threads);
    if (n == 0) return;
    scanlab::DeviceBuffer<typename Op::value_type> temp(
        static_cast<std::size_t>(temp_elements(n, 2 * block_threads)));
    reduce_then_scan_level<Op>(d_in, d_out, n, kind, block_threads, temp.data());
}

} // namespace lab04

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call both scans with these operators and types; since
// the templates are defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB04_INSTANTIATE(Op)                                                                      \
    template void lab04::scan_then_propagate<Op>(const Op::value_type*, Op::value_type*,           \
                                                 std::int64_t, lab04::ScanKind, int);              \
    template void lab04::reduce_then_scan<Op>(const Op::value_type*, Op::value_type*,              \
                                              std::int64_t, lab04::ScanKind, int);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB04_INSTANTIATE)
