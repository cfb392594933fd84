// The provenance watch (simt/provenance.h): which host calls wrote a watched output last, and
// whether a watched input went to the host. simt backend only: nothing is watched on a GPU.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <random>
#include <string>
#include <vector>

#include "device_vector.h"
#include "simt/provenance.h"

namespace {

__global__ void write_where(const int* mask, int* out, int n, int value) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n && mask[i]) out[i] = value + i;
}

__global__ void add_atomically(int* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) atomicAdd(&out[i], 1);
}

__global__ void copy_ints(const int* from, int* to, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) to[i] = from[i];
}

int blocks(int n) {
    return (n + 127) / 128;
}

std::mt19937& rng() {
    static std::mt19937 generator(std::random_device{}());
    return generator;
}

int random_int(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng());
}

std::string line_of(int line) {
    return "provenance_test.cu:" + std::to_string(line);
}

} // namespace

TEST_CASE("provenance: an output copied in by the host is named with the copy's line") {
    const int n = random_int(1, 3000);
    std::vector<int> host(static_cast<size_t>(n), 7);
    DeviceVector<int> out(static_cast<size_t>(n));
    simt::provenance_begin();
    simt::provenance_output(out.data(), n * sizeof(int));
    const int line = __LINE__ + 1;
    REQUIRE(cudaMemcpy(out.data(), host.data(), n * sizeof(int), cudaMemcpyHostToDevice) == 0);
    const std::string seen = simt::provenance_end();
    CHECK(seen == "the output was written by host code (cudaMemcpy at " + line_of(line) +
                      "), not by a kernel: " + std::to_string(n) + " of its " + std::to_string(n) +
                      " 4-byte words were last written by host code");
    CHECK(simt::provenance_end().empty()); // ended: nothing more to say
}

TEST_CASE("provenance: kernel stores after a host write clear exactly the words they write") {
    for (int round = 0; round < 5; ++round) {
        const int n = random_int(1, 5000);
        std::vector<int> mask(static_cast<size_t>(n));
        int kernel_words = 0;
        for (int& m : mask) kernel_words += (m = random_int(0, 3) != 0);
        DeviceVector<int> d_mask(mask);
        DeviceVector<int> out(static_cast<size_t>(n));
        simt::provenance_begin();
        simt::provenance_output(out.data(), n * sizeof(int));
        const int line = __LINE__ + 1;
        REQUIRE(cudaMemsetAsync(out.data(), 0, n * sizeof(int), 0) == 0);
        write_where<<<blocks(n), 128>>>(d_mask.data(), out.data(), n, random_int(1, 100));
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        const std::string seen = simt::provenance_end();
        INFO("n = ", n, ", words a kernel wrote: ", kernel_words);
        if (kernel_words == n) {
            CHECK(seen.empty());
        } else {
            CHECK(seen ==
                  "the output was written by host code (cudaMemsetAsync at " + line_of(line) +
                      "), not by a kernel: " + std::to_string(n - kernel_words) + " of its " +
                      std::to_string(n) + " 4-byte words were last written by host code");
        }
    }
}

