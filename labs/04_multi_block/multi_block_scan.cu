// Lab 04: scan of any size with many thread blocks: scan-then-propagate and reduce-then-scan.
//
// Read README.md first. Fill in the parts marked TODO(student) and run the lab's tests. The
// block scan itself is given (it is lab 03's); this lab is about what happens between blocks.
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
    // TODO(student): the global indices of the two elements are tile_start() + t and
    //   tile_start() + t + blockDim.x (64-bit). Read each one only if it is < n, else use
    //   Op::identity(); store them to tile[padded_index<T>(t)] and
    //   tile[padded_index<T>(t + blockDim.x)], and return them in x0 and x1.
    (void)in; // delete these lines when you start
    (void)n;
    (void)tile;
    x0 = x1 = Op::identity();
}

// Pass 1 of reduce-then-scan: tile_totals[b] = the combination of tile b. Reads n elements,
// writes one value per tile.
template <class Op>
__global__ void reduce_tiles_kernel(const typename Op::value_type* in, std::int64_t n,
                                    typename Op::value_type* tile_totals) {
    // TODO(student): a shared array of tile_slots<T>() elements; load_tile; block_reduce;
    //   thread 0 writes the total to tile_totals[blockIdx.x].
    (void)in; // delete these lines when you start
    (void)n;
    (void)tile_totals;
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
    // TODO(student):
    //   1. A shared array of tile_slots<T>() elements; load_tile.
    //   2. The seed of the down-sweep: Op::identity(), or tile_prefix[blockIdx.x] if tile_prefix
    //      is not null (only thread 0's seed is used).
    //   3. block_exclusive_scan; thread 0 writes the returned total to tile_totals[blockIdx.x]
    //      if tile_totals is not null.
    //   4. Each thread writes its two results (index < n only): the exclusive value from the
    //      tile, or for the inclusive scan Op::apply(exclusive value, own element).
    (void)in; // delete these lines when you start
    (void)out;
    (void)n;
    (void)kind;
    (void)tile_prefix;
    (void)tile_totals;
}

// Pass 3 of scan-then-propagate: out[i] = tile_prefix[b] op out[i] for every element of tile b.
// Reads and writes n elements.
template <class Op>
__global__ void add_tile_prefix_kernel(typename Op::value_type* out, std::int64_t n,
                                       const typename Op::value_type* tile_prefix) {
    // TODO(student): each thread updates its two elements of tile blockIdx.x (index < n only),
    //   with the prefix of the earlier tiles on the LEFT of Op::apply.
    (void)out; // delete these lines when you start
    (void)n;
    (void)tile_prefix;
}

// ---- Host side -----------------------------------------------------------------------------

std::int64_t tiles_for(std::int64_t n, int tile) {
    return (n + tile - 1) / tile;
}

// Temporary elements every level of the recursion needs together.
std::int64_t temp_elements(std::int64_t n, int tile) {
    // TODO(student): one total per tile at every level that has more than one tile:
    //   tiles_for(n, tile), then tiles_for(that, tile), ... while it is > 1; add them up.
    (void)n; // delete these lines when you start
    (void)tile;
    return 0;
}

void check_arguments(const char* name, const void* d_in, const void* d_out, std::int64_t n,
                     int block_threads) {
    // TODO(student): throw std::invalid_argument, with a message that starts with `name` and
    //   says what is wrong, for: n < 0; block_threads not a power of two in
    //   [kMinBlockThreads, kMaxBlockThreads]; more tiles than a grid can have
    //   (std::numeric_limits<int>::max()); and, when n > 0, a null d_in or d_out.
    (void)name; // delete these lines when you start
    (void)d_in;
    (void)d_out;
    (void)n;
    (void)block_threads;
}

// Scans in[0..n) into out[0..n) by scan-then-propagate; n > 0. `temp` has
// temp_elements(n, 2 * threads) elements for this level and all the levels below it.
template <class Op>
void scan_then_propagate_level(const typename Op::value_type* in, typename Op::value_type* out,
                               std::int64_t n, ScanKind kind, int threads,
                               typename Op::value_type* temp) {
    // TODO(student):
    //   - One tile: launch scan_tiles_kernel on one block, without prefix or totals. Done.
    //   - Otherwise the first `tiles` elements of temp are this level's tile totals:
    //     1. scan_tiles_kernel on every tile, writing the totals;
    //     2. scan the totals in place, EXCLUSIVE, with this function, using the rest of temp;
    //     3. add_tile_prefix_kernel with the scanned totals.
    //   Check every launch with SCANLAB_CUDA_CHECK(cudaGetLastError()).
    (void)in; // delete these lines when you start
    (void)out;
    (void)n;
    (void)kind;
    (void)threads;
    (void)temp;
}

// The same for reduce-then-scan.
template <class Op>
void reduce_then_scan_level(const typename Op::value_type* in, typename Op::value_type* out,
                            std::int64_t n, ScanKind kind, int threads,
                            typename Op::value_type* temp) {
    // TODO(student): as above, but the passes are reduce_tiles_kernel (totals only), the
    //   recursive EXCLUSIVE scan of the totals, and scan_tiles_kernel seeded with the scanned
    //   totals (writing no totals).
    (void)in; // delete these lines when you start
    (void)out;
    (void)n;
    (void)kind;
    (void)threads;
    (void)temp;
}

template <class Op>
void scan_then_propagate(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                         std::int64_t n, ScanKind kind, int block_threads) {
    // TODO(student): check_arguments("lab04::scan_then_propagate", ...); return for n == 0;
    //   allocate temp_elements(n, 2 * block_threads) elements of temporary device memory with a
    //   scanlab::DeviceBuffer (it frees them even if something throws), then run
    //   scan_then_propagate_level on it.
    (void)d_in; // delete these lines when you start
    (void)d_out;
    (void)n;
    (void)kind;
    (void)block_threads;
}

template <class Op>
void reduce_then_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out,
                      std::int64_t n, ScanKind kind, int block_threads) {
    // TODO(student): the same with "lab04::reduce_then_scan" and reduce_then_scan_level.
    (void)d_in; // delete these lines when you start
    (void)d_out;
    (void)n;
    (void)kind;
    (void)block_threads;
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
