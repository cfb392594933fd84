// CUDA features that programs written for a GPU use and the emulator runs as a GPU does: kernel
// default arguments, a file-scope extern __shared__ array used through casts, cooperative
// launches with grid-wide sync, tiles of more than a warp, binary partitions, coalesced_threads,
// launches from several host threads, half precision (arithmetic, math functions, atomicAdd on
// __half and __half2), atomicAdd on float2 and float4, the directed-rounding intrinsics, zero-copy
// host memory, device limits, cache preferences and stream access-policy hints, cuda::barrier,
// code kept for a GPU under `#if __CUDA_ARCH__ >= 700`, inline PTX reads of a lane's special
// registers and the warp reductions (__reduce_add_sync ...). Built for both
// backends: on the cuda backend the same kernels run on a GPU, with the same expectations.
#include <doctest/doctest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cuda_fp16.h>
#include <cuda/barrier>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numeric>
#include <random>
#include <thread>
#include <vector>

#include "device_vector.h"

#ifdef SCANLAB_BACKEND_SIMT
#include "planted.h"
#endif

namespace cg = cooperative_groups;

// ---- Kernel default arguments ----------------------------------------------------------------

namespace {

__global__ void fill_with_defaults(int* out, int value = 7, int stride = 1) {
    out[threadIdx.x * stride] = value + static_cast<int>(threadIdx.x);
}

template <class T>
__global__ void scale_with_default(T* out, T factor = T(3)) {
    out[threadIdx.x] = static_cast<T>(threadIdx.x) * factor;
}

} // namespace

TEST_CASE("kernel default arguments: the launch may leave the last parameters out") {
    DeviceVector<int> out(64);
    fill_with_defaults<<<1, 32>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> v = out.download();
    for (int i = 0; i < 32; ++i) CHECK(v[i] == 7 + i);

    fill_with_defaults<<<1, 32>>>(out.data(), 100);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    v = out.download();
    for (int i = 0; i < 32; ++i) CHECK(v[i] == 100 + i);

    fill_with_defaults<<<1, 32>>>(out.data(), -5, 2);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    v = out.download();
    for (int i = 0; i < 32; ++i) CHECK(v[2 * i] == -5 + i);

    DeviceVector<float> f(32);
    scale_with_default<float><<<1, 32>>>(f.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<float> fv = f.download();
    for (int i = 0; i < 32; ++i) CHECK(fv[i] == 3.0f * static_cast<float>(i));
}

// ---- A file-scope extern __shared__ array, used through casts -----------------------------------

extern __shared__ unsigned char dynamic_bytes[];

namespace {

// The bytes seen as floats by a device function, through a C-style cast.
__device__ float* as_floats() {
    return (float*)dynamic_bytes;
}

// Each block reverses its slice of `in` through the dynamic shared memory, reinterpreted as
// floats, and counts its threads in an int placed after the floats.
__global__ void reverse_through_dynamic(const float* in, float* out, int* counts) {
    float* slots = reinterpret_cast<float*>(dynamic_bytes);
    int* count = reinterpret_cast<int*>(dynamic_bytes + blockDim.x * sizeof(float));
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (threadIdx.x == 0) *count = 0;
    slots[threadIdx.x] = in[i];
    __syncthreads();
    atomicAdd(count, 1);
    out[i] = as_floats()[blockDim.x - 1 - threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) counts[blockIdx.x] = *count;
}

} // namespace

TEST_CASE("a file-scope extern __shared__ array works through casts in kernels and functions") {
    constexpr int kBlocks = 3, kThreads = 64;
    std::vector<float> in(kBlocks * kThreads);
    for (int i = 0; i < kBlocks * kThreads; ++i) in[i] = 0.5f * static_cast<float>(i) - 9.0f;
    DeviceVector<float> d_in(in), d_out(in.size());
    DeviceVector<int> counts(kBlocks);
    reverse_through_dynamic<<<kBlocks, kThreads, kThreads * sizeof(float) + sizeof(int)>>>(
        d_in.data(), d_out.data(), counts.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<float> out = d_out.download();
    for (int b = 0; b < kBlocks; ++b)
        for (int t = 0; t < kThreads; ++t)
            CHECK(out[b * kThreads + t] == in[b * kThreads + kThreads - 1 - t]);
    for (int c : counts.download()) CHECK(c == kThreads);
}

// ---- Cooperative launches and grid-wide sync ---------------------------------------------------

namespace {

// Rounds of: every thread publishes a value, the grid syncs, every thread reads a value that a
// thread of another block published, the grid syncs again before the next round overwrites.
__global__ void rotate_across_blocks(int* values, int* out, int rounds) {
    cg::grid_group grid = cg::this_grid();
    const unsigned n = static_cast<unsigned>(grid.size());
    const unsigned i = static_cast<unsigned>(grid.thread_rank());
    int mine = static_cast<int>(i);
    for (int r = 0; r < rounds; ++r) {
        values[i] = mine;
        grid.sync();
        mine = values[(i + blockDim.x) % n] + 1; // the same thread of the next block
        grid.sync();
    }
    out[i] = mine;
    if (i == 0) out[n] = grid.is_valid() ? 1 : 0;
}

} // namespace

TEST_CASE("cudaLaunchCooperativeKernel runs the grid at once and this_grid().sync() orders it") {
    constexpr int kBlocks = 4, kThreads = 128, kRounds = 3;
    constexpr int n = kBlocks * kThreads;
    DeviceVector<int> values(n), out(n + 1);
    int* d_values = values.data();
    int* d_out = out.data();
    int rounds = kRounds;
    void* args[] = {&d_values, &d_out, &rounds};
    REQUIRE(cudaLaunchCooperativeKernel((void*)rotate_across_blocks, dim3(kBlocks), dim3(kThreads),
                                        args, 0, nullptr) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> v = out.download();
    for (int i = 0; i < n; ++i) CHECK(v[i] == (i + kRounds * kThreads) % n + kRounds);
    CHECK(v[n] == 1);
}

TEST_CASE("a cooperative grid larger than the device holds at once is refused, as on a GPU") {
    int device = 0, per_sm = 0;
    cudaDeviceProp prop{};
    REQUIRE(cudaGetDevice(&device) == cudaSuccess);
    REQUIRE(cudaGetDeviceProperties(&prop, device) == cudaSuccess);
    CHECK(prop.cooperativeLaunch == 1);
    REQUIRE(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, rotate_across_blocks, 1024, 0) ==
            cudaSuccess);
    const int too_many = per_sm * prop.multiProcessorCount + 1;
    DeviceVector<int> values(1024 * too_many), out(1024 * too_many + 1);
    int* d_values = values.data();
    int* d_out = out.data();
    int rounds = 1;
    void* args[] = {&d_values, &d_out, &rounds};
    CHECK(cudaLaunchCooperativeKernel((void*)rotate_across_blocks, dim3(too_many), dim3(1024), args,
                                      0, nullptr) == cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaErrorCooperativeLaunchTooLarge);
    CHECK(cudaGetLastError() == cudaSuccess); // not sticky
}

// ---- Tiles of more than a warp -----------------------------------------------------------------

namespace {

constexpr int kTileOutputs = 5;

// Per thread: the tile's sum (cg::reduce), its rank, meta-group rank and size, and the value its
// tile neighbour wrote to shared memory before the tile's sync.
template <unsigned Tile>
__global__ void large_tiles(const int* in, int* out) {
    __shared__ int slots[1024];
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(block);
    const unsigned t = block.thread_rank();
    const int v = in[blockIdx.x * block.size() + t];
    int* o = out + (blockIdx.x * block.size() + t) * kTileOutputs;
    o[0] = cg::reduce(tile, v, cg::plus<int>());
    o[1] = static_cast<int>(tile.thread_rank());
    o[2] = static_cast<int>(tile.meta_group_rank());
    o[3] = static_cast<int>(tile.meta_group_size());
    slots[t] = v;
    tile.sync();
    o[4] = slots[t - tile.thread_rank() + (tile.thread_rank() + 1) % Tile];
}

template <unsigned Tile>
void check_large_tiles() {
    CAPTURE(Tile);
    constexpr unsigned kThreads = 512, kBlocks = 2;
    std::vector<int> in(kThreads * kBlocks);
    for (unsigned i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i * 7 % 101) - 50;
    DeviceVector<int> d_in(in), d_out(in.size() * kTileOutputs);
    large_tiles<Tile><<<kBlocks, kThreads>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (unsigned b = 0; b < kBlocks; ++b) {
        for (unsigned t = 0; t < kThreads; ++t) {
            const unsigned first = b * kThreads + t / Tile * Tile;
            int sum = 0;
            for (unsigned k = 0; k < Tile; ++k) sum += in[first + k];
            const int* o = &out[(b * kThreads + t) * kTileOutputs];
            CHECK(o[0] == sum);
            CHECK(o[1] == static_cast<int>(t % Tile));
            CHECK(o[2] == static_cast<int>(t / Tile));
            CHECK(o[3] == static_cast<int>(kThreads / Tile));
            CHECK(o[4] == in[first + (t % Tile + 1) % Tile]);
        }
    }
}

} // namespace

TEST_CASE("thread_block_tile of 64 to 512 threads: ranks, sync and cg::reduce") {
    check_large_tiles<64>();
    check_large_tiles<128>();
    check_large_tiles<256>();
    check_large_tiles<512>();
}

// ---- binary_partition -------------------------------------------------------------------------

namespace {

constexpr int kPartitionOutputs = 5;

// Each warp splits by the parity of its values: per thread its group's sum, rank, size, the value
// of its group's rank-0 thread, and the group's ballot of "value > 0" (by rank).
__global__ void partition_by_parity(const int* in, int* out) {
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    const cg::coalesced_group group = cg::binary_partition(tile, (v & 1) != 0);
    int* o = out + i * kPartitionOutputs;
    o[0] = cg::reduce(group, v, cg::plus<int>());
    o[1] = static_cast<int>(group.thread_rank());
    o[2] = static_cast<int>(group.size());
    o[3] = group.shfl(v, 0);
    o[4] = static_cast<int>(group.ballot(v > 0));
}

} // namespace

TEST_CASE("cooperative groups: binary_partition of a warp tile, its ranks, shfl, ballot, reduce") {
    constexpr int kThreads = 64;
    std::vector<int> in(kThreads);
    for (int i = 0; i < kThreads; ++i) in[i] = (i * 37 % 23) - 11;
    DeviceVector<int> d_in(in), d_out(kThreads * kPartitionOutputs);
    partition_by_parity<<<1, kThreads>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int i = 0; i < kThreads; ++i) {
        CAPTURE(i);
        const int warp = i / 32 * 32;
        const bool odd = (in[i] & 1) != 0;
        int sum = 0, rank = 0, size = 0, first = 0;
        unsigned ballot = 0;
        for (int l = warp; l < warp + 32; ++l) {
            if (((in[l] & 1) != 0) != odd) continue;
            if (size == 0) first = in[l];
            if (in[l] > 0) ballot |= 1u << size;
            if (l < i) ++rank;
            sum += in[l];
            ++size;
        }
        const int* o = &out[i * kPartitionOutputs];
        CHECK(o[0] == sum);
        CHECK(o[1] == rank);
        CHECK(o[2] == size);
        CHECK(o[3] == first);
        CHECK(static_cast<unsigned>(o[4]) == ballot);
    }
}

// ---- labeled_partition ------------------------------------------------------------------------

namespace {

constexpr int kLabelOutputs = 4;

// Each warp splits by a label (value mod 5), once from its tile and once from the coalesced group
// of its lanes with an even label: per thread its group's sum, rank and size from the tile, and
// the size of its group from the coalesced parent (lanes with an odd label write -1).
__global__ void partition_by_label(const int* in, int* out) {
    const cg::thread_block_tile<32> tile = cg::tiled_partition<32>(cg::this_thread_block());
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    const int label = v % 5;
    const cg::coalesced_group group = cg::labeled_partition(tile, label);
    int* o = out + i * kLabelOutputs;
    o[0] = cg::reduce(group, v, cg::plus<int>());
    o[1] = static_cast<int>(group.thread_rank());
    o[2] = static_cast<int>(group.size());
    const cg::coalesced_group even = cg::binary_partition(tile, label % 2 == 0);
    const cg::coalesced_group sub = cg::labeled_partition(even, label);
    o[3] = label % 2 == 0 ? static_cast<int>(sub.size()) : -1;
}

} // namespace

TEST_CASE("cooperative groups: labeled_partition of a warp tile and of a coalesced group") {
    constexpr int kThreads = 96;
    std::mt19937 random(std::random_device{}());
    std::uniform_int_distribution<int> values(0, 1000);
    std::vector<int> in(kThreads);
    for (int& v : in) v = values(random);
    for (int l = 0; l < 32; ++l) in[l] = 5 * l; // one warp of a single label
    in[64] = 1;                                 // a label only one lane of its warp has...
    for (int l = 65; l < 96; ++l)
        if (in[l] % 5 == 1) in[l] += 1; // ...on its own
    DeviceVector<int> d_in(in), d_out(kThreads * kLabelOutputs);
    partition_by_label<<<1, kThreads>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int i = 0; i < kThreads; ++i) {
        CAPTURE(i);
        const int warp = i / 32 * 32;
        const int label = in[i] % 5;
        int sum = 0, rank = 0, size = 0;
        for (int l = warp; l < warp + 32; ++l) {
            if (in[l] % 5 != label) continue;
            if (l < i) ++rank;
            sum += in[l];
            ++size;
        }
        const int* o = &out[i * kLabelOutputs];
        CHECK(o[0] == sum);
        CHECK(o[1] == rank);
        CHECK(o[2] == size);
        CHECK(o[3] == (label % 2 == 0 ? size : -1));
    }
    CHECK(out[0 * kLabelOutputs + 2] == 32);
    CHECK(out[64 * kLabelOutputs + 2] == 1);
}

