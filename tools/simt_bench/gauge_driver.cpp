// The global workload of simt_bench (global_hillis_steele.cu) in a driver that needs nothing but
// the CUDA runtime API, so that the simtcc of any earlier tree builds it too: reference_gauge.sh
// runs it built by this tree and by the tree issue 38 measured its goal against, alternately,
// so that a figure from an hour when the machine is slow or fast can be read against that
// reference. Prints the median, lowest and highest million elements per CPU second of the
// launches (one warm-up launch first), and checks the last result.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#include "bench_support.h"
#include "global_hillis_steele.h"

using simt_bench::check;

int main(int argc, char** argv) {
    const int reps = argc > 1 ? std::atoi(argv[1]) : 5;
    if (reps < 1) {
        std::fprintf(stderr, "usage: %s [launches, at least 1]\n", argv[0]);
        return 2;
    }
    constexpr int blocks = 64, slice = 1024, n = blocks * slice; // 10 steps: the scan ends in a
    const std::vector<int> in = simt_bench::random_input(n);
    int *a = nullptr, *b = nullptr;
    if (!check(cudaMalloc(&a, n * sizeof(int)), "cudaMalloc") ||
        !check(cudaMalloc(&b, n * sizeof(int)), "cudaMalloc"))
        return 1;
    std::vector<double> rates;
    for (int r = 0; r <= reps; ++r) {
        if (!check(cudaMemcpy(a, in.data(), n * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy"))
            return 1;
        const double c0 = simt_bench::cpu_seconds();
        if (!simt_bench::run_global_hillis_steele(a, b, blocks, slice) ||
            !check(cudaDeviceSynchronize(), "the launch"))
            return 1;
        const double seconds = simt_bench::cpu_seconds() - c0;
        if (r > 0) rates.push_back(n / seconds / 1e6); // (launch 0 warms up)
    }
    std::vector<int> out(n);
    if (!check(cudaMemcpy(out.data(), a, n * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return 1;
    for (int i = 0; i < n; ++i) { // an inclusive scan of each slice
        const int expect = (i % slice == 0 ? 0 : out[i - 1]) + in[i];
        if (out[i] != expect) {
            std::fprintf(stderr, "gauge_driver: wrong result at %d\n", i);
            return 1;
        }
    }
    std::printf("million elements per CPU second: median %.3f (%.3f-%.3f, %d launches)\n",
                simt_bench::median(rates), *std::min_element(rates.begin(), rates.end()),
                *std::max_element(rates.begin(), rates.end()), reps);
}
