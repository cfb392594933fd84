// The emulator's global-memory workload: Hillis-Steele in global memory, double-buffered, one
// 1024-thread block per 1024-element slice, all blocks in one launch. Every step is a load of
// two words, a store and a barrier, all in device memory: the path the global-memory checks
// watch, where simt_bench's lab 01 workload stays in shared memory.
#include "global_hillis_steele.h"

namespace simt_bench {

__global__ void global_hillis_steele(int* a, int* b, int slice) {
    const int base = blockIdx.x * slice;
    const int i = threadIdx.x;
    int* src = a + base;
    int* dst = b + base;
    for (int offset = 1; offset < slice; offset *= 2) {
        dst[i] = i >= offset ? src[i - offset] + src[i] : src[i];
        __syncthreads(); // the block's stores of this step before anyone reads them
        int* t = src;
        src = dst;
        dst = t;
    }
}

bool run_global_hillis_steele(int* a, int* b, int blocks, int slice) {
    global_hillis_steele<<<blocks, slice>>>(a, b, slice);
    return cudaGetLastError() == cudaSuccess;
}

} // namespace simt_bench
