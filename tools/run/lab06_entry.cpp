#include "entry_helpers.h"
#include "segmented_scan.h"

#include <cstdint>
#include <stdexcept>

namespace {
using namespace scanlab::run;
using scanlab::ScanKind;

constexpr long long kRunN = kOnEmulator ? (1 << 18) : (1 << 24);

// Head flags with segments of random length (mean 64), so that many cross warps and tiles.
std::vector<std::uint8_t> random_heads(long long n, uint64_t seed) {
    std::mt19937_64 rng(seed ^ 0x5e65e6u);
    std::bernoulli_distribution head(1.0 / 64);
    std::vector<std::uint8_t> flags(static_cast<size_t>(n));
    for (auto& f : flags) f = head(rng) ? 1 : 0;
    return flags;
}

std::vector<int> host_segmented_inclusive(const std::vector<int>& in,
                                          const std::vector<std::uint8_t>& heads) {
    std::vector<int> out(in.size());
    int running = 0;
    for (size_t i = 0; i < in.size(); ++i) {
        running = (i == 0 || heads[i]) ? in[i] : running + in[i];
        out[i] = running;
    }
    return out;
}

void scan(const int* in, const std::uint8_t* heads, int* out, long long n,
          lab06::SegmentedMethod method) {
    lab06::segmented_scan<scanlab::Sum<int>>(in, heads, out, n, ScanKind::inclusive, method);
}

RunResult run(uint64_t seed) {
    const std::vector<int> in = random_ints(kRunN, seed);
    const std::vector<std::uint8_t> heads = random_heads(kRunN, seed);
    scanlab::DeviceBuffer<int> d_in(in), d_out(in.size());
    scanlab::DeviceBuffer<std::uint8_t> d_heads(heads);
    return time_checked(d_out, host_segmented_inclusive(in, heads), [&] {
        scan(d_in.data(), d_heads.data(), d_out.data(), kRunN,
             lab06::SegmentedMethod::conditional_index);
    });
}

std::string record(const RecordRequest& r) {
    const long long n = r.n > 0 ? r.n : 8192;
    lab06::SegmentedMethod method;
    if (r.variant.empty() || r.variant == "mindex")
        method = lab06::SegmentedMethod::conditional_index;
    else if (r.variant == "transform")
        method = lab06::SegmentedMethod::operator_transform;
    else
        throw std::invalid_argument("lab 06 variants: mindex (default), transform");
    const std::vector<int> in = random_ints(n, r.seed, 0, 9);
    const std::vector<std::uint8_t> heads = random_heads(n, r.seed);
    scanlab::DeviceBuffer<int> d_in(in), d_out(in.size());
    scanlab::DeviceBuffer<std::uint8_t> d_heads(heads);
    scan(d_in.data(), d_heads.data(), d_out.data(), n, method);
    SCANLAB_CUDA_CHECK(cudaDeviceSynchronize());
    return std::string("lab 06: segmented_scan<Sum<int>>, inclusive, ") +
           (method == lab06::SegmentedMethod::conditional_index ? "conditional index"
                                                                : "operator transformation") +
           ", n = " + std::to_string(n);
}

RegisterLab lab06{{"06", "segmented: head flags, 16 items/thread", run, record}};
} // namespace
