// The emulator's workload of parts (`simt_bench --workload=parts`): kernels that each add one
// thing to a thread's life, so that the cost of each part is the difference of two launches.
// Each block of 1024 threads works on its own slice of 1024 ints.
#include "thread_costs.h"

namespace simt_bench {

__global__ void empty_kernel() {}

// `steps` barrier steps, each with the part's work before its __syncthreads(): none, two loads,
// two loads and a store into the other buffer, which then swap (the global workload's step), or
// a store alone. The loads of part 1 end in one store, outside the steps.
__global__ void step_kernel(int* a, int* b, int steps, int part) {
    int* src = a + blockIdx.x * blockDim.x;
    int* dst = b + blockIdx.x * blockDim.x;
    const int i = threadIdx.x;
    int sum = 0;
    for (int k = 0; k < steps; ++k) {
        if (part == 1) sum += src[i] + src[i ^ 1];
        if (part == 2) {
            dst[i] = src[i] + src[i ^ 1];
            int* t = src;
            src = dst;
            dst = t;
        }
        if (part == 3) dst[i] = k;
        __syncthreads(); // the step's stores before the next step reads them
    }
    if (part == 1) dst[i] = sum;
}

bool run_empty(int blocks, int threads) {
    empty_kernel<<<blocks, threads>>>();
    return cudaGetLastError() == cudaSuccess;
}

bool run_steps(int* a, int* b, int blocks, int threads, int steps, StepPart part) {
    step_kernel<<<blocks, threads>>>(a, b, steps, static_cast<int>(part));
    return cudaGetLastError() == cudaSuccess;
}

} // namespace simt_bench
