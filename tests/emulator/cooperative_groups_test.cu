// Cooperative groups as CUDA defines them: the block, static tiles of every size from 1 to 32,
// their shuffles, votes, reductions and scans, on random inputs with the expected values
// computed here on the host. Built for both backends: on the cuda backend the same kernels run
// on the GPU with NVIDIA's cooperative groups, which is how the emulator's are held to them.
#include <doctest/doctest.h>

#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "device_vector.h"

namespace cg = cooperative_groups;

namespace {

constexpr int kBlocks = 3;
constexpr int kOutputs = 8; // values per thread from tile_collectives
constexpr int kVotes = 6;   // unsigned results per thread from tile_votes_and_ranks

std::mt19937& rng() {
    static std::mt19937 generator(std::random_device{}());
    return generator;
}

// Whole numbers, also for float and double, so that every sum is exact in any order.
template <class T>
std::vector<T> random_values(std::size_t n) {
    std::uniform_int_distribution<int> pick(-1000, 1000);
    std::vector<T> v(n);
    for (T& x : v) x = static_cast<T>(pick(rng()));
    return v;
}

// Threads are indexed by block and thread_rank, so 2-D blocks index the same way.
__device__ unsigned global_rank(const cg::thread_block& block) {
    return blockIdx.x * block.size() + block.thread_rank();
}

template <unsigned Tile, class T>
__global__ void tile_collectives(const T* in, T* out) {
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(block);
    const unsigned i = global_rank(block);
    const T v = in[i];
    const unsigned rank = tile.thread_rank();
    T* o = out + i * kOutputs;
    o[0] = cg::reduce(tile, v, cg::plus<T>());
    o[1] = cg::reduce(tile, v, cg::greater<T>());
    o[2] = cg::inclusive_scan(tile, v);
    o[3] = cg::exclusive_scan(tile, v);
    o[4] = cg::inclusive_scan(tile, v, cg::less<T>());
    o[5] = tile.shfl(v, static_cast<int>((rank * 3 + 1) % Tile));
    o[6] = tile.shfl_down(v, 1);
    o[7] = tile.shfl_xor(v, Tile / 2);
}

template <unsigned Tile>
__global__ void tile_bitwise(const unsigned* in, unsigned* out) {
    const cg::thread_block block = cg::this_thread_block();
    const auto tile = cg::tiled_partition<Tile>(block);
    const unsigned i = global_rank(block);
    out[3 * i + 0] = cg::reduce(tile, in[i], cg::bit_xor<unsigned>());
    out[3 * i + 1] = cg::exclusive_scan(tile, in[i], cg::bit_or<unsigned>());
    // A lambda as the operator, as CUDA allows.
    out[3 * i + 2] = cg::inclusive_scan(tile, in[i], [](unsigned a, unsigned b) { return a & b; });
}

template <unsigned Tile>
__global__ void tile_votes_and_ranks(const int* in, unsigned* out) {
    const cg::thread_block block = cg::this_thread_block();
    const cg::thread_block_tile<Tile> tile = cg::tiled_partition<Tile>(block);
    const unsigned i = global_rank(block);
    const int v = in[i];
    unsigned* o = out + i * kVotes;
    o[0] = tile.ballot(v > 0);
    o[1] = static_cast<unsigned>(tile.any(v > 900));
    o[2] = static_cast<unsigned>(tile.all(v > -900));
    o[3] = tile.thread_rank();
    o[4] = tile.meta_group_rank();
    o[5] = tile.meta_group_size();
}

// A tile's sync orders its threads' shared-memory writes; the block's sync orders the block's.
// A tile cut from a tile ranks itself within that parent.
__global__ void syncs_and_subtiles(const int* in, int* out) {
    __shared__ int values[128], rotated[128];
    const cg::thread_block block = cg::this_thread_block();
    const auto tile = cg::tiled_partition<16>(block);
    const auto quarter = cg::tiled_partition<4>(tile);
    const unsigned r = block.thread_rank();
    values[r] = in[blockIdx.x * 128 + r];
    tile.sync();
    const unsigned base = r - tile.thread_rank();
    rotated[r] = values[base + (tile.thread_rank() + 1) % 16];
    block.sync();
    int* o = out + (blockIdx.x * 128 + r) * 4;
    o[0] = rotated[(r + 64) % 128];
    o[1] = static_cast<int>(quarter.meta_group_rank());
    o[2] = static_cast<int>(quarter.meta_group_size());
    // The same through the type-erased thread_group.
    const cg::thread_group group = tile;
    cg::sync(group);
    o[3] = static_cast<int>(group.thread_rank() * 1000 + group.size());
}

// The host's answers for one tile of `values` (the tile's threads in rank order).
template <class T>
struct TileReference {
    std::vector<T> inclusive, exclusive, running_min;
    T sum{}, max{};
    explicit TileReference(const T* values, unsigned n) {
        sum = values[0];
        max = values[0];
        T low = values[0];
        T running = T{};
        for (unsigned k = 0; k < n; ++k) {
            exclusive.push_back(k == 0 ? T{} : running);
            running = k == 0 ? values[0] : running + values[k];
            inclusive.push_back(running);
            low = std::min(low, values[k]);
            running_min.push_back(low);
            if (k > 0) {
                sum = sum + values[k];
                max = std::max(max, values[k]);
            }
        }
    }
};

template <unsigned Tile, class T>
void check_collectives(dim3 block_shape) {
    const unsigned threads = block_shape.x * block_shape.y * block_shape.z;
    const unsigned n = kBlocks * threads;
    const std::vector<T> in = random_values<T>(n);
    DeviceVector<T> d_in(in), d_out(n * kOutputs);
    tile_collectives<Tile, T><<<kBlocks, block_shape>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<T> out = d_out.download();
    for (unsigned first = 0; first < n; first += Tile) {
        const TileReference<T> ref(&in[first], Tile);
        for (unsigned k = 0; k < Tile; ++k) {
            const T* o = &out[(first + k) * kOutputs];
            CAPTURE(first + k);
            CHECK(o[0] == ref.sum);
            CHECK(o[1] == ref.max);
            CHECK(o[2] == ref.inclusive[k]);
            CHECK(o[3] == ref.exclusive[k]);
            CHECK(o[4] == ref.running_min[k]);
            CHECK(o[5] == in[first + (k * 3 + 1) % Tile]);
            CHECK(o[6] == in[first + (k + 1 < Tile ? k + 1 : k)]);
            CHECK(o[7] == in[first + (k ^ (Tile / 2))]);
        }
    }
}

template <unsigned Tile>
void check_bitwise() {
    const unsigned n = kBlocks * 64;
    std::vector<unsigned> in(n);
    for (unsigned& x : in) x = static_cast<unsigned>(rng()());
    DeviceVector<unsigned> d_in(in), d_out(3 * n);
    tile_bitwise<Tile><<<kBlocks, 64>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<unsigned> out = d_out.download();
    for (unsigned first = 0; first < n; first += Tile) {
        unsigned all_xor = 0;
        for (unsigned k = 0; k < Tile; ++k) all_xor ^= in[first + k];
        unsigned ored = 0, anded = ~0u;
        for (unsigned k = 0; k < Tile; ++k) {
            CAPTURE(first + k);
            CHECK(out[3 * (first + k) + 0] == all_xor);
            CHECK(out[3 * (first + k) + 1] == ored);
            anded &= in[first + k];
            CHECK(out[3 * (first + k) + 2] == anded);
            ored |= in[first + k];
        }
    }
}

template <unsigned Tile>
void check_votes_and_ranks() {
    const unsigned threads = 96;
    const unsigned n = kBlocks * threads;
    std::vector<int> in = random_values<int>(n);
    // Some tiles entirely positive and entirely above -900, so every vote sees both answers.
    for (unsigned k = 0; k < Tile; ++k) in[k] = 950 + static_cast<int>(k);
    DeviceVector<int> d_in(in);
    DeviceVector<unsigned> d_out(n * kVotes);
    tile_votes_and_ranks<Tile><<<kBlocks, threads>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<unsigned> out = d_out.download();
    for (unsigned first = 0; first < n; first += Tile) {
        unsigned ballot = 0;
        bool any = false, all = true;
        for (unsigned k = 0; k < Tile; ++k) {
            ballot |= (in[first + k] > 0 ? 1u : 0u) << k;
            any = any || in[first + k] > 900;
            all = all && in[first + k] > -900;
        }
        for (unsigned k = 0; k < Tile; ++k) {
            const unsigned* o = &out[(first + k) * kVotes];
            CAPTURE(first + k);
            CHECK(o[0] == ballot);
            CHECK((o[1] != 0) == any);
            CHECK((o[2] != 0) == all);
            CHECK(o[3] == k);
            CHECK(o[4] == (first % threads) / Tile);
            CHECK(o[5] == threads / Tile);
        }
    }
}

} // namespace

