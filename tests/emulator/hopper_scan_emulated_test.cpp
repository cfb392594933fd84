// Lab 08's solution (solutions/08_hopper_scan: bulk copies into a ring of mbarrier-guarded
// stages, warp roles, persistent blocks) run on the emulator with its checks on, against a scan
// on the host: every element right and no report, over sizes from one element to several
// thousand, for both shapes and both kinds of scan.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "device_vector.h"
#include "hopper_scan.h"
#include "simt/options.h"
#include "simt/report.h"

#include <scanlab/operators.h>

namespace {

template <class Op>
std::vector<typename Op::value_type> host_scan(const std::vector<typename Op::value_type>& in,
                                               lab08::ScanKind kind) {
    std::vector<typename Op::value_type> out(in.size());
    auto running = Op::identity();
    for (size_t i = 0; i < in.size(); ++i) {
        if (kind == lab08::ScanKind::exclusive) out[i] = running;
        running = Op::apply(running, in[i]);
        if (kind == lab08::ScanKind::inclusive) out[i] = running;
    }
    return out;
}

// Scans `n` random values; returns the number of wrong elements, CHECKs that there was no report.
template <class Op, class Shape>
size_t wrong_elements(std::int64_t n, lab08::ScanKind kind, lab08::Workspace* workspace) {
    using T = typename Op::value_type;
    simt::reset_device(); // (a launch before that failed leaves its error sticky)
    std::mt19937_64 random(std::random_device{}());
    std::vector<T> in(static_cast<size_t>(n));
    for (T& x : in) x = static_cast<T>(random() % 1000) - static_cast<T>(300);
    DeviceVector<T> d_in(in), d_out(in.size());
    lab08::scan<Op, Shape>(d_in.data(), d_out.data(), n, kind, workspace);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
    const simt::FaultReport& report = simt::last_fault();
    INFO("n = " << n << ": " << report.message);
    CHECK(report.kind == simt::FaultKind::none);
    CHECK(report.findings.empty());
    const std::vector<T> got = d_out.download(), expected = host_scan<Op>(in, kind);
    size_t wrong = 0;
    for (size_t i = 0; i < got.size(); ++i) wrong += got[i] != expected[i];
    return wrong;
}

} // namespace

TEST_CASE("lab 08's solution scans right on the emulator, with no report") {
    const simt::Options saved = simt::options();
    simt::options().report_to_stderr = std::getenv("LAB08_LOUD") != nullptr;
    using Small = lab08::SmallShape;
    using Default = lab08::DefaultShape;
    constexpr std::int64_t small_tile = Small::kTileItems<std::int32_t>;
    constexpr std::int64_t default_tile = Default::kTileItems<std::int32_t>;
    lab08::Workspace workspace;
    for (const auto kind : {lab08::ScanKind::inclusive, lab08::ScanKind::exclusive}) {
        // 1, a partial tile, whole tiles, several tiles and a partial one, a few thousand.
        for (const std::int64_t n : {std::int64_t{1}, small_tile / 2 + 3, 3 * small_tile,
                                     7 * small_tile + 5, std::int64_t{3000}}) {
            CHECK(wrong_elements<scanlab::Sum<std::int32_t>, Small>(n, kind, &workspace) == 0);
            CHECK(wrong_elements<scanlab::Max<std::int64_t>, Small>(n, kind, nullptr) == 0);
        }
        for (const std::int64_t n :
             {std::int64_t{1}, default_tile - 1, 2 * default_tile + 7, std::int64_t{5000}})
            CHECK(wrong_elements<scanlab::Sum<std::int32_t>, Default>(n, kind, &workspace) == 0);
    }
    simt::options() = saved;
}
