// Shared-memory access patterns whose bank conflicts Nsight Compute measures on a GPU and the
// emulator's trace analysis must reproduce exactly: strided 32- and 64-bit accesses, a broadcast,
// and the 2007 report's work-efficient prescan of 2048 ints in one block, without and with the
// padding that removes its conflicts (32 banks). Runs each pattern once. On a GPU, run it under Nsight Compute
// (scripts/ncu-bank-conflicts.sh) to measure; on the emulator (simt backend) it records each
// launch and prints the conflicts the emulator counts, in the same CSV shape:
//   kernel,load_conflicts,store_conflicts
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <cstring>
#include <string>
#include <vector>

#include <cuda_runtime.h>

// (The kernels live in this file: the emulator rewrites __shared__ in .cu files only.)

namespace bankbench {

// One warp stores and then loads 32-bit words lane * STRIDE apart.
template <int STRIDE>
__global__ void stride32(int* out) {
    __shared__ int words[32 * 32];
    const int lane = threadIdx.x;
    words[lane * STRIDE] = lane;
    __syncwarp();
    out[lane] = words[lane * STRIDE];
}

// Every lane reads the same word: a broadcast, no conflict.
__global__ void broadcast(int* out) {
    __shared__ int word[32];
    if (threadIdx.x == 0) word[0] = 7;
    __syncwarp();
    out[threadIdx.x] = word[0];
}

// One warp stores and loads 64-bit elements lane * STRIDE apart.
template <int STRIDE>
__global__ void stride64(long long* out) {
    __shared__ long long elements[32 * 16];
    const int lane = threadIdx.x;
    elements[lane * STRIDE] = lane;
    __syncwarp();
    out[lane] = elements[lane * STRIDE];
}

constexpr int kPrescanN = 2048; // one block of 1024 threads, two elements each
constexpr int kLogBanks = 5;    // 32 banks of 4 bytes
__host__ __device__ constexpr int conflict_free_offset(int index) { return index >> kLogBanks; }

// The work-efficient (Blelloch) exclusive scan as the 2007 report writes it, for ints.
// n is a run-time argument, as in the report: the compiler cannot unroll the sweeps.
__global__ void prescan_unpadded(int* out, const int* in, int n) {
    __shared__ int temp[kPrescanN];
    const int thid = threadIdx.x;
    int offset = 1;
    temp[2 * thid] = in[2 * thid];
    temp[2 * thid + 1] = in[2 * thid + 1];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            temp[bi] += temp[ai];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int ai = offset * (2 * thid + 1) - 1;
            int bi = offset * (2 * thid + 2) - 1;
            // Both values read once, into registers: otherwise a compiler that cannot prove
            // ai != bi (offset is a run-time value) reads temp[bi] again after writing temp[ai],
            // and nvcc and g++ decide that differently.
            int t = temp[ai];
            int u = temp[bi];
            temp[ai] = u;
            temp[bi] = u + t;
        }
    }
    __syncthreads();
    out[2 * thid] = temp[2 * thid];
    out[2 * thid + 1] = temp[2 * thid + 1];
}

// The same scan with every shared index padded by index >> 5.
__global__ void prescan_padded(int* out, const int* in, int n) {
    __shared__ int temp[kPrescanN + conflict_free_offset(kPrescanN)];
    const int thid = threadIdx.x;
    int offset = 1;
    int ai = thid;
    int bi = thid + n / 2;
    temp[ai + conflict_free_offset(ai)] = in[ai];
    temp[bi + conflict_free_offset(bi)] = in[bi];
    for (int d = n >> 1; d > 0; d >>= 1) {
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += conflict_free_offset(a);
            b += conflict_free_offset(b);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) temp[n - 1 + conflict_free_offset(n - 1)] = 0;
    for (int d = 1; d < n; d *= 2) {
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            int a = offset * (2 * thid + 1) - 1;
            int b = offset * (2 * thid + 2) - 1;
            a += conflict_free_offset(a);
            b += conflict_free_offset(b);
            int t = temp[a];
            int u = temp[b];
            temp[a] = u;
            temp[b] = u + t;
        }
    }
    __syncthreads();
    out[ai] = temp[ai + conflict_free_offset(ai)];
    out[bi] = temp[bi + conflict_free_offset(bi)];
}

} // namespace bankbench

#ifdef SCANLAB_BACKEND_SIMT
#include <scanlab/trace/analysis.h>
#include <scanlab/trace/trace.h>

