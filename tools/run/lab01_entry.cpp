#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/timing.h>

#include <random>
#include <vector>

#include "lab_entry.h"
#include "naive_scan.h"

namespace {
using namespace scanlab::run;

// 64 independent blocks of 1024 elements, one launch each: the emulator benchmark's workload.
RunResult run_lab01(uint64_t seed) {
    const int block = lab01::kMaxN, blocks = 64, n = block * blocks;
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<int> value(-1000, 1000);
    std::vector<int> in(n);
    for (int& v : in) v = value(rng);
    scanlab::DeviceBuffer<int> d_in(in), d_out(n);
    lab01::naive_scan<scanlab::Sum<int>>(d_in.data(), d_out.data(), block,
                                         scanlab::ScanKind::inclusive); // warm-up
    scanlab::GpuTimer timer;
    timer.start();
    for (int b = 0; b < blocks; ++b)
        lab01::naive_scan<scanlab::Sum<int>>(d_in.data() + b * block, d_out.data() + b * block,
                                             block, scanlab::ScanKind::inclusive);
    timer.stop();
    RunResult r;
    r.n = n;
    r.ms = timer.elapsed_ms();
    auto out = d_out.download();
    r.correct = true;
    for (int b = 0; b < blocks && r.correct; ++b) {
        auto expect = scanlab::reference_scan<scanlab::Sum<int>>(
            std::span<const int>(in.data() + b * block, block), scanlab::ScanKind::inclusive);
        r.correct = std::equal(expect.begin(), expect.end(), out.begin() + b * block);
    }
    return r;
}

std::string record_lab01(const RecordRequest& request) {
    const int n = static_cast<int>(request.n > 0 ? request.n : 16);
    std::mt19937_64 rng(request.seed);
    std::uniform_int_distribution<int> value(0, 9);
    std::vector<int> in(n);
    for (int& v : in) v = value(rng);
    scanlab::DeviceBuffer<int> d_in(in), d_out(n);
    lab01::naive_scan<scanlab::Sum<int>>(d_in.data(), d_out.data(), n,
                                         scanlab::ScanKind::inclusive);
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    return "lab 01: naive_scan<Sum<int>>, inclusive, n = " + std::to_string(n);
}

RegisterLab lab01{{"01", "naive Hillis-Steele, 64 blocks x 1024", run_lab01, record_lab01}};
} // namespace
