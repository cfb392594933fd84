// What simt_bench's programs share (emulator_bench.cpp, and gauge_driver.cpp, which any earlier
// tree's simtcc must build too: so nothing here but the C++ library, POSIX and the CUDA runtime
// API): the workloads' input, the process's CPU time, a median, and a runtime call's check.
#pragma once

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <random>
#include <vector>

#include <cuda_runtime.h>

namespace simt_bench {

// n ints in [-1000, 1000], the same for every run: the input of every workload.
inline std::vector<int> random_input(int n) {
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int> value(-1000, 1000);
    std::vector<int> in(n);
    for (int& v : in) v = value(rng);
    return in;
}

// CPU seconds of this process so far (steadier than wall time on a shared machine).
inline double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

inline double median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// False, with the call and the runtime's message on stderr, unless `e` is cudaSuccess.
inline bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "simt_bench: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

} // namespace simt_bench
