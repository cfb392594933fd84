// tile_scan: lab 05's shuffle warp scan written with cooperative groups, twice: by hand over a
// thread_block_tile<32>, and with cg::inclusive_scan. Standalone CUDA C++: it builds with nvcc
// for a GPU and with simtcc for the simt emulator, and checks both kernels against a scan on the
// host (random input, a new seed each run). Lab 05's lesson quotes the kernels.
#include <cooperative_groups.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        const cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                                \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

// lesson: warp scan with tiles
// Each warp scans its 32 values (inclusive sum), as lab 05's shuffle scan does.
__global__ void warp_scan_tile(const int* in, int* out) {
    const cg::thread_block_tile<32> warp = cg::tiled_partition<32>(cg::this_thread_block());
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    int x = in[i];
    for (unsigned offset = 1; offset < warp.size(); offset *= 2) {
        const int earlier = warp.shfl_up(x, offset); // every lane, always
        if (warp.thread_rank() >= offset) x = earlier + x;
    }
    out[i] = x;
}

// The library's version of the same scan.
__global__ void warp_scan_library(const int* in, int* out) {
    const auto warp = cg::tiled_partition<32>(cg::this_thread_block());
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = cg::inclusive_scan(warp, in[i]); // cg::plus<int> by default
}
// end lesson

int main() {
    int devices = 0;
    if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
        std::printf("tile_scan: no CUDA device, skipped\n");
        return 77; // ctest's skip code
    }
    constexpr int kBlocks = 8;
    constexpr int kThreads = 128;
    constexpr int n = kBlocks * kThreads;
    const unsigned seed = std::random_device{}();
    std::mt19937 rng(seed);
    std::uniform_int_distribution<int> pick(-1000, 1000);
    std::vector<int> in(n);
    for (int& x : in) x = pick(rng);

    int *d_in, *d_out;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice));

    bool ok = true;
    for (int version = 0; version < 2; ++version) {
        CUDA_CHECK(cudaMemset(d_out, 0, n * sizeof(int)));
        if (version == 0)
            warp_scan_tile<<<kBlocks, kThreads>>>(d_in, d_out);
        else
            warp_scan_library<<<kBlocks, kThreads>>>(d_in, d_out);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaDeviceSynchronize());
        std::vector<int> out(n);
        CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost));
        int wrong = 0, sum = 0;
        for (int i = 0; i < n; ++i) {
            sum = (i % 32 == 0 ? 0 : sum) + in[i];
            wrong += out[i] != sum;
        }
        std::printf("%s: %d warps scanned, %d of %d values wrong\n",
                    version == 0 ? "warp_scan_tile" : "warp_scan_library", n / 32, wrong, n);
        ok = ok && wrong == 0;
    }
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    std::printf("tile_scan (seed %u): %s\n", seed, ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