// ---- coalesced_threads: warp-aggregated atomics -----------------------------------------------

namespace {

// Threads with a positive value append it to `out` through a warp-aggregated atomic: the lanes
// that reach coalesced_threads() together take one atomicAdd, made by their rank-0 thread. Each
// thread also records its group's size and its rank (which lanes a GPU groups after the branch
// is its choice: the test asks only what holds for every grouping).
__global__ void filter_positive(const int* in, int n, int* out, int* count, int* ranks_and_sizes) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n || in[i] <= 0) return;
    const cg::coalesced_group active = cg::coalesced_threads();
    int first = 0;
    if (active.thread_rank() == 0) first = atomicAdd(count, static_cast<int>(active.size()));
    first = active.shfl(first, 0);
    out[first + static_cast<int>(active.thread_rank())] = in[i];
    ranks_and_sizes[2 * i] = static_cast<int>(active.thread_rank());
    ranks_and_sizes[2 * i + 1] = static_cast<int>(active.size());
}

} // namespace

TEST_CASE("cooperative groups: coalesced_threads() aggregates a warp's atomics") {
    constexpr int kThreads = 1000; // the last warp is partial
    std::mt19937 random(20261128);
    std::uniform_int_distribution<int> values(-50, 50);
    std::vector<int> in(kThreads);
    for (int& v : in) v = values(random);
    in[0] = 5;  // a warp that is all positive...
    in[1] = -1; // ...but for one lane
    DeviceVector<int> d_in(in), d_out(kThreads), d_count(1), d_ranks(2 * kThreads);
    REQUIRE(cudaMemset(d_count.data(), 0, sizeof(int)) == cudaSuccess);
    filter_positive<<<(kThreads + 127) / 128, 128>>>(d_in.data(), kThreads, d_out.data(),
                                                     d_count.data(), d_ranks.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    std::vector<int> expected;
    for (int v : in)
        if (v > 0) expected.push_back(v);
    const int count = d_count.download()[0];
    REQUIRE(count == static_cast<int>(expected.size()));
    std::vector<int> out = d_out.download();
    out.resize(count);
    std::sort(out.begin(), out.end());
    std::sort(expected.begin(), expected.end());
    CHECK(out == expected);
    const std::vector<int> ranks = d_ranks.download();
    for (int i = 0; i < kThreads; ++i) {
        if (in[i] <= 0) continue;
        CAPTURE(i);
        int positive_in_warp = 0;
        for (int l = i / 32 * 32; l < std::min(i / 32 * 32 + 32, kThreads); ++l)
            positive_in_warp += in[l] > 0;
        CHECK(ranks[2 * i] < ranks[2 * i + 1]);
        CHECK(ranks[2 * i + 1] <= positive_in_warp);
    }
}

// ---- Launches from several host threads ------------------------------------------------------

namespace {

__global__ void add_to_each(int* data, int n, int amount) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) data[i] += amount;
}

constexpr int kHostThreads = 4, kElements = 3000, kRounds = 3;

} // namespace

TEST_CASE("host threads: each allocates, copies and launches on its own stream at the same time") {
    std::vector<std::vector<int>> results(kHostThreads);
    std::vector<cudaError_t> errors(kHostThreads, cudaSuccess);
    std::vector<std::thread> threads;
    for (int t = 0; t < kHostThreads; ++t) {
        threads.emplace_back([t, &results, &errors] {
            std::vector<int> host(kElements);
            for (int i = 0; i < kElements; ++i) host[i] = i * (t + 1);
            int* device = nullptr;
            cudaStream_t stream = nullptr;
            cudaError_t e = cudaStreamCreate(&stream);
            if (e == cudaSuccess) e = cudaMalloc(&device, kElements * sizeof(int));
            if (e == cudaSuccess)
                e = cudaMemcpyAsync(device, host.data(), kElements * sizeof(int),
                                    cudaMemcpyHostToDevice, stream);
            for (int round = 0; round < kRounds && e == cudaSuccess; ++round) {
                add_to_each<<<(kElements + 255) / 256, 256, 0, stream>>>(device, kElements, t + 1);
                e = cudaGetLastError();
            }
            if (e == cudaSuccess)
                e = cudaMemcpyAsync(host.data(), device, kElements * sizeof(int),
                                    cudaMemcpyDeviceToHost, stream);
            if (e == cudaSuccess) e = cudaStreamSynchronize(stream);
            cudaFree(device);
            cudaStreamDestroy(stream);
            errors[t] = e;
            results[t] = host;
        });
    }
    for (std::thread& thread : threads) thread.join();
    for (int t = 0; t < kHostThreads; ++t) {
        CAPTURE(t);
        REQUIRE(errors[t] == cudaSuccess);
        for (int i = 0; i < kElements; ++i) REQUIRE(results[t][i] == (i + kRounds) * (t + 1));
    }
}

