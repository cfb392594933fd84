// The CUDA C++ people write, beyond the basics: __shared__ in included headers and several
// variables in one __shared__ statement, kernel templates launched with every template argument
// deduced, lambdas in kernels, __launch_bounds__, __restrict__, __noinline__, extern __shared__
// arrays of different types over one buffer, and libcu++'s plain cuda::std types. Built for both
// backends, so the GPU checks the expected values the emulator is held to.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/functional>
#include <cuda/std/limits>
#include <cuda/std/tuple>
#include <cuda/std/type_traits>

#include <cstdint>
#include <random>
#include <vector>

#include "block_sum_in_header.cuh"
#include "device_vector.h"

namespace {

std::vector<int> random_ints(std::size_t n, int low, int high) {
    static std::mt19937 rng(std::random_device{}());
    std::uniform_int_distribution<int> pick(low, high);
    std::vector<int> v(n);
    for (int& x : v) x = pick(rng);
    return v;
}

// Two arrays and a scalar in one statement; each must be its own storage.
__global__ void __launch_bounds__(64)
    three_in_one_statement(const int* __restrict__ in, int* __restrict__ out) {
    __shared__ int first[64], second[64], count;
    const int t = threadIdx.x;
    if (t == 0) count = 0;
    first[t] = in[t];
    second[t] = -in[t];
    __syncthreads();
    atomicAdd(&count, 1);
    __syncthreads();
    out[t] = first[63 - t] + 1000 * second[t] + 1000000 * count;
}

__device__ __noinline__ int times_three(int v) {
    return 3 * v;
}

// A kernel template whose arguments all come from the launch: T from the pointers, F from the
// functor.
template <class T, class F>
__global__ void __launch_bounds__(128, 2) transform(const T* in, T* out, int n, F f) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = f(in[i]);
}

struct AddOffset {
    int offset;
    __host__ __device__ int operator()(int v) const { return v + offset; }
};

// A lambda defined in the kernel, capturing a local, calling a __noinline__ function.
__global__ void lambda_in_kernel(const int* in, int* out) {
    const int bias = static_cast<int>(blockIdx.x);
    auto scaled = [bias](int v) { return times_three(v) + bias; };
    out[blockIdx.x * blockDim.x + threadIdx.x] = scaled(in[blockIdx.x * blockDim.x + threadIdx.x]);
}

// Dynamic shared memory carved into a float array and an int array behind it, declared as two
// extern __shared__ arrays of different types (they share one address, as in CUDA).
__global__ void carve_dynamic_shared(const int* in, float* out_f, int* out_i) {
    extern __shared__ float as_float[];
    extern __shared__ int as_int[];
    const int t = threadIdx.x;
    const int n = blockDim.x;
    int* ints = as_int + n; // the int part starts after n floats
    as_float[t] = 0.5f * static_cast<float>(in[t]);
    ints[t] = in[t] * in[t];
    __syncthreads();
    out_f[t] = as_float[(t + 1) % n];
    out_i[t] = ints[(t + 2) % n];
}

// cuda::std in device code: array, tuple, functional, limits, bit, type_traits.
__global__ void libcudacxx_types(const int* in, int* out) {
    static_assert(cuda::std::is_same_v<cuda::std::remove_cv_t<const int>, int>);
    const int t = threadIdx.x;
    cuda::std::array<int, 3> three{in[t], in[t] + 1, in[t] + 2};
    const cuda::std::tuple<int, unsigned> pair{three[2], static_cast<unsigned>(in[t])};
    const int sum = cuda::std::plus<int>{}(cuda::std::get<0>(pair), three[0]);
    const int bits = cuda::std::popcount(cuda::std::get<1>(pair));
    const int big = cuda::std::numeric_limits<int>::max();
    out[3 * t + 0] = sum;
    out[3 * t + 1] = bits;
    out[3 * t + 2] = big - in[t];
}

} // namespace

TEST_CASE("syntax: __shared__ declared in an included header, with a loop") {
    constexpr int threads = 64;
    constexpr int blocks = 5;
    const std::vector<int> in = random_ints(threads * blocks, -1000, 1000);
    DeviceVector<int> d_in(in), d_sums(blocks);
    block_sums_in_header<threads><<<blocks, threads>>>(d_in.data(), d_sums.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> sums = d_sums.download();
    for (int b = 0; b < blocks; ++b) {
        int expected = 0;
        for (int t = 0; t < threads; ++t) expected += in[b * threads + t];
        CHECK(sums[b] == expected);
    }
}

TEST_CASE("syntax: several variables in one __shared__ statement are separate storage") {
    const std::vector<int> in = random_ints(64, -500, 500);
    DeviceVector<int> d_in(in), d_out(64);
    three_in_one_statement<<<1, 64>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int t = 0; t < 64; ++t) CHECK(out[t] == in[63 - t] - 1000 * in[t] + 1000000 * 64);
}

TEST_CASE("syntax: a kernel template launched with every template argument deduced") {
    const int n = 1000;
    const std::vector<int> in = random_ints(n, -100000, 100000);
    const int offset = random_ints(1, -50, 50)[0];
    DeviceVector<int> d_in(in), d_out(n);
    const int* const_in = d_in.data();
    transform<<<(n + 127) / 128, 128>>>(const_in, d_out.data(), n, AddOffset{offset});
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int i = 0; i < n; ++i) CHECK(out[i] == in[i] + offset);
}

TEST_CASE("syntax: a lambda in a kernel calling a __noinline__ function") {
    const std::vector<int> in = random_ints(4 * 32, -1000, 1000);
    DeviceVector<int> d_in(in), d_out(in.size());
    lambda_in_kernel<<<4, 32>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (std::size_t i = 0; i < in.size(); ++i) CHECK(out[i] == 3 * in[i] + int(i / 32));
}

TEST_CASE("syntax: extern __shared__ arrays of different types over one buffer") {
    const int n = 96;
    const std::vector<int> in = random_ints(n, -3000, 3000);
    DeviceVector<int> d_in(in), d_i(n);
    DeviceVector<float> d_f(n);
    carve_dynamic_shared<<<1, n, n*(sizeof(float) + sizeof(int))>>>(d_in.data(), d_f.data(),
                                                                    d_i.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<float> f = d_f.download();
    const std::vector<int> i = d_i.download();
    for (int t = 0; t < n; ++t) {
        CHECK(f[t] == 0.5f * static_cast<float>(in[(t + 1) % n]));
        CHECK(i[t] == in[(t + 2) % n] * in[(t + 2) % n]);
    }
}

TEST_CASE("syntax: libcu++'s cuda::std types in device code") {
    const std::vector<int> in = random_ints(32, 0, 1 << 20);
    DeviceVector<int> d_in(in), d_out(3 * 32);
    libcudacxx_types<<<1, 32>>>(d_in.data(), d_out.data());
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const std::vector<int> out = d_out.download();
    for (int t = 0; t < 32; ++t) {
        CHECK(out[3 * t + 0] == 2 * in[t] + 2);
        CHECK(out[3 * t + 1] == __builtin_popcount(static_cast<unsigned>(in[t])));
        CHECK(out[3 * t + 2] == 2147483647 - in[t]);
    }
}
