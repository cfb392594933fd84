// shared_overrun: one past the end of the first of two __shared__ arrays. On a GPU the write
// silently lands in `second`; the simt emulator ends the launch with a report naming the array,
// the element and the thread (docs/emulator.md quotes it). Build it with simtcc (docs/simtcc.md).
#include <cstdio>

#include <cuda_runtime.h>

constexpr int kThreads = 64;

__global__ void write_past_first_of_two(int* out) {
    __shared__ int first[kThreads];
    __shared__ int second[kThreads];
    const int t = threadIdx.x;
    first[t] = t;
    second[t] = -t;
    __syncthreads();
    first[t + 1] = 2 * t; // thread 63 writes first[64]: past the end of `first`
    __syncthreads();
    out[t] = second[t];
}

int main() {
    int* out = nullptr;
    cudaMalloc(&out, kThreads * sizeof(int));
    write_past_first_of_two<<<1, kThreads>>>(out);
    const cudaError_t status = cudaDeviceSynchronize();
    std::printf("shared_overrun: %s\n", cudaGetErrorName(status));
    cudaFree(out);
    return status == cudaSuccess ? 1 : 0; // the launch is expected to fail
}