// ---- Half precision (cuda_fp16.h) -------------------------------------------------------------

namespace {

// Per element: a+b, a*b, fma(a, b, c) through the half2 intrinsics, then a-b and a*b+c through
// the __half operators, and the bits of the float-to-half conversion of `edges`.
__global__ void half_arithmetic(const half2* a, const half2* b, const half2* c, half2* out,
                                const float* edges, unsigned short* edge_bits, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) {
        out[4 * i] = __hadd2(a[i], b[i]);
        out[4 * i + 1] = __hmul2(a[i], b[i]);
        out[4 * i + 2] = __hfma2(a[i], b[i], c[i]);
        out[4 * i + 3] = __halves2half2(a[i].x - b[i].x, a[i].y * b[i].y + c[i].y);
    }
    if (i < 8) edge_bits[i] = __half_as_ushort(__float2half_rn(edges[i]));
}

} // namespace

TEST_CASE("half precision: half2 intrinsics and operators round each result to half") {
    constexpr int n = 300;
    std::mt19937 random(1128);
    std::uniform_int_distribution<int> eighths(-2000, 2000);
    const auto random_half = [&] { return __float2half(static_cast<float>(eighths(random)) / 8); };
    std::vector<half2> a(n), b(n), c(n);
    for (int i = 0; i < n; ++i) {
        a[i] = __halves2half2(random_half(), random_half());
        b[i] = __halves2half2(random_half(), random_half());
        c[i] = __halves2half2(random_half(), random_half());
    }
    // Round-to-nearest-even edges: a tie below 1 + 2^-10 (to 1), the largest finite half and the
    // first float that rounds to infinity, the smallest subnormal and the tie below it, -0.1.
    const std::vector<float> edges = {
        1.0f + 1.0f / 2048,    1.0f + 3.0f / 2048,    65519.0f, 65520.0f,
        std::ldexp(1.0f, -24), std::ldexp(1.0f, -25), -0.1f,    std::ldexp(3.0f, -26)};
    const unsigned short expected_edges[8] = {0x3c00, 0x3c02, 0x7bff, 0x7c00,
                                              0x0001, 0x0000, 0xae66, 0x0001};
    DeviceVector<half2> d_a(a), d_b(b), d_c(c), d_out(4 * n);
    DeviceVector<float> d_edges(edges);
    DeviceVector<unsigned short> d_bits(8);
    half_arithmetic<<<(n + 127) / 128, 128>>>(d_a.data(), d_b.data(), d_c.data(), d_out.data(),
                                              d_edges.data(), d_bits.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<half2> out = d_out.download();
    const auto rounded = [](double v) { return __half2float(__float2half(static_cast<float>(v))); };
    for (int i = 0; i < n; ++i) {
        CAPTURE(i);
        const float ax = __low2float(a[i]), ay = __high2float(a[i]);
        const float bx = __low2float(b[i]), by = __high2float(b[i]);
        const float cx = __low2float(c[i]), cy = __high2float(c[i]);
        CHECK(__low2float(out[4 * i]) == rounded(double(ax) + bx));
        CHECK(__high2float(out[4 * i]) == rounded(double(ay) + by));
        CHECK(__low2float(out[4 * i + 1]) == rounded(double(ax) * bx));
        CHECK(__high2float(out[4 * i + 2]) == rounded(double(ay) * by + cy));
        CHECK(__low2float(out[4 * i + 2]) == rounded(double(ax) * bx + cx));
        CHECK(__low2float(out[4 * i + 3]) == rounded(double(ax) - bx));
        // nvcc may contract the operators' a * b + c into one fma (__hmul_rn is the form it
        // may not), so either rounding is what a GPU gives.
        const float separate = rounded(rounded(double(ay) * by) + cy);
        const float fused = rounded(double(ay) * by + cy);
        const float got = __high2float(out[4 * i + 3]);
        CHECK((got == separate || got == fused));
    }
    const std::vector<unsigned short> bits = d_bits.download();
    for (int i = 0; i < 8; ++i) {
        CAPTURE(i);
        CHECK(bits[i] == expected_edges[i]);
    }
}

// ---- Half precision math functions (cuda_fp16.h) -----------------------------------------------

namespace {

constexpr int kHalfMath = 15; // functions in half_math, each as __half and through its half2 form

// out[f * n + i]: function f of in[i] as __half; out2[...]: the same through the half2 form, the
// input in the high half (the low half holds 1).
__global__ void half_math(const half* in, half* out, half* out2, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i >= n) return;
    const half x = in[i];
    const half2 x2 = __halves2half2(__float2half(1.0f), x);
    const half r[kHalfMath] = {hexp(x),   hexp2(x), hexp10(x), hlog(x),   hlog2(x),
                               hlog10(x), hsqrt(x), hrsqrt(x), hrcp(x),   hsin(x),
                               hcos(x),   hceil(x), hfloor(x), htrunc(x), hrint(x)};
    const half2 r2[kHalfMath] = {h2exp(x2),   h2exp2(x2), h2exp10(x2), h2log(x2),   h2log2(x2),
                                 h2log10(x2), h2sqrt(x2), h2rsqrt(x2), h2rcp(x2),   h2sin(x2),
                                 h2cos(x2),   h2ceil(x2), h2floor(x2), h2trunc(x2), h2rint(x2)};
    for (int f = 0; f < kHalfMath; ++f) {
        out[f * n + i] = r[f];
        out2[f * n + i] = __high2half(r2[f]);
    }
}

// The cases of NaN, signed zeros and saturation, and fma and conversion roundings that float
// would round twice.
__global__ void half_specials(unsigned short* bits, int* flags) {
    const half pz = __float2half(0.0f), nz = __float2half(-0.0f), one = __float2half(1.0f);
    const half nan = __ushort_as_half(0x7e00), two = __float2half(2.0f);
    const half r[] = {
        __hmax(nz, pz), __hmin(pz, nz), __hmax(nan, one), __hmin(one, nan), __hmax_nan(nan, one),
        __habs(__float2half(-3.0f)), __hadd_sat(one, one), __hsub_sat(one, two),
        __hfma_relu(one, -two, one),
        // (2^-11 + 2^-18)(1 - 2^-7) + 1 + 2^-10 = 1 + 2^-10 + 2^-11 - 2^-25, just below a
        // tie: 0x3c01 (through float: the tie, 0x3c02); 1 + 2^-11 + 2^-30 likewise
        __hfma(__ushort_as_half(0x1008), __ushort_as_half(0x3bf0), __ushort_as_half(0x3c01)),
        __double2half(0x1.00200004p+0), __hmax2(__halves2half2(one, nz), __halves2half2(two, pz)).y,
        __habs2(__halves2half2(-two, one)).x};
    for (int i = 0; i < 13; ++i) bits[i] = __half_as_ushort(r[i]);
    flags[0] = __hne(nan, one);
    flags[1] = __hneu(nan, one);
    flags[2] = nan != one;
    flags[3] = __hisinf(__ushort_as_half(0xfc00));
    flags[4] = static_cast<int>(__heq2_mask(__halves2half2(one, nan), __halves2half2(one, one)));
    flags[5] = __hbequ2(__halves2half2(one, nan), __halves2half2(one, one));
    flags[6] = __half_as_ushort(__hlt2(__halves2half2(pz, two), __halves2half2(one, one)).x);
    flags[7] = __halves2half2(one, nan) == __halves2half2(one, nan);
    flags[8] = __hisnan(__hmin_nan(one, nan));
}

} // namespace

