#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/operators.h>
#include <scanlab/reference_scan.h>
#include <scanlab/timing.h>

#include <vector>

#include "entry_helpers.h"
#include "naive_scan.h"

namespace {
using namespace scanlab::run;

// 64 independent blocks of 1024 elements, one launch each: the emulator benchmark's workload.
RunResult run_lab01(uint64_t seed) {
    const int block = lab01::kMaxN, blocks = 64;
    const std::vector<int> in = random_ints(static_cast<long long>(block) * blocks, seed);
    std::vector<int> expected;
    for (int b = 0; b < blocks; ++b) {
        const auto part = scanlab::reference_scan<scanlab::Sum<int>>(
            std::span<const int>(in.data() + b * block, block), scanlab::ScanKind::inclusive);
        expected.insert(expected.end(), part.begin(), part.end());
    }
    scanlab::DeviceBuffer<int> d_in(in), d_out(in.size());
    return time_checked(d_out, expected, [&] {
        for (int b = 0; b < blocks; ++b)
            lab01::naive_scan<scanlab::Sum<int>>(d_in.data() + b * block, d_out.data() + b * block,
                                                 block, scanlab::ScanKind::inclusive);
    });
}

std::string record_lab01(const RecordRequest& request) {
    return record_device_scan(
        request.n > 0 ? request.n : 16, request.seed,
        [](const int* in, int* out, long long n) {
            lab01::naive_scan<scanlab::Sum<int>>(in, out, static_cast<int>(n),
                                                 scanlab::ScanKind::inclusive);
        },
        "lab 01: naive_scan<Sum<int>>, inclusive");
}

RegisterLab lab01{{"01", "naive Hillis-Steele, 64 blocks x 1024", run_lab01, record_lab01}};
} // namespace
