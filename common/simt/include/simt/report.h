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
    shared_race,        // two threads access a shared word between the same barriers, one writes
    uninitialized_read, // a shared word read before any thread of the block wrote it
    uninitialized_global_read, // device memory read that nothing (host or kernel) wrote
    global_race,        // two threads access a global word with nothing ordering them, one writes
    memory_ordering,    // a flag seen without the fences that publish the data it announces
    plain_load_spin,    // a spin-wait on a word read through a non-volatile, non-atomic pointer
    stale_read,         // a flag read that saw what an earlier launch left, overwritten later
};

struct FaultReport {
    FaultKind kind = FaultKind::none;
    cudaError_t error = cudaSuccess;
    std::string message; // the full human-readable report
    // Every finding of the launch (the first one is also in kind/message): races and
    // uninitialized reads are collected until the launch ends.
    std::vector<std::pair<FaultKind, std::string>> findings;
};

std::string to_string(FaultKind kind);
// The report of the most recent launch that failed (kind none if none did since the last reset).
const FaultReport& last_fault();
// Clears sticky errors and the last fault (cudaDeviceReset does the same).
void reset_device();

} // namespace simt