TEST_CASE("half precision: math functions give the correctly rounded half, as a GPU does") {
    // Random halves, and inputs where float, then half rounds twice (bits an H200 gave).
    std::mt19937 random(2029);
    std::uniform_int_distribution<int> any_bits(0, 0x7bff); // finite, non-negative
    std::vector<half> in;
    for (int i = 0; i < 400; ++i) {
        const auto b = static_cast<unsigned short>(any_bits(random) | (i % 2 ? 0x8000 : 0));
        in.push_back(__ushort_as_half(b));
    }
    struct Known {
        int function;
        unsigned short in, out;
    };
    const Known known[] = {{0, 0x1f79, 0x3c07}, {1, 0x11c5, 0x3c01}, {3, 0x1d78, 0xc53b},
                           {5, 0x57e1, 0x4033}, {9, 0x5cb0, 0xbbff}, {10, 0x2b7c, 0x3bfd}};
    for (const Known& k : known) in.push_back(__ushort_as_half(k.in));
    const int n = static_cast<int>(in.size());
    DeviceVector<half> d_in(in), d_out(kHalfMath * n), d_out2(kHalfMath * n);
    half_math<<<(n + 127) / 128, 128>>>(d_in.data(), d_out.data(), d_out2.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<half> out = d_out.download(), out2 = d_out2.download();
    using Exact = double (*)(double);
    const Exact exact[kHalfMath] = {[](double x) { return std::exp(x); },
                                    [](double x) { return std::exp2(x); },
                                    [](double x) { return std::pow(10.0, x); },
                                    [](double x) { return std::log(x); },
                                    [](double x) { return std::log2(x); },
                                    [](double x) { return std::log10(x); },
                                    [](double x) { return std::sqrt(x); },
                                    [](double x) { return 1 / std::sqrt(x); },
                                    [](double x) { return 1 / x; },
                                    [](double x) { return std::sin(x); },
                                    [](double x) { return std::cos(x); },
                                    [](double x) { return std::ceil(x); },
                                    [](double x) { return std::floor(x); },
                                    [](double x) { return std::trunc(x); },
                                    [](double x) { return std::nearbyint(x); }};
    for (int f = 0; f < kHalfMath; ++f) {
        for (int i = 0; i < n; ++i) {
            const double x = __half2float(in[i]);
            const half want = __double2half(exact[f](x));
            CAPTURE(f);
            CAPTURE(x);
            if (std::isnan(__half2float(want))) {
                CHECK(std::isnan(__half2float(out[f * n + i])));
                CHECK(std::isnan(__half2float(out2[f * n + i])));
                continue;
            }
            CHECK(__half_as_ushort(out[f * n + i]) == __half_as_ushort(want));
            CHECK(__half_as_ushort(out2[f * n + i]) == __half_as_ushort(want));
        }
    }
    for (const Known& k : known) {
        const int i = static_cast<int>(&k - known) + 400;
        CAPTURE(k.function);
        CHECK(__half_as_ushort(out[k.function * n + i]) == k.out);
    }

    DeviceVector<unsigned short> bits(13);
    DeviceVector<int> flags(9);
    half_specials<<<1, 1>>>(bits.data(), flags.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<unsigned short> b = bits.download();
    const unsigned short want_bits[13] = {0x0000, 0x8000, 0x3c00, 0x3c00, 0x7fff, 0x4200, 0x3c00,
                                          0x0000, 0x0000, 0x3c01, 0x3c01, 0x0000, 0x4000};
    for (int i = 0; i < 13; ++i) {
        CAPTURE(i);
        if (i == 4)
            CHECK(std::isnan(__half2float(__ushort_as_half(b[i]))));
        else
            CHECK(b[i] == want_bits[i]);
    }
    const std::vector<int> fl = flags.download();
    const int want_flags[9] = {0, 1, 1, -1, 0xffff, 1, 0x3c00, 0, 1};
    for (int i = 0; i < 9; ++i) {
        CAPTURE(i);
        CHECK(fl[i] == want_flags[i]);
    }
}

// ---- atomicAdd on __half, __half2, float2 and float4
// ---------------------------------------------

namespace {

constexpr int kAtomicBlocks = 4, kAtomicThreads = 128;
constexpr int kAtomicAdders = kAtomicBlocks * kAtomicThreads;

// Every thread adds its value to one __half and one __half2, and to one of 4 float2 and of 4
// float4 (thread i to slot i % 4, each component its own value), keeping what it saw.
__global__ void add_atomically(const half* h_values, const half2* h2_values,
                               const float2* f2_values, const float4* f4_values, half* h_sum,
                               half2* h2_sum, float2* f2_sums, float4* f4_sums, half* h_seen,
                               half2* h2_seen, float2* f2_seen, float4* f4_seen) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    h_seen[i] = atomicAdd(h_sum, h_values[i]);
    h2_seen[i] = atomicAdd(h2_sum, h2_values[i]);
    f2_seen[i] = atomicAdd(&f2_sums[i % 4], f2_values[i]);
    f4_seen[i] = atomicAdd_system(&f4_sums[i % 4], f4_values[i]);
}

// Each adder saw the sum of those before it: ordered by what they saw (with positive values),
// each one's value leads to the next one's, from 0 to the total.
void check_chain(std::vector<std::pair<double, double>> seen_and_value, double total) {
    std::sort(seen_and_value.begin(), seen_and_value.end());
    double expected = 0;
    for (const auto& [seen, value] : seen_and_value) {
        REQUIRE(seen == expected);
        expected += value;
    }
    CHECK(expected == total);
}

} // namespace

TEST_CASE("atomicAdd on __half and __half2 (one atomic), float2 and float4 (one per float)") {
    std::mt19937 random(77);
    std::uniform_int_distribution<int> quarters(1, 4), small(-3, 3), eighths(1, 64);
    // Quarters up to 512 and integers up to 1536 are exact halves: every partial sum is exact.
    std::vector<half> h_values(kAtomicAdders);
    std::vector<half2> h2_values(kAtomicAdders);
    std::vector<float2> f2_values(kAtomicAdders);
    std::vector<float4> f4_values(kAtomicAdders);
    for (int i = 0; i < kAtomicAdders; ++i) {
        h_values[i] = __float2half(quarters(random) / 4.0f);
        h2_values[i] =
            __floats2half2_rn(quarters(random) / 4.0f, static_cast<float>(small(random)));
        f2_values[i] = make_float2(eighths(random) / 8.0f, eighths(random) / 8.0f);
        f4_values[i] = make_float4(eighths(random) / 8.0f, eighths(random) / 8.0f,
                                   eighths(random) / 8.0f, eighths(random) / 8.0f);
    }
    DeviceVector<half> d_h(h_values), h_sum(std::vector<half>{__float2half(0.0f)}),
        h_seen(kAtomicAdders);
    DeviceVector<half2> d_h2(h2_values), h2_sum(std::vector<half2>{__floats2half2_rn(0, 0)}),
        h2_seen(kAtomicAdders);
    DeviceVector<float2> d_f2(f2_values), f2_sums(std::vector<float2>(4, make_float2(0, 0))),
        f2_seen(kAtomicAdders);
    DeviceVector<float4> d_f4(f4_values), f4_sums(std::vector<float4>(4, make_float4(0, 0, 0, 0))),
        f4_seen(kAtomicAdders);
    add_atomically<<<kAtomicBlocks, kAtomicThreads>>>(
        d_h.data(), d_h2.data(), d_f2.data(), d_f4.data(), h_sum.data(), h2_sum.data(),
        f2_sums.data(), f4_sums.data(), h_seen.data(), h2_seen.data(), f2_seen.data(),
        f4_seen.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    // __half: the total, and each adder saw the sum of those before it.
    const std::vector<half> hs = h_seen.download();
    std::vector<std::pair<double, double>> chain;
    double total = 0;
    for (int i = 0; i < kAtomicAdders; ++i) {
        chain.emplace_back(__half2float(hs[i]), __half2float(h_values[i]));
        total += __half2float(h_values[i]);
    }
    CHECK(__half2float(h_sum.download()[0]) == total);
    check_chain(chain, total);
    // __half2: one atomic of both halves, so the high halves seen follow the order of the low
    // ones (integers of either sign: checked against the low halves' order).
    const std::vector<half2> h2s = h2_seen.download();
    std::vector<int> order(kAtomicAdders);
    std::iota(order.begin(), order.end(), 0);
    std::sort(order.begin(), order.end(),
              [&](int a, int b) { return __low2float(h2s[a]) < __low2float(h2s[b]); });
    double low = 0, high = 0;
    for (const int i : order) {
        CAPTURE(i);
        REQUIRE(__low2float(h2s[i]) == low);
        REQUIRE(__high2float(h2s[i]) == high);
        low += __low2float(h2_values[i]);
        high += __high2float(h2_values[i]);
    }
    const half2 h2_total = h2_sum.download()[0];
    CHECK(__low2float(h2_total) == low);
    CHECK(__high2float(h2_total) == high);
    // float2 and float4: each component is atomic on its own (its chain holds), the vector not
    // as a whole, so the components' orders are not compared.
    const std::vector<float2> f2s = f2_seen.download(), f2_total = f2_sums.download();
    const std::vector<float4> f4s = f4_seen.download(), f4_total = f4_sums.download();
    for (int slot = 0; slot < 4; ++slot) {
        for (int c = 0; c < 6; ++c) { // x, y of float2, then x, y, z, w of float4
            CAPTURE(slot);
            CAPTURE(c);
            const auto component = [c](const auto& v2, const auto& v4) {
                const float* f = c < 2 ? &v2.x : &v4.x;
                return static_cast<double>(f[c < 2 ? c : c - 2]);
            };
            std::vector<std::pair<double, double>> per;
            double sum = 0;
            for (int i = slot; i < kAtomicAdders; i += 4) {
                per.emplace_back(component(f2s[i], f4s[i]), component(f2_values[i], f4_values[i]));
                sum += per.back().second;
            }
            CHECK(component(f2_total[slot], f4_total[slot]) == sum);
            check_chain(per, sum);
        }
    }
}

#ifdef SCANLAB_BACKEND_SIMT
// ---- The race checks see the new atomics (emulator only) ---------------------------------------

namespace {

// Block 0 resets the sum inside the kernel while the other blocks add to it: the plain store
// races their atomics, as with an int counter (reset it before the launch instead).
__global__ void half_sum_reset_in_kernel(half* sum) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        // BUG: half-sum-reset
        *sum = __float2half(0.0f);
    }
    atomicAdd(sum, __float2half(1.0f));
}
__global__ void half2_sum_reset_in_kernel(half2* sum) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        // BUG: half2-sum-reset
        *sum = __floats2half2_rn(0.0f, 0.0f);
    }
    atomicAdd(sum, __floats2half2_rn(1.0f, 2.0f));
}
// Only y is reset: each float of a float2 atomicAdd is an atomic of its own.
__global__ void float2_sum_reset_in_kernel(float2* sum) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        // BUG: float2-sum-reset
        sum->y = 0.0f;
    }
    atomicAdd(sum, make_float2(1.0f, 2.0f));
}
__global__ void sums_without_reset(half* h, half2* h2, float2* f2, float4* f4) {
    atomicAdd(h, __float2half(1.0f));
    atomicAdd(h2, __floats2half2_rn(1.0f, 2.0f));
    atomicAdd(f2, make_float2(1.0f, 2.0f));
    atomicAdd_block(&f4[blockIdx.x], make_float4(1.0f, 2.0f, 3.0f, 4.0f));
}
// float2 and float4 atomicAdd exist for global memory only (nvcc warns, a GPU traps).
__global__ void float2_sum_in_shared(float2* out) {
    __shared__ float2 sum;
    if (threadIdx.x == 0) sum = make_float2(0.0f, 0.0f);
    __syncthreads();
    atomicAdd(&sum, make_float2(1.0f, 2.0f));
    __syncthreads();
    if (threadIdx.x == 0) *out = sum;
}

} // namespace

