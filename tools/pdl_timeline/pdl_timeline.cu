// Back-to-back kernel launches with and without programmatic dependent launch (PDL), timed from
// inside the GPU: the picture in labs/07_decoupled_lookback/README.md ("Launch latency and PDL").
// Each call is one pass over 2^18 ints (64 blocks of 256 threads, 4096 ints a block: the size
// where lab 07's scan takes about 5 µs) that reads what the previous call wrote, so the calls
// depend on each other as a program's scans do. Every block notes the GPU's global timer when it
// starts, when its wait for the previous kernel returns, and when it is done.
//   nvcc -O2 -arch=sm_90 tools/pdl_timeline/pdl_timeline.cu -o pdl_timeline
//   ./pdl_timeline timeline.csv      (then scripts/plot-pdl-timeline.py timeline.csv out.svg)
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                                \
    do {                                                                                           \
        const cudaError_t error_ = (call);                                                         \
        if (error_ != cudaSuccess) {                                                               \
            std::fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(error_));   \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

constexpr int kBlocks = 64;
constexpr int kThreads = 256;
constexpr int kPerBlock = 4096;
constexpr int kN = kBlocks * kPerBlock;
constexpr int kCalls = 8;         // calls drawn per mode
constexpr int kTimedCalls = 2000; // calls timed with events per mode

struct Stamp {
    unsigned long long start, resumed, end;
};

__device__ unsigned long long global_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// One pass: out = in + 1, each thread 16 ints as four 16-byte vectors.
template <bool Pdl>
__global__ void __launch_bounds__(kThreads) pass(const int4* in, int4* out, Stamp* stamps) {
    const unsigned long long start = global_ns();
    if constexpr (Pdl) {
        cudaGridDependencySynchronize(); // the previous call has finished: its output is ours
        cudaTriggerProgrammaticLaunchCompletion();
    }
    const unsigned long long resumed = global_ns();
    const int base = blockIdx.x * (kPerBlock / 4);
    int4 v[kPerBlock / 4 / kThreads];
    for (int k = 0; k < kPerBlock / 4 / kThreads; ++k) v[k] = in[base + k * kThreads + threadIdx.x];
    for (int k = 0; k < kPerBlock / 4 / kThreads; ++k) {
        v[k].x += 1, v[k].y += 1, v[k].z += 1, v[k].w += 1;
        out[base + k * kThreads + threadIdx.x] = v[k];
    }
    __syncthreads();
    if (threadIdx.x == 0 && stamps != nullptr) stamps[blockIdx.x] = {start, resumed, global_ns()};
}

// Holds the GPU for a while, so that the calls after it are all queued before the first runs
// (the host's own launch time then stays out of the picture).
__global__ void hold(unsigned long long ns) {
    const unsigned long long until = global_ns() + ns;
    while (global_ns() < until) {
    }
}

void launch(bool pdl, const int4* in, int4* out, Stamp* stamps) {
    cudaLaunchAttribute attribute{};
    attribute.id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute.val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config{};
    config.gridDim = dim3(kBlocks);
    config.blockDim = dim3(kThreads);
    config.stream = 0;
    config.attrs = &attribute;
    config.numAttrs = pdl ? 1 : 0;
    if (pdl)
        CHECK(cudaLaunchKernelEx(&config, pass<true>, in, out, stamps));
    else
        CHECK(cudaLaunchKernelEx(&config, pass<false>, in, out, stamps));
}

int main(int argc, char** argv) {
    const char* csv = argc > 1 ? argv[1] : "pdl_timeline.csv";
    int4 *a = nullptr, *b = nullptr;
    Stamp* stamps = nullptr;
    CHECK(cudaMalloc(&a, kN * sizeof(int)));
    CHECK(cudaMalloc(&b, kN * sizeof(int)));
    CHECK(cudaMalloc(&stamps, 2 * kCalls * kBlocks * sizeof(Stamp)));
    std::vector<int> host(kN);
    for (int i = 0; i < kN; ++i) host[i] = (i * 7919) % 1000 - 500;
    CHECK(cudaMemcpy(a, host.data(), kN * sizeof(int), cudaMemcpyHostToDevice));

    FILE* out = std::fopen(csv, "w");
    if (out == nullptr) return 1;
    std::fprintf(out, "mode,call,block,start_ns,resumed_ns,end_ns\n");
    int passes = 0;
    for (int mode = 0; mode < 2; ++mode) {
        const bool pdl = mode == 1;
        for (int k = 0; k < 4; ++k, ++passes) launch(pdl, k % 2 ? b : a, k % 2 ? a : b, nullptr);
        hold<<<1, 1>>>(200000);
        for (int k = 0; k < kCalls; ++k, ++passes)
            launch(pdl, passes % 2 ? b : a, passes % 2 ? a : b,
                   stamps + (mode * kCalls + k) * kBlocks);
        CHECK(cudaDeviceSynchronize());
    }
    std::vector<Stamp> s(2 * kCalls * kBlocks);
    CHECK(cudaMemcpy(s.data(), stamps, s.size() * sizeof(Stamp), cudaMemcpyDeviceToHost));
    for (int mode = 0; mode < 2; ++mode) {
        unsigned long long t0 = ~0ull;
        for (int i = 0; i < kCalls * kBlocks; ++i)
            t0 = std::min(t0, s[mode * kCalls * kBlocks + i].start);
        for (int k = 0; k < kCalls; ++k)
            for (int j = 0; j < kBlocks; ++j) {
                const Stamp& x = s[(mode * kCalls + k) * kBlocks + j];
                std::fprintf(out, "%s,%d,%d,%llu,%llu,%llu\n", mode ? "pdl" : "plain", k, j,
                             x.start - t0, x.resumed - t0, x.end - t0);
            }
    }
    std::fclose(out);

    // Time per call over many back-to-back calls, queued behind a hold, as scanlab_bench does.
    cudaEvent_t begin, end;
    CHECK(cudaEventCreate(&begin));
    CHECK(cudaEventCreate(&end));
    for (int round = 0; round < 3; ++round) {
        for (int mode = 0; mode < 2; ++mode) {
            const bool pdl = mode == 1;
            hold<<<1, 1>>>(2000000);
            CHECK(cudaEventRecord(begin));
            for (int k = 0; k < kTimedCalls; ++k, ++passes)
                launch(pdl, passes % 2 ? b : a, passes % 2 ? a : b, nullptr);
            CHECK(cudaEventRecord(end));
            CHECK(cudaEventSynchronize(end));
            float ms = 0;
            CHECK(cudaEventElapsedTime(&ms, begin, end));
            std::printf("round %d, %-5s: %.3f us per call (%d back-to-back calls)\n", round,
                        pdl ? "PDL" : "plain", 1000.0 * ms / kTimedCalls, kTimedCalls);
        }
    }
    // Every pass added 1: the calls saw each other's output in order.
    std::vector<int> result(kN);
    CHECK(cudaMemcpy(result.data(), passes % 2 ? b : a, kN * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < kN; ++i)
        if (result[i] != host[i] + passes) {
            std::printf("WRONG at %d: %d, expected %d\n", i, result[i], host[i] + passes);
            return 1;
        }
    std::printf("all %d passes correct; stamps in %s\n", passes, csv);
    return 0;
}
