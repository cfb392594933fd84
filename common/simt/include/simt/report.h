// What went wrong in the last launch, for programs and tests that want more than the error code.
#pragma once

#include <string>
#include <vector>

#include "simt/types.h"

namespace simt {

enum class FaultKind {
    none,
    illegal_address,    // access outside every allocation (host pointer, null, freed, past end)
    misaligned_address, // access not aligned to its size
    barrier_divergence, // threads at different __syncthreads, or some exited while others wait
    warp_mask,          // bad mask in a *_sync warp intrinsic
    deadlock,           // every thread blocked, or spinning with no write anywhere
    assertion,          // assert() failed in a kernel
    trap,               // __trap()
    unsupported,        // a feature the emulator does not implement
    stack_overflow,     // an emulated thread ran out of stack
    exception,          // a C++ exception escaped the kernel
    invalid_launch,     // launch configuration rejected (not sticky, like on a GPU)
};

struct FaultReport {
    FaultKind kind = FaultKind::none;
    cudaError_t error = cudaSuccess;
    std::string message; // the full human-readable report
};

std::string to_string(FaultKind kind);
// The report of the most recent launch that failed (kind none if none did since the last reset).
const FaultReport& last_fault();
// Clears sticky errors and the last fault (cudaDeviceReset does the same).
void reset_device();

} // namespace simt
