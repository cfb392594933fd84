// A block-wide sum whose __shared__ storage, loop and kernel live in a header, as in course code
// and CUDA libraries: the simt rewriter follows #include "..." into such headers
// (docs/simtcc.md). Used by cuda_syntax_test.cu.
#pragma once

template <int kThreads>
__device__ int block_sum_in_header(int value) {
    __shared__ int partial[kThreads], total;
    partial[threadIdx.x] = value;
    __syncthreads();
    if (threadIdx.x == 0) {
        int sum = 0;
        for (int i = 0; i < kThreads; ++i) sum += partial[i];
        total = sum;
    }
    __syncthreads();
    return total;
}

template <int kThreads>
__global__ void block_sums_in_header(const int* in, int* sums) {
    const int sum = block_sum_in_header<kThreads>(in[blockIdx.x * kThreads + threadIdx.x]);
    if (threadIdx.x == 0) sums[blockIdx.x] = sum;
}
