// The global workload of simt_bench (global_hillis_steele.cu) in a driver that needs nothing but
// the CUDA runtime API, so that the simtcc of any earlier tree builds it too: reference_gauge.sh
// runs it built by this tree and by the tree issue 38 measured its goal against, alternately,
// so that a figure from an hour when the machine is slow or fast can be read against that
// reference. Prints the median, lowest and highest million elements per CPU second of the
// launches (one warm-up launch first), and checks the last result.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <vector>

#include <cuda_runtime.h>

#include "global_hillis_steele.h"

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    if (reps < 1) {
        std::fprintf(stderr, "usage: %s [launches, at least 1]\n", argv[0]);
        return 2;
    }
    constexpr int blocks = 64, slice = 1024, n = blocks * slice; // 10 steps: the scan ends in a
    std::vector<int> in(n);
    std::mt19937 rng(1);
    for (int& x : in) x = static_cast<int>(rng() % 100);
    int *a = nullptr, *b = nullptr;
    if (cudaMalloc(&a, n * sizeof(int)) != cudaSuccess ||
        cudaMalloc(&b, n * sizeof(int)) != cudaSuccess) {
        std::fprintf(stderr, "gauge_driver: cudaMalloc failed\n");
        return 1;
    }
    std::vector<double> rates;
    for (int r = 0; r <= reps; ++r) {
        cudaMemcpy(a, in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
        const std::clock_t c0 = std::clock();
        if (!simt_bench::run_global_hillis_steele(a, b, blocks, slice) ||
            cudaDeviceSynchronize() != cudaSuccess) {
            std::fprintf(stderr, "gauge_driver: the launch failed\n");
            return 1;
        }
        const double seconds = static_cast<double>(std::clock() - c0) / CLOCKS_PER_SEC;
        if (r > 0) rates.push_back(n / seconds / 1e6); // (launch 0 warms up)
    }
    std::vector<int> out(n);
    cudaMemcpy(out.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; ++i) {
        const long expect = (i % slice == 0 ? 0 : out[i - 1]) + in[i];
        if (out[i] != expect) {
            std::fprintf(stderr, "gauge_driver: wrong result at %d\n", i);
            return 1;
        }
    }
    std::sort(rates.begin(), rates.end());
    std::printf("million elements per CPU second: median %.3f (%.3f-%.3f, %d launches)\n",
                rates[rates.size() / 2], rates.front(), rates.back(), reps);
}
