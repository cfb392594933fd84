// Lab 03: the work-efficient scan of lab 02 with shared memory padded against bank conflicts.
// SOLUTION.
#include "conflict_free_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab03 {

// ---- Where element i of the tree lives in shared memory -------------------------------------

// One row of the banks is kNumBanks * kBankBytes = 128 bytes. This returns log2 of how many
// elements of T fill it: 32 four-byte elements, or 16 eight-byte ones (an 8-byte element spans
// two banks, and the hardware serves a warp's 8-byte accesses half a warp at a time).
template <class T>
__host__ __device__ constexpr int log2_elements_per_row() {
    static_assert(sizeof(T) == 4 || sizeof(T) == 8, "the labs scan 4- and 8-byte types");
    return sizeof(T) == 8 ? kLogNumBanks - 1 : kLogNumBanks;
}

// The padded slot of element i: one unused slot after every row of elements, so that each row
// starts one bank further on than the one before; and one more after every row of rows, for the
// largest strides, where the first term alone makes the rows line up again.
template <class T>
__host__ __device__ constexpr int padded_index(int i) {
    constexpr int log_row = log2_elements_per_row<T>();
    return i + (i >> log_row) + (i >> (2 * log_row));
}

// The kernel reaches shared memory only through slot(): the padded slot, or i itself.
template <class T, bool kPadded>
__host__ __device__ constexpr int slot(int i) {
    if constexpr (kPadded)
        return padded_index<T>(i);
    else
        return i;
}

// How many slots the tree of kMaxN elements occupies: the slot of the last element, plus one.
template <class T, bool kPadded>
__host__ __device__ constexpr int shared_slots() {
    return slot<T, kPadded>(kMaxN - 1) + 1;
}

// ---- The scan ------------------------------------------------------------------------------

// Lab 02's kernel, with every shared index i replaced by slot(i). Launched as <<<1, m / 2>>>,
// where m is the smallest power of two >= n, and at least 2. Thread t owns elements t, t + m/2.
template <class Op, bool kPadded>
__global__ void block_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  int n, ScanKind kind) {
    using T = typename Op::value_type;

    __shared__ T tree[shared_slots<T, kPadded>()];

    const int t = threadIdx.x;
    const int half = blockDim.x;
    const int m = 2 * half;

    // Neighbouring threads, neighbouring elements: conflict-free with or without padding.
    const int i0 = t;
    const int i1 = t + half;
    const T x0 = (i0 < n) ? in[i0] : Op::identity();
    const T x1 = (i1 < n) ? in[i1] : Op::identity();
    tree[slot<T, kPadded>(i0)] = x0;
    tree[slot<T, kPadded>(i1)] = x1;

    // Up-sweep. Neighbouring threads touch elements 2*stride apart: without padding that is a
    // (2*stride)-way bank conflict, up to 32-way.
    for (int stride = 1, pairs = m / 2; pairs > 0; stride *= 2, pairs /= 2) {
        __syncthreads();
        if (t < pairs) {
            const int right = slot<T, kPadded>((2 * t + 2) * stride - 1);
            const int left = slot<T, kPadded>((2 * t + 1) * stride - 1);
            tree[right] = Op::apply(tree[left], tree[right]);
        }
    }

    // Thread 0 computed the root in the last up-sweep level, so it needs no barrier here.
    if (t == 0) tree[slot<T, kPadded>(m - 1)] = Op::identity();

    // Down-sweep: the same pairs, from the root down.
    for (int stride = m / 2, pairs = 1; stride >= 1; stride /= 2, pairs *= 2) {
        __syncthreads();
        if (t < pairs) {
            const int right = slot<T, kPadded>((2 * t + 2) * stride - 1);
            const int left = slot<T, kPadded>((2 * t + 1) * stride - 1);
            // Both values into registers once: the compiler need not read tree[right] again
            // after writing tree[left] (it cannot prove the two differ).
            const T left_total = tree[left];
            const T prefix = tree[right];
            tree[left] = prefix;
            tree[right] = Op::apply(prefix, left_total);
        }
    }
    __syncthreads();

    const T prefix0 = tree[slot<T, kPadded>(i0)];
    const T prefix1 = tree[slot<T, kPadded>(i1)];
    if (i0 < n) out[i0] = (kind == ScanKind::inclusive) ? Op::apply(prefix0, x0) : prefix0;
    if (i1 < n) out[i1] = (kind == ScanKind::inclusive) ? Op::apply(prefix1, x1) : prefix1;
}

// Checks the arguments and launches the kernel; `name` is for the error messages.
template <class Op, bool kPadded>
void run_scan(const char* name, const typename Op::value_type* d_in, typename Op::value_type* d_out,
              int n, ScanKind kind) {
    if (n < 0)
        throw std::invalid_argument(std::string(name) + ": n must be >= 0, got " +
                                    std::to_string(n));
    if (n > kMaxN)
        throw std::invalid_argument(std::string(name) + ": n = " + std::to_string(n) +
                                    " is larger than kMaxN = " + std::to_string(kMaxN) +
                                    ", the most one thread block scans in this lab");
    if (n == 0) return; // a launch with 0 threads is an error; there is nothing to do anyway
    if (d_in == nullptr) throw std::invalid_argument(std::string(name) + ": d_in is null");
    if (d_out == nullptr) throw std::invalid_argument(std::string(name) + ": d_out is null");

    int leaves = 2;
    while (leaves < n) leaves *= 2;

    block_scan_kernel<Op, kPadded><<<1, leaves / 2>>>(d_in, d_out, n, kind);
    SCANLAB_CUDA_CHECK(cudaGetLastError());
}

template <class Op>
void conflict_free_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                        ScanKind kind) {
    run_scan<Op, true>("lab03::conflict_free_scan", d_in, d_out, n, kind);
}

template <class Op>
void scan_unpadded(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                   ScanKind kind) {
    run_scan<Op, false>("lab03::scan_unpadded", d_in, d_out, n, kind);
}

} // namespace lab03

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call both scans with these operators and types; since
// the templates are defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB03_INSTANTIATE(Op)                                                                      \
    template void lab03::conflict_free_scan<Op>(const Op::value_type*, Op::value_type*, int,       \
                                                lab03::ScanKind);                                  \
    template void lab03::scan_unpadded<Op>(const Op::value_type*, Op::value_type*, int,            \
                                           lab03::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB03_INSTANTIATE)
