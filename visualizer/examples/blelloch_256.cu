// Blelloch (work-efficient) exclusive scan of 256 ints in one block of 128 threads, after
// Harris's prescan (GPU Gems 3, ch. 39): an up-sweep that builds a tree of partial sums, then a
// down-sweep that pushes the prefixes back down. The program launches it twice: first with the
// plain indices (bank conflicts grow with the tree's stride), then padded with one word every 32
// (index k + k/32), which removes most of them.
//
//   simtcc -o blelloch_256 blelloch_256.cu
//   SIMT_TRACE=blelloch.trace.json ./blelloch_256   # blelloch.trace.json: unpadded,
//                                                   # blelloch.trace.1.json: padded
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 256;
constexpr int kLogBanks = 5;

template <bool Padded>
__device__ int slot(int k) {
    return Padded ? k + (k >> kLogBanks) : k;
}

template <bool Padded>
__global__ void blelloch_scan(const int* in, int* out) {
    __shared__ int temp[kN + kN / 32];
    const int thid = threadIdx.x;
    const int ai = thid;
    const int bi = thid + kN / 2;
    temp[slot<Padded>(ai)] = in[ai];
    temp[slot<Padded>(bi)] = in[bi];

    int offset = 1;
    for (int d = kN >> 1; d > 0; d >>= 1) { // up-sweep: sums at the tree's nodes
        __syncthreads();
        if (thid < d) {
            const int a = slot<Padded>(offset * (2 * thid + 1) - 1);
            const int b = slot<Padded>(offset * (2 * thid + 2) - 1);
            temp[b] += temp[a];
        }
        offset *= 2;
    }
    if (thid == 0) temp[slot<Padded>(kN - 1)] = 0; // the root gets the identity

    for (int d = 1; d < kN; d *= 2) { // down-sweep: prefixes from the root to the leaves
        offset >>= 1;
        __syncthreads();
        if (thid < d) {
            const int a = slot<Padded>(offset * (2 * thid + 1) - 1);
            const int b = slot<Padded>(offset * (2 * thid + 2) - 1);
            const int t = temp[a];
            temp[a] = temp[b];
            temp[b] += t;
        }
    }
    __syncthreads();
    out[ai] = temp[slot<Padded>(ai)];
    out[bi] = temp[slot<Padded>(bi)];
}

template <bool Padded>
bool run(const int* in, int* out, const int* expected) {
    blelloch_scan<Padded><<<1, kN / 2>>>(in, out);
    int host_out[kN];
    cudaMemcpy(host_out, out, sizeof host_out, cudaMemcpyDeviceToHost);
    for (int i = 0; i < kN; ++i) {
        if (host_out[i] != expected[i]) {
            std::printf("blelloch_256 (%s): out[%d] = %d, expected %d\n",
                        Padded ? "padded" : "unpadded", i, host_out[i], expected[i]);
            return false;
        }
    }
    return true;
}

int main() {
    int host_in[kN];
    int expected[kN];
    for (int i = 0, sum = 0; i < kN; ++i) {
        host_in[i] = (i * 5 + 1) % 7;
        expected[i] = sum;
        sum += host_in[i];
    }
    int* in = nullptr;
    int* out = nullptr;
    cudaMalloc(&in, sizeof host_in);
    cudaMalloc(&out, sizeof host_in);
    cudaMemcpy(in, host_in, sizeof host_in, cudaMemcpyHostToDevice);
    const bool ok = run<false>(in, out, expected) && run<true>(in, out, expected);
    cudaFree(in);
    cudaFree(out);
    std::printf("blelloch_256: %s\n", ok ? "OK" : "FAILED");
    return ok ? 0 : 1;
}