TEST_CASE("cooperative groups: reduce, scans and shuffles on tiles of every size (int)") {
    check_collectives<1, int>(dim3(64));
    check_collectives<2, int>(dim3(64));
    check_collectives<4, int>(dim3(16, 4)); // a 2-D block: threads ranked x first
    check_collectives<8, int>(dim3(96));
    check_collectives<16, int>(dim3(8, 4, 2));
    check_collectives<32, int>(dim3(128));
}

TEST_CASE("cooperative groups: reduce, scans and shuffles of unsigned, float and double") {
    check_collectives<32, unsigned>(dim3(64));
    check_collectives<8, float>(dim3(64));
    check_collectives<32, float>(dim3(32, 2));
    check_collectives<4, double>(dim3(64));
    check_collectives<32, double>(dim3(96));
}

TEST_CASE("cooperative groups: bitwise operators and a lambda as the operator") {
    check_bitwise<2>();
    check_bitwise<16>();
    check_bitwise<32>();
}

TEST_CASE("cooperative groups: ballot bits, any and all are the tile's; ranks and meta ranks") {
    check_votes_and_ranks<1>();
    check_votes_and_ranks<4>();
    check_votes_and_ranks<8>();
    check_votes_and_ranks<16>();
    check_votes_and_ranks<32>();
}

TEST_CASE("cooperative groups: tile and block syncs, sub-tiles, thread_group") {
    const std::vector<int> in = random_values<int>(2 * 128);
    DeviceVector<int> d_in(in), d_out(2 * 128 * 4);
    syncs_and_subtiles<<<2, 128>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (unsigned b = 0; b < 2; ++b) {
        for (unsigned r = 0; r < 128; ++r) {
            const int* o = &out[(b * 128 + r) * 4];
            const unsigned source = (r + 64) % 128; // whose rotated[] this thread read
            const unsigned base = source / 16 * 16;
            CAPTURE(b * 128 + r);
            CHECK(o[0] == in[b * 128 + base + (source % 16 + 1) % 16]);
            CHECK(o[1] == static_cast<int>((r % 16) / 4));
            CHECK(o[2] == 4);
            CHECK(o[3] == static_cast<int>((r % 16) * 1000 + 16));
        }
    }
}
