#include "run_variant.h"

#include "lab_input.h"

#include <scanlab/cuda_check.h>
#include <scanlab/device_buffer.h>
#include <scanlab/timing.h>

#include <chrono>
#include <vector>

namespace scanlab::run {
namespace {

#ifdef SCANLAB_BACKEND_SIMT
constexpr long long kAnyNSize = 1 << 18; // the emulator runs about a million elements a second
#else
constexpr long long kAnyNSize = 1 << 24;
#endif

struct Sizes {
    long long total = 0; // elements in all
    long long slice = 0; // elements per call
};

Sizes sizes_of(const labs::LabDescriptor& lab) {
    if (lab.one_block()) return {lab.max_n * lab.run_slices, lab.max_n};
    const long long n = lab.run_n > 0 ? lab.run_n : kAnyNSize;
    return {n, n};
}

RunResult judged(const std::vector<int>& out, const std::vector<int>& expected, double ms) {
    RunResult r;
    r.n = static_cast<long long>(expected.size());
    r.ms = ms;
    r.correct = out == expected;
    if (!r.correct) r.detail = "result differs from the host reference";
    return r;
}

} // namespace

RunResult run_variant(const labs::LabDescriptor& lab, const labs::Variant& variant,
                      std::uint64_t seed) {
    const Sizes size = sizes_of(lab);
    const std::vector<int> in = random_ints(size.total, seed);
    std::vector<std::uint8_t> heads;
    if (lab.input == labs::Input::segmented) heads = random_heads(size.total, seed);
    const std::vector<int> expected =
        expected_output(lab.input, in, heads, lab.shown_kind, static_cast<size_t>(size.slice));

    if (lab.runs == labs::Runs::host) {
        std::vector<int> out(in.size());
        const auto t0 = std::chrono::steady_clock::now();
        variant.call({.in = in.data(), .out = out.data(), .n = size.total, .kind = lab.shown_kind});
        const auto t1 = std::chrono::steady_clock::now();
        return judged(out, expected, std::chrono::duration<double, std::milli>(t1 - t0).count());
    }

    DeviceBuffer<int> d_in(in), d_out(in.size());
    DeviceBuffer<std::uint8_t> d_heads(heads);
    auto run = [&] {
        for (long long start = 0; start < size.total; start += size.slice)
            variant.call({.in = d_in.data() + start,
                          .out = d_out.data() + start,
                          .n = size.slice,
                          .kind = lab.shown_kind,
                          .heads = heads.empty() ? nullptr : d_heads.data() + start});
    };
    run(); // warm-up
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    SCANLAB_CUDA_CHECK(cudaMemset(d_out.data(), 0xCD, d_out.bytes())); // poison
    GpuTimer timer;
    timer.start();
    run();
    timer.stop();
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    return judged(d_out.download(), expected, timer.elapsed_ms());
}

} // namespace scanlab::run
