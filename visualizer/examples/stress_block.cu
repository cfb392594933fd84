// A large trace for measuring the viewer: one block of 1024 threads scans 2048 ints twelve times
// (Hillis-Steele, double-buffered, two elements per thread): 157 steps and about 27,000 warp
// instructions in a single block, 860,000 lanes.
//
//   simtcc -O1 -o stress_block stress_block.cu
//   SIMT_TRACE=stress.trace.json ./stress_block
//   xvfb-run -a scanlab-view stress.trace.json --benchmark-frames 150 --size 1500x920
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 2048;
constexpr int kThreads = 1024;

__global__ void repeated_scans(const int* in, int* out, int repeats) {
    __shared__ int buffer[2][kN];
    const int t = threadIdx.x;
    for (int r = 0; r < repeats; ++r) {
        int src = 0;
        for (int i = t; i < kN; i += kThreads) buffer[0][i] = in[i] + r;
        __syncthreads();
        for (int offset = 1; offset < kN; offset *= 2) {
            for (int i = t; i < kN; i += kThreads)
                buffer[1 - src][i] =
                    i >= offset ? buffer[src][i - offset] + buffer[src][i] : buffer[src][i];
            __syncthreads();
            src = 1 - src;
        }
        for (int i = t; i < kN; i += kThreads) out[i] = buffer[src][i];
        __syncthreads();
    }
}

int main() {
    int* in = nullptr;
    int* out = nullptr;
    cudaMalloc(&in, kN * sizeof(int));
    cudaMalloc(&out, kN * sizeof(int));
    cudaMemset(in, 0, kN * sizeof(int));
    repeated_scans<<<1, kThreads>>>(in, out, 12);
    int last = -1;
    cudaMemcpy(&last, out + kN - 1, sizeof last, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    // The inputs are all 0 and the last repeat adds 11 to each: the last prefix is 11 * kN.
    const bool ok = last == 11 * kN;
    std::printf("stress_block: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
