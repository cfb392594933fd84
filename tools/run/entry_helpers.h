// What the labs' main-job entries share: fresh random input, one timed run of a device scan
// checked against the host reference, and a run for a trace.
#pragma once

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/timing.h>

#include <random>
#include <string>
#include <vector>

#include "lab_entry.h"

namespace scanlab::run {

#ifdef SCANLAB_BACKEND_SIMT
inline constexpr bool kOnEmulator = true;
#else
inline constexpr bool kOnEmulator = false;
#endif

inline std::vector<int> random_ints(long long n, uint64_t seed, int lo = -1000, int hi = 1000) {
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(lo, hi);
    std::vector<int> v(static_cast<size_t>(n));
    for (int& x : v) x = value(rng);
    return v;
}

// Runs run() once to warm up, then once timed with d_out poisoned; checks d_out against expected.
template <class Run>
RunResult time_checked(DeviceBuffer<int>& d_out, const std::vector<int>& expected, Run run) {
    run();
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    SCANLAB_CUDA_CHECK(cudaMemset(d_out.data(), 0xCD, d_out.bytes())); // poison
    GpuTimer timer;
    timer.start();
    run();
    timer.stop();
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    RunResult r;
    r.n = static_cast<long long>(expected.size());
    r.ms = timer.elapsed_ms();
    r.correct = d_out.download() == expected;
    if (!r.correct) r.detail = "result differs from the host reference";
    return r;
}

// Times scan(d_in, d_out, n) on fresh random input and checks it against the host reference.
template <class Scan>
RunResult time_device_scan(long long n, uint64_t seed, ScanKind kind, Scan scan) {
    const std::vector<int> in = random_ints(n, seed);
    DeviceBuffer<int> d_in(in), d_out(in.size());
    return time_checked(d_out, reference_scan<Sum<int>>(std::span<const int>(in), kind),
                        [&] { scan(d_in.data(), d_out.data(), n); });
}

// Runs scan once on small non-negative values (readable in the visualizer) for a trace.
template <class Scan>
std::string record_device_scan(long long n, uint64_t seed, Scan scan, const std::string& what) {
    const std::vector<int> in = random_ints(n, seed, 0, 9);
    DeviceBuffer<int> d_in(in), d_out(in.size());
    scan(d_in.data(), d_out.data(), n);
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    return what + ", n = " + std::to_string(n);
}

} // namespace scanlab::run