TEST_CASE("race checks: a plain store racing atomicAdd on __half, __half2 and float2 is reported") {
    DeviceVector<half> h(1);
    DeviceVector<half2> h2(1);
    DeviceVector<float2> f2(1);
    DeviceVector<float4> f4(4);
    const auto zero = [&] {
        REQUIRE(cudaMemset(h.data(), 0, sizeof(half)) == cudaSuccess);
        REQUIRE(cudaMemset(h2.data(), 0, sizeof(half2)) == cudaSuccess);
        REQUIRE(cudaMemset(f2.data(), 0, sizeof(float2)) == cudaSuccess);
        REQUIRE(cudaMemset(f4.data(), 0, 4 * sizeof(float4)) == cudaSuccess);
    };
    expect_planted_report(__FILE__, {simt::FaultKind::global_race, "half-sum-reset"}, [&] {
        zero();
        half_sum_reset_in_kernel<<<4, 32>>>(h.data());
    });
    expect_planted_report(__FILE__, {simt::FaultKind::global_race, "half2-sum-reset"}, [&] {
        zero();
        half2_sum_reset_in_kernel<<<4, 32>>>(h2.data());
    });
    expect_planted_report(__FILE__, {simt::FaultKind::global_race, "float2-sum-reset"}, [&] {
        zero();
        float2_sum_reset_in_kernel<<<4, 32>>>(f2.data());
    });
    expect_clean("atomicAdd on sums reset before the launch", [&] {
        zero();
        sums_without_reset<<<4, 64>>>(h.data(), h2.data(), f2.data(), f4.data());
    });
    const simt::FaultReport shared = run_quietly([&] {
        float2_sum_in_shared<<<1, 32>>>(f2.data());
        CHECK(cudaDeviceSynchronize() == cudaErrorLaunchFailure);
    });
    INFO(shared.message);
    CHECK(shared.kind == simt::FaultKind::illegal_address);
    CHECK(shared.message.find("atomicAdd on a float2 in shared memory") != std::string::npos);
    CHECK(shared.message.find("global memory only") != std::string::npos);
}
#endif

// ---- Directed-rounding intrinsics --------------------------------------------------------------

namespace {

__global__ void rounded_arithmetic(float* f, double* d) {
    const float tiny = 1e-10f;
    f[0] = __fadd_rd(1.0f, tiny);
    f[1] = __fadd_ru(1.0f, tiny);
    f[2] = __fadd_rn(1.0f, tiny);
    f[3] = __fmul_rd(1.0f / 3.0f, 3.0f);
    f[4] = __fmul_ru(1.0f / 3.0f, 3.0f);
    f[5] = __fdiv_rd(1.0f, 3.0f);
    f[6] = __fdiv_ru(1.0f, 3.0f);
    f[7] = __fsqrt_rd(2.0f);
    f[8] = __fsqrt_ru(2.0f);
    f[9] = __fadd_rz(-1.0f, -tiny);
    f[10] = __fadd_rd(-1.0f, -tiny);
    d[0] = __dadd_rd(1.0, 1e-20);
    d[1] = __dadd_ru(1.0, 1e-20);
    d[2] = __ddiv_rd(1.0, 3.0);
    d[3] = __ddiv_ru(1.0, 3.0);
    d[4] = __dsqrt_rd(2.0);
    d[5] = __dsqrt_ru(2.0);
    d[6] = __dmul_rz(1.0 / 3.0, 3.0);
    d[7] = __longlong_as_double(__double_as_longlong(0.75));
    f[11] = __int_as_float(__float_as_int(-2.5f));
}

} // namespace

TEST_CASE("directed-rounding intrinsics round as their names say") {
    DeviceVector<float> f(12);
    DeviceVector<double> d(8);
    rounded_arithmetic<<<1, 1>>>(f.data(), d.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<float> fv = f.download();
    const std::vector<double> dv = d.download();
    CHECK(fv[0] == 1.0f);
    CHECK(fv[1] == std::nextafter(1.0f, 2.0f));
    CHECK(fv[2] == 1.0f);
    CHECK(fv[3] < fv[4]); // 1/3 rounded to nearest, times 3, is not exact
    CHECK(fv[4] == std::nextafter(fv[3], 2.0f));
    CHECK(fv[6] == std::nextafter(fv[5], 1.0f));
    CHECK(fv[5] < 1.0f / 3.0f + 1e-7f);
    CHECK(fv[8] == std::nextafter(fv[7], 2.0f));
    CHECK(fv[7] * fv[7] < 2.0f);
    CHECK(fv[9] == -1.0f);
    CHECK(fv[10] == std::nextafter(-1.0f, -2.0f));
    CHECK(dv[0] == 1.0);
    CHECK(dv[1] == std::nextafter(1.0, 2.0));
    CHECK(dv[3] == std::nextafter(dv[2], 1.0));
    CHECK(dv[5] == std::nextafter(dv[4], 2.0));
    CHECK(dv[6] <= 1.0);
    CHECK(dv[7] == 0.75);
    CHECK(fv[11] == -2.5f);
}

// ---- Zero-copy host memory ---------------------------------------------------------------------

namespace {

__global__ void add_mapped(const int* a, const int* b, int* c) {
    c[threadIdx.x] = a[threadIdx.x] + b[threadIdx.x];
}

} // namespace

TEST_CASE("mapped host memory: kernels use it through cudaHostGetDevicePointer") {
    cudaDeviceProp prop{};
    REQUIRE(cudaGetDeviceProperties(&prop, 0) == cudaSuccess);
    REQUIRE(prop.canMapHostMemory == 1);
    constexpr int n = 64;
    int *a = nullptr, *b = nullptr, *c = nullptr;
    REQUIRE(cudaHostAlloc(&a, n * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
    REQUIRE(cudaHostAlloc(&b, n * sizeof(int), cudaHostAllocMapped) == cudaSuccess);
    std::vector<int> registered(n, -1);
    REQUIRE(cudaHostRegister(registered.data(), n * sizeof(int), cudaHostRegisterMapped) ==
            cudaSuccess);
    c = registered.data();
    for (int i = 0; i < n; ++i) {
        a[i] = i;
        b[i] = 1000 * i;
    }
    int *da = nullptr, *db = nullptr, *dc = nullptr;
    REQUIRE(cudaHostGetDevicePointer((void**)&da, a, 0) == cudaSuccess);
    REQUIRE(cudaHostGetDevicePointer((void**)&db, b, 0) == cudaSuccess);
    REQUIRE(cudaHostGetDevicePointer((void**)&dc, c, 0) == cudaSuccess);
    add_mapped<<<1, n>>>(da, db, dc);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    for (int i = 0; i < n; ++i) CHECK(c[i] == 1001 * i);
    CHECK(cudaHostUnregister(registered.data()) == cudaSuccess);
    CHECK(cudaFreeHost(a) == cudaSuccess);
    CHECK(cudaFreeHost(b) == cudaSuccess);
}

// ---- Device limits and stream access-policy hints ----------------------------------------------

TEST_CASE("limits, cache preferences and a stream's access-policy window are accepted") {
    size_t heap = 0;
    REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, 64u << 20) == cudaSuccess);
    REQUIRE(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
    CHECK(heap == (64u << 20));
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    DeviceVector<int> data(256);
    cudaStreamAttrValue value{};
    value.accessPolicyWindow.base_ptr = data.data();
    value.accessPolicyWindow.num_bytes = 256 * sizeof(int);
    value.accessPolicyWindow.hitRatio = 0.5f;
    value.accessPolicyWindow.hitProp = cudaAccessPropertyPersisting;
    value.accessPolicyWindow.missProp = cudaAccessPropertyStreaming;
    CHECK(cudaStreamSetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &value) ==
          cudaSuccess);
    cudaStreamAttrValue back{};
    CHECK(cudaStreamGetAttribute(stream, cudaStreamAttributeAccessPolicyWindow, &back) ==
          cudaSuccess);
    CHECK(back.accessPolicyWindow.base_ptr == data.data());
    CHECK(back.accessPolicyWindow.hitProp == cudaAccessPropertyPersisting);
    CHECK(cudaCtxResetPersistingL2Cache() == cudaSuccess);
    CHECK(cudaStreamDestroy(stream) == cudaSuccess);
    CHECK(cudaFuncSetCacheConfig(add_mapped, cudaFuncCachePreferL1) == cudaSuccess);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferShared) == cudaSuccess);
    cudaFuncCache config = cudaFuncCachePreferNone;
    CHECK(cudaDeviceGetCacheConfig(&config) == cudaSuccess);
    CHECK(config == cudaFuncCachePreferShared);
    CHECK(cudaDeviceSetCacheConfig(cudaFuncCachePreferNone) == cudaSuccess);
}

