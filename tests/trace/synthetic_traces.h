#pragma once

// Small, valid traces of known kernels, built as the emulator would record them. They are the
// tests' inputs and, written out by trace_make_fixtures, the viewer's fixtures in fixtures/.

#include <cstdint>

#include "scanlab/trace/trace.h"

namespace scanlab::trace::testing {

// Hillis-Steele inclusive scan of n ints (n <= 1024) in one block of n threads, double-buffered
// in shared memory: one step per offset, diverged if/else branches, writers on every load.
Trace hillis_steele_trace(std::uint32_t n = 16);

// One warp storing with 32-bit strides 1..32, a padded stride, a broadcast, 64-bit strides 1, 2,
// 16 and 128-bit strides 1, 2: one step per pattern, for the bank view.
Trace bank_patterns_trace();

// Decoupled look-back over 4 blocks in 2 resident slots: dynamic tile ids by atomicAdd, tile flags
// X/A/P, a spinning look-back load. Instructions are recorded for blocks 0 and 1 only (truncated by
// max_blocks); block events cover all four.
Trace lookback_trace();

// Harris, Sengupta and Owens' work-efficient prescan of 2048 ints in one block of 1024 threads
// (the GPU Gems 3 layout: thread t loads elements t and t + n/2), with or without the padding
// k + k / 32. Only shared-memory accesses, values not recorded. Nsight Compute measures 945 store
// bank conflicts unpadded and 15 padded on an H200.
Trace harris_prescan_trace(bool padded);

// Four threads reverse four ints through shared memory: the example in docs/trace-format.md.
Trace minimal_trace();

} // namespace scanlab::trace::testing
