#pragma once

namespace simt_bench {

// What each barrier step of step_kernel does besides its __syncthreads().
enum class StepPart { barrier = 0, two_loads = 1, two_loads_and_store = 2, store = 3 };

// A launch of an empty kernel: each thread's start and end, nothing else.
bool run_empty(int blocks, int threads);
// A launch of `steps` barrier steps of `part` on a and b (one slice of `threads` ints per block).
// With two_loads_and_store, each step sets b[i] = a[i] + a[i ^ 1] and the buffers swap.
bool run_steps(int* a, int* b, int blocks, int threads, int steps, StepPart part);

} // namespace simt_bench
