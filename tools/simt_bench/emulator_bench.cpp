// The emulator's speed benchmark. Two workloads, each on 64 slices of 1024 ints:
//   lab01  (default) the lab 01 solution (double-buffered Hillis-Steele in one 1024-thread block,
//          in shared memory), one launch per slice: exactly lab 01's row in `scanlab run`;
//   global the same scan double-buffered in global memory, 64 blocks in one launch: the path of
//          the global-memory checks.
// Prints the median elements/s of several repetitions.
//
//   simt_bench [--reps=N] [--workload=lab01|global] [--simt-mode=its|lockstep|pre-volta]
//              [--simt-checks=on|off] [--simt-seed=N]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <exception>
#include <random>
#include <string>
#include <vector>

#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>

#include "global_hillis_steele.h"
#include "naive_scan.h"
#include "simt/options.h"

namespace {

double cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

bool check(cudaError_t e, const char* what) {
    if (e == cudaSuccess) return true;
    std::fprintf(stderr, "simt_bench: %s: %s\n", what, cudaGetErrorString(e));
    return false;
}

} // namespace

int main(int argc, char** argv) {
    int reps = 7;
    std::string workload = "lab01";
    try {
        argc = simt::consume_cli_flags(argc, argv);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "%s\n", e.what());
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        if (std::strncmp(argv[i], "--reps=", 7) == 0 && std::atoi(argv[i] + 7) > 0) {
            reps = std::atoi(argv[i] + 7);
        } else if (std::strcmp(argv[i], "--workload=lab01") == 0 ||
                   std::strcmp(argv[i], "--workload=global") == 0) {
            workload = argv[i] + 11;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--reps=N] [--workload=lab01|global] [--simt-mode=its|lockstep|pre-volta] "
                         "[--simt-checks=on|off] [--simt-seed=N]\n",
                         argv[0]);
            return 2;
        }
    }
    using Op = scanlab::Sum<int>;
    constexpr int block = lab01::kMaxN, blocks = 64, n = block * blocks;
    std::mt19937_64 rng(1);
    std::uniform_int_distribution<int> value(-1000, 1000);
    std::vector<int> in(n), out(n);
    for (int& v : in) v = value(rng);
    int *d_in = nullptr, *d_out = nullptr;
    if (!check(cudaMalloc(&d_in, n * sizeof(int)), "cudaMalloc") ||
        !check(cudaMalloc(&d_out, n * sizeof(int)), "cudaMalloc") ||
        !check(cudaMemcpy(d_in, in.data(), n * sizeof(int), cudaMemcpyHostToDevice), "cudaMemcpy"))
        return 1;

    const bool global = workload == "global";
    int* d_other = nullptr; // the global workload's second buffer
    if (global && !check(cudaMalloc(&d_other, n * sizeof(int)), "cudaMalloc")) return 1;
    // One repetition. The global workload scans in place of d_out (a copy of the input), so that
    // every repetition scans the same values.
    auto run_once = [&]() -> bool {
        if (!global) {
            for (int b = 0; b < blocks; ++b)
                lab01::naive_scan<Op>(d_in + b * block, d_out + b * block, block,
                                      scanlab::ScanKind::inclusive);
            return true;
        }
        return check(cudaMemcpy(d_out, d_in, n * sizeof(int), cudaMemcpyDeviceToDevice),
                     "cudaMemcpy") &&
               simt_bench::run_global_hillis_steele(d_out, d_other, blocks, block);
    };
    // log2(1024) = 10 steps, an even number: the global workload's result ends in d_out.
    static_assert(block == 1024);

    // A warm-up launch resolves the barrier's source line and fills the stack pool.
    if (!run_once() || !check(cudaDeviceSynchronize(), "warm-up")) return 1;

    // Wall time is what a user waits; CPU time of this process is steadier on a shared machine.
    std::vector<double> rates, cpu_rates;
    for (int r = 0; r < reps; ++r) {
        const auto t0 = std::chrono::steady_clock::now();
        const double c0 = cpu_seconds();
        if (!run_once() || !check(cudaDeviceSynchronize(), "scan")) return 1;
        const double s =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
        rates.push_back(n / s);
        cpu_rates.push_back(n / (cpu_seconds() - c0));
    }
    if (!check(cudaMemcpy(out.data(), d_out, n * sizeof(int), cudaMemcpyDeviceToHost),
               "cudaMemcpy"))
        return 1;
    for (int b = 0; b < blocks; ++b) {
        auto expect = scanlab::reference_scan<Op>(
            std::span<const int>(in.data() + b * block, block), scanlab::ScanKind::inclusive);
        if (!std::equal(expect.begin(), expect.end(), out.begin() + b * block)) {
            std::fprintf(stderr, "simt_bench: wrong result in block %d\n", b);
            return 1;
        }
    }
    cudaFree(d_in);
    cudaFree(d_out);
    cudaFree(d_other);

    std::sort(rates.begin(), rates.end());
    std::sort(cpu_rates.begin(), cpu_rates.end());
    const simt::Options& o = simt::options();
    std::printf("%s, mode %s, checks %s, seed %llu: "
                "median %.3f M elements/s (min %.3f, max %.3f, %d runs; per CPU second %.3f)\n",
                global ? "global-memory Hillis-Steele, 1 launch x 64 blocks x 1024 threads"
                       : "lab 01 solution, 64 launches x 1024 threads",
                simt::to_string(o.mode).c_str(), o.checks ? "on" : "off",
                static_cast<unsigned long long>(o.seed), rates[rates.size() / 2] / 1e6,
                rates.front() / 1e6, rates.back() / 1e6, reps,
                cpu_rates[cpu_rates.size() / 2] / 1e6);
    return 0;
}
