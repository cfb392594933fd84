// A struct returned by the emulator's make_* functions and stored straight into device memory
// (`words[i] = make_uint4(0, 0, 0, 0)`, as lab 07 clears the next call's workspace). GCC's thread
// sanitizer, through which the emulator sees accesses, does not instrument a call's struct result
// stored into memory; at -O2 the call is inlined and the store is a plain one, at -O0 it would not
// be unless the function is always inlined (simt/types.h). tests/CMakeLists.txt builds this file
// twice, at -O0 and at -O2: each check here must hold at both levels, with the same lines.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <string>
#include <vector>

#include "device_vector.h"
#include "planted.h"
#include "simt/report.h"

namespace {

using simt::FaultKind;

constexpr int kThreads = 64;

// Each element written as make_int2's result.
__global__ void fill_pairs(int2* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = make_int2(i, 3 * i);
}

// Each element written as make_uint4's result.
__global__ void clear_words(uint4* words) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    words[i] = make_uint4(0, 0, 0, 0);
}

__global__ void sum_pairs(const int2* in, int* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i].x + in[i].y;
}

__global__ void sum_words(const uint4* words, unsigned* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = words[i].x + words[i].y + words[i].z + words[i].w;
}

// Every block stores into element 0: a race between the blocks.
__global__ void every_block_stores_one(float4* out) {
    if (threadIdx.x == 0)
        // BUG: stored-make-result-race
        out[0] = make_float4(static_cast<float>(blockIdx.x), 0.0f, 0.0f, 1.0f);
}

// After clear_words, launched programmatically dependent on it: the counter that clear_words
// zeroed is taken before cudaGridDependencySynchronize() (lab 07's PDL mistake).
__global__ void count_before_wait(unsigned* counter, int* out) {
    unsigned ticket = 0;
    if (threadIdx.x == 0)
        // BUG: counter-before-grid-dependency-sync
        ticket = atomicAdd(counter, 1u);
    cudaGridDependencySynchronize();
    out[threadIdx.x] = static_cast<int>(ticket);
}

__global__ void count_after_wait(unsigned* counter, int* out) {
    cudaGridDependencySynchronize();
    unsigned ticket = 0;
    if (threadIdx.x == 0) ticket = atomicAdd(counter, 1u);
    out[threadIdx.x] = static_cast<int>(ticket);
}

cudaError_t launch_dependent(void (*kernel)(unsigned*, int*), unsigned* counter, int* out) {
    cudaLaunchAttribute attribute[1];
    attribute[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attribute[0].val.programmaticStreamSerializationAllowed = 1;
    cudaLaunchConfig_t config = {};
    config.gridDim = dim3(1);
    config.blockDim = dim3(kThreads);
    config.attrs = attribute;
    config.numAttrs = 1;
    return cudaLaunchKernelEx(&config, kernel, counter, out);
}

} // namespace

TEST_CASE("a make_* result stored into device memory is seen as written") {
    const int blocks = 3;
    const int n = blocks * kThreads;
    DeviceVector<int2> pairs(n);
    DeviceVector<int> sums(n);
    // Nothing but the kernel writes `pairs`: a store the emulator missed would make the next
    // kernel's reads uninitialized.
    expect_clean("pairs stored from make_int2, then read", [&] {
        fill_pairs<<<blocks, kThreads>>>(pairs.data());
        sum_pairs<<<blocks, kThreads>>>(pairs.data(), sums.data());
    });
    const std::vector<int> got = sums.download();
    for (int i = 0; i < n; ++i) CHECK(got[i] == 4 * i);

    DeviceVector<uint4> words(n);
    DeviceVector<unsigned> word_sums(n);
    expect_clean("words stored from make_uint4, then read", [&] {
        clear_words<<<blocks, kThreads>>>(words.data());
        sum_words<<<blocks, kThreads>>>(words.data(), word_sums.data());
    });
    for (const unsigned sum : word_sums.download()) CHECK(sum == 0u);
}

TEST_CASE("two blocks storing a make_* result into one element race, reported at that line") {
    DeviceVector<float4> out(1);
    expect_planted_report(__FILE__, {FaultKind::global_race, "stored-make-result-race"},
                          [&] { every_block_stores_one<<<4, kThreads>>>(out.data()); });
}

TEST_CASE("PDL: a word that the kernel before cleared with make_uint4, taken before the wait") {
    DeviceVector<uint4> words(kThreads);
    DeviceVector<int> out(kThreads);
    auto* counter = reinterpret_cast<unsigned*>(words.data());
    const simt::FaultReport report = expect_planted_report(
        __FILE__, {FaultKind::global_race, "counter-before-grid-dependency-sync"}, [&] {
            clear_words<<<1, kThreads>>>(words.data());
            CHECK(launch_dependent(count_before_wait, counter, out.data()) != cudaSuccess);
        });
    CHECK(report.message.find("before cudaGridDependencySynchronize()") != std::string::npos);
    expect_clean("the counter taken after cudaGridDependencySynchronize()", [&] {
        clear_words<<<1, kThreads>>>(words.data());
        CHECK(launch_dependent(count_after_wait, counter, out.data()) == cudaSuccess);
    });
    CHECK(out.download()[0] == 0);
}
