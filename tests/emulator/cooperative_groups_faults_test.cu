// What the emulator reports about cooperative-groups code (simt only): the checks see through the
// API, and what it does not support stops the launch with the feature named.
#include <doctest/doctest.h>

#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <cstdint>
#include <string>
#include <vector>

#include "device_vector.h"
#include "planted.h"
#include "simt/options.h"
#include "simt/report.h"

namespace cg = cooperative_groups;

namespace {

// Each thread of a tile of 8 publishes a value in shared memory and reads its neighbour's.
// Without tile.sync() between the two, the neighbour's write and the read are unordered.
template <bool kSync>
__global__ void tile_neighbours(const int* in, int* out) {
    __shared__ int slots[64];
    const auto tile = cg::tiled_partition<8>(cg::this_thread_block());
    const unsigned r = threadIdx.x;
    slots[r] = in[r];
    if (kSync) tile.sync();
    out[r] = slots[r - tile.thread_rank() + (tile.thread_rank() + 1) % 8];
}

__global__ void grid_sync(int* out) {
    cg::grid_group grid = cg::this_grid();
    out[grid.thread_rank()] = 1;
    grid.sync();
}

__global__ void grid_sync_but_block_1_leaves(int* out) {
    cg::grid_group grid = cg::this_grid();
    if (blockIdx.x == 1) return;
    out[grid.thread_rank()] = 1;
    grid.sync();
}

__global__ void odd_runtime_tile(int* out, unsigned tile_size) {
    const cg::thread_group tile = cg::tiled_partition(cg::this_thread_block(), tile_size);
    out[threadIdx.x] = static_cast<int>(tile.thread_rank());
}

} // namespace

TEST_CASE("cooperative groups: lanes of a tile race without tile.sync(), not with it") {
    std::vector<int> in(64);
    for (int i = 0; i < 64; ++i) in[i] = 7 * i - 3;
    DeviceVector<int> d_in(in), d_out(64);
    for (simt::Mode mode : {simt::Mode::its, simt::Mode::lockstep}) {
        CAPTURE(simt::to_string(mode));
        const simt::FaultReport report = run_quietly(
            [&] { tile_neighbours<false><<<1, 64>>>(d_in.data(), d_out.data()); }, mode);
        INFO("report: " << report.message);
        bool race = report.kind == simt::FaultKind::shared_race;
        for (const simt::Finding& finding : report.findings)
            race = race || finding.kind == simt::FaultKind::shared_race;
        CHECK(race);
        CHECK(report.message.find("'slots'") != std::string::npos);
        CHECK(report.message.find("cooperative_groups_faults_test.cu:") != std::string::npos);
    }
    const simt::FaultReport clean =
        run_quietly([&] { tile_neighbours<true><<<1, 64>>>(d_in.data(), d_out.data()); });
    CHECK(clean.kind == simt::FaultKind::none);
    tile_neighbours<true><<<1, 64>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int r = 0; r < 64; ++r) CHECK(out[r] == in[r - r % 8 + (r % 8 + 1) % 8]);
}

TEST_CASE("cooperative groups: a grid-wide sync without a cooperative launch stops the launch") {
    DeviceVector<int> out(64);
    const simt::FaultReport report = run_quietly([&] { grid_sync<<<2, 32>>>(out.data()); });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::unsupported);
    CHECK(report.error == cudaErrorNotSupported);
    CHECK(report.message.find("grid-wide synchronization") != std::string::npos);
    CHECK(report.message.find("not launched with cudaLaunchCooperativeKernel") !=
          std::string::npos);
    CHECK(report.message.find("cooperative_groups_faults_test.cu:") != std::string::npos);
    // Launched cooperatively, the same kernel runs.
    int* d_out = out.data();
    void* args[] = {&d_out};
    CHECK(run_quietly([&] {
              REQUIRE(cudaLaunchCooperativeKernel((void*)grid_sync, dim3(2), dim3(32), args) ==
                      cudaSuccess);
          }).kind == simt::FaultKind::none);
}

TEST_CASE("cooperative groups: a block that leaves before the grid syncs is a deadlock") {
    DeviceVector<int> out(64);
    int* d_out = out.data();
    void* args[] = {&d_out};
    const simt::FaultReport report = run_quietly([&] {
        cudaLaunchCooperativeKernel((void*)grid_sync_but_block_1_leaves, dim3(2), dim3(32), args);
    });
    INFO("report: " << report.message);
    CHECK(report.kind == simt::FaultKind::deadlock);
}

// A kernel cast to void* where simtcc sees the cast is registered with its parameter types
// (simt/graphs.h), and launches; one whose address arrives otherwise (here through an integer) is
// refused.
TEST_CASE("cudaLaunchCooperativeKernel of a kernel known only as a void* is refused, saying why") {
    DeviceVector<int> out(64);
    int* d_out = out.data();
    void* args[] = {&d_out};
    const void* kernel = reinterpret_cast<const void*>(reinterpret_cast<uintptr_t>(grid_sync));
    const bool saved = simt::options().report_to_stderr;
    simt::options().report_to_stderr = false;
    CHECK(cudaLaunchCooperativeKernel(kernel, dim3(2), dim3(32), args) == cudaErrorNotSupported);
    simt::options().report_to_stderr = saved;
    CHECK(cudaGetLastError() == cudaErrorNotSupported);
    const void* registered = reinterpret_cast<const void*>(grid_sync);
    CHECK(registered == kernel);
    CHECK(cudaLaunchCooperativeKernel(registered, dim3(2), dim3(32), args) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaSuccess);
}

TEST_CASE("cooperative groups: tiled_partition(group, n) with n not a power of two is refused") {
    DeviceVector<int> out(32);
    const simt::FaultReport bad = run_quietly([&] { odd_runtime_tile<<<1, 32>>>(out.data(), 3); });
    INFO("report: " << bad.message);
    CHECK(bad.kind == simt::FaultKind::unsupported);
    CHECK(bad.message.find("tiled_partition(group, n)") != std::string::npos);
    // A power of two works, as on a GPU.
    odd_runtime_tile<<<1, 32>>>(out.data(), 8);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> ranks = out.download();
    for (int r = 0; r < 32; ++r) CHECK(ranks[r] == r % 8);
}
