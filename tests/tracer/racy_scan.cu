// Lab 01's single-buffer mistake on 16 elements: Hillis-Steele updating one shared array in
// place. In the lockstep of a recording its values come out right; the race is still found, and
// the trace must say so. Run with SIMT_TRACE=FILE; exits 0 when the launch failed with the race.
#include <cstdio>
#include <cuda_runtime.h>

constexpr int kN = 16;

__global__ void single_buffer_scan(const int* in, int* out) {
    __shared__ int buffer[kN];
    const int i = threadIdx.x;
    buffer[i] = in[i];
    __syncthreads();
    for (int offset = 1; offset < kN; offset *= 2) {
        // Each lane reads its own element, then its neighbour's, then overwrites its own, which
        // a lane `offset` above has just read: a write after read.
        const int mine = buffer[i];
        const int left = i >= offset ? buffer[i - offset] : 0;
        buffer[i] = mine + left;
        __syncthreads();
    }
    out[i] = buffer[i];
}

int main() {
    int host[kN];
    for (int i = 0; i < kN; ++i) host[i] = i % 10;
    int *in = nullptr, *out = nullptr;
    cudaMalloc(&in, sizeof host);
    cudaMalloc(&out, sizeof host);
    cudaMemcpy(in, host, sizeof host, cudaMemcpyHostToDevice);
    single_buffer_scan<<<1, kN>>>(in, out);
    const cudaError_t error = cudaDeviceSynchronize();
    std::printf("the racy scan's launch: %s\n", cudaGetErrorName(error));
    return error == cudaErrorLaunchFailure ? 0 : 1;
}
