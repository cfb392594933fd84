// Hillis-Steele inclusive scan of 16 ints in one block, double-buffered as in lab 01: the
// visualizer's smallest example, the size of a lecture slide. log2(16) = 4 doubling steps.
//
//   simtcc -o hillis_steele_16 hillis_steele_16.cu
//   SIMT_TRACE=hillis_steele_16.trace.json ./hillis_steele_16
//   scanlab-view hillis_steele_16.trace.json
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 16;

__global__ void hillis_steele_scan(const int* in, int* out) {
    __shared__ int buffer[2][kN];
    const int i = threadIdx.x;
    int src = 0;
    buffer[src][i] = in[i];
    __syncthreads();
    for (int offset = 1; offset < kN; offset *= 2) {
        const int dst = 1 - src;
        if (i >= offset)
            buffer[dst][i] = buffer[src][i - offset] + buffer[src][i];
        else
            buffer[dst][i] = buffer[src][i];
        __syncthreads();
        src = dst;
    }
    out[i] = buffer[src][i];
}

int main() {
    int host_in[kN];
    int expected[kN];
    for (int i = 0, sum = 0; i < kN; ++i) {
        host_in[i] = (i * 7 + 3) % 10;
        sum += host_in[i];
        expected[i] = sum;
    }
    int* in = nullptr;
    int* out = nullptr;
    cudaMalloc(&in, sizeof host_in);
    cudaMalloc(&out, sizeof host_in);
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    hillis_steele_scan<<<1, kN>>>(in, out);
    int host_out[kN];
    cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    for (int i = 0; i < kN; ++i) {
        if (host_out[i] != expected[i]) {
            std::printf("hillis_steele_16: out[%d] = %d, expected %d\n", i, host_out[i],
                        expected[i]);
            return 1;
        }
    }
    std::printf("hillis_steele_16: OK\n");
    return 0;
}
