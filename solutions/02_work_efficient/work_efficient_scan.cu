// Lab 02: work-efficient (Blelloch) scan in one thread block, two elements per thread. SOLUTION.
#include "work_efficient_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab02 {

// Launched as <<<1, m / 2>>>, where m is the number of leaves of the tree: the smallest power of
// two >= n, and at least 2. Thread t owns the elements t and t + m/2.
template <class Op>
__global__ void work_efficient_scan_kernel(const typename Op::value_type* in,
                                           typename Op::value_type* out, int n, ScanKind kind) {
    using T = typename Op::value_type;

    // One array of leaves; the up-sweep and down-sweep work on it in place.
    __shared__ T tree[kMaxN];

    const int t = threadIdx.x;
    const int half = blockDim.x; // m / 2
    const int m = 2 * half;      // leaves: a power of two >= n

    // Load two elements m/2 apart, so that neighbouring threads touch neighbouring addresses.
    // Leaves past the end of the input hold the identity: they change no sum, and nothing is
    // read from in[n] or beyond.
    const int i0 = t;
    const int i1 = t + half;
    const T x0 = (i0 < n) ? in[i0] : Op::identity();
    const T x1 = (i1 < n) ? in[i1] : Op::identity();
    tree[i0] = x0;
    tree[i1] = x1;

    // Up-sweep (reduce). At distance `stride` a node combines the two subtrees of `stride`
    // leaves each that end at `left` and at `right`, and keeps the result at `right`.
    // Thread t handles the t-th pair of the level, so the busy threads are always 0, 1, 2, ...:
    // whole warps drop out as the tree narrows, instead of every warp keeping a few busy lanes.
    // A level has m / (2 * stride) pairs; halving `pairs` as `stride` doubles spares every
    // thread an integer division per level (dozens of instructions on a GPU).
    for (int stride = 1, pairs = m / 2; pairs > 0; stride *= 2, pairs /= 2) {
        __syncthreads(); // the level below (or the load) is complete
        if (t < pairs) {
            const int right = (2 * t + 2) * stride - 1;
            const int left = right - stride;
            tree[right] = Op::apply(tree[left], tree[right]); // left subtree is earlier
        }
    }

    // The root, tree[m-1], now holds the total. Nothing comes before the whole array, so its
    // prefix is the identity: replace the root by it, then push prefixes down the same tree.
    // No barrier is needed first: thread 0 did the last up-sweep step, the root, itself.
    if (t == 0) tree[m - 1] = Op::identity();

    // Down-sweep. Each node at `right` holds the prefix of everything before its subtree. Its
    // left child gets that prefix unchanged; its right child gets the prefix followed by the
    // left subtree's total, which the up-sweep left at `left`.
    for (int stride = m / 2, pairs = 1; stride >= 1; stride /= 2, pairs *= 2) {
        __syncthreads(); // the level above is complete
        if (t < pairs) {
            const int right = (2 * t + 2) * stride - 1;
            const int left = right - stride;
            // Both values into registers once: the compiler need not read tree[right] again
            // after writing tree[left] (it cannot prove the two differ).
            const T left_total = tree[left];
            const T prefix = tree[right];
            tree[left] = prefix;
            tree[right] = Op::apply(prefix, left_total); // prefix first: order matters
        }
    }
    __syncthreads(); // every leaf holds its exclusive prefix

    // The inclusive scan adds each thread's own element, which it still has in a register.
    if (i0 < n) out[i0] = (kind == ScanKind::inclusive) ? Op::apply(tree[i0], x0) : tree[i0];
    if (i1 < n) out[i1] = (kind == ScanKind::inclusive) ? Op::apply(tree[i1], x1) : tree[i1];
}

template <class Op>
void work_efficient_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                         ScanKind kind) {
    if (n < 0)
        throw std::invalid_argument("lab02::work_efficient_scan: n must be >= 0, got " +
                                    std::to_string(n));
    if (n > kMaxN)
        throw std::invalid_argument("lab02::work_efficient_scan: n = " + std::to_string(n) +
                                    " is larger than kMaxN = " + std::to_string(kMaxN) +
                                    ", the most one thread block scans in this lab");
    if (n == 0) return; // a launch with 0 threads is an error; there is nothing to do anyway
    if (d_in == nullptr) throw std::invalid_argument("lab02::work_efficient_scan: d_in is null");
    if (d_out == nullptr) throw std::invalid_argument("lab02::work_efficient_scan: d_out is null");

    // The tree needs a power of two of leaves; two per thread.
    int leaves = 2;
    while (leaves < n) leaves *= 2;

    work_efficient_scan_kernel<Op><<<1, leaves / 2>>>(d_in, d_out, n, kind);
    SCANLAB_CUDA_CHECK(cudaGetLastError()); // reports a bad launch configuration
}

} // namespace lab02

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call work_efficient_scan with these operators and
// types; since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB02_INSTANTIATE(Op)                                                                      \
    template void lab02::work_efficient_scan<Op>(const Op::value_type*, Op::value_type*, int,      \
                                                 lab02::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB02_INSTANTIATE)
