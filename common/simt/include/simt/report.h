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
    global_race,     // two threads access a global word with nothing ordering them, one writes
    memory_ordering, // a flag seen without the fences that publish the data it announces
    plain_load_spin, // a spin-wait on a word read through a non-volatile, non-atomic pointer
    stale_read,      // a flag read that saw what an earlier launch left, overwritten later
};

// A place in the kernel's source, as the debug info names it (line 0: unknown).
struct SourceSite {
    std::string file;
    int line = 0;
    std::string to_string() const; // "naive_scan.cu:38", or "" when unknown
};

// What one thread did that a finding is about: a memory access, or a wait (at a barrier, a warp
// intrinsic, or a spin) for deadlocks and barrier divergence, or the statement a thread executed
// when it faulted (an assert, a trap).
enum class AccessRole { load, store, atomic, wait, execute };

struct FindingAccess {
    uint3 block{}; // the block's index in the grid
    unsigned block_linear = 0;
    uint3 thread{}; // the thread's index in its block
    unsigned thread_linear = 0;
    unsigned warp = 0; // thread_linear / 32
    unsigned lane = 0; // thread_linear % 32
    AccessRole role = AccessRole::load;
    uintptr_t address = 0; // accesses only; for shared memory the kernel's shared-window offset
    size_t bytes = 0;      // 0 for waits
    bool shared = false;   // shared memory (else device memory)
    std::string memory;    // the object the access lies in ("tile", "argument 1 (int*)"), or ""
    size_t offset = 0;     // bytes from the start of `memory`
    SourceSite site;       // the access, or where the thread waits
};

// One problem the launch found: its kind, the report text and the threads involved (the first
// access is the one the report is "at" and "by").
struct Finding {
    FaultKind kind = FaultKind::none;
    std::string message;
    SourceSite site;
    bool ends_launch = false; // a fault that stopped the launch (the others wait for its end)
    std::vector<FindingAccess> accesses;
};

struct FaultReport {
    FaultKind kind = FaultKind::none;
    cudaError_t error = cudaSuccess;
    std::string message; // the full human-readable report
    SourceSite site;     // where the first finding happened (unknown for some kinds)
    // Every finding of the launch, in the order found: races and uninitialized reads are
    // collected until the launch ends, and a fault that ends it is one too (ends_launch). kind
    // and message are that fault's, or else the first finding's.
    std::vector<Finding> findings;
};

std::string to_string(FaultKind kind);
// The report of the most recent launch that failed (kind none if none did since the last reset).
const FaultReport& last_fault();
// Clears sticky errors and the last fault (cudaDeviceReset does the same).
void reset_device();

} // namespace simt
