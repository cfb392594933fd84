// Bulk stores (cuda::ptx::cp_async_bulk from shared to global memory, with its commit and wait
// groups and the proxy fence) written the way a GPU needs them: threads write a tile in shared
// memory, fence the asynchronous proxy, meet at a barrier, and one thread stores the tile and
// waits before the buffer is written again; and a tile copied through shared memory by a bulk
// load and a bulk store. Random inputs, every value checked. Built for both backends: on the
// cuda backend the same kernels run on a GPU (sm_90) with the same expectations; on the
// emulator they also run under several schedules, with no report in any of them.
#include <doctest/doctest.h>

#include <cuda/ptx>
#include <cuda_runtime.h>

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "device_vector.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "simt/options.h"
#endif

namespace {

namespace ptx = cuda::ptx;

constexpr int kTile = 256; // ints per tile: one per thread
// (cuda::ptx takes sizes by const reference: kernels pass a local copy, which nvcc can bind in
// device code, not this host constant itself.)
constexpr std::uint32_t kTileBytes = kTile * sizeof(int);

// Each block transforms `tiles` consecutive tiles through two shared buffers: the store of tile
// t reads buf[t % 2] while the threads write tile t + 1 into the other one. After its last
// wait_group the issuing thread reads back a word of its last tile (its writes are visible to it).
__global__ void transform_tiles(const int* in, int* out, int* seen, int tiles) {
    __shared__ alignas(16) int buf[2][kTile];
    const std::uint32_t bytes = kTileBytes;
    for (int t = 0; t < tiles; ++t) {
        const int b = t % 2;
        const size_t tile = static_cast<size_t>(blockIdx.x) * tiles + t;
        // buf[b] was last read by the store of tile t - 2: all but the newest group have read.
        if (threadIdx.x == 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<1>());
        __syncthreads();
        buf[b][threadIdx.x] = 3 * in[tile * kTile + threadIdx.x] + static_cast<int>(tile);
        ptx::fence_proxy_async(ptx::space_shared); // the writes, to the asynchronous proxy
        __syncthreads();
        if (threadIdx.x == 0) {
            ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + tile * kTile, buf[b],
                               bytes);
            ptx::cp_async_bulk_commit_group();
        }
    }
    if (threadIdx.x == 0) {
        ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
        const size_t last = static_cast<size_t>(blockIdx.x) * tiles + tiles - 1;
        seen[blockIdx.x] = out[last * kTile + 5];
    }
}

// One thread copies `tiles` tiles through one shared stage: a bulk load completing on an
// mbarrier, then a bulk store of the landed bytes (both in the asynchronous proxy: no fence), and
// the next load only after the store has read the stage.
__global__ void copy_tiles(const int* in, int* out, int tiles) {
    __shared__ alignas(16) int stage[kTile];
    __shared__ std::uint64_t full;
    const std::uint32_t bytes = kTileBytes;
    if (threadIdx.x == 0) {
        ptx::mbarrier_init(&full, 1);
        ptx::fence_proxy_async(ptx::space_shared);
    }
    __syncthreads();
    if (threadIdx.x != 0) return;
    for (int t = 0; t < tiles; ++t) {
        if (t > 0) ptx::cp_async_bulk_wait_group_read(ptx::n32_t<0>());
        ptx::mbarrier_arrive_expect_tx(ptx::sem_release, ptx::scope_cta, ptx::space_shared, &full,
                                       bytes);
        ptx::cp_async_bulk(ptx::space_shared, ptx::space_global, stage, in + t * kTile, bytes,
                           &full);
        while (!ptx::mbarrier_try_wait_parity(&full, t & 1)) {
        }
        ptx::cp_async_bulk(ptx::space_global, ptx::space_shared, out + t * kTile, stage, bytes);
        ptx::cp_async_bulk_commit_group();
    }
    ptx::cp_async_bulk_wait_group(ptx::n32_t<0>());
}

std::vector<int> random_ints(size_t n) {
    std::mt19937 random(std::random_device{}());
    std::vector<int> v(n);
    for (int& x : v) x = static_cast<int>(random() % 2000001) - 1000000;
    return v;
}

// Runs `check` once on a GPU; on the emulator under several schedules (mode, dispatch, seed).
void under_each_schedule(const std::function<void()>& check) {
#ifdef SCANLAB_BACKEND_SIMT
    struct Schedule {
        simt::Mode mode;
        simt::Dispatch dispatch;
        uint64_t seed;
    };
    for (const Schedule s : {Schedule{simt::Mode::its, simt::Dispatch::in_order, 1},
                             Schedule{simt::Mode::its, simt::Dispatch::shuffled, 2},
                             Schedule{simt::Mode::its, simt::Dispatch::shuffled, 9},
                             Schedule{simt::Mode::lockstep, simt::Dispatch::in_order, 3}}) {
        const simt::Options saved = simt::options();
        simt::options().mode = s.mode;
        simt::options().dispatch = s.dispatch;
        simt::options().seed = s.seed;
        INFO("mode " << simt::to_string(s.mode) << ", dispatch " << simt::to_string(s.dispatch)
                     << ", seed " << s.seed);
        check();
        simt::options() = saved;
    }
#else
    check();
#endif
}

} // namespace

TEST_CASE("bulk stores: threads write, fence, sync; one thread stores each tile and waits") {
    under_each_schedule([] {
        for (const int tiles : {1, 2, 5}) {
            const int blocks = 6;
            const std::vector<int> host = random_ints(static_cast<size_t>(blocks) * tiles * kTile);
            DeviceVector<int> in(host), out(host.size()), seen(blocks);
            transform_tiles<<<blocks, kTile>>>(in.data(), out.data(), seen.data(), tiles);
            REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            const std::vector<int> result = out.download();
            for (size_t i = 0; i < host.size(); ++i)
                REQUIRE(result[i] == 3 * host[i] + static_cast<int>(i / kTile));
            const std::vector<int> read_back = seen.download();
            for (int b = 0; b < blocks; ++b)
                CHECK(read_back[b] ==
                      result[(static_cast<size_t>(b) * tiles + tiles - 1) * kTile + 5]);
        }
    });
}

TEST_CASE("bulk stores: a tile copied through shared memory by a bulk load and a bulk store") {
    under_each_schedule([] {
        for (const int tiles : {1, 3, 8}) {
            const std::vector<int> host = random_ints(static_cast<size_t>(tiles) * kTile);
            DeviceVector<int> in(host), out(host.size());
            copy_tiles<<<1, 32>>>(in.data(), out.data(), tiles);
            REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
            CHECK(out.download() == host);
        }
    });
}