// ---- Static and dynamic shared memory together over 48 KiB
// ----------------------------------------

namespace {

constexpr int kStaticInts = 10 * 1024; // 40 KiB of static __shared__
constexpr int kDynamicInts = 6 * 1024; // 24 KiB of dynamic: 64 KiB in all

// Each block writes every slot of both arrays, then reads them back in reverse order.
__global__ void static_and_dynamic(int* out) {
    __shared__ int fixed[kStaticInts];
    extern __shared__ int extra[];
    for (int i = threadIdx.x; i < kStaticInts; i += blockDim.x) fixed[i] = i;
    for (int i = threadIdx.x; i < kDynamicInts; i += blockDim.x) extra[i] = -i;
    __syncthreads();
    int sum = 0;
    for (int i = threadIdx.x; i < kStaticInts; i += blockDim.x) sum += fixed[kStaticInts - 1 - i];
    for (int i = threadIdx.x; i < kDynamicInts; i += blockDim.x) sum += extra[kDynamicInts - 1 - i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = sum;
}

} // namespace

TEST_CASE("cudaFuncAttributeMaxDynamicSharedMemorySize bounds the dynamic part alone") {
    // CUDA: the attribute limits the dynamic bytes; static and dynamic together may then pass
    // 48 KiB (up to the opt-in limit). 40 KiB static + 24 KiB dynamic runs once the attribute
    // allows 24 KiB of dynamic shared memory.
    constexpr int blocks = 3, threads = 128;
    REQUIRE(cudaFuncSetAttribute(static_and_dynamic, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                 kDynamicInts * static_cast<int>(sizeof(int))) == cudaSuccess);
    DeviceVector<int> out(blocks * threads);
    static_and_dynamic<<<blocks, threads, kDynamicInts * sizeof(int)>>>(out.data());
    REQUIRE(cudaGetLastError() == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> got = out.download();
    for (int b = 0; b < blocks; ++b)
        for (int t = 0; t < threads; ++t) {
            int expected = 0;
            for (int i = t; i < kStaticInts; i += threads) expected += kStaticInts - 1 - i;
            for (int i = t; i < kDynamicInts; i += threads) expected -= kDynamicInts - 1 - i;
            CHECK(got[b * threads + t] == expected);
        }
}

// ---- cuda::barrier in shared memory -----------------------------------------------------------

namespace {

// Each round, every warp's lane 0 writes its warp's sum of the round's inputs to a shared slot;
// after the barrier's phase every thread adds all slots up; a second phase keeps the next round's
// writes after this round's reads. Round after round, arrive/wait and arrive_and_wait pass each
// phase with the parity the tokens carry.
__global__ void warp_sums_through_barrier(const int* in, int* out, int rounds) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    __shared__ int slots[32];
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    const unsigned warps = blockDim.x / 32;
    for (int r = 0; r < rounds; ++r) {
        int v = in[r * blockDim.x + threadIdx.x];
        for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(~0u, v, offset);
        if (threadIdx.x % 32 == 0) slots[threadIdx.x / 32] = v;
        if (r % 2 == 0) {
            bar.arrive_and_wait();
        } else {
            cuda::barrier<cuda::thread_scope_block>::arrival_token token = bar.arrive();
            bar.wait(std::move(token));
        }
        int total = 0;
        for (unsigned w = 0; w < warps; ++w) total += slots[w];
        out[r * blockDim.x + threadIdx.x] = total;
        bar.arrive_and_wait();
    }
}

} // namespace

TEST_CASE("cuda::barrier: arrive, wait and arrive_and_wait order shared memory phase by phase") {
    constexpr int kThreads = 256;
    constexpr int kRounds = 5;
    std::mt19937 random(std::random_device{}());
    std::uniform_int_distribution<int> values(-1000, 1000);
    std::vector<int> in(kThreads * kRounds);
    for (int& v : in) v = values(random);
    DeviceVector<int> d_in(in), d_out(kThreads * kRounds);
    warp_sums_through_barrier<<<1, kThreads>>>(d_in.data(), d_out.data(), kRounds);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int r = 0; r < kRounds; ++r) {
        int total = 0;
        for (int t = 0; t < kThreads; ++t) total += in[r * kThreads + t];
        for (int t = 0; t < kThreads; ++t) {
            CAPTURE(r);
            CAPTURE(t);
            CHECK(out[r * kThreads + t] == total);
        }
    }
}

// ---- Code kept for a GPU under #if __CUDA_ARCH__ >= N ------------------------------------------

namespace {

// nvcc's device pass for the H200 (compute capability 9.0) keeps the first branch; the emulator,
// which reports 9.0, reads the comparisons as 900 and keeps the same.
__global__ void kept_for_the_device(int* out) {
#if __CUDA_ARCH__ >= 700
    out[threadIdx.x] = 700 + static_cast<int>(threadIdx.x);
#elif __CUDA_ARCH__ >= 500
    out[threadIdx.x] = 500;
#else
    out[threadIdx.x] = -1;
#endif
#if __CUDA_ARCH__ < 900
    out[threadIdx.x] = -2;
#endif
}

} // namespace

TEST_CASE("a kernel body under #if __CUDA_ARCH__ >= 700 runs") {
    DeviceVector<int> out(64);
    kept_for_the_device<<<1, 64>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> v = out.download();
    for (int i = 0; i < 64; ++i) CHECK(v[i] == 700 + i);
}

// ---- Inline PTX: a lane's special registers ---------------------------------------------------

