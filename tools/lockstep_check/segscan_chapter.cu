// The 2011 chapter's segmented warp scan (no __syncwarp(), tests/emulator/chapter_segscan.cuh)
// on whatever runs it: built with nvcc it shows what a GPU computes, built with simtcc what each
// emulator mode computes (SIMT_MODE=its|lockstep|pre-volta, with SIMT_CHECKS=0 to see the
// values of a racy run). Prints how many of the trials gave a wrong result.
//   nvcc -O2 -arch=sm_90 -I tests/emulator tools/lockstep_check/segscan_chapter.cu -o segscan
//   build/bin/simtcc -O2 -I tests/emulator tools/lockstep_check/segscan_chapter.cu -o segscan
#include <cuda_runtime.h>

#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

#include "chapter_segscan.cuh"

int main(int argc, char** argv) {
    const int trials = argc > 1 ? std::atoi(argv[1]) : 200;
    const int blocks = 64, threads = 256, n = blocks * threads;
    std::mt19937 rng(12345);
    int *values = nullptr, *flags = nullptr, *out = nullptr;
    cudaMalloc(&values, n * sizeof(int));
    cudaMalloc(&flags, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    int wrong_trials = 0;
    long long wrong_elements = 0;
    for (int t = 0; t < trials; ++t) {
        std::vector<int> v(n), f(n), got(n);
        const unsigned every = 1 + rng() % 8;
        for (int i = 0; i < n; ++i) {
            v[i] = static_cast<int>(rng() % 1000) - 500;
            f[i] = rng() % every == 0;
        }
        cudaMemcpy(values, v.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        cudaMemcpy(flags, f.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        segmented_warp_scans<<<blocks, threads>>>(values, flags, out);
        const cudaError_t e = cudaDeviceSynchronize();
        if (e != cudaSuccess) {
            std::printf("launch failed: %s\n", cudaGetErrorString(e));
            return 1;
        }
        cudaMemcpy(got.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
        const std::vector<int> expect = segmented_reference(v, f);
        int wrong = 0;
        for (int i = 0; i < n; ++i) wrong += got[i] != expect[i];
        wrong_trials += wrong > 0;
        wrong_elements += wrong;
    }
    std::printf("segmented warp scan (2011 chapter, no __syncwarp): %d of %d trials wrong "
                "(%lld wrong elements of %lld)\n",
                wrong_trials, trials, wrong_elements, static_cast<long long>(trials) * n);
    cudaFree(values);
    cudaFree(flags);
    cudaFree(out);
    return 0;
}
