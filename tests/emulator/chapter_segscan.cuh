// The 2011 chapter's segmented warp scan by conditional indexing, shared by the emulator's
// lockstep test (tests/emulator/lockstep_test.cu) and the GPU comparison
// (tools/lockstep_check/segscan_chapter.cu), with the kernel both launch (its __shared__ arrays
// reach the emulator through the rewriter's copy of this header).
#pragma once

#include <vector>

// The 2011 chapter's segmented warp scan by conditional indexing (Sengupta, Harris, Garland,
// Owens, Figure 1.11), for sums: head flags turned into the index of each lane's segment head
// by a max-scan, then steps that only lanes far enough from their head take. Written for
// pre-Volta GPUs: no __syncwarp(), volatile shared memory.
__device__ int max_scan_warp(volatile int* hd, int idx) {
    const int lane = idx & 31;
    if (lane >= 1) hd[idx] = max(hd[idx - 1], hd[idx]);
    if (lane >= 2) hd[idx] = max(hd[idx - 2], hd[idx]);
    if (lane >= 4) hd[idx] = max(hd[idx - 4], hd[idx]);
    if (lane >= 8) hd[idx] = max(hd[idx - 8], hd[idx]);
    if (lane >= 16) hd[idx] = max(hd[idx - 16], hd[idx]);
    return hd[idx];
}

__device__ int segscan_warp(volatile int* ptr, volatile int* hd, int idx) {
    const int lane = idx & 31;
    if (hd[idx]) hd[idx] = lane;
    const int mindex = max_scan_warp(hd, idx);
    if (lane >= mindex + 1) ptr[idx] = ptr[idx - 1] + ptr[idx];
    if (lane >= mindex + 2) ptr[idx] = ptr[idx - 2] + ptr[idx];
    if (lane >= mindex + 4) ptr[idx] = ptr[idx - 4] + ptr[idx];
    if (lane >= mindex + 8) ptr[idx] = ptr[idx - 8] + ptr[idx];
    if (lane >= mindex + 16) ptr[idx] = ptr[idx - 16] + ptr[idx];
    return ptr[idx];
}

// Per warp of 32: a sum that restarts at each flagged element (and at each warp's first).
inline std::vector<int> segmented_reference(const std::vector<int>& values,
                                            const std::vector<int>& flags) {
    std::vector<int> out(values.size());
    for (size_t i = 0; i < values.size(); ++i)
        out[i] = (i % 32 == 0 || flags[i]) ? values[i] : out[i - 1] + values[i];
    return out;
}

// One block of 256 threads: 8 warps, each scanning its 32 values with its 32 head flags.
__global__ void segmented_warp_scans(const int* values, const int* flags, int* out) {
    __shared__ int ptr[256];
    __shared__ int hd[256];
    const int idx = threadIdx.x;
    const int i = blockIdx.x * blockDim.x + idx;
    ptr[idx] = values[i];
    hd[idx] = flags[i];
    out[i] = segscan_warp(ptr, hd, idx);
}
