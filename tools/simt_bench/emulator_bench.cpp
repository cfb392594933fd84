// The emulator's speed benchmark. Three workloads, each on 64 slices of 1024 ints:
//   lab01  (default) the lab 01 solution (double-buffered Hillis-Steele in one 1024-thread block,
//          in shared memory), one launch per slice: exactly lab 01's row in `scanlab run`;
//   global the same scan double-buffered in global memory, 64 blocks in one launch: the path of
//          the global-memory checks;
//   parts  what each part of a thread's life costs: its start and end, and a barrier step with
//          nothing else, with a store, with two loads, and with two loads and a store (global's
//          step).
// Prints the median elements/s of several repetitions (parts: the median CPU time per thread).
//
//   simt_bench [--reps=N] [--workload=lab01|global|parts] [--simt-mode=its|lockstep|pre-volta]
//              [--simt-checks=on|off] [--simt-seed=N]
#include <cuda_runtime.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <string>
#include <vector>

#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>

#include "bench_support.h"
#include "global_hillis_steele.h"
#include "naive_scan.h"
#include "simt/options.h"
#include "thread_costs.h"

namespace {

using simt_bench::check;
using simt_bench::cpu_seconds;
using simt_bench::median;
using simt_bench::random_input;

// --workload=parts: launches of 64 blocks of 1024 threads that differ by one thing
// (thread_costs.cu), timed in CPU seconds of this process. A thread's start and end is an empty
// kernel; a step's cost is the difference between kSteps steps and one, over kSteps - 1. Each
// round runs every launch once (so that the machine's changes of speed touch all of them alike);
// the medians over the rounds are printed.
int run_parts(int reps) {
    constexpr int blocks = 64, threads = 1024, n = blocks * threads, kSteps = 9;
    const std::vector<int> in = random_input(n);
    std::vector<int> out(n);
    int *d_a = nullptr, *d_b = nullptr;
    if (!check(cudaMalloc(&d_a, n * sizeof(int)), "cudaMalloc") ||
        !check(cudaMalloc(&d_b, n * sizeof(int)), "cudaMalloc"))
        return 1;
    // CPU nanoseconds per thread of one launch (the input copied in first, untimed); < 0 on an
    // error.
    auto timed = [&](auto launch) -> double {
        if (!check(cudaMemcpy(d_a, in.data(), n * sizeof(int), cudaMemcpyHostToDevice),
                   "cudaMemcpy"))
            return -1;
        const double c0 = cpu_seconds();
        if (!launch() || !check(cudaDeviceSynchronize(), "launch")) return -1;
        return (cpu_seconds() - c0) * 1e9 / n;
    };
    using simt_bench::StepPart;
    // two_loads_and_store last: the result checked below is its last launch's.
    const StepPart parts[] = {StepPart::barrier, StepPart::store, StepPart::two_loads,
                              StepPart::two_loads_and_store};
    constexpr int kParts = 4;
    std::vector<double> start;
    std::vector<double> step[kParts];
    for (int r = 0; r <= reps; ++r) { // round 0 warms up (source lines, the stack pool)
        const double empty = timed([&] { return simt_bench::run_empty(blocks, threads); });
        if (empty < 0) return 1;
        if (r > 0) start.push_back(empty);
        for (int p = 0; p < kParts; ++p) {
            const auto steps = [&](int count) {
                return timed([&] {
                    return simt_bench::run_steps(d_a, d_b, blocks, threads, count, parts[p]);
                });
            };
            const double one = steps(1), more = steps(kSteps);
            if (one < 0 || more < 0) return 1;
            if (r > 0) step[p].push_back((more - one) / (kSteps - 1));
        }
    }
    // The last launch: kSteps (odd) steps of b[i] = a[i] + a[i ^ 1], ending in b.
    if (!check(cudaMemcpy(out.data(), d_b, n * sizeof(int), cudaMemcpyDeviceToHost), "cudaMemcpy"))
        return 1;
    std::vector<int> expect = in, next(n);
    for (int k = 0; k < kSteps; ++k) {
        for (int i = 0; i < n; ++i) next[i] = expect[i] + expect[i ^ 1];
        expect.swap(next);
    }
    if (expect != out) {
        std::fprintf(stderr, "simt_bench: wrong result of the parts workload's steps\n");
        return 1;
    }
    cudaFree(d_a);
    cudaFree(d_b);
    const simt::Options& o = simt::options();
    std::printf(
        "parts of a thread's life, 64 blocks x 1024 threads, mode %s, checks %s, seed %llu: "
        "CPU ns per thread, median of %d rounds\n",
        simt::to_string(o.mode).c_str(), o.checks ? "on" : "off",
        static_cast<unsigned long long>(o.seed), reps);
    std::printf("  start and end (an empty kernel)           %7.1f\n", median(start));
    std::printf("  a barrier step                            %7.1f\n", median(step[0]));
    std::printf("  a barrier step with a store               %7.1f\n", median(step[1]));
    std::printf("  a barrier step with two loads             %7.1f\n", median(step[2]));
    std::printf("  a barrier step with two loads and a store %7.1f\n", median(step[3]));
    return 0;
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
                   std::strcmp(argv[i], "--workload=global") == 0 ||
                   std::strcmp(argv[i], "--workload=parts") == 0) {
            workload = argv[i] + 11;
        } else {
            std::fprintf(stderr,
                         "usage: %s [--reps=N] [--workload=lab01|global|parts] "
                         "[--simt-mode=its|lockstep|pre-volta] "
                         "[--simt-checks=on|off] [--simt-seed=N]\n",
                         argv[0]);
            return 2;
        }
    }
    if (workload == "parts") return run_parts(reps);
    using Op = scanlab::Sum<int>;
    constexpr int block = lab01::kMaxN, blocks = 64, n = block * blocks;
    const std::vector<int> in = random_input(n);
    std::vector<int> out(n);
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
