// Checks the test main's fault isolation (fault_isolation.cpp) on each backend: the first case
// traps in a kernel and fails, the second is an ordinary scan of a few values that must pass on
// a clean device. check_fault_isolation.py runs it and reads what the summary says.
#include <doctest/doctest.h>

#include <cuda_runtime.h>

#include <vector>

namespace {

__global__ void trap_kernel() {
    __trap();
}

__global__ void add_one(int* values, int n) {
    const int i = static_cast<int>(blockIdx.x * blockDim.x + threadIdx.x);
    if (i < n) values[i] += 1;
}

} // namespace

TEST_CASE("a kernel that traps") {
    trap_kernel<<<1, 32>>>();
    CHECK(cudaDeviceSynchronize() == cudaSuccess); // fails: the kernel trapped
}

TEST_CASE("a kernel after the fault") {
    std::vector<int> host{1, 2, 3, 4, 5};
    const int n = static_cast<int>(host.size());
    int* values = nullptr;
    REQUIRE(cudaMalloc(&values, n * sizeof(int)) == cudaSuccess);
    REQUIRE(cudaMemcpy(values, host.data(), n * sizeof(int), cudaMemcpyHostToDevice) ==
            cudaSuccess);
    add_one<<<1, 32>>>(values, n);
    REQUIRE(cudaMemcpy(host.data(), values, n * sizeof(int), cudaMemcpyDeviceToHost) ==
            cudaSuccess);
    CHECK(cudaFree(values) == cudaSuccess);
    CHECK(host == std::vector<int>{2, 3, 4, 5, 6});
}