TEST_CASE("provenance: a host write after the kernel counts again; atomics count as kernel") {
    const int n = random_int(64, 2000);
    DeviceVector<int> out(std::vector<int>(static_cast<size_t>(n), 0));
    simt::provenance_begin();
    simt::provenance_output(out.data(), n * sizeof(int));
    REQUIRE(cudaMemset(out.data(), 0, n * sizeof(int)) == 0);
    add_atomically<<<blocks(n), 128>>>(out.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    const int first = random_int(0, n - 1), count = random_int(1, n - first);
    const std::vector<int> fix(static_cast<size_t>(count), 5);
    const int line = __LINE__ + 1;
    REQUIRE(cudaMemcpyAsync(out.data() + first, fix.data(), count * sizeof(int),
                            cudaMemcpyHostToDevice, 0) == 0);
    const std::string seen = simt::provenance_end();
    CHECK(seen == "the output was written by host code (cudaMemcpyAsync at " + line_of(line) +
                      "), not by a kernel: " + std::to_string(count) + " of its " +
                      std::to_string(n) + " 4-byte words were last written by host code");
}

TEST_CASE("provenance: a correct kernel-only call, and writes outside the watched output") {
    const int n = random_int(1, 4000);
    DeviceVector<int> mask(std::vector<int>(static_cast<size_t>(n), 1));
    DeviceVector<int> scratch(std::vector<int>(static_cast<size_t>(n), 3));
    DeviceVector<int> out(static_cast<size_t>(n));
    simt::provenance_begin();
    simt::provenance_input(mask.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    REQUIRE(cudaMemset(scratch.data(), 0, n * sizeof(int)) == 0); // not an output: fine
    write_where<<<blocks(n), 128>>>(mask.data(), out.data(), n, 1);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    // Reading back what a kernel computed (not the input) is allowed.
    std::vector<int> total(1);
    REQUIRE(cudaMemcpy(total.data(), out.data() + n - 1, sizeof(int), cudaMemcpyDeviceToHost) == 0);
    CHECK(simt::provenance_end().empty());
    CHECK(total[0] == n);
}

TEST_CASE("provenance: the input copied to the host, directly or through device copies") {
    const int n = random_int(1, 3000);
    std::vector<int> values(static_cast<size_t>(n));
    for (int& v : values) v = random_int(-1000, 1000);
    DeviceVector<int> in(values);
    DeviceVector<int> out(static_cast<size_t>(n));
    DeviceVector<int> staging(static_cast<size_t>(n) + 8);
    std::vector<int> host(static_cast<size_t>(n));
    const int part = random_int(0, n - 1); // any single element of it is enough

    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    int line = __LINE__ + 1;
    REQUIRE(cudaMemcpy(host.data(), in.data() + part, sizeof(int), cudaMemcpyDeviceToHost) == 0);
    copy_ints<<<blocks(n), 128>>>(in.data(), out.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(simt::provenance_end() ==
          "the input was copied to the host (cudaMemcpy at " + line_of(line) + ") during the call");

    // Through a device-to-device copy first (a copy of the input is the input).
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    REQUIRE(cudaMemcpy(staging.data() + 8, in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) ==
            0);
    line = __LINE__ + 1;
    REQUIRE(cudaMemcpyAsync(host.data(), staging.data() + 8 + part, sizeof(int),
                            cudaMemcpyDeviceToHost, 0) == 0);
    CHECK(simt::provenance_end() == "the input was copied to the host (cudaMemcpyAsync at " +
                                        line_of(line) + ") during the call");

    // Into managed memory, which host code reads without any copy.
    int* managed = nullptr;
    REQUIRE(cudaMallocManaged(reinterpret_cast<void**>(&managed), n * sizeof(int)) == 0);
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    line = __LINE__ + 1;
    REQUIRE(cudaMemcpy(managed, in.data(), n * sizeof(int), cudaMemcpyDefault) == 0);
    CHECK(simt::provenance_end() ==
          "the input was copied to the host (cudaMemcpy at " + line_of(line) + ") during the call");
    cudaFree(managed);

    // Before the watch and after it, copies are the test's own business.
    REQUIRE(cudaMemcpy(host.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToHost) == 0);
    CHECK(host == values);
}

TEST_CASE("provenance: a device-to-device copy into the output is host code writing it") {
    const int n = random_int(1, 2000);
    DeviceVector<int> in(std::vector<int>(static_cast<size_t>(n), 4));
    DeviceVector<int> out(static_cast<size_t>(n));
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    const int line = __LINE__ + 1;
    REQUIRE(cudaMemcpy(out.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) == 0);
    const std::string seen = simt::provenance_end();
    CHECK(seen == "the output was written by host code (cudaMemcpy at " + line_of(line) +
                      "), not by a kernel: " + std::to_string(n) + " of its " + std::to_string(n) +
                      " 4-byte words were last written by host code");
    // The kernel-writes tracking ends with the watch: the same kernel store is unseen now.
    copy_ints<<<blocks(n), 128>>>(in.data(), out.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(out.download() == std::vector<int>(static_cast<size_t>(n), 4));
}

TEST_CASE("provenance: both findings at once, input first") {
    const int n = random_int(1, 1000);
    DeviceVector<int> in(std::vector<int>(static_cast<size_t>(n), 2));
    DeviceVector<int> out(static_cast<size_t>(n));
    std::vector<int> host(static_cast<size_t>(n));
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    const int read = __LINE__ + 1;
    REQUIRE(cudaMemcpy(host.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToHost) == 0);
    const int write = __LINE__ + 1;
    REQUIRE(cudaMemcpy(out.data(), host.data(), n * sizeof(int), cudaMemcpyHostToDevice) == 0);
    CHECK(simt::provenance_end() ==
          "the input was copied to the host (cudaMemcpy at " + line_of(read) +
              ") during the call; the output was written by host "
              "code (cudaMemcpy at " +
              line_of(write) + "), not by a kernel: " + std::to_string(n) + " of its " +
              std::to_string(n) + " 4-byte words were last written by host code");
}

namespace {

// Each thread loads its element into shared memory; after the barrier, thread i stores its
// neighbour's (the data flows through shared memory, and from another thread).
__global__ void rotate_through_shared(const int* in, int* out, int n) {
    __shared__ int tile[128];
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    tile[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    if (i < n) out[i] = tile[(threadIdx.x + 1) % blockDim.x] + 1;
}

// Only lane 0 of each warp loads; the others receive its value through a shuffle.
__global__ void broadcast_by_shuffle(const int* in, int* out, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    const int lane = static_cast<int>(threadIdx.x % 32);
    int value = 0;
    if (lane == 0 && i < n) value = in[i];
    value = __shfl_sync(0xffffffffu, value, 0);
    if (i < n) out[i] = value + lane;
}

// Stores a constant: reads nothing.
__global__ void fill_constant(int* out, int n, int value) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) out[i] = value;
}

std::string not_computed(int words, int of) {
    return "the output was not computed from the input: " + std::to_string(words) + " of its " +
           std::to_string(of) +
           " 4-byte words were stored by kernel threads that had read nothing that came from the "
           "input (the input itself, a device copy of it, or what such threads stored)";
}

} // namespace

TEST_CASE("provenance: a kernel that copies an answer host code prepared did not compute it") {
    // The answer is read from the input through the device pointer (host memory here) and
    // uploaded; no call reads the input and a kernel writes every output word.
    const int n = random_int(5, 3000);
    std::vector<int> values(static_cast<size_t>(n));
    for (int& v : values) v = random_int(-1000, 1000);
    DeviceVector<int> in(values);
    DeviceVector<int> scratch(static_cast<size_t>(n));
    DeviceVector<int> out(static_cast<size_t>(n));
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    std::vector<int> answer(static_cast<size_t>(n));
    for (int i = 0, running = 0; i < n; ++i)
        answer[static_cast<size_t>(i)] = running += in.data()[i];
    REQUIRE(cudaMemcpy(scratch.data(), answer.data(), n * sizeof(int), cudaMemcpyHostToDevice) ==
            0);
    copy_ints<<<blocks(n), 128>>>(scratch.data(), out.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    // The first 16 bytes (an exclusive scan's identity) may hold what no input decides.
    CHECK(simt::provenance_end() == not_computed(n - 4, n));
    CHECK(out.download() == answer);
}

TEST_CASE("provenance: data from the input through shared memory, shuffles and device copies") {
    const int n = random_int(1, 3000);
    std::vector<int> values(static_cast<size_t>(n));
    for (int& v : values) v = random_int(-1000, 1000);
    DeviceVector<int> in(values);
    DeviceVector<int> copy(static_cast<size_t>(n));
    DeviceVector<int> out(static_cast<size_t>(n));
    for (int round = 0; round < 3; ++round) {
        simt::provenance_begin();
        simt::provenance_input(in.data(), n * sizeof(int));
        simt::provenance_output(out.data(), n * sizeof(int));
        if (round == 0) rotate_through_shared<<<blocks(n), 128>>>(in.data(), out.data(), n);
        if (round == 1) broadcast_by_shuffle<<<blocks(n), 128>>>(in.data(), out.data(), n);
        if (round == 2) {
            // A device copy of the input is the input; a kernel computes from it.
            REQUIRE(cudaMemcpy(copy.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) ==
                    0);
            rotate_through_shared<<<blocks(n), 128>>>(copy.data(), out.data(), n);
        }
        REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
        INFO("round ", round, ", n = ", n);
        CHECK(simt::provenance_end().empty());
    }
    // The copy overwritten by the host is not the input any more.
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    REQUIRE(cudaMemcpy(copy.data(), in.data(), n * sizeof(int), cudaMemcpyDeviceToDevice) == 0);
    REQUIRE(cudaMemcpy(copy.data(), values.data(), n * sizeof(int), cudaMemcpyHostToDevice) == 0);
    rotate_through_shared<<<blocks(n), 128>>>(copy.data(), out.data(), n);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(simt::provenance_end() == (n > 4 ? not_computed(n - 4, n) : ""));
}

TEST_CASE("provenance: a constant may fill the output's first element only") {
    const int n = random_int(1, 2000);
    DeviceVector<int> in(std::vector<int>(static_cast<size_t>(n), 1));
    DeviceVector<int> out(static_cast<size_t>(n));
    const int constant_words = random_int(1, n);
    simt::provenance_begin();
    simt::provenance_input(in.data(), n * sizeof(int));
    simt::provenance_output(out.data(), n * sizeof(int));
    copy_ints<<<blocks(n), 128>>>(in.data(), out.data(), n);
    fill_constant<<<blocks(constant_words), 128>>>(out.data(), constant_words, 0);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    INFO("n = ", n, ", constant words: ", constant_words);
    CHECK(simt::provenance_end() ==
          (constant_words > 4 ? not_computed(constant_words - 4, n) : ""));
    // Without a watched input there is nothing to compute from: no such finding.
    simt::provenance_begin();
    simt::provenance_output(out.data(), n * sizeof(int));
    fill_constant<<<blocks(n), 128>>>(out.data(), n, 3);
    REQUIRE(cudaDeviceSynchronize() == cudaSuccess);
    CHECK(simt::provenance_end().empty());
}