#include "simt/trace.h"
#endif

namespace {

#define CHECK(call)                                                                                \
    do {                                                                                           \
        cudaError_t e = (call);                                                                    \
        if (e != cudaSuccess) {                                                                    \
            std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));                       \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

struct Run {
    const char* name;
    void (*launch)(void* out, const int* in);
};

// With --expect FILE (simt), each count is compared with Nsight Compute's measurement.
std::map<std::string, std::pair<unsigned long long, unsigned long long>> expected;
int mismatches = 0;

template <class F>
void measure(const char* name, F launch) {
#ifdef SCANLAB_BACKEND_SIMT
    simt::start_tracing({.blocks = {}, .max_instructions = 1u << 22});
    launch();
    CHECK(cudaDeviceSynchronize());
    auto traces = simt::stop_tracing();
    auto totals = scanlab::trace::analyze_trace(traces.at(0)).launch;
    const unsigned long long ld = totals.load.conflicts, st = totals.store.conflicts;
    std::printf("%s,%llu,%llu", name, ld, st);
    if (!expected.empty()) {
        auto it = expected.find(name);
        bool same = it != expected.end() && it->second == std::make_pair(ld, st);
        if (!same) ++mismatches;
        if (it == expected.end())
            std::printf("   MISSING from the expected counts");
        else
            std::printf("   ncu: %llu,%llu %s", it->second.first, it->second.second,
                        same ? "same" : "DIFFERENT");
    }
    std::printf("\n");
#else
    launch();
    CHECK(cudaDeviceSynchronize());
    std::printf("%s,ran\n", name);
#endif
}

} // namespace

int main(int argc, char** argv) {
    using namespace bankbench;
    if (argc == 3 && std::strcmp(argv[1], "--expect") == 0) {
        std::ifstream in(argv[2]);
        std::string line;
        std::getline(in, line); // header
        while (std::getline(in, line)) {
            std::stringstream fields(line);
            std::string name, ld, st;
            std::getline(fields, name, ',');
            std::getline(fields, ld, ',');
            std::getline(fields, st, ',');
            expected[name] = {std::stoull(ld), std::stoull(st)};
        }
        if (expected.empty()) {
            std::fprintf(stderr, "no expected counts in %s\n", argv[2]);
            return 2;
        }
    }
    int *d_out = nullptr, *d_in = nullptr;
    long long* d_wide = nullptr;
    CHECK(cudaMalloc(&d_out, kPrescanN * sizeof(int)));
    CHECK(cudaMalloc(&d_in, kPrescanN * sizeof(int)));
    CHECK(cudaMalloc(&d_wide, 32 * sizeof(long long)));
    std::vector<int> input(kPrescanN);
    for (int i = 0; i < kPrescanN; ++i) input[i] = (i * 37) % 11;
    CHECK(cudaMemcpy(d_in, input.data(), kPrescanN * sizeof(int), cudaMemcpyHostToDevice));

    std::printf("kernel,load_conflicts,store_conflicts\n");
    measure("stride32_1", [&] { stride32<1><<<1, 32>>>(d_out); });
    measure("stride32_2", [&] { stride32<2><<<1, 32>>>(d_out); });
    measure("stride32_4", [&] { stride32<4><<<1, 32>>>(d_out); });
    measure("stride32_8", [&] { stride32<8><<<1, 32>>>(d_out); });
    measure("stride32_16", [&] { stride32<16><<<1, 32>>>(d_out); });
    measure("stride32_32", [&] { stride32<32><<<1, 32>>>(d_out); });
    measure("broadcast", [&] { broadcast<<<1, 32>>>(d_out); });
    measure("stride64_1", [&] { stride64<1><<<1, 32>>>(d_wide); });
    measure("stride64_2", [&] { stride64<2><<<1, 32>>>(d_wide); });
    measure("stride64_16", [&] { stride64<16><<<1, 32>>>(d_wide); });
    measure("prescan_unpadded", [&] { prescan_unpadded<<<1, kPrescanN / 2>>>(d_out, d_in, kPrescanN); });
    measure("prescan_padded", [&] { prescan_padded<<<1, kPrescanN / 2>>>(d_out, d_in, kPrescanN); });
    CHECK(cudaFree(d_out));
    CHECK(cudaFree(d_in));
    CHECK(cudaFree(d_wide));
    if (!expected.empty())
        std::printf("%zu passed, %d failed\n", expected.size() - mismatches, mismatches);
    return mismatches == 0 ? 0 : 1;
}
