// Single-pass inclusive scan with decoupled look-back (Merrill and Garland), small enough to
// watch: each block takes the next tile id, scans its tile in shared memory, publishes its
// aggregate (flag A; tile 0 publishes its prefix, flag P, at once), then thread 0 looks back
// over the earlier tiles' descriptors, spinning while one still says X, adds their values and
// publishes the tile's inclusive prefix (flag P). A descriptor is one 64-bit word: the flag in
// the high half, the value in the low half, so a reader never sees a flag with a stale value.
//
// With dynamic tile ids, tiles are taken in the order blocks run, so an earlier tile has always
// made progress and the look-back rarely waits. `static` uses blockIdx.x as the tile id instead:
// with shuffled dispatch a block may then run before the blocks of earlier tiles and spin on
// their X flags until they run (safe here only because every block is resident at once).
//
//   simtcc -o lookback_scan lookback_scan.cu
//   SIMT_TRACE=lookback.trace.json SIMT_TRACE_BLOCKS=all ./lookback_scan [tiles] [static]
//   export SIMT_DISPATCH=shuffled SIMT_TRACE_BLOCKS=0,2,4,6
//   SIMT_TRACE=spin.trace.json ./lookback_scan 8 static
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>

constexpr int kTile = 256; // elements per tile = threads per block
constexpr unsigned long long kFlagX = 0, kFlagA = 1, kFlagP = 2;

__device__ unsigned long long descriptor(unsigned long long flag, int value) {
    return (flag << 32) | static_cast<unsigned>(value);
}

__global__ void lookback_scan(const int* in, int* out, unsigned long long* status,
                              unsigned* tile_counter, bool static_ids) {
    __shared__ unsigned s_tile;
    __shared__ int s_data[kTile];
    __shared__ int s_prefix;
    const int t = threadIdx.x;
    if (t == 0) s_tile = static_ids ? blockIdx.x : atomicAdd(tile_counter, 1u);
    __syncthreads();
    const unsigned tile = s_tile;

    s_data[t] = in[tile * kTile + t];
    __syncthreads();
    for (int offset = 1; offset < kTile; offset *= 2) { // in-place Hillis-Steele
        int v = s_data[t];
        if (t >= offset) v += s_data[t - offset];
        __syncthreads();
        s_data[t] = v;
        __syncthreads();
    }

    if (t == 0) {
        const int aggregate = s_data[kTile - 1];
        int prefix = 0;
        if (tile == 0) {
            atomicExch(&status[tile], descriptor(kFlagP, aggregate));
        } else {
            atomicExch(&status[tile], descriptor(kFlagA, aggregate));
            for (int j = static_cast<int>(tile) - 1; j >= 0; --j) {
                unsigned long long d;
                do {
                    d = atomicAdd(&status[j], 0ull); // spins while tile j says X
                } while ((d >> 32) == kFlagX);
                prefix += static_cast<int>(static_cast<unsigned>(d));
                if ((d >> 32) == kFlagP) break;
            }
            atomicExch(&status[tile], descriptor(kFlagP, prefix + aggregate));
        }
        s_prefix = prefix;
    }
    __syncthreads();
    out[tile * kTile + t] = s_data[t] + s_prefix;
}

int main(int argc, char** argv) {
    const int tiles = argc > 1 ? std::atoi(argv[1]) : 8;
    const bool static_ids = argc > 2 && std::string(argv[2]) == "static";
    if (tiles < 1 || (argc > 2 && !static_ids)) {
        std::printf("usage: lookback_scan [tiles >= 1] [static]\n");
        return 2;
    }
    const int n = tiles * kTile;
    std::vector<int> host_in(n), expected(n), host_out(n);
    long long sum = 0;
    for (int i = 0; i < n; ++i) {
        host_in[i] = (i * 3 + 1) % 5;
        sum += host_in[i];
        expected[i] = static_cast<int>(sum);
    }
    int* in = nullptr;
    int* out = nullptr;
    unsigned long long* status = nullptr;
    unsigned* tile_counter = nullptr;
    cudaMalloc(&in, n * sizeof(int));
    cudaMalloc(&out, n * sizeof(int));
    cudaMalloc(&status, tiles * sizeof(unsigned long long));
    cudaMalloc(&tile_counter, sizeof(unsigned));
    cudaMemcpy(in, host_in.data(), n * sizeof(int), cudaMemcpyHostToDevice);
    cudaMemset(status, 0, tiles * sizeof(unsigned long long)); // every tile starts as X
    cudaMemset(tile_counter, 0, sizeof(unsigned));
    lookback_scan<<<tiles, kTile>>>(in, out, status, tile_counter, static_ids);
    cudaMemcpy(host_out.data(), out, n * sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(in);
    cudaFree(out);
    cudaFree(status);
    cudaFree(tile_counter);
    for (int i = 0; i < n; ++i) {
        if (host_out[i] != expected[i]) {
            std::printf("lookback_scan: out[%d] = %d, expected %d\n", i, host_out[i], expected[i]);
            return 1;
        }
    }
    std::printf("lookback_scan: %d tiles OK\n", tiles);
    return 0;
}