namespace {

constexpr int kLaneRegisters = 6;

__global__ void read_lane_registers(unsigned* out) {
    const unsigned t = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x + threadIdx.x;
    unsigned lane = 0, eq = 0, lt = 0, le = 0, gt = 0, ge = 0;
    asm("mov.u32 %0, %%laneid;" : "=r"(lane));
    asm volatile("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
    asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
    asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
    asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
    asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
    unsigned* o = out + t * kLaneRegisters;
    o[0] = lane;
    o[1] = eq;
    o[2] = lt;
    o[3] = le;
    o[4] = gt;
    o[5] = ge;
}

} // namespace

TEST_CASE("inline PTX: %laneid and %lanemask_* read the lane's values, in a 3-D block") {
    std::mt19937 random(std::random_device{}());
    std::uniform_int_distribution<unsigned> extent(1, 7);
    const dim3 block(extent(random), extent(random), extent(random));
    const unsigned threads = block.x * block.y * block.z;
    CAPTURE(block.x);
    CAPTURE(block.y);
    CAPTURE(block.z);
    DeviceVector<unsigned> out(threads * kLaneRegisters);
    read_lane_registers<<<1, block>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<unsigned> v = out.download();
    for (unsigned t = 0; t < threads; ++t) {
        CAPTURE(t);
        const unsigned lane = t % 32;
        const unsigned below = (1u << lane) - 1u;
        const unsigned* o = &v[t * kLaneRegisters];
        CHECK(o[0] == lane);
        CHECK(o[1] == 1u << lane);
        CHECK(o[2] == below);
        CHECK(o[3] == (below | 1u << lane));
        CHECK(o[4] == ~(below | 1u << lane));
        CHECK(o[5] == ~below);
    }
}

// ---- Warp reductions of compute capability 8.0 ------------------------------------------------

namespace {

constexpr int kReductions = 6;

// Each warp's lanes with a value of at least `threshold` reduce over their own mask (a ballot of
// the full warp first); the others write nothing.
__global__ void reduce_over_masks(const int* in, int threshold, int* out) {
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    const int v = in[i];
    const unsigned mask = __ballot_sync(~0u, v >= threshold);
    if (v < threshold) return;
    const auto u = static_cast<unsigned>(v);
    int* o = out + i * kReductions;
    o[0] = __reduce_add_sync(mask, v);
    o[1] = __reduce_min_sync(mask, v);
    o[2] = __reduce_max_sync(mask, v);
    o[3] = static_cast<int>(__reduce_and_sync(mask, u));
    o[4] = static_cast<int>(__reduce_or_sync(mask, u));
    o[5] = static_cast<int>(__reduce_xor_sync(mask, u));
}

} // namespace

TEST_CASE("__reduce_add/min/max/and/or/xor_sync over a warp and over a partial mask") {
    constexpr int kThreads = 128;
    std::mt19937 random(std::random_device{}());
    std::uniform_int_distribution<int> values(-100000, 100000);
    std::vector<int> in(kThreads);
    for (int& v : in) v = values(random);
    for (int l = 0; l < 32; ++l) in[l] = std::abs(in[l]); // warp 0: every lane takes part
    in[64] = 100001;                                      // warp 2: one lane alone
    for (int l = 65; l < 96; ++l) in[l] = -std::abs(in[l]) - 1;
    const int threshold = 0;
    DeviceVector<int> d_in(in), d_out(std::vector<int>(kThreads * kReductions, 7));
    reduce_over_masks<<<1, kThreads>>>(d_in.data(), threshold, d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int i = 0; i < kThreads; ++i) {
        CAPTURE(i);
        const int* o = &out[i * kReductions];
        if (in[i] < threshold) {
            for (int k = 0; k < kReductions; ++k) CHECK(o[k] == 7);
            continue;
        }
        const int warp = i / 32 * 32;
        unsigned sum = 0, all_bits = ~0u, any_bits = 0, odd_bits = 0;
        int low = in[i], high = in[i];
        for (int l = warp; l < warp + 32; ++l) {
            if (in[l] < threshold) continue;
            const auto u = static_cast<unsigned>(in[l]);
            sum += u;
            all_bits &= u;
            any_bits |= u;
            odd_bits ^= u;
            low = std::min(low, in[l]);
            high = std::max(high, in[l]);
        }
        CHECK(o[0] == static_cast<int>(sum));
        CHECK(o[1] == low);
        CHECK(o[2] == high);
        CHECK(o[3] == static_cast<int>(all_bits));
        CHECK(o[4] == static_cast<int>(any_bits));
        CHECK(o[5] == static_cast<int>(odd_bits));
    }
}

// ---- The device heap: malloc/free and new/delete in kernels ---------------------------------

namespace {

// Each thread takes an array of its own from the heap, fills it, sums it and frees it.
__global__ void sum_in_own_array(int* out, int n) {
    int* mine = static_cast<int*>(malloc(n * sizeof(int)));
    if (!mine) {
        out[threadIdx.x] = -1;
        return;
    }
    for (int i = 0; i < n; ++i) mine[i] = i + static_cast<int>(threadIdx.x);
    int sum = 0;
    for (int i = 0; i < n; ++i) sum += mine[i];
    free(mine);
    out[threadIdx.x] = sum;
}

struct Shape {
    __device__ virtual ~Shape() {}
    __device__ virtual int area() const = 0;
};
struct Rectangle : Shape {
    int w, h;
    int* destroyed;
    __device__ Rectangle(int width, int height, int* count)
        : w(width), h(height), destroyed(count) {}
    __device__ ~Rectangle() override { atomicAdd(destroyed, 1); }
    __device__ int area() const override { return w * h; }
};

// An object that outlives its launch: made by one kernel, used by the next, deleted by a third
// through a pointer to its base class (a virtual destructor).
__global__ void make_shapes(Shape** shapes) {
    shapes[threadIdx.x] = new Rectangle(static_cast<int>(threadIdx.x) + 1, 2, nullptr);
}
__global__ void read_areas(Shape* const* shapes, int* out) {
    out[threadIdx.x] = shapes[threadIdx.x]->area();
}
__global__ void delete_shapes(Shape** shapes, int* destroyed) {
    static_cast<Rectangle*>(shapes[threadIdx.x])->destroyed = destroyed;
    delete shapes[threadIdx.x];
}

struct Counted {
    int value = 5;
    int* destroyed = nullptr;
    __device__ ~Counted() {
        if (destroyed) atomicAdd(destroyed, 1);
    }
};

// new[] of a type with a destructor: delete[] runs one per element.
__global__ void array_of_counted(int* destroyed, int* out, int n) {
    Counted* items = new Counted[n];
    int sum = 0;
    for (int i = 0; i < n; ++i) {
        items[i].destroyed = destroyed;
        sum += items[i].value;
    }
    out[0] = sum;
    delete[] items;
}

// What does not fit in the heap gives a null pointer (malloc and new alike); what fits does not.
__global__ void allocate_past_the_heap(size_t too_big, int* out) {
    void* big = malloc(too_big);
    char* big_array = new char[too_big];
    int* small = static_cast<int*>(malloc(1000));
    out[0] = big == nullptr;
    out[1] = big_array == nullptr;
    out[2] = small != nullptr && reinterpret_cast<uintptr_t>(small) % 16 == 0;
    free(small);
    free(nullptr); // ignored, as in C
}

} // namespace

TEST_CASE("device heap: malloc/free and new/delete in kernels, objects kept across launches") {
    constexpr int kThreads = 64, kLength = 100;
    DeviceVector<int> sums(kThreads);
    sum_in_own_array<<<1, kThreads>>>(sums.data(), kLength);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> got = sums.download();
    for (int t = 0; t < kThreads; ++t) CHECK(got[t] == kLength * (kLength - 1) / 2 + kLength * t);

    constexpr int kShapes = 8;
    DeviceVector<Shape*> shapes(kShapes);
    DeviceVector<int> areas(kShapes), destroyed(std::vector<int>{0});
    make_shapes<<<1, kShapes>>>(shapes.data());
    read_areas<<<1, kShapes>>>(shapes.data(), areas.data());
    delete_shapes<<<1, kShapes>>>(shapes.data(), destroyed.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> area = areas.download();
    for (int i = 0; i < kShapes; ++i) CHECK(area[i] == 2 * (i + 1));
    CHECK(destroyed.download()[0] == kShapes);

    DeviceVector<int> count(std::vector<int>{0}), sum(1);
    array_of_counted<<<1, 1>>>(count.data(), sum.data(), 10);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(sum.download()[0] == 50);
    CHECK(count.download()[0] == 10);
}

TEST_CASE("device heap: cudaLimitMallocHeapSize sizes it, before its first use") {
    // A fresh device: the heap is made at the first kernel that allocates, with the size set then.
    REQUIRE(cudaDeviceReset() == cudaSuccess);
    size_t heap = 0;
    REQUIRE(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
    CHECK(heap == (size_t{8} << 20)); // CUDA's default
    // A size under 4 MiB reads back as 4 MiB, the smallest heap (seen on an H200, CUDA 13).
    REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{1} << 20) == cudaSuccess);
    REQUIRE(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
    CHECK(heap == (size_t{4} << 20));
    REQUIRE(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{5} << 20) == cudaSuccess);
    {
        DeviceVector<int> out(std::vector<int>{0, 0, 0});
        allocate_past_the_heap<<<1, 1>>>(size_t{6} << 20, out.data());
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        CHECK(out.download() == std::vector<int>{1, 1, 1});
        // Too late: a kernel has used the heap.
        CHECK(cudaDeviceSetLimit(cudaLimitMallocHeapSize, size_t{16} << 20) ==
              cudaErrorInvalidValue);
        CHECK(cudaGetLastError() == cudaErrorInvalidValue); // (not sticky)
        REQUIRE(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
        CHECK(heap == (size_t{5} << 20));
    }
    REQUIRE(cudaDeviceReset() == cudaSuccess);
    REQUIRE(cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize) == cudaSuccess);
    CHECK(heap == (size_t{8} << 20));
}

// ---- atomicExch may initialize shared memory ---------------------------------------------------

namespace {

// The first thread of each warp claims the block's slot with atomicExch on a shared word that
// nothing wrote before: what it stores does not depend on what was there.
__global__ void claim_with_exchange(int* out) {
    __shared__ int owner;
    if (threadIdx.x % 32 == 0) atomicExch(&owner, static_cast<int>(threadIdx.x));
    __syncthreads();
    out[threadIdx.x] = owner;
}

} // namespace

TEST_CASE("atomicExch on shared memory nothing wrote stores its value (no uninitialized read)") {
    DeviceVector<int> out(128);
    claim_with_exchange<<<1, 128>>>(out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> v = out.download();
    CHECK(v[0] % 32 == 0);
    CHECK(std::all_of(v.begin(), v.end(), [&](int o) { return o == v[0]; }));
}

// ---- CUDA graphs and stream capture --------------------------------------------------------

namespace {

// (add_to_each: the kernel of the host-thread test above.)
struct HostSeen {
    const int* host = nullptr; // what the memcpy node copied back
    int first = 0;
    int calls = 0;
};
void CUDART_CB note_first(void* raw) {
    auto* seen = static_cast<HostSeen*>(raw);
    seen->first = seen->host[0];
    ++seen->calls;
}

} // namespace

TEST_CASE("CUDA graphs: memset, kernel (a void* kernel), memcpy and host nodes, cloned") {
    constexpr int kN = 300;
    DeviceVector<int> data(kN);
    std::vector<int> back(kN, -1);
    HostSeen seen{back.data()};
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);

    cudaMemsetParams set{};
    set.dst = data.data();
    set.value = 5;
    set.elementSize = sizeof(int);
    set.width = kN;
    set.height = 1;
    cudaGraphNode_t set_node = nullptr, kernel_node = nullptr, copy_node = nullptr,
                    host_node = nullptr;
    REQUIRE(cudaGraphAddMemsetNode(&set_node, graph, nullptr, 0, &set) == cudaSuccess);

    int* d = data.data();
    int n = kN, amount = 10;
    void* args[] = {&d, &n, &amount};
    cudaKernelNodeParams kernel{};
    kernel.func = (void*)add_to_each;
    kernel.gridDim = dim3((kN + 127) / 128);
    kernel.blockDim = dim3(128);
    kernel.kernelParams = args;
    REQUIRE(cudaGraphAddKernelNode(&kernel_node, graph, &set_node, 1, &kernel) == cudaSuccess);
    amount = 1000; // the node copied the arguments when it was made

    REQUIRE(cudaGraphAddMemcpyNode1D(&copy_node, graph, &kernel_node, 1, back.data(), data.data(),
                                     kN * sizeof(int), cudaMemcpyDeviceToHost) == cudaSuccess);
    cudaHostNodeParams host{note_first, &seen};
    REQUIRE(cudaGraphAddHostNode(&host_node, graph, &copy_node, 1, &host) == cudaSuccess);

    size_t count = 0;
    REQUIRE(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
    CHECK(count == 4);
    REQUIRE(cudaGraphGetRootNodes(graph, nullptr, &count) == cudaSuccess);
    CHECK(count == 1);
    cudaGraphNodeType type{};
    REQUIRE(cudaGraphNodeGetType(kernel_node, &type) == cudaSuccess);
    CHECK(type == cudaGraphNodeTypeKernel);

    cudaGraphExec_t exec = nullptr, cloned_exec = nullptr;
    cudaGraph_t cloned = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    REQUIRE(cudaGraphClone(&cloned, graph) == cudaSuccess);
    REQUIRE(cudaGraphInstantiate(&cloned_exec, cloned, nullptr, nullptr, 0) == cudaSuccess);
    CHECK(seen.calls == 0); // nothing runs before a launch
    cudaStream_t stream = nullptr;
    REQUIRE(cudaStreamCreate(&stream) == cudaSuccess);
    for (int launch = 0; launch < 2; ++launch) {
        REQUIRE(cudaGraphLaunch(launch == 0 ? exec : cloned_exec, stream) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(stream) == cudaSuccess);
        CHECK(seen.calls == launch + 1);
        CHECK(seen.first == 15);
        CHECK(std::all_of(back.begin(), back.end(), [](int v) { return v == 15; }));
    }
    CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(cloned_exec) == cudaSuccess);
    CHECK(cudaGraphDestroy(cloned) == cudaSuccess);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);
    CHECK(cudaStreamDestroy(stream) == cudaSuccess);
}

