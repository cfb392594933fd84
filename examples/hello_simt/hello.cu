// hello_simt: a small standalone CUDA program, unchanged CUDA C++, that builds with nvcc for a
// GPU and with simtcc (or simt_add_executable) for the simt emulator. See docs/simtcc.md.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                                           \
    do {                                                                                           \
        const cudaError_t err_ = (call);                                                           \
        if (err_ != cudaSuccess) {                                                                 \
            std::fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
                         cudaGetErrorString(err_));                                                \
            std::exit(1);                                                                          \
        }                                                                                          \
    } while (0)

constexpr int kBlock = 128;

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

// One sum per block: a tree reduction in shared memory that halves the active threads each
// step. The __syncthreads() calls are what make it correct; remove one and the emulator
// reports the shared-memory race.
__global__ void block_sum(const float* in, float* block_sums, int n) {
    __shared__ float partial[kBlock];
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    partial[threadIdx.x] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned stride = blockDim.x / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride) partial[threadIdx.x] += partial[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) block_sums[blockIdx.x] = partial[0];
}

int main() {
    const int n = 1000; // not a multiple of the block size: the last block is partial
    const int blocks = (n + kBlock - 1) / kBlock;
    std::vector<float> a(n), b(n);
    for (int i = 0; i < n; ++i) {
        a[i] = static_cast<float>(i);
        b[i] = static_cast<float>(2 * i);
    }

    float *d_a, *d_b, *d_c, *d_sums;
    CUDA_CHECK(cudaMalloc(&d_a, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_b, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_c, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_sums, blocks * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_a, a.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b.data(), n * sizeof(float), cudaMemcpyHostToDevice));

    vector_add<<<blocks, kBlock>>>(d_a, d_b, d_c, n);
    CUDA_CHECK(cudaGetLastError());
    block_sum<<<blocks, kBlock>>>(d_c, d_sums, n);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    std::vector<float> c(n), sums(blocks);
    CUDA_CHECK(cudaMemcpy(c.data(), d_c, n * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(sums.data(), d_sums, blocks * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_a));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_c));
    CUDA_CHECK(cudaFree(d_sums));

    // Small integers: every sum below is exact in float, so compare with ==.
    for (int i = 0; i < n; ++i) {
        if (c[i] != 3.0f * i) {
            std::printf("vector_add: c[%d] = %g, expected %g\n", i, c[i], 3.0 * i);
            return 1;
        }
    }
    double total = 0;
    for (int blk = 0; blk < blocks; ++blk) {
        double expected = 0;
        for (int i = blk * kBlock; i < n && i < (blk + 1) * kBlock; ++i) expected += 3.0 * i;
        if (sums[blk] != expected) {
            std::printf("block_sum: block %d = %g, expected %g\n", blk, sums[blk], expected);
            return 1;
        }
        total += sums[blk];
    }
    std::printf("hello_simt: %d elements, %d blocks, sum %.0f: OK\n", n, blocks, total);
    return 0;
}
