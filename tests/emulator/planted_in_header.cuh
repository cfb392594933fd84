// A bug in a header: the report must name this file and line, not the .cu that includes it nor
// the rewritten copy the compiler read (faults_test.cu).
#pragma once

inline const char* planted_in_header_file() {
    return __FILE__;
}

__global__ void shared_past_end_in_header(int* out) {
    __shared__ int before[32], tile[32], after[32];
    before[threadIdx.x] = 0;
    after[threadIdx.x] = 0;
    // BUG: header-past-end
    tile[threadIdx.x + 1] = static_cast<int>(threadIdx.x);
    __syncthreads();
    out[threadIdx.x] = before[threadIdx.x] + after[threadIdx.x];
}