TEST_CASE("CUDA graphs: a memset node of 4-byte elements sets each to the whole value") {
    DeviceVector<unsigned> data(64);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaGraphCreate(&graph, 0) == cudaSuccess);
    cudaMemsetParams set{};
    set.dst = data.data();
    set.value = 0x01020304u;
    set.elementSize = 4;
    set.width = 16; // two rows of 16 of the 32 elements of a 128-byte pitch
    set.height = 2;
    set.pitch = 32 * sizeof(unsigned);
    cudaGraphNode_t node = nullptr;
    REQUIRE(cudaMemset(data.data(), 0, 64 * sizeof(unsigned)) == cudaSuccess);
    REQUIRE(cudaGraphAddMemsetNode(&node, graph, nullptr, 0, &set) == cudaSuccess);
    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    REQUIRE(cudaGraphLaunch(exec, nullptr) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<unsigned> v = data.download();
    for (int i = 0; i < 64; ++i) CHECK(v[i] == (i % 32 < 16 ? 0x01020304u : 0u));
    CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);
}

TEST_CASE("stream capture: work on a stream and the streams that wait on its events") {
    constexpr int kN = 256;
    DeviceVector<int> a(kN), b(kN);
    std::vector<int> back(kN, -1);
    HostSeen seen{back.data()};
    cudaStream_t s1 = nullptr, s2 = nullptr;
    cudaEvent_t fork = nullptr, joined = nullptr;
    REQUIRE(cudaStreamCreate(&s1) == cudaSuccess);
    REQUIRE(cudaStreamCreate(&s2) == cudaSuccess);
    REQUIRE(cudaEventCreate(&fork) == cudaSuccess);
    REQUIRE(cudaEventCreate(&joined) == cudaSuccess);
    REQUIRE(cudaMemset(a.data(), 0, kN * sizeof(int)) == cudaSuccess);

    REQUIRE(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal) == cudaSuccess);
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusNone;
    REQUIRE(cudaStreamIsCapturing(s1, &status) == cudaSuccess);
    CHECK(status == cudaStreamCaptureStatusActive);
    REQUIRE(cudaEventRecord(fork, s1) == cudaSuccess);
    REQUIRE(cudaStreamWaitEvent(s2, fork, 0) == cudaSuccess);
    REQUIRE(cudaMemsetAsync(b.data(), 0, kN * sizeof(int), s2) == cudaSuccess);
    REQUIRE(cudaEventRecord(joined, s2) == cudaSuccess);
    add_to_each<<<2, 128, 0, s1>>>(a.data(), kN, 7);
    REQUIRE(cudaStreamWaitEvent(s1, joined, 0) == cudaSuccess);
    add_to_each<<<2, 128, 0, s1>>>(b.data(), kN, 3);
    REQUIRE(cudaMemcpyAsync(back.data(), b.data(), kN * sizeof(int), cudaMemcpyDeviceToHost, s1) ==
            cudaSuccess);
    REQUIRE(cudaLaunchHostFunc(s1, note_first, &seen) == cudaSuccess);
    cudaGraph_t graph = nullptr;
    REQUIRE(cudaStreamEndCapture(s1, &graph) == cudaSuccess);
    REQUIRE(cudaStreamIsCapturing(s1, &status) == cudaSuccess);
    CHECK(status == cudaStreamCaptureStatusNone);
    CHECK(seen.calls == 0); // captured, not run
    CHECK(a.download()[0] == 0);

    size_t count = 0;
    REQUIRE(cudaGraphGetNodes(graph, nullptr, &count) == cudaSuccess);
    CHECK(count == 5); // the memset, two kernels, the copy and the host function
    cudaGraphExec_t exec = nullptr;
    REQUIRE(cudaGraphInstantiate(&exec, graph, 0) == cudaSuccess);
    for (int launch = 1; launch <= 2; ++launch) {
        REQUIRE(cudaGraphLaunch(exec, s1) == cudaSuccess);
        REQUIRE(cudaStreamSynchronize(s1) == cudaSuccess);
        CHECK(seen.calls == launch);
        CHECK(seen.first == 3);
        const std::vector<int> got = a.download();
        CHECK(std::all_of(got.begin(), got.end(), [&](int v) { return v == 7 * launch; }));
    }
    CHECK(cudaGraphExecDestroy(exec) == cudaSuccess);
    CHECK(cudaGraphDestroy(graph) == cudaSuccess);
    CHECK(cudaEventDestroy(fork) == cudaSuccess);
    CHECK(cudaEventDestroy(joined) == cudaSuccess);
    CHECK(cudaStreamDestroy(s1) == cudaSuccess);
    CHECK(cudaStreamDestroy(s2) == cudaSuccess);
}

TEST_CASE("cudaLaunchKernel with the kernel in a void* variable") {
    DeviceVector<int> data(std::vector<int>(64, 1));
    void* kernel = (void*)add_to_each;
    int* d = data.data();
    int n = 64, amount = 41;
    void* args[] = {&d, &n, &amount};
    REQUIRE(cudaLaunchKernel(kernel, dim3(1), dim3(64), args, 0, nullptr) == cudaSuccess);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> v = data.download();
    CHECK(std::all_of(v.begin(), v.end(), [](int x) { return x == 42; }));
}
