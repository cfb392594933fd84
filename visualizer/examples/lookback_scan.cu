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
// `double-count` plants a classic mistake: the look-back does not stop at the first P, so it adds
// the tiles that P already covers a second time. The emulator finds nothing wrong (there is no
// race), the scan is wrong from tile 2 on, and the program says so (exit status 1).
//
// Built for the emulator, it tells traces where its tile descriptors are (so the viewer shows
// the flags and each look-back) and what out[] and each tile should get (so the viewer marks the
// values that differ): simt::trace_tile_status and simt::trace_expected (docs/trace-format.md).
//
//   simtcc -o lookback_scan lookback_scan.cu
//   SIMT_TRACE=lookback.trace.json SIMT_TRACE_BLOCKS=all ./lookback_scan [tiles]
//   [static|double-count] export SIMT_DISPATCH=shuffled SIMT_TRACE_BLOCKS=0,2,4,6
//   SIMT_TRACE=spin.trace.json ./lookback_scan 8 static
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#include <string>
#include <vector>
#if __has_include(<simt/trace.h>)
#include <simt/trace.h> // the emulator's trace annotations
#define LOOKBACK_ON_EMULATOR 1
#endif

constexpr int kTile = 256; // elements per tile = threads per block
constexpr unsigned long long kFlagX = 0, kFlagA = 1, kFlagP = 2;

__device__ unsigned long long descriptor(unsigned long long flag, int value) {
    return (flag << 32) | static_cast<unsigned>(value);
}

__global__ void lookback_scan(const int* in, int* out, unsigned long long* status,
                              unsigned* tile_counter, bool static_ids, bool double_count) {
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
                    // A volatile load: a real read of memory each time (a plain one could be
                    // kept in a register); it spins while tile j says X.
                    d = *reinterpret_cast<volatile unsigned long long*>(&status[j]);
                } while ((d >> 32) == kFlagX);
                prefix += static_cast<int>(static_cast<unsigned>(d));
                if ((d >> 32) == kFlagP && !double_count) break; // P covers all before it
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
    const std::string mode = argc > 2 ? argv[2] : "";
    const bool static_ids = mode == "static";
    const bool double_count = mode == "double-count";
    if (tiles < 1 || (argc > 2 && !static_ids && !double_count)) {
        std::printf("usage: lookback_scan [tiles >= 1] [static|double-count]\n");
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
#ifdef LOOKBACK_ON_EMULATOR
    // What each tile should get: the sum of the elements before it, and through it.
    std::vector<int> before(tiles), through(tiles);
    for (int t = 0; t < tiles; ++t) {
        before[t] = t == 0 ? 0 : expected[t * kTile - 1];
        through[t] = expected[(t + 1) * kTile - 1];
    }
    simt::trace_tile_status(status, tiles, simt::TileStatusLayout::packed64, 5 /* i32 */);
    simt::trace_expected(out, n, 5 /* i32 */, expected.data(), "host inclusive sum of in[]");
    simt::trace_expected_tiles(tiles, 5 /* i32 */, before.data(), through.data(),
                               "host inclusive sum of in[]");
#endif
    lookback_scan<<<tiles, kTile>>>(in, out, status, tile_counter, static_ids, double_count);
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
