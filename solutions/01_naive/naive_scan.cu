// Lab 01: naive (Hillis-Steele) scan in one thread block, double-buffered. SOLUTION.
#include "naive_scan.h"

#include <scanlab/cuda_check.h>
#include <scanlab/operators.h>

#include <cstdint>
#include <stdexcept>
#include <string>

namespace lab01 {

// Launched as <<<1, n>>>: one thread per element, so threadIdx.x < n for every thread.
template <class Op>
__global__ void naive_scan_kernel(const typename Op::value_type* in, typename Op::value_type* out,
                                  int n, ScanKind kind) {
    using T = typename Op::value_type;

    // Each step reads one half and writes the other. With a single array, thread i could read
    // element i - offset after its owner already overwrote it in the same step.
    __shared__ T buffer[2][kMaxN];

    const int i = threadIdx.x;
    int src = 0; // the half that holds the current values; the same in every thread

    // The exclusive scan is the inclusive scan of the input shifted right by one, identity first.
    if (kind == ScanKind::inclusive) {
        buffer[src][i] = in[i];
    } else {
        buffer[src][i] = (i > 0) ? in[i - 1] : Op::identity();
    }
    __syncthreads(); // all elements loaded before anyone reads a neighbour

    // Invariant: after the step with `offset`, buffer[src][i] combines the 2*offset elements
    // ending at i (or all of them from 0 when i < 2*offset).
    for (int offset = 1; offset < n; offset *= 2) {
        const int dst = 1 - src;
        if (i >= offset) {
            // The earlier partial result goes on the left: Op need not be commutative.
            buffer[dst][i] = Op::apply(buffer[src][i - offset], buffer[src][i]);
        } else {
            buffer[dst][i] = buffer[src][i]; // already complete: carry it over
        }
        // One barrier per step suffices: the next step writes `src`, which nobody reads again
        // after this barrier, and reads `dst`, which everybody has finished writing.
        __syncthreads();
        src = dst;
    }

    out[i] = buffer[src][i];
}

template <class Op>
void naive_scan(const typename Op::value_type* d_in, typename Op::value_type* d_out, int n,
                ScanKind kind) {
    if (n < 0)
        throw std::invalid_argument("lab01::naive_scan: n must be >= 0, got " + std::to_string(n));
    if (n > kMaxN)
        throw std::invalid_argument("lab01::naive_scan: n = " + std::to_string(n) +
                                    " is larger than kMaxN = " + std::to_string(kMaxN) +
                                    ", the most one thread block scans in this lab");
    if (n == 0) return; // a launch with 0 threads is an error; there is nothing to do anyway
    if (d_in == nullptr) throw std::invalid_argument("lab01::naive_scan: d_in is null");
    if (d_out == nullptr) throw std::invalid_argument("lab01::naive_scan: d_out is null");

    naive_scan_kernel<Op><<<1, n>>>(d_in, d_out, n, kind);
    SCANLAB_CUDA_CHECK(cudaGetLastError()); // reports a bad launch configuration
}

} // namespace lab01

// ---------------------------------------------------------------------------------------------
// DO NOT EDIT BELOW THIS LINE. The tests call naive_scan with these operators and types;
// since the template is defined in this .cu file, each one has to be instantiated here.
// ---------------------------------------------------------------------------------------------
#define LAB01_INSTANTIATE(Op)                                                                      \
    template void lab01::naive_scan<Op>(const Op::value_type*, Op::value_type*, int,               \
                                        lab01::ScanKind);

#include <scanlab/graded_operators.h> // the operators and types the tests use

SCANLAB_FOR_EACH_GRADED_OPERATOR(LAB01_INSTANTIATE)
