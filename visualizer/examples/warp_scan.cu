// Inclusive scan of 64 ints by two warps with register shuffles, as in lab 05: each lane adds
// the value of the lane `offset` below it (__shfl_up_sync) for offset = 1, 2, 4, 8, 16; no
// shared memory at all. The trace's shuffles (format 3) carry the register dataflow the viewer's
// Shuffles view draws: the doubling picture of Hillis-Steele, in registers.
//
//   simtcc -o warp_scan warp_scan.cu
//   SIMT_TRACE=warp_scan.trace.json ./warp_scan
//   scanlab-view warp_scan.trace.json --view shuffles
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 64;
constexpr unsigned kFullMask = 0xffffffffu;

__global__ void warp_scan(const int* in, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int lane = threadIdx.x % 32;
    int x = in[i];
    for (int offset = 1; offset < 32; offset *= 2) {
        const int below = __shfl_up_sync(kFullMask, x, offset);
        if (lane >= offset) x += below;
    }
    out[i] = x; // each warp's 32 elements scanned on their own
}

int main() {
    int host_in[kN], expected[kN], host_out[kN];
    for (int i = 0, sum = 0; i < kN; ++i) {
        host_in[i] = (i * 5 + 2) % 9;
        sum = i % 32 == 0 ? host_in[i] : sum + host_in[i];
        expected[i] = sum;
    }
    int* in = nullptr;
    int* out = nullptr;
    cudaMalloc(&in, sizeof host_in);
    cudaMalloc(&out, sizeof host_out);
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    warp_scan<<<1, kN>>>(in, out);
    cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    for (int i = 0; i < kN; ++i)
        if (host_out[i] != expected[i]) {
            std::printf("warp_scan: out[%d] = %d, expected %d\n", i, host_out[i], expected[i]);
            return 1;
        }
    std::printf("warp_scan: %d elements OK\n", kN);
    return 0;
}
